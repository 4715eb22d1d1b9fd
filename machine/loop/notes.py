"""The bus worker's bill validators: opened with the journal's counters, polled, routed.

Owns: opening each configured seat's ``BillValidator`` (resuming from the event counter the
journal last recorded, so notes stacked while the cabinet was down are credited once by the
first poll, or are a counter fault), and one pass over a validator: its inhibits following
``Cabinet.may_take_coins`` (none while the hopper pays), its events handed to the cabinet in
one transaction with its counter, and then, only once that transaction is durable, the note
in escrow routed as the journal decided: stacked, or returned. A note the journal holds in
escrow (after a cut too) is routed again at every pass until the validator reports what became
of it; a validator that says its escrow is empty and reports nothing about it makes the
cabinet close the note as returned. Never decides whether a note is taken, never draws.
"""

from __future__ import annotations

import threading

from hardware.cctalk.acceptor import AcceptorReset, CounterFault, CreditTracker
from hardware.cctalk.host import CctalkBus
from hardware.cctalk.validator import ESCROW_EMPTY, BillValidator, NoteEscrow, NoteStacked, NoteStatus, ValidatorEvent

from machine.core.cabinet import Cabinet
from machine.operator.config import MachineConfig


def open_validators(cfg: MachineConfig, bus: CctalkBus, counters: dict[str, int]) -> dict[int, BillValidator]:
    """Every configured validator identified and started; each resumes from its journal counter."""
    out = {}
    for seat, addr in sorted(cfg.devices.validators.items()):
        val = BillValidator(bus, addr, values=cfg.note_values())
        val.start()
        saved = counters.get(str(addr))
        if saved is not None:
            val.tracker = CreditTracker(saved)
        out[seat] = val
    return out


def restart(val: BillValidator) -> None:
    """After a lost link: identified again, going on from the counter it last reported."""
    counter = val.tracker.counter
    val.start()
    if counter is not None:
        val.tracker = CreditTracker(counter)


def as_data(ev: ValidatorEvent) -> tuple[object, ...] | None:
    if isinstance(ev, NoteEscrow):
        return ("escrow", ev.bill_type, ev.bill_id)
    if isinstance(ev, NoteStacked):
        return ("stacked", ev.bill_type, ev.bill_id)
    if isinstance(ev, NoteStatus):
        return ("status", ev.code, ev.kind, ev.name)
    return None


def report(cab: Cabinet, lock: threading.Lock, seat: int, val: BillValidator, events: tuple[ValidatorEvent, ...]) -> None:
    counter = val.tracker.counter
    with lock:
        if counter is None or (not events and cab.validator_counter(val.address) == counter):
            return
        for ev in events:
            if isinstance(ev, CounterFault):
                cab.validator_counter_fault(seat, val.address, ev.last, ev.now, ev.events)
                return
        data = [d for d in map(as_data, events) if d is not None]
        cab.validator_report(seat, val.address, counter, data)


def poll_validator(cab: Cabinet, lock: threading.Lock, seat: int, val: BillValidator) -> int:
    """One pass over seat ``seat``'s validator (see the docstring); returns the notes it credited."""
    with lock:
        accept = cab.may_take_coins(seat) and not cab.is_paying()
        before = cab.seats[seat].meters.get("note_in_count")
    if accept != val.accepting:
        val.set_accepting(accept)
    events = val.poll()
    report(cab, lock, seat, val, events)
    with lock:
        decision = cab.escrow_pending(val.address)
    if decision is not None:
        answer = val.route(decision)
        if answer == ESCROW_EMPTY or any(isinstance(ev, AcceptorReset) for ev in events):
            report(cab, lock, seat, val, val.poll())  # what became of it, if the validator says
            with lock:
                if cab.escrow_pending(val.address) is not None:
                    cab.escrow_gone(seat, val.address, answer)
    with lock:
        return cab.seats[seat].meters.get("note_in_count") - before
