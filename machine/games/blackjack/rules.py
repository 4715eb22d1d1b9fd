"""The rule settings of a blackjack-family game (Random Blackjack, casino blackjack, its variants).

Owns: the named settings of section 9 of ``random-blackjack.md`` as one frozen value
(``Rules``), the parsers of its own kinds of setting (lists of totals), and the bit mask of
totals the settlement rule reads. Never deals a card: the round reads these settings, the
analysis prices them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from machine.games.rules import TableRules
from machine.games.settings import TABLE_PARSERS, boolean, choice, int_range, optional, ratio

SURRENDER = ("none", "late", "early")
NO_HOLE_CARD_LOSES = ("all", "original")


@dataclass(frozen=True)
class Rules(TableRules):
    """Every rule setting of a blackjack-family game. Defaults are Random Blackjack's."""

    SEATS_FOR_TWO_DECKS: ClassVar[int | None] = 5  # five seats or more: two decks at least

    decks: int = 6
    hole_card: bool = False
    dealer_hits_soft_17: bool = False
    blackjack_pays: Fraction = Fraction(3, 2)
    insurance_pays: Fraction = Fraction(2)
    double_hard: frozenset[int] | None = frozenset({9, 10, 11})  # None: any total
    double_soft: frozenset[int] | None = frozenset({19, 20, 21})  # None: any total
    double_after_split: bool = True
    double_makes_aces_hard: bool = True
    max_splits_and_doubles: int | None = 3
    max_hands: int = 4
    split_aces_one_card: bool = True
    resplit_aces: bool = True
    surrender: str = "none"
    three_sevens_bonus: Fraction = Fraction(1)
    five_card_charlie: bool = False
    no_hole_card_loses: str = "all"  # a dealer blackjack without a hole card takes every stake, or the original bet
    dealer_wins_ties: frozenset[int] = frozenset()  # totals on which a tie loses instead of pushing
    spanish_deck: bool = False  # the rank T (not J Q K) taken out of every deck: 48-card decks
    player_21_wins: bool = False  # a player's 21 beats a dealer's 21 that is not a blackjack
    min_bet: int = 2
    max_bet: int = 500
    bet_step: int = 2

    NONE_WRITTEN: ClassVar[Mapping[str, str]] = {"double_hard": "any", "double_soft": "any"}

    # -- the questions the engine and the analysis ask -------------------------------------

    def may_double_total(self, total: int, soft: bool) -> bool:
        """Whether a two-card hand of this total may double. "any" is every total but 21: a
        hand of 21 stands by itself unless its list names 21 (Random Blackjack's soft 21)."""
        allowed = self.double_soft if soft else self.double_hard
        return total != 21 if allowed is None else total in allowed


def totals_mask(totals: frozenset[int]) -> int:
    """A set of totals as the bit mask the settlement rule reads (bit t: total t)."""
    mask = 0
    for t in totals:
        mask |= 1 << t
    return mask



def totals(lo: int, hi: int):
    def parse(v: object) -> frozenset[int] | None:
        if v == "any":
            return None
        if not isinstance(v, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in v):
            raise ValueError(f'must be a list of totals or "any", not {v!r}')
        bad = [t for t in v if not lo <= t <= hi]
        if bad:
            raise ValueError(f"totals must be {lo} to {hi}, not {bad}")
        return frozenset(v)

    return parse


def total_list(lo: int, hi: int):
    def parse(v: object) -> frozenset[int]:
        if not isinstance(v, list) or not all(isinstance(t, int) and not isinstance(t, bool) for t in v):
            raise ValueError(f"must be a list of totals, not {v!r}")
        bad = [t for t in v if not lo <= t <= hi]
        if bad:
            raise ValueError(f"totals must be {lo} to {hi}, not {bad}")
        return frozenset(v)

    return parse


Rules.PARSERS = {
    "decks": int_range(0, 8),
    "hole_card": boolean,
    "dealer_hits_soft_17": boolean,
    "blackjack_pays": ratio,
    "insurance_pays": ratio,
    "double_hard": totals(4, 21),
    "double_soft": totals(12, 21),
    "double_after_split": boolean,
    "double_makes_aces_hard": boolean,
    "max_splits_and_doubles": optional(int_range(0, None)),
    "max_hands": int_range(1, 16),
    "split_aces_one_card": boolean,
    "resplit_aces": boolean,
    "surrender": choice(SURRENDER),
    "three_sevens_bonus": ratio,
    "five_card_charlie": boolean,
    "no_hole_card_loses": choice(NO_HOLE_CARD_LOSES),
    "dealer_wins_ties": total_list(17, 21),
    "spanish_deck": boolean,
    "player_21_wins": boolean,
    **TABLE_PARSERS,
}
