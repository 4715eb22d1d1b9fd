"""The settings of eenentwintig: the table limits, the decks and the seed's two extra rules.

Owns: the frozen settings value of an eenentwintig profile (``EenentwintigRules``) and how each
setting is parsed and checked. Never deals a card or prices one.
"""

from __future__ import annotations

from dataclasses import dataclass

from machine.games.rules import TableRules
from machine.games.settings import TABLE_PARSERS, boolean, int_range


@dataclass(frozen=True)
class EenentwintigRules(TableRules):
    """Every setting of an eenentwintig table. The defaults are the seed's (other-games.md)."""

    decks: int = 2  # 1-8; 0 is an infinite deck (the analysis only)
    two_aces_twenty_and_a_half: bool = True
    three_sevens_beat_21: bool = True
    min_bet: int = 2
    max_bet: int = 10
    bet_step: int = 2


EenentwintigRules.PARSERS = TABLE_PARSERS | {
    "decks": int_range(0, 8),
    "two_aces_twenty_and_a_half": boolean,
    "three_sevens_beat_21": boolean,
}
