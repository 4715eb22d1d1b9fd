"""The hopper's procedures without I/O: its replies in, requests, waits and ledger events out.

Owns: the payout procedure of ``hardware.md`` (see ``hopper.py`` for the steps in order), the
reconcile of a payout left pending, the settling of the lifetime count and runaway detection
while idle, each written as a generator over ``HopperLogic``: it yields what it needs done
(``Ask`` a request of the hopper, ``Wait``, ``Now`` for the time, a ledger event) and is sent
what came of it (an ``Answer`` with the reply or the ``CctalkError`` a request ended in, or the
time). It never opens a port, never sleeps, never reads the clock and never calls a ledger
itself: ``Hopper`` in ``hopper.py`` is the thin driver that runs a procedure on a bus and hands
its ledger events to the ledger in order, and a test can run one against scripted replies.

Theory of operation
-------------------
A procedure is a coroutine. ``data`` and ``command`` below stand for one request: they yield an
``Ask`` and turn its ``Answer`` into the reply's data, or raise the error inside the procedure,
where the payout's rules catch it exactly where the blocking code did. The lifetime count is
believed only when two readings in a row agree (a replayed or damaged reply that passes its
checksum could otherwise move the books; the acceptor confirms its news the same way). Ledger events are
facts the owner must make durable before the procedure goes on (the driver calls the ledger
before it sends the next answer), so a power cut between any two steps finds the books as the
procedure left them. ``LIFETIME_MODULUS`` and the rules of an explained rise live here.
"""

from __future__ import annotations

import contextlib
from collections.abc import Generator
from dataclasses import dataclass

from hardware.cctalk.headers import (
    ENABLE_CODE,
    Header,
    HopperFlags,
    HopperStatus,
    decode_uint,
    dispense_with_serial,
    dispense_without_encryption,
    next_counter,
)
from hardware.cctalk.host import CctalkError, NoReply, Refused, Reply
from hardware.cctalk.ledger import PendingPayout

LIFETIME_MODULUS = 1 << 24
# The most coins a runaway motor pushes out beyond a payout before the emergency stop holds it
# (a fast hopper, about 12 coins/s, for the few seconds it takes to see and stop it): a rise of
# 168 past the coins asked plus this is no payout's, whatever the hopper says.
RUNAWAY_MARGIN = 50
CONFIRM_READS = 3  # further readings of 168 to find two in a row that agree


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
    UNEXPLAINED = "count unexplained"  # another hopper, or a count no payout explains: the attendant's
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


# -- what a procedure yields -----------------------------------------------------------------


@dataclass(frozen=True)
class Ask:
    """Send the hopper ``header`` with ``data`` (``retries``: None for the bus's own)."""

    header: int
    data: bytes = b""
    retries: int | None = None


@dataclass(frozen=True)
class Wait:
    """Let ``seconds`` pass (what arrives meanwhile is thrown away). Answered with the seconds the
    bus spent on other devices beyond ``seconds`` (0.0 mostly): time the hopper was not asked."""

    seconds: float


@dataclass(frozen=True)
class Now:
    """The time, please (answered with a float)."""


@dataclass(frozen=True)
class Begin:
    requested: int


@dataclass(frozen=True)
class Baseline:
    lifetime: int
    counter: int
    serial: int | None


@dataclass(frozen=True)
class Paid:
    count: int


@dataclass(frozen=True)
class Ended:
    paid: int
    unpaid: int
    fault: str | None


@dataclass(frozen=True)
class Stray:
    count: int
    fault: str


@dataclass(frozen=True)
class Unexplained:
    before: int
    now: int
    serial_before: int | None
    serial: int | None


LedgerEvent = Begin | Baseline | Paid | Ended | Stray | Unexplained
Step = Ask | Wait | Now | LedgerEvent


@dataclass(frozen=True)
class Answer:
    """What became of an ``Ask``: the reply, or the error the request ended in."""

    reply: Reply | None = None
    error: CctalkError | None = None


class HopperLogic:
    """One hopper's settings and what the host knows of it, with its procedures. Pure."""

    def __init__(
        self,
        address: int,
        *,
        security: str = "serial",
        poll_interval: float = 0.1,
        comms_timeout: float = 3.0,
        stall_timeout: float = 10.0,
        retries: int = 3,
        link: str = "ccTalk",
    ) -> None:
        if security not in ("serial", "none"):
            raise ValueError(f"security mode is 'serial' or 'none', not {security!r}")
        self.address = address
        self.security = security
        self.poll_interval = poll_interval
        self.comms_timeout = comms_timeout
        self.stall_timeout = stall_timeout
        self.retries = retries  # the bus's resends: how often an unconfirmed dispense is tried
        self.link = link
        self.serial: int | None = None
        self.lifetime_seen: int | None = None  # 168 when the hopper was last known idle

    # -- one request ---------------------------------------------------------------------------

    def request(self, header: int, data: bytes = b"", retries: int | None = None) -> Generator[Step, object, Reply]:
        answer = yield Ask(header, data, retries)
        assert isinstance(answer, Answer)
        if answer.error is not None:
            raise answer.error
        assert answer.reply is not None
        return answer.reply

    def data(self, header: int, data: bytes = b"") -> Generator[Step, object, bytes]:
        reply = yield from self.request(header, data)
        if reply.is_nak:
            raise Refused(self.link, self.address, f"NAK to header {header}")
        return reply.data

    def command(self, header: int, data: bytes = b"") -> Generator[Step, object, None]:
        reply = yield from self.request(header, data)
        if not reply.is_ack:
            what = "NAK" if reply.is_nak else f"data {list(reply.data)}"
            raise Refused(self.link, self.address, f"{what} to header {header}, expected ACK")

    def now(self) -> Generator[Step, object, float]:
        t = yield Now()
        assert isinstance(t, float | int)
        return float(t)

    def status(self) -> Generator[Step, object, HopperStatus]:
        return HopperStatus.decode((yield from self.data(Header.HOPPER_STATUS)))

    def flags(self) -> Generator[Step, object, HopperFlags]:
        return HopperFlags.decode((yield from self.data(Header.TEST_HOPPER)))

    def dispense_count(self) -> Generator[Step, object, int]:
        """168, believed only when two readings in a row agree: a damaged or replayed reply
        that passes its checksum cannot move the count the books are kept against."""
        first = decode_uint((yield from self.data(Header.DISPENSE_COUNT)))
        for _ in range(CONFIRM_READS):
            again = decode_uint((yield from self.data(Header.DISPENSE_COUNT)))
            if again == first:
                return first
            first = again
        raise NoReply(self.link, self.address, f"168 readings do not agree after {CONFIRM_READS + 1} tries")

    def enable(self, on: bool = True) -> Generator[Step, object, None]:
        yield from self.command(Header.ENABLE_HOPPER, bytes((ENABLE_CODE if on else 0,)))

    def emergency_stop(self) -> Generator[Step, object, int]:
        return (yield from self.data(Header.EMERGENCY_STOP))[0]

    def clear_faults(self) -> Generator[Step, object, None]:
        yield from self.command(Header.RESET_DEVICE)

    def attempt(self, step: Generator[Step, object, object]) -> Generator[Step, object, None]:
        """A best-effort command (stop, disable): failing it changes nothing in the books."""
        with contextlib.suppress(CctalkError):
            yield from step

    def security_bytes(self, coins: int) -> Generator[Step, object, bytes]:
        """167 data for ``coins`` in the configured mode (may ask the hopper for a cipher key)."""
        if self.security == "serial":
            if self.serial is None:
                self.serial = decode_uint((yield from self.data(Header.SERIAL_NUMBER)))
            return dispense_with_serial(self.serial, coins)
        key = yield from self.data(Header.CIPHER_KEY)
        return dispense_without_encryption(key, coins)

    # -- the payout ----------------------------------------------------------------------------

    def payout(self, coins: int) -> Generator[Step, object, PayoutResult]:
        """Pay ``coins`` (1..255) following the procedure in ``hopper.py``'s docstring."""
        if not 1 <= coins <= 255:
            raise ValueError(f"a payout is 1 to 255 coins, not {coins}")
        yield Begin(coins)
        try:
            before = yield from self.status()
            lifetime0 = yield from self.dispense_count()
            flags = yield from self.flags()
        except CctalkError as exc:
            return (yield from self.close(coins, 0, PayoutFault.NO_REPLY, str(exc)))
        if flags.blocking:
            fault = flags.fault_name() or PayoutFault.HOPPER_FAULT
            return (yield from self.close(coins, 0, fault, ", ".join(flags.blocking)))
        if before.remaining:
            return (yield from self.close(coins, 0, PayoutFault.HOPPER_FAULT, "hopper busy"))
        yield Baseline(lifetime0, before.counter, self.serial)
        pending = PendingPayout(coins, 0, lifetime0, before.counter, self.serial)
        try:
            yield from self.enable(True)
            data = yield from self.security_bytes(coins)
        except CctalkError as exc:  # nothing can have been paid: no dispense was sent
            return (yield from self.close(coins, 0, PayoutFault.NO_REPLY, str(exc)))
        outcome, counter = yield from self.dispense(data, before, lifetime0)
        if outcome == "refused":
            try:
                why = yield from self.flags()
                fault, detail = why.fault_name() or PayoutFault.REFUSED, ", ".join(why.active)
            except CctalkError:
                fault, detail = PayoutFault.REFUSED, "NAK"
            return (yield from self.close(coins, 0, fault, detail))
        if outcome == "not sent":
            return (yield from self.close(coins, 0, PayoutFault.NO_REPLY, "dispense not taken"))
        if outcome == "unknown":
            return PayoutResult(coins, 0, coins, PayoutFault.NO_REPLY, False, "dispense unconfirmed")
        return (yield from self.follow(pending, counter))

    def dispense(self, data: bytes, before: HopperStatus, lifetime0: int) -> Generator[Step, object, tuple[str, int]]:
        """Send 167 (resending only if 166/168 show it was not taken): outcome and counter."""
        expected = next_counter(before.counter)
        for _ in range(1 + self.retries):
            reply: Reply | None
            try:
                reply = yield from self.request(Header.DISPENSE, data, retries=0)
            except NoReply:
                reply = None
            if reply is not None:
                if reply.is_nak:
                    return "refused", 0
                return "accepted", reply.data[0] if reply.data else expected
            try:
                st = yield from self.status()
                moved = st.counter != before.counter or (yield from self.dispense_count()) != lifetime0
            except CctalkError:
                return "unknown", 0
            if moved:
                return "accepted", st.counter
        return "not sent", 0

    def follow(self, pending: PendingPayout, counter: int) -> Generator[Step, object, PayoutResult]:
        """Poll 166 until the payout is over, reporting each paid coin; then account for it."""
        credited = pending.credited
        last_ok = last_progress = yield from self.now()
        stopped = False
        other_counter: int | None = None  # 166's counter while it answers about another payout
        while True:
            away = yield Wait(self.poll_interval)
            if isinstance(away, float):  # the bus was polling other devices: not the hopper's silence
                last_ok += away
            st: HopperStatus | None
            try:
                st = yield from self.status()
            except CctalkError:
                st = None
            if st is not None and st.counter == 0 and counter != 0:
                # the hopper reset (lost power) part way: its counters tell the rest
                current = PendingPayout(
                    pending.requested, credited, pending.lifetime_before, pending.counter_before, pending.serial
                )
                return (yield from self.reconcile(current))
            if st is not None and st.paid + st.remaining > pending.requested + 1:
                st = None  # not a status this payout can have (a damaged reply): ask again
            now = yield from self.now()
            if st is None or st.counter != counter:  # no answer, or not about this payout
                other_counter = None if st is None else st.counter
                if now - last_ok > self.comms_timeout:
                    return self.lost_track(pending, credited, counter, other_counter)
                continue
            last_ok = now
            if st.paid > credited:
                yield Paid(st.paid - credited)
                credited = st.paid
                last_progress = now
            if st.remaining == 0:
                break
            if not stopped and now - last_progress > self.stall_timeout:
                yield from self.attempt(self.emergency_stop())
                stopped = True
        return (yield from self.account(pending, credited))

    def lost_track(self, pending: PendingPayout, credited: int, counter: int, other: int | None) -> PayoutResult:
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

    def account(self, pending: PendingPayout, credited: int) -> Generator[Step, object, PayoutResult]:
        """The payout is over: compare with 168, name any fault, close the ledger record."""
        assert pending.lifetime_before is not None
        try:
            lifetime = yield from self.dispense_count()
            flags = yield from self.flags()
            rise = self.explained_rise(pending, lifetime)
            if rise is None:
                return (yield from self.unexplained(pending, credited, lifetime))
            out = rise
            if out > credited:  # coins 166 never reported: the motor ran on
                lifetime = yield from self.stop_runaway(lifetime)
        except CctalkError as exc:  # left pending: reconcile() finishes it
            unpaid = pending.requested - credited
            return PayoutResult(pending.requested, credited, unpaid, PayoutFault.NO_REPLY, False, str(exc))
        fault: str | None = None
        if out > credited:
            rise = self.explained_rise(pending, lifetime)
            if rise is None:  # it ran on past anything a payout explains: the attendant's
                return (yield from self.unexplained(pending, credited, lifetime))
            out = rise
            yield Paid(out - credited)
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
        yield from self.attempt(self.enable(False))
        return (yield from self.close(pending.requested, credited, fault, ", ".join(flags.active)))

    def explained_rise(self, pending: PendingPayout, lifetime: int) -> int | None:
        """The coins 168 says left since ``pending``'s baseline, or None when the count cannot be
        this payout's: another hopper (its serial number is not the baseline's), or a rise no
        payout of ``requested`` coins explains (more than asked plus ``RUNAWAY_MARGIN``). A count
        that went back is such a rise (about 2^24): it is never taken for a wrap."""
        assert pending.lifetime_before is not None
        if pending.serial is not None and self.serial is not None and pending.serial != self.serial:
            return None
        rise = (lifetime - pending.lifetime_before) % LIFETIME_MODULUS
        return rise if rise <= pending.requested + RUNAWAY_MARGIN else None

    def unexplained(self, pending: PendingPayout, credited: int, lifetime: int) -> Generator[Step, object, PayoutResult]:
        """Nothing more is paid on trust: the ledger asks the attendant with both counts, and the
        payout closes with what the hopper reported coin by coin (``credited``)."""
        assert pending.lifetime_before is not None
        yield Unexplained(pending.lifetime_before, lifetime, pending.serial, self.serial)
        self.lifetime_seen = lifetime
        yield from self.attempt(self.enable(False))
        detail = (
            f"hopper count {lifetime} (serial {self.serial}), the payout began at {pending.lifetime_before}"
            f" (serial {pending.serial})"
        )
        return (yield from self.close(pending.requested, credited, PayoutFault.UNEXPLAINED, detail))

    def close(self, requested: int, paid: int, fault: str | None, detail: str = "") -> Generator[Step, object, PayoutResult]:
        unpaid = max(0, requested - paid)
        yield Ended(paid, unpaid, fault)
        return PayoutResult(requested, paid, unpaid, fault, True, detail)

    def stop_runaway(self, lifetime: int) -> Generator[Step, object, int]:
        """Emergency stop, then wait until 168 stands still; returns its final value."""
        yield from self.attempt(self.emergency_stop())
        for _ in range(50):
            yield Wait(max(self.poll_interval, 0.15))
            now = yield from self.dispense_count()
            if now == lifetime:
                break
            lifetime = now
        return lifetime

    # -- after a power cut, and while idle ------------------------------------------------------

    def reconcile(self, pending: PendingPayout) -> Generator[Step, object, PayoutResult]:
        """Close a payout left pending (power cut, lost contact) from the hopper's counters.

        Waits for a payout the hopper may still be making, then takes 168's rise since the
        baseline as the coins that left, if this hopper's count can explain them, reports those
        not yet reported, and names the fault. Raises ``CctalkError`` if the hopper does not
        answer (the record stays pending).
        """
        if pending.lifetime_before is None:  # the dispense was never sent
            paid = pending.credited
            fault = PayoutFault.POWER_CUT if pending.requested > paid else None
            return (yield from self.close(pending.requested, paid, fault))
        st = yield from self.status()
        last, last_progress = st.paid, (yield from self.now())
        while st.remaining > 0:
            yield Wait(self.poll_interval)
            st = yield from self.status()
            now = yield from self.now()
            if st.paid != last:
                last, last_progress = st.paid, now
            elif now - last_progress > self.stall_timeout:
                yield from self.attempt(self.emergency_stop())
        lifetime = yield from self.dispense_count()
        flags = yield from self.flags()
        rise = self.explained_rise(pending, lifetime)
        if rise is None:  # another hopper, or a count that cannot be this payout's
            if flags.power_down_during_payout:
                yield from self.clear_faults()
            return (yield from self.unexplained(pending, pending.credited, lifetime))
        credited = pending.credited
        if rise > credited:
            yield Paid(rise - credited)
            credited = rise
        unpaid = max(0, pending.requested - credited)
        fault = None
        if credited > pending.requested:
            fault = PayoutFault.EXTRA_COIN
        elif unpaid:
            fault = flags.fault_name() or PayoutFault.POWER_CUT
        if flags.power_down_during_payout:
            yield from self.clear_faults()  # accounted for: the latch must go before the next payout
        self.lifetime_seen = lifetime
        yield from self.attempt(self.enable(False))
        return (yield from self.close(pending.requested, credited, fault, ", ".join(flags.active)))

    def lifetime_now(self, settle: bool = False) -> Generator[Step, object, int]:
        """Read 168: the count the ledger is now told of, and ``check_idle``'s new reference.

        ``settle`` (at start-up: a motor may have run on while the host was down): read it
        twice a poll apart and, if it moved, stop the motor and wait until it stands still.
        """
        lifetime = yield from self.dispense_count()
        if settle:
            yield Wait(max(self.poll_interval, 0.15))
            now = yield from self.dispense_count()
            if now != lifetime:
                lifetime = yield from self.stop_runaway(now)
        self.lifetime_seen = lifetime
        return lifetime

    def check_idle(self) -> Generator[Step, object, int]:
        """Between payouts: coins out since the last look mean a runaway; stop and report them."""
        lifetime = yield from self.dispense_count()
        if self.lifetime_seen is None:
            self.lifetime_seen = lifetime
            return 0
        if lifetime == self.lifetime_seen:
            return 0
        lifetime = yield from self.stop_runaway(lifetime)
        stray = (lifetime - self.lifetime_seen) % LIFETIME_MODULUS
        self.lifetime_seen = lifetime
        yield Stray(stray, PayoutFault.RUNAWAY)
        return stray
