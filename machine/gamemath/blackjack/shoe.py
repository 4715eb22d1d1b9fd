"""Compositions of cards and the shoe they are drawn from, for the exact analysis.

Owns: the composition type (how many cards of each value 1..10 a hand or a removal holds),
the rules' questions about a composition (its total, a natural, three sevens: answered by
``machine.games.blackjack.scoring``, as for the engine's hands), and the shoe model: the
probability of the next card given what has been removed, for ``decks`` decks of the game's
ranks (the full deck, or the Spanish deck without its tens) or for an infinite deck
(``decks == 0``: every draw has the chances of one fresh deck, 1/13 and a ten 4/13 for the full
deck, whatever has been seen). Never looks at suits: the analysis only needs values.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from operator import add

from machine.games.blackjack import scoring as bj
from machine.games.blackjack.rules import Rules
from machine.games.cards import RANKS, deck, deck_ranks, value

Comp = tuple[int, ...]
"""Counts of the values 1 (ace) .. 10 (ten, jack, queen, king); index 0 is the ace."""

ZERO: Comp = (0,) * 10


@lru_cache(maxsize=1024)
def unit(v: int, n: int = 1) -> Comp:
    """A composition of ``n`` cards of value ``v``."""
    return tuple(n if i == v - 1 else 0 for i in range(10))


def plus(c: Comp, v: int, n: int = 1) -> Comp:
    """``c`` with ``n`` more cards of value ``v``."""
    out = list(c)
    out[v - 1] += n
    return tuple(out)


def merge(a: Comp, b: Comp) -> Comp:
    return tuple(map(add, a, b))


def size(c: Comp) -> int:
    return sum(c)


@lru_cache(maxsize=1 << 16)
def score(c: Comp, aces_hard: bool = False) -> tuple[int, bool]:
    """(total, soft) of a composition, by the rule the engine's hands follow."""
    return total_of(bj.counts_hard_total(c), c[0] > 0, aces_hard)


def total_of(hard: int, has_ace: bool, aces_hard: bool = False) -> tuple[int, bool]:
    """(total, soft) of a hand of hard total ``hard`` (every ace 1), holding an ace or not."""
    return bj.hand_score(hard, has_ace, aces_hard)


CARD_HARD: tuple[int, ...] = tuple(bj.counts_hard_total(unit(v)) for v in range(1, 11))
"""What one card of each value 1..10 adds to a hand's hard total."""


def is_natural(c: Comp) -> bool:
    return bj.is_natural(size(c), bj.counts_hard_total(c), c[0] > 0)


def earns_three_sevens(c: Comp, from_split: bool) -> bool:
    return bj.earns_three_sevens(from_split, size(c), c[6])


def from_values(values: list[int] | tuple[int, ...]) -> Comp:
    out = [0] * 10
    for v in values:
        out[v - 1] += 1
    return tuple(out)


def hands_up_to(limit: Comp | None, max_hard: int = 21, min_cards: int = 2) -> Iterator[Comp]:
    """Every composition of at least ``min_cards`` cards, hard total <= ``max_hard``, within ``limit``."""
    out: list[Comp] = []
    cur = [0] * 10

    def rec(i: int, room: int, cards: int) -> None:
        v = i + 1
        most = room // v if limit is None else min(room // v, limit[i])
        if i == 9:  # the last value: its count completes each composition
            for n in range(max(min_cards - cards, 0), most + 1):
                cur[9] = n
                out.append(tuple(cur))
            cur[9] = 0
            return
        for n in range(most + 1):
            cur[i] = n
            rec(i + 1, room - n * v, cards + n)
        cur[i] = 0

    rec(0, max_hard, 0)
    return iter(out)


def deck_comp(ranks: str = RANKS) -> Comp:
    """The values of one deck of ``ranks`` (the engine's own deck, suits and all)."""
    return from_values([value(c) for c in deck(ranks)])


class Shoe:
    """The fresh shoe of a round: ``decks`` decks of ``ranks``, or an infinite deck when ``decks == 0``."""

    def __init__(self, decks: int, ranks: str = RANKS):
        one = deck_comp(ranks)
        self.decks = decks
        self.infinite = decks == 0
        self.full: Comp = ZERO if self.infinite else tuple(decks * n for n in one)
        self.cards = sum(self.full)
        self._infinite = tuple(n / sum(one) for n in one)

    def left(self, removed: Comp) -> Comp:
        """Cards of each value left after ``removed`` (finite shoes only)."""
        return tuple(f - r for f, r in zip(self.full, removed))

    def holds(self, removed: Comp) -> bool:
        """Whether ``removed`` can come out of this shoe."""
        return self.infinite or all(r <= f for r, f in zip(removed, self.full))

    def next_probs(self, removed: Comp) -> tuple[float, ...]:
        """Probability of each value 1..10 being the next card once ``removed`` is out."""
        if self.infinite:
            return self._infinite
        n = self.cards - sum(removed)
        if n <= 0:
            return (0.0,) * 10
        return tuple((f - r) / n for f, r in zip(self.full, removed))

    def p(self, removed: Comp, v: int) -> float:
        if self.infinite:
            return self._infinite[v - 1]
        n = self.cards - sum(removed)
        return (self.full[v - 1] - removed[v - 1]) / n if n > 0 else 0.0


def shoe_of(rules: Rules) -> Shoe:
    """The shoe a rule set deals from: its number of decks, of its deck's ranks."""
    return Shoe(rules.decks, deck_ranks(rules.spanish_deck))
