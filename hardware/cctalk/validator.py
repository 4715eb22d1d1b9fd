"""The bill validator driver: bill ids, inhibits, escrow routing, and events polled from 159.

Owns: start-up of a bill validator (identification, the bill id of each type 1..16 with 157,
the euro scaling factor with 156, stacker and escrow switched on with 153), per-type and master
inhibits (231/228), routing the note held in escrow (154: stack or return) and turning
successive 159 readings into events, each reported exactly once by the same event counter
logic as the coin acceptor's (``CreditTracker``: a counter that goes back, or moves by more
than the five events the buffer holds, credits nothing and is a ``CounterFault``). Never knows
what a note is worth beyond the id -> points map it is given, never decides whether a note is
taken (the cabinet does, after its journal recorded the note) and never touches a meter.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from hardware.cctalk.acceptor import AcceptorReset, CounterFault, CreditTracker, confirmed_reading
from hardware.cctalk.bills import (
    EURO_SCALING,
    MODE_ESCROW,
    MODE_STACKER,
    ROUTE_ESCROW_EMPTY,
    ROUTE_RETURN,
    ROUTE_STACK,
    Scaling,
    bill_event_kind,
    decode_bill_id,
    is_escrow,
    is_stacked,
)
from hardware.cctalk.headers import (
    CATEGORY_BILL_VALIDATOR,
    BufferedCredit,
    CoinEvent,
    Header,
    encode_inhibits,
    encode_master_inhibit,
)
from hardware.cctalk.host import CctalkBus, DeviceInfo, Refused

BILL_TYPES = range(1, 17)


@dataclass(frozen=True)
class NoteEscrow:
    """A note was validated and is held in escrow: the host must stack or return it."""

    address: int
    bill_type: int
    bill_id: str | None
    value: int | None  # points, None if the configuration does not price this note


@dataclass(frozen=True)
class NoteStacked:
    """A note went into the stacker: a credit."""

    address: int
    bill_type: int
    bill_id: str | None
    value: int | None


@dataclass(frozen=True)
class NoteStatus:
    """A Table 7 event with result A = 0: ``kind`` status, reject, fraud or fatal."""

    address: int
    code: int
    kind: str
    name: str


ValidatorEvent = NoteEscrow | NoteStacked | NoteStatus | CounterFault | AcceptorReset
ROUTED, ESCROW_EMPTY, ROUTE_REFUSED = "routed", "escrow empty", "failed to route"


class BillValidator:
    """One bill validator on a ccTalk bus, used with its escrow."""

    def __init__(self, bus: CctalkBus, address: int = 40, *, values: Mapping[str, int] | None = None,
                 confirm_reads: int = 3) -> None:
        self.bus = bus
        self.address = address
        self.values = dict(values) if values is not None else None
        self.confirm_reads = confirm_reads
        self.bill_ids: dict[int, str] = {}
        self.scaling: Scaling | None = None
        self.tracker = CreditTracker()
        self.accepting = False
        self.unconfirmed = 0
        self.info: DeviceInfo | None = None

    def start(self) -> DeviceInfo:
        """Identify, read bill ids and the euro scaling, use stacker and escrow, inhibit."""
        self.info = self.bus.identify(self.address, CATEGORY_BILL_VALIDATOR)
        self.bill_ids = {}
        for t in BILL_TYPES:
            bill = decode_bill_id(self.bus.data(self.address, Header.REQUEST_BILL_ID, bytes((t,))))
            if bill is not None:
                self.bill_ids[t] = bill
        self.scaling = Scaling.decode(self.bus.data(self.address, Header.SCALING_FACTOR, b"EU"))
        if self.scaling != EURO_SCALING:
            raise Refused(self.bus.link, self.address, f"euro scaling {self.scaling}, expected {EURO_SCALING}")
        self.bus.command(self.address, Header.MODIFY_BILL_MODE, bytes((MODE_STACKER | MODE_ESCROW,)))
        self.tracker = CreditTracker()
        self.tracker.update(self._read())
        self._apply_inhibits()
        return self.info

    @property
    def enabled_types(self) -> frozenset[int]:
        return frozenset(t for t, b in self.bill_ids.items() if self.values is None or b in self.values)

    def set_accepting(self, accepting: bool) -> None:
        self.accepting = accepting
        self._apply_inhibits()

    def _apply_inhibits(self) -> None:
        self.bus.command(self.address, Header.MODIFY_INHIBIT, encode_inhibits(self.enabled_types))
        self.bus.command(self.address, Header.MODIFY_MASTER_INHIBIT, encode_master_inhibit(self.accepting))

    def _read(self) -> BufferedCredit:
        return BufferedCredit.decode(self.bus.data(self.address, Header.READ_BUFFERED_BILL))

    def route(self, stack: bool) -> str:
        """Stack (or return) the note in escrow: ``ROUTED``, ``ESCROW_EMPTY`` or ``ROUTE_REFUSED``.
        Whatever the answer, the events that follow (stacked, returned) say what happened."""
        reply = self.bus.data(self.address, Header.ROUTE_BILL, bytes((ROUTE_STACK if stack else ROUTE_RETURN,)))
        if not reply:
            return ROUTED
        return ESCROW_EMPTY if reply[0] == ROUTE_ESCROW_EMPTY else ROUTE_REFUSED

    def poll(self) -> tuple[ValidatorEvent, ...]:
        """Read 159 (again until two readings agree, when there is news); what is new, oldest first."""
        reading = confirmed_reading(self._read, self.tracker, self.confirm_reads)
        if reading is None:
            self.unconfirmed += 1
            return ()
        update = self.tracker.update(reading)
        out: list[ValidatorEvent] = []
        if update.reset:
            out.append(AcceptorReset(self.address))
            self.bus.command(self.address, Header.MODIFY_BILL_MODE, bytes((MODE_STACKER | MODE_ESCROW,)))
            self._apply_inhibits()
        if update.fault is not None:
            out.append(CounterFault(self.address, *update.fault))
        out.extend(self._event(ev) for ev in update.events)
        return tuple(out)

    def _event(self, ev: CoinEvent) -> ValidatorEvent:
        if is_escrow(ev) or is_stacked(ev):
            bill = self.bill_ids.get(ev.a)
            value = None if bill is None or self.values is None else self.values.get(bill)
            cls = NoteEscrow if is_escrow(ev) else NoteStacked
            return cls(self.address, ev.a, bill, value)
        kind, name = bill_event_kind(ev.b)
        return NoteStatus(self.address, ev.b, kind, name)
