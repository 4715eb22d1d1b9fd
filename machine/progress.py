"""Progress a person reads while a long command runs (a price, a simulation, a soak): one line, on stderr.

Owns: ``Progress`` — a progress line rewritten in place on a terminal (a few times a second at
most), or written as plain lines, one every few seconds, when the stream is a file or a pipe
(a log keeps a readable history, never a screenful of carriage returns); and ``working``, the
same for a computation that cannot say how far it is (its elapsed time, after a short grace, so
a quick run prints nothing); and ``RateProgress``, the line of a run that counts its work (done of
total, the rate and the time left). Never writes to stdout: the commands' results and the lines tests
and the README rely on stay there, unchanged.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

CLEAR_TO_END = "\x1b[K"  # after a rewritten line: no tail of a longer earlier one
IN_PLACE_EVERY = 0.2  # seconds between rewrites on a terminal
PLAIN_EVERY = 5.0  # seconds between lines in a file or a pipe


class Progress:
    """One progress line on ``stream`` (default: stderr when created)."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        in_place: bool | None = None,
        every: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.stream = stream if stream is not None else sys.stderr
        isatty = getattr(self.stream, "isatty", None)
        self.in_place = bool(isatty and isatty()) if in_place is None else in_place
        self.every = every if every is not None else (IN_PLACE_EVERY if self.in_place else PLAIN_EVERY)
        self.clock = clock
        self._last: float | None = None
        self._open = False  # a line written in place and not ended yet

    def show(self, line: str, *, force: bool = False) -> bool:
        """Write ``line`` unless one was written less than ``every`` seconds ago (``force``: now)."""
        now = self.clock()
        if not force and self._last is not None and now - self._last < self.every:
            return False
        self._last = now
        if self.in_place:
            self.stream.write(f"\r{line}{CLEAR_TO_END}")
            self._open = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()
        return True

    def done(self, line: str | None = None, *, keep: bool = True) -> None:
        """The last line (``line`` if given); on a terminal, end it (``keep``) or wipe it."""
        if line is not None:
            self.show(line, force=True)
        if self.in_place and self._open:
            self.stream.write("\n" if keep else f"\r{CLEAR_TO_END}")
            self.stream.flush()
            self._open = False


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``: a time left or taken, as a person reads it."""
    s = max(0, round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class RateProgress:
    """``label: 40000/100000 rounds (40 %), 3,412 rounds/s, ETA 18 s``: a callable ``(done, total)``
    for a run that reports how far it is (the simulators' ``progress``). The rate is counted from
    the first report on (what came before it, compiling or tables, is not the work's pace), or
    from the object's creation while there is one report only; the last call (``done == total``)
    always writes its line, ``done in N s`` (since the creation), and ends it."""

    def __init__(self, label: str, unit: str = "rounds", stream: TextIO | None = None, *,
                 in_place: bool | None = None, every: float | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.label, self.unit, self.clock = label, unit, clock
        self.progress = Progress(stream, in_place=in_place, every=every, clock=clock)
        self.start = clock()
        self.first: tuple[float, int] | None = None  # the time and count of the first report

    def line(self, done: int, total: int) -> str:
        now = self.clock()
        elapsed = now - self.start
        if self.first is None:
            self.first = (now, done)
        t0, d0 = self.first if now > self.first[0] and done > self.first[1] else (self.start, 0)
        pct = 100 * done / total if total else 100.0
        head = f"{self.label}: {done}/{total} {self.unit} ({pct:.0f} %)"
        if done <= d0 or now <= t0:
            return head
        rate = (done - d0) / (now - t0)
        tail = f"done in {duration(elapsed)}" if done >= total else f"ETA {duration((total - done) / rate)}"
        return f"{head}, {rate:,.0f} {self.unit}/s, {tail}"

    def __call__(self, done: int, total: int) -> None:
        finished = done >= total
        self.progress.show(self.line(done, total), force=finished)
        if finished:
            self.progress.done()


@contextmanager
def working(label: str, stream: TextIO | None = None, *, after: float = 2.0) -> Iterator[Progress]:
    """``label, 12 s so far`` on stderr while the block runs, from ``after`` seconds on; wiped (on a
    terminal) or closed with ``label, done in N s`` (in a file) when it ends."""
    progress = Progress(stream)
    stop = threading.Event()
    start = time.monotonic()
    shown = threading.Event()

    def tick() -> None:
        if stop.wait(after):
            return
        while not stop.is_set():
            if progress.show(f"{label}, {time.monotonic() - start:.0f} s so far"):
                shown.set()
            stop.wait(min(progress.every, 1.0))

    thread = threading.Thread(target=tick, name="progress", daemon=True)
    thread.start()
    try:
        yield progress
    finally:
        stop.set()
        thread.join()
        if shown.is_set():
            if progress.in_place:
                progress.done(keep=False)
            else:
                progress.show(f"{label}, done in {time.monotonic() - start:.0f} s", force=True)
