"""The events only a blackjack round has, and the table that rebuilds any of its events.

Owns: the kinds of event of blackjack's insurance, early surrender, peek, five-card charlie,
three-sevens bonus and insurance settlement, and the table from kind to class for a blackjack
round (with the kinds it shares with other games, ``machine.games.events``). Never decides
anything about the round.
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
    TableEvent,
    event_from_dict,
)

__all__ = [
    "BY_KIND", "EVENT_CLASSES", "Action", "BonusPaid", "Busted", "CardDealt", "Charlie", "DealerCardDealt",
    "EarlySurrendered", "Event", "HandSettled", "HoleCardRevealed", "InsuranceDecided", "InsuranceSettled", "Peeked",
    "RoundEnded", "from_dict",
]


@dataclass(frozen=True)
class InsuranceDecided(Event):
    """A seat's insurance answer: ``amount`` insured (0: declined)."""

    kind: ClassVar[str] = "insurance"
    seat: int
    amount: int

    @property
    def stake(self) -> int:
        return self.amount

    @property
    def stake_kind(self) -> str | None:
        return "insurance" if self.amount else None


@dataclass(frozen=True)
class EarlySurrendered(Event):
    """A seat surrendered its hand before the peek (early surrender)."""

    kind: ClassVar[str] = "surrender"
    seat: int
    hand: int = 0


@dataclass(frozen=True)
class Peeked(TableEvent):
    """The dealer looked at the hole card: ``result`` is ``blackjack`` or ``no_blackjack``."""

    kind: ClassVar[str] = "peek"
    result: str


@dataclass(frozen=True)
class Charlie(Event):
    """A hand reached five cards without busting (five-card charlie)."""

    kind: ClassVar[str] = "charlie"
    seat: int
    hand: int


@dataclass(frozen=True)
class BonusPaid(Event):
    """The three-sevens bonus: ``amount`` is the seat's bonus."""

    kind: ClassVar[str] = "bonus"
    seat: int
    hand: int
    amount: int


@dataclass(frozen=True)
class InsuranceSettled(Event):
    """What a seat's insurance returned (0 when the dealer had no blackjack)."""

    kind: ClassVar[str] = "insurance_settle"
    seat: int
    amount: int


EVENT_CLASSES: tuple[type[Event], ...] = (
    CardDealt, DealerCardDealt, InsuranceDecided, EarlySurrendered, Peeked, Busted, Charlie, Action,
    HoleCardRevealed, HandSettled, BonusPaid, InsuranceSettled, RoundEnded,
)
BY_KIND: dict[str, type[Event]] = {c.kind: c for c in EVENT_CLASSES}


def from_dict(data: Mapping[str, Any], bets: Mapping[int, int] | None = None) -> Event:
    """The blackjack event ``data`` (its ``to_dict`` or ``snapshot_dict``) describes; ``bets``
    (seat number -> bet) gives an ``Action`` its stake. ``EventDataError`` otherwise."""
    return event_from_dict(data, BY_KIND, bets)
