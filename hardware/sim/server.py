"""The simulator process's event loop: the bus link, the control channel, the clock.

Owns: the real I/O of the simulator: reading the bus link (a pty pair whose slave path the host
opens, or a TCP connection for ``socket://``) and writing each reply in full when it is due,
answering the control channel (TCP loopback or a Unix socket), waiting on them all in one
selector, and the process's monotonic clock. Opening the link and the control listener is
``hardware.sim.link``'s, shared with the panel simulator. Everything it knows about ccTalk comes
from ``SimulatedBus``; everything about commands from ``Controller``.
"""

from __future__ import annotations

import contextlib
import heapq
import itertools
import os
import selectors
import socket
import sys
import time
from collections.abc import Callable

from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.control import Controller
from hardware.sim.link import ControlListener, LinkEnd
from hardware.sim.state import BusState

TICK = 0.05  # seconds: the longest the loop sleeps with nothing due


class _Link(LinkEnd):
    """The device side of the bus link, in the loop's selector; writes wait until all is sent."""

    def __init__(self, spec: str, sel: selectors.BaseSelector) -> None:
        super().__init__(spec, option="--link")
        self.sel = sel
        if self.master is not None:
            sel.register(self.master, selectors.EVENT_READ, "link")
        else:
            assert self.listener is not None
            sel.register(self.listener, selectors.EVENT_READ, "link-accept")

    def accept(self) -> socket.socket:
        conn = super().accept()
        self.sel.register(conn, selectors.EVENT_READ, "link")
        return conn

    def hang_up(self) -> None:
        if self.conn is not None:
            self.sel.unregister(self.conn)
        super().hang_up()

    def read(self) -> bytes:
        if self.master is not None:
            try:
                return os.read(self.master, 4096)
            except OSError:
                return b""
        assert self.conn is not None
        data = self.conn.recv(4096)
        if not data:  # the host went away
            self.hang_up()
        return data

    def write(self, data: bytes) -> None:
        if self.master is not None:
            view = memoryview(data)
            while view:
                view = view[os.write(self.master, view) :]
        elif self.conn is not None:
            with contextlib.suppress(OSError):
                self.conn.sendall(data)


class _Control(ControlListener):
    """The control listener and its clients, in the loop's selector."""

    def __init__(self, spec: str, sel: selectors.BaseSelector) -> None:
        super().__init__(spec)
        self.sel = sel
        sel.register(self.listener, selectors.EVENT_READ, "control-accept")

    def accept(self) -> socket.socket:
        conn = super().accept()
        self.sel.register(conn, selectors.EVENT_READ, "control")
        return conn

    def drop(self, conn: socket.socket) -> None:
        self.sel.unregister(conn)
        super().drop(conn)


class SimServer:
    """Runs a ``SimulatedBus`` on a real link until ``quit``."""

    def __init__(
        self,
        bus: SimulatedBus,
        *,
        link: str = "pty",
        control: str = "127.0.0.1:0",
        clock: Callable[[], float] = time.monotonic,
        log: Callable[[str], None] | None = None,
        state: BusState | None = None,
    ) -> None:
        """``state``: where the devices keep their counters across a restart (``--state``)."""
        self.bus = bus
        self.state = state
        self.clock = clock
        self.log = log
        self.controller = Controller(bus)
        self.sel = selectors.DefaultSelector()
        self.link = _Link(link, self.sel)
        self.control = _Control(control, self.sel)
        self._due: list[tuple[float, int, bytes]] = []
        self._seq = itertools.count()

    @property
    def control_name(self) -> str:
        return self.control.name

    def announce(self) -> None:
        """The two lines a launcher waits for, on standard output."""
        print(f"LINK {self.link.name}", flush=True)
        print(f"CONTROL {self.control_name}", flush=True)

    def run(self) -> None:
        try:
            while not self.controller.quit:
                self._flush_due()
                timeout = TICK
                if self._due:
                    timeout = min(TICK, max(0.0, self._due[0][0] - self.clock()))
                for key, _ in self.sel.select(timeout):
                    self._ready(key)
                self._keep()  # a payout's coins go on leaving while nobody asks
            self._keep()
            self._flush_due()
        finally:
            self.close()

    def _keep(self) -> None:
        """The devices' memory to the state folder, before any reply says what changed."""
        if self.state is not None:
            self.state.keep(self.clock())

    def _ready(self, key: selectors.SelectorKey) -> None:
        what = key.data
        if what == "link":
            data = self.link.read()
            if data:
                now = self.clock()
                if self.log:
                    self.log(f"rx {list(data)}")
                for tx in self.bus.receive(data, now):
                    heapq.heappush(self._due, (tx.due, next(self._seq), tx.data))
                self._keep()
                self._flush_due()
        elif what == "link-accept":
            self.link.accept()
        elif what == "control-accept":
            self.control.accept()
        elif what == "control":
            self._control(key.fileobj)  # type: ignore[arg-type]

    def _control(self, conn: socket.socket) -> None:
        if not self.control.receive(conn):
            return
        for line in self.control.lines(conn):
            reply = self.controller.handle(line, self.clock())
            self._keep()
            if self.log:
                self.log(f"control {line!r} -> {reply!r}")
            with contextlib.suppress(OSError):
                conn.sendall(reply.encode() + b"\n")
            if self.controller.quit:
                return

    def _flush_due(self) -> None:
        now = self.clock()
        while self._due and self._due[0][0] <= now:
            _, _, data = heapq.heappop(self._due)
            if self.log:
                self.log(f"tx {list(data)}")
            self.link.write(data)

    def close(self) -> None:
        self.control.close()
        self.link.close()
        self.sel.close()


def stderr_log(message: str) -> None:
    print(f"sim: {message}", file=sys.stderr, flush=True)
