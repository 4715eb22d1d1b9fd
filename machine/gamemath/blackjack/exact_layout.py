"""The layout of the hand array the exact analysis's kernels read (numba-free).

Owns: the columns of ``H`` (``TOTAL``, ``CARDS``, ``TDOUBLE``, ``CHILD``): ``exact_fast``
builds the array and ``exact_kernels`` reads it, both from here, so that a process served by
the ahead-of-time module (``exact_aot``) builds its arrays without importing numba. Never
imports numba and holds nothing else.
"""

from __future__ import annotations

# Columns of the hand array ``H``: the hand's total, its number of cards, its total once
# doubled, then the hand after drawing each value (ten columns from CHILD; -1: none).
TOTAL, CARDS, TDOUBLE, CHILD = 0, 1, 2, 3
