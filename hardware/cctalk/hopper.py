"""The hopper driver and the payout procedure that never pays a coin twice or loses one.

Owns: hopper commands (enable 164, dispense 167 in serial-number or "no encryption" mode,
status 166, flags 163, lifetime count 168, emergency stop 172, reset), the payout procedure of
``hardware.md``, reconciliation of a payout interrupted by a power cut, and runaway detection
while idle. Reports money only through the injected ``PayoutLedger``; never knows meters,
seats or the game, never reads the clock except the bus's.

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

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from hardware.cctalk.headers import (
    CATEGORY_PAYOUT,
    ENABLE_CODE,
    Header,
    HopperFlags,
    HopperStatus,
    decode_uint,
    dispense_with_serial,
    dispense_without_encryption,
    next_counter,
)
from hardware.cctalk.host import CctalkBus, CctalkError, DeviceInfo, NoReply
from hardware.cctalk.ledger import PayoutLedger, PendingPayout

LIFETIME_MODULUS = 1 << 24


class PayoutFault:
    """Names of payout faults (strings, so a ledger can store them as they are)."""

    EMPTY = "empty"
    JAM = "jam"
    FRAUD = "fraud"
    POWER_CUT = "power cut"
    EXTRA_COIN = "extra coin"
    RUNAWAY = "runaway"
    NO_REPLY = "no reply"
    REFUSED = "refused"
    SECURITY = "security"
    HOPPER_FAULT = "hopper fault"
    COUNT_MISMATCH = "count mismatch"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class PayoutResult:
    """How a payout ended. ``resolved=False``: still pending, call ``reconcile`` later."""

    requested: int
    paid: int
    unpaid: int
    fault: str | None
    resolved: bool = True
    detail: str = ""


class Hopper:
    """One serial hopper on a ccTalk bus."""

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
        if security not in ("serial", "none"):
            raise ValueError(f"security mode is 'serial' or 'none', not {security!r}")
        self.bus = bus
        self.address = address
        self.security = security
        self.poll_interval = poll_interval
        self.comms_timeout = comms_timeout
        self.stall_timeout = stall_timeout
        self.serial: int | None = None
        self.lifetime_seen: int | None = None  # 168 when the hopper was last known idle
        self.info: DeviceInfo | None = None

    # -- commands ------------------------------------------------------------------------------

    def start(self) -> DeviceInfo:
        """Identify the hopper, read its serial number and lifetime count."""
        self.info = self.bus.identify(self.address, CATEGORY_PAYOUT)
        self.serial = self.info.serial
        self.lifetime_seen = self.dispense_count()
        return self.info

    def status(self) -> HopperStatus:
        return HopperStatus.decode(self.bus.data(self.address, Header.HOPPER_STATUS))

    def flags(self) -> HopperFlags:
        return HopperFlags.decode(self.bus.data(self.address, Header.TEST_HOPPER))

    def dispense_count(self) -> int:
        return decode_uint(self.bus.data(self.address, Header.DISPENSE_COUNT))

    def enable(self, on: bool = True) -> None:
        self.bus.command(self.address, Header.ENABLE_HOPPER, bytes((ENABLE_CODE if on else 0,)))

    def emergency_stop(self) -> int:
        """Stop at once; returns the coins the hopper says it did not pay."""
        return self.bus.data(self.address, Header.EMERGENCY_STOP)[0]

    def clear_faults(self) -> None:
        """Software reset: clears latched flags (after the fault is dealt with). Disables."""
        self.bus.command(self.address, Header.RESET_DEVICE)

    def security_bytes(self, coins: int) -> bytes:
        """167 data for ``coins`` in the configured mode (may ask the hopper for a cipher key)."""
        if self.security == "serial":
            if self.serial is None:
                self.serial = decode_uint(self.bus.data(self.address, Header.SERIAL_NUMBER))
            return dispense_with_serial(self.serial, coins)
        key = self.bus.data(self.address, Header.CIPHER_KEY)
        return dispense_without_encryption(key, coins)

    # -- the payout ----------------------------------------------------------------------------

    def payout(self, coins: int, ledger: PayoutLedger) -> PayoutResult:
        """Pay ``coins`` (1..255) following the procedure in the module docstring."""
        if not 1 <= coins <= 255:
            raise ValueError(f"a payout is 1 to 255 coins, not {coins}")
        ledger.begin_payout(coins)
        try:
            before = self.status()
            lifetime0 = self.dispense_count()
            flags = self.flags()
        except CctalkError as exc:
            return self._close(ledger, coins, 0, PayoutFault.NO_REPLY, str(exc))
        if flags.blocking:
            fault = flags.fault_name() or PayoutFault.HOPPER_FAULT
            return self._close(ledger, coins, 0, fault, ", ".join(flags.blocking))
        if before.remaining:
            return self._close(ledger, coins, 0, PayoutFault.HOPPER_FAULT, "hopper busy")
        ledger.payout_baseline(lifetime0, before.counter)
        pending = PendingPayout(coins, 0, lifetime0, before.counter)
        try:
            self.enable(True)
            data = self.security_bytes(coins)
        except CctalkError as exc:  # nothing can have been paid: no dispense was sent
            return self._close(ledger, coins, 0, PayoutFault.NO_REPLY, str(exc))
        outcome, counter = self._dispense(data, before, lifetime0)
        if outcome == "refused":
            try:
                why = self.flags()
                fault, detail = why.fault_name() or PayoutFault.REFUSED, ", ".join(why.active)
            except CctalkError:
                fault, detail = PayoutFault.REFUSED, "NAK"
            return self._close(ledger, coins, 0, fault, detail)
        if outcome == "not sent":
            return self._close(ledger, coins, 0, PayoutFault.NO_REPLY, "dispense not taken")
        if outcome == "unknown":
            return PayoutResult(
                coins, 0, coins, PayoutFault.NO_REPLY, False, "dispense unconfirmed"
            )
        return self._follow(pending, counter, ledger)

    def _dispense(self, data: bytes, before: HopperStatus, lifetime0: int) -> tuple[str, int]:
        """Send 167 (resending only if 166/168 show it was not taken): outcome and counter."""
        expected = next_counter(before.counter)
        for _ in range(1 + self.bus.retries):
            try:
                reply = self.bus.request(self.address, Header.DISPENSE, data, retries=0)
            except NoReply:
                reply = None
            if reply is not None:
                if reply.is_nak:
                    return "refused", 0
                return "accepted", reply.data[0] if reply.data else expected
            try:
                st = self.status()
                moved = st.counter != before.counter or self.dispense_count() != lifetime0
            except CctalkError:
                return "unknown", 0
            if moved:
                return "accepted", st.counter
        return "not sent", 0

    def _follow(self, pending: PendingPayout, counter: int, ledger: PayoutLedger) -> PayoutResult:
        """Poll 166 until the payout is over, reporting each paid coin; then account for it."""
        clock = self.bus.clock
        credited = pending.credited
        last_ok = last_progress = clock()
        stopped = False
        other_counter: int | None = None  # 166's counter while it answers about another payout
        while True:
            self.bus.wait(self.poll_interval)
            try:
                st = self.status()
            except CctalkError:
                st = None
            if st is not None and st.counter == 0 and counter != 0:
                # the hopper reset (lost power) part way: its counters tell the rest
                current = PendingPayout(
                    pending.requested, credited, pending.lifetime_before, pending.counter_before
                )
                return self.reconcile(current, ledger)
            if st is not None and st.paid + st.remaining > pending.requested + 1:
                st = None  # not a status this payout can have (a damaged reply): ask again
            if st is None or st.counter != counter:  # no answer, or not about this payout
                other_counter = None if st is None else st.counter
                if clock() - last_ok > self.comms_timeout:
                    return self._lost_track(pending, credited, counter, other_counter)
                continue
            last_ok = clock()
            if st.paid > credited:
                ledger.coins_paid(st.paid - credited)
                credited = st.paid
                last_progress = clock()
            if st.remaining == 0:
                break
            if not stopped and clock() - last_progress > self.stall_timeout:
                self._try(self.emergency_stop)
                stopped = True
        return self._account(pending, credited, ledger)

    def _lost_track(
        self, pending: PendingPayout, credited: int, counter: int, other: int | None
    ) -> PayoutResult:
        """No status about this payout for ``comms_timeout``: left pending, saying why."""
        if other is None:
            fault, detail = PayoutFault.NO_REPLY, "hopper stopped answering during the payout"
        else:  # it answers, but its 166 counter is not the one its own 167 reply gave
            fault = PayoutFault.COUNT_MISMATCH
            detail = (
                f"hopper's 166 event counter is {other}, its 167 reply said {counter}:"
                " the status does not follow the dispense"
            )
        unpaid = pending.requested - credited
        return PayoutResult(pending.requested, credited, unpaid, fault, False, detail)

    def _account(self, pending: PendingPayout, credited: int, ledger: PayoutLedger) -> PayoutResult:
        """The payout is over: compare with 168, name any fault, close the ledger record."""
        assert pending.lifetime_before is not None
        try:
            lifetime = self.dispense_count()
            flags = self.flags()
            out = (lifetime - pending.lifetime_before) % LIFETIME_MODULUS
            if out > credited:  # coins 166 never reported: the motor ran on
                lifetime = self._stop_runaway(lifetime)
        except CctalkError as exc:  # left pending: reconcile() finishes it
            unpaid = pending.requested - credited
            return PayoutResult(
                pending.requested, credited, unpaid, PayoutFault.NO_REPLY, False, str(exc)
            )
        fault: str | None = None
        if out > credited:
            out = (lifetime - pending.lifetime_before) % LIFETIME_MODULUS
            ledger.coins_paid(out - credited)
            credited = out
            fault = PayoutFault.RUNAWAY
        elif out < credited:
            fault = PayoutFault.COUNT_MISMATCH
        if fault is None and credited > pending.requested:
            fault = PayoutFault.EXTRA_COIN
        unpaid = max(0, pending.requested - credited)
        if fault is None and unpaid:
            fault = flags.fault_name() or PayoutFault.UNKNOWN
        self.lifetime_seen = lifetime
        self._try(lambda: self.enable(False))
        return self._close(ledger, pending.requested, credited, fault, ", ".join(flags.active))

    def _close(
        self, ledger: PayoutLedger, requested: int, paid: int, fault: str | None, detail: str = ""
    ) -> PayoutResult:
        unpaid = max(0, requested - paid)
        ledger.end_payout(paid, unpaid, fault)
        return PayoutResult(requested, paid, unpaid, fault, True, detail)

    def _stop_runaway(self, lifetime: int) -> int:
        """Emergency stop, then wait until 168 stands still; returns its final value."""
        self._try(self.emergency_stop)
        for _ in range(50):
            self.bus.wait(max(self.poll_interval, 0.15))
            now = self.dispense_count()
            if now == lifetime:
                break
            lifetime = now
        return lifetime

    def _try(self, action: Callable[[], object]) -> None:
        """A best-effort command (stop, disable): failing it changes nothing in the books."""
        with contextlib.suppress(CctalkError):
            action()

    # -- after a power cut, and while idle ------------------------------------------------------

    def reconcile(self, pending: PendingPayout, ledger: PayoutLedger) -> PayoutResult:
        """Close a payout left pending (power cut, lost contact) from the hopper's counters.

        Waits for a payout the hopper may still be making, then takes 168's rise since the
        baseline as the coins that left, reports those not yet reported, and names the fault.
        Raises ``CctalkError`` if the hopper does not answer (the record stays pending).
        """
        if pending.lifetime_before is None:  # the dispense was never sent
            paid = pending.credited
            fault = PayoutFault.POWER_CUT if pending.requested > paid else None
            return self._close(ledger, pending.requested, paid, fault)
        clock = self.bus.clock
        st = self.status()
        last, last_progress = st.paid, clock()
        while st.remaining > 0:
            self.bus.wait(self.poll_interval)
            st = self.status()
            if st.paid != last:
                last, last_progress = st.paid, clock()
            elif clock() - last_progress > self.stall_timeout:
                self._try(self.emergency_stop)
        lifetime = self.dispense_count()
        flags = self.flags()
        out = (lifetime - pending.lifetime_before) % LIFETIME_MODULUS
        credited = pending.credited
        if out > credited:
            ledger.coins_paid(out - credited)
            credited = out
        unpaid = max(0, pending.requested - credited)
        fault = None
        if credited > pending.requested:
            fault = PayoutFault.EXTRA_COIN
        elif unpaid:
            fault = flags.fault_name() or PayoutFault.POWER_CUT
        if flags.power_down_during_payout:
            self.clear_faults()  # accounted for: the latch must go before the next payout
        self.lifetime_seen = lifetime
        self._try(lambda: self.enable(False))
        return self._close(ledger, pending.requested, credited, fault, ", ".join(flags.active))

    def lifetime_now(self, *, settle: bool = False) -> int:
        """Read 168: the count the ledger is now told of, and ``check_idle``'s new reference.

        ``settle`` (at start-up: a motor may have run on while the host was down): read it
        twice a poll apart and, if it moved, stop the motor and wait until it stands still.
        """
        lifetime = self.dispense_count()
        if settle:
            self.bus.wait(max(self.poll_interval, 0.15))
            now = self.dispense_count()
            if now != lifetime:
                lifetime = self._stop_runaway(now)
        self.lifetime_seen = lifetime
        return lifetime

    def check_idle(self, ledger: PayoutLedger) -> int:
        """Between payouts: coins out since the last look mean a runaway; stop and report them."""
        lifetime = self.dispense_count()
        if self.lifetime_seen is None:
            self.lifetime_seen = lifetime
            return 0
        if lifetime == self.lifetime_seen:
            return 0
        lifetime = self._stop_runaway(lifetime)
        stray = (lifetime - self.lifetime_seen) % LIFETIME_MODULUS
        self.lifetime_seen = lifetime
        ledger.stray_coins(stray, PayoutFault.RUNAWAY)
        return stray
