"""Eenendertigen's settings, its deck and how a hand scores.

Owns: the settings of an eenendertigen profile (``EenendertigenRules``: the variant, the table
limits, ``win_pays``), the deck each variant deals (classic: 32 cards, 7 to ace; modern: 52),
and a hand's score: the highest sum of one suit (ace 11, J Q K 10, the rest face value), three
cards of one rank 30.5, 31 the best. Scores are kept in half points (``score2``: 61 is 30.5) so
every comparison is exact. Never deals, never decides the order of a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from machine.games.cards import RANKS as ALL_RANKS
from machine.games.rules import TableRules
from machine.games.settings import TABLE_PARSERS, choice, int_range, ratio

VARIANTS = ("classic", "modern")
CLASSIC_RANKS = "789TJQKA"  # 32 cards: 7 to ace of each suit
POINTS = {"A": 11, "K": 10, "Q": 10, "J": 10, "T": 10} | {str(n): n for n in range(2, 10)}
HAND = 3  # cards in every hand
PLACES = 4  # places at the table, seats first, computer players fill the rest
THIRTY_ONE2 = 62  # 31 in half points
TRIPLE2 = 61  # three of a rank: 30.5 in half points


def ranks_of(variant: str) -> str:
    """The ranks of the variant's deck."""
    return CLASSIC_RANKS if variant == "classic" else ALL_RANKS


def points(card: str) -> int:
    """A card's points (``"AS"`` -> 11, ``"QH"`` -> 10, ``"7C"`` -> 7)."""
    return POINTS[card[0]]


def score2(cards: Sequence[str]) -> int:
    """A hand's score in half points: three of a rank 61 (30.5), else twice the best suit's sum.
    (A suit sum of 31 beats three of a rank; no suit sum between 30.5 and 31 exists.)"""
    by_suit: dict[str, int] = {}
    for c in cards:
        by_suit[c[1]] = by_suit.get(c[1], 0) + points(c)
    best = 2 * max(by_suit.values()) if by_suit else 0
    if len(cards) == HAND and cards[0][0] == cards[1][0] == cards[2][0]:
        best = max(best, TRIPLE2)
    return best


def score_value(s2: int) -> int | float:
    """A half-point score as the result writes it: 31, 30.5, 20."""
    return s2 // 2 if s2 % 2 == 0 else s2 / 2


def score_text(s2: int) -> str:
    return str(score_value(s2))


@dataclass(frozen=True)
class EenendertigenRules(TableRules):
    """Every rule setting of eenendertigen. Defaults are the seed's (other-games.md)."""

    variant: str = "classic"
    decks: int = 1  # always one deck: the variant fixes which (32 or 52 cards)
    win_pays: Fraction = Fraction(7, 2)  # a winning seat gets this x its bet back, shared between tied winners
    min_bet: int = 2
    max_bet: int = 500
    bet_step: int = 2

    @property
    def ranks(self) -> str:
        return ranks_of(self.variant)

    def winnings(self, bet: int, winners: int) -> int:
        """What a winning seat gets back: floor(win_pays x bet / number of tied winners)."""
        return (self.win_pays.numerator * bet) // (self.win_pays.denominator * winners)


EenendertigenRules.PARSERS = TABLE_PARSERS | {
    "variant": choice(VARIANTS),
    "decks": int_range(1, 1),
    "win_pays": ratio,
}
