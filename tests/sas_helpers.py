"""A SAS host for the tests, on the master side of a pty: the cabinet opens the slave path.

Sends general and long polls as a host writes them (CRC-16/KERMIT from ``hardware/sas/codec.py``)
and reads the machine's answer until the line has been quiet for a moment.
"""

from __future__ import annotations

import os
import select
import time
import tty
from pathlib import Path

from hardware.sas.codec import crc_ok, from_bcd, with_crc


def sas_children(pid: int) -> list[int]:
    """The SAS children (``python -m machine.sas.server``) of cabinet process ``pid``."""
    out = []
    for entry in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text() if entry.isdigit() else ""
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes() if stat else b""
        except OSError:  # ended meanwhile
            continue
        if stat and int(stat.rpartition(")")[2].split()[1]) == pid and b"machine.sas.server" in cmd:
            out.append(int(entry))
    return out


def wait_gone(pids: list[int], limit: float = 60.0) -> None:
    """Until each of ``pids`` ended (a zombie counts as ended): a SAS child of a killed cabinet
    ends when it sees its input close, which on a loaded machine may take a while, and until
    then it still holds its port. ``limit`` only bounds a hang."""
    end = time.monotonic() + limit
    for pid in pids:
        while True:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
            except OSError:
                break
            if state in ("Z", "X"):
                break
            assert time.monotonic() < end, f"the SAS child {pid} did not end"
            time.sleep(0.02)


class PtyHost:
    def __init__(self) -> None:
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)
        self.path = os.ttyname(self._slave)
        os.set_blocking(self.master, False)

    def close(self) -> None:
        os.close(self.master)
        os.close(self._slave)

    def send(self, data: bytes) -> None:
        os.write(self.master, data)

    def recv(self, timeout: float = 0.5, quiet: float = 0.03, want: int | None = None) -> bytes:
        """What comes within ``timeout``, once it starts, until ``quiet`` s pass without a byte
        (or ``want`` bytes came)."""
        out = bytearray()
        end = time.monotonic() + timeout
        while True:
            wait = (end - time.monotonic()) if not out else quiet
            if wait <= 0:
                break
            ready, _, _ = select.select([self.master], [], [], wait)
            if not ready:
                break
            try:
                out += os.read(self.master, 256)
            except BlockingIOError:
                continue
            if want is not None and len(out) >= want:
                break
        return bytes(out)

    def drain(self) -> bytes:
        return self.recv(timeout=0.05, quiet=0.02)

    def general(self, address: int) -> int | None:
        """A general poll: the exception code (0: none), or None for silence."""
        self.send(bytes((0x80 | address,)))
        reply = self.recv(want=1)
        return reply[0] if reply else None

    def long(self, address: int, command: int, data: bytes = b"", *, crc: bool | None = None) -> bytes:
        """A long poll (type R without a CRC unless ``crc``), and the answer as it came."""
        frame = bytes((address, command)) + data
        self.send(with_crc(frame) if (crc if crc is not None else bool(data) or command < 0x0F) else frame)
        return self.recv()

    def meters(self, address: int, command: int, sizes: tuple[int, ...], head: int = 2) -> list[int]:
        """A meter poll answered with BCD meters of ``sizes`` bytes after ``head`` bytes."""
        reply = self.long(address, command)
        assert reply[:2] == bytes((address, command)) and crc_ok(reply), reply.hex()
        out, at = [], head
        for size in sizes:
            out.append(from_bcd(reply[at:at + size]))
            at += size
        return out
