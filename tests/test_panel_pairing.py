"""The panel link against a spliced device, the whole cabinet on its simulators, and pairing a panel
over a real pty with ``cabinet panel pair`` (issue 24, finding 5).

Finding 5 on beba629: frames carried a checksum and a sequence number and nothing a spliced
device could not compute, so a forged ``KEY attendant on`` and ``Collect`` cleared a tilt. Now
every frame carries a MAC under the key paired at installation: the forged frames press nothing,
turn no key and are counted (``unauthenticated``; journaled for the operator).
"""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.panel.codec import AUTH_VERSION, Frame, FrameDecoder, encode
from hardware.panel.host import PanelHost
from hardware.panel.messages import ButtonPressed, ButtonReleased, KeySwitch, LampState, SetLamp, encode_message
from hardware.sim.panel import PanelSimulator

from machine.devtools.harness import SimulatedCabinet
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from machine.operator.panelpair import RefusedFrames, panel_key_path, read_key
from tests.e2e_helpers import ready, run_until
from tests.helpers import two_seats

ROOT = Path(__file__).resolve().parents[1]


class Splice:
    """A device spliced into the panel's wire toward the host from the start: it reads every
    frame the panel sends (so it knows the sequence number and counter the host expects next)
    and writes frames of its own onto the wire. It does not know the key."""

    def __init__(self, sim: PanelSimulator) -> None:
        self.link = sim._link  # noqa: SLF001 - the wire itself, where a spliced device sits
        self.decoder = FrameDecoder()
        self.seq = self.counter = 0
        write = self.link.write

        def tapped(data: bytes) -> None:
            for frame in self.decoder.feed(data):
                self.seq = frame.seq or self.seq  # a retransmission ends with the newest too
                self.counter = max(self.counter, getattr(frame, "counter", 0))
            write(data)

        self.link.write = tapped  # type: ignore[method-assign]

    @classmethod
    def on_every_panel(cls, monkeypatch: pytest.MonkeyPatch) -> list[Splice]:
        """Splice into every simulated panel as it starts, before its link comes up."""
        splices: list[Splice] = []
        start = PanelSimulator.start

        def spliced(self: PanelSimulator) -> PanelSimulator:
            splices.append(cls(self))
            return start(self)

        monkeypatch.setattr(PanelSimulator, "start", spliced)
        return splices

    def forge(self, *messages: object) -> None:
        """Each message as the host expects the next one: plain, and again framed as version 2
        with the next counter and a MAC it has to guess; the CRC right on both."""
        out = b""
        for msg in messages:
            kind, payload = encode_message(msg)  # type: ignore[arg-type]
            self.seq = self.seq % 255 + 1
            out += encode(Frame(kind, self.seq, payload))
            self.counter += 1
            out += encode(Frame(kind, self.seq, payload, AUTH_VERSION, self.counter, random.randbytes(8)))
        self.link.write(out)


@pytest.mark.timeout(120)
def test_a_forged_attendant_key_and_collect_clear_no_tilt(tmp_path, monkeypatch):
    monkeypatch.setattr("machine.operator.panelpair.REPORT_EVERY", 0.0)
    cfg = temporary(parse_config(two_seats("decision_timeout: 1.5", "betting_time: 30"), "e2e.yaml"), tmp_path)
    splices = Splice.on_every_panel(monkeypatch)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda rnd: rnd.pending.options[0])
    try:
        ready(app)
        cab = app.cab
        [splice] = splices
        app.sims.bus.control.coin(2, "EU200A")
        run_until(app, lambda: cab.seats[1].money.credit == 20, what="a coin")
        app.sims.bus.control.coin_error(2, 20)  # a coin on a string: the seat tilts, the attendant must come
        run_until(app, lambda: cab.seats[1].lock == "tilt", what="the tilt")
        splice.forge(KeySwitch("attendant", True), ButtonPressed(1, "collect"), ButtonReleased(1, "collect"),
                     KeySwitch("attendant", False))

        def refused_events() -> list[dict]:
            return [r.data for r in cab.journal.records("event") if r.data.get("what") == "panel frames refused"]

        # the forged frames read and refused, and the refusal journaled (not a fixed number of frames:
        # a loaded machine may take longer to get the frames across)
        run_until(app, lambda: app.panel.stats["unauthenticated"] >= 4 and refused_events()
                  and refused_events()[-1]["total"] == app.panel.stats["unauthenticated"], what="the refusals")
        assert app.panel.keys["attendant"] is False  # as the real panel reported it
        assert cab.seats[1].lock == "tilt" and cab.seats[1].money.credit == 20  # nothing cleared, nothing paid
        refused = app.panel.stats["unauthenticated"]
        assert refused >= 4  # forged frames counted (the plain ones, and those with a guessed MAC)
        events = refused_events()
        assert events and events[-1]["total"] == refused  # what the operator sees in the event log
        app.sims.panel.set_key("attendant", True)  # the real attendant's key: that works as before
        run_until(app, lambda: app.panel.keys["attendant"] is True, what="the real attendant key")
    finally:
        app.close()


def test_the_refused_frames_reach_the_event_log_at_most_once_a_minute() -> None:
    class Panel:
        stats = {"unauthenticated": 0}

    class Cab:
        def __init__(self) -> None:
            self.events: list[tuple[str, float, dict]] = []

        def operator_event(self, what: str, now: float, **detail: int) -> None:
            self.events.append((what, now, detail))

    panel, cab, watch = Panel(), Cab(), RefusedFrames()
    watch.check(panel, cab, 0.0)
    panel.stats["unauthenticated"] = 3
    watch.check(panel, cab, 1.0)
    panel.stats["unauthenticated"] = 5
    watch.check(panel, cab, 30.0)
    watch.check(panel, cab, 61.0)
    assert cab.events == [("panel frames refused", 1.0, {"count": 3, "total": 3}),
                          ("panel frames refused", 61.0, {"count": 2, "total": 5})]


# -- cabinet panel pair, over a pty, against the simulator as its own process -------------------------


def _memory(tmp: Path) -> str:
    return f"memory: {{key_file: {tmp}/key/machine.key, head_stores: [{tmp}/usb]}}"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}


class PanelProcess:
    """``python -m hardware.sim.panel --nv-file F`` on a pty, with its control channel."""

    def __init__(self, nv_file: Path) -> None:
        from hardware.sim.launcher import SimControl

        self.proc = subprocess.Popen([sys.executable, "-m", "hardware.sim.panel", "--nv-file", str(nv_file)],
                                     stdout=subprocess.PIPE, env=_env(), text=True)
        assert self.proc.stdout is not None
        self.link = self.proc.stdout.readline().split()[1]
        self.control = SimControl(self.proc.stdout.readline().split()[1])

    def cmd(self, line: str) -> str:
        return self.control.command(line)

    def close(self) -> None:
        self.cmd("quit")
        self.control.close()
        self.proc.wait(5)
        assert self.proc.stdout is not None
        self.proc.stdout.close()


def _pair(tmp: Path, link: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "machine", "panel", "pair", "--config", str(tmp / "cfg.yaml"),
                           "--panel", link], cwd=tmp, env=_env(), capture_output=True, text=True, timeout=60)


def _comes_up(link: str, key: bytes | None, wait: float = 30.0) -> tuple[bool, dict[str, int]]:
    """Whether a host under ``key`` gets the link up within ``wait`` s (the default only bounds a
    hang on a loaded machine; a host that must NOT come up is given its second explicitly)."""
    with PanelHost(link, key=key) as host:
        end = time.monotonic() + wait
        while time.monotonic() < end and not host.link_up:
            host.poll()
            time.sleep(0.005)
        return host.link_up, host.stats


# slow: two panel processes, three `cabinet panel pair` processes, and two hosts that must NOT come up
# (each waits its second out)
@pytest.mark.timeout(300)
def test_cabinet_panel_pair_pairs_a_panel_over_its_link_and_only_the_paired_key_talks_to_it(tmp_path):
    (tmp_path / "cfg.yaml").write_text(two_seats(_memory(tmp_path)))
    memory = tmp_path / "panel-memory.json"
    panel = PanelProcess(memory)
    try:
        assert _comes_up(panel.link, None)[0]  # a panel never paired speaks plain frames
        done = _pair(tmp_path, panel.link)  # the door is closed, the operator key off
        assert done.returncode == 1 and done.stdout == ""
        assert done.stderr.splitlines() == [f"cabinet panel pair: {panel.link}: the panel refuses to pair: "
                                            "its main door must be open and its operator key on"]
        assert not memory.exists() or json.loads(memory.read_text()).get("link_key") is None
        panel.cmd("door open")
        panel.cmd("key operator on")
        done = _pair(tmp_path, panel.link)
        path = tmp_path / "key" / "machine-panel.key"
        assert done.returncode == 0, done.stderr
        assert done.stdout == f"{panel.link}: panel 1, 4 seats, paired with this cabinet (its key: {path})\n"
        key = bytes.fromhex(path.read_text().strip())
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and not path.with_name(path.name + ".pending").exists()
        assert json.loads(memory.read_text())["link_key"] == key.hex()  # in the panel's non-volatile memory
        assert json.loads(panel.cmd("state"))["paired"] is True
        up, stats = _comes_up(panel.link, key)
        assert up
        plain_up, _ = _comes_up(panel.link, None, wait=1.0)  # a plain host (a forger without the key)...
        assert not plain_up
        end = time.monotonic() + 30  # the panel may read the plain host's last frames late
        while (state := json.loads(panel.cmd("state")))["stats"]["unauthenticated"] == 0 and time.monotonic() < end:
            time.sleep(0.01)
        assert state["stats"]["unauthenticated"] > 0  # ...is refused by the panel, frame by frame
    finally:
        panel.close()
    again = PanelProcess(memory)  # the panel powered up again: still paired
    try:
        assert _comes_up(again.link, key)[0]
        again.cmd("door open")
        again.cmd("key operator on")
        done = _pair(tmp_path, again.link)  # a new key, given under the old one
        assert done.returncode == 0, done.stderr
        new = bytes.fromhex(path.read_text().strip())
        assert new != key and _comes_up(again.link, new)[0] and not _comes_up(again.link, key, wait=1.0)[0]
    finally:
        again.close()


def test_a_pairing_cut_after_the_panel_took_the_key_is_finished_by_the_next(tmp_path):
    from machine.operator.panelpair import pair_panel, write_key

    cfg = parse_config(two_seats(_memory(tmp_path)), "c.yaml")
    path = panel_key_path(cfg, tmp_path)
    pending = path.with_name(path.name + ".pending")
    write_key(pending, bytes(range(32)))  # the pairing wrote it, the panel took it, then the power went
    with PanelSimulator(seats=2, link_key=bytes(range(32))) as sim:
        line = pair_panel(cfg, tmp_path, sim.link_url)
    assert line.endswith(f"paired with this cabinet (its key: {path})")
    assert read_key(path) == bytes(range(32)) and not pending.exists()


def test_the_simulated_devices_are_not_paired_by_the_command(tmp_path, capsys):
    from machine.cli import main

    (tmp_path / "cfg.yaml").write_text(two_seats(_memory(tmp_path)))
    assert main(["panel", "pair", "--config", str(tmp_path / "cfg.yaml")]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "cabinet panel pair: devices.panel is sim: cabinet run pairs its simulated panel itself; give --panel URL"]


def test_a_lamp_command_forged_toward_a_paired_panel_lights_nothing(tmp_path):
    key = bytes(range(32))
    with PanelSimulator(seats=2, link_key=key) as sim, PanelHost(sim.link_url, key=key) as host:
        end = time.monotonic() + 30  # bounds a hang only
        while not host.link_up and time.monotonic() < end:
            host.poll()
            time.sleep(0.005)
        assert host.link_up
        kind, payload = encode_message(SetLamp(1, "collect", LampState.ON))
        host._transport.write(encode(Frame(kind, 1, payload)))  # noqa: SLF001 - a forger on the host's side of the wire
        end = time.monotonic() + 30  # until the panel has read the forged frame (and refused it)
        while sim.state()["stats"]["unauthenticated"] == 0 and time.monotonic() < end:
            host.poll()
            time.sleep(0.005)
        assert sim.lamps()["1"]["collect"] == "off"
        assert sim.state()["stats"]["unauthenticated"] >= 1


def test_a_pairing_whose_answer_was_lost_is_proved_by_the_link_under_the_new_key(tmp_path, monkeypatch):
    from hardware.panel.host import NvNotSupported

    from machine.operator.panelpair import pair_panel

    cfg = parse_config(two_seats(_memory(tmp_path)), "c.yaml")
    took = PanelHost.pair

    def answer_lost(self: PanelHost, key: bytes, timeout: float = 1.2) -> None:
        took(self, key, timeout)  # the panel keeps the key; its answer never arrives
        raise NvNotSupported("the panel does not answer NV_STORE / NV_READ")

    monkeypatch.setattr(PanelHost, "pair", answer_lost)
    with PanelSimulator(seats=2) as sim:
        sim.set_door(True)
        sim.set_key("operator", True)
        line = pair_panel(cfg, tmp_path, sim.link_url)
        assert sim.state()["paired"] is True
    path = panel_key_path(cfg, tmp_path)
    assert line.endswith(f"paired with this cabinet (its key: {path})") and read_key(path) is not None
