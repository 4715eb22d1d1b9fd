"""The events of an ochko round: blackjack's where they mean the same, and ochko's own.

Owns: the kinds of event only ochko has — the stake placed after the first card (``BetPlaced``,
the one event that takes money from the seat), a seat sitting out because the bank cannot
cover a stake, the dark card and its reveal, every move of the bank, the stuk, a bank opened
and a bank closed — and the table from kind to class that rebuilds any of a round's events from
its plain data. A card to a seat, the banker's card, a draw or stand, a bust, a hand settled
and the round's end are ``machine.games.events``' classes, unchanged. Never decides anything.
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
    RoundEnded,
    TableEvent,
    event_from_dict,
)

__all__ = [
    "Action", "BankClosed", "BankMoved", "BankOpened", "BetPlaced", "Busted", "CardDealt", "DarkCardDealt",
    "DarkCardShown", "DealerCardDealt", "Event", "HandSettled", "RoundEnded", "SatOut", "StukAnnounced", "from_dict",
]


@dataclass(frozen=True)
class BetPlaced(Event):
    """A seat staked ``amount`` after seeing its first card: the cabinet takes it from the club meter."""

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
class SatOut(Event):
    """At the seat's turn the uncovered bank (or its funds) could not cover the minimum stake:
    it keeps its first card and plays no part in the round."""

    kind: ClassVar[str] = "sit_out"
    seat: int
    uncovered: int


@dataclass(frozen=True)
class DarkCardDealt(Event):
    """The dark draw: one last card face down, seen by nobody until the settlement."""

    kind: ClassVar[str] = "dark_card"
    face_down: ClassVar[bool] = True
    seat: int
    hand: int
    card: str


@dataclass(frozen=True)
class DarkCardShown(Event):
    """A dark card turned face up at the settlement."""

    kind: ClassVar[str] = "dark_reveal"
    seat: int
    hand: int
    card: str


@dataclass(frozen=True)
class BankMoved(TableEvent):
    """The bank changed by ``amount`` (a lost stake in, a win paid out) and now holds ``bank``."""

    kind: ClassVar[str] = "bank"
    amount: int
    bank: int


@dataclass(frozen=True)
class BankOpened(TableEvent):
    """The banker put up a new bank of ``bank`` points (the game's first round, or after a close)."""

    kind: ClassVar[str] = "bank_open"
    bank: int


@dataclass(frozen=True)
class StukAnnounced(TableEvent):
    """The bank before the round is at least three times the opening bank: this round is its last."""

    kind: ClassVar[str] = "stuk"
    bank: int


@dataclass(frozen=True)
class BankClosed(TableEvent):
    """The banker closed the bank after the round: ``why`` is ``stuk`` or ``broken``."""

    kind: ClassVar[str] = "bank_closed"
    bank: int
    why: str


CLASSES: tuple[type[Event], ...] = (
    CardDealt, DealerCardDealt, BetPlaced, SatOut, Action, DarkCardDealt, Busted, DarkCardShown, HandSettled,
    BankMoved, BankOpened, StukAnnounced, BankClosed, RoundEnded,
)
BY_KIND: dict[str, type[Event]] = {c.kind: c for c in CLASSES}


def from_dict(data: Mapping[str, Any]) -> Event:
    """The ochko event that ``data`` (its ``to_dict``) describes; ``EventDataError`` otherwise."""
    return event_from_dict(data, BY_KIND)
