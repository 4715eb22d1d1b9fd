"""The scripted round of ``cabinet round`` (shared/spec/round-script.md).

Owns: checking a round script, feeding its stacked shoe and written decisions to the engine,
and turning every way a script can be wrong into one ``ScriptError`` line. Knows no meters,
hardware or display. Auto decisions come from a strategy the caller passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from machine.games.cards import RANKS, CardError, check_stacked_shoe, deck_ranks
from machine.games.round import Event, Round, RoundError
from machine.games.rules import Profile, RulesError, load_profile

MAX_SEATS = 7
SCRIPT_ACTIONS = ("hit", "stand", "double", "split", "surrender", "auto")

# An Auto strategy: given the round waiting on a decision, the action to take.
AutoStrategy = Callable[[Round], str]


class ScriptError(ValueError):
    """A script that cannot be played; the message is the one line the command prints."""


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise ScriptError(message)


def _no_unknown_keys(data: Mapping[str, Any], known: tuple[str, ...], where: str = "") -> None:
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ScriptError(f"{where}unknown key {unknown[0]!r} (known: {', '.join(known)})")


def load_game(script: Mapping[str, Any]) -> Profile:
    """The profile a script names, with its ``rules:`` overrides applied."""
    _need(isinstance(script, Mapping), "the script must be a mapping with game:, shoe: and seats:")
    _need("game" in script, "the script names no game (game: random-blackjack)")
    try:
        profile = load_profile(script["game"], script.get("rules"))
    except RulesError as exc:
        raise ScriptError(str(exc)) from None
    _need(profile.engine == "blackjack", f"game {profile.game!r} is not played by cabinet round yet")
    return profile


def parse_shoe(raw: object, decks: int, ranks: str = RANKS) -> list[str]:
    _need(isinstance(raw, list), "shoe: must be a list of card codes, first card drawn first")
    assert isinstance(raw, list)
    try:
        return check_stacked_shoe(raw, decks if decks > 0 else 10**9, ranks)
    except CardError as exc:
        raise ScriptError(f"shoe: {exc}") from None


class SeatScript:
    def __init__(self, number: int, raw: object, where: str | None = None, need_bet: bool = True):
        self.number = number
        where = where or f"seats[{number - 1}]"
        _need(isinstance(raw, Mapping), f"{where}: must be a mapping with bet: and actions:")
        assert isinstance(raw, Mapping)
        if need_bet:
            _no_unknown_keys(raw, ("bet", "insurance", "actions"), f"{where}: ")
            _need("bet" in raw, f"{where}: no bet")
        self.bet = raw.get("bet")
        ins = raw.get("insurance", False)
        _need(ins is True or ins is False or ins == "auto", f"{where}: insurance must be true, false or auto, not {ins!r}")
        self.insurance = ins
        actions = raw.get("actions", [])
        _need(isinstance(actions, list), f"{where}: actions must be a list")
        for a in actions:
            _need(a in SCRIPT_ACTIONS, f"{where}: unknown action {a!r} (one of {', '.join(SCRIPT_ACTIONS)})")
        self.actions: list[str] = list(actions)
        self.used = 0

    def peek(self) -> str | None:
        return self.actions[self.used] if self.used < len(self.actions) else None

    def take(self) -> str | None:
        a = self.peek()
        if a is not None:
            self.used += 1
        return a


def run_round_script(script: Mapping[str, Any], auto: AutoStrategy | None = None) -> dict[str, Any]:
    """Play a round script and return its result (round-script.md); raise ``ScriptError``."""
    profile = load_game(script)
    _no_unknown_keys(script, ("game", "rules", "shoe", "seats"))
    shoe = parse_shoe(script.get("shoe"), profile.rules.decks, deck_ranks(profile.rules.spanish_deck))
    raw_seats = script.get("seats")
    _need(isinstance(raw_seats, list) and bool(raw_seats), "seats: must be a list of 1 to 7 seats")
    assert isinstance(raw_seats, list)
    _need(len(raw_seats) <= MAX_SEATS, f"seats: at most {MAX_SEATS} seats, not {len(raw_seats)}")
    seats = [SeatScript(i + 1, s) for i, s in enumerate(raw_seats)]
    for s in seats:
        problem = profile.rules.bet_problem(s.bet)
        _need(problem is None, f"seat {seats.index(s) + 1}: {problem}")

    bets = [int(s.bet or 0) for s in seats]  # each checked above by bet_problem
    rnd = play_scripted(lambda: Round.start(profile.rules, shoe, bets), seats, auto)
    check_all_used(seats)
    return rnd.result(profile.game)


def play_scripted(
    start: Callable[[], Round],
    seats: list[SeatScript],
    auto: AutoStrategy | None,
    after_act: Callable[[Round, list[Event]], None] | None = None,
) -> Round:
    """Start a round and answer its every decision from the seats' scripts.

    ``after_act`` sees each decision's new events (the session uses it to move stakes).
    """
    try:
        rnd = start()
        while (decision := rnd.pending) is not None:
            seat = seats[rnd.seats.index(rnd.seat(decision.seat))]
            action = _answer(rnd, seat, decision.kind, auto)
            new = rnd.act(decision.seat, action)
            if after_act is not None:
                after_act(rnd, new)
    except RoundError as exc:  # IllegalAction and ShoeExhausted name what went wrong
        raise ScriptError(str(exc)) from None
    return rnd


def check_all_used(seats: list[SeatScript]) -> None:
    for s in seats:
        left = s.actions[s.used :]
        if left:
            plural = "s" if len(left) > 1 else ""
            raise ScriptError(f"seat {s.number}: {len(left)} action{plural} left over when the round ended: {', '.join(left)}")


def _auto(rnd: Round, auto: AutoStrategy | None) -> str:
    if auto is None:
        d = rnd.pending
        assert d is not None
        hand = f", hand {d.hand + 1}" if d.hand is not None else ""
        raise ScriptError(f"seat {d.seat}{hand}: auto is not available: no Auto strategy is installed")
    return auto(rnd)


def _answer(rnd: Round, seat: SeatScript, kind: str, auto: AutoStrategy | None) -> str:
    d = rnd.pending
    assert d is not None
    if kind == "insurance":
        if seat.insurance == "auto":
            return _auto(rnd, auto)
        return "insure" if seat.insurance else "no_insurance"
    if kind == "surrender":
        # Early surrender before the peek: the seat's first written action says it.
        if seat.peek() == "surrender":
            return seat.take() or "surrender"
        if seat.peek() == "auto":
            choice = _auto(rnd, auto)
            if choice == "surrender":
                seat.take()
            return choice
        return "continue"
    action = seat.take()
    if action is None:
        raise ScriptError(
            f"seat {d.seat}, hand {(d.hand or 0) + 1}: the actions ran out while the seat must decide "
            f"(allowed: {', '.join(d.options)})"
        )
    if action == "auto":
        return _auto(rnd, auto)
    return action
