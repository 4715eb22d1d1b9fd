"""The scripted eenentwintig round of ``cabinet round`` (other-games.md, "Script keys").

Owns: checking an eenentwintig round script (a shoe of the game's 32-card decks, each seat's
``bet`` within the table limits and its actions ``hit``, ``stand``, ``split``, ``wash``,
``auto``) and playing it on the engine: the seat's ``bet`` answers its bet decision after the
deal, the actions answer its play decisions in order. Every way a script can be wrong is one
``ScriptError`` line (round-script.md's refusals). Knows no meters, hardware or display.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.scoring import RANKS
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

ACTIONS = ("hit", "stand", "split", "wash", "auto")


def run(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    """Play an eenentwintig round script and return its result; raise ``ScriptError``."""
    no_unknown_keys(script, ("game", "rules", "shoe", "seats"))
    rules = profile.rules
    shoe = parse_shoe(script.get("shoe"), rules.decks, RANKS)
    raw_seats = script.get("seats")
    need(isinstance(raw_seats, list) and bool(raw_seats), f"seats: must be a list of 1 to {MAX_SEATS} seats")
    assert isinstance(raw_seats, list)
    need(len(raw_seats) <= MAX_SEATS, f"seats: at most {MAX_SEATS} seats, not {len(raw_seats)}")
    for i, raw in enumerate(raw_seats):
        if isinstance(raw, Mapping):
            no_unknown_keys(raw, ("bet", "actions"), f"seats[{i}]: ")
    seats = [SeatScript(i + 1, s, actions=ACTIONS, keys=("bet", "actions")) for i, s in enumerate(raw_seats)]
    for s in seats:
        problem = rules.bet_problem(s.bet)
        need(problem is None, f"seat {s.number}: {problem}")
    numbers = [s.number for s in seats]
    rnd = play_scripted(lambda: EenentwintigRound.start(rules, shoe, numbers), seats, auto)
    check_all_used(seats)
    return rnd.result(profile.game)
