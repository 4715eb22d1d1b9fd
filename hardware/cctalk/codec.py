"""ccTalk framing: checksums, frame encode/decode and an incremental parser.

Owns: the wire format of one ccTalk packet (part 1, sections 7 to 12 of the specification),
the 8-bit zero-sum checksum and the CRC-16 variant (``hardware.crc``'s CCITT CRC from 0, its
two bytes placed as below), and turning a byte stream into frames (partial frames, garbage,
resynchronisation, the 50 ms inter-byte reset, the sender's own echo). Never does I/O, never
reads a clock (timestamps come in with the bytes), and knows nothing of what a header means:
that is ``headers.py``.

Theory of operation
-------------------
A packet is ``[dest] [n] [src] [header] [data * n] [checksum]`` (n + 5 bytes). With the
CRC-16 variant the source byte carries the CRC's low byte and the checksum byte its high byte;
the CRC covers dest, n, header and data, CCITT polynomial 0x1021, initial register 0.

``FrameParser.feed(data, now)`` appends bytes and returns events:

* ``Received(frame, raw)`` for every packet whose checksum is right;
* ``Discarded(raw, reason)`` for bytes thrown away: a stale partial packet when more than
  ``gap`` seconds passed since the previous byte (``"gap"``), a packet whose checksum is wrong
  (``"checksum"``: the parser then slides on by one byte and looks for a packet start in what
  follows, so garbage before a good packet costs only the garbage), a length above
  ``max_data`` (``"length"``), and bytes that should have been the sender's echo but were not
  (``"echo"``).

``expect_echo(raw)`` tells the parser that the next ``len(raw)`` bytes should be a copy of what
this side just sent (real ccTalk buses are one wire: the sender hears itself). Matching bytes
are dropped silently; the first mismatch cancels the expectation and the bytes from there on
are parsed normally, so a link configured with echo that has none still works.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from hardware.crc import crc16_ccitt

HOST_ADDRESS = 1
INTER_BYTE_GAP = 0.050  # seconds: bytes further apart than this reset the receiver
MAX_DATA = 255


class Checksum(enum.Enum):
    """How a packet is protected: the simple zero-sum byte (default) or CRC-16/CCITT."""

    SUM8 = "sum8"
    CRC16 = "crc16"


def checksum8(data: bytes | bytearray) -> int:
    """The byte that makes the 8-bit sum of ``data`` plus itself zero."""
    return -sum(data) & 0xFF


def crc16(data: bytes | bytearray, seed: int = 0) -> int:
    """CRC-CCITT (x^16 + x^12 + x^5 + 1), initial register ``seed`` (ccTalk: 0), no reflection."""
    return crc16_ccitt(data, seed)


@dataclass(frozen=True)
class Frame:
    """One ccTalk packet. ``src`` is None for a CRC-16 packet (it carries no source byte)."""

    dest: int
    header: int
    data: bytes = b""
    src: int | None = HOST_ADDRESS

    def __post_init__(self) -> None:
        if not 0 <= self.dest <= 255 or not 0 <= self.header <= 255:
            raise ValueError(f"address and header are bytes: {self.dest}, {self.header}")
        if self.src is not None and not 0 <= self.src <= 255:
            raise ValueError(f"source address is a byte: {self.src}")
        if len(self.data) > MAX_DATA:
            raise ValueError(f"at most {MAX_DATA} data bytes, not {len(self.data)}")


class FrameError(ValueError):
    """Bytes that are not one well-formed packet."""


def encode(frame: Frame, checksum: Checksum = Checksum.SUM8) -> bytes:
    """The bytes on the wire for ``frame``."""
    n = len(frame.data)
    if checksum is Checksum.SUM8:
        src = HOST_ADDRESS if frame.src is None else frame.src
        body = bytes((frame.dest, n, src, frame.header)) + frame.data
        return body + bytes((checksum8(body),))
    crc = crc16(bytes((frame.dest, n, frame.header)) + frame.data)
    return bytes((frame.dest, n, crc & 0xFF, frame.header)) + frame.data + bytes((crc >> 8,))


def _valid(raw: bytes | bytearray, checksum: Checksum) -> bool:
    if checksum is Checksum.SUM8:
        return sum(raw) & 0xFF == 0
    crc = crc16(bytes((raw[0], raw[1])) + bytes(raw[3:-1]))
    return raw[2] == crc & 0xFF and raw[-1] == crc >> 8


def _frame_of(raw: bytes, checksum: Checksum) -> Frame:
    src = raw[2] if checksum is Checksum.SUM8 else None
    return Frame(dest=raw[0], header=raw[3], data=raw[4:-1], src=src)


def decode(raw: bytes, checksum: Checksum = Checksum.SUM8) -> Frame:
    """The packet in ``raw``, which must be exactly one packet; ``FrameError`` otherwise."""
    raw = bytes(raw)
    if len(raw) < 5:
        raise FrameError(f"a packet has at least 5 bytes, got {len(raw)}")
    if len(raw) != raw[1] + 5:
        raise FrameError(f"length byte says {raw[1] + 5} bytes, got {len(raw)}")
    if not _valid(raw, checksum):
        raise FrameError(f"bad {checksum.value} checksum")
    return _frame_of(raw, checksum)


@dataclass(frozen=True)
class Received:
    """A packet with a good checksum (whatever its destination)."""

    frame: Frame
    raw: bytes


@dataclass(frozen=True)
class Discarded:
    """Bytes the parser threw away, and why: gap, checksum, length or echo."""

    raw: bytes
    reason: str


ParserEvent = Received | Discarded


class FrameParser:
    """Bytes in, packets out. One per receiving end of a link."""

    def __init__(
        self,
        checksum: Checksum = Checksum.SUM8,
        *,
        gap: float = INTER_BYTE_GAP,
        max_data: int = MAX_DATA,
    ) -> None:
        self.checksum = checksum
        self.gap = gap
        self.max_data = max_data
        self._buf = bytearray()
        self._last: float | None = None
        self._echo = b""
        self._echo_pos = 0

    @property
    def buffered(self) -> int:
        """How many bytes wait for the rest of their packet."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget partial packets and any expected echo."""
        self._buf.clear()
        self._echo = b""
        self._echo_pos = 0

    def expect_echo(self, raw: bytes) -> None:
        """The next ``len(raw)`` bytes should be this side's own transmission: drop them."""
        self._echo = bytes(raw)
        self._echo_pos = 0

    def feed(self, data: bytes | bytearray, now: float) -> list[ParserEvent]:
        """Take bytes that arrived at ``now`` (seconds, monotonic) and return what they made."""
        events: list[ParserEvent] = []
        if self._last is not None and now - self._last > self.gap:
            if self._buf:
                events.append(Discarded(bytes(self._buf), "gap"))
                self._buf.clear()
            if self._echo_pos:  # an echo cut short by a pause is no echo
                self._echo = b""
                self._echo_pos = 0
        if data:
            self._last = now
        data = self._strip_echo(bytes(data), events)
        self._buf += data
        self._extract(events)
        return events

    def _strip_echo(self, data: bytes, events: list[ParserEvent]) -> bytes:
        if not self._echo:
            return data
        echo, pos, i = self._echo, self._echo_pos, 0
        while i < len(data) and pos < len(echo):
            if data[i] != echo[pos]:
                if pos:
                    events.append(Discarded(echo[:pos], "echo"))
                self._echo, self._echo_pos = b"", 0
                return data[i:]
            i += 1
            pos += 1
        if pos == len(echo):
            self._echo, self._echo_pos = b"", 0
        else:
            self._echo_pos = pos
        return data[i:]

    def _extract(self, events: list[ParserEvent]) -> None:
        buf = self._buf
        start = 0
        drop_from: int | None = None
        drop_reason = ""
        while len(buf) - start >= 2:
            n = buf[start + 1]
            if n > self.max_data:
                reason = "length"
            else:
                total = n + 5
                if len(buf) - start < total:
                    break
                raw = bytes(buf[start : start + total])
                if _valid(raw, self.checksum):
                    if drop_from is not None:
                        events.append(Discarded(bytes(buf[drop_from:start]), drop_reason))
                        drop_from = None
                    events.append(Received(_frame_of(raw, self.checksum), raw))
                    start += total
                    continue
                reason = "checksum"
            if drop_from is None:
                drop_from, drop_reason = start, reason
            start += 1
        if drop_from is not None:
            events.append(Discarded(bytes(buf[drop_from:start]), drop_reason))
        del buf[:start]
