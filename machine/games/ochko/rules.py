"""Ochko's settings, and its rules written once over plain ints.

Owns: the settings of an ochko profile (``OchkoRules``: the table limits, the number of
36-card decks, whether two aces are 21, the dark draw, the opening bank), the deck (ranks 6 to
ace) and the points of each card (ace 11 always, king 4, queen 3, jack 2, the rest face value),
and the rules the round, the exact analysis and the compiled simulator share: a hand's total
(two aces), which totals are settled at once (exactly 21 wins, over 21 loses), when the seat
may draw dark, the stuk, what the bank covers and when it closes. Where a rule is blackjack's
(the banker draws under 17, never on 17 or more; higher total wins, equal pushes, a bust
loses) the functions of ``blackjack.scoring`` are used as they are.

The rule functions take and return plain ints and bools and call no other function, so the
fast simulator compiles them with numba exactly as the engine runs them. Never deals, never
decides the order of a round.
"""

from __future__ import annotations

from dataclasses import dataclass

from machine.games.rules import TableRules
from machine.games.settings import TABLE_PARSERS, boolean, int_range

RANKS = "6789TJQKA"  # one 36-card pack: 6, 7, 8, 9, 10, jack, queen, king, ace of each suit
POINTS = {"6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4, "A": 11}
ACE = 11  # the ace's points: always 11, never 1

# What ``at_once`` says of a seat's open hand after a card.
WIN_AT_ONCE, LOSE_AT_ONCE, PLAYS_ON = 1, -1, 0


def points(card: str) -> int:
    """The points of a card code (``"KS"`` -> 4, ``"AH"`` -> 11)."""
    return POINTS[card[0]]


def hand_total(card_points: int, n_cards: int, aces: int, two_aces_21: bool) -> int:
    """A hand's total: the sum of its points, except exactly two aces ("ochko"): 21 with the
    setting, else 22 (a bust). The banker's hand counts the same way."""
    if n_cards == 2 and aces == 2:
        return 21 if two_aces_21 else 22
    return card_points


def at_once(total: int) -> int:
    """Whether a seat's open hand is settled at once: ``WIN_AT_ONCE`` on exactly 21 (paid from
    the bank, stake back and 1x), ``LOSE_AT_ONCE`` over 21 (the stake into the bank), else
    ``PLAYS_ON``. A dark card is never settled at once: its hand waits for the banker."""
    if total == 21:
        return WIN_AT_ONCE
    if total > 21:
        return LOSE_AT_ONCE
    return PLAYS_ON


def may_draw_dark(total: int, dark_draw: bool) -> bool:
    """The dark draw (a setting): one last card face down, only on 17 or more (under 21)."""
    return bool(dark_draw) and 17 <= total < 21


def is_stuk(bank_before: int, opening_bank: int) -> bool:
    """Stuk: a bank of at least three times the opening bank plays its last round."""
    return bank_before >= 3 * opening_bank


def stake_cap(bank: int, waiting_stakes: int, max_bet: int) -> int:
    """The largest stake the table takes now: the table maximum and the uncovered bank (the
    bank less the stakes of the seats still waiting for the banker), whichever is smaller."""
    uncovered = bank - waiting_stakes
    return uncovered if uncovered < max_bet else max_bet


def bank_closes(bank_after: int, stuk: bool, min_bet: int) -> bool:
    """After a round the bank closes when it was the stuk round or when it is broken: it can
    no longer cover the minimum stake (0 with the shipped settings, where the bank is always
    even). The next round opens a new bank of ``opening_bank``."""
    return bool(stuk) or bank_after < min_bet


def bank_move(stake: int, returned: int) -> int:
    """What a settled hand does to the bank: a lost stake goes in (+stake), a win is paid out of
    it (-stake: the seat's stake comes back from the table, the 1x from the bank), a push 0."""
    return stake - returned


@dataclass(frozen=True)
class OchkoRules(TableRules):
    """Every rule setting of ochko. Defaults are the seed's (other-games.md)."""

    decks: int = 1  # 36-card packs; 0 is an infinite deck (the analysis only)
    two_aces_21: bool = True
    dark_draw: bool = False
    opening_bank: int = 100
    min_bet: int = 2
    max_bet: int = 500
    bet_step: int = 2

    def _consistency_problems(self) -> list[str]:
        out = super()._consistency_problems()
        if self.opening_bank < self.min_bet:
            out.append(f"opening_bank: {self.opening_bank} cannot cover the minimum bet of {self.min_bet}")
        return out


OchkoRules.PARSERS = TABLE_PARSERS | {
    "decks": int_range(0, 8),
    "two_aces_21": boolean,
    "dark_draw": boolean,
    "opening_bank": int_range(1, None),
}
