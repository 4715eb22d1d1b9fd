"""An in-memory link between a ccTalk host and a simulated bus, in a test's own time.

Owns: ``VirtualTransport``, a ``Transport`` whose other end is a ``SimulatedBus`` and whose
time is a ``ManualClock``: waiting for a reply moves the clock to the moment the reply is due
(or to the end of the timeout), so tests of timeouts, retries and payouts take no real time.
The bytes are the real ccTalk bytes, both ways. And ``VirtualSim``, the simulator process's
stand-in in memory: built from the same command line (``--acceptor 2:...``), with the same
control language (``control`` answers as ``SimControl`` does), so a test written once runs
against either. Never sleeps, never reads the wall clock.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from typing import Any

from hardware.cctalk.codec import Checksum
from hardware.cctalk.host import CctalkBus
from hardware.clock import ManualClock
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.config import build_bus, parse_device_spec
from hardware.sim.control import Controller
from hardware.sim.launcher import SimControl, SimError


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


class VirtualControl(SimControl):
    """``SimControl``'s commands, answered by a ``Controller`` on the bus in memory."""

    def __init__(self, controller: Controller, clock: ManualClock) -> None:  # no socket: no super()
        self.address = "memory"
        self._controller = controller
        self._clock = clock

    def command(self, line: str) -> str:
        reply = self._controller.handle(line.strip(), self._clock())
        if not reply.startswith("OK"):
            raise SimError(f"{line!r}: {reply}")
        return reply[2:].strip()

    def close(self) -> None:
        pass


class VirtualSim:
    """The bus simulator in memory: ``bus()`` opens a host on it, ``control`` drives it."""

    link = "memory"

    def __init__(self, args: Sequence[str] = (), *, byte_time: float = 0.001, start: float = 100.0) -> None:
        devices: list[tuple[str, dict[str, Any]]] = []
        options = {"checksum": "sum8", "echo": False}
        it = iter(args)
        for arg in it:
            if arg in ("--acceptor", "--hopper", "--validator"):
                devices.append((arg[2:], parse_device_spec(next(it))))
            elif arg == "--echo":
                options["echo"] = True
            elif arg == "--checksum":
                options["checksum"] = next(it)
            else:
                raise ValueError(f"VirtualSim: {arg!r} is not an option it takes")
        self.echo, self.checksum = bool(options["echo"]), Checksum(options["checksum"])
        self.sim = build_bus(devices or [("acceptor", {"address": 2}), ("hopper", {"address": 3})],
                             checksum=str(options["checksum"]), echo=self.echo)
        self.clock = ManualClock(start)
        self.byte_time = byte_time
        self.control = VirtualControl(Controller(self.sim), self.clock)

    def bus(self, **options: Any) -> CctalkBus:
        """A host on this bus (the link's echo and checksum unless ``options`` say otherwise)."""
        transport = VirtualTransport(self.sim, self.clock, byte_time=self.byte_time)
        options = {"echo": self.echo, "checksum": self.checksum, **options}
        return CctalkBus(transport, clock=self.clock, **options)

    def stop(self) -> int:
        return 0
