"""A new user's own tools on a fresh clone, timed as they run: ``tools/test`` and ``tools/run``.

Owns: ``first_table`` (the cabinet as ``tools/run`` starts it, on the simulators, until its
first frame is drawn: the time to the first table on screen), ``tools_test`` (a clone's own
``tools/test`` from nothing: its virtual environment made, pip, the set-up's compile, ruff, mypy,
the suite, each stage timed from the line that starts it) and ``tools_run_setup`` (``tools/run``'s
set-up alone: ``ensure_venv test,fast cabinet``). ``bench firstrun`` calls them. Prints nothing;
changes nothing outside the clone it is given (whose background compile it stops).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

# The first table on screen: the cabinet ``cabinet run --init`` starts on the simulators (the
# shipped configuration, a new data folder), its first frame drawn with SDL's dummy driver (the
# same drawing; no display needed), then everything closed. argv[1]: the data folder.
_FIRST_TABLE = r"""
import sys
from pathlib import Path
from machine.devtools.harness import SimulatedCabinet
from machine.operator.config import load_config
cfg = load_config(None).model_copy(update={"data_dir": sys.argv[1]})
app = SimulatedCabinet(cfg, Path.cwd(), first_start=True)
try:
    app.frame()
finally:
    app.close()
"""

# What starts each stage of ``tools/test`` and ``tools/run``'s set-up (the tools' progress lines).
STAGES = (
    ("Creating .venv", "the virtual environment"),
    ("Installing the project", "pip"),
    ("Compiling the numba kernels", "the set-up's compile"),
    ("ruff check", "ruff"),
    ("mypy", "mypy"),
)


def new_user_env(clone: Path, tables: Path) -> dict[str, str]:
    """A new user's environment on ``clone``: no virtual environment or project path of ours, an
    empty tables' cache folder, no display."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "NUMBA_CACHE_DIR", "CABINET_AOT_DIR", "PYTHONDONTWRITEBYTECODE")}
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    env.update(CABINET_CACHE_DIR=str(tables), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return env


def first_table(python: str, cwd: Path, env: dict[str, str], data: Path) -> tuple[float, str]:
    """Seconds from a new process to the cabinet's first table drawn, and its last error line ("")."""
    t = time.perf_counter()
    done = subprocess.run([python, "-c", _FIRST_TABLE, str(data)], cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    return took, "" if done.returncode == 0 else (done.stderr.strip().splitlines() or ["?"])[-1]


def staged(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, list[tuple[str, float]], int, str]:
    """Run ``cmd``; its wall time, each stage's seconds (a stage lasts until the next begins; the
    suite is what follows mypy), its status and its last line."""
    t0 = time.perf_counter()
    marks: list[tuple[str, float]] = []
    last = ""
    with subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip():
                last = line.strip()
            for start, name in STAGES:
                if line.startswith(start) and name not in (m for m, _ in marks):
                    marks.append((name, time.perf_counter()))
            if marks and marks[-1][0] == "mypy" and not line.startswith("mypy"):
                marks.append(("pytest", time.perf_counter()))
        status = proc.wait()
    end = time.perf_counter()
    stages = [(name, (marks[i + 1][1] if i + 1 < len(marks) else end) - at) for i, (name, at) in enumerate(marks)]
    return end - t0, stages, status, last


def tools_test(clone: Path, env: dict[str, str]) -> tuple[float, list[tuple[str, float]], int, str]:
    """``tools/test -q`` of ``clone`` from nothing (see ``staged``)."""
    return staged(["bash", "tools/test", "-q"], clone, env)


def tools_run_setup(clone: Path, env: dict[str, str]) -> tuple[float, list[tuple[str, float]], int, str]:
    """``tools/run``'s set-up of ``clone`` from nothing (``ensure_venv test,fast cabinet``), its
    background compile of the rest stopped afterwards (see ``staged``)."""
    try:
        return staged(["bash", "-c", ". tools/_venv.sh && ensure_venv test,fast cabinet"], clone, env)
    finally:
        stop_background(clone)


def stop_background(clone: Path) -> None:
    """Stop the background compile ``tools/run``'s set-up left running in ``clone``."""
    found = subprocess.run(["pgrep", "-f", f"{clone}/.venv/bin/python -m machine.gamemath.precompile"],
                           capture_output=True, text=True)
    for pid in found.stdout.split():
        with contextlib.suppress(ProcessLookupError, ValueError):
            os.kill(int(pid), signal.SIGTERM)
