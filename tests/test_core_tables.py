"""The core's tables are the ones the product uses: what a press stands for and what it does,
and the seat table that every input's moves are checked against."""

from __future__ import annotations

import pytest

from machine.core import lamps, seats
from machine.core.lamps import Press
from machine.core.play_inputs import PRESSES, TOURNAMENT_TIMERS
from machine.core.seats import SeatMoveError

from .cabinet_helpers import boot, stacked_shoes


def kind(cab, n: int, button: str) -> Press | None:
    core = cab.core
    return lamps.press_kind(core.state, core.game, n, lamps.Button(button), len(core.profiles))


def test_every_kind_of_press_has_exactly_one_handler_and_every_tournament_timer_one():
    assert set(PRESSES) == set(Press)
    assert set(TOURNAMENT_TIMERS) == {"prizes", "start", "give_up", "rebase", "next_round", "end"}


def test_a_press_is_classified_by_the_state_it_meets(tmp_path):
    # seat 1 9S, seat 2 TS, dealer 6H, seat 1 7S, seat 2 8D: seat 1 holds 16 and is asked first
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    assert [kind(cab, 1, b) for b in ("+2", "start", "collect", "draw")] == [None, None, None, None]  # no credit
    assert cab.coin(1, "EU200A", now=0) and cab.coin(2, "EU200A", now=0)
    assert (kind(cab, 1, "+2"), kind(cab, 1, "max"), kind(cab, 1, "collect")) == (Press.BET, Press.BET, Press.COLLECT)
    assert kind(cab, 1, "start") is None  # no bet yet
    assert cab.press(1, "+2", now=1) and cab.press(2, "+2", now=1)
    assert kind(cab, 1, "start") is Press.START
    assert kind(cab, 1, "x2") is None  # the most a bet may be is a quarter of the club meter (10): 2
    assert cab.press(1, "start", now=2) and cab.press(2, "start", now=2)
    assert kind(cab, 1, "draw") is Press.PLAY and kind(cab, 1, "stand") is Press.PLAY
    assert kind(cab, 2, "stand") is None and kind(cab, 1, "+2") is None  # not seat 2's turn; no bets in a round


def test_an_input_that_moves_a_seat_off_the_seat_table_is_refused_and_undone(tmp_path, monkeypatch):
    cab = boot(tmp_path)
    records = cab.journal.last_seq
    monkeypatch.setitem(seats.SEAT_TRANSITIONS, "idle", frozenset({"idle"}))  # idle may no longer go to ready
    with pytest.raises(SeatMoveError, match="seat 1: idle -> ready"):
        cab.coin(1, "EU100A", now=0)
    assert cab.seats[1].money.credit == 0 and cab.seat_state(1) == "idle" and cab.journal.last_seq == records
    monkeypatch.undo()
    assert cab.coin(1, "EU100A", now=0) and cab.seat_state(1) == "ready"


def test_a_journal_whose_seat_rows_hold_a_games_whole_rules_restores_the_seats_limits(tmp_path):
    """Seat rows written before seat money kept limits of its own held the rules of the game in
    force: the cabinet boots from them with the three limits read out of those rules."""
    from machine.games.rules import load_profile
    from machine.money.memory import open_journal
    from machine.money.seatmoney import TableLimits

    from .cabinet_helpers import memory

    cab = boot(tmp_path)
    assert cab.coin(1, "EU200A", now=0)
    cab.journal.close()
    rules = load_profile("random-blackjack").rules.to_dict()
    j = open_journal(tmp_path / "journal.sqlite", memory(tmp_path))
    with j.transaction():
        for n in (1, 2):
            row = j.get(f"seat/{n}")
            money = {k: v for k, v in row["money"].items() if k != "limits"}
            j.put(f"seat/{n}", {**row, "money": {**money, "rules": {**rules, "min_bet": 4, "max_bet": 40}}})
    j.close()
    again = boot(tmp_path)
    assert again.seats[1].money.limits == TableLimits(min_bet=4, max_bet=40, bet_step=rules["bet_step"])
    assert again.seats[1].money.credit == 20 and again.seats[1].money.bet_cap() == 4  # the minimum, always allowed
    assert again.press(1, "+2", now=1) and "start" not in again.live(1)  # a bet of 2 is below the minimum of 4
    assert again.journal.get("seat/1")["money"]["limits"] == {"min_bet": 4, "max_bet": 40, "bet_step": 2}
