"""The rules of eenentwintig's cards and hands, each written once.

Owns: the game's deck (the ranks 7 8 9 T J Q K A, J = 2, Q = 3, K = 4, the ace 1 or 11), what a
hand compares by (its total; 20.5 for two aces that stand; three sevens above every 21), when
a seat's buying ends by itself (21, seven cards, a bust), the vuile was and the pair, when the
bank draws, and the settlement table. The hand's total itself is blackjack's (an ace counts 11
when that keeps the hand at 21 or less): ``blackjack.scoring.hand_score``.

Used by the engine (``round``), the exact analysis and the compiled simulator
(``machine.gamemath.eenentwintig*``), which compiles the plain-int functions below with numba.
So, as in ``blackjack.scoring``, each of those takes and returns plain ints and bools, calls no
other function and touches no object, dict or string. A card is its value there: 1 for the
ace, 2 for a jack, 3 for a queen, 4 for a king, else its face value.

A hand's **key** is what it compares by, in half points: twice its total, 41 for 20.5, 43 for
three sevens (above every 21), and 0 for a bust (below everything).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from machine.games.blackjack.scoring import LOSE, PUSH, WIN, hand_score

RANKS = "A789TJQK"
"""The ranks of the 32-card deck (2-6 removed), in the order a fresh deck holds them."""

RANK_VALUE = {"A": 1, "7": 7, "8": 8, "9": 9, "T": 10, "J": 2, "Q": 3, "K": 4}
VALUES = (1, 2, 3, 4, 7, 8, 9, 10)
"""Every card value, in the order the analysis counts them (each rank has its own value)."""

MAX_CARDS = 7  # a seat's hand stops at seven cards
BUST = 0  # the key of a hand over 21
TWENTY_AND_A_HALF = 41  # the key of two aces that stand (20.5)
THREE_SEVENS = 43  # the key of three sevens, above every 21 (42)
BANK_DRAWS_BELOW = 17

__all__ = [
    "BUST", "LOSE", "MAX_CARDS", "PUSH", "RANKS", "RANK_VALUE", "THREE_SEVENS", "TWENTY_AND_A_HALF", "VALUES",
    "WIN", "HandScore", "bank_draws", "hand_key", "hand_stops", "is_pair", "is_vuile_was", "returned", "score_cards",
    "settle", "value",
]


def value(card: str) -> int:
    """The value of a card code: ``"JS"`` -> 2, ``"AH"`` -> 1 (a hand decides whether it counts 11)."""
    return RANK_VALUE[card[0]]


class HandScore(NamedTuple):
    total: int  # the best total (an ace 11 when that keeps it at 21 or less)
    soft: bool  # an ace counts 11 in ``total``
    key: int  # what the hand compares by (see the module's docstring)


def score_cards(cards: Sequence[str], unsplit: bool, two_aces_rule: bool, three_sevens_rule: bool) -> HandScore:
    """A hand of card codes read by the rules below (the bank's hand is ``unsplit``)."""
    values = [value(c) for c in cards]
    aces = values.count(1)
    total, soft = hand_score(sum(values), aces > 0, False)
    key = hand_key(total, len(values), aces, values.count(7), unsplit, two_aces_rule, three_sevens_rule)
    return HandScore(total, soft, key)


# -- plain-int rules (compiled by the fast simulator) ------------------------------------------


def hand_key(
    total: int, n_cards: int, aces: int, sevens: int, unsplit: bool, two_aces_rule: bool, three_sevens_rule: bool
) -> int:
    """What a hand compares by, in half points (see the module's docstring).

    ``total`` is the hand's best total, ``aces`` and ``sevens`` count its aces and sevens,
    ``unsplit`` says it is not a split hand (the bank's hand is unsplit). Two aces count 20.5
    only as the two cards of an unsplit hand; three sevens are exactly three cards, split or not.
    """
    if total > 21:
        return BUST
    if two_aces_rule and unsplit and n_cards == 2 and aces == 2:
        return TWENTY_AND_A_HALF
    if three_sevens_rule and n_cards == 3 and sevens == 3:
        return THREE_SEVENS
    return 2 * total


def hand_stops(total: int, n_cards: int) -> bool:
    """Whether a seat's hand is over without a decision: 21, seven cards, or a bust."""
    return total >= 21 or n_cards >= MAX_CARDS


def is_vuile_was(n_cards: int, first: int, second: int) -> bool:
    """Whether two cards are a vuile was: exactly a 7 and an 8 (values)."""
    return n_cards == 2 and ((first == 7 and second == 8) or (first == 8 and second == 7))


def is_pair(n_cards: int, first: int, second: int) -> bool:
    """Whether a hand may be split: two cards of the same rank (each rank has its own value)."""
    return n_cards == 2 and first == second


def bank_draws(total: int, n_cards: int, aces: int, two_aces_rule: bool) -> bool:
    """Whether the bank takes another card: under 17 (soft 17 stands), never on its first two
    cards when they are two aces counting 20.5. The seven-card stop is not the bank's."""
    if two_aces_rule and n_cards == 2 and aces == 2:
        return False
    return total < BANK_DRAWS_BELOW


def settle(player_key: int, bank_key: int) -> int:
    """A hand's result against the bank (LOSE, PUSH or WIN, as ``blackjack.scoring`` names them).

    A bust loses whatever the bank holds; a bank bust loses to every hand still in; otherwise
    the higher key wins and equal keys tie (21 against 21, 20.5 against 20.5, three sevens
    against three sevens).
    """
    if player_key == BUST:
        return LOSE
    if bank_key == BUST or player_key > bank_key:
        return WIN
    if player_key == bank_key:
        return PUSH
    return LOSE


def returned(stake: int, result: int) -> int:
    """What a hand's result returns, the stake included: a win pays 1 to 1, a tie returns the stake."""
    if result == WIN:
        return 2 * stake
    if result == PUSH:
        return stake
    return 0
