"""The panel link's two state machines joined by a fake line: sequence numbers, acks,
retransmission, de-duplication, heartbeats, link loss and sessions, all on injected time."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from hardware.panel.codec import Frame, encode
from hardware.panel.connection import (
    HEARTBEAT_INTERVAL,
    HostConnection,
    LinkDown,
    LinkUp,
    PanelConnection,
    QueueFull,
    next_seq,
    next_session,
)
from hardware.panel.messages import (
    BUTTONS,
    ButtonPressed,
    ButtonReleased,
    Door,
    Heartbeat,
    KeySwitch,
    LampState,
    RequestState,
    SetLamp,
    SetSeatLamps,
    encode_message,
)
from hardware.panel.testing import ConnectionPair, FaultyLine
from hardware.sim.panel_device import PanelDevice

INPUTS = (ButtonPressed, ButtonReleased, KeySwitch, Door)


def _pair(**faults: float) -> tuple[HostConnection, PanelConnection, ConnectionPair]:
    host, panel = HostConnection(session=100), PanelConnection(panel_id=9, seats=4)
    rng = random.Random(1)
    pair = ConnectionPair(
        host, panel, to_panel=FaultyLine(rng, **faults), to_host=FaultyLine(rng, **faults)
    )
    return host, panel, pair


def _up(pair: ConnectionPair) -> None:
    pair.run_until(lambda: pair.host.link_up and pair.panel.link_up, 2.0)


def _inputs(events: Sequence[object]) -> list[object]:
    return [e for e in events if isinstance(e, INPUTS)]


def _presses(rng: random.Random, n: int) -> list[ButtonPressed | ButtonReleased]:
    out: list[ButtonPressed | ButtonReleased] = []
    for _ in range(n):
        seat, button = rng.randint(1, 4), rng.choice(BUTTONS)
        out += [ButtonPressed(seat, button), ButtonReleased(seat, button)]
    return out


def test_sequence_numbers_wrap_past_255_to_1_and_sessions_skip_0() -> None:
    assert next_seq(1) == 2 and next_seq(254) == 255 and next_seq(255) == 1
    assert next_session(0xFFFFFFFF) == 1


def test_handshake_brings_both_ends_up_with_the_panel_identity() -> None:
    host, panel, pair = _pair()
    took = pair.run_until(lambda: host.link_up and panel.link_up, 1.0)
    assert took < 0.05
    assert host.events() == [LinkUp(new_session=True, panel_id=9, seats=4)]
    assert panel.events() == [LinkUp(new_session=True, panel_id=9, seats=4)]
    assert panel.host_session == host.session == 100


def test_events_sent_before_the_session_starts_are_delivered_after_it() -> None:
    host, panel, pair = _pair()
    panel.send(ButtonPressed(1, "start"), 0.0)
    host.send(SetLamp(2, "x2", LampState.ON), 0.0)
    _up(pair)
    pair.run(0.1)
    assert _inputs(host.events()) == [ButtonPressed(1, "start")]
    assert [e for e in panel.events() if isinstance(e, SetLamp)] == [SetLamp(2, "x2", LampState.ON)]


def test_every_event_is_acknowledged_and_leaves_the_queue() -> None:
    host, panel, pair = _pair()
    _up(pair)
    for event in _presses(random.Random(2), 20):
        panel.send(event, pair.now)
    pair.run(0.2)
    assert panel.pending == 0
    assert host.stats["delivered"] == 40
    assert panel.stats["retransmissions"] == 0


def test_at_most_a_window_of_frames_is_in_flight() -> None:
    _host, panel, pair = _pair()
    _up(pair)
    pair.to_host.cut = True
    for event in _presses(random.Random(3), 10):
        panel.send(event, pair.now)
    pair.run(0.1)
    in_flight = sum(1 for p in panel._outbox if p.sent_at is not None)
    assert in_flight == panel.window == 8


def test_a_lost_event_is_retransmitted_and_delivered_once() -> None:
    host, panel, pair = _pair()
    _up(pair)
    host.events()
    pair.to_host.cut = True
    panel.send(ButtonPressed(3, "double"), pair.now)
    pair.run(0.01)
    pair.to_host.cut = False
    pair.run(0.3)
    assert _inputs(host.events()) == [ButtonPressed(3, "double")]
    assert panel.stats["retransmissions"] >= 1
    assert panel.pending == 0


def test_a_lost_ack_makes_a_duplicate_that_is_dropped() -> None:
    host, panel, pair = _pair()
    _up(pair)
    host.events()
    pair.to_panel.cut = True  # the host's acks (and heartbeats) are lost
    panel.send(ButtonPressed(1, "split"), pair.now)
    pair.run(0.45)  # two retransmissions, still within the link timeout
    pair.to_panel.cut = False
    pair.run(0.3)
    assert _inputs(host.events()) == [ButtonPressed(1, "split")]
    assert host.stats["duplicates"] >= 1
    assert panel.pending == 0


def test_a_gap_is_never_skipped() -> None:
    host, panel, pair = _pair()
    _up(pair)
    host.events()
    pair.to_host.cut = True
    panel.send(ButtonPressed(1, "+2"), pair.now)  # seq 1: lost
    pair.exchange()
    pair.to_host.cut = False
    panel.send(ButtonReleased(1, "+2"), pair.now)  # seq 2 arrives first
    pair.exchange()
    assert _inputs(host.events()) == []
    assert host.stats["out_of_order"] == 1
    pair.run(0.3)
    assert _inputs(host.events()) == [ButtonPressed(1, "+2"), ButtonReleased(1, "+2")]


@pytest.mark.parametrize("seed", range(30))
def test_a_bad_line_loses_and_doubles_no_press(seed: int) -> None:
    rng = random.Random(seed)
    host, panel = HostConnection(session=7), PanelConnection(seats=4)
    faults = dict(drop=0.15, duplicate=0.15, corrupt=0.15, truncate=0.05, garbage=0.1)
    pair = ConnectionPair(
        host, panel,
        to_panel=FaultyLine(random.Random(seed * 2), latency=0.003, **faults),
        to_host=FaultyLine(random.Random(seed * 2 + 1), latency=0.003, **faults),
    )
    sent = _presses(rng, 150)
    lamps = [
        SetLamp(rng.randint(1, 4), rng.choice(BUTTONS), rng.choice(list(LampState)))
        for _ in range(100)
    ]
    for i, event in enumerate(sent):
        panel.send(event, pair.now)
        if i < len(lamps):
            host.send(lamps[i], pair.now)
        pair.run(rng.choice([0.0, 0.005, 0.02]))
    pair.run_until(lambda: panel.pending == 0 and host.pending == 0, 30.0)
    assert _inputs(host.events()) == sent  # exactly once, in order
    assert [e for e in panel.events() if isinstance(e, SetLamp)] == lamps
    assert host.stats["corrupt_frames"] + panel.stats["corrupt_frames"] > 0
    assert host.stats["duplicates"] > 0 and panel.stats["retransmissions"] > 0


def test_more_than_255_events_wrap_the_sequence_numbers() -> None:
    host, panel, pair = _pair()
    _up(pair)
    sent = _presses(random.Random(4), 200)
    for event in sent:
        panel.send(event, pair.now)
        pair.run(0.005)
    pair.run(0.3)
    assert _inputs(host.events()) == sent


def test_heartbeats_flow_both_ways_when_idle() -> None:
    host, panel, pair = _pair()
    _up(pair)
    before = host.stats["frames_in"], panel.stats["frames_in"]
    pair.run(1.0)
    assert host.stats["frames_in"] - before[0] == pytest.approx(1.0 / HEARTBEAT_INTERVAL, abs=1)
    assert panel.stats["frames_in"] - before[1] == pytest.approx(1.0 / HEARTBEAT_INTERVAL, abs=1)
    assert host.link_up and panel.link_up


@pytest.mark.parametrize("direction", ["to_host", "to_panel", "both"])
def test_link_loss_is_noticed_within_a_second_and_recovery_loses_nothing(direction: str) -> None:
    host, panel, pair = _pair()
    _up(pair)
    host.events(), panel.events()
    pair.run(0.13)  # anywhere between heartbeats
    lines = [pair.to_host, pair.to_panel] if direction == "both" else [getattr(pair, direction)]
    for line in lines:
        line.cut = True
    cut_at = pair.now
    deaf = host if pair.to_host in lines else panel
    took = pair.run_until(lambda: not deaf.link_up, 1.0)
    assert took <= 1.0
    assert deaf.events() == [LinkDown("timeout")]
    panel.send(ButtonPressed(4, "collect"), pair.now)  # pressed while the link is down
    host.send(SetLamp(4, "collect", LampState.BLINK), pair.now)
    pair.run(2.0)
    for line in lines:
        line.cut = False
    pair.run_until(lambda: host.link_up and panel.link_up, 1.0)
    pair.run(0.5)
    assert pair.now - cut_at > 2.0
    host_events, panel_events = host.events(), panel.events()
    assert _inputs(host_events) == [ButtonPressed(4, "collect")]
    assert [e for e in panel_events if isinstance(e, SetLamp)] == [
        SetLamp(4, "collect", LampState.BLINK)
    ]
    deaf_events = host_events if deaf is host else panel_events
    assert LinkUp(new_session=False, panel_id=9, seats=4) in deaf_events
    assert not any(isinstance(e, LinkUp) and e.new_session for e in host_events + panel_events)


def test_link_up_again_is_reported_as_the_same_session() -> None:
    host, _panel, pair = _pair()
    _up(pair)
    host.events()
    pair.to_host.cut = True
    pair.run(1.0)
    pair.to_host.cut = False
    pair.run(0.3)
    assert host.events() == [LinkDown("timeout"), LinkUp(new_session=False, panel_id=9, seats=4)]


def test_both_ends_notice_a_dead_peer_with_ticks_alone() -> None:
    host, panel = HostConnection(session=3), PanelConnection()
    pair = ConnectionPair(host, panel)
    _up(pair)
    host.events(), panel.events()
    t = pair.now
    host.tick(t + 0.79)
    panel.tick(t + 0.79)
    assert host.link_up and panel.link_up
    host.tick(t + 0.81)
    panel.tick(t + 0.81)
    assert host.events() == [LinkDown("timeout")] and panel.events() == [LinkDown("timeout")]


def test_a_panel_restart_starts_a_new_session_and_the_host_says_so() -> None:
    host = HostConnection(session=50)
    panel = PanelDevice(panel_id=2, seats=2)
    pair = ConnectionPair(host, panel)
    _up(pair)
    host.send(SetLamp(1, "start", LampState.ON), pair.now)
    pair.run(0.1)
    assert panel.lamps[1]["start"] is LampState.ON
    host.events()
    pair.panel = panel = PanelDevice(panel_id=2, seats=2)  # power cycle
    panel.tick(pair.now)
    pair.run_until(lambda: host.link_up and panel.link_up, 1.0)
    events = host.events()
    assert events[:2] == [LinkDown("restart"), LinkUp(new_session=True, panel_id=2, seats=2)]
    assert set(events[2:]) == {
        KeySwitch("operator", False), KeySwitch("attendant", False), Door(False)
    }
    assert host.session == 51 and panel.conn.host_session == 51
    assert host.stats["panel_restarts"] == 1


def test_a_host_restart_is_adopted_by_the_panel_and_its_queue_survives() -> None:
    host = HostConnection(session=10)
    panel = PanelConnection()
    pair = ConnectionPair(host, panel)
    _up(pair)
    panel.events()
    pair.to_host.cut = True
    panel.send(ButtonPressed(2, "max"), pair.now)  # never acknowledged by the old host
    pair.run(0.05)
    pair.to_host.cut = False
    pair.host = host = HostConnection(session=99)
    pair.run_until(lambda: host.link_up, 1.0)
    pair.run(0.3)
    assert panel.events() == [LinkDown("restart"), LinkUp(new_session=True, panel_id=1, seats=4)]
    assert _inputs(host.events()) == [ButtonPressed(2, "max")]
    assert panel.host_session == 99 and panel.stats["host_restarts"] == 1


def test_a_copy_of_a_hello_changes_nothing() -> None:
    host, panel, pair = _pair(duplicate=1.0)
    _up(pair)
    panel.send(ButtonPressed(1, "auto"), pair.now)
    pair.run(0.5)
    assert _inputs(host.events()) == [ButtonPressed(1, "auto")]
    assert host.session == 100 and host.stats["panel_restarts"] == 0


def test_sequenced_frames_before_a_session_are_dropped_unacknowledged() -> None:
    host = HostConnection(session=4)
    kind, payload = encode_message(ButtonPressed(1, "stand"))
    host.receive_data(encode(Frame(kind, 1, payload)), 0.0)
    assert host.events() == []
    assert host.stats["unsynchronised"] == 1
    host.data_to_send()  # only its hello


def test_messages_going_the_wrong_way_are_refused() -> None:
    host, panel, pair = _pair()
    _up(pair)
    kind, payload = encode_message(SetLamp(1, "x2", LampState.ON))
    host.receive_data(encode(Frame(kind, 1, payload)), pair.now)
    assert host.stats["wrong_direction"] == 1
    kind, payload = encode_message(Heartbeat(0))
    host.receive_data(encode(Frame(kind, 3, payload)), pair.now)  # a heartbeat with a seq
    assert host.stats["bad_message"] == 1
    with pytest.raises(TypeError):
        host.send(ButtonPressed(1, "x2"), pair.now)
    with pytest.raises(TypeError):
        panel.send(RequestState(), pair.now)


def test_a_full_queue_refuses_more() -> None:
    panel = PanelConnection(max_pending=3)
    for _ in range(3):
        panel.send(ButtonPressed(1, "x2"), 0.0)
    with pytest.raises(QueueFull):
        panel.send(ButtonPressed(1, "x2"), 0.0)


def test_request_state_and_seat_lamps_reach_the_panel_model() -> None:
    host = HostConnection(session=8)
    panel = PanelDevice(seats=3)
    pair = ConnectionPair(host, panel)
    _up(pair)
    host.events()
    panel.set_key("attendant", True, pair.now)
    states = tuple(LampState.BLINK if i % 2 else LampState.ON for i in range(13))
    host.send(SetSeatLamps(3, states), pair.now)
    host.send(RequestState(), pair.now)
    pair.run(0.2)
    assert panel.lamps[3] == dict(zip(BUTTONS, states, strict=True))
    assert _inputs(host.events()) == [
        KeySwitch("attendant", True), KeySwitch("operator", False), KeySwitch("attendant", True),
        Door(False),
    ]


def test_the_panel_shows_lamps_off_while_the_link_is_down_and_back_after() -> None:
    host = HostConnection(session=8)
    panel = PanelDevice(seats=1)
    pair = ConnectionPair(host, panel)
    _up(pair)
    host.send(SetLamp(1, "stand", LampState.ON), pair.now)
    pair.run(0.1)
    assert panel.shown_lamps()[1]["stand"] is LampState.ON
    pair.to_panel.cut = True
    pair.run(1.0)
    assert panel.shown_lamps()[1]["stand"] is LampState.OFF
    pair.to_panel.cut = False
    pair.run(0.3)
    assert panel.shown_lamps()[1]["stand"] is LampState.ON


def test_timing_settings_are_checked() -> None:
    with pytest.raises(ValueError):
        HostConnection(heartbeat=1.0, link_timeout=0.5)
    with pytest.raises(ValueError):
        PanelConnection(window=0)
    with pytest.raises(ValueError):
        HostConnection(session=0)


def test_a_host_that_was_busy_sees_no_false_link_loss_when_bytes_waited_for_it() -> None:
    host, panel = HostConnection(session=3), PanelConnection()
    pair = ConnectionPair(host, panel)
    _up(pair)
    host.events()
    waiting = bytearray()
    for _ in range(400):  # the panel goes on for 2 s while the host does nothing
        pair.now += 0.005
        panel.tick(pair.now)
        waiting += panel.data_to_send()
    host.receive_data(bytes(waiting), pair.now)
    host.tick(pair.now)
    assert host.events() == [] and host.link_up
