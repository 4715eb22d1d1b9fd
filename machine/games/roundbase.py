"""What the rounds of every game share: the refused action, the shoe, the events, the phases.

Owns: ``IllegalAction`` (an action refused at this point, the round unchanged), ``Phase`` (one
row of a round's table of phases: who is asked and what, why an answer is refused, what an
answer does, and the phase that follows once nobody is left to ask) and ``RoundBase``, the base
of each game's round class: the stacked shoe and the position in it (``draw``, which raises
``ShoeExhausted`` when it runs out), the ordered events (``emit``), and the walk of the game's
table ``PHASES`` — ``pending``, ``why_not`` and ``act`` read the row of the phase in force, and
``advance`` moves from row to row until someone must decide or the round is ``done``. Each
game's round writes its own table, its order of play, its choices and its settlement. Pure:
no I/O, clock or random number.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from machine.games.interface import Decision, RoundError, ShoeExhausted

__all__ = ["DONE", "IllegalAction", "Phase", "RoundBase", "RoundError", "ShoeExhausted"]

DONE = "done"  # the phase of a finished round, in every game


class IllegalAction(RoundError):
    """An action refused at this point; the round is unchanged."""

    def __init__(self, seat: int, hand: int | None, action: str, reason: str):
        self.seat, self.hand, self.action, self.reason = seat, hand, action, reason
        where = f"seat {seat}" + (f", hand {hand + 1}" if hand is not None else "")
        super().__init__(f"{where}: {action} is not allowed: {reason}")


class Funded:
    """A seat's stake money in a round: ``funds`` is what it can still stake (None: unlimited,
    as a script's seat). The blackjack family's and eenentwintig's seats share it."""

    funds: int | None

    def can_fund(self, amount: int) -> bool:
        return self.funds is None or self.funds >= amount

    def take(self, amount: int) -> None:
        if self.funds is not None:
            self.funds -= amount


@dataclass(frozen=True)
class Phase:
    """One phase of a round, as a row of its table (each a function of the round).

    ``ask``: move on to the next one this phase asks (a seat, a hand) and say whether there is
    one (False: the phase is over); ``decision``: the ``Decision`` put to it; ``refuse``: why an
    answer of the one asked is refused, or None; ``act``: apply an allowed answer; ``then``: the
    phase that follows once ``ask`` finds nobody, or a function of the round that runs what
    happens between the two (the peek, the dealer's play) and names it.
    """

    ask: Callable[[Any], bool]
    decision: Callable[[Any], Decision]
    refuse: Callable[[Any, str], str | None]
    act: Callable[[Any, str], None]
    then: str | Callable[[Any], str]


class RoundBase:
    """A round's shoe, position, events and phase, and the walk of its table of phases (each
    game's round derives from this and sets ``PHASES``; every phase not in the table but
    ``done`` is one the round passes through without asking anyone)."""

    PHASES: ClassVar[Mapping[str, Phase]] = {}

    def __init__(self, shoe: list[str]):
        self.shoe = shoe
        self.pos = 0
        self.events: list[Any] = []
        self.phase = "deal"

    @property
    def finished(self) -> bool:
        return self.phase == DONE

    @property
    def cards_used(self) -> int:
        return self.pos

    def draw(self) -> str:
        """The next card of the shoe; ``ShoeExhausted`` when there is none."""
        if self.pos >= len(self.shoe):
            raise ShoeExhausted(f"the shoe ran out after {self.pos} cards")
        card = self.shoe[self.pos]
        self.pos += 1
        return card

    def emit(self, event: Any) -> None:
        self.events.append(event)

    # -- the walk of the table of phases ----------------------------------------------------------

    @property
    def pending(self) -> Decision | None:
        """The decision the round waits on, or None when it is finished."""
        phase = self.PHASES.get(self.phase)
        return phase.decision(self) if phase is not None else None

    def why_not(self, seat_number: int, action: str) -> str | None:
        """Why ``action`` by that seat is refused now, or None when it is allowed."""
        decision = self.pending
        if decision is None:
            return "the round is over"
        if seat_number != decision.seat:
            return f"it is seat {decision.seat}'s turn"
        return self.PHASES[self.phase].refuse(self, action)

    def refused_hand(self, seat_number: int) -> int | None:
        """The hand an ``IllegalAction`` of that seat names: the hand being decided, if its own."""
        decision = self.pending
        return decision.hand if decision is not None and decision.seat == seat_number else None

    def act(self, seat_number: int, action: str) -> list[Any]:
        """Apply an allowed action and run to the next decision; returns the new events, or
        raises ``IllegalAction`` and changes nothing."""
        problem = self.why_not(seat_number, action)
        if problem is not None:
            raise IllegalAction(seat_number, self.refused_hand(seat_number), action, problem)
        first_new = len(self.events)
        self.PHASES[self.phase].act(self, action)
        self.advance()
        return self.events[first_new:]

    def advance(self) -> None:
        """Walk the table: stay in a phase while it has someone to ask, else go to the next."""
        while self.phase != DONE:
            phase = self.PHASES[self.phase]
            if phase.ask(self):
                return
            self.phase = phase.then if isinstance(phase.then, str) else phase.then(self)
