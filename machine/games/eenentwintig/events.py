"""The events of an eenentwintig round: blackjack's where they fit, four of the game's own.

Owns: the events only this game has (a closed card dealt to a seat, that card turned after the
bets, a bet placed after the deal, a vuile was thrown away), the table from an event's kind to
its class for this game, and rebuilding an event from its plain data. Reused from
``machine.games.events`` unchanged: a seat's open and drawn cards (``CardDealt``), the
bank's closed cards and their turning (``DealerCardDealt`` face down, ``HoleCardRevealed``), a
seat's choice (``Action``: a split takes the bet again as its stake), ``Busted``,
``HandSettled`` and ``RoundEnded``. Never decides anything about the round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from machine.games.events import (
    Action,
    Busted,
    CardDealt,
    DealerCardDealt,
    Event,
    HandSettled,
    HoleCardRevealed,
    RoundEnded,
    event_from_dict,
)

__all__ = [
    "Action", "BetPlaced", "Busted", "CardDealt", "CardTurned", "ClosedCardDealt", "DealerCardDealt", "Event",
    "HandSettled", "HoleCardRevealed", "RoundEnded", "Washed", "eenentwintig_event",
]


@dataclass(frozen=True)
class ClosedCardDealt(Event):
    """A seat's first card, dealt closed: no seat sees it until every bet is in."""

    kind: ClassVar[str] = "closed_card"
    seat: int
    hand: int
    card: str


@dataclass(frozen=True)
class BetPlaced(Event):
    """A seat's bet, placed after it saw its open card: the stake of its hand."""

    kind: ClassVar[str] = "bet"
    seat: int
    amount: int

    @property
    def stake(self) -> int:
        return self.amount

    @property
    def stake_kind(self) -> str | None:
        return "bet" if self.amount else None


@dataclass(frozen=True)
class CardTurned(Event):
    """A seat's closed card turned face up, once every bet is in."""

    kind: ClassVar[str] = "card_turned"
    seat: int
    hand: int
    card: str


@dataclass(frozen=True)
class Washed(Event):
    """A vuile was thrown away: ``cards`` are the 7 and the 8; two new cards follow."""

    kind: ClassVar[str] = "wash"
    seat: int
    hand: int
    cards: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(self.cards))  # plain data brings a list

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "hand": self.hand, "cards": list(self.cards)}


EVENT_CLASSES: tuple[type[Event], ...] = (
    ClosedCardDealt, CardDealt, DealerCardDealt, BetPlaced, CardTurned, Action, Washed, Busted,
    HoleCardRevealed, HandSettled, RoundEnded,
)
BY_KIND: dict[str, type[Event]] = {c.kind: c for c in EVENT_CLASSES}


def eenentwintig_event(data: Mapping[str, Any], bets: Mapping[int, int]) -> Event:
    """The event ``data`` (its ``to_dict``) describes; ``bets`` gives a split its stake."""
    return event_from_dict(data, BY_KIND, bets)
