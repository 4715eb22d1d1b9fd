"""Clocks for the hardware layer: the type every driver takes, and a clock for tests.

Owns: ``Clock`` (a callable returning monotonic seconds) and ``ManualClock``, which moves only
when told to. Drivers never read the wall clock themselves: they are given one of these.
"""

from __future__ import annotations

from collections.abc import Callable

Clock = Callable[[], float]


class ManualClock:
    """A monotonic clock that moves only when ``advance`` or ``set`` says so."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def __call__(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a monotonic clock does not go back")
        self._now += seconds

    def set(self, when: float) -> None:
        """Move to ``when`` (never backwards)."""
        self._now = max(self._now, when)
