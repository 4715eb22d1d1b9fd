"""Vouchers (tegoedbonnen): a seat's payout as a printed ticket, exactly once, or else a handpay.

Owns: deciding that a payout is a voucher (``payout: voucher``, or with a ticket printer the part
the hopper cannot pay: above the hopper limit, or a remainder set to handpay), its validation
number (18 digits: cabinet, seat, the cabinet's voucher count, a check of them and the amount
under the machine's key, and a Luhn check digit), and the voucher's life in the cabinet row's
``vouchers`` INSIDE each input's transaction: issued (journaled with its number before any byte
goes to the printer; the seat waits, locked as a handpay that the attendant key cannot pay),
printing (each attempt and its date and time journaled first; an attempt after a cut is a
duplicate of the same number), printed (the credit leaves the seat: ``voucher_out`` and
``vouchers_out`` meters) or failed (a printer fault before the ticket was whole: the voucher is
void and the same amount is a handpay, never a second voucher). Never talks to a printer, never
reads a clock (times come in).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from machine.core.context import Core
from machine.core.state import SeatState
from machine.games.text import Text


def row(core: Core) -> dict[str, Any]:
    v = core.state.row.vouchers
    v.setdefault("count", 0)
    v.setdefault("pending", {})
    return v


def pending(core: Core, n: int) -> dict[str, Any] | None:
    return core.state.row.vouchers.get("pending", {}).get(str(n))


def wanted(core: Core) -> bool:
    """Whether what Collect cannot pay in coins is a voucher (a printer is fitted, and the
    configuration does not say handpay)."""
    s = core.settings
    return s.vouchers and s.money.payout in ("voucher", "hopper")


def luhn(digits: str) -> str:
    total = 0
    for i, d in enumerate(reversed(digits)):
        x = int(d) * (2 if i % 2 == 0 else 1)
        total += x - 9 if x > 9 else x
    return str((10 - total % 10) % 10)


def validation_number(cabinet: int, seat: int, count: int, check: Callable[[str], int]) -> str:
    """18 digits: the cabinet, the seat, the cabinet's voucher count, four digits of ``check``
    of them (the store's number under the machine's key, of them, the amount and the journal's
    input count: nobody without the key can make a coming voucher's number) and a Luhn digit."""
    head = f"{cabinet % 10000:04d}{seat % 10}{count % 10**8:08d}"
    body = f"{head}{check(head) % 10**4:04d}"
    return body + luhn(body)


def issue(core: Core, seat: SeatState, amount: int) -> bool:
    """What Collect cannot pay in coins as a voucher to print; False: it is a handpay (no
    printer, ``payout: handpay``, or a voucher of the seat's still waiting)."""
    if not wanted(core) or pending(core, seat.number) is not None:
        return False
    v = row(core)
    v["count"] += 1
    inputs = core.state.row.inputs
    number = validation_number(core.settings.cabinet_id, seat.number, v["count"],
                               lambda head: core.store.keyed_check("voucher validation", f"{head}:{amount}:{inputs}"))
    v["pending"][str(seat.number)] = {"number": number, "amount": amount, "count": v["count"], "state": "issued",
                                      "tries": 0, "time": None}
    seat.handpay_owed += amount
    seat.lock = "handpay"
    seat.lock_detail = Text("voucher of {amount} points: printing", amount=amount)
    core.store.seat_dirty(seat)
    core.store.append("voucher_issued", {"number": number, "amount": amount, "count": v["count"]}, seat.number)
    core.store.event("voucher_issued", seat.number, number=number, amount=amount)
    return True


def printing(core: Core, n: int, wall: float) -> dict[str, Any]:
    """An attempt to print seat ``n``'s voucher begins (journaled first); after a cut it is a
    duplicate of the same number. Returns the voucher."""
    v = pending(core, n)
    if v is None:
        raise RuntimeError(f"seat {n}: no voucher to print")
    if v["state"] == "printing":
        v["duplicate"] = True
        core.store.event("voucher_reprint", n, number=v["number"], tries=v["tries"])
    v["state"], v["tries"] = "printing", v["tries"] + 1
    if v["time"] is None:
        v["time"] = wall
    return dict(v)


def printed(core: Core, seat: SeatState) -> None:
    """The printer printed the voucher whole: the credit leaves the seat, once."""
    v = row(core)["pending"].pop(str(seat.number))
    amount = v["amount"]
    core.store.moves(seat, seat.money.voucher(amount))
    for key, value in (("voucher_out", amount), ("vouchers_out", 1), ("total_out", amount)):
        seat.meters.add(key, value)
    seat.handpay_owed -= amount
    if seat.handpay_owed <= 0:
        seat.handpay_owed, seat.lock, seat.lock_detail = 0, None, ""
    core.store.seat_dirty(seat)
    core.store.event("voucher_printed", seat.number, number=v["number"], amount=amount)


def failed(core: Core, seat: SeatState, fault: str) -> int:
    """The printer could not print the voucher whole: void; returns its amount, which the
    caller locks as a handpay (``payouts.lock_handpay``) in the same transaction."""
    v = row(core)["pending"].pop(str(seat.number))
    core.store.event("voucher_to_handpay", seat.number, number=v["number"], amount=v["amount"], fault=fault)
    seat.handpay_owed -= v["amount"]
    seat.lock = None
    return int(v["amount"])
