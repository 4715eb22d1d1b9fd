"""What a seat's screen says of money and time, driven through the core with scripted rounds:
the bet decision's time limit (a lone seat's too), the MIN/MAX card's real limit, a result's
net and what came back, "€X paid" after a payout, and the words where no bet button is live."""

from __future__ import annotations

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes


def boot(tmp, profile, shoes=None, seats=2, **settings):
    return open_cabinet(tmp / "journal.sqlite", load_profile(profile), CabinetSettings(seats=seats, **settings),
                        lambda p: make_game(p, auto_for(p.engine)), shoes or stacked_shoes(), memory(tmp), create=True)


def test_a_lone_seats_bet_decision_ends_with_the_betting_time_taking_the_minimum(tmp_path):
    cab = boot(tmp_path, "eenentwintig", stacked_shoes("7S KD 8D TC AH AD 8C"), seats=1, betting_time=20.0)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+10", 0) and cab.press(1, "start", 1)
    assert cab.round is not None and cab.round.pending.kind == "bet"
    assert cab.decision_time_left(11.0) == 10.0  # the betting time counts, from the deal
    view = build_view(cab, 11.0)
    assert (view.countdown, view.decision_time) == (10.0, 20.0)
    cab.tick(20.9)
    assert cab.round.pending.kind == "bet"
    cab.tick(21.0)
    assert cab.round is not None and cab.round.pending.kind != "bet"  # the seat plays on with the minimum
    assert cab.core.state.round_meta["decisions"] == [
        {"seat": 1, "hand": None, "kind": "bet", "action": "bet:2", "by": "timeout"}]
