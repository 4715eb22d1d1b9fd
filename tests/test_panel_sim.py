"""Hardware in the loop: the real PanelHost against the panel simulator over a pty (and a
socket), as its own process driven through the control channel, and embedded in a thread."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.panel.connection import LinkDown, LinkUp
from hardware.panel.host import PanelHost
from hardware.panel.messages import BUTTONS, ButtonPressed, ButtonReleased, Door, KeySwitch
from hardware.sim.panel import PanelSimulator
from hardware.sim.panel_control import Controller

from tests.hil import needs_panel_simulator

# Every test here drives the simulator's control channel or the simulator itself: skipped when
# CABINET_TEST_PANEL names a real panel (test_hil_devices.py runs against it).
pytestmark = needs_panel_simulator

ROOT = Path(__file__).resolve().parent.parent
INPUTS = (ButtonPressed, ButtonReleased, KeySwitch, Door)


class SimProcess:
    """``python -m hardware.sim.panel`` and a control connection to it."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-W", "error", "-m", "hardware.sim.panel", *args],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        assert self.proc.stdout is not None
        first, second = self.proc.stdout.readline().split(), self.proc.stdout.readline().split()
        assert first[0] == "LINK" and second[0] == "CONTROL", (first, second)
        self.link, address = first[1], second[1]
        host, _, port = address.rpartition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=5)
        self.file = self.sock.makefile("rw", encoding="utf-8", newline="\n")

    def cmd(self, line: str) -> str:
        self.file.write(line + "\n")
        self.file.flush()
        return self.file.readline().rstrip("\n")

    def data(self, line: str) -> Any:
        reply = self.cmd(line)
        assert reply.startswith("OK "), reply
        return json.loads(reply[3:])

    def close(self) -> int:
        try:
            assert self.cmd("quit") == "OK"
            code = self.proc.wait(5)
        except (OSError, AssertionError, subprocess.TimeoutExpired):
            self.proc.kill()
            code = self.proc.wait(5)
        finally:
            self.file.close()
            self.sock.close()
            assert self.proc.stdout is not None and self.proc.stderr is not None
            self.proc.stdout.close()
            self.proc.stderr.close()
        return code


class Watcher:
    """Polls a PanelHost as a cabinet loop would, keeping every event it saw."""

    def __init__(self, host: PanelHost) -> None:
        self.host = host
        self.seen: list[object] = []

    def until(self, done: Callable[[], bool], limit: float = 30.0) -> float:
        """Poll until ``done()``; ``limit`` only bounds a hang (a loaded machine can be slow)."""
        start = time.monotonic()
        while True:
            self.host.poll()
            self.seen += self.host.events()
            if done():
                return time.monotonic() - start
            if time.monotonic() - start > limit:
                raise AssertionError(f"not done after {limit} s; saw {self.seen}")
            time.sleep(0.002)

    def idle(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        self.until(lambda: time.monotonic() >= end, seconds + 1)

    def take(self) -> list[object]:
        out, self.seen = self.seen, []
        return out

    def inputs(self) -> list[object]:
        return [e for e in self.take() if isinstance(e, INPUTS)]


@pytest.fixture
def sim() -> Iterator[SimProcess]:
    proc = SimProcess("--seats", "4", "--panel-id", "17")
    try:
        yield proc
    finally:
        assert proc.close() == 0


@pytest.fixture
def watcher(sim: SimProcess) -> Iterator[Watcher]:
    with PanelHost(sim.link) as host:
        w = Watcher(host)
        w.until(lambda: any(isinstance(e, Door) for e in w.seen))
        assert w.take()[0] == LinkUp(new_session=True, panel_id=17, seats=4)
        yield w


def _lamps_match(sim: SimProcess, host: PanelHost) -> bool:
    shown = sim.data("lamps")
    return all(shown[str(s)] == {b: str(v) for b, v in host.lamps(s).items()} for s in (1, 2, 3, 4))


@pytest.mark.timeout(120)
def test_taps_through_the_control_channel_arrive_exactly_once(
    sim: SimProcess, watcher: Watcher
) -> None:
    expected: list[object] = []
    for seat in (1, 2, 3, 4):
        for button in BUTTONS:
            assert sim.cmd(f"tap {seat} {button}") == "OK"
            expected += [ButtonPressed(seat, button), ButtonReleased(seat, button)]
    assert sim.cmd("press 2 collect") == "OK"
    expected.append(ButtonPressed(2, "collect"))
    watcher.until(lambda: len([e for e in watcher.seen if isinstance(e, INPUTS)]) >= len(expected))
    watcher.idle(0.4)
    assert watcher.inputs() == expected
    assert sim.cmd("release 2 collect") == "OK"
    watcher.until(lambda: ButtonReleased(2, "collect") in watcher.seen)
    assert sim.data("state")["pressed"] == []


@pytest.mark.timeout(120)
def test_keys_and_door_arrive_as_changes(sim: SimProcess, watcher: Watcher) -> None:
    for line in ("key operator on", "key attendant on", "door open", "key operator off"):
        assert sim.cmd(line) == "OK"
    assert sim.cmd("door closed") == "OK"
    watcher.until(lambda: watcher.seen.count(Door(False)) == 1)
    watcher.idle(0.2)
    assert watcher.inputs() == [
        KeySwitch("operator", True), KeySwitch("attendant", True), Door(True),
        KeySwitch("operator", False), Door(False),
    ]
    assert watcher.host.keys == {"operator": False, "attendant": True}


@pytest.mark.timeout(120)
def test_lamps_set_by_the_host_read_back_through_the_control_channel(
    sim: SimProcess, watcher: Watcher
) -> None:
    host = watcher.host
    host.set_lamp(1, "start", "on")
    host.set_lamps(2, {"stand": "on", "draw": "blink", "double": "on"})
    host.set_lamp(4, "collect", "blink")
    watcher.until(lambda: _lamps_match(sim, host))
    shown = sim.data("lamps")
    assert shown["1"]["start"] == "on" and shown["2"]["draw"] == "blink"
    assert shown["4"]["collect"] == "blink" and shown["3"] == {b: "off" for b in BUTTONS}
    assert list(shown["1"]) == list(BUTTONS)


@pytest.mark.timeout(120)
def test_disconnect_is_noticed_within_a_second_and_reconnect_resends_the_lamps(
    sim: SimProcess, watcher: Watcher
) -> None:
    host = watcher.host
    host.set_lamps(3, {"split": "on", "insurance": "blink"})
    watcher.until(lambda: _lamps_match(sim, host))
    commands_before = sim.data("state")["lamp_commands"]
    assert sim.cmd("disconnect") == "OK"
    # Noticed within a second of the silence: the poll that read the last bytes (buffered ones
    # prove the panel alive) is the first after the command; every poll that starts a second
    # or more after it must have seen the link go. Timed per poll, not over the whole wait, so
    # a test process the scheduler left waiting does not count against the host.
    first: float | None = None
    late: list[float] = []
    end = time.monotonic() + 30
    while LinkDown("timeout") not in watcher.seen:
        assert time.monotonic() < end, f"the link never went down; saw {watcher.seen}"
        began = time.monotonic()
        first = began if first is None else first
        host.poll()
        watcher.seen += host.events()
        if LinkDown("timeout") not in watcher.seen and began - first >= 1.0:
            late.append(began - first)
        time.sleep(0.002)
    assert late == []
    assert not host.link_up
    # the panel has noticed too and shows every lamp off
    watcher.until(lambda: sim.data("state")["link"] == "down")
    state = sim.data("state")
    assert state["link"] == "down" and state["silent"] is True
    assert all(v == "off" for seat in sim.data("lamps").values() for v in seat.values())
    assert sim.cmd("tap 1 repeat") == "OK"  # pressed during the outage
    host.set_lamp(1, "repeat", "on")  # wanted during the outage
    assert sim.cmd("reconnect") == "OK"
    watcher.until(lambda: host.link_up and ButtonReleased(1, "repeat") in watcher.seen)
    watcher.until(lambda: _lamps_match(sim, host))
    watcher.until(lambda: sim.data("state")["lamp_commands"] >= commands_before + 4)  # every seat again
    watcher.idle(0.3)
    events = watcher.take()
    assert [e for e in events if isinstance(e, (LinkUp, LinkDown))] == [
        LinkDown("timeout"), LinkUp(new_session=False, panel_id=17, seats=4)
    ]
    assert [e for e in events if isinstance(e, (ButtonPressed, ButtonReleased))] == [
        ButtonPressed(1, "repeat"), ButtonReleased(1, "repeat")
    ]
    assert sim.data("state")["lamp_commands"] >= commands_before + 4  # every seat again
    assert sim.data("lamps")["1"]["repeat"] == "on"


@pytest.mark.timeout(120)
def test_a_timed_disconnect_comes_back_by_itself(sim: SimProcess, watcher: Watcher) -> None:
    # Silent for four link timeouts: a host polled late on a loaded machine still sees the
    # link go before the panel speaks again.
    assert sim.cmd("disconnect 3.2") == "OK"
    watcher.until(lambda: LinkDown("timeout") in watcher.seen)
    watcher.until(lambda: watcher.host.link_up)
    assert sim.data("state")["silent"] is False


@pytest.mark.timeout(120)
def test_a_panel_reboot_restarts_the_session_and_the_lamps_come_back(
    sim: SimProcess, watcher: Watcher
) -> None:
    host = watcher.host
    host.set_lamp(2, "+10", "on")
    assert sim.cmd("key attendant on") == "OK"
    watcher.until(lambda: _lamps_match(sim, host) and KeySwitch("attendant", True) in watcher.seen)
    watcher.take()
    assert sim.cmd("reboot") == "OK"
    watcher.until(lambda: host.link_up and watcher.seen.count(Door(False)) == 1)
    watcher.until(lambda: _lamps_match(sim, host))
    assert watcher.take() == [
        LinkDown("restart"), LinkUp(new_session=True, panel_id=17, seats=4),
        KeySwitch("operator", False), KeySwitch("attendant", True), Door(False),
    ]
    assert sim.data("lamps")["2"]["+10"] == "on"


@pytest.mark.timeout(120)
def test_control_errors_are_one_line_each(sim: SimProcess) -> None:
    assert sim.cmd("press 1 hit").startswith("ERR unknown button")
    assert sim.cmd("press 5 start").startswith("ERR this panel has 4 seats")
    assert sim.cmd("release 1 start").startswith("ERR")
    assert sim.cmd("key manager on").startswith("ERR")
    assert sim.cmd("door ajar").startswith("ERR")
    assert sim.cmd("fly").startswith("ERR unknown command")
    assert sim.cmd("").startswith("ERR")
    assert sim.cmd("help").startswith("OK commands:")


@pytest.mark.timeout(120)
def test_the_simulator_listens_on_a_socket_url_too() -> None:
    proc = SimProcess("--link", "socket://127.0.0.1:0", "--seats", "2")
    try:
        assert proc.link.startswith("socket://127.0.0.1:")
        with PanelHost(proc.link) as host:
            w = Watcher(host)
            w.until(lambda: host.link_up)
            assert proc.cmd("tap 2 auto") == "OK"
            host.set_lamp(2, "auto", "blink")
            w.until(lambda: ButtonReleased(2, "auto") in w.seen)
            w.until(lambda: proc.data("lamps")["2"]["auto"] == "blink")
            assert w.inputs()[-2:] == [ButtonPressed(2, "auto"), ButtonReleased(2, "auto")]
    finally:
        assert proc.close() == 0


@pytest.mark.timeout(120)
def test_the_simulator_embedded_in_a_thread_with_the_host_in_a_thread(tmp_path: Path) -> None:
    control = f"unix:{tmp_path / 'panel.sock'}"
    with PanelSimulator(seats=3, panel_id=5, control=control) as sim:
        assert sim.link_url.startswith("/dev/")
        assert sim.control_address == control
        host = PanelHost(sim.link_url)
        host.start(interval=0.002)
        try:
            deadline = time.monotonic() + 30  # bounds a hang only
            while not host.link_up and time.monotonic() < deadline:
                time.sleep(0.01)
            assert host.link_up
            sim.tap(3, "max")
            sim.set_door(True)
            host.set_lamp(3, "max", "on")
            with socket.socket(socket.AF_UNIX) as sock:  # the control channel works embedded too
                sock.connect(str(tmp_path / "panel.sock"))
                sock.sendall(b"tap 1 x2\n")
                assert sock.makefile().readline() == "OK\n"
            seen: list[object] = []
            deadline = time.monotonic() + 30  # bounds a hang only
            while time.monotonic() < deadline and (
                ButtonReleased(1, "x2") not in seen or sim.lamps()["3"]["max"] != "on"
            ):
                seen += host.events()
                time.sleep(0.01)
            seen += host.events()
            inputs = [e for e in seen if isinstance(e, (ButtonPressed, ButtonReleased, Door))]
            assert inputs[-5:] == [
                ButtonPressed(3, "max"), ButtonReleased(3, "max"), Door(True),
                ButtonPressed(1, "x2"), ButtonReleased(1, "x2"),
            ]
            assert sim.lamps()["3"]["max"] == "on"
        finally:
            host.close()
    assert not (tmp_path / "panel.sock").exists()


def test_the_control_language_without_a_link() -> None:
    with PanelSimulator(seats=2) as sim:
        ctl = Controller(sim)
        assert ctl.handle("press 1 start") == "OK"
        assert ctl.handle("press 1 start").startswith("ERR")
        assert ctl.handle("release 1 START") == "OK"
        assert ctl.handle("tap 2 +2") == "OK"
        assert ctl.handle("key Operator ON") == "OK"
        assert ctl.handle("disconnect 0").startswith("ERR")
        assert ctl.handle("disconnect x").startswith("ERR")
        assert ctl.handle("disconnect") == "OK" and sim.state()["silent"]
        assert ctl.handle("reconnect") == "OK" and not sim.state()["silent"]
        assert json.loads(ctl.handle("lamps")[3:]) == {
            "1": {b: "off" for b in BUTTONS}, "2": {b: "off" for b in BUTTONS}
        }
        state = json.loads(ctl.handle("state")[3:])
        assert state["keys"] == {"operator": True, "attendant": False}
        assert state["pressed"] == []
        assert ctl.handle("quit") == "OK" and ctl.quit


@pytest.mark.timeout(120)
def test_a_bad_command_line_is_one_line_on_stderr_and_status_2() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "hardware.sim.panel", "--seats", "9"],
        cwd=ROOT, capture_output=True, text=True, timeout=15,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("hardware.sim.panel:") and done.stderr.count("\n") == 1
