"""A simulated ccTalk bill validator with an escrow and a stacker, as the bus sees it.

Owns: what a bill validator answers (159 buffered bill events, 157 bill ids, 156 scaling
factor, 154 route bill, 153/152 operating mode, 231..227 inhibits, 232, 197) and its physical
model: a note inserted is held in escrow (event type, 1) until the host routes it (stacked:
type, 0; returned: 0, 1) or the escrow timeout returns it; a note pulled back out of escrow
(0, 8, a fraud attempt), a jam (0, 6: the note is lost to the player, the validator takes none
until cleared), the stacker full (0, 14), removed (0, 11) and put back emptied (0, 12). What a
powered device keeps across a restart of the cabinet (counter, buffer, escrow, stacker) is its
``memory``. Pure: time comes in as ``now``; never does I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.cctalk.bills import (
    EURO_SCALING,
    JAM_UNSAFE,
    PULLED_BACK,
    RETURNED,
    ROUTE_ESCROW_EMPTY,
    ROUTE_EXTEND,
    ROUTE_FAILED,
    ROUTE_RETURN,
    ROUTE_STACK,
    STACKER_FULL,
    STACKER_INSERTED,
    STACKER_REMOVED,
    encode_bill_id,
)
from hardware.cctalk.headers import (
    BUFFER_EVENTS,
    CATEGORY_BILL_VALIDATOR,
    SELF_CHECK_OK,
    BufferedCredit,
    CoinEvent,
    Header,
    encode_self_check,
    encode_uint,
    next_counter,
)
from hardware.sim.cctalk_devices import ACK, Response, SimDevice, inhibit_reply

DEFAULT_BILLS = {1: "EU0005A", 2: "EU0010A", 3: "EU0020A", 4: "EU0050A", 5: "EU0100A"}
INVALID, INHIBITED, TRANSPORT = 2, 4, 3  # Table 7 codes of a note not taken


@dataclass
class SimBillValidator(SimDevice):
    """A bill validator: types 1..16 with bill ids, inhibits, escrow, stacker, 159 buffer."""

    bills: dict[int, str] = field(default_factory=lambda: dict(DEFAULT_BILLS))
    category: str = CATEGORY_BILL_VALIDATOR
    product: str = "SIMNOTE"
    capacity: int = 500  # notes the stacker holds
    escrow_timeout: float = 30.0  # seconds a note waits in escrow for the host (0: for ever)
    counter: int = 0
    events: list[CoinEvent] = field(default_factory=list)
    inhibit_mask: int = 0
    master_enabled: bool = False
    mode: int = 0
    escrow: int | None = None  # the bill type held in escrow
    escrow_until: float = 0.0
    stacked: int = 0  # notes in the stacker
    removed: bool = False  # the stacker is out
    jammed: bool = False
    credits: int = 0  # notes stacked since start (for status)
    box: dict[str, int] = field(default_factory=dict)  # the notes in the stacker, by bill id (emptied with it)

    def __post_init__(self) -> None:
        self._clear_buffer()

    def _clear_buffer(self) -> None:
        self.counter = 0
        self.events = [CoinEvent(0, 0)] * BUFFER_EVENTS

    def reset(self, now: float) -> None:
        """Power-up: counter 0, buffer empty, everything inhibited; a note in escrow goes back."""
        self._clear_buffer()
        self.inhibit_mask, self.master_enabled, self.mode, self.escrow = 0, False, 0, None

    def _push(self, event: CoinEvent) -> None:
        if self.powered:
            self.counter = next_counter(self.counter)
            self.events = [event, *self.events[: BUFFER_EVENTS - 1]]

    def type_of(self, bill_id: str) -> int | None:
        return next((t for t, b in self.bills.items() if b == bill_id), None)

    def advance(self, now: float) -> None:
        """A note left in escrow past the timeout goes back to the player."""
        if self.escrow is not None and self.escrow_timeout and now >= self.escrow_until:
            self.escrow = None
            self._push(CoinEvent(0, RETURNED))

    # -- what the player and the attendant do (the control channel) ----------------------------

    def insert(self, bill_id: str, now: float) -> CoinEvent:
        """A note goes in: held in escrow (or stacked without escrow), or an event saying why not."""
        self.advance(now)
        t = self.type_of(bill_id)
        if t is None:
            event = CoinEvent(0, INVALID)
        elif not (self.master_enabled and self.inhibit_mask >> (t - 1) & 1):
            event = CoinEvent(0, INHIBITED)
        elif self.jammed or self.removed or self.escrow is not None or self.stacked >= self.capacity:
            event = CoinEvent(0, TRANSPORT)
        elif self.mode & 0x02:
            self.escrow, self.escrow_until = t, now + self.escrow_timeout
            event = CoinEvent(t, 1)
        else:
            event = self._stack(t)
        self._push(event)
        return event

    def _stack(self, t: int) -> CoinEvent:
        self.stacked += 1
        self.credits += 1
        bill = self.bills.get(t, f"type{t}")
        self.box[bill] = self.box.get(bill, 0) + 1
        return CoinEvent(t, 0)

    def pull_back(self, now: float) -> bool:
        """The player pulls the note in escrow back out: a fraud attempt event (0, 8)."""
        self.advance(now)
        if self.escrow is None:
            return False
        self.escrow = None
        self._push(CoinEvent(0, PULLED_BACK))
        return True

    def jam(self, now: float) -> None:
        """A note jams in the transport (unsafe mode: no credit); no note is taken until cleared."""
        self.advance(now)
        self.escrow, self.jammed = None, True
        self._push(CoinEvent(0, JAM_UNSAFE))

    def clear(self, now: float) -> None:
        self.jammed = False

    def stacker(self, what: str, now: float) -> None:
        """``full`` (it holds ``capacity`` notes), ``remove`` (taken out), ``insert`` (put back empty)."""
        self.advance(now)
        if what == "full":
            self.stacked = self.capacity
            self._push(CoinEvent(0, STACKER_FULL))
        elif what == "remove":
            self.removed = True
            self._push(CoinEvent(0, STACKER_REMOVED))
        elif what == "insert":
            self.removed, self.stacked, self.box = False, 0, {}
            self._push(CoinEvent(0, STACKER_INSERTED))
        else:
            raise ValueError(f"stacker full|remove|insert, not {what!r}")

    # -- the bus ---------------------------------------------------------------------------------

    def _route(self, code: int, now: float) -> Response:
        self.advance(now)
        if code == ROUTE_EXTEND:
            if self.escrow is None:
                return (Header.REPLY, bytes((ROUTE_ESCROW_EMPTY,)))
            self.escrow_until = now + self.escrow_timeout
            return ACK
        if code not in (ROUTE_RETURN, ROUTE_STACK):
            return (Header.NAK, b"")
        if self.escrow is None:
            return (Header.REPLY, bytes((ROUTE_ESCROW_EMPTY,)))
        t, self.escrow = self.escrow, None
        if code == ROUTE_RETURN:
            self._push(CoinEvent(0, RETURNED))
            return ACK
        if self.jammed or self.removed or self.stacked >= self.capacity:
            self._push(CoinEvent(0, RETURNED))
            return (Header.REPLY, bytes((ROUTE_FAILED,)))
        self._push(self._stack(t))
        if self.stacked >= self.capacity:
            self._push(CoinEvent(0, STACKER_FULL))
        return ACK

    def handle_own(self, header: int, data: bytes, now: float) -> Response | None:
        self.advance(now)
        if header == Header.READ_BUFFERED_BILL:
            return (Header.REPLY, BufferedCredit(self.counter, tuple(self.events)).encode())
        if header == Header.REQUEST_BILL_ID:
            return (Header.REPLY, encode_bill_id(self.bills.get(data[0]))) if 1 <= data[0] <= 16 else None
        if header == Header.SCALING_FACTOR:
            return (Header.REPLY, EURO_SCALING.encode() if data == b"EU" else bytes(3))
        if header == Header.ROUTE_BILL:
            return self._route(data[0], now)
        if header == Header.MODIFY_BILL_MODE:
            self.mode = data[0] & 0x03
            return ACK
        if header == Header.REQUEST_BILL_MODE:
            return (Header.REPLY, bytes((self.mode,)))
        inhibits = inhibit_reply(self, header, data)
        if inhibits is not None:
            return inhibits
        if header == Header.SELF_CHECK:
            return (Header.REPLY, encode_self_check(SELF_CHECK_OK))
        if header == Header.ROM_CHECKSUM:
            return (Header.REPLY, encode_uint(0x0B11_5EED, 4))
        return None

    def memory(self, now: float) -> dict[str, Any]:
        return {**super().memory(now), "counter": self.counter, "events": [[e.a, e.b] for e in self.events],
                "inhibits": self.inhibit_mask, "master": self.master_enabled, "mode": self.mode,
                "escrow": self.escrow, "stacked": self.stacked, "removed": self.removed, "jammed": self.jammed,
                "box": dict(self.box)}

    def restore(self, memory: Mapping[str, Any], now: float) -> None:
        super().restore(memory, now)
        events = [CoinEvent(int(a), int(b)) for a, b in memory["events"]]
        if not 0 <= int(memory["counter"]) <= 255 or len(events) != BUFFER_EVENTS:
            raise ValueError(f"validator {self.address}: not an event buffer: {memory!r}")
        self.counter, self.events = int(memory["counter"]), events
        self.inhibit_mask, self.master_enabled = int(memory["inhibits"]), bool(memory["master"])
        self.mode = int(memory["mode"])
        self.escrow = None if memory["escrow"] is None else int(memory["escrow"])
        self.escrow_until = now + self.escrow_timeout  # the time the simulator was down does not pass
        self.stacked, self.removed, self.jammed = int(memory["stacked"]), bool(memory["removed"]), bool(memory["jammed"])
        self.box = {str(k): int(v) for k, v in memory.get("box", {}).items()}

    def status(self, now: float) -> dict[str, object]:
        self.advance(now)
        return {**super().status(now), "counter": self.counter, "credits": self.credits, "stacked": self.stacked,
                "escrow": self.bills.get(self.escrow, "none") if self.escrow else "none",
                "removed": int(self.removed), "jammed": int(self.jammed), "inhibits": self.inhibit_mask,
                "box": "+".join(f"{b}:{n}" for b, n in sorted(self.box.items())) or "empty",
                "master": int(self.master_enabled)}
