"""Serial transports: the only place in ``hardware`` that touches a real link.

Owns: the ``Transport`` interface every driver is written against (``write``, ``read`` with a
timeout, ``close``) and ``SerialTransport``, which opens a pyserial URL or device path with
``serial.serial_for_url`` (``/dev/ttyUSB0``, a pty path, ``socket://host:port``, ``loop://``)
at 9600 baud 8N1. Which class opens which URL is the registry's (``hardware/links.py``,
``open_transport``), which this module never imports. Knows nothing of ccTalk: it moves bytes.
"""

from __future__ import annotations

from typing import Protocol, Self

import serial


class Transport(Protocol):
    """A byte link. ``read`` returns as soon as some bytes are there, or ``b""`` on timeout."""

    def write(self, data: bytes) -> None: ...

    def read(self, size: int, timeout: float) -> bytes: ...

    def close(self) -> None: ...


class TransportError(OSError):
    """The link itself failed (could not be opened, went away)."""


class SerialTransport:
    """A pyserial port as a ``Transport``."""

    def __init__(self, url: str, *, baudrate: int = 9600) -> None:
        self.url = url
        try:
            self._port = serial.serial_for_url(
                url, baudrate=baudrate, bytesize=8, parity="N", stopbits=1, timeout=0
            )
        except (serial.SerialException, ValueError, OSError) as exc:
            raise TransportError(f"{url}: cannot open: {exc}") from exc
        self._timeout: float | None = 0

    def _set_timeout(self, timeout: float) -> None:
        if timeout != self._timeout:
            self._port.timeout = timeout
            self._timeout = timeout

    def write(self, data: bytes) -> None:
        try:
            self._port.write(data)
            self._port.flush()
        except serial.SerialException as exc:
            raise TransportError(f"{self.url}: write failed: {exc}") from exc

    def read(self, size: int, timeout: float) -> bytes:
        try:
            self._set_timeout(max(0.0, timeout))
            first = self._port.read(1)
            if not first:
                return b""
            out = bytearray(first)
            while len(out) < size:
                waiting = self._port.in_waiting
                if not waiting:
                    break
                out += self._port.read(min(waiting, size - len(out)))
            return bytes(out)
        except serial.SerialException as exc:
            raise TransportError(f"{self.url}: read failed: {exc}") from exc

    def close(self) -> None:
        # pyserial's ``socket://`` close skips the socket's own close when its shutdown fails,
        # as it does once the far end has reset the connection (a simulator killed mid-frame):
        # the descriptor would leak until the collector found it. Close it here either way.
        sock = getattr(self._port, "_socket", None)
        self._port.close()
        if sock is not None:
            sock.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

