"""The set-up compiles the fast paths' numba kernels once, so no command compiles them later."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A process that compiles (or loads) every kernel, then names those it had to compile itself.
CHECK = ("import json; from machine.gamemath import precompile; precompile.compile_all(); "
         "print(json.dumps(precompile.compiled_here()))")


def _compiled_in_a_new_process() -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", CHECK], capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.splitlines()[-1]))


# slow: a new process loads every kernel (and compiles them when the sources changed): minutes, once.
# The test's own bound is its processes' (2 x 900 s): the suite's 300 s is what a cold compile on a
# loaded machine outlasts.
@pytest.mark.timeout(2 * 900 + 60)
def test_after_the_kernels_were_compiled_once_a_new_process_compiles_none():
    pytest.importorskip("numba")
    if _compiled_in_a_new_process():  # a changed source: that process compiled and saved them
        assert _compiled_in_a_new_process() == []
    # every fast path is covered: blackjack, eenentwintig, ochko and eenendertigen


def _fake_venv(tmp_path: Path, refuse: str = "") -> Path:
    """A project folder whose .venv/bin/python only logs how it was called (and fails when its
    arguments hold ``refuse``)."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    python = bin_ / "python"
    fail = f'case "$*" in *{refuse}*) exit 1;; esac\n' if refuse else ""
    python.write_text(f'#!/bin/sh\necho "$*" >> "{tmp_path}/calls"\n{fail}')
    python.chmod(0o755)
    return tmp_path


COMPAT = "--config-settings editable_mode=compat"  # a .pth line, no import hook at every Python start


@pytest.mark.parametrize(("extras", "kernels", "precompiles"), [
    ("test,fast", "", ["-m machine.gamemath.precompile --jobs 2"]),  # tools/test: every kernel, two at a time
    ("test,fast", "cabinet", ["-m machine.gamemath.precompile --cabinet",  # tools/run: the cabinet's before its window,
                              "-m machine.gamemath.precompile --rest"]),  # the others in the background
    ("test", "", []),
])
def test_the_set_up_compiles_the_kernels_right_after_installing_the_fast_extra(tmp_path, extras, kernels, precompiles):
    project = _fake_venv(tmp_path)
    script = f'. "{ROOT}/tools/_venv.sh" && ensure_venv {extras} {kernels} && ensure_venv {extras} {kernels}; wait'
    done = subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    calls = (project / "calls").read_text().splitlines()
    expected = ["-m pip install --upgrade pip", f"-m pip install -e .[{extras}] {COMPAT}"]
    assert calls == expected + precompiles  # once: not on the second call
    assert ("Compiling the numba kernels" in done.stderr) == bool(precompiles)
    assert ("in the background" in done.stderr) == (kernels == "cabinet")


def test_where_setuptools_refuses_the_compat_editable_mode_the_set_up_installs_in_its_default(tmp_path):
    project = _fake_venv(tmp_path, refuse="editable_mode=compat")
    done = subprocess.run(["bash", "-c", f'. "{ROOT}/tools/_venv.sh" && ensure_venv test'], cwd=project,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert (project / "calls").read_text().splitlines() == [
        "-m pip install --upgrade pip", f"-m pip install -e .[test] {COMPAT}", "-m pip install -e .[test]"]
    assert "refused editable_mode=compat" in (project / ".venv" / "pip.log").read_text()


def test_the_tools_ask_for_the_kernels_they_need():
    assert "ensure_venv test,fast cabinet" in (ROOT / "tools" / "run").read_text()  # the window waits for Auto's only
    assert "ensure_venv test,fast\n" in (ROOT / "tools" / "test").read_text()  # the suite needs them all


# The steps the cabinet's start needs, and a headless cabinet that names the kernels it used.
USED = ("import json, sys; from numba.core.dispatcher import Dispatcher\n"
        "def used():\n"
        "    return sorted(f'{n}.{k}' for n, m in list(sys.modules.items()) if n.startswith('machine.gamemath.') and m\n"
        "                  for k, d in vars(m).items() if isinstance(d, Dispatcher) and d.overloads)\n")


def _used_by(code: str, tmp_path: Path) -> list[str]:
    # numba's jit kernels (the ahead-of-time module of the exact analysis, exact_aot, would serve
    # without any: the jit is what serves when it is absent or stale)
    env = dict(os.environ, PYTHONPATH=str(ROOT), CABINET_CACHE_DIR=str(tmp_path / "cache"),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", CABINET_EXACT="jit")
    done = subprocess.run([sys.executable, "-c", USED + code + "\nprint(json.dumps(used()))"], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=900)
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout.splitlines()[-1]))


# slow: two new processes, one of them a headless cabinet with its simulators
@pytest.mark.timeout(2 * 900 + 60)  # its processes' bound (see above)
def test_the_cabinet_needs_no_kernel_but_those_the_set_up_compiles_before_its_window(tmp_path):
    pytest.importorskip("numba")
    from machine.gamemath import precompile

    assert precompile.cabinet_steps() == ["blackjack exact"]
    first = _used_by("from machine.gamemath import precompile; precompile.compile_all(only=precompile.cabinet_steps())",
                     tmp_path)
    run = _used_by("from machine.cli import main; main(['run', '--headless', '--rounds', '3'])", tmp_path)
    assert run, "the cabinet used no kernel at all: nothing was checked"
    assert set(run) <= set(first), f"the cabinet needs kernels the set-up leaves for later: {sorted(set(run) - set(first))}"
    assert not any(".fast" in k or "fastkernel" in k for k in first)  # the simulators are not among them


def test_a_first_use_that_compiles_says_so_once_and_a_cached_one_says_nothing(monkeypatch, capsys):
    pytest.importorskip("numba")
    import threading
    import time

    from machine.gamemath import ochko, precompile

    ran: list[str] = []
    monkeypatch.setattr(precompile, "_READY", set())
    def slow() -> None:  # longer than ``after``: 0.4 s, and until the timer has had its turn (on a
        ran.append("slow")  # loaded machine its thread may start late; 30 s only bound a hang)
        time.sleep(0.4)
        end = time.monotonic() + 30
        for timer in [t for t in threading.enumerate() if isinstance(t, threading.Timer)]:
            timer.finished.wait(max(0.0, end - time.monotonic()))

    monkeypatch.setattr(ochko, "precompile", slow)
    precompile.first_use("ochko", after=0.1)
    precompile.first_use("ochko", after=0.1)  # once a process
    err = capsys.readouterr().err
    assert ran == ["slow"]
    assert err.count("compiling ochko's numba kernels (a first use: once") == 1
    assert "ochko's kernels compiled in" in err
    monkeypatch.setattr(precompile, "_READY", set())
    monkeypatch.setattr(ochko, "precompile", lambda: ran.append("cached"))
    precompile.first_use("ochko", after=30.0)  # well within it, however slow the machine (0.1 s may not be)
    assert ran == ["slow", "cached"] and capsys.readouterr().err == ""


def test_the_precompile_command_refuses_what_it_does_not_know_in_one_line(capsys):
    from machine.gamemath import precompile

    assert precompile.main(["--only", "baccarat"]) == 2
    assert "--only: no step baccarat (the steps: blackjack exact, blackjack," in capsys.readouterr().err
    assert precompile.main(["--jobs", "0"]) == 2
    assert "--jobs 0: a number of processes" in capsys.readouterr().err
