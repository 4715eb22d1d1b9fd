"""The scripted blackjack-family round of ``cabinet round`` (round-script.md).

Owns: reading a blackjack round script — ``shoe`` (the profile's decks, Spanish decks without
their tens), per seat ``bet``, ``insurance`` (true, false or auto) and ``actions`` (``hit``,
``stand``, ``double``, ``split``, ``surrender``, ``auto``) — and playing it on the round the
cabinet runs. Every way a script can be wrong is one ``ScriptError`` line; the checks shared
with the other games' scripts are ``scripting``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.blackjack.round import Round
from machine.games.cards import deck_ranks
from machine.games.rules import Profile
from machine.scripts.scripting import (
    MAX_SEATS,
    SCRIPT_ACTIONS,
    AutoStrategy,
    SeatScript,
    check_all_used,
    need,
    no_unknown_keys,
    parse_shoe,
    play_scripted,
)

ACTIONS = SCRIPT_ACTIONS  # the actions a blackjack script may write


def run(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    """A blackjack-family round script (round-script.md)."""
    no_unknown_keys(script, ("game", "rules", "shoe", "seats"))
    shoe = parse_shoe(script.get("shoe"), profile.rules.decks, deck_ranks(profile.rules.spanish_deck))
    raw_seats = script.get("seats")
    need(isinstance(raw_seats, list) and bool(raw_seats), "seats: must be a list of 1 to 7 seats")
    assert isinstance(raw_seats, list)
    need(len(raw_seats) <= MAX_SEATS, f"seats: at most {MAX_SEATS} seats, not {len(raw_seats)}")
    seats = [SeatScript(i + 1, s) for i, s in enumerate(raw_seats)]
    for s in seats:
        problem = profile.rules.bet_problem(s.bet)
        need(problem is None, f"seat {seats.index(s) + 1}: {problem}")

    bets = [int(s.bet or 0) for s in seats]  # each checked above by bet_problem
    rnd = play_scripted(lambda: Round.start(profile.rules, shoe, bets), seats, auto)
    check_all_used(seats)
    return rnd.result(profile.game)
