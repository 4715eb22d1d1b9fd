"""PanelHost against the pure panel model through a memory transport, on a manual clock:
the event queue, lamps sent only when they change and all again when the link comes up,
key and door levels, a failing transport."""

from __future__ import annotations

import pytest

from hardware.clock import ManualClock
from hardware.panel.codec import FrameDecoder
from hardware.panel.connection import LinkDown, LinkUp
from hardware.panel.host import NvNotSupported, PanelHost
from hardware.panel.messages import (
    BUTTONS,
    SEQUENCED,
    ButtonPressed,
    ButtonReleased,
    Door,
    KeySwitch,
    LampState,
    Message,
    RequestState,
    SetLamp,
    SetSeatLamps,
    decode_message,
)
from hardware.panel.testing import MemoryTransport
from hardware.sim.panel_device import PanelDevice
from hardware.transport import TransportError


class Bench:
    """A PanelHost and a PanelDevice joined in memory; every host command is sniffed."""

    def __init__(self, seats: int = 4) -> None:
        self.clock = ManualClock(100.0)
        self.transport = MemoryTransport()
        self.host = PanelHost(transport=self.transport, clock=self.clock, session=42)
        self.panel = PanelDevice(panel_id=3, seats=seats)
        self.cut = False
        self._sniffer = FrameDecoder()
        self.commands: list[Message] = []

    def step(self, dt: float = 0.005) -> None:
        self.clock.advance(dt)
        now = self.clock()
        self.host.poll()
        data = self.transport.take_written()
        for frame in self._sniffer.feed(data):
            msg = decode_message(frame.type, frame.payload)
            if isinstance(msg, SEQUENCED):
                self.commands.append(msg)
        if data and not self.cut:
            self.panel.receive_data(data, now)
        self.panel.tick(now)
        out = self.panel.data_to_send()
        if out and not self.cut:
            self.transport.incoming += out

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / 0.005)):
            self.step()

    def take_commands(self) -> list[Message]:
        out, self.commands = self.commands, []
        return out


@pytest.fixture
def bench() -> Bench:
    b = Bench()
    b.run(0.2)
    return b


def test_the_link_comes_up_with_the_panel_switches_and_every_seat_lamp(bench: Bench) -> None:
    assert bench.host.events() == [
        LinkUp(new_session=True, panel_id=3, seats=4),
        KeySwitch("operator", False),
        KeySwitch("attendant", False),
        Door(False),
    ]
    assert bench.host.link_up and bench.host.panel == LinkUp(True, 3, 4)
    off = tuple(LampState.OFF for _ in BUTTONS)
    assert bench.take_commands() == [SetSeatLamps(seat, off) for seat in (1, 2, 3, 4)]
    assert bench.host.keys == {"operator": False, "attendant": False}
    assert bench.host.door_open is False


def test_presses_come_out_of_the_queue_in_order_once(bench: Bench) -> None:
    bench.host.events()
    bench.panel.tap(2, "double", bench.clock())
    bench.panel.press(4, "+10", bench.clock())
    bench.run(0.05)
    assert bench.host.get_event() == ButtonPressed(2, "double")
    assert bench.host.events() == [ButtonReleased(2, "double"), ButtonPressed(4, "+10")]
    assert bench.host.get_event() is None


def test_a_lamp_is_sent_only_when_it_changes(bench: Bench) -> None:
    bench.take_commands()
    bench.host.set_lamp(1, "start", "on")
    bench.host.set_lamp(1, "start", LampState.ON)
    bench.host.set_lamp(1, "draw", "off")  # already off
    bench.run(0.05)
    assert bench.take_commands() == [SetLamp(1, "start", LampState.ON)]
    assert bench.panel.lamps[1]["start"] is LampState.ON
    bench.host.set_lamp(1, "start", "blink")
    bench.host.set_lamp(1, "start", True)
    bench.run(0.05)
    assert bench.take_commands() == [
        SetLamp(1, "start", LampState.BLINK), SetLamp(1, "start", LampState.ON)
    ]


def test_several_changes_go_as_one_seat_message_and_none_as_nothing(bench: Bench) -> None:
    bench.take_commands()
    bench.host.set_lamps(2, {"stand": "on", "draw": "on", "double": "blink", "split": "off"})
    bench.run(0.05)
    (cmd,) = bench.take_commands()
    assert isinstance(cmd, SetSeatLamps) and cmd.seat == 2
    assert cmd.as_dict() == bench.host.lamps(2)
    assert bench.panel.lamps[2] == bench.host.lamps(2)
    bench.host.set_lamps(2, {"stand": "on", "draw": "on"})
    bench.host.set_lamps(2, {"draw": "off"})
    bench.run(0.05)
    assert bench.take_commands() == [SetLamp(2, "draw", LampState.OFF)]


def test_lamps_wait_while_the_link_is_down_and_all_go_again_when_it_is_back(bench: Bench) -> None:
    bench.host.events()
    bench.host.set_lamp(3, "insurance", "blink")
    bench.run(0.05)
    bench.cut = True
    bench.run(1.0)
    assert bench.host.events() == [LinkDown("timeout")]
    assert bench.panel.shown_lamps()[3]["insurance"] is LampState.OFF
    bench.take_commands()
    bench.host.set_lamp(3, "collect", "on")
    bench.host.set_lamp(1, "max", "on")
    bench.run(0.05)
    assert bench.take_commands() == []  # nothing is sent into the void
    bench.cut = False
    bench.run(0.3)
    assert bench.host.events() == [LinkUp(new_session=False, panel_id=3, seats=4)]
    commands = bench.take_commands()
    assert commands[0] == RequestState()
    assert {c.seat for c in commands if isinstance(c, SetSeatLamps)} == {1, 2, 3, 4}
    assert not any(isinstance(c, SetLamp) for c in commands)
    assert bench.panel.shown_lamps()[3]["collect"] is LampState.ON
    assert bench.panel.shown_lamps()[1]["max"] is LampState.ON
    assert bench.panel.shown_lamps()[3]["insurance"] is LampState.BLINK


def test_key_and_door_events_come_only_when_the_position_changes(bench: Bench) -> None:
    bench.host.events()
    bench.panel.set_key("operator", True, bench.clock())
    bench.panel.set_door(True, bench.clock())
    bench.run(0.05)
    assert bench.host.events() == [KeySwitch("operator", True), Door(True)]
    bench.host.request_state()
    bench.run(0.05)
    assert bench.host.events() == []  # the report repeats what the host knows
    assert bench.panel.state_reports == 2
    assert bench.host.keys == {"operator": True, "attendant": False} and bench.host.door_open


def test_a_panel_restart_resets_what_the_host_knows_and_resends_the_lamps(bench: Bench) -> None:
    bench.host.set_lamp(4, "auto", "on")
    bench.run(0.05)
    bench.host.events()
    bench.panel = PanelDevice(panel_id=3, seats=4, keys={"attendant": True})
    bench.run(0.3)
    assert bench.host.events() == [
        LinkDown("restart"),
        LinkUp(new_session=True, panel_id=3, seats=4),
        KeySwitch("operator", False),
        KeySwitch("attendant", True),
        Door(False),
    ]
    assert bench.panel.lamps[4]["auto"] is LampState.ON
    assert bench.host.stats["panel_restarts"] == 1


def test_a_failing_transport_is_counted_and_the_link_goes_down(bench: Bench) -> None:
    bench.host.events()
    bench.transport.fail = True
    bench.run(1.0)
    assert bench.host.events() == [LinkDown("timeout")]
    assert bench.host.stats["transport_errors"] > 0
    bench.transport.fail = False
    bench.run(0.3)
    assert bench.host.events() == [LinkUp(new_session=False, panel_id=3, seats=4)]


def test_corrupt_bytes_are_counted_in_the_stats(bench: Bench) -> None:
    bench.transport.incoming += b"\x7e\x01\x02\x03\x04\x05\x06\x07\x7e"
    bench.run(0.05)
    assert bench.host.stats["corrupt_frames"] == 1
    assert bench.host.link_up


def test_bad_arguments_are_refused(bench: Bench) -> None:
    with pytest.raises(ValueError):
        bench.host.set_lamp(9, "start", "on")
    with pytest.raises(ValueError):
        bench.host.set_lamp(1, "hit", "on")
    with pytest.raises(ValueError):
        bench.host.set_lamp(1, "start", "bright")
    with pytest.raises(ValueError):
        PanelHost()
    with pytest.raises(TransportError):
        PanelHost("/nonexistent/tty-for-the-panel")


def test_close_closes_the_transport(bench: Bench) -> None:
    with bench.host:
        pass
    assert bench.transport.closed


def test_the_nv_exchange_waits_through_the_injected_sleep_in_the_tests_own_time(bench: Bench, monkeypatch) -> None:
    """Without the poll thread, the NV exchange pauses between polls through ``sleep`` (issue 22:
    it slept for real, inline): a panel that never answers takes no real second."""
    monkeypatch.setattr("time.sleep", lambda s: pytest.fail("slept for real"))
    bench.host.sleep = bench.step  # each pause: the test's clock moves and the bytes go round
    bench.cut = True  # the panel hears nothing more, and the link stays up for a while
    before = bench.clock()
    with pytest.raises(NvNotSupported):
        bench.host.read_head(timeout=0.2)
    assert 0.2 <= bench.clock() - before < 0.3
