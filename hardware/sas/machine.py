"""One SAS address's machine side as a state machine: bytes in, replies and events out.

Owns: framing (by the wakeup bit where the link reports it, by content where it does not),
the general poll and its exception queue, the chirp, and the long polls answered from a
``MeterSource``. In the manner of h11: ``receive_data(data, now, wakeup=None)`` takes bytes
(``wakeup``, if given, one flag per byte), ``data_to_send()`` gives the replies,
``next_event()`` what the host asked of the cabinet (``Shutdown``, ``Startup``, ...), and
``tick(now)`` runs the chirp. ``now`` is monotonic seconds from the caller. Never does I/O,
never reads a clock, never knows a cabinet: meters come from the source it is given.

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
from typing import Protocol

from hardware.sas.codec import POLL_LENGTHS, VARIABLE, bcd, crc_ok, from_bcd, with_crc

CHIRP_AFTER = 5.0  # seconds without a poll before the machine chirps
CHIRP_EVERY = 0.2
FRAME_GAP = 0.1  # seconds of silence inside a frame that end it
QUEUE_SIZE = 32
OVERFLOW = 0x70  # exception buffer overflow
PRIORITY = frozenset({0x51, 0x52, 0x31, 0x32, 0x33, 0x34, 0x35, 0x3D, 0x3E, 0x57})  # chosen


class MeterSource(Protocol):
    """What the machine side asks of the cabinet: meters by name (``coin_in``, ``coin_out``,
    ``drop``, ``jackpot``, ``cancelled``, ``games_played``, ``games_won``, ``games_lost``,
    ``credits``, ``true_coin_in``, ``true_coin_out``, ``bills_value``,
    ``games_since_power_up``, ``games_since_door``, ``bills_<dollars>``), per game
    number (0 = the whole machine)."""

    def meter(self, name: str, game: int = 0) -> int: ...

    def games(self) -> tuple[int, ...]: ...

    def selected_game(self) -> int: ...

    def serial_number(self) -> str: ...

    def clock(self) -> datetime: ...

    def handpay_pending(self) -> bool: ...

    def rom_signature(self, seed: int) -> int | None:
        """The program's CRC under ``seed``, or None while it is still being computed."""
        ...


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


Event = Shutdown | Startup | BadCrc | HandpayReset | SetClock

# (command, [(meter name, BCD bytes)]) for the polls that are only meters of the machine
METER_POLLS: dict[int, tuple[tuple[str, int], ...]] = {
    0x0F: (("cancelled", 4), ("coin_in", 4), ("coin_out", 4), ("drop", 4), ("jackpot", 4),
           ("games_played", 4)),
    0x10: (("cancelled", 4),), 0x11: (("coin_in", 4),), 0x12: (("coin_out", 4),),
    0x13: (("drop", 4),), 0x14: (("jackpot", 4),), 0x15: (("games_played", 4),),
    0x16: (("games_won", 4),), 0x17: (("games_lost", 4),),
    0x18: (("games_since_power_up", 2), ("games_since_door", 2)),
    0x19: (("coin_in", 4), ("coin_out", 4), ("drop", 4), ("jackpot", 4), ("games_played", 4)),
    0x1A: (("credits", 4),),
    0x20: (("bills_value", 4),),
    0x2A: (("true_coin_in", 4),), 0x2B: (("true_coin_out", 4),),
    0x1E: tuple((f"bills_{d}", 4) for d in (1, 5, 10, 20, 50, 100)),
    **{0x31 + i: ((f"bills_{d}", 4),) for i, d in enumerate((1, 2, 5, 10, 20, 50, 100))},
}
# meter codes of 2F (the document's table of meter codes) this machine keeps
METER_CODES: dict[int, str] = {
    0x00: "coin_in", 0x01: "coin_out", 0x02: "jackpot", 0x04: "cancelled", 0x05: "games_played",
    0x06: "games_won", 0x07: "games_lost", 0x0C: "credits", 0x24: "drop",
}


class SasMachine:
    """The machine side of one SAS address."""

    def __init__(self, address: int, source: MeterSource, *, now: float = 0.0,
                 frame_gap: float = FRAME_GAP) -> None:
        if not 1 <= address <= 127:
            raise ValueError(f"SAS address {address}: 1 to 127")
        self.address = address
        self.source = source
        self.frame_gap = frame_gap
        self._frame = bytearray()
        self._need = 0  # bytes the frame in progress needs (0: idle)
        self._skipping = False
        self._last_byte = now
        self._last_poll = now
        self._last_chirp = now
        self._out = bytearray()
        self._events: deque[Event] = deque()
        self._priority: deque[int] = deque()
        self._fifo: deque[int] = deque()
        self._signature_seed: int | None = None
        self.counters = {"bad_crc": 0, "noise": 0, "polls": 0}

    # -- the cabinet's side ----------------------------------------------------------------
    def post_exception(self, code: int) -> None:
        """Queue an exception for the general poll (priority ones ahead of the FIFO)."""
        queue = self._priority if code in PRIORITY else self._fifo
        if len(self._priority) + len(self._fifo) >= QUEUE_SIZE:
            if OVERFLOW not in self._priority:
                self._priority.append(OVERFLOW)
            return
        queue.append(code)

    def data_to_send(self) -> bytes:
        out, self._out = bytes(self._out), bytearray()
        return out

    def next_event(self) -> Event | None:
        return self._events.popleft() if self._events else None

    @property
    def host_present(self) -> bool:
        return self._last_chirp <= self._last_poll

    def tick(self, now: float) -> None:
        """Chirp the address every ``CHIRP_EVERY`` s once no poll came for ``CHIRP_AFTER`` s."""
        if now - self._last_poll >= CHIRP_AFTER and now - self._last_chirp >= CHIRP_EVERY:
            self._last_chirp = now
            self._out.append(self.address)

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
            return  # the global poll, another machine's general poll
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

    def _general_poll(self) -> None:
        if self._signature_seed is not None:
            signature = self.source.rom_signature(self._signature_seed)
            if signature is not None:  # the signature acknowledged earlier, delivered now
                self._signature_seed = None
                self._out += with_crc(bytes((self.address, 0x21)) + signature.to_bytes(2, "little"))
                return
        queue = self._priority or self._fifo
        self._out.append(queue.popleft() if queue else 0x00)

    def _long_poll(self, frame: bytes) -> None:
        if frame[0] not in (self.address, 0):
            return
        command = frame[1]
        if POLL_LENGTHS[command] != 2 and not crc_ok(frame):
            self.counters["bad_crc"] += 1
            self._events.append(BadCrc(frame))
            return
        self._polled(self._last_byte)
        reply = self._answer(command, frame[2:-2] if POLL_LENGTHS[command] != 2 else b"")
        if reply is not None and frame[0] != 0:
            self._out += reply

    def _answer(self, command: int, data: bytes) -> bytes | None:
        head = bytes((self.address, command))
        src = self.source
        if command in METER_POLLS:
            return with_crc(head + b"".join(bcd(src.meter(n), s) for n, s in METER_POLLS[command]))
        if command in (0x01, 0x02):
            self._events.append(Shutdown() if command == 0x01 else Startup())
            return bytes((self.address,))
        if command == 0x7E:
            t = src.clock()
            return with_crc(head + bcd(int(t.strftime("%m%d%Y")), 4) + bcd(int(t.strftime("%H%M%S")), 3))
        if command == 0x7F:
            try:
                when = datetime.strptime(f"{from_bcd(data[:4]):08d}{from_bcd(data[4:7]):06d}", "%m%d%Y%H%M%S")
            except ValueError:
                return bytes((self.address | 0x80,))
            self._events.append(SetClock(when))
            return bytes((self.address,))
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
                return bytes((self.address,))
            return with_crc(head + signature.to_bytes(2, "little"))
        if command == 0x51:
            return with_crc(head + bcd(len(src.games()), 2))
        if command == 0x55:
            return with_crc(head + bcd(src.selected_game(), 2))
        if command == 0x56:
            games = src.games()
            body = bytes((len(games),)) + b"".join(bcd(g, 2) for g in games)
            return with_crc(head + bytes((len(body),)) + body)
        if command == 0x52:
            game = from_bcd(data[:2])
            if game and game not in src.games():
                return bytes((self.address | 0x80,))
            names = ("coin_in", "coin_out", "jackpot", "games_played")
            return with_crc(head + data[:2] + b"".join(bcd(src.meter(n, game), 4) for n in names))
        if command == 0x2F:
            return self._selected_meters(head, data)
        return None  # a poll this machine does not answer: silence, as for an unknown one

    def _selected_meters(self, head: bytes, data: bytes) -> bytes | None:
        # data: length, game number (2 BCD), meter codes
        try:
            game = from_bcd(data[1:3])
        except ValueError:
            return bytes((self.address | 0x80,))
        if game and game not in self.source.games():
            return bytes((self.address | 0x80,))
        body = bytearray(data[1:3])
        for code in data[3:]:
            name = METER_CODES.get(code)
            if name is not None:
                body += bytes((code,)) + bcd(self.source.meter(name, game), 4)
        return with_crc(head + bytes((len(body),)) + bytes(body))
