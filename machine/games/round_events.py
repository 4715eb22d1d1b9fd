"""The events of a blackjack-family round: one small frozen class per kind.

Owns: what each kind of event carries, its plain data (``to_dict``: the form the journal and
``cabinet round`` write, unchanged since events were one class with a ``kind`` string),
rebuilding the right class from that plain data (``event_from_dict``, which also reads what
older code wrote), and ``stake``: the points an event takes from the seat's meters. Never
decides anything about the round; the round emits these in order, the cabinet, the scripts
and the journal read them.

Every event has ``kind`` (a class constant) and ``seat`` (1-based, None for the dealer's and
the table's events); ``hand`` is 0-based.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

# The fields of the single Event class of older code, in its order: the key order of the
# plain data, and the form a round's snapshot writes (``snapshot_dict``).
_PLAIN_ORDER = ("seat", "hand", "card", "action", "amount", "result", "face_down")
_EXTRA_STAKE_ACTIONS = ("double", "split")


class Event:
    """Something that happened in a round, in order (the base of every kind)."""

    __slots__ = ()
    kind: ClassVar[str]
    seat: int | None

    @property
    def stake(self) -> int:
        """The points this event takes from the seat's meters (0: none)."""
        return 0

    @property
    def stake_kind(self) -> str | None:
        """What the stake is for (``insurance``, ``double``, ``split``), or None when it is 0."""
        return None

    def to_dict(self) -> dict[str, Any]:
        """The plain data: ``kind`` then the event's own fields, none that is None or False."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            if f.metadata.get("plain", True) and v is not None and v is not False:
                out[f.name] = v
        return out

    def snapshot_dict(self) -> dict[str, Any]:
        """Every field of the older single Event class, None where this kind has none: the form
        a round's snapshot (``Round.to_dict``) has always written."""
        plain = self.to_dict()
        return {"kind": self.kind, **{k: plain.get(k, False if k == "face_down" else None) for k in _PLAIN_ORDER}}


class TableEvent(Event):
    """An event of the dealer or of the whole table: it belongs to no seat."""

    __slots__ = ()
    seat: ClassVar[None] = None  # type: ignore[misc]


@dataclass(frozen=True)
class CardDealt(Event):
    """A card dealt to a seat's hand (always face up)."""

    kind: ClassVar[str] = "card"
    face_down: ClassVar[bool] = False
    seat: int
    hand: int
    card: str


@dataclass(frozen=True)
class DealerCardDealt(TableEvent):
    """A card dealt to the dealer; ``face_down`` for the hole card."""

    kind: ClassVar[str] = "dealer_card"
    card: str
    face_down: bool = False


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
class Busted(Event):
    """A hand went over 21."""

    kind: ClassVar[str] = "bust"
    seat: int
    hand: int


@dataclass(frozen=True)
class Charlie(Event):
    """A hand reached five cards without busting (five-card charlie)."""

    kind: ClassVar[str] = "charlie"
    seat: int
    hand: int


@dataclass(frozen=True)
class Action(Event):
    """A seat's play choice on a hand; ``bet`` is the seat's bet, the stake of a double or a
    split (not in the plain data, which never carried it: ``event_from_dict`` takes it from
    the round)."""

    kind: ClassVar[str] = "action"
    seat: int
    hand: int
    action: str
    bet: int = field(default=0, metadata={"plain": False})

    @property
    def stake(self) -> int:
        return self.bet if self.action in _EXTRA_STAKE_ACTIONS else 0

    @property
    def stake_kind(self) -> str | None:
        return self.action if self.stake else None


@dataclass(frozen=True)
class HoleCardRevealed(TableEvent):
    """The dealer turned the hole card over."""

    kind: ClassVar[str] = "dealer_reveal"
    card: str


@dataclass(frozen=True)
class HandSettled(Event):
    """A hand's result and what it returned (the stake included)."""

    kind: ClassVar[str] = "settle"
    seat: int
    hand: int
    amount: int
    result: str


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


@dataclass(frozen=True)
class RoundEnded(TableEvent):
    """Every hand, insurance and bonus is settled."""

    kind: ClassVar[str] = "round_end"


EVENT_CLASSES: tuple[type[Event], ...] = (
    CardDealt, DealerCardDealt, InsuranceDecided, EarlySurrendered, Peeked, Busted, Charlie, Action,
    HoleCardRevealed, HandSettled, BonusPaid, InsuranceSettled, RoundEnded,
)
BY_KIND: dict[str, type[Event]] = {c.kind: c for c in EVENT_CLASSES}


class EventDataError(ValueError):
    """Plain data that is no event of a round."""


def event_from_dict(
    data: Mapping[str, Any], bets: Mapping[int, int] | None = None, by_kind: Mapping[str, type[Event]] = BY_KIND
) -> Event:
    """The event that ``data`` (its ``to_dict`` or ``snapshot_dict``) describes.

    ``bets`` (seat number -> bet) gives an ``Action`` the seat's bet that plain data does not
    carry; without it (or without the seat) the action carries a bet of 0, so takes no stake.
    ``by_kind`` names the event classes of the game (another game passes its own table).
    """
    kind = data.get("kind")
    cls = by_kind.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventDataError(f"unknown round event kind {kind!r} (known: {', '.join(by_kind)})")
    own = {f.name for f in fields(cls)}  # type: ignore[arg-type]
    stray = [k for k, v in data.items() if k != "kind" and k not in own and v is not None and v is not False]
    if stray:
        raise EventDataError(f"a {kind} event has no {stray[0]!r}")
    kw = {k: data[k] for k in own if k in data}
    if cls is Action and "bet" not in kw:
        kw["bet"] = (bets or {}).get(data.get("seat"), 0)  # type: ignore[arg-type]
    try:
        return cls(**kw)
    except TypeError as exc:
        raise EventDataError(f"a {kind} event: {exc}") from None
