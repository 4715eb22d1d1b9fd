"""Joining the hopper driver to the cabinet: the payout ledger, seat by seat.

Owns: ``SeatLedger`` (the ``PayoutLedger`` protocol of hardware/cctalk/ledger.py, written
into the cabinet's journal for one seat, under the lock that serialises the cabinet), and
``run_payouts``: for each seat the cabinet owes coins, first reconcile a chunk a power cut
interrupted, then pay the rest in chunks of at most 255 coins. Never knows ccTalk frames;
never decides what is owed (the cabinet does).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Protocol

from hardware.cctalk.ledger import PendingPayout

from machine.core.cabinet import Cabinet

MAX_CHUNK = 255


class HopperDevice(Protocol):
    """What the payout needs of a hopper (hardware.cctalk.hopper.Hopper, or a test double)."""

    def payout(self, coins: int, ledger: Any) -> Any: ...

    def reconcile(self, pending: PendingPayout, ledger: Any) -> Any: ...


class SeatLedger:
    """The payout ledger of seat ``n``: every call durable in the journal before it returns."""

    def __init__(self, cab: Cabinet, n: int, lock: threading.Lock | contextlib.nullcontext | None = None):
        self.cab, self.n = cab, n
        self.lock = lock or contextlib.nullcontext()

    def begin_payout(self, requested: int) -> None:
        with self.lock:
            self.cab.chunk_begin(self.n, requested)

    def payout_baseline(self, lifetime: int, counter: int) -> None:
        with self.lock:
            self.cab.chunk_baseline(self.n, lifetime, counter)

    def coins_paid(self, count: int) -> None:
        with self.lock:
            self.cab.hopper_paid(self.n, count)

    def end_payout(self, paid: int, unpaid: int, fault: str | None) -> None:
        with self.lock:
            self.cab.chunk_end(self.n, paid, unpaid, None if fault is None else str(fault))

    def stray_coins(self, count: int, fault: str) -> None:
        with self.lock:
            self.cab.hopper_stray(self.n, count, str(fault))


def pending_of(cab: Cabinet, n: int) -> PendingPayout | None:
    chunk = cab.pending_chunk(n)
    if chunk is None:
        return None
    return PendingPayout(chunk["requested"], chunk["credited"], chunk["lifetime_before"], chunk["counter_before"])


def run_payouts(cab: Cabinet, hopper: HopperDevice, lock=None, seats: list[int] | None = None) -> None:
    """Carry out (or finish, after a cut) every payout the cabinet owes, seat by seat.

    ``seats``: only the seats this hopper pays (all when None).
    """
    lock = lock or contextlib.nullcontext()
    with lock:
        owed = sorted(n for n in cab.payouts_owed() if seats is None or n in seats)
    for n in owed:
        ledger = SeatLedger(cab, n, lock)
        with lock:
            pending = pending_of(cab, n)
        if pending is not None:
            result = hopper.reconcile(pending, ledger)
            if not getattr(result, "resolved", True) or not cab.is_paying(n) or cab.lock_of(n):
                continue
        while True:
            with lock:
                left = cab.payouts_owed().get(n, 0)
            if not left:
                break
            result = hopper.payout(min(MAX_CHUNK, left), ledger)
            unpaid: int = getattr(result, "unpaid", 0)
            if not getattr(result, "resolved", True) or unpaid:
                break
