"""Ochko hosted by the cabinet core through the game interface alone: the seats dealt in with
nothing staked, the stake placed at the round's bet decision with the bet buttons and Start,
the play buttons and their lamps, the money through the club meter, the bank carried in the
journal from round to round and across a power cut in the middle of a round."""

from __future__ import annotations

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.games.interface import Button
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes


def boot(tmp, shoes):
    return open_cabinet(tmp / "journal.sqlite", load_profile("ochko"), CabinetSettings(seats=2),
                        lambda p: make_game(p, auto_for(p.engine)), shoes, memory(tmp), create=True)


def test_a_round_of_ochko_on_the_cabinet_with_a_power_cut_in_the_middle(tmp_path):
    # seat 1 TS, seat 2 9S, up 7H; seat 1 8S (18) stands; seat 2 QS (12) draws KH (16), stands;
    # the banker 7H 6H (13) draws TC: 23, a bust. Next round: seat 1 AS, up 9D, seat 1 AH: 21.
    shoes = stacked_shoes("TS 9S 7H 8S QS KH 6H TC", "AS 9D AH")
    cab = boot(tmp_path, shoes)
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    clubs = {n: cab.seats[n].money.club for n in (1, 2)}
    for n in (1, 2):
        cab.press(n, "start", 1)
    rnd = cab.round
    assert rnd is not None and rnd.bank == 100 and rnd.pending.kind == "bet"
    assert {n: cab.seats[n].money.club for n in (1, 2)} == clubs  # dealt in, nothing staked yet
    assert set(cab.live(1)) == {Button.START, Button.AUTO}
    assert cab.button_labels(1) == {Button.START: "Place bet", Button.AUTO: "Minimum"}
    cab.press(1, "start", 2)  # the stake the screen proposes: the minimum
    assert cab.seats[1].money.club == clubs[1] - 2
    assert set(cab.live(1)) == {Button.DRAW, Button.STAND, Button.AUTO}  # no dark draw at this table
    assert cab.button_labels(1) == {Button.DRAW: "Draw", Button.STAND: "Enough", Button.AUTO: "Auto"}
    cab.press(1, "stand", 3)
    cab.press(2, "start", 4)
    cab.press(2, "draw", 5)
    assert cab.round.shown().hands[2][0].cards == ("9S", "QS", "KH")
    before = cab.round.to_dict()
    cab.journal.close()

    cab = boot(tmp_path, stacked_shoes("6S 6C 6D 6H"))  # other shoes: must not be used
    assert cab.round is not None and cab.round.to_dict() == before
    cab.press(2, "stand", 6)
    assert cab.round is None
    assert {n: cab.seats[n].money.club for n in (1, 2)} == {1: clubs[1] + 2, 2: clubs[2] + 2}
    assert cab.carry == {"bank": 96, "closed": False}
    game = cab.journal.records("game")[-1].data
    assert (game["bank_before"], game["bank_after"], game["dealer"]["cards"]) == (100, 96, ["7H", "6H", "TC"])
    cab.journal.close()

    cab = boot(tmp_path, shoes)
    assert cab.carry == {"bank": 96, "closed": False}
    assert cab.press(1, "+2", 7) and cab.press(1, "start", 7)
    assert cab.round is not None and cab.round.bank == 96
    assert cab.journal.records("round_start")[-1].data["carry"] == {"bank": 96, "closed": False}
    cab.press(1, "auto", 8)  # Auto stakes the minimum: two aces, 21 at once
    assert cab.round is None and cab.carry == {"bank": 94, "closed": False}


def test_at_a_bet_decision_the_bet_buttons_move_the_proposal_within_the_options_and_the_quarter_cap(tmp_path):
    # the bet buttons and Start belong to the seat at its bet decision: +2, +10, x2 and Max move
    # the bet the screen proposes among the round's options, never above a quarter of the club
    # meter; Repeat goes back to the bet set before Start; Start places the proposal
    from machine.core import lamps

    cab = boot(tmp_path, stacked_shoes("TS 9S 7H 8S"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    for n in (1, 2):
        cab.press(n, "start", 1)
    state = cab.core.state
    state.seats[1].money.club = 40  # as after a few wins (only the lamps are asked below): cap 10
    assert cab.proposal(1) == 2 and cab.proposal(2) is None  # the bet set before Start; seat 2 waits
    assert lamps.bet_press(state, 1, Button.PLUS_2) == 4
    assert lamps.bet_press(state, 1, Button.PLUS_10) == 10  # 12 is above the cap of 10
    assert lamps.bet_press(state, 1, Button.MAX) == 10
    assert lamps.bet_press(state, 1, Button.TIMES_2) == 4
    assert lamps.bet_press(state, 1, Button.REPEAT) is None  # already the bet set before Start
    assert lamps.bet_press(state, 1, Button.START) == "bet:2"
    state.seats[1].proposal = 10
    assert cab.proposal(1) == 10
    assert lamps.bet_press(state, 1, Button.MAX) is None and lamps.bet_press(state, 1, Button.PLUS_2) is None
    assert lamps.bet_press(state, 1, Button.REPEAT) == 2 and lamps.bet_press(state, 1, Button.START) == "bet:10"
    state.seats[1].money.club = 10  # a quarter of 10 is below the minimum: the minimum only
    assert cab.proposal(1) == 2 and set(cab.live(1)) == {Button.START, Button.AUTO}
    cab.journal.close()
