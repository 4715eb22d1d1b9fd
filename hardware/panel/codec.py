"""Button panel framing: CRC-16/CCITT-FALSE, byte stuffing, and an incremental decoder.

Owns: the wire format of one frame (docs/panel-protocol.md, "Framing"; the CRC is
``hardware.crc``'s CCITT CRC from 0xFFFF) and turning a byte stream into frames while surviving
garbage, partial frames and corruption, counting what it throws away. Never does I/O, never
reads a clock, and knows nothing of what a message type means beyond the version byte: that is
``messages.py``.

Theory of operation
-------------------
Unstuffed, a frame is ``LEN VER TYPE SEQ PAYLOAD[LEN] CRC_HI CRC_LO``; the CRC covers every
byte before it. An authenticated frame (``VER`` 2, ``AUTH_VERSION``) has ``CTR[4] MAC[8]`` after
its payload: this module carries them and checks nothing of them (``auth.py`` does). On the
wire that body is byte-stuffed (``7E`` -> ``7D 5E``, ``7D`` -> ``7D 5D``) and wrapped in
flags: ``7E body 7E``. A flag can never occur inside a frame, so the decoder resynchronises at
the next flag whatever came before; a chunk between two flags is a frame only when its escapes
are valid, its length byte matches its size, its CRC is right and its version is ours.
Anything else is dropped and counted under one reason:

``short`` fewer than 6 bytes; ``escape`` a 7D not followed by 5E or 5D; ``length`` LEN does
not match the size; ``crc`` the CRC is wrong; ``version`` neither ``VERSION`` nor
``AUTH_VERSION``; ``overlong`` more than ``MAX_STUFFED`` bytes without a flag (a lost flag or
line noise).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from hardware.crc import crc16_ccitt
from hardware.panel.auth import COUNTER_BYTES, MAC_BYTES, TRAILER

FLAG = 0x7E
ESC = 0x7D
ESC_XOR = 0x20
VERSION = 1  # a plain frame
AUTH_VERSION = 2  # a frame with a counter and a MAC (docs/panel-protocol.md, "Authenticated frames")
MAX_PAYLOAD = 66  # an NV_REPLY with a 64-byte blob; every other message fits in 32
MIN_FRAME = 6  # LEN VER TYPE SEQ CRC CRC
MAX_STUFFED = 2 * (MIN_FRAME + MAX_PAYLOAD + TRAILER)
DROP_REASONS = ("short", "escape", "length", "crc", "version", "overlong")


def crc16_ccitt_false(data: bytes | bytearray) -> int:
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor.

    Check value: ``crc16_ccitt_false(b"123456789") == 0x29B1``.
    """
    return crc16_ccitt(data, 0xFFFF)


@dataclass(frozen=True)
class Frame:
    """One frame: message type, sequence number (0: not sequenced) and payload; an
    authenticated one (``version`` 2) also its frame counter and MAC."""

    type: int
    seq: int
    payload: bytes = b""
    version: int = VERSION
    counter: int = 0
    mac: bytes = b""

    def __post_init__(self) -> None:
        if not (0 <= self.type <= 255 and 0 <= self.seq <= 255 and 0 <= self.version <= 255):
            raise ValueError(f"type, seq and version are bytes: {self!r}")
        if len(self.payload) > MAX_PAYLOAD:
            raise ValueError(f"at most {MAX_PAYLOAD} payload bytes, not {len(self.payload)}")
        if self.version == AUTH_VERSION:
            if len(self.mac) != MAC_BYTES or not 0 <= self.counter <= 0xFFFFFFFF:
                raise ValueError(f"an authenticated frame has a 4-byte counter and an {MAC_BYTES}-byte MAC")
        elif self.mac or self.counter:
            raise ValueError("only an authenticated frame (version 2) has a counter and a MAC")

    @property
    def covered(self) -> bytes:
        """What the MAC covers: ``LEN VER TYPE SEQ PAYLOAD``."""
        return bytes((len(self.payload), self.version, self.type, self.seq)) + self.payload


class FrameError(ValueError):
    """Bytes that are not one valid frame; ``reason`` is one of ``DROP_REASONS``."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def stuff(body: bytes) -> bytes:
    """``body`` with every 7E and 7D escaped."""
    return body.replace(b"\x7d", b"\x7d\x5d").replace(b"\x7e", b"\x7d\x5e")


def unstuff(data: bytes) -> bytes:
    """Undo ``stuff``; ``FrameError("escape")`` for an escape that stuffing never makes."""
    if ESC not in data:
        return data
    parts = data.split(b"\x7d")
    out = bytearray(parts[0])
    for part in parts[1:]:
        if not part or part[0] not in (FLAG ^ ESC_XOR, ESC ^ ESC_XOR):
            raise FrameError("escape", "7D not followed by 5E or 5D")
        out.append(part[0] ^ ESC_XOR)
        out += part[1:]
    return bytes(out)


def body_of(frame: Frame) -> bytes:
    """The unstuffed frame: ``LEN VER TYPE SEQ PAYLOAD [CTR MAC] CRC_HI CRC_LO``."""
    head = frame.covered
    if frame.version == AUTH_VERSION:
        head += frame.counter.to_bytes(COUNTER_BYTES, "big") + frame.mac
    return head + crc16_ccitt_false(head).to_bytes(2, "big")


def encode(frame: Frame) -> bytes:
    """The bytes on the wire for ``frame``: ``7E stuffed(body) 7E``."""
    return b"\x7e" + stuff(body_of(frame)) + b"\x7e"


def decode_body(body: bytes) -> Frame:
    """The frame in an unstuffed ``body``; ``FrameError`` naming why it is not one."""
    if len(body) < MIN_FRAME:
        raise FrameError("short", f"{len(body)} bytes")
    trailer = TRAILER if body[1] == AUTH_VERSION else 0
    if body[0] != len(body) - MIN_FRAME - trailer or body[0] > MAX_PAYLOAD:
        raise FrameError("length", f"length byte {body[0]}, frame of {len(body)} bytes")
    if crc16_ccitt_false(body[:-2]) != int.from_bytes(body[-2:], "big"):
        raise FrameError("crc", "CRC mismatch")
    if body[1] not in (VERSION, AUTH_VERSION):
        raise FrameError("version", f"version {body[1]}, not {VERSION} or {AUTH_VERSION}")
    end = 4 + body[0]
    if not trailer:
        return Frame(type=body[2], seq=body[3], payload=bytes(body[4:end]), version=body[1])
    counter = int.from_bytes(body[end:end + COUNTER_BYTES], "big")
    return Frame(type=body[2], seq=body[3], payload=bytes(body[4:end]), version=body[1],
                 counter=counter, mac=bytes(body[end + COUNTER_BYTES:-2]))


def decode(raw: bytes) -> Frame:
    """The frame in ``raw`` (one stuffed frame, flags optional); ``FrameError`` otherwise."""
    return decode_body(unstuff(bytes(raw).strip(b"\x7e")))


class FrameDecoder:
    """Bytes in, frames out. ``dropped`` counts the chunks thrown away, by reason."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overlong = False
        self.dropped: Counter[str] = Counter()
        self.frames = 0

    @property
    def corrupt(self) -> int:
        """How many chunks were dropped, whatever the reason."""
        return sum(self.dropped.values())

    @property
    def buffered(self) -> int:
        """How many bytes wait for their closing flag."""
        return len(self._buf)

    def reset(self) -> None:
        """Forget a partial frame (the counters stay)."""
        self._buf.clear()
        self._overlong = False

    def feed(self, data: bytes | bytearray) -> list[Frame]:
        """Take bytes from the link; return the frames they complete, in order."""
        frames: list[Frame] = []
        data = bytes(data)
        start = 0
        while True:
            end = data.find(b"\x7e", start)
            self._append(data[start:] if end < 0 else data[start:end])
            if end < 0:
                return frames
            self._close_chunk(frames)
            start = end + 1

    def _append(self, chunk: bytes) -> None:
        if self._overlong or not chunk:
            return
        if len(self._buf) + len(chunk) > MAX_STUFFED:
            self._buf.clear()
            self._overlong = True
            return
        self._buf += chunk

    def _close_chunk(self, frames: list[Frame]) -> None:
        if self._overlong:
            self.dropped["overlong"] += 1
        elif self._buf:
            try:
                frames.append(decode_body(unstuff(bytes(self._buf))))
                self.frames += 1
            except FrameError as exc:
                self.dropped[exc.reason] += 1
        self.reset()
