"""Each seat's language, chosen with Insurance while the seat has no bet and no hand
(machine/loop/router.py), on a real cabinet core: the press never reaches the core, the lamp is
lit while the choice is open, and the choice holds until the seat is idle with empty meters."""

from __future__ import annotations

from hardware.panel import ButtonPressed, KeySwitch

from machine.core.cabinet import CabinetSettings
from machine.loop.router import Router
from machine.money.seatmoney import MoneySettings
from machine.operator.menu import OperatorMenu

from .cabinet_helpers import boot, memory
from .helpers import stored_pin


def make_router(cab, language="en") -> Router:
    return Router(cab, lambda: OperatorMenu(cab, stored_pin("1234"), "id"), [], language=language)


def presses(cab) -> list[dict]:
    return [r.data for r in cab.journal.records("press")]


def insurance(router: Router, seat: int, now: float) -> None:
    router.panel_event(ButtonPressed(seat, "insurance"), now)
    router.observe(now)


def test_insurance_on_an_idle_seat_cycles_its_language_and_never_reaches_the_core(tmp_path):
    cab = boot(tmp_path)
    router = make_router(cab)
    assert "insurance" in router.lamps()[1] and "insurance" in router.lamps()[2]
    seen = []
    for t in range(5):
        insurance(router, 1, float(t))
        seen.append(router.languages()[1])
    assert seen == ["nl", "nb", "ru", "en", "nl"]
    assert router.languages() == {1: "nl", 2: "en"}  # seat 2 keeps the configured language
    assert presses(cab) == []  # not even journaled as an ignored press


def test_the_configured_language_is_where_the_cycle_starts(tmp_path):
    cab = boot(tmp_path)
    router = make_router(cab, language="nb")
    assert router.languages() == {1: "nb", 2: "nb"}
    insurance(router, 2, 1.0)
    assert router.languages() == {1: "nb", 2: "ru"}


def test_the_choice_holds_through_play_and_ends_when_the_seat_is_idle_with_empty_meters(tmp_path):
    cab = boot(tmp_path, settings=CabinetSettings(seats=2, money=MoneySettings(payout="handpay")))
    router = make_router(cab)
    insurance(router, 1, 0.0)  # Nederlands, on an empty seat, before the first coin
    router.observe(0.5)
    assert router.languages()[1] == "nl"  # empty and idle, but not idle *again*
    assert cab.coin(1, "EU200A", now=1)
    router.observe(1.0)
    assert cab.seat_state(1) == "ready" and "insurance" in router.lamps()[1]
    router.panel_event(ButtonPressed(1, "+2"), 2.0)
    router.observe(2.0)
    assert cab.seat_state(1) == "betting" and "insurance" not in router.lamps()[1]
    insurance(router, 1, 2.5)  # with a bet: not a language choice
    assert router.languages()[1] == "nl"
    router.panel_event(ButtonPressed(1, "start"), 3.0)
    router.observe(3.0)
    assert cab.in_round(1) and not router.may_choose_language(1)
    t = 3.0
    while cab.round is not None and t < 60:  # the player stands on every hand
        t += 1.0
        router.panel_event(ButtonPressed(1, "stand"), t)
        cab.tick(t, 0.0)
        router.observe(t)
    assert cab.round is None and router.languages()[1] == "nl"
    for _ in range(3):  # the club meter to credit, then the credit out
        if cab.seat_state(1) == "ready":
            router.panel_event(ButtonPressed(1, "collect"), t + 1)
            router.observe(t + 1)
    assert cab.seat_state(1) == "handpay" and router.languages()[1] == "nl"
    cab.attendant_clear(1)
    router.observe(t + 2)
    assert cab.seat_state(1) == "idle" and router.languages() == {1: "en", 2: "en"}
    insurance(router, 1, t + 3)  # the next player chooses afresh
    assert router.languages()[1] == "nl"


def test_a_seat_with_credit_chooses_too_and_the_operator_menu_takes_insurance_for_itself(tmp_path):
    cab = boot(tmp_path)
    router = make_router(cab)
    assert cab.coin(2, "EU100A", now=0)
    insurance(router, 2, 1.0)
    assert router.languages()[2] == "nl"
    router.panel_event(KeySwitch("operator", True), 2.0)
    assert router.menu is not None and router.lamps()[1] == router.menu.lamps()
    insurance(router, 2, 3.0)  # the menu's button now
    assert router.languages()[2] == "nl" and not router.may_choose_language(1)


def test_each_seat_is_drawn_in_the_language_the_loop_hands_the_view(tmp_path):
    from machine.display.view import build_view
    from tests.cabinet_helpers import boot

    cab = boot(tmp_path)
    view = build_view(cab, 0.0, languages={2: "ru"})
    assert [s.language for s in view.seats] == [cab.settings.language, "ru"]


def test_a_tournament_participant_keeps_the_choice_between_its_unstaked_rounds_and_loses_it_after(tmp_path):
    import random

    from machine.core.cabinet import open_cabinet, random_shuffle
    from machine.gamemath.engines import auto_for
    from machine.games.catalog import make_game
    from machine.profiles import load_profile

    settings = CabinetSettings(seats=2, games=(load_profile("eenendertigen"),))
    cab = open_cabinet(tmp_path / "journal.sqlite", load_profile("random-blackjack"), settings,
                       lambda p: make_game(p, auto_for(p.engine)), random_shuffle(random.Random(7)), memory(tmp_path),
                       create=True)
    router = make_router(cab)
    cab.open_tournament("classic", 0, [], None, None, "ab" * 32, 0.0, "operator")
    insurance(router, 1, 0.5)
    insurance(router, 1, 0.6)
    assert router.languages()[1] == "nb"
    now = 1.0
    assert cab.press(1, "start", now)  # the name entry: Start at once plays as "Player 1"
    assert cab.press(1, "start", now)
    rounds_seen = set()
    while (a := cab.tournament_seat()) is not None and a["seat"] == 1:
        now += 1
        router.panel_event(ButtonPressed(1, "start" if cab.round is None else "auto"), now)
        router.observe(now)
        a = cab.tournament_seat()
        if a is not None and a["stage"] == "play":
            rounds_seen.add(a["progress"]["rounds"])
            assert router.languages()[1] == "nb", a["progress"]  # idle between rounds, but playing
        if a is None or a["seat"] != 1:
            break
    assert rounds_seen == set(range(16))
    router.observe(now + 1)
    assert cab.seat_state(1) == "idle" and router.languages()[1] == "en"  # done, meters empty: the default again


def test_where_insurance_chooses_the_language_the_screen_lights_it_and_names_it(tmp_path):
    from machine.display.view import build_view
    from tests.cabinet_helpers import boot

    cab = boot(tmp_path)
    view = build_view(cab, 0.0, language_choice=frozenset({2}))
    assert "insurance" in view.seats[1].lamps and view.seats[1].labels["insurance"] == "Language"
    assert "insurance" not in view.seats[0].lamps and "insurance" not in view.seats[0].labels
