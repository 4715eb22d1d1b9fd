"""The links a SAS machine (or host) is reached over, behind the registry of ``hardware/links.py``.

Owns: ``NineBitSerial``, a real UART at 19 200 baud, 8 data bits, space parity, reading parity
marks (Linux ``PARENB|CMSPAR`` with ``INPCK|PARMRK``): a byte sent with the ninth (wakeup) bit
arrives with a parity error as ``FF 00 byte``, a literal ``FF`` as ``FF FF``; ``read_marked``
hands the bytes and their wakeup flags to the machine, ``write_poll`` sends a host's first
byte with mark parity. ``ParmrkDecoder`` is that decoding on bytes, kept apart to be tested.
``PtyLink`` (``pty:///path``): a pseudo-terminal the cabinet opens, its slave end linked at
``path`` for a host to open; a pty carries no ninth bit, so the machine frames by content. It
keeps its own slave end open, so a host that closes and reopens the path between polls finds
the machine still serving. ``ListenLink`` (``listen://HOST:PORT``): the machine listens on
TCP, one host at a time, a host that reconnects served again. ``open_sas_link`` /
``open_sas_host_link`` choose the class for a configured port. Moves bytes only: never interprets a poll, never knows a cabinet.
"""

from __future__ import annotations

import contextlib
import os
import select
import termios
import tty
from collections.abc import Sequence

from hardware.links import parse_link
from hardware.transport import Transport, TransportError

BAUD = 19200
CMSPAR = 0o10000000000  # Linux: "stick" parity, PARODD then picks mark, else space
PARITY_MARKER = 0xFF


class ParmrkDecoder:
    """Bytes as Linux's PARMRK delivers them -> (data, wakeup flags). ``FF FF`` is a literal
    ``FF``; ``FF 00 b`` is ``b`` received with a parity error (with space parity: the ninth
    bit set, a wakeup byte). A sequence split across reads is carried over."""

    def __init__(self) -> None:
        self._held = bytearray()

    def feed(self, raw: bytes) -> tuple[bytes, list[bool]]:
        buf = self._held + raw
        out, flags = bytearray(), []
        i = 0
        while i < len(buf):
            byte = buf[i]
            if byte != PARITY_MARKER:
                out.append(byte)
                flags.append(False)
                i += 1
                continue
            if i + 1 >= len(buf):
                break  # FF at the end: wait for what follows
            if buf[i + 1] == PARITY_MARKER:
                out.append(PARITY_MARKER)
                flags.append(False)
                i += 2
            elif buf[i + 1] == 0x00:
                if i + 2 >= len(buf):
                    break
                out.append(buf[i + 2])
                flags.append(True)
                i += 3
            else:  # not a sequence PARMRK makes: take the FF as data
                out.append(PARITY_MARKER)
                flags.append(False)
                i += 1
        self._held = bytearray(buf[i:])
        return bytes(out), flags


def ninebit_attrs(attrs: list, *, mark: bool) -> list:
    """termios attributes (``tcgetattr``'s list) set for SAS: raw, 19 200 baud, 8 data bits,
    stick parity (mark when ``mark``, else space), parity errors marked on input."""
    iflag, oflag, cflag, lflag, _ispeed, _ospeed, cc = attrs
    iflag = (iflag | termios.INPCK | termios.PARMRK) & ~(
        termios.IGNPAR | termios.ISTRIP | termios.IGNBRK | termios.BRKINT | termios.INLCR
        | termios.IGNCR | termios.ICRNL | termios.IXON | termios.IXOFF)
    oflag = 0
    cflag = (cflag & ~(termios.CSIZE | termios.CSTOPB | termios.PARODD)) | (
        termios.CS8 | termios.CREAD | termios.CLOCAL | termios.PARENB | CMSPAR)
    if mark:
        cflag |= termios.PARODD
    lflag = 0
    cc = list(cc)
    cc[termios.VMIN], cc[termios.VTIME] = 0, 0
    return [iflag, oflag, cflag, lflag, termios.B19200, termios.B19200, cc]


def _wait_readable(fd: int, timeout: float) -> bool:
    ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
    return bool(ready)


class NineBitSerial:
    """A real UART for SAS: space parity, parity errors marked; the ninth bit read and sent."""

    def __init__(self, path: str, *, baudrate: int = BAUD) -> None:
        if baudrate != BAUD:
            raise TransportError(f"{path}: SAS runs at {BAUD} baud, not {baudrate}")
        self.url = path
        try:
            self._fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
            self._space = ninebit_attrs(termios.tcgetattr(self._fd), mark=False)
            self._mark = ninebit_attrs(termios.tcgetattr(self._fd), mark=True)
            termios.tcsetattr(self._fd, termios.TCSANOW, self._space)
            termios.tcflush(self._fd, termios.TCIOFLUSH)
            # an adapter (or a pty) that cannot keep stick parity drops the flags: frame by content
            cflag = termios.tcgetattr(self._fd)[2]
        except (OSError, termios.error) as exc:
            raise TransportError(f"{path}: cannot open for SAS: {exc}") from exc
        self.marks = bool(cflag & termios.PARENB) and bool(cflag & CMSPAR)
        self._decoder = ParmrkDecoder()

    def fileno(self) -> int:
        return self._fd

    def read_marked(self, size: int, timeout: float) -> tuple[bytes, list[bool] | None]:
        """The bytes read and their wakeup flags (None where the port cannot report them)."""
        if not _wait_readable(self._fd, timeout):
            return b"", None
        try:
            raw = os.read(self._fd, size)
        except BlockingIOError:
            return b"", None
        except OSError as exc:
            raise TransportError(f"{self.url}: read failed: {exc}") from exc
        if not self.marks:
            return raw, None
        return self._decoder.feed(raw)

    def read(self, size: int, timeout: float) -> bytes:
        return self.read_marked(size, timeout)[0]

    def write(self, data: bytes) -> None:
        """The machine's replies: no wakeup bit on any byte (space parity)."""
        self._write_all(data)

    def write_poll(self, data: bytes, wakeup: Sequence[bool]) -> None:
        """A host's poll: each run of bytes with the same wakeup flag sent under its parity."""
        i = 0
        while i < len(data):
            j = i
            while j < len(data) and wakeup[j] == wakeup[i]:
                j += 1
            try:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._mark if wakeup[i] else self._space)
            except termios.error as exc:
                raise TransportError(f"{self.url}: cannot set parity: {exc}") from exc
            self._write_all(data[i:j])
            i = j
        with contextlib.suppress(termios.error):
            termios.tcsetattr(self._fd, termios.TCSADRAIN, self._space)

    def _write_all(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            try:
                n = os.write(self._fd, view)
            except BlockingIOError:
                select.select([], [self._fd], [], 0.1)
                continue
            except OSError as exc:
                raise TransportError(f"{self.url}: write failed: {exc}") from exc
            view = view[n:]

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.close(self._fd)


class PtyLink:
    """A pseudo-terminal served by the machine, its slave end linked at ``path`` for a host."""

    def __init__(self, path: str, *, baudrate: int = BAUD) -> None:
        self.url = f"pty://{path}"
        self.path = path
        try:
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)
            os.set_blocking(self._master, False)
            if path:
                with contextlib.suppress(FileNotFoundError):
                    if os.path.islink(path):
                        os.unlink(path)
                os.symlink(os.ttyname(self._slave), path)
        except OSError as exc:
            raise TransportError(f"{self.url}: cannot make the pty: {exc}") from exc

    @property
    def slave_name(self) -> str:
        return os.ttyname(self._slave)

    def read(self, size: int, timeout: float) -> bytes:
        if not _wait_readable(self._master, timeout):
            return b""
        try:
            return os.read(self._master, size)
        except (BlockingIOError, OSError):
            return b""  # EIO: no host holds the slave end right now

    def write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError, OSError):
            os.write(self._master, data)

    def close(self) -> None:
        if self.path and os.path.islink(self.path):
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class ListenLink:
    """``listen://HOST:PORT``: the machine listens on TCP and serves one host at a time; a host
    that disconnects and connects again (or a second host, which replaces the first) is served
    at once. No ninth bit: the machine frames by content."""

    def __init__(self, target: str, *, baudrate: int = BAUD) -> None:
        import socket

        self.url = f"listen://{target}"
        host, sep, port = target.rpartition(":")
        if not sep or not port.isdigit():
            raise TransportError(f"{self.url}: names no HOST:PORT")
        try:
            self._server = socket.create_server((host or "127.0.0.1", int(port)), reuse_port=False)
        except OSError as exc:
            raise TransportError(f"{self.url}: cannot listen: {exc}") from exc
        self._server.setblocking(False)
        self._client: socket.socket | None = None

    @property
    def address(self) -> tuple[str, int]:
        name = self._server.getsockname()
        return (name[0], name[1])

    def _accept(self) -> None:
        try:
            client, _ = self._server.accept()
        except (BlockingIOError, OSError):
            return
        if self._client is not None:
            self._client.close()
        client.setblocking(False)
        self._client = client

    def read(self, size: int, timeout: float) -> bytes:
        watch = [self._server] + ([self._client] if self._client is not None else [])
        ready, _, _ = select.select(watch, [], [], max(0.0, timeout))
        if self._server in ready:
            self._accept()
        client = self._client
        if client is None or client not in ready:
            return b""
        try:
            data = client.recv(size)
        except (BlockingIOError, OSError):
            return b""
        if not data:  # the host closed: wait for the next one
            client.close()
            self._client = None
        return data

    def write(self, data: bytes) -> None:
        if self._client is None:
            return
        with contextlib.suppress(OSError):
            self._client.sendall(data)

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self._server.close()


def is_real_uart(path: str) -> bool:
    """Whether ``path`` is a serial device that can carry parity (not a pty, not a file)."""
    real = os.path.realpath(path)
    return real.startswith("/dev/") and not real.startswith(("/dev/pts/", "/dev/pty", "/dev/ptmx"))


def open_sas_link(url: str) -> Transport:
    """The machine side's link for a configured SAS port: a real UART reads the ninth bit
    (``NineBitSerial``); ``pty:///path`` makes a pty; ``listen://HOST:PORT`` waits for a host on TCP; a
    pty path, ``socket://`` and the other
    URLs are opened by the registry at 19 200 baud and framed by content."""
    from hardware.links import open_link

    link = parse_link(url)
    if link.backend.scheme == "serial" and is_real_uart(link.target):
        return NineBitSerial(link.target)
    return open_link(url, baudrate=BAUD)


open_sas_host_link = open_sas_link  # a host's port is chosen the same way
