"""The progress lines of the long development commands (machine/progress.py): in place
on a terminal, plain lines a few seconds apart in a file, never on stdout."""

from __future__ import annotations

import io
import time

from machine.devtools.crashtest import CrashReport
from machine.devtools.crashtest import progress_line as crash_line
from machine.devtools.soak import progress_line as soak_line
from machine.progress import CLEAR_TO_END, Progress, RateProgress, duration, working


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_line_is_rewritten_in_place_at_most_every_fifth_of_a_second():
    out, clock = Terminal(), Clock()
    p = Progress(out, clock=clock)
    assert p.in_place and p.show("one")
    clock.t = 0.1
    assert not p.show("skipped")
    clock.t = 0.3
    assert p.show("two")
    p.done("three")
    assert out.getvalue() == f"\rone{CLEAR_TO_END}\rtwo{CLEAR_TO_END}\rthree{CLEAR_TO_END}\n"


def test_in_a_file_it_writes_plain_lines_every_five_seconds():
    out, clock = io.StringIO(), Clock()
    p = Progress(out, clock=clock)
    for t in range(0, 12):
        clock.t = float(t)
        p.show(f"at {t}")
    p.done("end")
    assert out.getvalue().splitlines() == ["at 0", "at 5", "at 10", "end"]


def test_a_counted_run_says_how_far_it_is_its_rate_and_the_time_left_then_the_time_it_took():
    out, clock = io.StringIO(), Clock()
    p = RateProgress("cabinet simulate", stream=out, clock=clock)
    clock.t = 10.0
    p(40_000, 100_000)
    clock.t = 12.0
    p(48_000, 100_000)  # under five seconds after the last line: not written to a file
    clock.t = 25.0
    p(100_000, 100_000)  # the last one always is
    assert out.getvalue().splitlines() == [
        "cabinet simulate: 40000/100000 rounds (40 %), 4,000 rounds/s, ETA 15 s",
        "cabinet simulate: 100000/100000 rounds (100 %), 4,000 rounds/s, done in 25 s",
    ]


def test_the_rate_is_the_work_s_pace_from_the_first_report_not_the_set_up_before_it():
    out, clock = io.StringIO(), Clock()
    p = RateProgress("cabinet simulate", stream=out, every=0.0, clock=clock)
    clock.t = 30.0  # compiling and tables first
    p(1_000_000, 10_000_000)
    clock.t = 31.0
    p(2_000_000, 10_000_000)
    assert out.getvalue().splitlines()[-1] == "cabinet simulate: 2000000/10000000 rounds (20 %), 1,000,000 rounds/s, ETA 8 s"


def test_a_time_left_reads_in_seconds_minutes_or_hours():
    assert [duration(s) for s in (0, 42.4, 185, 7620, -3)] == ["0 s", "42 s", "3 min 05 s", "2 h 07 min", "0 s"]


def _until_shown(stream: io.StringIO) -> None:
    """Until the progress thread wrote its first line (on a loaded machine it may start late; the
    30 s only bound a hang)."""
    end = time.monotonic() + 30
    while "so far" not in stream.getvalue() and time.monotonic() < end:
        time.sleep(0.005)


def test_working_says_the_elapsed_time_only_for_a_long_run_and_closes_its_line(monkeypatch):
    import types

    import machine.progress

    # the clock stands still: the seconds shown are the ones the lines are built from, not those
    # a busy machine took
    monkeypatch.setattr(machine.progress, "time", types.SimpleNamespace(monotonic=lambda: 100.0))
    quick = io.StringIO()
    with working("pricing", quick, after=5.0):
        pass
    assert quick.getvalue() == ""
    slow = io.StringIO()
    with working("pricing", slow, after=0.0):
        _until_shown(slow)
    lines = slow.getvalue().splitlines()
    assert lines[0] == "pricing, 0 s so far" and lines[-1] == "pricing, done in 0 s"
    term = Terminal()
    with working("pricing", term, after=0.0):
        _until_shown(term)
    assert term.getvalue().startswith("\rpricing, 0 s so far") and term.getvalue().endswith(f"\r{CLEAR_TO_END}")


def test_the_soak_and_crash_test_lines_read_as_sentences_not_python_lists():
    assert soak_line({1: 12, 2: 11, 3: 13, 4: 12}, 20, 8.0) == (
        "soak: games per seat 1: 12  2: 11  3: 13  4: 12 (of 20), 1.5 rounds/s"
    )
    assert soak_line({1: 20, 2: 21}, 20, 0.0, collecting=True).endswith("0.0 rounds/s, collecting the credit")
    r = CrashReport()
    r.kills, r.scenarios = 3, 2
    assert crash_line(r, 5) == "crash test: kill point 3 of 5, scenario 2, 0 discrepancies so far"
