"""The scripted eenendertigen round of ``cabinet round`` (other-games.md, "eenendertigen", Script keys).

Owns: reading an eenendertigen script — ``rules: {variant}``, ``shoe`` (the deck in dealing
order; it may be shorter than the deck: classic deals 15 cards, modern 13 and the closed stack is
the rest of ``shoe``) and ``players``, one per place: ``computer`` or ``{bet, actions}`` with
actions ``[swap, H, T]``, ``swap_all``, ``[take_open, D]``, ``[draw, D]``, ``pass``, ``auto`` —
and playing it on the round the cabinet runs. The scripted places are seats 1, 2, ... in place
order; computer places play the computer players' strategy. Every way a script can be wrong is
one ``ScriptError`` line naming the place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.gamemath.eenendertigen import computer
from machine.games.eenendertigen.round import EenendertigenRound
from machine.games.eenendertigen.rules import HAND, PLACES
from machine.games.rules import Profile
from machine.scripts.scripting import (
    AutoStrategy,
    ScriptError,
    SeatScript,
    check_all_used,
    need,
    no_unknown_keys,
    parse_shoe,
    play_scripted,
)

# every action string a script may produce (the round says which are legal when)
ACTIONS = (
    *(f"swap:{h}:{t}" for h in range(1, HAND + 1) for t in range(1, HAND + 1)),
    "swap_all", *(f"take_open:{d}" for d in range(1, HAND + 2)), *(f"draw:{d}" for d in range(1, HAND + 2)),
    "pass", "auto",
)
DEALT = {"classic": PLACES * HAND + HAND, "modern": PLACES * HAND + 1}


def read_action(raw: object, where: str) -> str:
    """A written action as the round's action string."""
    if raw in ("swap_all", "pass", "auto"):
        return str(raw)
    if isinstance(raw, list) and raw and raw[0] in ("swap", "take_open", "draw"):
        args = raw[1:]
        want = 2 if raw[0] == "swap" else 1
        ok = len(args) == want and all(isinstance(a, int) and not isinstance(a, bool) for a in args)
        limits = (HAND, HAND) if raw[0] == "swap" else (HAND + 1,)
        if ok and all(1 <= a <= hi for a, hi in zip(args, limits, strict=True)):
            return ":".join([raw[0], *map(str, args)])
        form = "[swap, H, T] with H and T 1 to 3" if raw[0] == "swap" else f"[{raw[0]}, D] with D 1 to 4"
        raise ScriptError(f"{where}: {raw!r} is not an action: write {form}")
    raise ScriptError(f"{where}: unknown action {raw!r} (one of [swap, H, T], swap_all, [take_open, D], "
                      "[draw, D], pass, auto)")


def read_actions(written: object, where: str) -> object:
    """A step's written ``actions`` (``cabinet session``) as the round's action strings: each
    list (``[swap, 1, 2]``) read by ``read_action``; anything else is left for ``SeatScript``."""
    if not isinstance(written, list):
        return written
    return [read_action(a, f"{where}: actions[{i}]") if isinstance(a, list) else a for i, a in enumerate(written)]


def run(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    """An eenendertigen round script; its result has the page's result keys."""
    no_unknown_keys(script, ("game", "rules", "shoe", "players"))
    rules = profile.rules
    shoe = parse_shoe(script.get("shoe"), 1, rules.ranks)
    dealt = DEALT[rules.variant]
    need(len(shoe) >= dealt, f"shoe: {rules.variant} eenendertigen deals {dealt} cards, the shoe has {len(shoe)}")
    raw_players = script.get("players")
    need(isinstance(raw_players, list) and len(raw_players) == PLACES,
          f"players: must be a list of {PLACES} places, each computer or {{bet: N, actions: [...]}}")
    assert isinstance(raw_players, list)
    seats: list[SeatScript] = []
    places: list[int | None] = []
    bets: list[int] = []
    for n, raw in enumerate(raw_players):
        where = f"place {n + 1}"
        if raw == "computer":
            places.append(None)
            bets.append(0)
            continue
        need(isinstance(raw, Mapping), f"{where}: must be computer or {{bet: N, actions: [...]}}, not {raw!r}")
        assert isinstance(raw, Mapping)
        no_unknown_keys(raw, ("bet", "actions"), f"{where}: ")
        written = raw.get("actions", [])
        need(isinstance(written, list), f"{where}: actions must be a list")
        seat = SeatScript(len(seats) + 1, {"bet": raw.get("bet"), "actions": [read_action(a, where) for a in written]},
                          where, actions=ACTIONS, keys=("bet", "actions"))
        problem = rules.bet_problem(seat.bet)
        need(problem is None, f"{where} (seat {seat.number}): {problem}")
        seats.append(seat)
        places.append(seat.number)
        bets.append(int(seat.bet or 0))
    rnd = play_scripted(lambda: EenendertigenRound.start(rules, shoe, places, bets, computer), seats, auto)
    check_all_used(seats)
    return rnd.result(profile.game)
