"""The cabinet's modes (machine/loop/modes.py) and the router that applies them, without a screen.

The table is tested transition by transition; the router against a real cabinet core on a
throw-away journal, its panel events built by hand, the clock a number the test chooses.
"""

from __future__ import annotations

import pytest

from hardware.buttons import Button
from hardware.panel import ButtonPressed, Door, KeySwitch, LinkDown, LinkUp

from machine.display.screens import banner_text
from machine.loop.modes import (
    BASE_TRANSITIONS,
    OVERLAY_TRANSITIONS,
    ROUTES,
    Action,
    Effect,
    Mode,
    ModeEvent,
    ModeState,
    Route,
    fire,
    observe,
    route,
)
from machine.loop.router import Router
from machine.operator.menu import OperatorMenu

from .cabinet_helpers import boot
from .helpers import stored_pin

OVERLAY_CASES = [
    (ModeEvent.OPERATOR_KEY_ON, Mode.OPERATOR, True, (Effect(Action.PAUSE, "operator"), Effect(Action.OPEN_MENU))),
    (ModeEvent.OPERATOR_KEY_OFF, Mode.OPERATOR, False, (Effect(Action.CLOSE_MENU), Effect(Action.RESUME, "operator"))),
    (ModeEvent.ATTENDANT_KEY_ON, Mode.ATTENDANT, True, ()),
    (ModeEvent.ATTENDANT_KEY_OFF, Mode.ATTENDANT, False, ()),
    (ModeEvent.DOOR_OPENED, Mode.DOOR_OPEN, True, (Effect(Action.PAUSE, "door"),)),
    (ModeEvent.DOOR_CLOSED, Mode.DOOR_OPEN, False, (Effect(Action.RESUME, "door"),)),
    (ModeEvent.LINK_DOWN, Mode.OFFLINE, True, (Effect(Action.PAUSE, "panel"),)),
    (ModeEvent.LINK_UP, Mode.OFFLINE, False, (Effect(Action.RESUME, "panel"),)),
]


# -- the table ------------------------------------------------------------------------------------


def test_every_overlay_event_has_exactly_the_tested_transition():
    assert {c[0] for c in OVERLAY_CASES} == set(OVERLAY_TRANSITIONS)
    assert set(BASE_TRANSITIONS) == {(Mode.ATTRACT, ModeEvent.ACTIVITY), (Mode.PLAYING, ModeEvent.IDLE_TIMEOUT)}
    assert set(ROUTES) == set(Mode)


@pytest.mark.parametrize("event,mode,enter,effects", OVERLAY_CASES, ids=[c[0].name for c in OVERLAY_CASES])
def test_each_overlay_transition_moves_its_mode_with_its_effects_and_fires_once(event, mode, enter, effects):
    before = ModeState(base=Mode.PLAYING, overlays=frozenset() if enter else frozenset({mode}))
    after, done = fire(before, event)
    assert (mode in after.overlays) is enter and after.base is Mode.PLAYING
    assert done == effects
    again, twice = fire(after, event)  # a second report of the same level changes nothing
    assert again == after and twice == ()


def test_seat_activity_leaves_attract_and_the_idle_timeout_returns_to_it():
    s = ModeState()
    assert s.mode is Mode.ATTRACT and s.attract
    s, effects = fire(s, ModeEvent.ACTIVITY)
    assert s.mode is Mode.PLAYING and effects == ()
    assert fire(s, ModeEvent.ACTIVITY)[0] == s
    s, effects = fire(s, ModeEvent.IDLE_TIMEOUT)
    assert s.mode is Mode.ATTRACT and effects == ()
    assert fire(s, ModeEvent.IDLE_TIMEOUT)[0] == s


def test_attract_comes_after_the_idle_time_on_the_injected_clock():
    s = observe(ModeState(), active=True, now=10.0, attract_after=30.0)
    assert s.mode is Mode.PLAYING
    s = observe(s, active=False, now=11.0, attract_after=30.0)
    assert s.mode is Mode.PLAYING and s.idle_since == 11.0
    s = observe(s, active=False, now=40.9, attract_after=30.0)
    assert s.mode is Mode.PLAYING
    s = observe(s, active=True, now=41.0, attract_after=30.0)  # a coin: the idle time starts again
    assert s.mode is Mode.PLAYING and s.idle_since is None
    s = observe(s, active=False, now=50.0, attract_after=30.0)
    s = observe(s, active=False, now=80.0, attract_after=30.0)
    assert s.mode is Mode.ATTRACT


def test_with_no_idle_time_attract_comes_on_the_first_idle_frame_as_it_always_has():
    s = observe(ModeState(base=Mode.PLAYING), active=False, now=5.0)
    assert s.mode is Mode.ATTRACT


def test_the_overlay_in_charge_follows_the_priority_and_the_base_shows_below_them():
    s = ModeState(base=Mode.PLAYING, overlays=frozenset({Mode.OFFLINE, Mode.DOOR_OPEN}))
    assert s.mode is Mode.DOOR_OPEN
    assert fire(s, ModeEvent.ATTENDANT_KEY_ON)[0].mode is Mode.ATTENDANT
    s = fire(fire(s, ModeEvent.ATTENDANT_KEY_ON)[0], ModeEvent.OPERATOR_KEY_ON)[0]
    assert s.mode is Mode.OPERATOR
    assert s.shown() == (Mode.OPERATOR, Mode.ATTENDANT, Mode.DOOR_OPEN, Mode.OFFLINE)
    for event in (ModeEvent.OPERATOR_KEY_OFF, ModeEvent.ATTENDANT_KEY_OFF, ModeEvent.DOOR_CLOSED, ModeEvent.LINK_UP):
        s = fire(s, event)[0]
    assert s.mode is Mode.PLAYING and s.shown() == ()


def test_the_operator_mode_gives_every_button_to_the_menu():
    s = ModeState(overlays=frozenset({Mode.OPERATOR, Mode.ATTENDANT}))
    assert {route(s, b) for b in Button} == {Route.MENU}


def test_the_attendant_mode_takes_collect_auto_and_max_and_leaves_the_rest_to_the_seat():
    s = ModeState(base=Mode.PLAYING, overlays=frozenset({Mode.ATTENDANT, Mode.DOOR_OPEN}))
    assert route(s, "collect") is Route.ATTENDANT_CLEAR
    assert route(s, "auto") is Route.ATTENDANT_HANDPAY
    assert route(s, "max") is Route.ATTENDANT_REFILL
    assert {route(s, b) for b in Button if b not in ("collect", "auto", "max")} == {Route.SEAT}


@pytest.mark.parametrize("mode", [Mode.ATTRACT, Mode.PLAYING, Mode.DOOR_OPEN, Mode.OFFLINE])
def test_without_a_key_every_button_goes_to_its_seat(mode):
    overlays = frozenset({mode}) if mode in (Mode.DOOR_OPEN, Mode.OFFLINE) else frozenset()
    base = mode if mode in (Mode.ATTRACT, Mode.PLAYING) else Mode.PLAYING
    s = ModeState(base=base, overlays=overlays)
    assert {route(s, b) for b in Button} == {Route.SEAT}
    assert route(s, "no such button") is Route.NOWHERE


def test_the_state_restored_from_the_cabinets_pauses():
    s = ModeState.from_pauses({"door": 1.0, "panel": 2.0})
    assert s.overlays == {Mode.DOOR_OPEN, Mode.OFFLINE}
    assert ModeState.from_pauses({"operator": 0.0}).mode is Mode.OPERATOR


def test_the_banner_writes_the_modes_and_faults_in_their_order():
    s = ModeState(overlays=frozenset({Mode.ATTENDANT, Mode.OFFLINE, Mode.DOOR_OPEN, Mode.OPERATOR}))
    assert banner_text(s.shown(), ["hopper 3"]) == (
        "Door open | Panel offline | Operator menu | hopper 3: no reply | "
        "Attendant key: Collect clears, Auto hand-pays the rest, Max Bet records a refill"
    )
    assert banner_text(ModeState().shown()) == ""


# -- the router on a real cabinet core ------------------------------------------------------------


def make_router(cab) -> tuple[Router, list[str]]:
    requests: list[str] = []
    return Router(cab, lambda: OperatorMenu(cab, stored_pin("1234"), "id"), requests), requests


def events(cab) -> list[str]:
    return [r.data.get("what") or r.data["event"] for r in cab.journal.records("event")]


def coins(cab, n: int, *ids: str) -> None:
    for c in ids:
        assert cab.coin(n, c, now=0)


def test_the_operator_key_pauses_play_gives_every_button_to_the_menu_and_play_resumes_exactly(tmp_path):
    cab = boot(tmp_path)
    router, _ = make_router(cab)
    coins(cab, 1, "EU200A", "EU200A")
    router.panel_event(ButtonPressed(1, "+10"), 1.0)
    money = cab.seats[1].money
    bet, credit, club = money.bet, money.credit, money.club
    assert bet > 0 and cab.betting_since == 1.0
    router.panel_event(KeySwitch("operator", True), 5.0)
    assert router.menu is not None and "operator" in cab.pauses and router.state.mode is Mode.OPERATOR
    assert router.lamps() == {1: router.menu.lamps(), 2: router.menu.lamps()}
    for b in ("+2", "collect", "draw"):  # the menu's, not the seat's
        router.panel_event(ButtonPressed(1, b), 6.0)
    assert (money.bet, money.credit, money.club) == (bet, credit, club)
    assert router.menu.cursor == 1  # Draw moved the menu's cursor
    router.panel_event(KeySwitch("operator", True), 7.0)  # the same level again: nothing
    router.panel_event(KeySwitch("operator", False), 25.0)
    router.observe(25.0)
    assert router.menu is None and not cab.pauses and router.state.mode is Mode.PLAYING
    assert cab.betting_since == 21.0  # the 20 paused seconds do not count against the betting time
    assert events(cab)[-4:] == ["play_paused", "menu opened", "menu closed", "play_resumed"]  # not a tilt
    router.panel_event(ButtonPressed(1, "start"), 26.0)  # the seat's buttons play again
    assert cab.in_round(1)


def test_the_menus_hopper_test_request_reaches_the_bus_workers_queue(tmp_path):
    cab = boot(tmp_path)
    router, requests = make_router(cab)
    router.panel_event(KeySwitch("operator", True), 1.0)
    assert router.menu is not None
    router.menu.requests.append("hopper_test")  # as the menu's Hardware test page asks
    router.panel_event(ButtonPressed(1, "draw"), 2.0)
    assert requests == ["hopper_test"] and router.menu.requests == []


def test_the_attendant_key_makes_collect_clear_a_handpay_and_max_record_a_refill(tmp_path):
    from machine.core.cabinet import CabinetSettings
    from machine.money.seatmoney import MoneySettings

    cab = boot(tmp_path, settings=CabinetSettings(seats=2, money=MoneySettings(hopper_limit=30)))
    router, _ = make_router(cab)
    coins(cab, 1, "EU200A", "EU200A")
    router.panel_event(ButtonPressed(1, "collect"), 1.0)
    assert cab.seat_state(1) == "handpay"
    refills = cab.cabinet_meters.get("hopper_refills")
    router.panel_event(ButtonPressed(1, "max"), 2.0)  # without the key: a dead press, no refill
    router.panel_event(ButtonPressed(1, "collect"), 2.0)
    assert cab.seat_state(1) == "handpay" and cab.cabinet_meters.get("hopper_refills") == refills
    router.panel_event(KeySwitch("attendant", True), 3.0)
    assert router.state.mode is Mode.ATTENDANT and not cab.pauses  # the key does not pause play
    router.panel_event(ButtonPressed(1, "max"), 4.0)
    assert cab.cabinet_meters.get("hopper_refills") == refills + 1
    router.panel_event(ButtonPressed(1, "collect"), 5.0)
    assert cab.seat_state(1) == "idle" and cab.seats[1].meters.get("handpay_out") == 40
    coins(cab, 2, "EU200A", "EU200A", "EU200A")
    router.panel_event(ButtonPressed(2, "+2"), 6.0)  # other buttons still play
    assert cab.seats[2].money.bet == 2
    router.panel_event(KeySwitch("attendant", False), 7.0)
    router.panel_event(ButtonPressed(2, "collect"), 8.0)  # Collect is the seat's again: the bet comes back
    assert cab.seats[2].money.bet == 0
    router.panel_event(ButtonPressed(2, "max"), 9.0)  # and Max Bet is a bet
    assert cab.seats[2].money.bet > 0 and cab.cabinet_meters.get("hopper_refills") == refills + 1


def test_the_attendant_key_makes_auto_hand_pay_what_the_hopper_still_owes(tmp_path):
    from .test_cabinet_core import hopper_pays

    cab = boot(tmp_path)
    router, _ = make_router(cab)
    coins(cab, 1, "EU200A", "EU200A")
    router.panel_event(ButtonPressed(1, "collect"), 1.0)
    hopper_pays(cab, 1, 4, 1)
    assert cab.seats[1].lock == "tilt"
    router.panel_event(KeySwitch("attendant", True), 2.0)
    router.panel_event(ButtonPressed(1, "auto"), 3.0)
    assert cab.seats[1].lock == "handpay" and cab.seats[1].handpay_owed == 30


def test_an_open_door_and_a_panel_offline_pause_the_cabinet_until_both_are_gone(tmp_path):
    cab = boot(tmp_path)
    router, _ = make_router(cab)
    coins(cab, 1, "EU200A")
    router.panel_event(Door(open=True), 1.0)
    router.panel_event(Door(open=True), 1.5)  # the same level again
    router.panel_event(LinkDown("timeout"), 2.0)
    assert set(cab.pauses) == {"door", "panel"} and router.state.mode is Mode.DOOR_OPEN
    router.panel_event(ButtonPressed(1, "+2"), 3.0)  # paused: the press is refused (and journaled)
    assert cab.seats[1].money.bet == 0 and cab.live(1) == []
    assert cab.journal.records("press")[-1].data == {"button": "+2", "ignored": True}
    router.panel_event(Door(open=False), 4.0)
    assert set(cab.pauses) == {"panel"} and router.state.mode is Mode.OFFLINE
    router.panel_event(LinkUp(seats=2, new_session=False), 5.0)
    router.observe(5.0)
    assert not cab.pauses and router.state.mode is Mode.PLAYING
    router.panel_event(ButtonPressed(1, "+2"), 6.0)
    assert cab.seats[1].money.bet == 2
    assert [e for e in events(cab) if e != "power_up"] == ["door_open", "tilt", "door_closed", "tilt_cleared"]


def test_a_press_on_a_seat_the_cabinet_does_not_have_is_dropped(tmp_path):
    cab = boot(tmp_path)
    router, _ = make_router(cab)
    before = cab.journal.last_seq
    router.panel_event(ButtonPressed(3, "+2"), 1.0)
    assert cab.journal.last_seq == before


def test_attract_follows_the_seats_activity(tmp_path):
    cab = boot(tmp_path)
    router, _ = make_router(cab)
    router.observe(0.0)
    assert router.state.attract
    coins(cab, 1, "EU100A")
    router.observe(1.0)
    assert router.state.mode is Mode.PLAYING


def test_a_cabinet_restarted_in_the_operator_menu_reopens_it_and_the_key_off_resumes_play(tmp_path):
    cab = boot(tmp_path)
    router, _ = make_router(cab)
    router.panel_event(KeySwitch("operator", True), 1.0)
    cab.journal.close()  # the power goes with the menu open
    cab = boot(tmp_path)
    assert "operator" in cab.pauses
    router, _ = make_router(cab)
    assert router.menu is not None and router.state.mode is Mode.OPERATOR
    router.panel_event(KeySwitch("operator", False), 2.0)  # the panel's first report: key off
    assert router.menu is None and not cab.pauses


def test_a_device_without_reply_is_a_message_id_with_its_name_translated_by_id():
    from machine.display.gamewords import known, say
    from machine.games.text import Text
    from machine.i18n import Words

    banner = banner_text(["door open"], ["hopper 3"])
    assert isinstance(banner, Text) and isinstance(banner.parts[1], Text)
    assert [getattr(p, "msgid", p) for p in banner.parts] == ["Door open", "{device}: no reply"]
    assert banner.parts[1].fields == {"device": "hopper 3"}
    assert known(banner) and not known("hopper 3: no reply")  # no English template reads it back any more
    nl = Words("nl")
    assert say(nl, banner) == f"{nl('Door open')} | {nl('{device}: no reply', device='hopper 3')}"
