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


def test_after_the_kernels_were_compiled_once_a_new_process_compiles_none():
    pytest.importorskip("numba")
    if _compiled_in_a_new_process():  # a changed source: that process compiled and saved them
        assert _compiled_in_a_new_process() == []
    # every fast path is covered: blackjack, eenentwintig, ochko and eenendertigen


def _fake_venv(tmp_path: Path) -> Path:
    """A project folder whose .venv/bin/python only logs how it was called."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    python = bin_ / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> "{tmp_path}/calls"\n')
    python.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize(("extras", "precompiles"), [("test,fast", True), ("test", False)])
def test_the_set_up_compiles_the_kernels_right_after_installing_the_fast_extra(tmp_path, extras, precompiles):
    project = _fake_venv(tmp_path)
    script = f'. "{ROOT}/tools/_venv.sh" && ensure_venv {extras} && ensure_venv {extras}'
    done = subprocess.run(["bash", "-c", script], cwd=project, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    calls = (project / "calls").read_text().splitlines()
    expected = ["-m pip install --upgrade pip", f"-m pip install -e .[{extras}]"]
    assert calls == expected + (["-m machine.gamemath.precompile"] if precompiles else [])  # once: not on the second call
    assert ("Compiling the numba kernels" in done.stderr) == precompiles
