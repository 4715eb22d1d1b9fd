"""What a round's events share, and the kinds of event several games emit.

Owns: the base of every event (``Event``: its ``kind``, its seat, the points it takes from the
seat's meters, its plain data ``to_dict``, the older single-class form ``snapshot_dict``), the
kinds that mean the same in several games (a card to a seat or to the dealer, a play choice, a
bust, the hole card turned, a hand settled, the round's end), and rebuilding an event from its
plain data given the game's table of kinds (``event_from_dict``). Each game's own kinds live in
its package (``blackjack.events``, ``ochko.events``, ...). Never decides anything about a round.

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
class Busted(Event):
    """A hand went over 21."""

    kind: ClassVar[str] = "bust"
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
class RoundEnded(TableEvent):
    """Every hand, insurance and bonus is settled."""

    kind: ClassVar[str] = "round_end"


class EventDataError(ValueError):
    """Plain data that is no event of a round."""


def event_from_dict(
    data: Mapping[str, Any], classes: Mapping[str, type[Event]], bets: Mapping[int, int] | None = None
) -> Event:
    """The event that ``data`` (its ``to_dict`` or ``snapshot_dict``) describes.

    ``bets`` (seat number -> bet) gives an ``Action`` the seat's bet that plain data does not
    carry; without it (or without the seat) the action carries a bet of 0, so takes no stake.
    ``classes`` (kind -> class) are the kinds of the game's round.
    """
    by_kind = classes
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
