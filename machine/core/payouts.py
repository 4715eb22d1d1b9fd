"""Money in and out of the seats: coins, Collect, hopper payouts, handpays, tilts, the attendant.

Owns: crediting validated coins and the acceptor's errors; Collect (club to credit, then a
payout planned by seat money); the hopper's chunk ledger (``begin`` ... ``end`` of each request
of at most 255 coins, so a payout cut by a power failure is reconciled, never paid twice);
extra and stray coins; the end of a payout, short or whole; handpay and tilt locks, and what
the attendant key does to them; the operator's hopper test (the same ledger: its intent
journaled before the hopper is sent anything, its coins ``hopper_test_coins``); and the devices'
own counters as evidence.

The devices' counters
---------------------
The cabinet row keeps, per hopper address, the lifetime count (168) up to which every coin is
accounted for: a chunk's or test's baseline, plus the coins it reported, at its end; plus a
stray's coins. Compared with the count read at start-up (before any payout resumes or coin is
accepted), before and after every payout and hopper test: coins out beyond it that no payout
explains are metered (cabinet meter ``hopper_out_unexplained``, points), logged
(``hopper_out_unexplained``) and tilt every seat the hopper pays; a count BEHIND it (another
hopper fitted, or an older journal) is logged (``hopper_count_behind``) and tilts them too, and
in both cases the count read becomes the reference once the attendant has seen it. A chunk or
test a cut left pending with its baseline taken is its reconcile's to account for (coins beyond
its request are extra coins, metered and tilting as in a payout), not compared. An acceptor's
event counter that moved while the cabinet was down is logged (``coin_events_while_down``); the
events still in its five-event buffer are credited, those gone from it cannot be and tilt the
seat. The first count a journal sees is taken as it is.

Each function runs INSIDE the transaction the ``Cabinet`` opened for the input; none opens one,
none talks to a hopper or reads a device.
"""

from __future__ import annotations

from typing import Any

from machine.core import vouchers
from machine.core.admin import audit
from machine.core.context import Core
from machine.core.play import bettors
from machine.core.state import Chunk, Payout, SeatState
from machine.games.text import Text

POWER_CUT = "power cut"  # a chunk cut short by a power cut: the rest is paid on after reconciling
UNEXPLAINED = "count unexplained"  # the hopper's count explains nothing of the chunk (count_question took it)


# -- coins in ---------------------------------------------------------------------------------


def credit_coin(core: Core, seat: SeatState, coin_id: str) -> bool:
    points = core.settings.coin_values.get(coin_id)
    if points is None:
        core.store.event("coin_error", seat.number, coin=coin_id, reason="unknown coin id")
        return False
    core.store.moves(seat, seat.money.insert(points))
    seat.paid = 0  # a coin in: the last payout's "paid" leaves the screen
    seat.meters.add(f"coin_in_count:{coin_id}")
    seat.meters.add(f"coin_in_value:{coin_id}", points)
    seat.meters.add("total_in", points)
    return True


def coin_error(core: Core, seat: SeatState, code: int, name: str, fraud: bool) -> None:
    core.store.event("coin_fraud" if fraud else "coin_error", seat.number, error_code=code, name=name)
    if fraud:
        tilt(core, seat, Text("coin acceptor: {name} (code {code})", name=name, code=code))


def acceptor_counter_fault(core: Core, seat: SeatState, address: int, last: int, now: int, events: int) -> None:
    """An acceptor's event counter moved in a way no buffer reading explains (back, or more than
    five events): nothing is credited; the attendant sees both counters."""
    core.store.event("coin_counter_fault", seat.number, address=address, journal=last, device=now, events=events)
    tilt(core, seat, f"coin acceptor {address}: event counter {last} -> {now}, not a move its buffer can show: "
                     "nothing credited")


def events_lost(core: Core, seat: SeatState, count: int) -> None:
    core.store.event("coin_events_lost", seat.number, count=count)
    tilt(core, seat, Text("coin acceptor: {count} event(s) lost between polls", count=count))


# -- Collect and the locks --------------------------------------------------------------------


def collect(core: Core, seat: SeatState) -> None:
    if seat.money.club == 0 and seat.money.bet == 0 and audit(core, seat, "payout"):
        return
    moves, plan = seat.money.collect()
    seat.paid = 0  # what this Collect pays, counted as it is paid
    if plan.coins or plan.handpay:
        core.collected.add(seat.number)  # the seat left the table: its last round's result leaves its screen
    core.store.moves(seat, moves)
    seat.ready = False  # a dropped bet is no longer waiting to start
    if not bettors(core):
        core.state.row.betting_since = None  # the betting time counts from the next first bet
    core.store.seat_dirty(seat)
    if plan.coins:
        core.state.payouts[seat.number] = Payout(asked=plan.coins, paid=0, coin_value=plan.coin_value)
        core.store.mark("payouts")
        core.store.append("payout_start", {"coins": plan.coins, "coin_value": plan.coin_value}, seat.number)
    if plan.handpay and not vouchers.issue(core, seat, plan.handpay):
        lock_handpay(core, seat, plan.handpay)


def lock_handpay(core: Core, seat: SeatState, amount: int) -> None:
    seat.handpay_owed += amount
    seat.lock = "handpay"
    seat.lock_detail = Text("handpay of {amount} points", amount=amount)
    core.store.seat_dirty(seat)
    core.store.event("handpay", seat.number, amount=amount)


def tilt(core: Core, seat: SeatState, why: str) -> None:
    if seat.lock is None:
        seat.lock, seat.lock_detail = "tilt", why
        core.store.event("tilt", seat.number, reason=why)
        core.store.seat_dirty(seat)


# -- the hopper's chunk ledger ------------------------------------------------------------------


def chunk_begin(core: Core, n: int, requested: int, hopper: int | None = None) -> None:
    p = core.state.payouts[n]
    if p.chunk is not None:
        raise RuntimeError(f"seat {n}: a payout chunk is already pending")
    if requested > p.owed:
        raise RuntimeError(f"seat {n}: {requested} coins asked of the hopper, {p.owed} owed")
    p.chunk, p.chunked = Chunk(requested, hopper=hopper), True
    core.store.mark("payouts")


def chunk_baseline(core: Core, n: int, lifetime: int, counter: int, serial: int | None = None) -> None:
    chunk = core.state.payouts[n].chunk
    if chunk is None:
        raise RuntimeError(f"seat {n}: no payout chunk to take a baseline for")
    if chunk.hopper is not None:
        counter_check(core, chunk.hopper, lifetime, [n], "before a payout")  # coins out since the last look: nobody's
    chunk.lifetime_before, chunk.counter_before, chunk.serial = lifetime, counter, serial
    core.store.mark("payouts")


def hopper_paid(core: Core, seat: SeatState, coins: int) -> None:
    p = core.state.payouts[seat.number]
    if p.chunk is not None:
        p.chunk.credited += coins  # every coin the hopper reported, an extra one too
    if coins > p.owed:  # more left the hopper than asked: the operator's loss, metered
        extra = coins - p.owed
        coins = p.owed
        seat.meters.add("hopper_extra_out", extra * p.coin_value)
        core.store.event("hopper_extra_coin", seat.number, coins=extra)
        tilt(core, seat, Text("hopper paid {extra} coin(s) more than asked", extra=extra))
    p.paid += coins
    core.store.mark("payouts")
    core.store.moves(seat, seat.money.coins_paid(coins))
    seat.meters.add("hopper_out", coins * p.coin_value)
    seat.meters.add("total_out", coins * p.coin_value)


def chunk_end(core: Core, seat: SeatState, unpaid: int, fault: str | None) -> None:
    n = seat.number
    p = core.state.payouts[n]
    chunk, p.chunk = p.chunk, None
    core.store.mark("payouts")
    if chunk is not None and chunk.hopper is not None and chunk.lifetime_before is not None and fault != UNEXPLAINED:
        counter_moved(core, chunk.hopper, chunk.lifetime_before + chunk.credited)
    if fault == POWER_CUT and p.owed > 0:
        core.store.event("payout_resumed", n, after=fault, paid=p.paid, owed=p.owed)
    elif unpaid or fault or p.owed <= 0:
        end_payout(core, seat, fault or ("stopped short" if unpaid else None))


def hopper_stray(core: Core, seat: SeatState, coins: int, fault: str, hopper: int | None = None) -> None:
    seat.meters.add("hopper_extra_out", coins * core.settings.money.hopper_coin)
    if hopper is not None and str(hopper) in core.state.row.hopper_counters:
        counter_moved(core, hopper, core.state.row.hopper_counters[str(hopper)] + coins)
    core.store.event("hopper_runaway", seat.number, coins=coins, fault=fault)
    tilt(core, seat, Text("hopper {fault}: {coins} coin(s) paid out unasked", fault=fault, coins=coins))


def end_payout(core: Core, seat: SeatState, fault: str | None) -> None:
    p = core.state.payouts.pop(seat.number)
    core.store.mark("payouts")
    seat.money.payout_ended()
    seat.paid += p.paid * p.coin_value
    core.store.seat_dirty(seat)
    unpaid = p.owed
    core.store.append("payout_end", {"asked": p.asked, "paid": p.paid, "unpaid": unpaid, "fault": fault}, seat.number)
    if unpaid:
        core.store.event("hopper_fault", seat.number, fault=fault, unpaid=unpaid)
        tilt(core, seat, Text("hopper: {fault}; {unpaid} coin(s) owed", fault=fault, unpaid=unpaid))


# -- the attendant key ----------------------------------------------------------------------------


def attendant_may_clear(core: Core, n: int) -> bool:
    """Not while the hopper pays, nor while a voucher waits for the printer (it would be paid twice)."""
    waiting = str(n) in core.state.row.vouchers.get("pending", {})
    return core.state.seats[n].lock in ("handpay", "tilt") and n not in core.state.payouts and not waiting


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
        seat.paid += amount
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
    """What the hopper could not pay: a voucher where a printer is fitted, else a handpay."""
    seat.lock = None
    if not vouchers.issue(core, seat, amount):
        lock_handpay(core, seat, amount)


# -- the devices' own counters: evidence of coins the journal never saw ---------------------------

# ccTalk's 168 count is three bytes (hardware/cctalk/hopper.py's LIFETIME_MODULUS: the layers
# keep the core from importing the driver; a test holds the two equal)
COUNT_MODULUS = 1 << 24


def counter_moved(core: Core, hopper: int, lifetime: int) -> None:
    """Every coin up to the hopper's count ``lifetime`` is accounted for (journaled with it).

    Only ever forward: a chunk a lost reply left pending ends after a later one began (its
    coins came before that one's baseline), and must not take the count back over them.
    """
    counters = core.state.row.hopper_counters
    last = counters.get(str(hopper))
    if last is None or (lifetime - last) % COUNT_MODULUS < COUNT_MODULUS // 2:
        counters[str(hopper)] = lifetime % COUNT_MODULUS


def counter_check(core: Core, hopper: int, lifetime: int, seats: list[int], when: str) -> int:
    """Compare the hopper's count (168) with the journal's; returns the coins nobody explains.

    Coins out that no payout explains are metered (``hopper_out_unexplained``, points), logged
    and tilt every seat the hopper pays; a count BEHIND the journal's (another hopper fitted, or
    an older journal) is logged and tilts the same seats, for the attendant to check and clear.
    Either way the count read becomes the journal's. The first count a journal sees is taken
    as it is. Coins a pending chunk or hopper test may explain are the reconcile's, not this
    (nothing compared: 0).
    """
    if pending_on(core, hopper, seats):
        return 0
    row = core.state.row
    last = row.hopper_counters.get(str(hopper))
    row.hopper_counters[str(hopper)] = lifetime  # the count read is the reference from now on
    if last is None or last == lifetime:
        return 0
    ahead = (lifetime - last) % COUNT_MODULUS
    if ahead < COUNT_MODULUS // 2:
        points = ahead * core.settings.money.hopper_coin
        row.meters.add("hopper_out_unexplained", points)
        core.store.event("hopper_out_unexplained", hopper=hopper, coins=ahead, journal=last, device=lifetime, when=when)
        # (not "hopper ...": clearing such a tilt pays on a payout, and this one has none)
        why = f"unexplained coins out: hopper {hopper}, {ahead} coin(s) that no payout explains ({when})"
    else:
        behind = COUNT_MODULUS - ahead
        core.store.event("hopper_count_behind", hopper=hopper, coins=behind, journal=last, device=lifetime, when=when)
        why = f"count behind: hopper {hopper} counts {behind} coin(s) fewer than the journal ({when}): another hopper?"
        ahead = 0
    for n in seats:
        tilt(core, core.state.seats[n], why)
    return ahead


def count_question(core: Core, hopper: int, seats: list[int], before: int, now: int, serial_before: int | None,
                   serial: int | None) -> None:
    """A pending payout's hopper count does not explain it (another hopper, a count that went
    back, or a rise no payout explains): nothing is paid on trust. Logged with both counts and
    serial numbers, the seats tilt for the attendant (clearing pays on what is still owed), and
    the count read is the journal's reference from here (its coins are nobody's to meter)."""
    core.store.event("hopper_count_unexplained", hopper=hopper, journal=before, device=now,
                     serial_journal=serial_before, serial_device=serial)
    core.state.row.hopper_counters[str(hopper)] = now
    why = (f"hopper {hopper}: its count {now} (serial {serial}) does not explain the payout begun at count {before} "
           f"(serial {serial_before}): nothing paid on trust")
    for n in seats:
        tilt(core, core.state.seats[n], why)


def pending_on(core: Core, hopper: int, seats: list[int]) -> bool:
    """Whether a cut payout chunk or hopper test of this hopper may have moved its count."""
    test = core.state.row.hopper_test
    if test and test.get("hopper") == hopper and test.get("lifetime_before") is not None:
        return True
    for n, p in core.state.payouts.items():
        chunk = p.chunk
        if chunk is not None and chunk.lifetime_before is not None and (chunk.hopper == hopper or n in seats):
            return True
    return False


# -- the operator's hopper test: the same ledger, its coins the operator's -----------------------


def test_begin(core: Core, hopper: int, requested: int) -> None:
    """The intent, journaled before anything is sent to the hopper (already journaled, when a
    test cut by a power cut left the rest owed: ``test_end``)."""
    test = core.state.row.hopper_test
    if test == _intent(hopper, requested):
        return
    if test:
        raise RuntimeError("a hopper test is already pending")
    core.state.row.hopper_test = _intent(hopper, requested)


def _intent(hopper: int, requested: int) -> dict[str, Any]:
    return {"hopper": hopper, "requested": requested, "credited": 0, "lifetime_before": None, "counter_before": None}


def test_baseline(core: Core, lifetime: int, counter: int, seats: list[int], serial: int | None = None) -> None:
    test = core.state.row.hopper_test
    if not test:
        raise RuntimeError("no hopper test to take a baseline for")
    counter_check(core, test["hopper"], lifetime, seats, "before the hopper test")
    test["lifetime_before"], test["counter_before"] = lifetime, counter
    if serial is not None:
        test["serial"] = serial


def test_paid(core: Core, coins: int) -> None:
    """Coins the test paid: the operator's, metered apart (``hopper_test_coins``)."""
    test = core.state.row.hopper_test
    if not test:
        raise RuntimeError("hopper test coins without a hopper test")
    test["credited"] += coins
    core.state.row.meters.add("hopper_test_coins", coins)


def test_end(core: Core, paid: int, unpaid: int, fault: str | None) -> None:
    """The test closed; what a power cut left unpaid stays owed, as a new intent in the same
    transaction (so a cut while it is paid at the next start loses nothing either)."""
    test = core.state.row.hopper_test
    if not test:
        raise RuntimeError("no hopper test to end")
    core.state.row.hopper_test = _intent(test["hopper"], unpaid) if unpaid and fault == POWER_CUT else {}
    if test["lifetime_before"] is not None and fault != UNEXPLAINED:
        counter_moved(core, test["hopper"], test["lifetime_before"] + test["credited"])
    core.store.event("operator", what="hopper test payout", coins=paid, fault=fault)


# the event's detail: fixed words, which the event log translates (machine/operator/menu.py)
LOST_WHILE_DOWN = "gone from the acceptor's buffer: their coins cannot be credited"
CREDITED_WHILE_DOWN = "still in the acceptor's buffer: credited"


def acceptor_moved_while_down(core: Core, seat: SeatState, address: int, last: int, now: int, events: int, lost: int) -> None:
    """The acceptor's event counter moved while the cabinet was down: logged; events gone from
    its five-event buffer cannot be credited (their coins are unknown), and the seat tilts."""
    detail = LOST_WHILE_DOWN if lost else CREDITED_WHILE_DOWN
    core.store.event("coin_events_while_down", seat.number, address=address, journal=last, device=now, events=events,
                     lost=lost, detail=detail)
    if lost:
        tilt(core, seat, f"coin acceptor {address}: {lost} event(s) while the cabinet was down: {detail}")
