"""The simulators keep what real devices keep (issue 23 item 9, issue 24 finding 11).

The hopper's coins and lifetime count, the acceptors' event counters and buffers and the panel's
non-volatile memory live in a state folder (``python -m hardware.sim --state DIR``,
``PanelSimulator(nv_file=...)``), which the development harness keeps beside the data folder
(``<data_dir>-sim``). So a second and third start of ``tools/run`` on the same data folder find the
devices where the journal left them: no "count behind" tilt, and the panel still holds the
journal's head, a witness of it that no copy of the data folder carries along.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.sim.launcher import SimProcess
from hardware.sim.state import BUS_FILE, PANEL_FILE

from machine.loop.panelhead import decode
from machine.money.memory import load_key
from tests.helpers import two_seats

ROOT = Path(__file__).resolve().parents[1]
COINS = "EU050A+EU100A+EU200A"
TILTS = ("tilt", "hopper_count_behind", "hopper_out_unexplained", "coin_events_while_down", "coin_events_lost")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def _cabinet(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "machine", *args], cwd=tmp, env=_env(), capture_output=True,
                          text=True, timeout=240)


# slow: three whole cabinet processes on one data folder (each starting the simulators) and an audit after
# each: what carries over between processes is what is checked
@pytest.mark.timeout(400)
def test_three_headless_runs_on_one_data_folder_neither_tilt_nor_forget_the_devices(tmp_path):
    (tmp_path / "cfg.yaml").write_text(two_seats(
        "betting_time: 2", "decision_timeout: 1",
        f"memory: {{key_file: {tmp_path}/key/machine.key, head_stores: [{tmp_path}/usb]}}"))
    lifetime = {1: 0, 2: 0}
    paid = 0
    for run in range(3):
        done = _cabinet(tmp_path, "run", "--config", "cfg.yaml", "--headless", "--rounds", "2", "--data", "data")
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[-1] == "every meter and coin accounted for"
        for n in (1, 2):  # the meters carried over: the lifetime is every run's games
            games, total = map(int, re.search(rf"^seat {n}: (\d+) games,.*lifetime: (\d+) games", done.stdout, re.M).groups())
            lifetime[n] += games
            assert total == lifetime[n], (run, done.stdout)
        paid += int(re.search(r"hopper paid (\d+) coins", done.stdout).group(1))
        log = _cabinet(tmp_path, "audit", "events", "--data", "data", "--key", "key/machine.key", "--json")
        assert log.returncode == 0, log.stderr
        events = [e["event"] for e in json.loads(log.stdout)["events"]]
        assert events.count("power_up") == run + 1
        assert not [e for e in events if e in TILTS], (run, events)
    state = tmp_path / "data-sim"
    kept = json.loads((state / BUS_FILE).read_text())["devices"]
    assert paid > 0 and kept["3"]["lifetime"] == paid and kept["3"]["level"] == 500 - paid
    assert kept["2"]["counter"] > 0 and kept["11"]["counter"] > 0
    head = decode(bytes.fromhex(json.loads((state / PANEL_FILE).read_text())["head"]), load_key(tmp_path / "key/machine.key"))
    assert head is not None  # the panel's memory holds this journal's head, under this machine's key
    verify = _cabinet(tmp_path, "audit", "verify", "--data", "data", "--key", "key/machine.key")
    assert verify.returncode == 0, verify.stdout + verify.stderr


# slow: two whole cabinet processes around a deleted data folder: the witness is across processes
@pytest.mark.timeout(300)
def test_the_panels_memory_beside_the_data_folder_is_a_witness_the_data_folder_cannot_take_along(tmp_path):
    """Finding 11: with the journal and the head store deleted together, the next start began a
    new journal without a word; the simulated panel's memory, kept beside the data folder now,
    still knows the old journal's head."""
    (tmp_path / "cfg.yaml").write_text(two_seats(
        "betting_time: 2", "decision_timeout: 1",
        f"memory: {{key_file: {tmp_path}/key/machine.key, head_stores: [{tmp_path}/usb]}}"))
    argv = ("run", "--config", "cfg.yaml", "--headless", "--rounds", "1", "--data", "data")
    done = _cabinet(tmp_path, *argv)
    assert done.returncode == 0, done.stdout + done.stderr
    for part in ("data", "usb"):
        for f in sorted((tmp_path / part).rglob("*"), reverse=True):
            f.rmdir() if f.is_dir() else f.unlink()
    done = _cabinet(tmp_path, *argv)
    assert done.returncode == 3 and "soak:" not in done.stdout
    [line] = done.stderr.strip().splitlines()
    assert line.startswith("memory error: ") and "the panel's memory" in line, line


def _args(state: Path, hopper: str = "3:level=100,speed=50") -> list[str]:
    return ["--acceptor", f"2:coins={COINS}", "--hopper", hopper, "--state", str(state)]


@pytest.mark.timeout(30)
def test_the_bus_simulator_keeps_its_devices_counters_across_a_restart(tmp_path):
    with SimProcess.start(_args(tmp_path)) as sim:
        sim.control.coin(2, "EU100A", 3)
        sim.control.spill(3, 7)
        before = {a: sim.control.status(a) for a in (2, 3)}
    assert before[3]["lifetime"] == "7" and before[2]["counter"] == "3"
    with SimProcess.start(_args(tmp_path, "3:level=100,speed=50")) as sim:  # level= is a new hopper's
        hopper, acceptor = sim.control.status(3), sim.control.status(2)
        assert (hopper["lifetime"], hopper["level"], hopper["left"]) == ("7", "93", "0")  # left: since this start
        assert acceptor["counter"] == "3"
        sim.control.coin(2, "EU200A")
        assert sim.control.status(2)["counter"] == "4"


@pytest.mark.timeout(30)
def test_another_serial_number_at_the_address_is_another_device_and_starts_as_new(tmp_path):
    with SimProcess.start(_args(tmp_path)) as sim:
        sim.control.spill(3, 5)
    with SimProcess.start(_args(tmp_path, "3:level=100,serial=777")) as sim:
        assert (sim.control.count(3, "lifetime"), sim.control.count(3, "level")) == (0, 100)


@pytest.mark.timeout(30)
def test_a_payout_under_way_when_the_simulator_stops_goes_on_where_it_stood(tmp_path):
    from hardware.cctalk.headers import Header
    from hardware.cctalk.hopper import Hopper
    from hardware.cctalk.host import CctalkBus

    with SimProcess.start(_args(tmp_path, "3:level=100,speed=2")) as sim, CctalkBus.open(sim.link, link="t") as bus:
        hopper = Hopper(bus, 3)
        hopper.start()
        hopper.enable()
        bus.data(3, Header.DISPENSE, hopper.security_bytes(4))  # dispense 4, then the host and simulator go
    kept = json.loads((tmp_path / BUS_FILE).read_text())["devices"]["3"]
    assert kept["_motor"] == "paying" and kept["remaining"] + kept["paid"] == 4
    with SimProcess.start(_args(tmp_path, "3:level=100,speed=50")) as sim:
        deadline = time.monotonic() + 60  # bounds a hang only
        while sim.control.status(3)["motor"] != "idle" and time.monotonic() < deadline:
            time.sleep(0.05)
        status = sim.control.status(3)
        assert (status["paid"], status["lifetime"], status["level"]) == ("4", "4", "96")


def test_a_state_file_that_is_not_one_is_one_line_and_exit_2(tmp_path):
    (tmp_path / BUS_FILE).write_text("not json")
    done = subprocess.run([sys.executable, "-m", "hardware.sim", *_args(tmp_path)], env=_env(),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    why = f"hardware.sim: {tmp_path / BUS_FILE}: not a simulator's state file (a JSON mapping)"
    assert done.stderr.strip().splitlines() == [why]


def test_a_state_folder_that_does_not_exist_is_refused_not_made(tmp_path):
    done = subprocess.run([sys.executable, "-m", "hardware.sim", *_args(tmp_path / "none")], env=_env(),
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 2 and not (tmp_path / "none").exists()
    assert done.stderr.strip().splitlines() == [f"hardware.sim: {tmp_path / 'none'}: no such folder for the devices' state"]
