"""Hand evaluation for the blackjack family.

Owns: a hand's total, whether it is soft, bust or a blackjack, and the three-sevens pattern.
Pure functions over card codes; the round decides when each question is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from machine.games.cards import value


class Score(NamedTuple):
    total: int
    soft: bool


def score(cards: Sequence[str], aces_hard: bool = False) -> Score:
    """Total of a hand: one ace counts 11 when that keeps the total at 21 or less.

    ``aces_hard`` is the rule after a double in Random Blackjack: every ace counts 1.
    """
    hard = 0
    aces = False
    for c in cards:
        v = value(c)
        hard += v
        if v == 1:
            aces = True
    if aces and not aces_hard and hard + 10 <= 21:
        return Score(hard + 10, True)
    return Score(hard, False)


def is_bust(cards: Sequence[str], aces_hard: bool = False) -> bool:
    return score(cards, aces_hard).total > 21


def is_natural(cards: Sequence[str]) -> bool:
    """An ace and a ten-value card as exactly two cards (the caller rules out split hands)."""
    return len(cards) == 2 and sorted(value(c) for c in cards) == [1, 10]


def is_three_sevens(cards: Sequence[str]) -> bool:
    return len(cards) == 3 and all(c[0] == "7" for c in cards)
