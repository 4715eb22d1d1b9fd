"""Compiling every fast path's numba kernels ahead of use, into numba's on-disk cache.

Owns: ``python -m machine.gamemath.precompile`` (the set-up step ``tools/_venv.sh`` runs after
installing the project with the ``fast`` extra) and ``compile_all``: each engine's fast path
(blackjack's exact analysis ``exact_fast`` and ``fastsim``, ``eenentwintig_fast``, ``ochko.fast``, ``eenendertigen_fast``) plays
a couple of rounds of its engine's default rules and a few given shoes, which compiles every
kernel ``cabinet simulate --fast`` and the round-for-round checks call, with the argument types
they call them with. Every kernel is ``cache=True``, so numba writes what it compiled beside the
source (``__pycache__``, or ``NUMBA_CACHE_DIR``, or numba's user cache folder when the source
folder cannot be written), and a later process loads it in a fraction of a second instead of
compiling for 30-60 s. Numba keys that cache by the kernel's source file (its path and
modification time) and the rule files compiled into it (``fastsim.cache_follows``): an edited
or re-checked-out source compiles again on first use (and the next set-up). Keeps no figure and
no kernel of its own; without numba it says so in one line and does nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

FAST_MODULES = (
    "machine.gamemath.exact_fast",
    "machine.gamemath.fastsim",
    "machine.gamemath.eenentwintig_fast",
    "machine.gamemath.ochko.fast",
    "machine.gamemath.eenendertigen_fast",
)
"""Every module holding numba kernels."""


def _blackjack() -> None:
    from machine.gamemath import fastsim

    fastsim.ensure_compiled()  # the simulator's, the check's and the table walk's kernels


def _exact() -> None:
    from machine.gamemath.game import Analysis
    from machine.profiles import load_profile

    Analysis(load_profile("casino-blackjack").rules).compute_all(1)  # the exact analysis's kernels


def _eenentwintig() -> None:
    from machine.gamemath import eenentwintig_fast as fast
    from machine.games.eenentwintig.rules import EenentwintigRules

    rules = EenentwintigRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_shoes(rules, fast.shuffled_shoes(rules, 1, 1))


def _ochko() -> None:
    from machine.gamemath.ochko import fast
    from machine.games.ochko.rules import OchkoRules

    rules = OchkoRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_shoes(rules, fast.shuffled_shoes(rules, 1, 1), 1, rules.min_bet * 100)


def _eenendertigen() -> None:
    from machine.gamemath import eenendertigen_fast as fast
    from machine.games.eenendertigen.rules import EenendertigenRules

    rules = EenendertigenRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_decks(rules, fast.shuffled_decks(rules.variant, 1, 1))


STEPS: dict[str, Callable[[], None]] = {
    "blackjack exact": _exact,
    "blackjack": _blackjack,
    "eenentwintig": _eenentwintig,
    "ochko": _ochko,
    "eenendertigen": _eenendertigen,
}


def compile_all(report: Callable[[str], None] | None = None) -> dict[str, float]:
    """Compile (or load from numba's cache) every fast path's kernels: the seconds each engine's
    took. ``report`` gets a line per engine."""
    took: dict[str, float] = {}
    for engine, step in STEPS.items():
        s = time.perf_counter()
        step()
        took[engine] = time.perf_counter() - s
        if report:
            report(f"{engine}: {took[engine]:.1f} s")
    return took


def dispatchers(module: ModuleType) -> dict[str, Any]:
    """The numba kernels (dispatchers) a module holds at its top level, by name."""
    from numba.core.dispatcher import Dispatcher

    return {k: v for k, v in vars(module).items() if isinstance(v, Dispatcher)}


def compiled_here() -> list[str]:
    """The kernels this process compiled (``module.name``) rather than loaded from numba's
    cache: none, in a process after ``compile_all`` has run in an earlier one."""
    out = []
    for name in FAST_MODULES:
        module = sys.modules.get(name)
        for k, d in dispatchers(module).items() if module else ():
            if d.stats.cache_misses:
                out.append(f"{name}.{k}")
    return out


def cache_folder() -> str:
    """Where numba keeps the compiled blackjack kernels (the others' are beside theirs)."""
    from machine.gamemath import fastsim

    cache = getattr(fastsim._run_chunks, "_cache", None)
    return str(getattr(cache, "cache_path", "?"))


def main(argv: list[str] | None = None) -> int:
    """``python -m machine.gamemath.precompile``: compile every fast path's kernels now."""
    if argv:
        print(f"usage: python -m machine.gamemath.precompile (no arguments; got {' '.join(argv)})", file=sys.stderr)
        return 2
    try:
        import numba  # noqa: F401
    except ImportError:
        print("precompile: numba is not installed (the 'fast' extra): nothing to compile", file=sys.stderr)
        return 0
    s = time.perf_counter()
    compile_all(lambda line: print(f"  {line}", file=sys.stderr))
    compiled = len(compiled_here())
    print(f"the fast paths' kernels in {time.perf_counter() - s:.1f} s: {compiled} compiled, the rest loaded from "
          f"numba's cache ({cache_folder()})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
