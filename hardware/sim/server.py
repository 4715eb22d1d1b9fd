"""The simulator process's event loop: the bus link, the control channel, the clock.

Owns: the real I/O of the simulator: a pty pair (the host opens the slave path) or a TCP
listener for ``socket://``, the control listener (TCP loopback or a Unix socket), writing each
reply when it is due, and the process's monotonic clock. Everything it knows about ccTalk
comes from ``SimulatedBus``; everything about commands from ``Controller``.
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
import tty
from collections.abc import Callable
from urllib.parse import urlparse

from ..cctalk.simbus import SimulatedBus
from .control import Controller

TICK = 0.05  # seconds: the longest the loop sleeps with nothing due


class _Link:
    """The device side of the bus link: a pty master, or the accepted socket:// connection."""

    def __init__(self, spec: str, sel: selectors.BaseSelector) -> None:
        self.sel = sel
        self.master: int | None = None
        self.slave: int | None = None
        self.listener: socket.socket | None = None
        self.conn: socket.socket | None = None
        if spec == "pty":
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)
            tty.setraw(self.master)
            self.name = os.ttyname(self.slave)
            sel.register(self.master, selectors.EVENT_READ, "link")
        elif spec.startswith("socket://"):
            url = urlparse(spec)
            self.listener = socket.create_server((url.hostname or "127.0.0.1", url.port or 0))
            host, port = self.listener.getsockname()[:2]
            self.name = f"socket://{host}:{port}"
            sel.register(self.listener, selectors.EVENT_READ, "link-accept")
        else:
            raise ValueError(f"--link is 'pty' or socket://HOST:PORT, not {spec!r}")

    def accept(self) -> None:
        assert self.listener is not None
        conn, _ = self.listener.accept()
        if self.conn is not None:
            self.sel.unregister(self.conn)
            self.conn.close()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = conn
        self.sel.register(conn, selectors.EVENT_READ, "link")

    def read(self) -> bytes:
        if self.master is not None:
            try:
                return os.read(self.master, 4096)
            except OSError:
                return b""
        assert self.conn is not None
        data = self.conn.recv(4096)
        if not data:  # the host went away
            self.sel.unregister(self.conn)
            self.conn.close()
            self.conn = None
        return data

    def write(self, data: bytes) -> None:
        if self.master is not None:
            view = memoryview(data)
            while view:
                view = view[os.write(self.master, view) :]
        elif self.conn is not None:
            with contextlib.suppress(OSError):
                self.conn.sendall(data)

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        for sock in (self.conn, self.listener):
            if sock is not None:
                sock.close()


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
    ) -> None:
        self.bus = bus
        self.clock = clock
        self.log = log
        self.controller = Controller(bus)
        self.sel = selectors.DefaultSelector()
        self.link = _Link(link, self.sel)
        self._unix_path: str | None = None
        if control.startswith("unix:"):
            self._unix_path = control[5:]
            if os.path.exists(self._unix_path):
                os.unlink(self._unix_path)
            self.control_listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.control_listener.bind(self._unix_path)
            self.control_listener.listen()
            self.control_name = control
        else:
            host, _, port = control.rpartition(":")
            self.control_listener = socket.create_server((host or "127.0.0.1", int(port or 0)))
            chost, cport = self.control_listener.getsockname()[:2]
            self.control_name = f"{chost}:{cport}"
        self.sel.register(self.control_listener, selectors.EVENT_READ, "control-accept")
        self._clients: dict[socket.socket, bytearray] = {}
        self._due: list[tuple[float, int, bytes]] = []
        self._seq = itertools.count()

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
            self._flush_due()
        finally:
            self.close()

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
                self._flush_due()
        elif what == "link-accept":
            self.link.accept()
        elif what == "control-accept":
            conn, _ = self.control_listener.accept()
            self._clients[conn] = bytearray()
            self.sel.register(conn, selectors.EVENT_READ, "control")
        elif what == "control":
            self._control(key.fileobj)  # type: ignore[arg-type]

    def _control(self, conn: socket.socket) -> None:
        try:
            data = conn.recv(4096)
        except OSError:
            data = b""
        if not data:
            self.sel.unregister(conn)
            del self._clients[conn]
            conn.close()
            return
        buf = self._clients[conn]
        buf += data
        while b"\n" in buf:
            raw, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            line = raw.decode("utf-8", errors="replace").strip()
            reply = self.controller.handle(line, self.clock())
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
        for conn in list(self._clients):
            conn.close()
        self._clients.clear()
        self.control_listener.close()
        if self._unix_path and os.path.exists(self._unix_path):
            os.unlink(self._unix_path)
        self.link.close()
        self.sel.close()


def stderr_log(message: str) -> None:
    print(f"sim: {message}", file=sys.stderr, flush=True)
