"""What every game's script runner shares (round-script.md, session-script.md).

Owns: ``ScriptError`` (the one line a bad script prints), the checks every script makes (a
condition, unknown keys, a stacked shoe against the game's deck, the number of seats), one
seat's written bet, insurance and actions (``SeatScript``), and playing a round of any game
from its seats' scripts (``play_scripted``: each decision answered from the script, Auto from
the strategy passed in). Each game's runner is ``machine.scripts.<game>``; the engine's
``script`` module in the game catalog names it. Knows no meters, hardware or display.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from machine.games.cards import RANKS, CardError, check_stacked_shoe
from machine.games.events import Event
from machine.games.interface import GameRound, bet_action
from machine.games.roundbase import RoundError

MAX_SEATS = 7
SCRIPT_ACTIONS = ("hit", "stand", "double", "split", "surrender", "auto")  # blackjack's, the default

# An Auto strategy: given the round waiting on a decision, the action to take.
AutoStrategy = Callable[[Any], str]


class ScriptError(ValueError):
    """A script that cannot be played; the message is the one line the command prints."""


def need(cond: bool, message: str) -> None:
    """A ``ScriptError`` with ``message`` unless ``cond`` holds."""
    if not cond:
        raise ScriptError(message)


def no_unknown_keys(data: Mapping[str, Any], known: tuple[str, ...], where: str = "") -> None:
    """A ``ScriptError`` naming the first key of ``data`` not in ``known``."""
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise ScriptError(f"{where}unknown key {unknown[0]!r} (known: {', '.join(known)})")


def parse_shoe(raw: object, decks: int, ranks: str = RANKS) -> list[str]:
    """A script's stacked shoe, each card checked against the game's deck (``ranks``)."""
    need(isinstance(raw, list), "shoe: must be a list of card codes, first card drawn first")
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
        need(isinstance(raw, Mapping), f"{where}: must be a mapping with bet: and actions:")
        assert isinstance(raw, Mapping)
        if need_bet:
            no_unknown_keys(raw, keys, f"{where}: ")
            need("bet" in raw, f"{where}: no bet")
        self.bet = raw.get("bet")
        ins = raw.get("insurance", False)
        need(ins is True or ins is False or ins == "auto", f"{where}: insurance must be true, false or auto, not {ins!r}")
        self.insurance = ins
        written = raw.get("actions", [])
        need(isinstance(written, list), f"{where}: actions must be a list")
        for a in written:
            need(a in actions, f"{where}: unknown action {a!r} (one of {', '.join(actions)})")
        self.actions: list[str] = list(written)
        self.used = 0

    def peek(self) -> str | None:
        return self.actions[self.used] if self.used < len(self.actions) else None

    def take(self) -> str | None:
        a = self.peek()
        if a is not None:
            self.used += 1
        return a


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
            action = answer(rnd, seat, decision.kind, auto)
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


def auto_answer(rnd: GameRound, auto: AutoStrategy | None) -> str:
    if auto is None:
        d = rnd.pending
        assert d is not None
        hand = f", hand {d.hand + 1}" if d.hand is not None else ""
        raise ScriptError(f"seat {d.seat}{hand}: auto is not available: no Auto strategy is installed")
    return auto(rnd)


def answer(rnd: GameRound, seat: SeatScript, kind: str, auto: AutoStrategy | None) -> str:
    d = rnd.pending
    assert d is not None
    if kind == "bet":  # a game that bets after the deal: the script's bet answers it
        if seat.bet == "auto":
            return auto_answer(rnd, auto)
        return bet_action(int(seat.bet or 0))
    if kind == "insurance":
        if seat.insurance == "auto":
            return auto_answer(rnd, auto)
        return "insure" if seat.insurance else "no_insurance"
    if kind == "surrender":
        # Early surrender before the peek: the seat's first written action says it.
        if seat.peek() == "surrender":
            return seat.take() or "surrender"
        if seat.peek() == "auto":
            choice = auto_answer(rnd, auto)
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
        return auto_answer(rnd, auto)
    return action
