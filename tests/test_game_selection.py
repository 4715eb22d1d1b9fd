"""Game selection on a multi-game cabinet: the operator's choice, a player's choice at an idle
cabinet, the meters of each game (GLI-11) and recall naming the game and its rules."""

from __future__ import annotations

import pytest

from machine.core.cabinet import CabinetSettings
from machine.money.audit import gather
from machine.profiles import load_profile
from tests.cabinet_helpers import TEST_KEY, boot, stacked_shoes

TWO_GAMES = CabinetSettings(seats=2, games=(load_profile("casino-blackjack"),))


def settings_events(cab):
    return [r.data for r in cab.journal.records("event") if r.data["event"] == "settings_changed"]


def test_draw_and_stand_choose_the_game_only_at_an_idle_cabinet(tmp_path):
    cab = boot(tmp_path, settings=TWO_GAMES)
    assert cab.games_enabled == ["random-blackjack", "casino-blackjack"]
    assert cab.coin(1, "EU200A", now=0)
    assert {"draw", "stand"} <= set(cab.live(1)) and cab.game_choice(1)
    assert cab.press(1, "draw", now=1)
    assert cab.profile.game == "casino-blackjack" and cab.game.title == load_profile("casino-blackjack").title
    change = settings_events(cab)[-1]
    assert (change["name"], change["old"], change["new"]) == ("game", "random-blackjack", "casino-blackjack")
    assert change["by"] == "seat 1"
    assert not cab.press(2, "stand", now=2) and cab.game_choice_refused(2) == 1  # seat 1 holds credit
    assert cab.press(1, "stand", now=2) and cab.profile.game == "random-blackjack"  # back, wrapping round
    assert cab.press(1, "+2", now=3)  # a bet on the table: nobody changes the game now
    assert "draw" not in cab.live(1) and not cab.game_choice(1) and not cab.game_choice(2)
    assert not cab.press(2, "draw", now=4)
    assert cab.profile.game == "random-blackjack"


def test_a_cabinet_with_one_game_offers_no_choice(tmp_path):
    cab = boot(tmp_path)
    assert cab.coin(1, "EU200A", now=0)
    assert "draw" not in cab.live(1) and "stand" not in cab.live(1) and not cab.game_choice(1)
    assert not cab.press(1, "draw", now=1)


def test_the_operators_choice_waits_until_no_seat_has_a_bet_and_survives_a_restart(tmp_path):
    cab = boot(tmp_path, settings=TWO_GAMES)
    assert cab.coin(1, "EU200A", now=0) and cab.press(1, "+2", now=1)
    assert cab.change_setting("game", "casino-blackjack", "operator") == "when no seat has a bet or a hand"
    assert cab.profile.game == "random-blackjack" and cab.pending_game == "casino-blackjack"
    cab.tick(2)
    assert cab.profile.game == "random-blackjack"  # the bet is still there
    assert cab.press(1, "collect", now=3)  # the bet goes back to the credit meter
    cab.tick(4)
    assert cab.profile.game == "casino-blackjack" and cab.pending_game is None
    assert settings_events(cab)[-1]["new"] == "casino-blackjack"
    cab.journal.close()
    again = boot(tmp_path, settings=TWO_GAMES)
    assert again.profile.game == "casino-blackjack" and again.rules == load_profile("casino-blackjack").rules


def test_a_game_that_is_not_enabled_is_refused_and_changes_nothing(tmp_path):
    cab = boot(tmp_path, settings=TWO_GAMES)
    records = cab.journal.last_seq
    with pytest.raises(ValueError, match="not enabled"):
        cab.change_setting("game", "ochko", "operator")
    assert cab.profile.game == "random-blackjack" and cab.journal.last_seq == records


def test_each_game_has_its_own_meters_and_recall_names_the_game_and_its_rules(tmp_path):
    # round 1, random blackjack (no hole card): seat 9S, up 6H, seat 7S; seat stands on 16;
    # dealer 6H TC 9C busts. Round 2, casino blackjack (hole card): seat 9S, up 6H, seat 7S,
    # hole TC; seat stands; dealer hits 9C and busts. Each round: bet 2, returned 4.
    cab = boot(tmp_path, stacked_shoes("9S 6H 7S TC 9C", "9S 6H 7S TC 9C"), settings=TWO_GAMES)
    assert cab.coin(1, "EU200A", now=0)
    for now, game in ((1, "random-blackjack"), (10, "casino-blackjack")):
        if cab.profile.game != game:
            assert cab.press(1, "draw", now=now)
        assert cab.press(1, "+2", now=now + 1) and cab.press(1, "start", now=now + 2)
        assert cab.press(1, "stand", now=now + 3) and cab.round is None
    life = cab.seats[1].meters.lifetime
    for game in ("random-blackjack", "casino-blackjack"):
        assert (life[f"games_played:{game}"], life[f"total_bet:{game}"], life[f"total_won:{game}"]) == (1, 2, 4)
    assert (life["games_played"], life["total_bet"], life["total_won"]) == (2, 4, 8)
    first, second = (r.data for r in cab.journal.records("game", seat=1))
    assert (first["game"], second["game"]) == ("random-blackjack", "casino-blackjack")
    assert first["rules"]["hole_card"] is False and second["rules"]["hole_card"] is True
    assert second["dealer"]["cards"] == ["6H", "TC", "9C"] and second["seat"]["returned"] == 4
    cab.journal.close()
    report = gather(tmp_path / "journal.sqlite", TEST_KEY)
    assert report["games"]["casino-blackjack"]["lifetime"] == {"games_played": 1, "total_bet": 2, "total_won": 4}
    assert report["games"]["random-blackjack"]["period"] == {"games_played": 1, "total_bet": 2, "total_won": 4}


def test_the_attract_lines_and_the_game_choice_line_read_in_dutch():
    from machine.display.gamewords import say
    from machine.games.text import Text
    from machine.i18n import Words

    nl = Words("nl")
    assert say(nl, Text("Blackjack pays {a} to {b}", a=6, b=5)) == "Blackjack betaalt 6 tegen 5"
    assert say(nl, "Three sevens pay a bonus!") == "Drie zevens geven een bonus!"
    assert nl("Draw / Stand: choose the game") == "Draw / Stand: kies het spel"
