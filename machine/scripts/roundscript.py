"""The scripted round of ``cabinet round`` (shared/spec/round-script.md).

Owns: checking a round script, feeding its stacked shoe and written decisions to the engine,
and turning every way a script can be wrong into one ``ScriptError`` line. Knows no meters,
hardware or display. Auto decisions come from a strategy the caller passes in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from machine.games.blackjack.events import Event
from machine.games.blackjack.round import Round
from machine.games.cards import RANKS, CardError, check_stacked_shoe, deck_ranks
from machine.games.interface import GameRound, RoundError, bet_action
from machine.games.rules import Profile, RulesError
from machine.profiles import load_profile

MAX_SEATS = 7
SCRIPT_ACTIONS = ("hit", "stand", "double", "split", "surrender", "auto")

# An Auto strategy: given the round waiting on a decision, the action to take.
AutoStrategy = Callable[[Any], str]


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
    _need(profile.engine in RUNNERS, f"game {profile.game!r} is not played by cabinet round yet")
    return profile


def parse_shoe(raw: object, decks: int, ranks: str = RANKS) -> list[str]:
    """A script's stacked shoe, each card checked against the game's deck (``ranks``)."""
    _need(isinstance(raw, list), "shoe: must be a list of card codes, first card drawn first")
    assert isinstance(raw, list)
    try:
        return check_stacked_shoe(raw, decks if decks > 0 else 10**9, ranks)
    except CardError as exc:
        raise ScriptError(f"shoe: {exc}") from None


class SeatScript:
    """One seat of a script: its bet, insurance answer and written actions (``actions`` and
    ``keys``: another game's script actions and seat keys)."""

    def __init__(
        self, number: int, raw: object, where: str | None = None, need_bet: bool = True,
        actions: tuple[str, ...] = SCRIPT_ACTIONS, keys: tuple[str, ...] = ("bet", "insurance", "actions"),
    ):
        self.number = number
        where = where or f"seats[{number - 1}]"
        _need(isinstance(raw, Mapping), f"{where}: must be a mapping with bet: and actions:")
        assert isinstance(raw, Mapping)
        if need_bet:
            _no_unknown_keys(raw, keys, f"{where}: ")
            _need("bet" in raw, f"{where}: no bet")
        self.bet = raw.get("bet")
        ins = raw.get("insurance", False)
        _need(ins is True or ins is False or ins == "auto", f"{where}: insurance must be true, false or auto, not {ins!r}")
        self.insurance = ins
        written = raw.get("actions", [])
        _need(isinstance(written, list), f"{where}: actions must be a list")
        for a in written:
            _need(a in actions, f"{where}: unknown action {a!r} (one of {', '.join(actions)})")
        self.actions: list[str] = list(written)
        self.used = 0

    def peek(self) -> str | None:
        return self.actions[self.used] if self.used < len(self.actions) else None

    def take(self) -> str | None:
        a = self.peek()
        if a is not None:
            self.used += 1
        return a


def run_round_script(script: Mapping[str, Any], auto: AutoStrategy | None = None) -> dict[str, Any]:
    """Play a round script and return its result (round-script.md); raise ``ScriptError``.

    ``auto`` is Auto's strategy for the script's game (the caller picks it by the engine).
    """
    profile = load_game(script)
    return RUNNERS[profile.engine](script, profile, auto)


def _run_blackjack(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    """A blackjack-family round script (round-script.md)."""
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
    start: Callable[[], Any],
    seats: list[SeatScript],
    auto: AutoStrategy | None,
    after_act: Callable[[Any, list[Event]], None] | None = None,
) -> Any:
    """Start a round (any game's ``GameRound``) and answer its every decision from the seats'
    scripts, in the seats' order in the round.

    ``after_act`` sees each decision's new events (the session uses it to move stakes).
    """
    try:
        rnd = start()
        while (decision := rnd.pending) is not None:
            seat = seats[rnd.seat_numbers.index(decision.seat)]
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


def _auto(rnd: GameRound, auto: AutoStrategy | None) -> str:
    if auto is None:
        d = rnd.pending
        assert d is not None
        hand = f", hand {d.hand + 1}" if d.hand is not None else ""
        raise ScriptError(f"seat {d.seat}{hand}: auto is not available: no Auto strategy is installed")
    return auto(rnd)


def _answer(rnd: GameRound, seat: SeatScript, kind: str, auto: AutoStrategy | None) -> str:
    d = rnd.pending
    assert d is not None
    if kind == "bet":  # a game that bets after the deal: the script's bet answers it
        if seat.bet == "auto":
            return _auto(rnd, auto)
        return bet_action(int(seat.bet or 0))
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


def _run_ochko(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    from machine.scripts.ochkoscript import run_ochko  # it builds on this module's helpers

    return run_ochko(script, profile, auto)


def read_actions(engine: str, written: object, where: str) -> object:
    """A seat's written ``actions`` as the round's action strings where the game writes some as
    lists (eenendertigen's ``[swap, 1, 2]``); anything else is left for ``SeatScript`` to check."""
    if engine != "eenendertigen" or not isinstance(written, list):
        return written
    from machine.scripts.eenendertigenscript import read_action

    return [read_action(a, f"{where}: actions[{i}]") if isinstance(a, list) else a for i, a in enumerate(written)]


def script_actions(engine: str) -> tuple[str, ...]:
    """The actions a script of ``engine``'s game may write."""
    if engine == "ochko":
        from machine.scripts.ochkoscript import ACTIONS

        return ACTIONS
    if engine == "eenendertigen":
        from machine.scripts.eenendertigenscript import SCRIPT_ACTIONS as EEN31_ACTIONS

        return EEN31_ACTIONS
    if engine == "eenentwintig":
        from machine.scripts.eenentwintigscript import SCRIPT_ACTIONS as EEN_ACTIONS

        return EEN_ACTIONS
    return SCRIPT_ACTIONS


# engine -> its script runner: (script, profile, auto) -> the result. Each game's page in
# other-games.md gives its script keys; a game's runner lives beside this one.
def _run_eenentwintig(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    from machine.scripts.eenentwintigscript import run_eenentwintig  # it imports this module's helpers

    return run_eenentwintig(script, profile, auto)


def _run_eenendertigen(script: Mapping[str, Any], profile: Profile, auto: AutoStrategy | None) -> dict[str, Any]:
    from machine.scripts.eenendertigenscript import run_eenendertigen  # it imports this module's helpers

    return run_eenendertigen(script, profile, auto)


RUNNERS: dict[str, Callable[[Mapping[str, Any], Profile, AutoStrategy | None], dict[str, Any]]] = {
    "blackjack": _run_blackjack,
    "ochko": _run_ochko,
    "eenentwintig": _run_eenentwintig,
    "eenendertigen": _run_eenendertigen,
}
