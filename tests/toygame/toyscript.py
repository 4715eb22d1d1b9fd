"""``cabinet round`` for the toy game: ``shoe`` and per seat ``bet`` and ``actions`` (swap,
stand, auto), played on the toy round with the helpers every game's script shares."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.rules import Profile
from machine.scripts.scripting import (
    MAX_SEATS,
    AutoStrategy,
    SeatScript,
    check_all_used,
    need,
    no_unknown_keys,
    parse_shoe,
    play_scripted,
)

from .round import ToyRound
from .rules import ORDER

ACTIONS = ("swap", "stand", "auto")


def run(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    no_unknown_keys(script, ("game", "rules", "shoe", "seats"))
    shoe = parse_shoe(script.get("shoe"), profile.rules.decks, ORDER)
    raw = script.get("seats")
    need(isinstance(raw, list) and 0 < len(raw) <= MAX_SEATS, f"seats: must be a list of 1 to {MAX_SEATS} seats")
    assert isinstance(raw, list)
    seats = [SeatScript(i + 1, s, actions=ACTIONS, keys=("bet", "actions")) for i, s in enumerate(raw)]
    for s in seats:
        problem = profile.rules.bet_problem(s.bet)
        need(problem is None, f"seat {s.number}: {problem}")
    bets = [int(s.bet or 0) for s in seats]
    rnd = play_scripted(lambda: ToyRound.start(profile.rules, shoe, bets, [s.number for s in seats]), seats, auto)
    check_all_used(seats)
    return rnd.result(profile.game)
