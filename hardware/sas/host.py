"""A SAS host (the management system's side), sans-I/O, plus a small blocking poller.

Owns: building what a host sends (``general_poll``, ``long_poll``: the bytes and one wakeup
flag per byte, the CRC on every poll but the type R ones), telling when a machine's reply is
whole (``ReplyReader``: one exception byte, an ACK/NACK, a fixed-length reply, a reply whose
length byte follows the command, a real-time event ``address FF code data CRC``), reading the
meters out of replies, and ``SasHost``, which polls one address over a ``Transport``. Written
from the document's frame layouts, not from this project's machine side, so that each checks
the other. Never knows a cabinet; the only I/O is the transport it is handed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from hardware.sas.codec import bcd, crc_ok, from_bcd, with_crc

# The whole frame a machine sends back, address to CRC, for the long polls whose replies have
# a fixed length. The others answer ``address command length data CRC`` (VARIABLE_REPLIES),
# an ACK (the address) or a NACK (the address with bit 7).
REPLY_LENGTHS: dict[int, int] = {
    0x0F: 28, **{c: 8 for c in (*range(0x10, 0x18), 0x1A, 0x20, 0x2A, 0x2B, *range(0x31, 0x38), 0x46)},
    0x18: 8, 0x19: 24, 0x1B: 24, 0x1E: 28, 0x1F: 24, 0x21: 6, 0x3D: 13, 0x48: 10, 0x4C: 10, 0x4D: 35,
    0x50: 14, 0x51: 6, 0x52: 22, 0x53: 26, 0x55: 6, 0x7E: 11, 0x94: 5, 0xA0: 12,
}
VARIABLE_REPLIES = frozenset({0x2F, 0x54, 0x56, 0x6F, 0x72, 0x73, 0x74, 0x7B, 0xAF, 0xB5})
# long polls the machine answers with an ACK alone (or a NACK)
ACK_POLLS = frozenset({0x01, 0x02, 0x03, 0x04, 0x06, 0x07, 0x0E, 0x7F})
# type R polls: two bytes from the host, no CRC
R_POLLS = frozenset({0x0F, *range(0x10, 0x21), 0x2A, 0x2B, *range(0x31, 0x46), 0x46, 0x47, 0x48,
                     0x49, 0x4A, 0x4F, 0x51, 0x54, 0x55, 0x56, 0x57, 0x7E, 0x3D})
# real-time events (0E enabled): the data bytes between the code and the CRC, where any
RTE_DATA: dict[int, int] = {0x7E: 8, 0x7F: 4, 0x4F: 6, 0x51: 0, 0x3D: 0, 0x3E: 0, 0x57: 0}

# general poll exception codes a reader wants named (the document's table, the codes in use)
EXCEPTION_NAMES: dict[int, str] = {
    0x00: "no activity", 0x11: "slot door opened", 0x12: "slot door closed",
    0x13: "drop door opened", 0x14: "drop door closed", 0x15: "card cage opened",
    0x16: "card cage closed", 0x17: "AC power applied", 0x18: "AC power lost",
    0x19: "cashbox door opened", 0x1A: "cashbox door closed", 0x1D: "belly door opened",
    0x1E: "belly door closed", 0x20: "general tilt", 0x21: "coin in tilt", 0x22: "coin out tilt",
    0x23: "hopper empty", 0x24: "extra coin paid", 0x25: "diverter malfunction",
    0x27: "cashbox full", 0x28: "bill jam", 0x29: "bill acceptor hardware failure",
    0x2A: "reverse bill detected", 0x2B: "bill rejected", 0x2C: "counterfeit bill detected",
    0x31: "CMOS RAM error (data recovered)", 0x32: "CMOS RAM error (no data recovered)",
    0x33: "CMOS RAM error (bad device)", 0x34: "EEPROM error (data error)",
    0x35: "EEPROM error (bad device)", 0x3C: "operator changed options",
    0x3D: "cash out ticket printed", 0x3E: "handpay validated", 0x3F: "validation ID not configured",
    0x51: "handpay pending", 0x52: "handpay reset", 0x57: "system validation request",
    0x60: "printer communication error", 0x61: "printer paper out", 0x66: "cash out button pressed",
    0x6F: "game locked", 0x70: "exception buffer overflow", 0x71: "change lamp on",
    0x72: "change lamp off", 0x74: "printer paper low", 0x7A: "gaming machine soft meters reset",
    0x7B: "bill validator totals reset", 0x7C: "legacy bonus pay awarded",
    0x7E: "game started", 0x7F: "game ended", 0x82: "display meters or attendant menu entered",
    0x83: "display meters or attendant menu exited", 0x84: "self test or operator menu entered",
    0x85: "self test or operator menu exited", 0x86: "gaming machine out of service",
    0x8C: "game selected",
}

# the meters a host reads on ``--meters``: (poll, [(name, BCD bytes)]) in the reply's order
METER_READS: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = (
    (0x1A, (("current credits", 4),)),
    (0x0F, (("cancelled credits", 4), ("coin in", 4), ("coin out", 4), ("drop", 4),
            ("jackpot", 4), ("games played", 4))),
    (0x16, (("games won", 4),)), (0x17, (("games lost", 4),)),
    (0x18, (("games since power up", 2), ("games since door closed", 2))),
    (0x20, (("bills accepted value", 4),)),
    (0x2A, (("true coin in", 4),)), (0x2B, (("true coin out", 4),)),
)


@dataclass(frozen=True)
class Poll:
    """What a host sends: the bytes, and the wakeup (ninth) bit of each."""

    data: bytes
    wakeup: tuple[bool, ...]


def general_poll(address: int) -> Poll:
    if not 1 <= address <= 127:
        raise ValueError(f"SAS address {address}: 1 to 127")
    return Poll(bytes((0x80 | address,)), (True,))


def long_poll(address: int, command: int, data: bytes = b"") -> Poll:
    """``address command data`` and the CRC (none on a type R poll); the wakeup bit on the
    address only. A variable poll's length byte is the caller's, part of ``data``."""
    if not 0 <= address <= 127:
        raise ValueError(f"SAS address {address}: 0 to 127")
    frame = bytes((address, command)) + data
    if not (command in R_POLLS and not data):
        frame = with_crc(frame)
    return Poll(frame, (True,) + (False,) * (len(frame) - 1))


@dataclass(frozen=True)
class Reply:
    """A machine's answer. ``kind``: ``exception`` (``code``), ``ack``, ``nack``, ``frame``
    (``data``: between the command and the CRC, a length byte not included), ``event`` (a
    real-time event: ``code`` and its ``data``), ``bad_crc`` (``data``: the whole frame)."""

    kind: str
    code: int = 0
    data: bytes = b""


class ReplyReader:
    """Gathers a machine's bytes after one poll and says when its reply is whole.

    ``expect`` is the long poll's command, or None after a general poll. ``feed`` returns the
    Reply once complete (bytes past it are kept in ``rest``). A lone address before the reply
    (the machine chirped just as the poll went out) is passed over."""

    def __init__(self, address: int, expect: int | None) -> None:
        self.address = address
        self.expect = expect
        self.buffer = bytearray()
        self.rest = b""
        self.chirps = 0  # lone address bytes passed over before the reply

    def feed(self, data: bytes) -> Reply | None:
        self.buffer += data
        need = self._need()
        if need is None or len(self.buffer) < need:
            return None
        frame, self.rest = bytes(self.buffer[:need]), bytes(self.buffer[need:])
        return self._reply(frame)

    def _need(self) -> int | None:
        buf, address = self.buffer, self.address
        while buf:
            if buf[0] != address:
                return 1  # an exception code, a NACK, or a byte not ours (the caller reports it)
            if self.expect in ACK_POLLS:
                return 1
            if len(buf) < 2:
                return None
            command = buf[1]
            if command == 0xFF and self.expect is None:  # a real-time event
                return None if len(buf) < 3 else 3 + RTE_DATA.get(buf[2], 0) + 2
            if command != (self.expect if self.expect is not None else 0x21):
                del buf[0]  # the address alone before the reply: a chirp
                self.chirps += 1
                continue
            if command in VARIABLE_REPLIES:
                return None if len(buf) < 3 else 3 + buf[2] + 2
            return REPLY_LENGTHS.get(command, 1)
        return None

    def _reply(self, frame: bytes) -> Reply:
        if len(frame) == 1:
            byte = frame[0]
            if self.expect is None:
                return Reply("exception", byte)
            if byte == self.address:
                return Reply("ack")
            if byte == self.address | 0x80:
                return Reply("nack")
            return Reply("exception", byte)
        if not crc_ok(frame):
            return Reply("bad_crc", data=frame)
        if frame[1] == 0xFF:
            return Reply("event", frame[2], frame[3:-2])
        if frame[1] in VARIABLE_REPLIES:
            return Reply("frame", frame[1], frame[3:-2])
        return Reply("frame", frame[1], frame[2:-2])


def split_meters(data: bytes, layout: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """The named BCD meters a fixed reply's data holds, in ``layout``'s order."""
    out: dict[str, int] = {}
    at = 0
    for name, size in layout:
        out[name] = from_bcd(data[at:at + size])
        at += size
    return out


class Link(Protocol):
    """The transport a host polls over. A link that can set the ninth bit has ``write_poll``."""

    def write(self, data: bytes) -> None: ...

    def read(self, size: int, timeout: float) -> bytes: ...


class NoReply(OSError):
    """The machine did not answer a poll within the timeout."""


class SasHost:
    """Polls one machine address over ``link``: each call sends one poll and waits for its
    whole reply (``timeout`` seconds, generous: a pty and a busy machine are slower than the
    document's 20 ms). Bytes left over from an earlier reply (a chirp, a late answer) are
    dropped before each poll."""

    def __init__(self, link: Link, address: int, *, timeout: float = 0.5, gap: float = 0.05,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.gap = gap  # silence after the lone address byte that makes it an ACK
        self._ack_due = False  # the last general poll was answered well: acknowledge it
        self.address = address
        self.timeout = timeout
        self.clock = clock

    def _send(self, poll: Poll) -> None:
        while self.link.read(256, 0.0):
            pass  # stale bytes: a chirp, an answer to an earlier poll that came late
        write_poll = getattr(self.link, "write_poll", None)
        if write_poll is not None:
            write_poll(poll.data, poll.wakeup)
        else:
            self.link.write(poll.data)

    def exchange(self, poll: Poll, expect: int | None) -> Reply:
        self._send(poll)
        reader = ReplyReader(self.address, expect)
        deadline = self.clock() + self.timeout
        while True:
            left = deadline - self.clock()
            if left <= 0:
                raise NoReply(f"address {self.address}: no reply to {poll.data.hex(' ')}")
            chunk = self.link.read(256, min(left, self.gap))
            if chunk:
                reply = reader.feed(chunk)
                if reply is not None:
                    return reply
            elif bytes(reader.buffer) == bytes((self.address,)):
                # the address alone, then silence: after a long poll an ACK (21 answers later),
                # after a general poll the exception code that equals the address
                return Reply("ack") if expect is not None else Reply("exception", self.address)

    def general(self) -> Reply:
        """One general poll. After a good answer the next one goes out behind the global poll
        ``80`` (an implied ACK: the machine moves on to its next exception); after no answer or
        a bad one it goes out alone (an implied NACK: the machine sends the same again)."""
        poll = general_poll(self.address)
        if self._ack_due:
            poll = Poll(b"\x80" + poll.data, (True,) + poll.wakeup)
        try:
            reply = self.exchange(poll, None)
        except NoReply:
            self._ack_due = False
            raise
        self._ack_due = reply.kind != "bad_crc"
        return reply

    def long(self, command: int, data: bytes = b"") -> Reply:
        return self.exchange(long_poll(self.address, command, data), command)

    def meters(self) -> dict[str, int]:
        """Every meter of ``METER_READS``, by its name (a poll unanswered: left out)."""
        out: dict[str, int] = {}
        for command, layout in METER_READS:
            try:
                reply = self.long(command)
            except NoReply:
                continue
            if reply.kind == "frame" and reply.code == command:
                out.update(split_meters(reply.data, layout))
        return out


def describe(reply: Reply) -> str:
    """One plain line for a reply to a general poll."""
    if reply.kind == "exception":
        name = EXCEPTION_NAMES.get(reply.code, "unknown exception")
        return f"exception {reply.code:02X} {name}"
    if reply.kind == "event":
        name = EXCEPTION_NAMES.get(reply.code, "unknown event")
        return f"event {reply.code:02X} {name} {reply.data.hex()}".rstrip()
    if reply.kind == "frame":
        return f"reply {reply.code:02X} {reply.data.hex()}"
    return reply.kind.replace("_", " ")


# -- AFT (72, 73, 74): what a host sends, and the transfer status it reads back ---------------
def aft_transfer_poll(address: int, transaction_id: str, cents: int, *, to_seat: bool = True,
                      partial: bool = False, asset: int = 0, key: bytes = bytes(20), flags: int = 0) -> Poll:
    """72, a cashable in-house transfer of ``cents`` to the machine or from it."""
    tid = transaction_id.encode("ascii")
    if not 1 <= len(tid) <= 20 or len(key) != 20:
        raise ValueError("a transaction id of 1 to 20 ASCII characters and a 20-byte key")
    body = bytes((0x01 if partial else 0x00, 0x00, 0x00 if to_seat else 0x80))
    body += bcd(cents, 5) + bcd(0, 5) + bcd(0, 5) + bytes((flags,)) + asset.to_bytes(4, "little") + key
    body += bytes((len(tid),)) + tid + bcd(0, 4) + bytes(2) + b"\x00" + bcd(0, 2)
    return long_poll(address, 0x72, bytes((len(body),)) + body)


def aft_interrogate_poll(address: int, index: int = 0) -> Poll:
    """72 interrogation: 00 the current transaction, 01-7F a history position, 81-FF relative."""
    return long_poll(address, 0x72, bytes((0x02, 0xFF, index)))


def aft_lock_poll(address: int, code: int = 0xFF, conditions: int = 0, timeout_hundredths: int = 0) -> Poll:
    """74: 00 request a lock (``conditions`` bit 0 to the machine, bit 1 from it), 80 cancel,
    FF only the status."""
    return long_poll(address, 0x74, bytes((code, conditions)) + bcd(timeout_hundredths, 2))


def aft_register_poll(address: int, code: int = 0xFF, *, asset: int = 0, key: bytes = bytes(20),
                      pos_id: int = 0) -> Poll:
    """73: 00 initialise, 01 register, 80 unregister, FF read."""
    if code in (0x80, 0xFF, 0x00):
        return long_poll(address, 0x73, bytes((0x01, code)))
    return long_poll(address, 0x73, bytes((0x1D, code)) + asset.to_bytes(4, "little") + key
                     + pos_id.to_bytes(4, "little"))


@dataclass(frozen=True)
class AftStatus:
    """A 72 reply read back: the transfer's status code (00 full, 01 partial, 40 pending, 8x
    and C0 refused, FF none), its type, the cashable cents, the transaction id, the date."""

    position: int
    status: int
    transfer_type: int
    cents: int
    transaction_id: str
    completed: str  # MMDDYYYYHHMMSS, or "" while not complete


def parse_aft_transfer(data: bytes) -> AftStatus:
    """``Reply.data`` of a 72 reply (after its length byte)."""
    position, status, _receipt, kind = data[0], data[1], data[2], data[3]
    cents = from_bcd(data[4:9])
    at = 4 + 15 + 1 + 4
    size = data[at]
    tid = data[at + 1:at + 1 + size].decode("ascii", "replace")
    stamp = data[at + 1 + size:at + 8 + size]
    completed = "" if not any(stamp) else stamp.hex()
    return AftStatus(position, status, kind, cents, tid, completed)
