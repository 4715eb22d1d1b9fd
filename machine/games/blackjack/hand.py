"""Hand evaluation for the blackjack family, over card codes.

Owns: reading a hand of card codes into what the rules look at (its hard total, whether it
holds an ace, its sevens) and asking ``blackjack.scoring`` for its total, whether it is soft,
bust, a natural or three sevens. Writes no rule itself; the round decides when each question
is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from machine.games.blackjack import scoring as bj
from machine.games.cards import value
from machine.games.text import Text


class Score(NamedTuple):
    total: int
    soft: bool


def _hard(cards: Sequence[str]) -> tuple[int, bool]:
    """The hard total (every ace 1) and whether the hand holds an ace."""
    hard = 0
    ace = False
    for c in cards:
        v = value(c)
        hard += v
        ace = ace or v == 1
    return hard, ace


def score(cards: Sequence[str], aces_hard: bool = False) -> Score:
    """Total of a hand: one ace counts 11 when that keeps the total at 21 or less.

    ``aces_hard`` is the rule after a double in Random Blackjack: every ace counts 1.
    """
    hard, ace = _hard(cards)
    return Score(*bj.hand_score(hard, ace, aces_hard))


def is_bust(cards: Sequence[str], aces_hard: bool = False) -> bool:
    return score(cards, aces_hard).total > 21


def is_natural(cards: Sequence[str]) -> bool:
    """An ace and a ten-value card as exactly two cards (the caller rules out split hands)."""
    hard, ace = _hard(cards)
    return bj.is_natural(len(cards), hard, ace)


def earns_three_sevens(cards: Sequence[str], from_split: bool = False) -> bool:
    """Exactly three sevens, not on a split hand: the hand earns the three-sevens bonus."""
    return bj.earns_three_sevens(from_split, len(cards), sum(1 for c in cards if value(c) == 7))


def total_text(cards: Sequence[str], aces_hard: bool = False, from_split: bool = False) -> str:
    """A hand's total as the screen writes it: "17", "soft 17", "bust 24", "blackjack"."""
    if not cards:
        return ""
    if not from_split and is_natural(cards):
        return "blackjack"
    s = score(cards, aces_hard)
    if s.total > 21:
        return Text("bust {total}", total=s.total)
    return Text("soft {total}", total=s.total) if s.soft else str(s.total)
