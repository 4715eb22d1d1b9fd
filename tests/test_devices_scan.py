"""``cabinet devices scan``: the address poll, the simple poll sweep and identification, in
manual time against the simulated bus, and through the command against the simulator process
over a pty."""

from __future__ import annotations

import json
import random

import pytest

from hardware.cctalk.headers import Header
from hardware.cctalk.host import CctalkBus
from hardware.cctalk.scan import FoundDevice, address_poll, scan
from hardware.clock import ManualClock
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimHopper
from hardware.sim.launcher import SimProcess
from hardware.sim.virtual import VirtualTransport

from machine.cli import main

EXPECTED = [
    FoundDevice(2, "Coin Acceptor", "SIM", "SIMCOIN", 12_345_678),
    FoundDevice(3, "Payout", "SIM", "SIMHOP", 424_242),
    FoundDevice(200, "Coin Acceptor", "SIM", "SIMCOIN", 7),
]


def virtual_bus(echo: bool = False) -> tuple[CctalkBus, SimulatedBus, ManualClock]:
    devices = [
        SimCoinAcceptor(2, serial=12_345_678), SimHopper(3, serial=424_242),
        SimCoinAcceptor(200, serial=7),
    ]
    sim = SimulatedBus(devices, echo=echo, rng=random.Random(1))
    clock = ManualClock(10.0)
    bus = CctalkBus(VirtualTransport(sim, clock, byte_time=0.001), echo=echo, clock=clock)
    return bus, sim, clock


@pytest.mark.parametrize("echo", [False, True])
def test_the_address_poll_hears_every_device_once_in_address_order(echo):
    bus, _, clock = virtual_bus(echo)
    start = clock()
    assert address_poll(bus) == [2, 3, 200]
    assert clock() - start == pytest.approx(1.5, abs=0.01)  # it listens past the 1.2 s of the spec


@pytest.mark.parametrize("method", ["auto", "address", "simple"])
def test_every_method_finds_and_identifies_every_device(method):
    bus, _, _ = virtual_bus()
    assert scan(bus, method=method) == EXPECTED


def test_devices_that_ignore_the_address_poll_are_found_by_the_sweep_of_all_255_addresses():
    bus, sim, clock = virtual_bus()
    for address in (2, 3, 200):
        sim.faults[address].noreply = True
        sim.faults[address].noreply_headers = {Header.ADDRESS_POLL}
    start = clock()
    assert scan(bus, method="address") == []
    assert scan(bus, method="auto", timeout=0.02) == EXPECTED
    simple_polls = sim.requests
    assert simple_polls >= 3 + 3 * 4  # the sweep reached the devices, then four questions each
    assert clock() - start < 2 * 1.5 + 255 * 3 * 0.02  # a short wait at each silent address


def test_a_device_that_does_not_say_who_it_is_is_listed_all_the_same():
    bus, sim, _ = virtual_bus()
    sim.faults[3].noreply = True
    sim.faults[3].noreply_headers = {Header.MANUFACTURER_ID, Header.SERIAL_NUMBER}
    assert scan(bus)[1] == FoundDevice(3, "Payout", None, "SIMHOP", None)
    assert scan(bus)[1].line() == "address 3: Payout, manufacturer ?, product SIMHOP, serial ?"


# --- the command, against the simulator process over a pty ------------------------------------


@pytest.mark.timeout(30)
def test_the_command_lists_the_simulated_bus_as_lines_and_as_json(capsys):
    args = ["--acceptor", "2:serial=12345678", "--acceptor", "11:serial=5", "--hopper", "3:serial=424242"]
    with SimProcess.start(args) as sim:
        assert main(["devices", "scan", "--bus", sim.link, "--poll-wait-ms", "300"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines == [
            "address 2: Coin Acceptor, manufacturer SIM, product SIMCOIN, serial 12345678",
            "address 3: Payout, manufacturer SIM, product SIMHOP, serial 424242",
            "address 11: Coin Acceptor, manufacturer SIM, product SIMCOIN, serial 5",
        ]
        assert main(["devices", "scan", "--bus", sim.link, "--json", "--poll-wait-ms", "300"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert [(d["address"], d["category"], d["serial"]) for d in listed] == [
            (2, "Coin Acceptor", 12_345_678), (3, "Payout", 424_242), (11, "Coin Acceptor", 5),
        ]


@pytest.mark.parametrize("url", ["/dev/no-such-port", "socket://127.0.0.1:1", "bogus://x"])
def test_a_bad_bus_url_is_one_line_and_status_2(capsys, url):
    assert main(["devices", "scan", "--bus", url]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith(f"cabinet devices: {url}")


def test_a_bus_with_nothing_on_it_says_so_with_status_1(capsys):
    assert main(["devices", "scan", "--bus", "loop://", "--method", "address", "--poll-wait-ms", "50"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "cabinet devices scan: no ccTalk device answered on loop://\n"


def test_the_simulated_bus_of_the_configuration_cannot_be_scanned(capsys):
    assert main(["devices", "scan"]) == 2  # the shipped configuration says bus: sim
    assert "name the link to scan with --bus URL" in capsys.readouterr().err
