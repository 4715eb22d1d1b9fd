"""The ROM signature of SAS long poll 21: a CRC of the program files under the host's seed.

Owns: ``RomSignature`` — the program's bytes (the files whose SHA-256 is the software
identity, ``machine/operator/identity.py``, in the identity's order) read once, and for each
seed the host sends, CRC-16/KERMIT started from the seed (the seed is the CRC's initial value,
as the document leaves it), computed by a worker thread in slices so that no poll waits for
it. ``get(seed)`` answers at once: the signature, or None while it is computed (the machine
side then acknowledges and delivers it on a later general poll). Never reads a port.
"""

from __future__ import annotations

import binascii
import queue
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

SLICE = 64 * 1024  # bytes between the worker's pauses: a poll never waits behind it

_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))  # each byte's bits in reverse order


def _reverse16(value: int) -> int:
    return int(f"{value:016b}"[::-1], 2)


def kermit_crc(data: bytes, seed: int = 0, pause: Callable[[], None] | None = None) -> int:
    """CRC-16/KERMIT of ``data`` with ``seed`` as its initial value. KERMIT is the reflected form
    of the CCITT CRC that ``binascii.crc_hqx`` computes: with every byte's bits and the register
    reversed the two are the same, so the work runs in C, a slice at a time (``pause`` between)."""
    flipped = data.translate(_REVERSED)
    crc = _reverse16(seed & 0xFFFF)
    for at in range(0, len(flipped), SLICE):
        crc = binascii.crc_hqx(flipped[at:at + SLICE], crc)
        if pause is not None:
            pause()
    return _reverse16(crc)


def program_bytes() -> bytes:
    """The program files the software identity covers, one after the other in its order."""
    from machine.operator.identity import program_files

    return b"".join(p.read_bytes() for p in program_files().values())


class RomSignature:
    """Signatures by seed, computed in the background; shared by every seat (one program)."""

    def __init__(self, read: Callable[[], bytes] = program_bytes) -> None:
        self._read = read
        self._done: dict[int, int] = {}
        self._asked: set[int] = set()
        self._work: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def get(self, seed: int) -> int | None:
        seed &= 0xFFFF
        with self._lock:
            if seed in self._done:
                return self._done[seed]
            if seed not in self._asked:
                self._asked.add(seed)
                self._work.put(seed)
                if self._thread is None:
                    self._thread = threading.Thread(target=self._worker, name="sas-rom-signature", daemon=True)
                    self._thread.start()
        return None

    def wait(self, seed: int, timeout: float = 5.0) -> int | None:
        """The signature, waiting for it (tests, the host tool on the machine's own side)."""
        end = time.monotonic() + timeout
        while (value := self.get(seed)) is None and time.monotonic() < end:
            time.sleep(0.005)
        return value

    def close(self) -> None:
        self._work.put(None)

    def _worker(self) -> None:
        data: bytes | None = None
        while (seed := self._work.get()) is not None:
            if data is None:
                data = self._read()
            value = kermit_crc(data, seed, pause=lambda: time.sleep(0))
            with self._lock:
                self._done[seed] = value


def files_bytes(paths: Iterable[Path]) -> bytes:
    """The bytes of ``paths`` one after the other (a test's own program)."""
    return b"".join(p.read_bytes() for p in paths)
