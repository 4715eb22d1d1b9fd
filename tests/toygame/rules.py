"""The toy game's settings: the table limits, the decks, and whether a seat may swap its card."""

from __future__ import annotations

from dataclasses import dataclass

from machine.games.rules import TableRules
from machine.games.settings import TABLE_PARSERS, boolean, int_range

ORDER = "23456789TJQKA"  # the ranks from low to high


def rank(card: str) -> int:
    """How high a card is: 0 for a two, 12 for an ace."""
    return ORDER.index(card[0])


@dataclass(frozen=True)
class ToyRules(TableRules):
    decks: int = 1
    swaps: bool = True
    min_bet: int = 2
    max_bet: int = 100
    bet_step: int = 2


ToyRules.PARSERS = TABLE_PARSERS | {"decks": int_range(1, 8), "swaps": boolean}
