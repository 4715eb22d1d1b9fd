"""A ``cabinet`` command run as a new process, and what that process imported.

``probe(args, env, cwd)`` runs ``python -m machine ARGS`` in a new process with ``env`` as its
whole environment; at its exit that process writes the exact analysis's kernels that served it
(``exact_fast.KERNELS``: "aot", "jit", or "-" when the blackjack math never loaded them) and the
name of every module it imported, one a line, to a file beside it; ``Probed`` reads them back
with the command's own output. The probe itself imports nothing the command would not.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

PROBE = """
import atexit, runpy, sys
def said(to=sys.argv[1]):
    fast = sys.modules.get("machine.gamemath.blackjack.exact_fast")
    with open(to, "w", encoding="utf-8") as f:
        f.write("\\n".join([str(fast and fast.KERNELS or "-"), *sorted(sys.modules)]))
atexit.register(said)
sys.argv = ["cabinet", *sys.argv[2:]]
runpy.run_module("machine", run_name="__main__")
"""


@dataclasses.dataclass(frozen=True)
class Probed:
    done: subprocess.CompletedProcess[str]
    kernels: str
    modules: frozenset[str]

    def loaded(self, *prefixes: str) -> list[str]:
        """The modules imported that are, or lie under, any of ``prefixes``."""
        return sorted(m for m in self.modules if any(m == p or m.startswith(p + ".") for p in prefixes))


def probe(args: list[str], env: dict[str, str], cwd: Path, timeout: float = 300) -> Probed:
    said = cwd / "probe-modules.txt"
    done = subprocess.run([sys.executable, "-c", PROBE, str(said), *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=timeout)
    lines = said.read_text(encoding="utf-8").splitlines() if said.exists() else ["-"]
    return Probed(done, lines[0], frozenset(lines[1:]))
