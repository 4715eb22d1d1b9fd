"""Banknotes into the seats: the escrow decision, the credit when a note is stacked, the faults.

Owns: what the cabinet does with each event of a seat's bill validator, INSIDE the transaction
the ``Cabinet`` opened for the poll (``note_inputs.py``): a note held in escrow is accepted (a
``note_accepted`` record, the note and its points kept in the cabinet row's ``notes`` until the
validator says what became of it; only then is it routed to the stacker) or refused (the
credit limit, the seat's ``note_max``, a note the configuration does not take, a seat that takes
no money now: ``note_refused``, routed back); a note stacked is credited (the points recorded at
its acceptance); a note the journal never accepted that the validator stacked anyway is
credited too (it is in the cash box) and logged; a note returned, pulled back, a jam, the
stacker full or removed, a fraud attempt and a counter that moved in a way its buffer cannot
show are events, and the faults tilt the seat in their own words. Never talks to a device.

Meters (per seat; the cabinet's figure is their sum): ``note_in_count`` and ``note_in_value``
(points), ``note_in_count:<bill id>`` and ``note_in_value:<bill id>``, and ``total_in``.
"""

from __future__ import annotations

from typing import Any

from machine.core import lamps
from machine.core.context import Core
from machine.core.payouts import tilt
from machine.core.state import SeatState
from machine.games.text import Text

# Table 7 codes (hardware/cctalk/bills.py; the layers keep the core from importing a driver)
RETURNED, PULLED_BACK, STACKER_REMOVED, STACKER_FULL = 1, 8, 11, 14
JAMS = frozenset({6, 7, 15, 16})
BACK_OR_JAM = JAMS | {RETURNED, PULLED_BACK}  # the note in escrow is gone


def fault_words(code: int, fraud: bool) -> Text:
    """The tilt's own words for each fault (translated: machine/locale/*/player.po)."""
    if code == PULLED_BACK:
        return Text("bill validator: a note was pulled back")
    if code in JAMS:
        return Text("bill validator: a note is jammed")
    if code == STACKER_REMOVED:
        return Text("bill validator: the cash box was removed")
    if code == STACKER_FULL:
        return Text("bill validator: the cash box is full")
    if fraud:
        return Text("bill validator: fraud attempt (code {code})", code=code)
    return Text("bill validator: fault (code {code})", code=code)


def notes_row(core: Core) -> dict[str, Any]:
    notes = core.state.row.notes
    notes.setdefault("counters", {})
    notes.setdefault("escrow", {})
    return notes


def refusal(core: Core, seat: SeatState, points: int | None) -> str | None:
    """Why seat ``seat`` may not take a note of ``points`` now (None: it may)."""
    settings = core.settings
    if points is None:
        return "a note the configuration does not take"
    if not lamps.may_take_coins(core.state, seat.number, settings.credit_limit):
        return "the seat takes no money now"
    if seat.money.credit + points > settings.credit_limit:
        return "above the credit limit"
    most = settings.note_max.get(seat.number)
    if most is not None and points > most:
        return "above the seat's largest note"
    return None


def escrow(core: Core, seat: SeatState, address: int, bill_type: int, bill_id: str | None) -> bool:
    """A note held in escrow: accepted (True: stack it) or refused (return it), journaled first."""
    points = core.settings.note_values.get(bill_id) if bill_id else None
    why = refusal(core, seat, points)
    notes_row(core)["escrow"][str(address)] = {"seat": seat.number, "type": bill_type, "bill": bill_id,
                                               "points": points, "stack": why is None}
    data = {"address": address, "bill": bill_id, "points": points}
    if why is None:
        core.store.append("note_accepted", data, seat.number)
    else:
        core.store.append("note_refused", {**data, "reason": why}, seat.number)
    return why is None


def stacked(core: Core, seat: SeatState, address: int, bill_type: int, bill_id: str | None) -> None:
    """A note went into the stacker: credited once, at the points its acceptance recorded."""
    held = notes_row(core)["escrow"].pop(str(address), None)
    accepted = held is not None and held["stack"] and held["type"] == bill_type
    points = held["points"] if accepted and held is not None else core.settings.note_values.get(bill_id or "")
    if not accepted:
        core.store.event("note_stacked_unasked", seat.number, address=address, bill=bill_id, points=points)
    if points is None:  # in the cash box, but no price: the attendant's to settle
        tilt(core, seat, Text("bill validator: a note of unknown value was stacked (type {type})", type=bill_type))
        return
    core.store.moves(seat, seat.money.insert(points))
    bill = bill_id or f"type{bill_type}"
    for key, amount in (("note_in_count", 1), ("note_in_value", points), (f"note_in_count:{bill}", 1),
                        (f"note_in_value:{bill}", points), ("total_in", points)):
        seat.meters.add(key, amount)


def status(core: Core, seat: SeatState, address: int, code: int, kind: str, name: str) -> None:
    """A Table 7 event: a note back to the player, a reject, or a fault (which tilts)."""
    held = notes_row(core)["escrow"].pop(str(address), None) if code in BACK_OR_JAM else None
    detail: dict[str, Any] = {"address": address, "code": code, "name": name}
    if held is not None:
        detail.update(bill=held["bill"], points=held["points"], accepted=held["stack"])
    if code == RETURNED:
        core.store.event("note_returned", seat.number, **detail)
    elif kind == "reject" or kind == "status":
        core.store.event("note_rejected" if kind == "reject" else "note_status", seat.number, **detail)
    else:
        core.store.event("note_fraud" if kind == "fraud" else "note_fault", seat.number, **detail)
        tilt(core, seat, fault_words(code, kind == "fraud"))


def counter_fault(core: Core, seat: SeatState, address: int, last: int, now: int, events: int) -> None:
    core.store.event("note_counter_fault", seat.number, address=address, journal=last, device=now, events=events)
    tilt(core, seat, Text("bill validator {address}: event counter {last} -> {now}: nothing credited",
                          address=address, last=last, now=now))
