"""What the rounds of every game share: the refused action, the shoe and the event list.

Owns: ``IllegalAction`` (an action refused at this point, the round unchanged) and ``RoundBase``,
the base of each game's round class: the stacked shoe and the position in it (``draw``, which
raises ``ShoeExhausted`` when it runs out), the ordered events (``emit``), the phase the round is
in and whether it is over. Each game's round adds its own order of play, choices and settlement.
Pure: no I/O, clock or random number.
"""

from __future__ import annotations

from typing import Any

from machine.games.interface import RoundError, ShoeExhausted

__all__ = ["IllegalAction", "RoundBase", "RoundError", "ShoeExhausted"]

DONE = "done"  # the phase of a finished round, in every game


class IllegalAction(RoundError):
    """An action refused at this point; the round is unchanged."""

    def __init__(self, seat: int, hand: int | None, action: str, reason: str):
        self.seat, self.hand, self.action, self.reason = seat, hand, action, reason
        where = f"seat {seat}" + (f", hand {hand + 1}" if hand is not None else "")
        super().__init__(f"{where}: {action} is not allowed: {reason}")


class RoundBase:
    """A round's shoe, position, events and phase (each game's round derives from this)."""

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
