"""The new user's tools timed stage by stage (``bench firstrun`` with ``FIRSTRUN_TOOLS=1``)."""

import sys
import time
from pathlib import Path

from machine.devtools.bench import newuser

TOOL = """
echo 'Creating .venv (first run) ...' >&2
echo 'Installing the project into .venv ...' >&2
sleep 0.3
echo 'Compiling the numba kernels (...) ...' >&2
echo 'ruff check' >&2
echo 'mypy' >&2
sleep 0.2
echo '....  [100%]'
echo '4 passed in 0.01s'
"""


def test_each_stage_of_a_tool_is_timed_from_the_line_that_starts_it(tmp_path: Path, monkeypatch) -> None:
    # Every reading of the clock kept: the stages are checked against the readings themselves, not
    # against a guess of how long bash takes to print its first line (on a loaded machine, long).
    readings: list[float] = []
    clock = time.perf_counter

    def read() -> float:
        readings.append(clock())
        return readings[-1]

    monkeypatch.setattr(time, "perf_counter", read)
    took, stages, status, last = newuser.staged(["bash", "-c", TOOL], tmp_path, {"PATH": "/usr/bin:/bin"})
    monkeypatch.undo()
    assert status == 0 and last == "4 passed in 0.01s"
    names = [name for name, _ in stages]
    assert names == ["the virtual environment", "pip", "the set-up's compile", "ruff", "mypy", "pytest"]
    # a stage lasts from the reading at its line until the reading at the next stage's (the last
    # one's until the end); the readings taken as the lines came, so none before the sleeps that
    # precede its line (how late each line is read is the scheduler's: no bound on a stage alone)
    start, marks, end = readings[0], readings[1:-1], readings[-1]
    assert len(marks) == len(names) and took == end - start
    assert [s for _, s in stages] == [b - a for a, b in zip(marks, [*marks[1:], end], strict=True)]
    assert marks[2] - start >= 0.3 and marks[5] - start >= 0.3 + 0.2


def test_the_new_users_environment_has_no_virtual_environment_of_ours(tmp_path: Path) -> None:
    env = newuser.new_user_env(tmp_path, tmp_path / "tables")
    assert "VIRTUAL_ENV" not in env and "PYTHONPATH" not in env
    assert str(Path(sys.executable).parent) not in env["PATH"].split(":")
    assert env["CABINET_CACHE_DIR"] == str(tmp_path / "tables") and env["SDL_VIDEODRIVER"] == "dummy"
