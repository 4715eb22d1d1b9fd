"""The ccTalk device rules, written once and run on every transport (python-can's back-to-back
tests): in memory (``VirtualSim``: the simulated bus behind ``VirtualTransport``, in manual time),
over a real pty (the simulator process, ``SimProcess``), and against real devices when
``CABINET_TEST_BUS`` names them (``tests/hil.py``, ``docs/hardware-setup.md``).

The simulator is driven through the same control language on both simulated transports
(``sim.control``); a rule that needs it (inserting coins, injecting faults) is skipped against
real devices. The money rule checked after every payout: coins the ledger was told were paid =
coins that physically left the hopper (the simulator's ``left``, or 168's rise on a real one).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from hardware.cctalk.acceptor import AcceptorReset, CoinAcceptor, CoinCredit, CoinError, CounterFault
from hardware.cctalk.codec import Checksum
from hardware.cctalk.headers import CATEGORY_COIN_ACCEPTOR, CATEGORY_PAYOUT, Header, decode_uint
from hardware.cctalk.hopper import LIFETIME_MODULUS, Hopper, PayoutFault
from hardware.cctalk.host import CctalkBus, IdentificationError
from hardware.cctalk.ledger import MemoryLedger, PayoutRecord
from hardware.sim.launcher import SimProcess
from hardware.sim.virtual import VirtualSim

from tests.hil import ACCEPTOR, BUS_CHECKSUM, BUS_ECHO, HOPPER, HOPPER_SECURITY, PAYOUT, REAL_BUS

pytestmark = pytest.mark.timeout(30)

SIM_ARGS = ["--acceptor", "2:serial=12345678", "--hopper", "3:speed=40,level=400,serial=424242"]
VALUES = {"EU100A": 100, "EU200A": 200}
TRANSPORTS = ["memory", "pty", pytest.param("real", marks=pytest.mark.skipif(
    REAL_BUS is None, reason="CABINET_TEST_BUS names no real bus"))]


class Link:
    """One transport to the devices: ``open_bus`` makes a host on it, ``control`` drives the
    simulator (None on real devices)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.process: SimProcess | None = None
        self.memory: VirtualSim | None = None
        if kind == "memory":
            self.memory = VirtualSim(SIM_ARGS)
        elif kind == "pty":
            self.process = SimProcess.start(SIM_ARGS)
        source = self.memory or self.process
        self.control = None if source is None else source.control

    def open_bus(self, **options: Any) -> CctalkBus:
        if self.memory is not None:
            return self.memory.bus(link="coins", **options)
        if self.process is not None:
            return CctalkBus.open(self.process.link, link="coins", **options)
        assert REAL_BUS is not None
        return CctalkBus.open(REAL_BUS, link="coins", echo=BUS_ECHO, checksum=Checksum(BUS_CHECKSUM), **options)

    def sim(self) -> Any:
        """The simulator's control channel; a rule that needs it is skipped on real devices."""
        if self.control is None:
            pytest.skip("drives the simulator's control channel (CABINET_TEST_BUS names real devices)")
        return self.control

    def left(self) -> int:
        return int(self.sim().count(3, "left"))

    def stop(self) -> None:
        if self.process is not None:
            self.process.stop()


@pytest.fixture(params=TRANSPORTS)
def link(request: pytest.FixtureRequest) -> Iterator[Link]:
    made = Link(request.param)
    try:
        yield made
    finally:
        made.stop()


@pytest.fixture
def bus(link: Link) -> Iterator[CctalkBus]:
    with link.open_bus() as b:
        yield b


def start_acceptor(bus: CctalkBus) -> CoinAcceptor:
    acceptor = CoinAcceptor(bus, 2, values=VALUES)
    acceptor.start()
    acceptor.set_accepting(True)
    return acceptor


def credits_of(events) -> list[int | None]:
    return [e.value for e in events if isinstance(e, CoinCredit)]


# --- identification ---------------------------------------------------------------------------


def test_start_up_identifies_the_acceptor_and_the_hopper(link, bus):
    acceptor = CoinAcceptor(bus, ACCEPTOR if link.kind == "real" else 2)
    info = acceptor.start()
    hopper = Hopper(bus, HOPPER if link.kind == "real" else 3, security=HOPPER_SECURITY)
    assert info.category == CATEGORY_COIN_ACCEPTOR and hopper.start().category == CATEGORY_PAYOUT
    assert (info.link, isinstance(info.serial, int), isinstance(hopper.serial, int)) == ("coins", True, True)
    assert info.manufacturer and acceptor.coin_ids, "no coin position has a coin id"
    if link.kind != "real":
        assert (info.manufacturer, info.serial, hopper.serial) == ("SIM", 12_345_678, 424242)
        assert acceptor.coin_ids == {1: "EU100A", 2: "EU200A", 3: "EU050A"}


def test_a_missing_or_wrong_device_is_a_startup_error_naming_link_and_address(link, bus):
    if link.kind != "real":
        with pytest.raises(IdentificationError, match=r"^coins: address 2: answers as 'Coin Acceptor'"):
            Hopper(bus, 2).start()
    bus.timeout, bus.retries = 0.05, 1
    with pytest.raises(IdentificationError, match=r"^coins: address 4: no reply"):  # no hopper there
        Hopper(bus, 4).start()


# --- coins ---------------------------------------------------------------------------------


def test_coins_inserted_arrive_exactly_once(link, bus):
    sim = link.sim()
    acceptor = start_acceptor(bus)
    rng = random.Random(11)
    inserted, credited = [], []
    for _ in range(25):
        coins = [rng.choice(["EU100A", "EU200A"]) for _ in range(rng.randint(0, 5))]
        for coin in coins:
            sim.coin(2, coin)
        inserted += [VALUES[c] for c in coins]
        credited += credits_of(acceptor.poll())
    credited += credits_of(acceptor.poll())
    assert credited == inserted


def test_more_than_five_coins_between_polls_credit_nothing_and_are_a_counter_fault(link, bus):
    sim = link.sim()
    acceptor = start_acceptor(bus)
    sim.coin(2, "EU100A", 9)
    assert acceptor.poll() == (CounterFault(2, 0, 9, 9),)
    assert acceptor.poll() == ()
    sim.coin(2, "EU200A")
    assert credits_of(acceptor.poll()) == [200]  # from the new counter on


def test_after_an_acceptor_reset_inhibits_are_re_applied_and_coins_still_arrive_once(link, bus):
    sim = link.sim()
    acceptor = start_acceptor(bus)
    sim.coin(2, "EU200A", 2)
    assert credits_of(acceptor.poll()) == [200, 200]
    sim.reset(2)
    assert sim.status(2)["master"] == "0"
    assert acceptor.poll() == (AcceptorReset(2),)
    status = sim.status(2)
    assert (status["master"], status["inhibits"]) == ("1", "3")
    sim.coin(2, "EU100A", 3)
    assert credits_of(acceptor.poll()) == [100] * 3
    assert acceptor.poll() == ()


def test_coin_errors_are_reported_with_their_names(link, bus):
    sim = link.sim()
    acceptor = start_acceptor(bus)
    for code in (14, 17, 20):
        sim.coin_error(2, code)
    sim.coin(2, "XX999A")
    events = acceptor.poll()
    assert [(e.code, e.fraud) for e in events if isinstance(e, CoinError)] == [
        (14, False), (17, True), (20, True), (1, False),
    ]
    assert events[1] == CoinError(2, 17, "coin going backwards", True)


# --- payouts -------------------------------------------------------------------------------


@pytest.mark.skipif(PAYOUT == 0, reason="CABINET_TEST_PAYOUT=0")
def test_a_payout_reports_exactly_the_coins_the_lifetime_count_saw_leave(link, bus):
    """Against a real hopper this pays real coins (``CABINET_TEST_PAYOUT``, 3 by default)."""
    address = HOPPER if link.kind == "real" else 3
    coins = PAYOUT if link.kind == "real" else 12
    hopper, ledger = Hopper(bus, address, security=HOPPER_SECURITY), MemoryLedger()
    hopper.start()
    before = decode_uint(bus.data(address, Header.DISPENSE_COUNT))
    result = hopper.payout(coins, ledger)
    out = (decode_uint(bus.data(address, Header.DISPENSE_COUNT)) - before) % LIFETIME_MODULUS
    assert (result.paid, result.unpaid, result.fault) == (coins, 0, None), result
    assert ledger.paid_total == out == coins and ledger.pending is None
    if link.kind != "real":
        assert link.left() == coins and link.sim().status(3)["remaining"] == "0"


@pytest.mark.parametrize(
    "fault, arg, fault_name",
    [
        ("empty", 5, "empty"),
        ("jam", 4, "jam"),
        ("opto", 3, "fraud"),
        ("opto", None, "fraud"),  # blocked while idle: nothing dispensed
        ("extra", None, "extra coin"),
    ],
)
def test_each_mechanical_fault_leaves_paid_equal_to_coins_out(link, bus, fault, arg, fault_name):
    sim = link.sim()
    hopper, ledger = Hopper(bus, 3), MemoryLedger()
    hopper.start()
    sim.fault(3, fault, arg)
    result = hopper.payout(20, ledger)
    out = link.left()
    assert result.fault == fault_name
    assert ledger.paid_total == result.paid == out
    assert result.unpaid == max(0, 20 - out)
    assert ledger.records[-1] == PayoutRecord(20, out, max(0, 20 - out), fault_name)


def test_a_runaway_hopper_is_stopped_and_every_coin_out_is_reported(link, bus):
    sim = link.sim()
    hopper, ledger = Hopper(bus, 3), MemoryLedger()
    hopper.start()
    sim.fault(3, "runaway")
    result = hopper.payout(10, ledger)
    bus.wait(0.3)
    stray = hopper.check_idle(ledger)
    assert result.fault == PayoutFault.RUNAWAY or stray > 0
    assert sim.status(3)["motor"] == "idle"
    assert ledger.paid_total == link.left() > 10


@pytest.mark.parametrize("fault, arg", [("late", 0.15), ("garble", 0.1)])
def test_late_or_garbled_replies_do_not_change_what_is_paid(link, fault, arg):
    sim = link.sim()
    with link.open_bus(timeout=0.1) as bus:
        hopper, ledger = Hopper(bus, 3), MemoryLedger()
        hopper.start()
        sim.fault(3, fault, arg)
        result = hopper.payout(10, ledger)
    assert (result.paid, result.fault) == (10, None)
    assert ledger.paid_total == link.left() == 10


def test_a_dispense_whose_reply_is_lost_is_not_paid_twice(link, bus):
    sim = link.sim()
    hopper, ledger = Hopper(bus, 3), MemoryLedger()
    hopper.start()
    sim.fault(3, "noreply", 167)
    result = hopper.payout(9, ledger)
    assert (result.paid, result.fault) == (9, None)
    assert ledger.paid_total == link.left() == 9
