"""Test tools for the panel protocol: an in-memory serial line with faults, and a fake transport.

Owns: ``FaultyLine`` (one direction of a serial line: FIFO, optional latency, and faults that
drop, duplicate, corrupt, truncate or prefix garbage to what is written), ``ConnectionPair``
(a host end and a panel end joined by two lines, with time that moves only when told) and
``MemoryTransport`` (a ``hardware.transport.Transport`` in memory for ``PanelHost``). Never
reads a clock and never touches a real port; randomness comes from an injected
``random.Random`` so every failure replays.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from typing import Protocol

from hardware.transport import TransportError


class Endpoint(Protocol):
    def receive_data(self, data: bytes, now: float) -> None: ...
    def tick(self, now: float) -> None: ...
    def data_to_send(self) -> bytes: ...


class FaultyLine:
    """One direction of a serial line. Faults strike each write with the given probability."""

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        drop: float = 0.0,
        duplicate: float = 0.0,
        corrupt: float = 0.0,
        truncate: float = 0.0,
        garbage: float = 0.0,
        latency: float = 0.0,
    ) -> None:
        self.rng = rng or random.Random(0)
        self.drop, self.duplicate, self.corrupt = drop, duplicate, corrupt
        self.truncate, self.garbage, self.latency = truncate, garbage, latency
        self.cut = False  # True: everything written is lost (a pulled cable)
        self.faults = 0
        self._queue: deque[tuple[float, bytes]] = deque()

    def write(self, data: bytes, now: float) -> None:
        if not data or self.cut:
            return
        rng = self.rng
        chunks = [bytearray(data)]
        if rng.random() < self.drop:
            self.faults += 1
            return
        if rng.random() < self.corrupt:
            self.faults += 1
            chunk = chunks[0]
            for _ in range(rng.randint(1, 3)):
                chunk[rng.randrange(len(chunk))] ^= 1 << rng.randrange(8)
        if rng.random() < self.truncate:
            self.faults += 1
            chunks[0] = chunks[0][: rng.randrange(len(chunks[0]))]
        if rng.random() < self.garbage:
            self.faults += 1
            chunks.insert(0, bytearray(rng.randbytes(rng.randint(1, 20))))
        if rng.random() < self.duplicate:
            self.faults += 1
            chunks.append(bytearray(chunks[-1]))
        for chunk in chunks:
            self._queue.append((now + self.latency, bytes(chunk)))

    def read(self, now: float) -> bytes:
        out = bytearray()
        while self._queue and self._queue[0][0] <= now:
            out += self._queue.popleft()[1]
        return bytes(out)


class ConnectionPair:
    """A host end and a panel end joined by two ``FaultyLine``s; time moves in ``step``s."""

    def __init__(
        self,
        host: Endpoint,
        panel: Endpoint,
        *,
        to_panel: FaultyLine | None = None,
        to_host: FaultyLine | None = None,
        now: float = 0.0,
        step: float = 0.005,
    ) -> None:
        self.host, self.panel = host, panel
        self.to_panel = to_panel or FaultyLine()
        self.to_host = to_host or FaultyLine()
        self.now = now
        self.step = step

    def exchange(self) -> None:
        """Tick both ends at ``now`` and move whatever is due, without advancing time."""
        self.host.tick(self.now)
        self.panel.tick(self.now)
        self.to_panel.write(self.host.data_to_send(), self.now)
        self.to_host.write(self.panel.data_to_send(), self.now)
        data = self.to_panel.read(self.now)
        if data:
            self.panel.receive_data(data, self.now)
        data = self.to_host.read(self.now)
        if data:
            self.host.receive_data(data, self.now)
        self.to_panel.write(self.host.data_to_send(), self.now)
        self.to_host.write(self.panel.data_to_send(), self.now)

    def run(self, seconds: float) -> None:
        """Let ``seconds`` pass."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now = min(end, self.now + self.step)
            self.exchange()

    def run_until(self, done: Callable[[], bool], limit: float) -> float:
        """Run until ``done()``; return the seconds it took. ``AssertionError`` after ``limit``."""
        start = self.now
        while not done():
            if self.now - start > limit:
                raise AssertionError(f"not done after {limit} s")
            self.now += self.step
            self.exchange()
        return self.now - start


class MemoryTransport:
    """A ``Transport`` in memory: the test puts bytes in ``incoming`` and takes ``written``."""

    def __init__(self) -> None:
        self.incoming = bytearray()
        self.written = bytearray()
        self.fail = False
        self.closed = False

    def write(self, data: bytes) -> None:
        if self.fail:
            raise TransportError("memory: write failed")
        self.written += data

    def read(self, size: int, timeout: float) -> bytes:
        if self.fail:
            raise TransportError("memory: read failed")
        out = bytes(self.incoming[:size])
        del self.incoming[:size]
        return out

    def close(self) -> None:
        self.closed = True

    def take_written(self) -> bytes:
        out = bytes(self.written)
        self.written.clear()
        return out
