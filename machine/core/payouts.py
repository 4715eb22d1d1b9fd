"""Money in and out of the seats: coins, Collect, hopper payouts, handpays, tilts, the attendant.

Owns: crediting validated coins and the acceptor's errors; Collect (club to credit, then a
payout planned by seat money); the hopper's chunk ledger (``begin`` ... ``end`` of each request
of at most 255 coins, so a payout cut by a power failure is reconciled, never paid twice);
extra and stray coins; the end of a payout, short or whole; handpay and tilt locks, and what
the attendant key does to them. Each function runs INSIDE the transaction the ``Cabinet``
opened for the input; none opens one, none talks to a hopper.
"""

from __future__ import annotations

from machine.core.admin import audit
from machine.core.context import Core
from machine.core.play import bettors
from machine.core.state import Chunk, Payout, SeatState

POWER_CUT = "power cut"  # a chunk cut short by a power cut: the rest is paid on after reconciling


# -- coins in ---------------------------------------------------------------------------------


def credit_coin(core: Core, seat: SeatState, coin_id: str) -> bool:
    points = core.settings.coin_values.get(coin_id)
    if points is None:
        core.store.event("coin_error", seat.number, coin=coin_id, reason="unknown coin id")
        return False
    core.store.moves(seat, seat.money.insert(points))
    seat.meters.add(f"coin_in_count:{coin_id}")
    seat.meters.add(f"coin_in_value:{coin_id}", points)
    seat.meters.add("total_in", points)
    return True


def coin_error(core: Core, seat: SeatState, code: int, name: str, fraud: bool) -> None:
    core.store.event("coin_fraud" if fraud else "coin_error", seat.number, error_code=code, name=name)
    if fraud:
        tilt(core, seat, f"coin acceptor: {name} (code {code})")


def events_lost(core: Core, seat: SeatState, count: int) -> None:
    core.store.event("coin_events_lost", seat.number, count=count)
    tilt(core, seat, f"coin acceptor: {count} event(s) lost between polls")


# -- Collect and the locks --------------------------------------------------------------------


def collect(core: Core, seat: SeatState) -> None:
    if seat.money.club == 0 and seat.money.bet == 0 and audit(core, seat, "payout"):
        return
    moves, plan = seat.money.collect()
    core.store.moves(seat, moves)
    seat.ready = False  # a dropped bet is no longer waiting to start
    if not bettors(core):
        core.state.row.betting_since = None  # the betting time counts from the next first bet
    core.store.seat_dirty(seat)
    if plan.coins:
        core.state.payouts[seat.number] = Payout(asked=plan.coins, paid=0, coin_value=plan.coin_value)
        core.store.mark("payouts")
        core.store.append("payout_start", {"coins": plan.coins, "coin_value": plan.coin_value}, seat.number)
    if plan.handpay:
        lock_handpay(core, seat, plan.handpay)


def lock_handpay(core: Core, seat: SeatState, amount: int) -> None:
    seat.handpay_owed += amount
    seat.lock = "handpay"
    seat.lock_detail = f"handpay of {amount} points"
    core.store.seat_dirty(seat)
    core.store.event("handpay", seat.number, amount=amount)


def tilt(core: Core, seat: SeatState, why: str) -> None:
    if seat.lock is None:
        seat.lock, seat.lock_detail = "tilt", why
        core.store.event("tilt", seat.number, reason=why)
        core.store.seat_dirty(seat)


# -- the hopper's chunk ledger ------------------------------------------------------------------


def chunk_begin(core: Core, n: int, requested: int) -> None:
    p = core.state.payouts[n]
    if p.chunk is not None:
        raise RuntimeError(f"seat {n}: a payout chunk is already pending")
    if requested > p.owed:
        raise RuntimeError(f"seat {n}: {requested} coins asked of the hopper, {p.owed} owed")
    p.chunk, p.chunked = Chunk(requested), True
    core.store.mark("payouts")


def chunk_baseline(core: Core, n: int, lifetime: int, counter: int) -> None:
    chunk = core.state.payouts[n].chunk
    if chunk is None:
        raise RuntimeError(f"seat {n}: no payout chunk to take a baseline for")
    chunk.lifetime_before, chunk.counter_before = lifetime, counter
    core.store.mark("payouts")


def hopper_paid(core: Core, seat: SeatState, coins: int) -> None:
    p = core.state.payouts[seat.number]
    if coins > p.owed:  # more left the hopper than asked: the operator's loss, metered
        extra = coins - p.owed
        coins = p.owed
        seat.meters.add("hopper_extra_out", extra * p.coin_value)
        core.store.event("hopper_extra_coin", seat.number, coins=extra)
        tilt(core, seat, f"hopper paid {extra} coin(s) more than asked")
    if p.chunk is not None:
        p.chunk.credited += coins
    p.paid += coins
    core.store.mark("payouts")
    core.store.moves(seat, seat.money.coins_paid(coins))
    seat.meters.add("hopper_out", coins * p.coin_value)
    seat.meters.add("total_out", coins * p.coin_value)


def chunk_end(core: Core, seat: SeatState, unpaid: int, fault: str | None) -> None:
    n = seat.number
    p = core.state.payouts[n]
    p.chunk = None
    core.store.mark("payouts")
    if fault == POWER_CUT and p.owed > 0:
        core.store.event("payout_resumed", n, after=fault, paid=p.paid, owed=p.owed)
    elif unpaid or fault or p.owed <= 0:
        end_payout(core, seat, fault or ("stopped short" if unpaid else None))


def hopper_stray(core: Core, seat: SeatState, coins: int, fault: str) -> None:
    seat.meters.add("hopper_extra_out", coins * core.settings.money.hopper_coin)
    core.store.event("hopper_runaway", seat.number, coins=coins, fault=fault)
    tilt(core, seat, f"hopper {fault}: {coins} coin(s) paid out unasked")


def end_payout(core: Core, seat: SeatState, fault: str | None) -> None:
    p = core.state.payouts.pop(seat.number)
    core.store.mark("payouts")
    seat.money.payout_ended()
    core.store.seat_dirty(seat)
    unpaid = p.owed
    core.store.append("payout_end", {"asked": p.asked, "paid": p.paid, "unpaid": unpaid, "fault": fault}, seat.number)
    if unpaid:
        core.store.event("hopper_fault", seat.number, fault=fault, unpaid=unpaid)
        tilt(core, seat, f"hopper: {fault}; {unpaid} coin(s) owed")


# -- the attendant key ----------------------------------------------------------------------------


def attendant_may_clear(core: Core, n: int) -> bool:
    return core.state.seats[n].lock in ("handpay", "tilt") and n not in core.state.payouts


def attendant_clear(core: Core, seat: SeatState) -> None:
    """Pay a handpay, or clear a tilt; after a hopper tilt, pay on what is still owed."""
    n = seat.number
    if seat.lock == "handpay":
        amount = seat.handpay_owed
        core.store.moves(seat, seat.money.handpay(amount))
        seat.meters.add("handpay_out", amount)
        seat.meters.add("total_out", amount)
        seat.meters.add("handpays")
        seat.handpay_owed = 0
        core.store.event("handpay_cleared", n, amount=amount)
    else:
        core.store.event("tilt_cleared", n, reason=seat.lock_detail)
    resume = seat.lock == "tilt" and seat.lock_detail.startswith("hopper")
    seat.lock, seat.lock_detail = None, ""
    core.store.seat_dirty(seat)
    if resume and seat.money.club == 0 and seat.money.payout_plan().coins:
        core.store.event("payout_resumed", n)
        collect(core, seat)  # the attendant refilled: pay on what is still owed


def handpay_rest_amount(core: Core, n: int) -> int:
    """What a hopper fault left owed, to be turned into a handpay (0: nothing to do)."""
    seat = core.state.seats[n]
    if seat.lock != "tilt" or n in core.state.payouts:
        return 0
    plan = seat.money.payout_plan()
    return plan.coins * plan.coin_value


def handpay_rest(core: Core, seat: SeatState, amount: int) -> None:
    seat.lock = None
    lock_handpay(core, seat, amount)
