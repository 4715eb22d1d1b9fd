"""What the payout procedure tells the money side: the ledger protocol, and one in memory.

Owns: ``PayoutLedger``, the interface through which ``hopper.py`` reports a payout (the durable
pending record, each coin as it is paid, the end with paid/unpaid/fault, coins that left
outside any payout), ``PendingPayout``, the record a durable ledger must give back after a
restart, and ``MemoryLedger``, a reference implementation for tests and the bench. The
hardware layer never knows meters, seats or the game: the cabinet's ledger does, behind this
protocol. A ledger that keeps the baseline and the coins reported knows the hopper count up to
which it has accounted for every coin; comparing it with the count the hopper reports is its
owner's business, never the driver's.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Protocol


@dataclass(frozen=True)
class PendingPayout:
    """A payout that began and has not ended: what a durable ledger keeps across a power cut.

    ``lifetime_before`` and ``counter_before`` are the hopper's 168 and 166 counters read just
    before the dispense was sent; None means the dispense was never sent. ``serial``: the serial
    number of the hopper they were read from (None: not known), so a reconcile never reads
    another hopper's count as this payout's.
    """

    requested: int
    credited: int = 0  # coins already reported through coins_paid
    lifetime_before: int | None = None
    counter_before: int | None = None
    serial: int | None = None


class PayoutLedger(Protocol):
    """The money side of a payout. Every method must be durable before it returns."""

    def begin_payout(self, requested: int) -> None:
        """Record a pending payout of ``requested`` coins (before anything is sent)."""

    def payout_baseline(self, lifetime: int, counter: int, serial: int | None = None) -> None:
        """Add the hopper's counters (and its serial number) to the pending record, just
        before the dispense."""

    def coins_paid(self, count: int) -> None:
        """``count`` more coins of the pending payout left the hopper: take them off credit."""

    def end_payout(self, paid: int, unpaid: int, fault: str | None) -> None:
        """Close the pending payout: ``paid`` in all (the sum of coins_paid), ``unpaid`` owed."""

    def stray_coins(self, count: int, fault: str) -> None:
        """``count`` coins left the hopper outside any payout (a runaway motor)."""

    def payout_unexplained(self, before: int, now: int, serial_before: int | None, serial: int | None) -> None:
        """The hopper's count (``now``, on the hopper of ``serial``) does not explain the pending
        payout begun at ``before`` on ``serial_before``: another hopper, or a count that went back
        or rose by more than the payout can have paid. Nothing is paid on trust; the owner asks
        the attendant, showing both counts, and follows ``now`` from here. ``end_payout`` follows."""


@dataclass(frozen=True)
class PayoutRecord:
    requested: int
    paid: int
    unpaid: int
    fault: str | None


@dataclass
class MemoryLedger:
    """A ledger kept in memory (it "survives" a power cut as long as the object does)."""

    pending: PendingPayout | None = None
    paid_total: int = 0  # every coin reported out, payouts and strays
    owed_total: int = 0  # unpaid coins of ended payouts
    stray_total: int = 0
    records: list[PayoutRecord] = field(default_factory=list)
    log: list[tuple[str, object]] = field(default_factory=list)
    questions: list[tuple[int, int, int | None, int | None]] = field(default_factory=list)

    def begin_payout(self, requested: int) -> None:
        if self.pending is not None:
            raise RuntimeError(f"a payout is already pending: {self.pending}")
        self.pending = PendingPayout(requested)
        self.log.append(("begin", requested))

    def payout_baseline(self, lifetime: int, counter: int, serial: int | None = None) -> None:
        assert self.pending is not None, "payout_baseline without begin_payout"
        self.pending = replace(self.pending, lifetime_before=lifetime, counter_before=counter, serial=serial)
        self.log.append(("baseline", (lifetime, counter)))

    def coins_paid(self, count: int) -> None:
        assert self.pending is not None, "coins_paid without a pending payout"
        if count <= 0:
            raise ValueError(f"coins_paid({count})")
        self.pending = replace(self.pending, credited=self.pending.credited + count)
        self.paid_total += count
        self.log.append(("paid", count))

    def end_payout(self, paid: int, unpaid: int, fault: str | None) -> None:
        assert self.pending is not None, "end_payout without a pending payout"
        if paid != self.pending.credited:
            raise AssertionError(f"end_payout(paid={paid}) but {self.pending.credited} reported")
        self.records.append(PayoutRecord(self.pending.requested, paid, unpaid, fault))
        self.owed_total += unpaid
        self.pending = None
        self.log.append(("end", (paid, unpaid, fault)))

    def stray_coins(self, count: int, fault: str) -> None:
        self.paid_total += count
        self.stray_total += count
        self.log.append(("stray", (count, fault)))

    def payout_unexplained(self, before: int, now: int, serial_before: int | None, serial: int | None) -> None:
        assert self.pending is not None, "payout_unexplained without a pending payout"
        self.questions.append((before, now, serial_before, serial))
        self.log.append(("unexplained", (before, now, serial_before, serial)))
