"""One thread for numpy's linear algebra library (OpenBLAS) in a process of the game math.

Owns: the default of ``OPENBLAS_NUM_THREADS`` (1), set when this module is imported, which must
be before numpy is: OpenBLAS starts a thread per core when numpy loads, and each spins for a
while before it sleeps, taking a core from the analysis's own threads (about 30 ms of CPU of a
``cabinet rtp`` on two cores). The math calls no BLAS routine worth a thread. A value the user
set is kept. Never imports numpy.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
