"""The events of an eenendertigen round, each a small frozen class, and rebuilding them.

Owns: what each kind carries — a card dealt to a place or to the table, a move (the action and
the cards that changed hands), a pass, a knock on 31, a place's final hand and what its seat
got back, the round's end — and ``from_dict``. ``seat`` is the seat of the place, None for a
computer player or the table. No event takes money: the seats' bets are taken before the deal
(``bets_after_deal`` is False). Never decides anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from machine.games.events import Event

__all__ = ["Dealt", "Ended", "Event", "Knocked", "Moved", "Passed", "Revealed", "from_dict"]


@dataclass(frozen=True)
class Dealt(Event):
    """A card to a place's hand (``place`` 1-4) or to the table (``place`` 0; ``open`` False for
    a modern closed stack is never dealt as an event: the stack is what remains)."""

    kind: ClassVar[str] = "deal"
    seat: int | None
    place: int
    card: str


@dataclass(frozen=True)
class Moved(Event):
    """A turn's swap: ``action`` as written, the cards the place took and the cards it gave."""

    kind: ClassVar[str] = "move"
    seat: int | None
    place: int
    action: str
    took: tuple[str, ...]
    gave: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place, "action": self.action,
                "took": list(self.took), "gave": list(self.gave)}


@dataclass(frozen=True)
class Passed(Event):
    """A place passed (``by``: ``pass``, ``swap_all`` or ``swaps`` for the fifth swap)."""

    kind: ClassVar[str] = "pass"
    seat: int | None
    place: int
    by: str


@dataclass(frozen=True)
class Knocked(Event):
    """A place holds 31 after its turn or at the deal: "31!"."""

    kind: ClassVar[str] = "knock"
    seat: int | None
    place: int


@dataclass(frozen=True)
class Revealed(Event):
    """At the end: a place's hand and score, whether it won, what its seat got back."""

    kind: ClassVar[str] = "reveal"
    seat: int | None
    place: int
    cards: tuple[str, ...]
    score: int | float
    won: bool
    returned: int

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "place": self.place, "cards": list(self.cards),
                "score": self.score, "won": self.won, "returned": self.returned}


@dataclass(frozen=True)
class Ended(Event):
    """The round ended: ``31``, ``all passed``, ``swaps`` or ``stack empty``."""

    kind: ClassVar[str] = "end"
    seat: None
    ended: str


_KINDS: dict[str, type[Event]] = {c.kind: c for c in (Dealt, Moved, Passed, Knocked, Revealed, Ended)}


def from_dict(data: Mapping[str, Any]) -> Event:
    """An event rebuilt from its plain data."""
    cls = _KINDS[data["kind"]]
    args = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "kind"}
    args.setdefault("seat", None)
    if cls is Revealed:
        args.setdefault("won", False)
    return cls(**args)
