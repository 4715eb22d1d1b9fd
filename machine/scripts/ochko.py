"""The scripted ochko round of ``cabinet round`` (other-games.md, section "ochko", Script keys).

Owns: reading an ochko script — ``bank`` (the bank before the round; default the profile's
``opening_bank``), ``shoe`` (36-card packs), and per seat ``bet`` (0 for a seat that sits
out) and ``actions`` (``hit``, ``stand``, ``dark``, ``auto``) — and playing it on the engine
the cabinet runs, each seat's stake placed at its ``bet`` decision, where the round checks it
against the uncovered bank. Every way a script can be wrong is one ``ScriptError`` line. The
checks shared with blackjack's scripts are ``scripting``'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.ochko.round import OchkoRound
from machine.games.ochko.rules import RANKS
from machine.games.rules import Profile
from machine.scripts.scripting import (
    MAX_SEATS,
    AutoStrategy,
    ScriptError,
    SeatScript,
    check_all_used,
    need,
    no_unknown_keys,
    parse_shoe,
    play_scripted,
)

ACTIONS = ("hit", "stand", "dark", "auto")


def run(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    """An ochko round script; its result is the round-script result with the bank's keys."""
    no_unknown_keys(script, ("game", "rules", "bank", "shoe", "seats"))
    rules = profile.rules
    bank = script.get("bank", rules.opening_bank)
    need(
        not isinstance(bank, bool) and isinstance(bank, int) and bank >= rules.min_bet,
        f"bank: must be a whole number of points of at least the minimum bet {rules.min_bet}, not {bank!r}",
    )
    shoe = parse_shoe(script.get("shoe"), rules.decks, RANKS)
    raw_seats = script.get("seats")
    need(isinstance(raw_seats, list) and bool(raw_seats), f"seats: must be a list of 1 to {MAX_SEATS} seats")
    assert isinstance(raw_seats, list)
    need(len(raw_seats) <= MAX_SEATS, f"seats: at most {MAX_SEATS} seats, not {len(raw_seats)}")
    seats = [SeatScript(i + 1, s, actions=ACTIONS, keys=("bet", "actions")) for i, s in enumerate(raw_seats)]
    for s in seats:
        if s.bet != 0 and s.bet != "auto":
            problem = rules.bet_problem(s.bet)
            need(problem is None, f"seat {s.number}: {problem} (bet: 0 for a seat that sits out)")
    carry = {"bank": bank, "closed": False} if "bank" in script else None
    numbers = [s.number for s in seats]
    rnd = play_scripted(lambda: OchkoRound.start(rules, shoe, numbers, carry=carry), seats, auto)
    for s in seats:
        if rnd.seat(s.number).state == "out" and s.bet not in (0, "auto"):
            raise ScriptError(
                f"seat {s.number}, hand 1: bet {s.bet} is not allowed: the seat sits out (at its turn the "
                f"uncovered bank could not cover the minimum bet of {rules.min_bet}): write bet: 0"
            )
    check_all_used(seats)
    return rnd.result(profile.game)
