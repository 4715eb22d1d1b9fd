"""Cashless transfers (SAS AFT) as the core does them: checked, journaled, applied once by id.

Owns: the rules of a transfer on a seat — to the seat onto its credit meter (while the seat may
take coins, never above the credit limit, within the operator's limits per transfer and per
day), from the seat off its credit meter only (never the club meter, never more than the credit
holds, only at an idle or ready seat: no round, no bet being placed, no payout, no lock) — the
journal's ``aft`` row (per seat: the request journaled and not yet done, the day's points in,
the registration), and the records: ``aft_request`` (the host's request, pending), ``aft``
(the result: points moved, the moves and meters in the same transaction), ``aft_refused``,
``aft_registration``. An id once done is never applied again: its ``aft`` record is the answer.
Never talks to a port and never reads a clock: ``when`` is the date the bridge gives.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from machine.core.context import AFT_SETTINGS, AftLimits, Core
from machine.core.seats import seat_state
from machine.core.state import SeatState
from machine.money.seatmoney import Move

ROW = "aft"
# the SAS statuses the core answers with (hardware/sas/aft.py's codes; the core imports no driver)
FULL, PARTIAL = 0x00, 0x01
BAD_AMOUNT, OVER_LIMIT, UNABLE, NOT_REGISTERED = 0x83, 0x84, 0x87, 0x88
REGISTERED = 0x01
METERS = ("aft_in", "aft_in_count", "aft_out", "aft_out_count")  # per seat; the cabinet's is their sum


def with_setting(limits: AftLimits, name: str, value: Any) -> AftLimits:
    """``limits`` with the operator's setting ``name`` (``AFT_SETTINGS``: ``daily_in_limit``...) at
    ``value``."""
    return dataclasses.replace(limits, **{AFT_SETTINGS[name]: value})


def below_transfer_in(limits: AftLimits) -> bool:
    """The rule across the limits broken: the day's limit in below the limit of one transfer in."""
    return limits.daily_in < limits.transfer_in


def setting_problem(limits: AftLimits, name: str, value: Any) -> str | None:
    """Why the operator's setting ``name`` cannot take ``value`` (None: it can): a limit is a
    whole number of points, at least 1; registration is yes or no; and the rule across the
    limits (config check's too, ``below_transfer_in``)."""
    if type(value) is not type(getattr(limits, AFT_SETTINGS[name])) or (type(value) is int and value < 1):
        return f"{name}: {value!r} is not a limit (a number of points, at least 1; registration: yes or no)"
    new = with_setting(limits, name, value)
    if below_transfer_in(new):
        return (f"daily_in_limit {new.daily_in} would be below transfer_in_limit {new.transfer_in} "
                "(no transfer could reach the limit)")
    return None


def row(core: Core) -> dict[str, Any]:
    return core.journal.get(ROW) or {"seats": {}}


def seat_row(core: Core, n: int) -> dict[str, Any]:
    return dict(row(core)["seats"].get(str(n), {}))


def _put_seat(core: Core, n: int, data: dict[str, Any]) -> None:
    whole = row(core)
    whole["seats"] = {**whole["seats"], str(n): data}
    core.store.journal.put(ROW, whole)


def done(core: Core, n: int, transaction_id: str) -> dict[str, Any] | None:
    """The ``aft`` record of a transfer done on seat ``n`` (the first result), or None."""
    for record in core.journal.records("aft", seat=n):
        if record.data["id"] == transaction_id:
            return dict(record.data)
    return None


def day_in(core: Core, n: int, day: str) -> int:
    """The points moved to seat ``n`` on ``day`` (the cabinet's date, YYYY-MM-DD)."""
    r = seat_row(core, n)
    return int(r.get("day_in", 0)) if r.get("day") == day else 0


def refusal(core: Core, n: int, to_seat: bool, points: int, limits: AftLimits, day: str) -> int | None:
    """The status that refuses the transfer now, or None."""
    state, seat = core.state, core.state.seats[n]
    if limits.registration_required and seat_row(core, n).get("registration", {}).get("status") != REGISTERED:
        return NOT_REGISTERED
    if points <= 0:
        return BAD_AMOUNT
    if state.row.pauses or seat.host_disabled:
        return UNABLE
    now = seat_state(state, n)
    if to_seat:
        if seat.lock is not None or seat.money.credit + points > core.settings.credit_limit:
            return UNABLE if seat.lock is not None else OVER_LIMIT
        if points > limits.transfer_in or day_in(core, n, day) + points > limits.daily_in:
            return OVER_LIMIT
        return None
    if now not in ("idle", "ready"):
        return UNABLE
    if points > limits.transfer_out:
        return OVER_LIMIT
    return None


def available(core: Core, n: int) -> tuple[bool, bool]:
    """Whether a transfer to seat ``n``, and one from it, could happen now (the host's 74)."""
    seat, state = core.state.seats[n], core.state
    if state.row.pauses or seat.host_disabled or seat.lock is not None:
        return False, False
    return seat.money.credit < core.settings.credit_limit, seat_state(state, n) in ("idle", "ready")


def request(core: Core, n: int, data: dict[str, Any]) -> None:
    """The host's request journaled as pending (inside its transaction): the seat's row holds it."""
    _put_seat(core, n, {**seat_row(core, n), "pending": data})


def complete(core: Core, seat: SeatState, pending: dict[str, Any], points: int, day: str) -> dict[str, Any]:
    """Move ``points`` (inside the transaction): the moves, the meters, the ``aft`` record, the
    pending request cleared, the event. Returns the record's data."""
    n, to_seat = seat.number, pending["to_seat"]
    m = seat.money
    if to_seat:
        m.credit += points
        m.total_in += points
    else:
        m.credit -= points
        m.total_out += points
    core.store.moves(seat, [Move("aft_in" if to_seat else "aft_out", points, m.credit, m.club)])
    way = "in" if to_seat else "out"
    seat.meters.add(f"aft_{way}", points)
    seat.meters.add(f"aft_{way}_count")
    seat.meters.add("total_in" if to_seat else "total_out", points)
    status = FULL if points == pending["points"] else PARTIAL
    result = {"id": pending["id"], "to_seat": to_seat, "points": points, "requested": pending["points"],
              "status": status, "when": pending["when"]}
    core.store.append("aft", result, n)
    r = {k: v for k, v in seat_row(core, n).items() if k != "pending"}
    if to_seat:
        r["day_in"], r["day"] = day_in(core, n, day) + points, day
    _put_seat(core, n, r)
    core.store.event(f"aft_{way}", n, what=f"transferred {way} by the host", points=points, id=pending["id"])
    return result


def refuse(core: Core, n: int, pending: dict[str, Any], status: int) -> None:
    """Nothing moved: the refusal journaled, the pending request (if any) cleared."""
    core.store.append("aft_refused", {"id": pending["id"], "status": status}, n)
    r = seat_row(core, n)
    if "pending" in r:
        _put_seat(core, n, {k: v for k, v in r.items() if k != "pending"})


def points_now(core: Core, seat: SeatState, pending: dict[str, Any]) -> int:
    """What a transfer moves now: to the seat what was asked; from it what was asked, or with a
    partial transfer what the credit meter holds of it (0: nothing there)."""
    if pending["to_seat"]:
        return int(pending["points"])
    if pending["partial"]:
        return min(int(pending["points"]), seat.money.credit)
    return int(pending["points"]) if pending["points"] <= seat.money.credit else 0


def registration(core: Core, n: int, data: dict[str, Any]) -> None:
    _put_seat(core, n, {**seat_row(core, n), "registration": data})
