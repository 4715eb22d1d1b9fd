"""The cabinet's inputs from its devices and the attendant: coins, the hopper, counters, the key.

Owns: ``DeviceInputs``, each input ONE journal transaction handed to ``payouts``: the coin
acceptors' coins, errors and lost events; the hopper's reports chunk by chunk (the
``PayoutLedger`` protocol of hardware/cctalk/ledger.py, seat by seat, adapted by
machine/loop/payout.py), each durable before it returns; the devices' own counters compared
with the journal's; the attendant key. Never talks to a device: whoever owns it reports here.
"""

from __future__ import annotations

from typing import Any

from machine.core import payouts
from machine.core.queries import CabinetQueries


class DeviceInputs(CabinetQueries):
    """Coins, the hopper's reports, the devices' counters, the attendant (see the docstring)."""

    def coin(self, n: int, coin_id: str, now: float) -> bool:
        """A coin the acceptor validated on seat ``n``. Returns whether it was credited."""
        with self.core.tx("coin", {"coin": coin_id, "points": self.core.settings.coin_values.get(coin_id)}, n):
            return payouts.credit_coin(self.core, self.seats[n], coin_id)

    def acceptor_report(
        self, n: int, address: int, counter: int, coins: list[str], errors: list[tuple[int, str, bool]], lost: int
    ) -> None:
        """One poll of seat ``n``'s acceptor, whole: its coins, errors and lost events, with the
        acceptor's event counter, in ONE transaction. After a crash the driver resumes from the
        saved counter, so a coin is credited exactly once even if the cut fell mid-poll."""
        data = {"address": address, "counter": counter, "coins": coins, "errors": [list(e) for e in errors], "lost": lost}
        with self.core.tx("acceptor", data, n):
            seat = self.seats[n]
            for coin_id in coins:
                payouts.credit_coin(self.core, seat, coin_id)
            for code, name, fraud in errors:
                payouts.coin_error(self.core, seat, code, name, fraud)
            if lost:
                payouts.events_lost(self.core, seat, lost)
            self.core.state.row.acceptor_counters[str(address)] = counter

    def coin_error(self, n: int, code: int, name: str, fraud: bool) -> None:
        """An error the acceptor reported; a fraud code tilts the seat."""
        with self.core.tx("coin_error", {"code": code, "name": name, "fraud": fraud}, n):
            payouts.coin_error(self.core, self.seats[n], code, name, fraud)

    def coin_events_lost(self, n: int, count: int) -> None:
        """More than five acceptor events between polls: coins may be lost; tilt."""
        with self.core.tx("coin_events_lost", {"count": count}, n):
            payouts.events_lost(self.core, self.seats[n], count)

    # -- inputs: the hopper's reports, one chunk (at most 255 coins) at a time ------------------------
    # They are the ``PayoutLedger`` protocol of hardware/cctalk/ledger.py, seat by seat
    # (machine/loop/payout.py adapts them). Each is durable before it returns.

    def pending_chunk(self, n: int) -> dict[str, Any] | None:
        """The chunk a cut interrupted: requested, credited, lifetime_before, counter_before."""
        p = self.core.state.payouts.get(n)
        return None if p is None or p.chunk is None else p.chunk.to_dict()

    def chunk_begin(self, n: int, requested: int, hopper: int | None = None) -> None:
        """A chunk of seat ``n``'s payout is asked of the hopper at ccTalk address ``hopper``
        (None: a hopper whose count the journal does not follow)."""
        data: dict[str, Any] = {"requested": requested, **({"hopper": hopper} if hopper is not None else {})}
        with self.core.tx("payout_chunk", data, n):
            payouts.chunk_begin(self.core, n, requested, hopper)

    def chunk_baseline(self, n: int, lifetime: int, counter: int) -> None:
        with self.core.tx("payout_baseline", {"lifetime": lifetime, "counter": counter}, n):
            payouts.chunk_baseline(self.core, n, lifetime, counter)

    def hopper_paid(self, n: int, coins: int) -> None:
        """The hopper reported ``coins`` more coins paid for seat ``n``'s payout."""
        with self.core.tx("hopper_paid", {"coins": coins}, n):
            payouts.hopper_paid(self.core, self.seats[n], coins)

    def chunk_end(self, n: int, paid: int, unpaid: int, fault: str | None) -> None:
        """A chunk ended; the payout ends with it when all is paid or the hopper stopped short."""
        with self.core.tx("payout_chunk_end", {"paid": paid, "unpaid": unpaid, "fault": fault}, n):
            payouts.chunk_end(self.core, self.seats[n], unpaid, fault)

    def hopper_stray(self, n: int, coins: int, fault: str, hopper: int | None = None) -> None:
        """Coins left the hopper outside any payout (a runaway): metered, and the seat tilts."""
        with self.core.tx("hopper_stray", {"coins": coins, "fault": fault}, n):
            payouts.hopper_stray(self.core, self.seats[n], coins, fault, hopper)

    # -- inputs: the devices' own counters, compared with the journal's ---------------------------

    def hopper_counter(self, address: int) -> int | None:
        """The hopper's lifetime count (168) up to which every coin is accounted for."""
        return self.core.state.row.hopper_counters.get(str(address))

    def hopper_count_pending(self, address: int, seats: list[int]) -> bool:
        """Whether a cut payout chunk or hopper test may have moved the hopper's count (its
        reconcile accounts for it: the count is not compared, the motor not stopped)."""
        return payouts.pending_on(self.core, address, seats)

    def hopper_counter_check(self, address: int, lifetime: int, seats: list[int], when: str) -> int:
        """The hopper's count read at start-up or after its payouts, compared with the journal's.

        Returns the coins out that nothing explains (metered, logged, the hopper's ``seats``
        tilted); a count behind the journal's tilts them too. A cut chunk or hopper test still
        pending is left to its reconcile (nothing compared: 0). Journals only when the count
        moved.
        """
        core = self.core
        if payouts.pending_on(core, address, seats) or self.hopper_counter(address) == lifetime:
            return 0
        with core.tx("hopper_counter", {"hopper": address, "lifetime": lifetime, "when": when}):
            return payouts.counter_check(core, address, lifetime, seats, when)

    def acceptor_moved_while_down(self, n: int, address: int, last: int, now: int, events: int, lost: int) -> None:
        """Seat ``n``'s acceptor counted ``events`` events the journal never saw (found at
        start-up); ``lost`` of them are gone from its buffer: logged, and those tilt the seat."""
        data = {"address": address, "journal": last, "device": now, "events": events, "lost": lost}
        with self.core.tx("acceptor_while_down", data, n):
            payouts.acceptor_moved_while_down(self.core, self.seats[n], address, last, now, events, lost)

    # -- inputs: the attendant key ----------------------------------------------------------------

    def attendant_clear(self, n: int) -> bool:
        """The attendant key on seat ``n``: pays a handpay, or clears a tilt whose cause is gone."""
        if not payouts.attendant_may_clear(self.core, n):
            return False
        with self.core.tx("attendant", {"lock": self.seats[n].lock}, n):
            payouts.attendant_clear(self.core, self.seats[n])
        return True

    def attendant_refill(self, n: int, now: float) -> None:
        """The attendant refilled the hopper that pays seat ``n`` (recorded; a tilt then clears)."""
        with self.core.tx("hopper_refill", {"now": now}, n):
            self.cabinet_meters.add("hopper_refills")
            self.core.store.event("hopper_refill", n)

    def attendant_handpay_rest(self, n: int) -> bool:
        """After a hopper fault: turn what the hopper still owes into a handpay."""
        amount = payouts.handpay_rest_amount(self.core, n)
        if not amount:
            return False
        with self.core.tx("attendant_handpay", {"amount": amount}, n):
            payouts.handpay_rest(self.core, self.seats[n], amount)
        return True
