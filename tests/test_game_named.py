"""The game in force always named (issue 23, item 3): every seat's screen names the game and its
main pay rule during play; a seat chooses the game only while no other seat holds credit, club
points or a bet, and its screen says why not; every change is announced on every screen for a
few seconds and journaled as the seat's (or the operator's), which the event log says."""

from __future__ import annotations

from machine.core.cabinet import CabinetSettings
from machine.core.queries import GAME_CHANGE_SECONDS
from machine.display.view import build_view
from machine.money.audit import gather
from machine.operator.reports import as_text
from machine.profiles import load_profile
from tests.cabinet_helpers import TEST_KEY, boot, stacked_shoes
from tests.screen_words import notes, words

PUB = CabinetSettings(seats=2, games=(load_profile("swedish-pub-blackjack"),))
PUB_RULE = "Blackjack pays 3 to 2 \u00b7 ties on 17, 18, 19 lose"


def test_every_seat_names_the_game_and_its_pay_rule_during_play(tmp_path):
    # seat 1 9S 7S (16), the dealer's up card 6H; seat 1 stands, the dealer 6H TC 9C busts
    cab = boot(tmp_path, stacked_shoes("9S 6H 7S TC 9C"), settings=PUB)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "draw", 1)  # seat 1 alone: the Swedish pub game
    assert cab.profile.game == "swedish-pub-blackjack"
    assert cab.press(1, "+2", 10) and cab.press(1, "start", 11) and cab.round is not None
    for n in (1, 2):  # the deciding seat and a seat not in the round
        shown = words(cab, n, 12)
        assert "Swedish Pub Blackjack" in shown
        assert " ".join(shown[shown.index("Swedish Pub Blackjack") + 1:][:2]) == PUB_RULE  # wrapped in two lines
    nl = words(cab, 1, 12, language="nl")
    assert nl[nl.index("Zweedse pubblackjack") + 1:][:2] == [
        "Blackjack betaalt 3 tegen 2 \u00b7 gelijk op", "17, 18, 19 verliest"]


def test_a_seat_chooses_the_game_only_while_no_other_seat_holds_money_and_its_screen_says_why(tmp_path):
    cab = boot(tmp_path, settings=PUB)
    assert cab.coin(1, "EU200A", 0) and cab.game_choice(1)
    assert notes(cab, 1, 1) == ["Draw / Stand: choose the game"]  # its own credit does not stop it
    assert cab.coin(2, "EU050A", 1)  # seat 2 holds credit now: seat 1's choice lamps go dark
    assert {"draw", "stand"}.isdisjoint(cab.live(1)) and not cab.game_choice(1) and cab.game_choice_refused(1) == 2
    assert not cab.press(1, "draw", 2) and cab.profile.game == "random-blackjack"
    assert build_view(cab, 2).seats[0].choice_held_by == 2
    assert notes(cab, 1, 2) == ["Seat 2 holds credit: the game cannot be changed now"]
    assert notes(cab, 2, 2) == ["\u20ac0.50 is below the smallest coin: it stays on your credit to play",
                                "Seat 1 holds credit: the game cannot be changed now"]
    assert notes(cab, 2, 2, language="ru")[1] == "У места 1 есть кредит: игру сейчас сменить нельзя"
    assert "collect" not in cab.live(2)  # 5 points, below the smallest coin: they stay, and hold the game
    assert cab.coin(2, "EU050A", 3) and cab.press(2, "collect", 4)
    cab.chunk_begin(2, 1)
    cab.hopper_paid(2, 1)
    cab.chunk_end(2, 1, 0, None)
    assert cab.seats[2].money.credit == 0
    assert cab.game_choice(1) and cab.game_choice_refused(1) is None  # nothing held by seat 2 once paid


def test_a_change_is_announced_on_every_screen_and_journaled_as_the_seats(tmp_path):
    cab = boot(tmp_path, settings=PUB)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "draw", 5)
    change = build_view(cab, 5).game_change
    assert change is not None and (change.seat, change.title, change.pay_rule) == (1, "Swedish Pub Blackjack", PUB_RULE)
    for n in (1, 2):
        shown = words(cab, n, 5 + GAME_CHANGE_SECONDS - 0.1)
        assert "Seat 1 chose Swedish Pub Blackjack" in shown and PUB_RULE in shown
    assert "Seat 1 chose Swedish Pub Blackjack" not in words(cab, 2, 5 + GAME_CHANGE_SECONDS)
    assert build_view(cab, 5 + GAME_CHANGE_SECONDS).game_change is None
    event = cab.journal.records("event", last=1)[0]
    assert (event.seat, event.data["event"], event.data["by"], event.data["new"]) == (
        1, "settings_changed", "seat 1", "swedish-pub-blackjack")
    # the operator's change, made with the menu's pause: announced from the first frame after it
    assert cab.press(1, "collect", 20)
    cab.pause("operator menu", 30)
    assert cab.change_setting("game", "random-blackjack", "operator") == "changed"
    assert cab.journal.records("event", last=1)[0].seat is None
    assert build_view(cab, 40).game_change is None  # behind the menu: not yet
    cab.resume("operator menu", 99)
    assert "The operator chose Random Blackjack" in words(cab, 2, 100)
    assert build_view(cab, 100 + GAME_CHANGE_SECONDS - 0.1).game_change.seat is None
    assert build_view(cab, 100 + GAME_CHANGE_SECONDS).game_change is None
    path = cab.journal.path
    cab.journal.close()
    report = as_text(gather(path, TEST_KEY), "events")
    lines = [line for line in report.splitlines() if "settings_changed" in line]
    assert "seat 1" in lines[0] and "swedish-pub-blackjack" in lines[0]
    assert "cabinet" in lines[1] and "by=operator" in lines[1]  # the operator's reads as before


def test_the_menus_event_log_says_which_seat_chose_the_game(tmp_path):
    from tests.test_operator_menu import goto, menu_for

    cab = boot(tmp_path, settings=PUB)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "draw", 1)
    menu = menu_for(cab)
    goto(menu, "Event log")
    newest = menu.view().lines[0].split("\t")
    assert newest[2:4] == ["Setting changed", "Seat 1"] and "Swedish Pub Blackjack" in newest[4]


def test_an_old_journals_game_change_reads_as_before(tmp_path):
    cab = boot(tmp_path, settings=PUB)
    with cab.core.tx("press", {"button": "draw"}, 1):  # as the cabinet journaled a seat's choice before: no seat
        cab.core.store.event("settings_changed", name="game", old="random-blackjack", new="swedish-pub-blackjack",
                             by="seat 1")
    path = cab.journal.path
    cab.journal.close()
    line = next(x for x in as_text(gather(path, TEST_KEY), "events").splitlines() if "settings_changed" in x)
    assert " cabinet " in line and "by=seat 1" in line
