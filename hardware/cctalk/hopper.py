"""The hopper driver: the payout procedure that never pays a coin twice or loses one, on a bus.

Owns: ``Hopper``, the thin driver that runs the hopper's procedures (``payout.py``: written
without I/O, the hopper's replies in, requests and ledger events out) on a ``CctalkBus``: each
``Ask`` becomes a request, each ``Wait`` the bus's wait, each ledger event a call into the
injected ``PayoutLedger`` (durable before the procedure goes on). Also the hopper commands on
their own (enable 164, dispense 167 in serial-number or "no encryption" mode, status 166, flags
163, lifetime count 168, emergency stop 172, reset). Reports money only through the ledger;
never knows meters, seats or the game, never reads the clock except the bus's. The steps
below are the procedure's.

The payout, in order
--------------------
1. ``ledger.begin_payout(n)``: the durable pending record, before anything is sent.
2. Read 166 (event counter) and 168 (lifetime count); read 163: a blocking flag ends the
   payout at once, nothing paid, the fault named.
3. ``ledger.payout_baseline(lifetime, counter)``: after this the dispense may have happened.
4. Enable (164/165); in "no encryption" mode request a cipher key (160); dispense (167) once.
   If its reply is lost, read 166 and 168: resend only if neither moved.
5. Poll 166 every ``poll_interval``: each coin the hopper reports paid goes to
   ``ledger.coins_paid`` as it is seen (a status claiming more than asked + 1 is not
   believed). The payout is over when nothing remains.
6. Read 168 and 163: coins out = 168's rise. More out than 166 reported = a runaway motor
   (emergency stop, then the extra coins are reported too); more paid than asked = an extra
   coin; anything unpaid is named from 163 (empty, jam, fraud, ...). ``ledger.end_payout``.

If the hopper stops answering part way, or answers 166 with an event counter that is not the
one its 167 reply gave (the status of some other payout: ``count mismatch``, both counters
named), the payout is left pending (``resolved=False``): only ``reconcile`` may close it, from
168 once the hopper answers again. The same ``reconcile`` closes a payout found pending at boot
(power cut of the cabinet, the hopper, or both).

Only the same hopper, only a rise it can explain
-----------------------------------------------
A payout's baseline carries the serial number of the hopper it was read from. 168 counts for a
pending payout only on that hopper, and only by a rise of at most the coins asked plus
``RUNAWAY_MARGIN``; a count that went back is no wrap (it reads as about 2^24 and is refused).
Anything else pays nothing on trust: ``ledger.payout_unexplained`` names both counts and serial
numbers for the attendant, and the payout closes with the coins 166 reported one by one
(``PayoutFault.UNEXPLAINED``), so no seat is debited for coins no count shows.

The lifetime count as evidence
------------------------------
168 counts every coin that ever left, whoever is running. The driver never keeps it across a
restart and never judges it: ``start`` and ``lifetime_now`` only read it (``lifetime_now``
with ``settle`` also stops a motor still running at start-up), and every payout reports its
baseline and each coin through the ledger, from which the ledger's owner knows the count it
has accounted for. Comparing that with the count read at start-up and after each payout, and
naming coins nobody explains, is the ledger owner's business (the cabinet core's).
Between payouts ``check_idle`` reports coins out since the last count it read or was told of.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TypeVar

from hardware.cctalk.headers import CATEGORY_PAYOUT, HopperFlags, HopperStatus
from hardware.cctalk.host import CctalkBus, CctalkError, DeviceInfo
from hardware.cctalk.ledger import PayoutLedger, PendingPayout
from hardware.cctalk.payout import (
    LIFETIME_MODULUS,
    RUNAWAY_MARGIN,
    Answer,
    Ask,
    Baseline,
    Begin,
    Ended,
    HopperLogic,
    Now,
    Paid,
    PayoutFault,
    PayoutResult,
    Step,
    Stray,
    Unexplained,
    Wait,
)

__all__ = ["LIFETIME_MODULUS", "RUNAWAY_MARGIN", "Hopper", "PayoutFault", "PayoutResult"]

T = TypeVar("T")


class Hopper:
    """One serial hopper on a ccTalk bus: ``HopperLogic``'s procedures, run on the bus."""

    def __init__(
        self,
        bus: CctalkBus,
        address: int = 3,
        *,
        security: str = "serial",
        poll_interval: float = 0.1,
        comms_timeout: float = 3.0,
        stall_timeout: float = 10.0,
    ) -> None:
        self.bus = bus
        self.address = address
        self.logic = HopperLogic(
            address, security=security, poll_interval=poll_interval, comms_timeout=comms_timeout,
            stall_timeout=stall_timeout, retries=bus.retries, link=bus.link,
        )
        self.info: DeviceInfo | None = None
        # Other work for the bus while a procedure waits between two of its polls (the cabinet
        # reads its coin acceptors' buffers during a long payout: a coin pushed into an
        # inhibited acceptor is still an event of its five-event buffer). Its time is taken
        # from the wait; it must raise nothing but TransportError (a lost link: the procedure
        # then ends as a cut one does, reconciled from the count).
        self.between_polls: Callable[[], None] | None = None

    @property
    def serial(self) -> int | None:
        """The serial number read at start-up (the security code of a dispense)."""
        return self.logic.serial

    @serial.setter
    def serial(self, value: int | None) -> None:
        self.logic.serial = value

    @property
    def lifetime_seen(self) -> int | None:
        """168 when the hopper was last known idle."""
        return self.logic.lifetime_seen

    @lifetime_seen.setter
    def lifetime_seen(self, value: int | None) -> None:
        self.logic.lifetime_seen = value

    def run(self, procedure: Generator[Step, object, T], ledger: PayoutLedger | None = None) -> T:
        """Carry out ``procedure`` on the bus: its requests sent, its waits waited, its ledger
        events made durable through ``ledger`` in order. Returns what the procedure returns."""
        answer: object = None
        try:
            while True:
                step = procedure.send(answer)
                answer = self._do(step, ledger)
        except StopIteration as done:
            return done.value

    def _do(self, step: Step, ledger: PayoutLedger | None) -> object:
        if isinstance(step, Ask):
            try:
                return Answer(self.bus.request(self.address, step.header, step.data, retries=step.retries))
            except CctalkError as exc:
                return Answer(error=exc)
        if isinstance(step, Wait):
            until = self.bus.clock() + step.seconds
            if self.between_polls is not None:
                self.between_polls()
            if (left := until - self.bus.clock()) > 0:
                self.bus.wait(left)
            return max(0.0, -left)  # the other devices' polls beyond the wait
        if isinstance(step, Now):
            return self.bus.clock()
        if ledger is None:
            raise RuntimeError(f"{step} needs a payout ledger")
        if isinstance(step, Begin):
            ledger.begin_payout(step.requested)
        elif isinstance(step, Baseline):
            ledger.payout_baseline(step.lifetime, step.counter, step.serial)
        elif isinstance(step, Paid):
            ledger.coins_paid(step.count)
        elif isinstance(step, Ended):
            ledger.end_payout(step.paid, step.unpaid, step.fault)
        elif isinstance(step, Stray):
            ledger.stray_coins(step.count, step.fault)
        elif isinstance(step, Unexplained):
            ledger.payout_unexplained(step.before, step.now, step.serial_before, step.serial)
        return None

    # -- commands ------------------------------------------------------------------------------

    def start(self) -> DeviceInfo:
        """Identify the hopper, read its serial number and lifetime count."""
        self.info = self.bus.identify(self.address, CATEGORY_PAYOUT)
        self.logic.serial = self.info.serial
        self.logic.lifetime_seen = self.dispense_count()
        return self.info

    def status(self) -> HopperStatus:
        return self.run(self.logic.status())

    def flags(self) -> HopperFlags:
        return self.run(self.logic.flags())

    def dispense_count(self) -> int:
        return self.run(self.logic.dispense_count())

    def enable(self, on: bool = True) -> None:
        self.run(self.logic.enable(on))

    def emergency_stop(self) -> int:
        """Stop at once; returns the coins the hopper says it did not pay."""
        return self.run(self.logic.emergency_stop())

    def clear_faults(self) -> None:
        """Software reset: clears latched flags (after the fault is dealt with). Disables."""
        self.run(self.logic.clear_faults())

    def security_bytes(self, coins: int) -> bytes:
        """167 data for ``coins`` in the configured mode (may ask the hopper for a cipher key)."""
        return self.run(self.logic.security_bytes(coins))

    # -- the procedures --------------------------------------------------------------------------

    def payout(self, coins: int, ledger: PayoutLedger) -> PayoutResult:
        """Pay ``coins`` (1..255) following the procedure in the module docstring."""
        return self.run(self.logic.payout(coins), ledger)

    def reconcile(self, pending: PendingPayout, ledger: PayoutLedger) -> PayoutResult:
        """Close a payout left pending (power cut, lost contact) from the hopper's counters.
        Raises ``CctalkError`` if the hopper does not answer (the record stays pending)."""
        return self.run(self.logic.reconcile(pending), ledger)

    def explained_rise(self, pending: PendingPayout, lifetime: int) -> int | None:
        return self.logic.explained_rise(pending, lifetime)

    def lifetime_now(self, *, settle: bool = False) -> int:
        """Read 168: the count the ledger is now told of, and ``check_idle``'s new reference
        (``settle``: stop a motor still running at start-up first)."""
        return self.run(self.logic.lifetime_now(settle))

    def check_idle(self, ledger: PayoutLedger) -> int:
        """Between payouts: coins out since the last look mean a runaway; stop and report them."""
        return self.run(self.logic.check_idle(), ledger)
