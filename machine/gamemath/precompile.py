"""Compiling every fast path's numba kernels ahead of use, into numba's on-disk cache.

Owns: ``python -m machine.gamemath.precompile`` (the set-up step ``tools/_venv.sh`` runs after
installing the project with the ``fast`` extra) and ``compile_all``: the steps of every engine
of the registry (``machine.games.catalog``), each its math package's ``precompile`` (blackjack
names two: its exact analysis and its simulator, ``PRECOMPILE_STEPS``): each fast path plays
a couple of rounds of its engine's default rules and a few given shoes, which compiles every
kernel ``cabinet simulate --fast`` and the round-for-round checks call, with the argument types
they call them with. Every kernel is ``cache=True``, so numba writes what it compiled beside the
source (``__pycache__``, or ``NUMBA_CACHE_DIR``, or numba's user cache folder when the source
folder cannot be written), and a later process loads it in a fraction of a second instead of
compiling for 30-60 s. Numba keys that cache by the kernel's source file (its path and
modification time) and the rule files compiled into it (``kernels.cache_follows``): an edited
or re-checked-out source compiles again on first use (and the next set-up). Keeps no figure and
no kernel of its own; without numba it says so in one line and does nothing.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

from machine.games import catalog


def steps() -> dict[str, Callable[[], None]]:
    """Every engine's precompile steps, in the registry's order: its math package's
    ``PRECOMPILE_STEPS`` where it names several (blackjack: "blackjack exact", "blackjack"),
    else its ``precompile`` under the engine's name."""
    out: dict[str, Callable[[], None]] = {}
    for engine in catalog.engines():
        math = engine.module("math")
        out.update(getattr(math, "PRECOMPILE_STEPS", None) or {engine.name: math.precompile})
    return out


def compile_all(report: Callable[[str], None] | None = None) -> dict[str, float]:
    """Compile (or load from numba's cache) every fast path's kernels: the seconds each engine's
    took. ``report`` gets a line per engine."""
    took: dict[str, float] = {}
    for engine, step in steps().items():
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
    """The kernels this process compiled (``module.name``, in any loaded module of the game
    math) rather than loaded from numba's cache: none, in a process after ``compile_all`` has
    run in an earlier one."""
    out = []
    for name, module in sorted(sys.modules.items()):
        if name.startswith("machine.gamemath.") and module is not None:
            out += [f"{name}.{k}" for k, d in dispatchers(module).items() if d.stats.cache_misses]
    return out


def cache_folder() -> str:
    """Where numba keeps the compiled kernels of the shared toolkit (every game's are beside
    their own source)."""
    from machine.gamemath import kernels

    cache = getattr(kernels.rng_seeded, "_cache", None)
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
