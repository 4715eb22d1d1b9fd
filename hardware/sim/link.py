"""The real I/O both simulators share: the device end of a link, and the control listener.

Owns: opening the device end of a simulated serial link (a raw pty pair whose slave path the
host opens, or a ``socket://HOST:PORT`` listener whose newest connection is the link, replacing
the one before) and the control channel's listener (``HOST:PORT`` over TCP, or ``unix:PATH``)
with its clients, each one's bytes cut into text lines. Used by the button panel simulator
(``hardware.sim.panel``) and the ccTalk bus simulator (``hardware.sim.server``), which keep
what differs between them: how a link is read and written, how the loop waits for I/O, and
what a control line means. Knows no protocol and no control language.
"""

from __future__ import annotations

import os
import socket
import tty
from collections.abc import Iterator
from urllib.parse import urlparse


class LinkEnd:
    """The device end of a link: a pty master, or a socket:// listener and its connection."""

    def __init__(self, spec: str, *, option: str = "the link") -> None:
        self.master: int | None = None
        self.slave: int | None = None
        self.listener: socket.socket | None = None
        self.conn: socket.socket | None = None
        if spec == "pty":
            self.master, self.slave = os.openpty()
            tty.setraw(self.slave)  # no echo, no line editing, before the host opens it
            tty.setraw(self.master)
            self.name = os.ttyname(self.slave)
        elif spec.startswith("socket://"):
            url = urlparse(spec)
            self.listener = socket.create_server((url.hostname or "127.0.0.1", url.port or 0))
            host, port = self.listener.getsockname()[:2]
            self.name = f"socket://{host}:{port}"
        else:
            raise ValueError(f"{option} is 'pty' or socket://HOST:PORT, not {spec!r}")

    def accept(self) -> socket.socket:
        """Take the host's new socket:// connection; it replaces (closes) the one before."""
        assert self.listener is not None
        conn, _ = self.listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.hang_up()
        self.conn = conn
        return conn

    def hang_up(self) -> None:
        """Close the host's socket:// connection, if there is one."""
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def close(self) -> None:
        for fd in (self.master, self.slave):
            if fd is not None:
                os.close(fd)
        for sock in (self.conn, self.listener):
            if sock is not None:
                sock.close()
        self.master = self.slave = None
        self.conn = self.listener = None


class ControlListener:
    """The control channel's listener and its clients, each with the bytes of a partial line."""

    def __init__(self, spec: str) -> None:
        self.unix_path: str | None = None
        if spec.startswith("unix:"):
            self.unix_path = spec[5:]
            if os.path.exists(self.unix_path):
                os.unlink(self.unix_path)
            self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self.listener.bind(self.unix_path)
            self.listener.listen()
            self.name = spec
        else:
            host, _, port = spec.rpartition(":")
            self.listener = socket.create_server((host or "127.0.0.1", int(port or 0)))
            chost, cport = self.listener.getsockname()[:2]
            self.name = f"{chost}:{cport}"
        self.clients: dict[socket.socket, bytearray] = {}

    def readable(self) -> list[socket.socket]:
        return [self.listener, *self.clients]

    def accept(self) -> socket.socket:
        """Take a new client."""
        conn, _ = self.listener.accept()
        self.clients[conn] = bytearray()
        return conn

    def receive(self, conn: socket.socket) -> bool:
        """Read what a readable client sent; False if it went away (it is dropped)."""
        try:
            data = conn.recv(4096)
        except OSError:
            data = b""
        if not data:
            self.drop(conn)
            return False
        self.clients[conn] += data
        return True

    def lines(self, conn: socket.socket) -> Iterator[str]:
        """The client's complete lines, stripped; each leaves its buffer as it is yielded."""
        buf = self.clients[conn]
        while b"\n" in buf:
            raw, _, rest = bytes(buf).partition(b"\n")
            buf[:] = rest
            yield raw.decode("utf-8", errors="replace").strip()

    def drop(self, conn: socket.socket) -> None:
        self.clients.pop(conn, None)
        conn.close()

    def close(self) -> None:
        for conn in list(self.clients):
            self.drop(conn)
        self.listener.close()
        if self.unix_path and os.path.exists(self.unix_path):
            os.unlink(self.unix_path)
