"""An in-memory link between a ccTalk host and a simulated bus, in a test's own time.

Owns: ``VirtualTransport``, a ``Transport`` whose other end is a ``SimulatedBus`` and whose
time is a ``ManualClock``: waiting for a reply moves the clock to the moment the reply is due
(or to the end of the timeout), so tests of timeouts, retries and payouts take no real time.
The bytes are the real ccTalk bytes, both ways. Never sleeps, never reads the wall clock.
"""

from __future__ import annotations

import heapq
import itertools

from hardware.clock import ManualClock
from hardware.sim.cctalk_bus import SimulatedBus


class VirtualTransport:
    """A ``Transport`` wired to ``bus``; ``byte_time``: seconds per byte (9600 8N1 ~ 1 ms)."""

    def __init__(self, bus: SimulatedBus, clock: ManualClock, *, byte_time: float = 0.0) -> None:
        self.bus = bus
        self.clock = clock
        self.byte_time = byte_time
        self._queue: list[tuple[float, int, bytes]] = []
        self._seq = itertools.count()
        self._pending = b""
        self.closed = False
        self.written = bytearray()  # everything the host sent, for tests

    def write(self, data: bytes) -> None:
        self.written += data
        self.clock.advance(len(data) * self.byte_time)
        for tx in self.bus.receive(bytes(data), self.clock()):
            due = tx.due + len(tx.data) * self.byte_time
            heapq.heappush(self._queue, (due, next(self._seq), tx.data))

    def inject(self, data: bytes, delay: float = 0.0) -> None:
        """Put bytes on the line towards the host (noise, a stray packet) after ``delay``."""
        heapq.heappush(self._queue, (self.clock() + delay, next(self._seq), bytes(data)))

    def read(self, size: int, timeout: float) -> bytes:
        if not self._pending:
            now = self.clock()
            if self._queue and self._queue[0][0] <= now + max(timeout, 0.0):
                due, _, data = heapq.heappop(self._queue)
                self.clock.set(due)
                self._pending = data
            else:
                self.clock.advance(max(timeout, 0.0))
                return b""
        out, self._pending = self._pending[:size], self._pending[size:]
        return out

    def close(self) -> None:
        self.closed = True
