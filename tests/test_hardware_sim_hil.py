"""Hardware in the loop: what only the simulator process over a real link can show.

The device rules are written once in ``test_device_rules.py`` and run on every transport; here
are the tests that need the process itself and real time: power cut or replies lost by another
thread while a payout runs, the echo, CRC-16, socket and Unix links, configuration files and
the control channel's errors. Every test drives the control channel, so all are skipped when
``CABINET_TEST_BUS`` names real devices (``tests/hil.py``). The money rule checked after every
payout: coins the ledger was told were paid = coins that physically left the simulated hopper
(its ``left`` count), the rest owed, and a fault named.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections.abc import Iterator

import pytest

from hardware.cctalk.acceptor import (
    CoinAcceptor,
    CoinCredit,
)
from hardware.cctalk.codec import Checksum
from hardware.cctalk.hopper import Hopper, PayoutFault
from hardware.cctalk.host import CctalkBus
from hardware.cctalk.ledger import MemoryLedger
from hardware.sim.launcher import SimError, SimProcess

from tests.hil import needs_bus_simulator

# Every test here drives the simulator's control channel; those that also run against real
# devices (CABINET_TEST_BUS) are in test_hil_devices.py.
pytestmark = [pytest.mark.timeout(30), needs_bus_simulator]

SIM_ARGS = ["--acceptor", "2:serial=12345678", "--hopper", "3:speed=40,level=400,serial=424242"]
VALUES = {"EU100A": 100, "EU200A": 200}


@pytest.fixture
def sim() -> Iterator[SimProcess]:
    with SimProcess.start(SIM_ARGS) as process:
        yield process


def open_bus(sim: SimProcess, **options) -> CctalkBus:
    return CctalkBus.open(sim.link, link="coins", **options)


@pytest.fixture
def bus(sim: SimProcess) -> Iterator[CctalkBus]:
    with open_bus(sim) as b:
        yield b


def start_acceptor(bus: CctalkBus) -> CoinAcceptor:
    acceptor = CoinAcceptor(bus, 2, values=VALUES)
    acceptor.start()
    acceptor.set_accepting(True)
    return acceptor


def left(sim: SimProcess) -> int:
    return sim.control.count(3, "left")


def credits_of(events) -> list[int | None]:
    return [e.value for e in events if isinstance(e, CoinCredit)]


# --- identification ---------------------------------------------------------------------------


# --- coins ---------------------------------------------------------------------------------


# --- payouts -------------------------------------------------------------------------------


def test_payout_in_no_encryption_mode():
    with SimProcess.start(["--hopper", "3:speed=40,security=none"]) as sim, open_bus(sim) as bus:
        hopper, ledger = Hopper(bus, 3, security="none"), MemoryLedger()
        hopper.start()
        assert hopper.payout(7, ledger).paid == 7
        assert ledger.paid_total == left(sim) == 7


class StrikingLedger(MemoryLedger):
    """A ledger that calls ``strike`` once, when the first paid coin is reported: mid payout
    however fast or slow the machine runs (a timer's moment can fall before the dispense or
    after the end on a loaded machine)."""

    def __init__(self, strike) -> None:
        super().__init__()
        self.strike = strike

    def coins_paid(self, count: int) -> None:
        super().coins_paid(count)
        if self.strike is not None:
            strike, self.strike = self.strike, None
            strike()


def test_replies_lost_mid_payout_leave_it_pending_then_reconcile_pays_the_truth(sim):
    with open_bus(sim, timeout=0.1, retries=1) as bus:
        ledger = StrikingLedger(lambda: sim.control.fault(3, "noreply"))
        hopper = Hopper(bus, 3, comms_timeout=0.4)
        hopper.start()
        sim.control.fault(3, "jam", 8)
        result = hopper.payout(20, ledger)
        assert ledger.strike is None  # struck
        assert not result.resolved and ledger.pending is not None
        sim.control.clear(3)
        result = hopper.reconcile(ledger.pending, ledger)
    assert (result.paid, result.unpaid, result.fault) == (8, 12, "jam")
    assert ledger.paid_total == left(sim) == 8


def test_a_hopper_power_cut_mid_payout_is_reconciled_after_power_returns(sim):
    with open_bus(sim, timeout=0.1, retries=1) as bus:
        hopper = Hopper(bus, 3, comms_timeout=0.3)
        ledger = StrikingLedger(lambda: sim.control.fault(3, "powercut"))
        hopper.start()
        result = hopper.payout(30, ledger)
        assert ledger.strike is None  # struck
        assert not result.resolved
        sim.control.power(3, True)
        assert ledger.pending is not None
        result = hopper.reconcile(ledger.pending, ledger)
        out = left(sim)
        assert 0 < out < 30
        assert (result.paid, result.unpaid, result.fault) == (out, 30 - out, PayoutFault.POWER_CUT)
        assert ledger.paid_total == out
        assert hopper.payout(30 - out, ledger).fault is None  # the latch was cleared
    assert left(sim) == ledger.paid_total == 30


class PowerCut(Exception):
    pass


class CuttingClock:
    """The real monotonic clock, which raises PowerCut once at ``cut_at``."""

    def __init__(self) -> None:
        self.cut_at: float | None = None

    def __call__(self) -> float:
        now = time.monotonic()
        if self.cut_at is not None and now >= self.cut_at:
            self.cut_at = None
            raise PowerCut()
        return now


@pytest.mark.timeout(60)
@pytest.mark.parametrize("who", ["cabinet", "hopper", "both"])
def test_power_cut_at_a_random_moment_then_restart_pays_exactly_n_in_total(who):
    rng = random.Random(f"hil-{who}")
    for _ in range(3):
        n = rng.randint(5, 25)
        moment = rng.uniform(0.0, n / 40.0 + 0.1)
        with SimProcess.start(SIM_ARGS) as sim:
            ledger, clock = MemoryLedger(), CuttingClock()
            bus = open_bus(sim, timeout=0.05, retries=1, clock=clock)
            hopper = Hopper(bus, 3, comms_timeout=0.3)
            hopper.start()
            timer = None
            if who in ("hopper", "both"):
                timer = threading.Timer(moment, sim.control.fault, (3, "powercut"))
            if who in ("cabinet", "both"):
                clock.cut_at = time.monotonic() + moment
            if timer:
                timer.start()
            with contextlib.suppress(PowerCut):
                hopper.payout(n, ledger)
            if timer:
                timer.join()
            clock.cut_at = None
            bus.close()
            time.sleep(0.05)
            sim.control.power(3, True)
            # the cabinet restarts: a new link, a new driver, the durable ledger
            with open_bus(sim) as bus:
                hopper = Hopper(bus, 3)
                hopper.start()
                if ledger.pending is not None:
                    hopper.reconcile(ledger.pending, ledger)
                owed = sum(r.unpaid for r in ledger.records)
                if owed:
                    assert hopper.payout(owed, ledger).fault is None
            assert ledger.pending is None
            assert ledger.paid_total == left(sim) == n, (n, moment, ledger.log)


# --- links, echo, checksum, control channel -------------------------------------------------------


def test_a_bus_with_echo_over_a_pty():
    with SimProcess.start([*SIM_ARGS, "--echo"]) as sim, open_bus(sim, echo=True) as bus:
        acceptor = start_acceptor(bus)
        sim.control.coin(2, "EU200A", 2)
        assert credits_of(acceptor.poll()) == [200, 200]
        hopper, ledger = Hopper(bus, 3), MemoryLedger()
        hopper.start()
        assert hopper.payout(5, ledger).paid == 5 == left(sim)


def test_crc16_bus():
    args = [*SIM_ARGS, "--checksum", "crc16"]
    with SimProcess.start(args) as sim, open_bus(sim, checksum=Checksum.CRC16) as bus:
        hopper, ledger = Hopper(bus, 3), MemoryLedger()
        hopper.start()
        assert hopper.payout(6, ledger).paid == 6 == left(sim)


def test_socket_link_and_unix_control_channel(tmp_path):
    control = f"unix:{tmp_path / 'sim.sock'}"
    args = [*SIM_ARGS, "--link", "socket://127.0.0.1:0", "--control", control]
    with SimProcess.start(args) as sim:
        assert sim.link.startswith("socket://127.0.0.1:") and sim.control_address == control
        with open_bus(sim) as bus:
            acceptor = start_acceptor(bus)
            sim.control.coin(2, "EU100A")
            assert credits_of(acceptor.poll()) == [100]


def test_devices_from_a_yaml_file(tmp_path):
    config = tmp_path / "sim.yaml"
    config.write_text(
        "devices:\n"
        "  - {type: acceptor, address: 11, coins: [EU200A, EU100A], serial: 777}\n"
        "  - {type: hopper, address: 4, speed: 40, level: 3}\n"
    )
    with SimProcess.start(["--config", str(config)]) as sim, open_bus(sim) as bus:
        acceptor = CoinAcceptor(bus, 11, values=VALUES)
        assert acceptor.start().serial == 777 and acceptor.coin_ids == {1: "EU200A", 2: "EU100A"}
        hopper, ledger = Hopper(bus, 4), MemoryLedger()
        hopper.start()
        result = hopper.payout(5, ledger)
        assert (result.paid, result.unpaid, result.fault) == (3, 2, "empty")


def test_control_channel_errors_and_a_bad_configuration(sim):
    with pytest.raises(SimError, match="unknown command"):
        sim.control.command("dance 3")
    with pytest.raises(SimError, match="not a SimHopper"):
        sim.control.refill(2, 10)
    assert sim.control.refill(3, 10) == "level=410"
    with pytest.raises(SimError, match=r"exit 2.*unknown settings \['colour'\]"):
        SimProcess.start(["--hopper", "3:colour=red"])
