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

Steps come in two sets: those the cabinet itself needs before its first window (``cabinet``:
the math packages' ``CABINET_STEPS``, blackjack's exact analysis for Auto's tables, a few
seconds) and the rest (the fast simulators, a command's first use). ``--cabinet`` and ``--rest``
compile one set, ``--only`` named steps, ``--jobs N`` runs the steps in N processes at once
(numba compiles on one core); ``first_use`` compiles one engine's steps ahead of a command,
with a line saying so when that takes a while (nothing in a process that finds them cached).
"""

from __future__ import annotations

import subprocess
import sys
import threading
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


def cabinet_steps() -> list[str]:
    """The steps the cabinet's own start needs (Auto's tables of every game of the registry):
    each math package's ``CABINET_STEPS``, in the registry's order."""
    out: list[str] = []
    for engine in catalog.engines():
        out += [s for s in getattr(engine.module("math"), "CABINET_STEPS", ()) if s not in out]
    return out


def compile_all(report: Callable[[str], None] | None = None, only: list[str] | None = None) -> dict[str, float]:
    """Compile (or load from numba's cache) every fast path's kernels (or the steps ``only``
    names): the seconds each step took. ``report`` gets a line per step."""
    took: dict[str, float] = {}
    for engine, step in steps().items():
        if only is not None and engine not in only:
            continue
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


_READY: set[str] = set()


def first_use(engine: str, after: float = 1.0) -> None:
    """Compile (or load) ``engine``'s kernels now, ahead of a command that needs them; when that
    takes more than ``after`` seconds (they were not in numba's cache: a first use), one line on
    standard error says what is compiling and that it happens once, and another how long it
    took. Once per process; without numba, nothing (the command says so itself)."""
    if engine in _READY:
        return
    _READY.add(engine)
    try:
        import numba  # noqa: F401
    except ImportError:
        return
    math = catalog.engine(engine).module("math")
    named = getattr(math, "PRECOMPILE_STEPS", None) or {engine: math.precompile}
    todo = [step for name, step in named.items() if name not in getattr(math, "CABINET_STEPS", ())]
    said = threading.Event()

    def say() -> None:
        said.set()
        print(f"compiling {engine}'s numba kernels (a first use: once, then every command loads them from "
              "numba's cache; python -m machine.gamemath.precompile compiles them all ahead) ...",
              file=sys.stderr, flush=True)

    timer = threading.Timer(after, say)
    timer.daemon = True
    s = time.perf_counter()
    timer.start()
    try:
        for step in todo:
            step()
    except ImportError:  # no fast path in this install (its kernels' module is missing): the command says so
        return
    finally:
        timer.cancel()
    if said.is_set():
        print(f"{engine}'s kernels compiled in {time.perf_counter() - s:.0f} s", file=sys.stderr, flush=True)


def _in_processes(names: list[str], jobs: int, report: Callable[[str], None]) -> int:
    """Each step in a process of its own, ``jobs`` at a time (numba compiles on one core); the
    first failure's status (every step is still tried)."""
    status = 0
    waiting = list(names)
    running: list[tuple[str, subprocess.Popen[str], float]] = []
    while waiting or running:
        while waiting and len(running) < jobs:
            name = waiting.pop(0)
            cmd = [sys.executable, "-m", "machine.gamemath.precompile", "--only", name]
            running.append((name, subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True), time.perf_counter()))
        time.sleep(0.05)
        for entry in list(running):
            name, proc, started = entry
            if proc.poll() is None:
                continue
            running.remove(entry)
            err = proc.stderr.read() if proc.stderr else ""
            if proc.returncode != 0:
                status = status or proc.returncode
                report(f"{name}: failed ({err.strip().splitlines()[-1] if err.strip() else proc.returncode})")
            else:
                report(f"{name}: {time.perf_counter() - started:.1f} s")
    return status


USAGE = ("usage: python -m machine.gamemath.precompile [--cabinet | --rest | --only STEP[,STEP...]] [--jobs N]\n"
         "  (no option: every step; --cabinet: what the cabinet needs before its first window; --rest: the others)")


def _chosen(argv: list[str]) -> tuple[list[str], int] | str:
    """The steps and the processes ``argv`` asks for, or what is wrong with it (one line)."""
    every = list(steps())
    names, jobs, rest = every, 1, list(argv)
    while rest:
        opt = rest.pop(0)
        if opt == "--cabinet":
            names = cabinet_steps()
        elif opt == "--rest":
            names = [n for n in every if n not in cabinet_steps()]
        elif opt in ("--only", "--jobs") and rest:
            value = rest.pop(0)
            if opt == "--jobs":
                if not value.isdigit() or int(value) < 1:
                    return f"--jobs {value}: a number of processes, 1 or more"
                jobs = int(value)
            else:
                names = [n.strip() for n in value.split(",") if n.strip()]
                unknown = [n for n in names if n not in every]
                if unknown:
                    return f"--only: no step {', '.join(unknown)} (the steps: {', '.join(every)})"
        else:
            return f"unknown argument {opt}"
    return names, jobs


def main(argv: list[str] | None = None) -> int:
    """``python -m machine.gamemath.precompile``: compile the fast paths' kernels now (every
    step, or those the options name)."""
    chosen = _chosen(argv or [])
    if isinstance(chosen, str):
        print(f"precompile: {chosen}\n{USAGE}", file=sys.stderr)
        return 2
    names, jobs = chosen
    try:
        import numba  # noqa: F401
    except ImportError:
        print("precompile: numba is not installed (the 'fast' extra): nothing to compile", file=sys.stderr)
        return 0
    s = time.perf_counter()
    report: Callable[[str], None] = lambda line: print(f"  {line}", file=sys.stderr, flush=True)  # noqa: E731
    if jobs > 1 and len(names) > 1:
        status = _in_processes(names, jobs, report)
        print(f"the kernels of {', '.join(names)} in {time.perf_counter() - s:.1f} s ({jobs} processes; numba's "
              f"cache: {cache_folder()})", file=sys.stderr)
        return status
    compile_all(report, names)
    compiled = len(compiled_here())
    print(f"the kernels of {', '.join(names)} in {time.perf_counter() - s:.1f} s: {compiled} compiled, the rest loaded "
          f"from numba's cache ({cache_folder()})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
