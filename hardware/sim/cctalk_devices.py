"""Simulated ccTalk devices: a coin acceptor and a serial hopper, as the bus sees them.

Owns: what a device answers to each header (``handle``), and its physical model: coin
positions, inhibits and the five-event buffer of an acceptor; the coin level, dispense speed,
counters, flags and mechanical faults of a hopper, and what survives a power cut. Pure: time
comes in as ``now`` (seconds), randomness from an injected ``random.Random``; never does I/O,
never reads a clock, never decides how bytes reach it (that is ``simbus.py``).

Every device answers the whole minimum command set of its category (part 3, Appendix 13):
the core and identification headers, 216 (no data storage offered) and 192 for all; 232
(self-check, fault code 0 unless set), 197 (ROM checksum), 231..227, 229 and 184 for a coin
acceptor; 217 (level sensors), 172..163 for a hopper.

Hopper model
------------
A dispense accepted at ``t`` pays one coin at ``t + 1/speed``, ``t + 2/speed``, ... Every coin
that leaves adds one to the lifetime count (168) and to ``left`` (coins that physically left,
for the simulator's ``status``); coins of a payout also count as paid (166). The model is lazy:
``advance(now)`` plays the motor forward and every public method calls it first.

Mechanical faults are armed by ``inject``: ``jam`` and ``opto`` strike after ``after`` more
coins (the motor stalls, the payout ends ``stall_time`` later with the rest unpaid and the flag
set), ``empty`` leaves ``after`` coins in the hopper (the payout times out after the last one),
``extra`` pays one extra (counted) coin at the end of the next payout, ``runaway`` keeps the
motor running after the next payout until 172, the hopper empties or power goes. ``opto``
without ``after`` while idle blocks the exit at once (flag "path blocked during idle").
``power_off`` mid-payout keeps paid/unpaid and sets "power-down during payout", as the
specification says a real hopper does; ``power_on`` comes back disabled with counter 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from hardware.cctalk.headers import (
    BUFFER_EVENTS,
    CATEGORY_COIN_ACCEPTOR,
    CATEGORY_PAYOUT,
    ENABLE_CODE,
    NO_DATA_STORAGE,
    PLAIN_SECURITY_BYTES,
    SELF_CHECK_OK,
    BufferedCredit,
    CoinEvent,
    Header,
    HopperFlags,
    HopperStatus,
    decode_uint,
    encode_ascii,
    encode_coin_id,
    encode_level_status,
    encode_self_check,
    encode_uint,
    next_counter,
    split_dispense,
)

Response = tuple[int, bytes]  # (reply header: 0, NAK or BUSY; data)
ACK: Response = (Header.REPLY, b"")
NAK: Response = (Header.NAK, b"")


@dataclass
class SimDevice:
    """What every simulated ccTalk device answers; subclasses add their own headers."""

    address: int
    category: str = ""
    manufacturer: str = "SIM"
    product: str = "SIMDEV"
    serial: int = 1
    software: str = "SIM-1.0"
    build: str = "SIM00001"
    powered: bool = True

    def handle(self, header: int, data: bytes, now: float) -> Response | None:
        """The reply to one request, or None for no reply (unknown header, or no power)."""
        if not self.powered:
            return None
        if header == Header.SIMPLE_POLL:
            return ACK
        if header == Header.MANUFACTURER_ID:
            return (Header.REPLY, encode_ascii(self.manufacturer))
        if header == Header.EQUIPMENT_CATEGORY:
            return (Header.REPLY, encode_ascii(self.category))
        if header == Header.PRODUCT_CODE:
            return (Header.REPLY, encode_ascii(self.product))
        if header == Header.SERIAL_NUMBER:
            return (Header.REPLY, encode_uint(self.serial, 3))
        if header == Header.SOFTWARE_REVISION:
            return (Header.REPLY, encode_ascii(self.software))
        if header == Header.COMMS_REVISION:
            return (Header.REPLY, bytes((1, 4, 7)))
        if header == Header.BUILD_CODE:
            return (Header.REPLY, encode_ascii(self.build))
        if header == Header.DATA_STORAGE:  # no memory for the host's data
            return (Header.REPLY, NO_DATA_STORAGE)
        if header == Header.RESET_DEVICE:
            self.reset(now)
            return ACK
        return self.handle_own(header, data, now)

    def handle_own(self, header: int, data: bytes, now: float) -> Response | None:
        return None

    def reset(self, now: float) -> None:
        """A software reset (header 1)."""

    def power_off(self, now: float) -> None:
        self.powered = False

    def power_on(self, now: float) -> None:
        self.powered = True
        self.reset(now)

    def status(self, now: float) -> dict[str, object]:
        return {"kind": self.category, "address": self.address, "power": self.powered}

    def memory(self, now: float) -> dict[str, Any]:
        """What the device keeps while its simulator is not running (``hardware.sim.state``):
        a real device stays powered while the cabinet restarts, and keeps its counters."""
        return {"kind": self.category, "serial": self.serial, "powered": self.powered}

    def restore(self, memory: Mapping[str, Any], now: float) -> None:
        """Take back what ``memory`` returned (the same kind and serial number)."""
        self.powered = bool(memory["powered"])


# --- coin acceptor --------------------------------------------------------------------------



class Inhibited(Protocol):
    """A simulated device with per-position inhibits and a master inhibit (acceptor, validator)."""

    inhibit_mask: int
    master_enabled: bool


def inhibit_reply(device: Inhibited, header: int, data: bytes) -> Response | None:
    """231/230 and 228/227 for ``device`` (the inhibit mask and the master inhibit, set and
    read), or None for any other header."""
    if header == Header.MODIFY_INHIBIT:
        device.inhibit_mask = decode_uint(data)
        return ACK
    if header == Header.REQUEST_INHIBIT:
        return (Header.REPLY, encode_uint(device.inhibit_mask & 0xFFFF, 2))
    if header == Header.MODIFY_MASTER_INHIBIT:
        device.master_enabled = bool(data[0] & 1)
        return ACK
    if header == Header.REQUEST_MASTER_INHIBIT:
        return (Header.REPLY, bytes((1 if device.master_enabled else 0,)))
    return None


@dataclass
class SimCoinAcceptor(SimDevice):
    """A coin acceptor: positions 1..16 with coin ids, inhibits, and the 229 event buffer."""

    coins: dict[int, str] = field(default_factory=lambda: {1: "EU100A", 2: "EU200A", 3: "EU050A"})
    category: str = CATEGORY_COIN_ACCEPTOR
    product: str = "SIMCOIN"
    counter: int = 0
    events: list[CoinEvent] = field(default_factory=list)
    inhibit_mask: int = 0  # bit (position - 1) set = accepted
    master_enabled: bool = False
    credits: int = 0  # coins accepted since start (for status)
    fault: int = SELF_CHECK_OK  # what 232 (self-check) reports: a Table 3 fault code
    fault_info: int | None = None  # its optional extra byte
    rom_checksum: int = 0x5EC0_1D47  # 197: the firmware's checksum, LSB first on the wire

    def __post_init__(self) -> None:
        self._clear_buffer()

    def _clear_buffer(self) -> None:
        self.counter = 0
        self.events = [CoinEvent(0, 0)] * BUFFER_EVENTS

    def reset(self, now: float) -> None:
        """Power-up state: counter 0, empty buffer, everything inhibited."""
        self._clear_buffer()
        self.inhibit_mask = 0
        self.master_enabled = False

    def position_of(self, coin_id: str) -> int | None:
        for pos, cid in self.coins.items():
            if cid == coin_id:
                return pos
        return None

    def _push(self, event: CoinEvent) -> None:
        self.counter = next_counter(self.counter)
        self.events = [event, *self.events[: BUFFER_EVENTS - 1]]

    def insert(self, coin_id: str) -> CoinEvent:
        """A coin goes in: a credit, or an error event (unknown: reject, inhibited: 2)."""
        pos = self.position_of(coin_id)
        if pos is None:
            event = CoinEvent(0, 1)
        elif not (self.master_enabled and self.inhibit_mask >> (pos - 1) & 1):
            event = CoinEvent(0, 2)
        else:
            event = CoinEvent(pos, 0)
            self.credits += 1
        if self.powered:
            self._push(event)
        return event

    def error(self, code: int) -> None:
        """An error event, result B = ``code`` (Table 2)."""
        if not 0 < code <= 255:
            raise ValueError(f"error codes are 1..255, not {code}")
        if self.powered:
            self._push(CoinEvent(0, code))

    def handle_own(self, header: int, data: bytes, now: float) -> Response | None:
        if header == Header.READ_BUFFERED_CREDIT:
            return (Header.REPLY, BufferedCredit(self.counter, tuple(self.events)).encode())
        inhibits = inhibit_reply(self, header, data)
        if inhibits is not None:
            return inhibits
        if header == Header.SELF_CHECK:
            return (Header.REPLY, encode_self_check(self.fault, self.fault_info))
        if header == Header.ROM_CHECKSUM:
            return (Header.REPLY, encode_uint(self.rom_checksum, 4))
        if header == Header.COIN_ID:
            if not 1 <= data[0] <= 16:
                return None
            return (Header.REPLY, encode_coin_id(self.coins.get(data[0])))
        return None

    def memory(self, now: float) -> dict[str, Any]:
        return {**super().memory(now), "counter": self.counter,
                "events": [[ev.a, ev.b] for ev in self.events], "inhibits": self.inhibit_mask,
                "master": self.master_enabled}

    def restore(self, memory: Mapping[str, Any], now: float) -> None:
        super().restore(memory, now)
        events = [CoinEvent(int(a), int(b)) for a, b in memory["events"]]
        if not 0 <= int(memory["counter"]) <= 255 or len(events) != BUFFER_EVENTS:
            raise ValueError(f"acceptor {self.address}: not an event buffer: {memory!r}")
        self.counter, self.events = int(memory["counter"]), events
        self.inhibit_mask, self.master_enabled = int(memory["inhibits"]), bool(memory["master"])

    def status(self, now: float) -> dict[str, object]:
        return {
            **super().status(now),
            "counter": self.counter,
            "credits": self.credits,
            "inhibits": self.inhibit_mask,
            "master": int(self.master_enabled),
        }


# --- hopper ---------------------------------------------------------------------------------

_IDLE, _PAYING, _STALLED, _RUNAWAY = "idle", "paying", "stalled", "runaway"
SECURITY_MODES = ("serial", "none")


@dataclass
class SimHopper(SimDevice):
    """A serial compact hopper (SCH3-like: 163 with three registers, 167 replies a counter)."""

    category: str = CATEGORY_PAYOUT
    product: str = "SIMHOP"
    coin: str = "EU100A"
    level: int = 500
    lifetime: int = 0
    speed: float = 8.0  # coins per second
    security: str = "serial"
    stall_time: float = 0.4  # seconds a stalled motor tries before the payout gives up
    low_level: int | None = 20  # 217: coins below which the low level sensor trips (None: none)
    high_level: int | None = None  # coins from which the high level sensor trips (None: none)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    # state
    left: int = 0  # coins that physically left the hopper since start
    counter: int = 0
    enabled: bool = False
    remaining: int = 0
    paid: int = 0
    unpaid: int = 0
    reg1: int = 0xC0  # power-up detected, payout disabled
    reg2: int = 0
    reg3: int = 0
    armed: dict[str, int] = field(default_factory=dict)
    _motor: str = field(default=_IDLE, init=False, repr=False)
    _due: float | None = field(default=None, init=False, repr=False)  # the motor's next step
    _stall: str = field(default="", init=False, repr=False)
    _key_requested: bool = field(default=False, init=False, repr=False)

    def __post_init__(self) -> None:
        if self.security not in SECURITY_MODES:
            raise ValueError(f"security is one of {SECURITY_MODES}, not {self.security!r}")
        if self.speed <= 0:
            raise ValueError("the dispense speed is a positive number of coins per second")

    @property
    def period(self) -> float:
        return 1.0 / self.speed

    @property
    def busy(self) -> bool:
        return self._motor != _IDLE

    # -- the motor -------------------------------------------------------------------------

    def advance(self, now: float) -> None:
        """Play the motor forward to ``now``."""
        while self._due is not None and self._due <= now:
            t = self._due
            if self._motor == _PAYING:
                self._pay_step(t)
            elif self._motor == _STALLED:
                self._end_payout(stall=self._stall)
            elif self._motor == _RUNAWAY:
                if self.level <= 0:
                    self._motor, self._due = _IDLE, None
                else:
                    self._coin_out(counted=False)
                    self._due = t + self.period

    def _coin_out(self, counted: bool) -> None:
        self.level -= 1
        self.lifetime = (self.lifetime + 1) % (1 << 24)
        self.left += 1
        if counted:
            self.paid += 1

    def _pay_step(self, t: float) -> None:
        for kind in ("jam", "opto"):
            if self.armed.get(kind) == 0:
                del self.armed[kind]
                if kind == "jam":
                    self.reg1 |= 1 << 2  # motor reversed to clear a jam
                self._motor, self._stall, self._due = _STALLED, kind, t + self.stall_time
                return
        if self.level <= 0:
            self._motor, self._stall, self._due = _STALLED, "empty", t + self.stall_time
            return
        self._coin_out(counted=True)
        self.remaining -= 1
        for kind in ("jam", "opto"):
            if self.armed.get(kind, 0) > 0:
                self.armed[kind] -= 1
        if self.remaining > 0:
            self._due = t + self.period
            return
        if "extra" in self.armed and self.level > 0:
            del self.armed["extra"]
            self._coin_out(counted=True)
        self._motor, self._due = _IDLE, None
        if "runaway" in self.armed:
            del self.armed["runaway"]
            self._motor, self._due = _RUNAWAY, t + self.period

    def _end_payout(self, stall: str = "") -> int:
        """Stop paying: the rest of this payout is unpaid. Returns how many."""
        unpaid = self.remaining if self._motor in (_PAYING, _STALLED) else 0
        if self._motor in (_PAYING, _STALLED):
            self.unpaid = unpaid
            self.remaining = 0
        if stall == "empty":
            self.reg1 |= 1 << 1  # payout timeout
        elif stall == "jam":
            self.reg2 |= 1 << 4  # motor reverse limit reached
        elif stall == "opto":
            self.reg1 |= 1 << 5  # opto blocked permanently during payout
        self._motor, self._due, self._stall = _IDLE, None, ""
        return unpaid

    # -- the physical world (simulator control) --------------------------------------------

    def refill(self, coins: int, now: float) -> None:
        self.advance(now)
        self.level += coins

    def spill(self, coins: int, now: float) -> int:
        """``coins`` leave now outside any payout (a motor run on while no host watched): 168
        rises, 166 does not. Stops at an empty hopper; returns how many left."""
        self.advance(now)
        n = min(coins, max(self.level, 0))
        for _ in range(n):
            self._coin_out(counted=False)
        return n

    def inject(self, kind: str, after: int | None, now: float) -> None:
        """Arm a mechanical fault: empty, jam, opto, extra or runaway (see the module doc)."""
        self.advance(now)
        if kind == "empty":
            self.level = after or 0
        elif kind == "opto" and after is None and self._motor == _IDLE:
            self.reg1 |= 1 << 3  # path blocked during idle
        elif kind in ("jam", "opto", "extra", "runaway"):
            self.armed[kind] = after or 0
        else:
            raise ValueError(f"unknown hopper fault {kind!r}")

    def clear(self, now: float) -> None:
        """The engineer fixes everything: faults disarmed, flags cleared, power back."""
        self.advance(now)
        self.armed.clear()
        if self._motor == _RUNAWAY:
            self._motor, self._due = _IDLE, None
        self.reg1 &= 0xC0
        self.reg2 = 0
        self.reg3 = 0
        if not self.powered:
            self.power_on(now)

    def power_off(self, now: float) -> None:
        self.advance(now)
        if self._motor in (_PAYING, _STALLED):
            self.reg3 |= 1 << 0  # power-down during payout
        self._end_payout()
        self.powered = False

    def power_on(self, now: float) -> None:
        self.advance(now)
        self.powered = True
        self.counter = 0
        self.enabled = False
        self._key_requested = False
        self.reg1 |= 0xC0  # power-up detected, payout disabled

    def reset(self, now: float) -> None:
        """Software reset: counter 0, disabled, latched flags cleared; paid/unpaid kept."""
        self.advance(now)
        if self._motor != _IDLE:
            self._end_payout()
        self.counter = 0
        self.enabled = False
        self._key_requested = False
        self.reg1, self.reg2, self.reg3 = 0x80, 0, 0

    # -- the bus -----------------------------------------------------------------------------

    def handle_own(self, header: int, data: bytes, now: float) -> Response | None:
        self.advance(now)
        if header == Header.HOPPER_STATUS:
            st = HopperStatus(self.counter, self.remaining, self.paid, self.unpaid)
            return (Header.REPLY, st.encode())
        if header == Header.DISPENSE_COUNT:
            return (Header.REPLY, encode_uint(self.lifetime, 3))
        if header == Header.TEST_HOPPER:
            return (Header.REPLY, self.flags.encode())
        if header == Header.ENABLE_HOPPER:
            self.enabled = data[0] == ENABLE_CODE
            self.reg1 = self.reg1 & ~0x80 if self.enabled else self.reg1 | 0x80
            return ACK
        if header == Header.CIPHER_KEY:
            self._key_requested = True
            return (Header.REPLY, bytes(self.rng.randrange(256) for _ in range(8)))
        if header == Header.DISPENSE:
            return self._dispense(data, now)
        if header == Header.EMERGENCY_STOP:
            unpaid = self._end_payout() if self._motor != _RUNAWAY else 0
            self._motor, self._due = _IDLE, None
            self.enabled = False
            self.reg1 |= 0x80
            return (Header.REPLY, bytes((min(unpaid, 255),)))
        if header == Header.HOPPER_COIN:
            return (Header.REPLY, encode_coin_id(self.coin))
        if header == Header.PAYOUT_LEVEL_STATUS:  # one hopper: format (b)'s number changes nothing
            low = None if self.low_level is None else self.level < self.low_level
            high = None if self.high_level is None else self.level >= self.high_level
            return (Header.REPLY, encode_level_status(low, high))
        return None

    @property
    def flags(self) -> HopperFlags:
        return HopperFlags(self.reg1, self.reg2, self.reg3)

    def _security_ok(self, security: bytes) -> bool:
        if self.security == "serial":
            return security == encode_uint(self.serial & 0xFFFFFF, 3)
        return len(security) == PLAIN_SECURITY_BYTES and self._key_requested

    def _dispense(self, data: bytes, now: float) -> Response:
        security, coins = split_dispense(data)
        if not self.enabled or self._motor != _IDLE or coins == 0 or self.flags.blocking:
            return NAK
        if not self._security_ok(security):
            self.reg3 |= 1 << 3  # incorrect cipher key
            return NAK
        self._key_requested = False
        self.counter = next_counter(self.counter)
        self.remaining, self.paid, self.unpaid = coins, 0, 0
        self.reg1 &= ~0x06  # last payout's warnings (timeout, motor reversed) start afresh
        self._motor, self._due = _PAYING, now + self.period
        return (Header.REPLY, bytes((self.counter,)))

    _KEPT = ("level", "lifetime", "counter", "enabled", "remaining", "paid", "unpaid", "reg1",
             "reg2", "reg3", "_motor", "_stall", "_key_requested")

    def memory(self, now: float) -> dict[str, Any]:
        """The coins in it, its counters and flags, and a payout or runaway under way (its
        next coin ``due_in`` seconds on: the motor's time stands still while nothing runs it)."""
        self.advance(now)
        kept = {name: getattr(self, name) for name in self._KEPT}
        due_in = None if self._due is None else max(0.0, self._due - now)
        return {**super().memory(now), **kept, "armed": dict(self.armed), "due_in": due_in}

    def restore(self, memory: Mapping[str, Any], now: float) -> None:
        super().restore(memory, now)
        for name in self._KEPT:
            setattr(self, name, type(getattr(self, name))(memory[name]))
        if not 0 <= self.lifetime < 1 << 24 or self._motor not in (_IDLE, _PAYING, _STALLED, _RUNAWAY):
            raise ValueError(f"hopper {self.address}: not a hopper's memory: {memory!r}")
        self.armed = {str(k): int(v) for k, v in memory["armed"].items()}
        due_in = memory["due_in"]
        self._due = None if due_in is None else now + float(due_in)

    def status(self, now: float) -> dict[str, object]:
        self.advance(now)
        return {
            **super().status(now),
            "level": self.level,
            "lifetime": self.lifetime,
            "left": self.left,
            "counter": self.counter,
            "remaining": self.remaining,
            "paid": self.paid,
            "unpaid": self.unpaid,
            "enabled": int(self.enabled),
            "motor": self._motor,
            "flags": ",".join(self.flags.active).replace(" ", "_") or "-",
        }
