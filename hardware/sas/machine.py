"""One SAS address's machine side as a state machine: bytes in, replies and events out.

Owns: framing (by the wakeup bit where the link reports it, by content where it does not),
the general poll and its exception queue, the chirp, and the long polls answered from a
``MeterSource``. In the manner of h11: ``receive_data(data, now, wakeup=None)`` takes bytes
(``wakeup``, if given, one flag per byte), ``data_to_send()`` gives the replies,
``next_event()`` what the host asked of the cabinet (``Shutdown``, ``Startup``, ...), and
``tick(now)`` runs the chirp. ``now`` is monotonic seconds from the caller. Never does I/O,
never reads a clock, never knows a cabinet: meters come from the source it is given. The
read-only polls are ``meters.py``'s, the ticket polls ``tickets.py``'s, AFT (72-74) is
``aft.py``'s ``AftState`` (``machine.aft``); the source's protocol and defaults ``source.py``.

Real-time event reporting (0E): while the host has it on, a general poll with an exception
queued is answered ``address FF code data CRC`` (``RTE_DATA`` the data each code carries).

Implied ACK and NACK (the document's section on acknowledgement), with ``implied_nack=True``
(off by default: tolerant of hosts that never acknowledge): an answer to a general poll
stays "unacknowledged" until the host moves on — any long poll, the global poll ``80``, a poll
to another address. The same general poll again with nothing between is an implied NACK and
gets the same answer (the exception is not lost); after ``MAX_RESENDS`` repeats the answer is
taken as delivered (a host that never acknowledges still sees each exception at most three
times and the queue moves on). A control poll (``ONCE_ONLY``: 01, 02, 0E, 7F, 94) repeated at
once is answered again without being done again; read polls are simply answered afresh.

Framing by content: in the idle state ``0x80|address`` is a general poll, any other byte with
the top bit set (``0x80`` the global poll, another machine's poll) is passed over, an address
1..127 starts a long poll whose length ``POLL_LENGTHS`` fixes from the command (a length byte
follows for the variable ones). A long poll to another address is framed and skipped, so its
bytes are never taken for ours; an unknown command or a gap of ``frame_gap`` seconds inside a
frame drops what was gathered (noise) and the machine waits for silence, then listens again.
A bad CRC is answered with silence and changes nothing.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from datetime import datetime

from hardware.sas import aft, meters, tickets
from hardware.sas.aft import AftEvent, AftState
from hardware.sas.codec import POLL_LENGTHS, VARIABLE, bcd, crc_ok, from_bcd, with_crc
from hardware.sas.meters import METER_CODES, METER_POLLS
from hardware.sas.source import BaseMeterSource, GameInfo, MeterSource

__all__ = ["METER_CODES", "METER_POLLS", "BaseMeterSource", "GameInfo", "MeterSource", "SasMachine"]

CHIRP_AFTER = 5.0  # seconds without a poll before the machine chirps
CHIRP_EVERY = 0.2
FRAME_GAP = 0.1  # seconds of silence inside a frame that end it
QUEUE_SIZE = 32
OVERFLOW = 0x70  # exception buffer overflow
PRIORITY = frozenset({0x51, 0x52, 0x31, 0x32, 0x33, 0x34, 0x35, 0x3D, 0x3E, 0x57})  # chosen
# real-time events (0E): the data bytes each carries between its code and the CRC; an event
# posted with less is padded with zeros, every other code carries none
RTE_DATA = {0x7E: 8, 0x7F: 4, 0x4F: 6}
MAX_RESENDS = 2  # a host repeats a poll it got no good answer to at most twice (an implied NACK)
ONCE_ONLY = frozenset({0x01, 0x02, 0x0E, 0x7F, 0x94})  # polls a NACK must not make happen twice


@dataclass(frozen=True)
class Shutdown:
    """Long poll 01: the host disables the machine."""


@dataclass(frozen=True)
class Startup:
    """Long poll 02: the host enables it again."""


@dataclass(frozen=True)
class BadCrc:
    """A frame for this address whose CRC did not match (ignored)."""

    frame: bytes


@dataclass(frozen=True)
class HandpayReset:
    """Long poll 94: the host resets the pending handpay."""


@dataclass(frozen=True)
class SetClock:
    """Long poll 7F: the host's date and time (the cabinet journals it; round timers never move)."""

    when: datetime


@dataclass(frozen=True)
class RealTimeReporting:
    """Long poll 0E: the host turned real-time event reporting on or off."""

    enabled: bool


Event = Shutdown | Startup | BadCrc | HandpayReset | SetClock | RealTimeReporting | AftEvent


def game_started_data(wagered: int, coin_in: int, wager_type: int = 0, progressive_group: int = 0) -> bytes:
    """7E's real-time data: credits wagered (2 BCD), the coin in meter after it (4 BCD), the
    wager type and progressive group (one byte each)."""
    return bcd(wagered, 2) + bcd(coin_in, 4) + bytes((wager_type & 0xFF, progressive_group & 0xFF))


def game_ended_data(win: int) -> bytes:
    """7F's real-time data: the game's win in credits (4 BCD)."""
    return bcd(win, 4)


class SasMachine:
    """The machine side of one SAS address."""

    def __init__(self, address: int, source: MeterSource, *, now: float = 0.0,
                 frame_gap: float = FRAME_GAP, implied_nack: bool = False) -> None:
        if not 1 <= address <= 127:
            raise ValueError(f"SAS address {address}: 1 to 127")
        self.address = address
        self._source = source
        self.frame_gap = frame_gap
        # True: a poll repeated without an implied ACK between gets the same answer (docs/sas.md)
        self.implied_nack = implied_nack
        self._frame = bytearray()
        self._need = 0  # bytes the frame in progress needs (0: idle)
        self._skipping = False
        self._last_byte = now
        self._last_poll = now
        self._last_chirp = now
        self._out = bytearray()
        self._events: deque[Event] = deque()
        self._priority: deque[tuple[int, bytes]] = deque()
        self._fifo: deque[tuple[int, bytes]] = deque()
        self._signature_seed: int | None = None
        self.real_time = False  # 0E: general polls answered with the real-time event form
        self._unacked: bytes | None = None  # the last general poll's answer, until an implied ACK
        self._resends = 0
        self._last_long: tuple[bytes, bytes] | None = None  # a control poll and its answer
        self._long_resends = 0
        self.aft = AftState(source)
        self.counters = {"bad_crc": 0, "noise": 0, "polls": 0, "resent": 0}

    @property
    def source(self) -> MeterSource:
        return self._source

    @source.setter
    def source(self, source: MeterSource) -> None:
        """Another source (the cabinet's, once its journal is open): AFT reads it too."""
        self._source = source
        self.aft.source = source

    # -- the cabinet's side ----------------------------------------------------------------
    def post_exception(self, code: int, data: bytes = b"") -> None:
        """Queue an exception for the general poll (priority ones ahead of the FIFO). ``data``
        is what the real-time form (0E) carries with it (``game_started_data``, ...)."""
        queue = self._priority if code in PRIORITY else self._fifo
        if len(self._priority) + len(self._fifo) >= QUEUE_SIZE:
            if all(c != OVERFLOW for c, _ in self._priority):
                self._priority.append((OVERFLOW, b""))
            return
        queue.append((code, data))

    def data_to_send(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def next_event(self) -> Event | None:
        return self._events.popleft() if self._events else None

    @property
    def host_present(self) -> bool:
        return self._last_chirp <= self._last_poll

    def tick(self, now: float) -> None:
        """Chirp the address every ``CHIRP_EVERY`` s once no poll came for ``CHIRP_AFTER`` s;
        run AFT's lock timer."""
        if now - self._last_poll >= CHIRP_AFTER and now - self._last_chirp >= CHIRP_EVERY:
            self._last_chirp = now
            self._out.append(self.address)
        self.aft.tick(now)
        self._drain_aft()

    def _drain_aft(self) -> None:
        aft_state = self.aft
        if aft_state.events:
            self._events.extend(aft_state.events)
            aft_state.events.clear()
        for code in aft_state.exceptions:
            self.post_exception(code)
        aft_state.exceptions.clear()

    # -- the host's side -------------------------------------------------------------------
    def receive_data(self, data: bytes, now: float, wakeup: list[bool] | None = None) -> None:
        for i, byte in enumerate(data):
            woke = None if wakeup is None else wakeup[i]
            self._byte(byte, now, woke)

    def _byte(self, byte: int, now: float, woke: bool | None) -> None:
        gap = now - self._last_byte > self.frame_gap
        self._last_byte = now
        if (self._need or self._skipping) and (gap or woke):
            if self._need:
                self.counters["noise"] += 1
            self._frame.clear()
            self._need, self._skipping = 0, False
        if self._skipping:
            return
        if self._need:
            self._frame.append(byte)
            self._grow()
            return
        if woke is False:  # a link that reports the wakeup bit: data in idle is noise
            self.counters["noise"] += 1
            return
        if byte == 0x80 | self.address:
            self._polled(now)
            self._general_poll()
        elif byte & 0x80:
            self._acknowledged()  # the global poll, another machine's general poll: an implied ACK
        else:
            self._frame = bytearray([byte])
            self._need = 2

    def _grow(self) -> None:
        frame = self._frame
        if len(frame) == 2:
            length = POLL_LENGTHS.get(frame[1])
            if length is None:
                self.counters["noise"] += 1
                self._need, self._skipping = 0, True
                return
            self._need = 3 if length == VARIABLE else length
        elif len(frame) == 3 and POLL_LENGTHS.get(frame[1]) == VARIABLE:
            self._need = 3 + frame[2] + 2
        if len(frame) >= self._need:
            self._need = 0
            self._long_poll(bytes(frame))

    def _polled(self, now: float) -> None:
        self._last_poll = now
        self._last_chirp = min(self._last_chirp, now)
        self.counters["polls"] += 1

    def _acknowledged(self) -> None:
        """An implied ACK: the host moved on (a long poll, the global poll, a poll to another
        address), so the last answers arrived; a repeat of the same poll is a new one."""
        self._unacked = None
        self._resends = 0
        self._last_long = None

    def _general_poll(self) -> None:
        self._last_long = None  # a general poll acknowledges the last long poll's answer
        if self._unacked is not None and self._resends < MAX_RESENDS and self.implied_nack:
            # the same general poll again, nothing between: an implied NACK, the same answer
            self._resends += 1
            self.counters["resent"] += 1
            self._out += self._unacked
            return
        self._unacked, self._resends = None, 0  # resent enough: taken as delivered
        self._drain_aft()  # a transfer the cabinet confirmed since: its exception is due
        reply = self._general_reply()
        if reply != b"\x00":
            self._unacked = reply
        self._out += reply

    def _general_reply(self) -> bytes:
        if self._signature_seed is not None:
            signature = self.source.rom_signature(self._signature_seed)
            if signature is not None:  # the signature acknowledged earlier, delivered now
                self._signature_seed = None
                return with_crc(bytes((self.address, 0x21)) + signature.to_bytes(2, "little"))
        queue = self._priority or self._fifo
        if not queue:
            return b"\x00"
        code, data = queue.popleft()
        if not self.real_time:
            return bytes((code,))
        size = RTE_DATA.get(code, 0)
        data = (data + bytes(size))[:size]
        return with_crc(bytes((self.address, 0xFF, code)) + data)

    def _long_poll(self, frame: bytes) -> None:
        if frame[0] not in (self.address, 0):
            self._acknowledged()  # a poll to another machine: an implied ACK
            return
        command = frame[1]
        if POLL_LENGTHS[command] != 2 and not crc_ok(frame):
            self.counters["bad_crc"] += 1
            self._events.append(BadCrc(frame))
            return
        self._polled(self._last_byte)
        last, self._unacked, self._resends = self._last_long, None, 0
        if last is not None and last[0] == frame and self._long_resends < MAX_RESENDS and self.implied_nack:
            # the same control poll again: an implied NACK, answered again but not done again
            self._long_resends += 1
            self.counters["resent"] += 1
            self._out += last[1]
            return
        self._last_long, self._long_resends = None, 0
        reply = self._answer(command, frame[2:-2] if POLL_LENGTHS[command] != 2 else b"")
        if reply is not None and frame[0] != 0:
            self._out += reply
            if command in ONCE_ONLY:
                self._last_long = (frame, reply)

    def _answer(self, command: int, data: bytes) -> bytes | None:
        address, src = self.address, self.source
        head = bytes((address, command))
        if command in meters.COMMANDS:
            return meters.answer(address, command, data, src)
        if command in tickets.COMMANDS:
            return tickets.answer(address, command, data, src)
        if command in aft.COMMANDS:
            reply = self.aft.answer(address, command, data, self._last_byte)
            self._drain_aft()
            return reply
        if command in (0x01, 0x02):
            self._events.append(Shutdown() if command == 0x01 else Startup())
            return bytes((address,))
        if command == 0x0E:
            if data[:1] not in (b"\x00", b"\x01"):
                return bytes((address | 0x80,))
            self.real_time = data[0] == 1
            self._events.append(RealTimeReporting(self.real_time))
            return bytes((address,))
        if command == 0x7E:
            t = src.clock()
            return with_crc(head + bcd(int(t.strftime("%m%d%Y")), 4) + bcd(int(t.strftime("%H%M%S")), 3))
        if command == 0x7F:
            try:
                when = datetime.strptime(f"{from_bcd(data[:4]):08d}{from_bcd(data[4:7]):06d}", "%m%d%Y%H%M%S")
            except ValueError:
                return bytes((address | 0x80,))
            self._events.append(SetClock(when))
            return bytes((address,))
        if command == 0x94:
            if not src.handpay_pending():
                return with_crc(head + b"\x02")
            self._events.append(HandpayReset())
            return with_crc(head + b"\x00")
        if command == 0x54:
            body = b"602" + src.serial_number().encode("ascii", "replace")[:40]
            return with_crc(head + bytes((len(body),)) + body)
        if command == 0x21:
            seed = int.from_bytes(data[:2], "little")
            signature = src.rom_signature(seed)
            if signature is None:
                self._signature_seed = seed
                return bytes((address,))
            return with_crc(head + signature.to_bytes(2, "little"))
        return None  # a poll this machine does not answer: silence, as for an unknown one
