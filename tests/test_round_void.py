"""A shoe that runs out mid-round (other-games.md: the round is void and every stake comes
back): the cabinet gives back exactly what it took, records the void round and logs it."""

from __future__ import annotations

from machine.games.blackjack.round import Round
from machine.games.interface import ShoeExhausted

from .cabinet_helpers import boot, stacked_shoes


def test_a_round_whose_shoe_runs_out_is_void_and_every_stake_comes_back(tmp_path, monkeypatch):
    # seat 1 9S 2C against the up card 6H doubles; the card the double needs is not there
    cab = boot(tmp_path, stacked_shoes("9S 6H 2C"))
    cab.coin(1, "EU200A", 0)
    cab.coin(1, "EU200A", 0)
    cab.press(1, "+2", 0)
    credit, club = cab.seats[1].money.credit, cab.seats[1].money.club
    cab.press(1, "start", 1)
    assert cab.seats[1].money.club == club - 2 and cab.round.pending.options[:3] == ("hit", "stand", "double")

    def empty(self):
        raise ShoeExhausted(f"the shoe ran out after {self.pos} cards")

    monkeypatch.setattr(Round, "draw", empty)
    assert cab.press(1, "double", 2)
    assert cab.round is None
    money = cab.seats[1].money
    assert (money.credit, money.club) == (credit, club)  # the bet back; the double was never taken
    assert money.audit_problem() is None and cab.seats[1].lock is None
    record = cab.journal.records("game", seat=1)[-1].data
    assert record["void"] and record["seat"]["staked"] == record["seat"]["returned"] == 2
    assert record["why"] == "the shoe ran out after 3 cards"
    assert cab.journal.records("event")[-1].data["event"] == "round_void"
    assert cab.seats[1].meters.get("games_void") == 1 and cab.seats[1].meters.get("games_played") == 0
    assert cab.journal.verify() == []
