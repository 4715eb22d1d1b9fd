"""Joining the hopper driver to the cabinet: the payout ledger, seat by seat, and the hopper test.

Owns: ``SeatLedger`` (the ``PayoutLedger`` protocol of hardware/cctalk/ledger.py, written
into the cabinet's journal for one seat, under the lock that serialises the cabinet, naming
the hopper so the journal follows its lifetime count), ``HopperTestLedger`` (the same protocol for
the operator menu's hopper test: its intent journaled before the hopper is sent anything),
``run_payouts``: for each seat the cabinet owes coins, first reconcile a chunk a power cut
interrupted, then pay the rest in chunks of at most 255 coins; and ``check_counter``: the
hopper's count read and handed to the cabinet, which compares it with the journal's (at
start-up, after a hopper test a cut interrupted is reconciled, and after every payout). Never
knows ccTalk frames; never decides what is owed or what a count means (the cabinet does).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Protocol

from hardware.cctalk.ledger import PendingPayout

from machine.core.cabinet import POWER_CUT, Cabinet

MAX_CHUNK = 255


class HopperDevice(Protocol):
    """What the payout needs of a hopper (hardware.cctalk.hopper.Hopper, or a test double)."""

    def payout(self, coins: int, ledger: Any) -> Any: ...

    def reconcile(self, pending: PendingPayout, ledger: Any) -> Any: ...


class CountedHopper(HopperDevice, Protocol):
    """A hopper whose lifetime count the journal follows (its ccTalk address names it)."""

    address: int

    def lifetime_now(self, *, settle: bool = False) -> int: ...


class SeatLedger:
    """The payout ledger of seat ``n``: every call durable in the journal before it returns."""

    def __init__(
        self, cab: Cabinet, n: int, lock: threading.Lock | contextlib.nullcontext | None = None, hopper: int | None = None
    ):
        self.cab, self.n, self.hopper = cab, n, hopper
        self.lock = lock or contextlib.nullcontext()

    def begin_payout(self, requested: int) -> None:
        with self.lock:
            self.cab.chunk_begin(self.n, requested, self.hopper)

    def payout_baseline(self, lifetime: int, counter: int, serial: int | None = None) -> None:
        with self.lock:
            self.cab.chunk_baseline(self.n, lifetime, counter, serial)

    def coins_paid(self, count: int) -> None:
        with self.lock:
            self.cab.hopper_paid(self.n, count)

    def end_payout(self, paid: int, unpaid: int, fault: str | None) -> None:
        with self.lock:
            self.cab.chunk_end(self.n, paid, unpaid, None if fault is None else str(fault))

    def stray_coins(self, count: int, fault: str) -> None:
        with self.lock:
            self.cab.hopper_stray(self.n, count, str(fault), self.hopper)

    def payout_unexplained(self, before: int, now: int, serial_before: int | None, serial: int | None) -> None:
        with self.lock:
            self.cab.hopper_count_question(self.hopper or 0, [self.n], before, now, serial_before, serial)


class HopperTestLedger:
    """The operator's hopper test (hopper at ``address``, paying ``seats``): every call durable."""

    def __init__(self, cab: Cabinet, address: int, seats: list[int], lock: threading.Lock | contextlib.nullcontext | None = None):
        self.cab, self.address, self.seats = cab, address, seats
        self.lock = lock or contextlib.nullcontext()

    def begin_payout(self, requested: int) -> None:
        with self.lock:
            self.cab.hopper_test_begin(self.address, requested)

    def payout_baseline(self, lifetime: int, counter: int, serial: int | None = None) -> None:
        with self.lock:
            self.cab.hopper_test_baseline(lifetime, counter, self.seats, serial)

    def coins_paid(self, count: int) -> None:
        with self.lock:
            self.cab.hopper_test_paid(count)

    def end_payout(self, paid: int, unpaid: int, fault: str | None) -> None:
        with self.lock:
            self.cab.hopper_test_end(paid, unpaid, None if fault is None else str(fault))

    def stray_coins(self, count: int, fault: str) -> None:  # the driver reports none in a payout
        SeatLedger(self.cab, self.seats[0], self.lock, self.address).stray_coins(count, fault)

    def payout_unexplained(self, before: int, now: int, serial_before: int | None, serial: int | None) -> None:
        with self.lock:
            self.cab.hopper_count_question(self.address, self.seats, before, now, serial_before, serial)


def pending_test(cab: Cabinet, address: int) -> PendingPayout | None:
    test = cab.hopper_test_pending()
    if test is None or test["hopper"] != address:
        return None
    return PendingPayout(test["requested"], test["credited"], test["lifetime_before"], test["counter_before"],
                         test.get("serial"))


def check_counter(cab: Cabinet, hopper: CountedHopper, seats: list[int], lock=None, when: str = "after a payout") -> int:
    """Hand the hopper's count to the cabinet to compare with the journal's; returns the coins
    out nothing explains. At start-up (``when="at start-up"``) a hopper test a cut interrupted is
    reconciled first, and a motor still running is stopped before the count is taken."""
    lock = lock or contextlib.nullcontext()
    start = when == "at start-up"
    if start:
        with lock:
            pending = pending_test(cab, hopper.address)
        if pending is not None:  # closed from the counts, then finished as a cut payout is
            ledger = HopperTestLedger(cab, hopper.address, seats, lock)
            result = hopper.reconcile(pending, ledger)
            unpaid = getattr(result, "unpaid", 0)
            if unpaid and getattr(result, "fault", POWER_CUT) == POWER_CUT:
                hopper.payout(unpaid, ledger)
    with lock:
        if cab.hopper_count_pending(hopper.address, seats):  # a cut chunk: its reconcile counts
            return 0
    lifetime = hopper.lifetime_now(settle=start)
    with lock:
        return cab.hopper_counter_check(hopper.address, lifetime, seats, when)


def pending_of(cab: Cabinet, n: int) -> PendingPayout | None:
    chunk = cab.pending_chunk(n)
    if chunk is None:
        return None
    return PendingPayout(chunk["requested"], chunk["credited"], chunk["lifetime_before"], chunk["counter_before"],
                         chunk.get("serial"))


def run_payouts(cab: Cabinet, hopper: HopperDevice, lock=None, seats: list[int] | None = None) -> None:
    """Carry out (or finish, after a cut) every payout the cabinet owes, seat by seat.

    ``seats``: only the seats this hopper pays (all when None).
    """
    lock = lock or contextlib.nullcontext()
    with lock:  # a chunk a cut left pending first: its reconcile reads the count's rise as its own
        mine = [n for n in cab.payouts_owed() if seats is None or n in seats]
        owed = sorted(mine, key=lambda n: (pending_of(cab, n) is None, n))
    for n in owed:
        ledger = SeatLedger(cab, n, lock, getattr(hopper, "address", None))
        with lock:
            pending = pending_of(cab, n)
        if pending is not None:
            result = hopper.reconcile(pending, ledger)
            if not getattr(result, "resolved", True):
                return  # still pending: this hopper pays nothing else until it is closed
            if not cab.is_paying(n) or cab.lock_of(n):
                continue
        while True:
            with lock:
                left = cab.payouts_owed().get(n, 0)
            if not left:
                break
            result = hopper.payout(min(MAX_CHUNK, left), ledger)
            if not getattr(result, "resolved", True):
                # its reconcile takes the hopper count's rise since its baseline as its own
                # coins: another payout by this hopper first would be counted twice
                return
            unpaid: int = getattr(result, "unpaid", 0)
            if unpaid:
                break
