"""The host side against simulated devices over an in-memory link, in manual time.

The bytes are real ccTalk both ways; only the wire and the clock are virtual, so timeouts,
resends and whole payouts take no real time. Here are the host's own rules and what needs the
simulated devices' insides (their objects, the bytes sent); the device rules every transport
must keep (coins once, faults, payouts) are written once in test_device_rules.py and run in
memory, over a pty and against real devices.
"""

from __future__ import annotations

import random

import pytest

from hardware.cctalk.acceptor import (
    CoinAcceptor,
    CoinCredit,
    CoinError,
    CreditTracker,
)
from hardware.cctalk.codec import Checksum, Frame, FrameParser, Received, encode
from hardware.cctalk.headers import BufferedCredit, CoinEvent, Header, HopperStatus
from hardware.cctalk.hopper import Hopper, PayoutFault
from hardware.cctalk.host import (
    CctalkBus,
    Corrupt,
    HostProtocol,
    IdentificationError,
    NoReply,
    Reply,
    WrongLength,
)
from hardware.cctalk.ledger import MemoryLedger, PendingPayout
from hardware.cctalk.payout import Answer, Ask
from hardware.clock import ManualClock
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimHopper
from hardware.sim.virtual import VirtualTransport

VALUES = {"EU100A": 100, "EU200A": 200}


class PowerCut(Exception):
    """The cabinet lost power (raised by the clock at the chosen moment)."""


class CuttingClock(ManualClock):
    def __init__(self, start: float = 100.0) -> None:
        super().__init__(start)
        self.cut_at: float | None = None

    def __call__(self) -> float:
        now = super().__call__()
        if self.cut_at is not None and now >= self.cut_at:
            self.cut_at = None
            raise PowerCut(now)
        return now


class Rig:
    """An acceptor at 2 and a hopper at 3 on a virtual link, ~1 ms per byte."""

    def __init__(self, *, echo: bool = False, checksum: Checksum = Checksum.SUM8, **hopper: object):
        self.clock = CuttingClock()
        self.acc = SimCoinAcceptor(2, serial=12_345_678)
        options: dict = {"serial": 0x0A0B0C, "level": 500, "speed": 8.0, **hopper}
        self.hop = SimHopper(3, **options)
        devices = [self.acc, self.hop]
        self.sim = SimulatedBus(devices, echo=echo, checksum=checksum, rng=random.Random(5))
        self.echo, self.checksum = echo, checksum
        self.reboot()

    def reboot(self, transport_class: type = VirtualTransport) -> None:
        self.transport = transport_class(self.sim, self.clock, byte_time=0.001)
        self.bus = CctalkBus(
            self.transport, link="virtual", echo=self.echo, checksum=self.checksum, clock=self.clock
        )

    def faults(self, address: int):
        return self.sim.faults[address]

    def hopper(self, **kw) -> Hopper:
        h = Hopper(self.bus, 3, **kw)
        h.start()
        return h

    def acceptor(self) -> CoinAcceptor:
        a = CoinAcceptor(self.bus, 2, values=VALUES)
        a.start()
        a.set_accepting(True)
        return a

    def sent(self, header: int) -> int:
        """How many packets with ``header`` the host put on the wire."""
        events = FrameParser(self.checksum).feed(bytes(self.transport.written), 0.0)
        return sum(1 for e in events if isinstance(e, Received) and e.frame.header == header)


@pytest.fixture
def rig() -> Rig:
    return Rig()


# --- the sans-I/O exchange ---------------------------------------------------------------------


def b(text: str) -> bytes:
    return bytes(int(x) for x in text.split())


def test_host_protocol_makes_the_request_and_finds_the_reply_after_its_echo():
    host = HostProtocol(echo=True)
    assert host.send_request(2, 242) == b("2 0 1 242 11")
    assert host.receive_data(b("2 0 1 242"), 0.0) is None
    assert host.receive_data(b("11 1 3 2 0 78 97 188 143"), 0.001) == Reply(2, 0, b("78 97 188"))


def test_packets_that_are_not_the_reply_are_ignored():
    host = HostProtocol()
    host.send_request(2, 242)
    assert host.receive_data(b("2 0 1 242 11"), 0.0) is None  # an echo, unexpected
    assert host.receive_data(encode(Frame(1, 0, b("1 2 3"), src=3)), 0.0) is None  # wrong device
    assert host.receive_data(encode(Frame(1, 0, b("1 2"), src=2)), 0.0) is None  # too short for 242
    assert host.receive_data(b("1 0 2 5 248"), 0.0) == Reply(2, 5)  # NAK is a reply


def test_a_damaged_reply_ends_the_attempt_as_corrupt():
    host = HostProtocol()
    host.send_request(2, 242)
    result = host.receive_data(b("1 3 2 0 78 97 188 144"), 0.0)
    assert isinstance(result, Corrupt)


# --- the bus: timeouts, resends, echo, identification --------------------------------------------


def test_no_reply_after_a_try_and_three_resends_names_link_and_address(rig):
    rig.faults(3).noreply = True
    start = rig.clock()
    with pytest.raises(NoReply, match=r"^virtual: address 3: no reply to header 166 after 4 tries"):
        rig.bus.request(3, Header.HOPPER_STATUS)
    assert rig.bus.attempts == 4
    assert rig.clock() - start >= 4 * 0.2


def test_garbled_replies_are_resent_until_one_arrives_whole(rig):
    rig.faults(2).garble = 0.5
    rig.bus.retries = 12
    for _ in range(50):
        assert rig.bus.data(2, Header.SERIAL_NUMBER) == b("78 97 188")
    assert rig.bus.failed_attempts > 10


def test_late_replies_are_taken_and_never_answer_the_next_request(rig):
    rig.faults(3).late = 0.25  # beyond the 0.2 s timeout
    rig.hop.lifetime = 777
    for _ in range(5):
        assert rig.bus.data(3, Header.DISPENSE_COUNT) == (777).to_bytes(3, "little")
        assert rig.bus.data(3, Header.SERIAL_NUMBER) == b("12 11 10")  # also three bytes


@pytest.mark.parametrize("bus_echo, line_echo", [(True, True), (False, True), (True, False)])
def test_the_echo_setting_per_link(bus_echo, line_echo):
    rig = Rig(echo=line_echo)
    rig.bus.protocol.echo = bus_echo
    assert rig.bus.identify(2, "Coin Acceptor").serial == 12_345_678


def test_crc_link_identifies_and_pays():
    rig = Rig(checksum=Checksum.CRC16)
    hopper = rig.hopper()
    assert hopper.info.category == "Payout"
    assert hopper.payout(4, MemoryLedger()).paid == 4


def test_a_missing_device_is_a_startup_error_naming_link_and_address(rig):
    rig.bus.retries = 0
    with pytest.raises(IdentificationError, match=r"^virtual: address 4: no reply: expected"):
        rig.bus.identify(4, "Payout")


class ShortSerialAcceptor(SimCoinAcceptor):
    """Answers 242 with two bytes and 229 with twelve: well-formed packets of the wrong length."""

    def handle_own(self, header, data, now):
        if header == Header.READ_BUFFERED_CREDIT:
            return (Header.REPLY, bytes(12))
        return super().handle_own(header, data, now)

    def handle(self, header, data, now):
        if header == Header.SERIAL_NUMBER:
            return (Header.REPLY, b"\x01\x02")
        return super().handle(header, data, now)


@pytest.mark.parametrize(
    "header, said",
    [
        (Header.SERIAL_NUMBER, "reply of 2 bytes to header 242, expected 3 to 4"),
        (Header.READ_BUFFERED_CREDIT, "reply of 12 bytes to header 229, expected 11"),
    ],
)
def test_a_reply_of_the_wrong_length_is_named_as_such_not_as_no_reply(rig, header, said):
    rig.sim.devices[2] = ShortSerialAcceptor(2)
    with pytest.raises(WrongLength, match=f"^virtual: address 2: {said}") as caught:
        rig.bus.data(2, header)
    assert isinstance(caught.value, NoReply)  # callers resend and reconcile as for a lost reply
    rig.sim.devices[2] = rig.acc
    assert rig.bus.data(2, Header.SERIAL_NUMBER) == b("78 97 188")  # the next exchange is clean


# --- coin acceptor ----------------------------------------------------------------------------


def reading(counter: int, *events: tuple[int, int]) -> BufferedCredit:
    evs = [CoinEvent(*e) for e in events] + [CoinEvent(0, 0)] * 5
    return BufferedCredit(counter, tuple(evs[:5]))


def test_tracker_first_reading_is_the_baseline():
    tracker = CreditTracker()
    assert tracker.update(reading(17, (1, 0), (2, 0))).events == ()
    assert tracker.update(reading(18, (3, 0), (1, 0))).events == (CoinEvent(3, 0),)


def test_tracker_wraps_from_255_to_1():
    tracker = CreditTracker(254)
    update = tracker.update(reading(2, (2, 0), (1, 0), (3, 0), (4, 0)))
    assert update.events == (CoinEvent(3, 0), CoinEvent(1, 0), CoinEvent(2, 0))
    assert update.fault is None


def test_tracker_more_than_five_new_events_credits_none_of_them_and_is_a_fault():
    tracker = CreditTracker(48)
    update = tracker.update(reading(54, (1, 0), (1, 0), (2, 0), (1, 0), (2, 0)))
    assert update.events == () and update.fault == (48, 54, 6)
    assert tracker.update(reading(55, (2, 0), (1, 0))).events == (CoinEvent(2, 0),)  # from the new counter on


def test_tracker_a_counter_that_goes_back_credits_nothing_and_is_a_fault():
    """Issue 24, finding 4: an old valid reply (counter 7 after 13) is not 249 new events."""
    tracker = CreditTracker(13)
    update = tracker.update(reading(7, (1, 0), (2, 0), (1, 0), (1, 0), (2, 0)))
    assert update.events == () and update.fault == (13, 7, 249)
    assert tracker.update(reading(13, (1, 0), (2, 0), (1, 0), (1, 0), (2, 0))).events == ()  # the real one: 6 on


def test_tracker_counter_back_at_0_is_a_reset_and_counting_restarts():
    tracker = CreditTracker(67)
    assert tracker.update(reading(0)).reset
    assert tracker.update(reading(2, (2, 0), (1, 0))).events == (CoinEvent(1, 0), CoinEvent(2, 0))


def test_coins_arrive_exactly_once_through_many_counter_wraps(rig):
    acceptor = rig.acceptor()
    rng = random.Random(3)
    inserted = credited = 0
    while inserted < 700:
        n = rng.randint(0, 5)
        for _ in range(n):
            rig.acc.insert(rng.choice(["EU100A", "EU200A"]))
        inserted += n
        credited += sum(1 for e in acceptor.poll() if isinstance(e, CoinCredit))
    assert credited == inserted


def test_a_reset_before_the_first_event_is_noticed_at_the_first_inhibited_coin(rig):
    acceptor = rig.acceptor()
    rig.acc.power_off(rig.clock())
    rig.acc.power_on(rig.clock())
    assert acceptor.poll() == ()  # counter 0 before and after: nothing to see
    rig.acc.insert("EU100A")
    assert acceptor.poll() == (CoinError(2, 2, "inhibited coin", False),)
    rig.acc.insert("EU100A")
    assert acceptor.poll() == (CoinCredit(2, 1, "EU100A", 100, 0),)


def test_inhibited_acceptor_gives_no_credit(rig):
    acceptor = rig.acceptor()
    acceptor.set_accepting(False)
    rig.acc.insert("EU100A")
    assert acceptor.poll() == (CoinError(2, 2, "inhibited coin", False),)
    assert rig.acc.inhibit_mask == 0b11 and not rig.acc.master_enabled


def test_a_coin_the_configuration_does_not_price_stays_inhibited(rig):
    rig.acceptor()
    assert rig.acc.insert("EU050A") == CoinEvent(0, 2)


class FlakyBus:
    """A bus whose 229 replies differ every time (as damaged replies would)."""

    def __init__(self):
        self.n = 0

    def data(self, address, header, data=b""):
        self.n += 1
        return reading(self.n % 200 + 1, (1, 0)).encode()

    def command(self, *args, **kw):
        pass


def test_news_that_does_not_repeat_is_not_believed():
    acceptor = CoinAcceptor(FlakyBus(), 2)  # type: ignore[arg-type]
    acceptor.tracker = CreditTracker(1)
    assert acceptor.poll() == ()
    assert acceptor.unconfirmed == 1


# --- hopper: the payout ---------------------------------------------------------------------------


def check_books(rig: Rig, ledger: MemoryLedger) -> None:
    """The rule every fault must keep: coins reported paid = coins that physically left."""
    assert ledger.paid_total == rig.hop.left
    assert ledger.pending is None


def test_a_payout_of_n_coins_pays_exactly_n_reporting_each_coin(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    start = rig.clock()
    result = hopper.payout(40, ledger)
    assert (result.paid, result.unpaid, result.fault, result.resolved) == (40, 0, None, True)
    check_books(rig, ledger)
    assert ledger.log[0] == ("begin", 40) and ledger.log[1][0] == "baseline"
    assert len([e for e in ledger.log if e[0] == "paid"]) >= 30  # coin by coin, as reported
    assert rig.clock() - start < 40 / 8.0 * 1.05
    assert rig.sent(Header.DISPENSE) == 1 and not rig.hop.enabled


class LyingStatusHopper(Hopper):
    """Once, a 166 reply that passed its checksum but claims far more coins than asked."""

    lied = False

    def _do(self, step, ledger):
        answer = super()._do(step, ledger)
        if isinstance(step, Ask) and step.header == Header.HOPPER_STATUS and answer.reply is not None:
            st = HopperStatus.decode(answer.reply.data)
            if not self.lied and st.paid >= 2:
                self.lied = True
                return Answer(Reply(3, 0, HopperStatus(st.counter, st.remaining, 200, 0).encode()))
        return answer


def test_a_status_claiming_more_coins_than_asked_is_not_believed(rig):
    hopper, ledger = LyingStatusHopper(rig.bus, 3), MemoryLedger()
    hopper.start()
    result = hopper.payout(10, ledger)
    assert hopper.lied and (result.paid, result.fault) == (10, None)
    check_books(rig, ledger)


def test_payout_without_encryption_asks_for_a_cipher_key():
    rig = Rig(security="none")
    hopper, ledger = rig.hopper(security="none"), MemoryLedger()
    assert hopper.payout(5, ledger).paid == 5
    assert rig.sent(Header.CIPHER_KEY) == 1
    check_books(rig, ledger)


def test_a_blocked_exit_while_idle_stops_the_payout_before_the_dispense(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    rig.hop.inject("opto", None, rig.clock())
    result = hopper.payout(5, ledger)
    assert (result.paid, result.unpaid, result.fault) == (0, 5, "fraud")
    assert rig.sent(Header.DISPENSE) == 0
    check_books(rig, ledger)


def test_a_runaway_motor_after_the_payout_is_caught_while_idle(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    rig.hop.inject("runaway", None, rig.clock())
    result = hopper.payout(10, ledger)
    assert result.paid >= 10
    rig.bus.wait(0.5)
    stray = hopper.check_idle(ledger)
    assert ledger.paid_total == rig.hop.left == 10 + stray + (result.paid - 10)
    assert rig.hop.left > 10 and not rig.hop.busy
    rig.bus.wait(1.0)
    assert hopper.check_idle(ledger) == 0 and rig.hop.left == ledger.paid_total


def test_a_runaway_seen_at_the_end_of_the_payout_is_stopped_and_named():
    rig = Rig(speed=5.0)
    hopper, ledger = rig.hopper(poll_interval=0.25), MemoryLedger()
    rig.hop.inject("runaway", None, rig.clock())
    faults = {hopper.payout(3, ledger).fault for _ in range(1)}
    rig.bus.wait(0.5)
    hopper.check_idle(ledger)
    assert faults <= {PayoutFault.RUNAWAY, None}
    check_books(rig, ledger)


def test_a_lost_dispense_reply_is_not_resent_when_the_counter_moved(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    rig.faults(3).noreply = True
    rig.faults(3).noreply_headers.add(Header.DISPENSE)
    result = hopper.payout(12, ledger)
    assert (result.paid, result.fault) == (12, None)
    assert rig.sent(Header.DISPENSE) == 1
    check_books(rig, ledger)


class SkewedCounterHopper(SimHopper):
    """Its 167 reply gives an event counter 7 ahead of the one its 166 status reports."""

    def handle_own(self, header, data, now):
        reply = super().handle_own(header, data, now)
        if header == Header.DISPENSE and reply is not None and reply[1]:
            return (reply[0], bytes(((reply[1][0] + 7) % 256,)))
        return reply


def test_a_status_counter_that_does_not_follow_the_dispense_reply_is_named_so():
    rig = Rig()
    rig.hop = rig.sim.devices[3] = SkewedCounterHopper(3, serial=0x0A0B0C, level=500, speed=8.0)
    hopper, ledger = rig.hopper(comms_timeout=1.0), MemoryLedger()
    result = hopper.payout(5, ledger)
    assert (result.fault, result.resolved) == (PayoutFault.COUNT_MISMATCH, False)
    assert result.detail == (
        "hopper's 166 event counter is 1, its 167 reply said 8: the status does not follow the"
        " dispense"
    )
    assert ledger.pending is not None  # left for reconcile, which settles it from 168
    assert hopper.reconcile(ledger.pending, ledger).paid == 5
    check_books(rig, ledger)


class DropFirstDispense(VirtualTransport):
    """The line eats the host's first dispense packet: the hopper never hears it."""

    dropped = False

    def write(self, data: bytes) -> None:
        if not self.dropped and len(data) > 3 and data[3] == Header.DISPENSE:
            type(self).dropped = True
            self.written += data
            return
        super().write(data)


def test_a_dispense_the_hopper_never_heard_is_resent_once(rig):
    DropFirstDispense.dropped = False
    rig.reboot(DropFirstDispense)
    hopper, ledger = rig.hopper(), MemoryLedger()
    result = hopper.payout(6, ledger)
    assert (result.paid, result.fault) == (6, None)
    assert rig.sent(Header.DISPENSE) == 2
    check_books(rig, ledger)


def test_a_refused_dispense_pays_nothing_and_names_why(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    hopper.serial = 1  # not this hopper's serial number
    result = hopper.payout(6, ledger)
    assert (result.paid, result.unpaid, result.fault) == (0, 6, "security")
    check_books(rig, ledger)


def test_silence_mid_payout_leaves_it_pending_until_reconciled(rig):
    hopper, ledger = rig.hopper(comms_timeout=1.0), MemoryLedger()
    rig.hop.inject("jam", 6, rig.clock())
    real_wait = rig.bus.wait

    def wait(seconds):  # every reply is lost from the first poll on
        rig.faults(3).noreply = True
        real_wait(seconds)

    rig.bus.wait = wait
    result = hopper.payout(10, ledger)
    assert not result.resolved and ledger.pending is not None
    rig.bus.wait = real_wait
    rig.faults(3).noreply = False
    result = hopper.reconcile(ledger.pending, ledger)
    assert (result.paid, result.unpaid, result.fault) == (6, 4, "jam")
    check_books(rig, ledger)


def test_hopper_power_cut_and_return_mid_payout_is_reconciled_on_the_spot(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    real_wait = rig.bus.wait
    cut_at = rig.clock() + 1.0
    left_at_cut: list[int] = []

    def wait(seconds):  # the hopper loses power 1 s into the payout and is back at once
        real_wait(seconds)
        if not left_at_cut and rig.clock() >= cut_at:
            rig.hop.power_off(rig.clock())
            left_at_cut.append(rig.hop.left)
            rig.hop.power_on(rig.clock())

    rig.bus.wait = wait
    result = hopper.payout(20, ledger)
    paid = left_at_cut[0]
    assert 7 <= paid <= 9
    assert (result.paid, result.unpaid, result.fault) == (paid, 20 - paid, PayoutFault.POWER_CUT)
    check_books(rig, ledger)
    assert not rig.hop.flags.power_down_during_payout  # cleared by the reset after accounting
    assert hopper.payout(20 - paid, ledger).paid == 20 - paid
    assert ledger.paid_total == rig.hop.left == 20


def test_reconcile_of_a_payout_whose_dispense_was_never_sent_pays_nothing(rig):
    hopper, ledger = rig.hopper(), MemoryLedger()
    ledger.begin_payout(9)
    result = hopper.reconcile(ledger.pending, ledger)
    assert (result.paid, result.unpaid, result.fault) == (0, 9, PayoutFault.POWER_CUT)


@pytest.mark.parametrize("who", ["cabinet", "hopper", "both"])
def test_power_cut_at_random_moments_then_reconcile_pays_exactly_n_in_total(who):
    rng = random.Random(f"power-cut-{who}")
    for trial in range(150):
        rig = Rig(speed=8.0)
        hopper, ledger = rig.hopper(comms_timeout=0.8), MemoryLedger()
        n = rng.randint(1, 30)
        moment = rng.uniform(0, n / 8.0 + 0.3)
        start = rig.clock()
        if who == "hopper":
            real_wait = rig.bus.wait

            def wait(seconds, _w=real_wait, _at=start + moment, _rig=rig):
                _w(seconds)
                if _rig.hop.powered and _rig.clock() >= _at:
                    _rig.hop.power_off(_rig.clock())

            rig.bus.wait = wait  # type: ignore[method-assign]
            hopper.payout(n, ledger)
            rig.hop.power_on(rig.clock() + 1)
        else:
            rig.clock.cut_at = start + moment
            try:
                hopper.payout(n, ledger)
            except PowerCut:
                if who == "both":
                    rig.hop.power_off(rig.clock())
                    rig.clock.advance(2)
                    rig.hop.power_on(rig.clock())
            rig.clock.cut_at = None
        rig.clock.advance(0.5)
        rig.reboot()  # the cabinet (re)starts: new bus, new driver, the durable ledger
        hopper = rig.hopper()
        if ledger.pending is not None:
            hopper.reconcile(ledger.pending, ledger)
        owed = sum(r.unpaid for r in ledger.records)
        if owed:
            again = hopper.payout(owed, ledger)
            assert again.fault is None, (trial, again)
        assert ledger.paid_total == rig.hop.left == n, (trial, n, moment, ledger.log)
        assert ledger.pending is None


def test_pending_payout_record_carries_the_baseline(rig):
    ledger = MemoryLedger()
    rig.clock.cut_at = rig.clock() + 0.5
    hopper = rig.hopper()
    with pytest.raises(PowerCut):
        hopper.payout(30, ledger)
    pending = ledger.pending
    assert isinstance(pending, PendingPayout)
    assert pending.requested == 30 and pending.lifetime_before == 0 and pending.counter_before == 0
    assert 0 < pending.credited < 30
