"""A new user's first run, timed: the kernels' compile, the first table, the suite (issue 27).

Owns: ``cabinet bench compile`` (each precompile step's numba compile from an empty cache, per
kernel, in processes of their own; with ``COMPILE_BEFORE`` set to a git revision, that
revision's beside it), ``cabinet bench suite`` (the test suite as ``tools/test`` runs it: its
time and the slowest 20 tests, each with the reason written beside it) and ``cabinet bench
firstrun`` (from a fresh clone: the set-up's compile of what the cabinet needs, the time to the
first table on screen and to the first round, the rest of the compile, the suite, the compile per
kernel beside an older revision's, and ``cabinet rtp`` beside Farmer's ``strategy``; with
``FIRSTRUN_TOOLS=1`` first the new user's own ``tools/test`` and ``tools/run``, pip included:
``newuser``). Prints figures; asserts nothing; changes nothing outside temporary folders.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine.devtools.bench import newuser
from machine.devtools.bench.common import bench, child_env, last_line

ROOT = Path(__file__).resolve().parents[3]
BEFORE_VARIABLE = "COMPILE_BEFORE"  # a git revision whose compile ``bench compile`` prints beside this one's
SUITE_VARIABLE = "FIRSTRUN_SUITE"  # "0": ``bench firstrun`` leaves the suite out (``bench suite`` runs it alone)

# Run in a child with an empty NUMBA_CACHE_DIR: one precompile step, every compile numba reports
# timed on the process's CPU clock (a kernel's own time: what the kernels it compiles on the way
# took is theirs), printed as JSON. Only numba and ``precompile.steps()`` are used, so it runs on
# an older checkout too.
_PROFILE = r"""
import json, resource, sys, time
from collections import defaultdict
from numba.core import event
own, count, stack = defaultdict(float), defaultdict(int), []
class Compiles(event.Listener):
    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        stack.append([f"{f.__module__}.{f.__qualname__}", time.process_time(), 0.0])
    def on_end(self, ev):
        name, t0, inner = stack.pop()
        took = time.process_time() - t0
        own[name] += took - inner
        count[name] += 1
        if stack:
            stack[-1][2] += took
event.register("numba:compile", Compiles())
from machine.gamemath import precompile
t = time.process_time()
precompile.steps()[sys.argv[1]]()
print(json.dumps({"cpu": time.process_time() - t, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "kernels": {k: [own[k], count[k]] for k in own}}))
"""


def _load() -> str:
    try:
        return f"load {os.getloadavg()[0]:.1f}"
    except OSError:  # pragma: no cover
        return "load ?"


def _steps(tree: Path) -> list[str]:
    code = "import json; from machine.gamemath import precompile; print(json.dumps(list(precompile.steps())))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tree,
                          env=dict(os.environ, PYTHONPATH=str(tree)))
    return list(json.loads(done.stdout)) if done.returncode == 0 else []


def profile_step(tree: Path, step: str) -> dict | str:
    """One step's compile in a new process on ``tree`` with an empty numba cache: its CPU seconds,
    peak memory and each kernel's own CPU seconds and compiles, or the child's last line."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as tables:
        env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_CACHE_DIR=cache, CABINET_CACHE_DIR=tables)
        done = subprocess.run([sys.executable, "-c", _PROFILE, step], capture_output=True, text=True, cwd=tree, env=env)
    if done.returncode != 0:
        return last_line(done.stderr)
    got: dict = json.loads(done.stdout.splitlines()[-1])
    return got


def _exported(revision: str, into: Path) -> Path | str:
    """The ``machine`` and ``config`` folders of ``revision`` of this checkout, in ``into``."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision, "machine", "config"], capture_output=True)
    if archive.returncode != 0:
        return f"git archive {revision}: {last_line(archive.stderr.decode(errors='replace'))}"
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


@bench("compile")
def compile_bench() -> None:
    """Each precompile step's numba compile from an empty cache, one process a step (numba compiles
    on one core): its CPU seconds, peak memory and its kernels' own CPU seconds (the ten largest,
    with how many times each was compiled: a second compile is a second specialisation). With
    ``COMPILE_BEFORE`` (a git revision, e.g. the commit before issue 27's changes), that
    revision's figures first, then this checkout's, and each step's ratio."""
    trees: list[tuple[str, Path]] = []
    revision = os.environ.get(BEFORE_VARIABLE)
    with tempfile.TemporaryDirectory() as old:
        if revision:
            tree_before = _exported(revision, Path(old))
            if isinstance(tree_before, str):
                print(f"{BEFORE_VARIABLE}={revision}: not compared ({tree_before})")
            else:
                trees.append((f"before ({revision})", tree_before))
        else:
            print(f"{BEFORE_VARIABLE} is not set: this checkout alone (export {BEFORE_VARIABLE}=REV to compare)")
        trees.append(("now", ROOT))
        totals: dict[str, dict[str, float]] = {}
        for label, tree in trees:
            totals[label] = {}
            for step in _steps(tree):
                got = profile_step(tree, step)
                if isinstance(got, str):
                    print(f"{label}: {step}: failed: {got}")
                    continue
                totals[label][step] = got["cpu"]
                kernels = sorted(got["kernels"].items(), key=lambda kv: -kv[1][0])
                print(f"{label}: {step}: {got['cpu']:.1f} s of CPU, {len(kernels)} kernels, peak {got['rss_mb']:.0f} MB "
                      f"({_load()})")
                for name, (own, times) in kernels[:10]:
                    print(f"    {own:6.2f} s  {name}" + (f"  (compiled {times} times)" if times > 1 else ""))
    if len(totals) == 2:
        before, now = totals.values()
        for step in now:
            if step in before and now[step] > 0:
                print(f"{step}: {before[step]:.1f} s -> {now[step]:.1f} s of CPU ({before[step] / now[step]:.2f}x)")
        print(f"every step: {sum(before.values()):.1f} s -> {sum(now.values()):.1f} s of CPU")


_DURATION = re.compile(r"^\s*(\d+\.\d+)s (call|setup|teardown)\s+(\S+)$")


def slow_reason(nodeid: str) -> str:
    """The reason written beside a slow test: the ``# slow:`` comment on the lines just above its
    ``def`` (or its fixture's), else ``(no reason written)``."""
    path, _, name = nodeid.partition("::")
    name = name.split("[")[0].split("::")[-1]
    try:
        lines = (ROOT / path).read_text().splitlines()
    except OSError:
        return "(no reason written)"
    for i, line in enumerate(lines):
        if re.match(rf"\s*(async\s+)?def {re.escape(name)}\(", line):
            above = lines[max(0, i - 6):i]
            starts = [k for k, text in enumerate(above) if "# slow:" in text]
            if starts:
                said = [above[starts[-1]].split("# slow:", 1)[1].strip()]
                said += [t.strip().lstrip("#").strip() for t in above[starts[-1] + 1:] if t.strip().startswith("#")]
                return " ".join(said)
    return "(no reason written)"


def suite_workers(cwd: Path) -> str:
    """The number of pytest workers ``tools/test`` starts (its ``PYTEST_WORKERS`` default)."""
    said = re.search(r"PYTEST_WORKERS:-(\d+)", (cwd / "tools" / "test").read_text())
    return said.group(1) if said else "2"


def run_suite(cwd: Path, env: dict[str, str], workers: str | None = None) -> tuple[float, int, list[tuple[float, str, str]]]:
    """The suite as ``tools/test`` runs it (its workers, a file at a time): its wall time, its
    status and its slowest 20 phases (seconds, phase, test)."""
    workers = workers or suite_workers(cwd)
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers, "--dist", "loadfile",
           "--durations=20", "--durations-min=0.5"]
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - t
    slow = [(float(m.group(1)), m.group(2), m.group(3)) for m in map(_DURATION.match, done.stdout.splitlines()) if m]
    if done.returncode != 0:
        print(f"the suite ended with status {done.returncode}: {last_line(done.stdout)}")
    return seconds, done.returncode, slow


def _print_slowest(slow: list[tuple[float, str, str]]) -> None:
    for seconds, phase, test in slow:
        print(f"  {seconds:6.2f} s {phase:8s} {test}  -- {slow_reason(test)}")


@bench("suite")
def suite_bench() -> None:
    """The test suite of this checkout as ``tools/test`` runs it (pytest, its workers, a file at a
    time; ruff and mypy apart): its wall time and the slowest 20 tests with their times and the
    reason written beside each. The other work on the machine lengthens it: the load is printed."""
    env = dict(child_env(), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    print(f"running the suite ({_load()}) ...", flush=True)
    seconds, _, slow = run_suite(ROOT, env)
    print(f"the suite on {suite_workers(ROOT)} workers: {seconds:.0f} s wall ({_load()} at the end); the slowest 20:")
    _print_slowest(slow)


def _timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    return time.perf_counter() - t, done


TOOLS_VARIABLE = "FIRSTRUN_TOOLS"  # "1": ``bench firstrun`` also runs a fresh clone's own tools/test and tools/run set-up


@bench("firstrun")
def firstrun_bench() -> None:
    """A new user's first run, from a fresh clone of this checkout's commit (its own numba and
    table caches, empty; this interpreter's packages, so pip's time is not among them): the
    set-up's compile of what the cabinet needs (``precompile --cabinet``), the time from there to
    the first table on screen (the cabinet ``tools/run`` starts, on the simulators, until its
    first frame is drawn) and to the first round played (``cabinet run --headless --rounds 1``),
    the rest of the compile (``--rest --jobs 2``), the suite (``bench suite``; ``FIRSTRUN_SUITE=0``:
    without), each set-up step's compile per kernel beside ``COMPILE_BEFORE``'s (``bench
    compile``; when that variable is set), then ``cabinet rtp`` beside Farmer's ``strategy``
    (``bench farmer``). With ``FIRSTRUN_TOOLS=1``, first the new user's own tools on fresh clones
    with virtual environments of their own (pip from the package registries, its download cache
    kept): ``tools/test`` whole, stage by stage, and ``tools/run``'s set-up then its first table."""
    from machine.devtools.bench.farmer import farmer_bench

    if os.environ.get(TOOLS_VARIABLE) == "1":
        _new_user_tools()
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        subprocess.run(["git", "clone", "-q", "--local", str(ROOT), str(clone)], check=True)
        (Path(tmp) / "numba").mkdir()
        env = dict(os.environ, PYTHONPATH=str(clone), NUMBA_CACHE_DIR=str(Path(tmp) / "numba"),
                   CABINET_CACHE_DIR=str(Path(tmp) / "tables"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's Python keeps its byte code
        py = [sys.executable, "-m"]
        head = subprocess.run(["git", "-C", str(clone), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        print(f"fresh clone of {head.stdout.strip()} ({_load()})")
        setup, done = _timed([*py, "machine.gamemath.precompile", "--cabinet"], clone, env)
        print(f"set-up, the cabinet's kernels (precompile --cabinet): {setup:.1f} s ({_load()}); {last_line(done.stderr)}")
        took, failed = newuser.first_table(sys.executable, clone, env, Path(tmp) / "data-window")
        print(f"then the first table on screen (the cabinet tools/run starts, its first frame drawn): {took:.1f} s"
              f"{': failed: ' + failed if failed else ''}; set-up included {setup + took:.1f} s ({_load()})")
        took, done = _timed([*py, "machine", "run", "--headless", "--rounds", "1"], clone, env)
        print(f"then to the first round played (cabinet run --headless --rounds 1, Auto's tables computed): {took:.1f} s"
              f" ({_load()}){'' if done.returncode == 0 else ': failed: ' + last_line(done.stderr)}")
        took, done = _timed([*py, "machine.gamemath.precompile", "--rest", "--jobs", "2"], clone, env)
        print(f"the rest of the set-up's compile (precompile --rest --jobs 2): {took:.1f} s ({_load()})")
        for line in done.stderr.strip().splitlines()[:-1]:
            print(f"  {line.strip()}")
        if os.environ.get(SUITE_VARIABLE) == "0":
            print(f"the suite not run ({SUITE_VARIABLE}=0)")
        else:
            print(f"the suite ({_load()}) ...", flush=True)
            seconds, _, slow = run_suite(clone, env)
            print(f"the suite after the set-up: {seconds:.0f} s wall ({_load()}); the slowest 20:")
            _print_slowest(slow)
    if os.environ.get(BEFORE_VARIABLE):
        compile_bench()
    else:
        print(f"the compile per kernel before and after: export {BEFORE_VARIABLE}=REV (e.g. eb92839, before issue 27)")
    farmer_bench()


def _new_user_tools() -> None:
    """``tools/test`` and ``tools/run``'s set-up, each on a fresh clone of its own with its own
    virtual environment, timed stage by stage (``FIRSTRUN_TOOLS=1``)."""
    for what in ("tools/test", "tools/run"):
        with tempfile.TemporaryDirectory() as tmp:
            clone = Path(tmp) / "clone"
            subprocess.run(["git", "clone", "-q", "--local", str(ROOT), str(clone)], check=True)
            env = newuser.new_user_env(clone, Path(tmp) / "tables")
            print(f"{what} on a fresh clone, a virtual environment of its own ({_load()}) ...", flush=True)
            if what == "tools/test":
                took, stages, status, last = newuser.tools_test(clone, env)
            else:
                took, stages, status, last = newuser.tools_run_setup(clone, env)
            parts = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in stages)
            print(f"{what}{' set-up' if what == 'tools/run' else ''}: {took:.0f} s wall ({parts}; {_load()})"
                  + ("" if status == 0 else f": status {status}: {last}"))
            if what == "tools/run" and status == 0:
                shown, failed = newuser.first_table(str(clone / ".venv" / "bin" / "python"), clone, env, Path(tmp) / "data")
                print(f"tools/run: then the first table on screen {shown:.1f} s"
                      f"{': failed: ' + failed if failed else ''}: {took + shown:.0f} s from the clone to the table")
