"""Cards, shoes and the shuffle.

Owns: the card codes (``"AS"``, ``"TH"``, ...), the ranks of a deck (every rank, or the
Spanish deck without its tens), the composition of a shoe of N decks and the
unbiased shuffle driven by a random source that the caller injects. Never reads a clock, a
file or the module-level ``random`` state: the cabinet passes ``secrets.SystemRandom()``,
tests and replays pass a seeded ``random.Random`` or a recorded order.

A card is its two-character code, rank then suit, so that a round's record is plain data.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol

RANKS = "A23456789TJQK"
SUITS = "SHDC"
SPANISH_RANKS = RANKS.replace("T", "")  # the Spanish deck: the four tens out, J Q K stay (48 cards)

# Blackjack value of a rank, the ace counted 1 (a hand decides whether one ace counts 11).
RANK_VALUE = {"A": 1, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}


class CardError(ValueError):
    """A card code that is not a card, or more copies of a card than the shoe holds."""


class RandomSource(Protocol):
    """What the shuffle needs from a random generator: a uniform integer in [0, n)."""

    def randrange(self, n: int, /) -> int: ...


def parse_card(text: object) -> str:
    """Return the canonical code of a card written as ``"9S"``, ``"th"`` or ``"10H"``."""
    if isinstance(text, int) or not isinstance(text, str):
        raise CardError(f"card {text!r} is not a card code like 9S, TH or AD")
    code = text.strip().upper()
    if code.startswith("10") and len(code) == 3:
        code = "T" + code[2]
    if len(code) != 2 or code[0] not in RANKS or code[1] not in SUITS:
        raise CardError(
            f"card {text!r} is not a card code (rank A 2-9 T J Q K, then suit S H D C)"
        )
    return code


def value(card: str) -> int:
    """Blackjack value of a card, the ace counted as 1."""
    return RANK_VALUE[card[0]]


def deck_ranks(spanish_deck: bool) -> str:
    """The ranks of one deck of the blackjack family: every rank, or the Spanish deck's."""
    return SPANISH_RANKS if spanish_deck else RANKS


def deck(ranks: str = RANKS) -> list[str]:
    """One deck in a fixed order, suit by suit."""
    return [rank + suit for suit in SUITS for rank in ranks]


def new_shoe(decks: int, ranks: str = RANKS) -> list[str]:
    """An unshuffled shoe of ``decks`` decks."""
    if decks < 1:
        raise ValueError(f"a shoe needs at least one deck, not {decks}")
    return deck(ranks) * decks


def shuffle(cards: Sequence[str], rng: RandomSource) -> list[str]:
    """Return a uniformly shuffled copy of ``cards`` (Fisher-Yates, draws from ``rng``)."""
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randrange(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def check_stacked_shoe(cards: Iterable[object], decks: int, ranks: str = RANKS) -> list[str]:
    """Parse a written shoe (a prefix of a shuffled shoe) and check it fits ``decks`` decks."""
    parsed = [parse_card(c) for c in cards]
    for code, n in Counter(parsed).items():
        if code[0] not in ranks:
            raise CardError(f"card {code} is not in this game's deck")
        if n > decks:
            raise CardError(
                f"card {code} appears {n} times, but a shoe of {decks} "
                f"deck{'s' if decks != 1 else ''} holds only {decks}"
            )
    return parsed
