"""Eenentwintig's exact analysis: the bank's final hand, every choice's value, the return.

Owns: the expected net result (per bet) of every choice a seat has — pass, buy, split, wash —
composition-dependent and exact, by a recursion over the compositions of the cards the seat
has seen, with memoisation; the value of each first two cards, of each open card (what the
seat knows when it bets: the best bet rule) and the exact return of Auto's play. Never
decides a round's order or reads a round: ``eenentwintig`` (Auto, the reports) does.

Theory of operation
-------------------
* **Cards** are their values (``scoring.VALUES``: each rank has its own), a composition is a
  tuple of eight counts in that order. The shoe is ``decks`` x 4 of each; ``decks == 0`` is an
  infinite deck (each value 1/8 whatever has been seen).
* **What Auto knows.** A seat's choice is computed with the cards the seat holds removed from
  the shoe, plus the cards it knows are gone from its own play: the 7 and 8 it washed, and on a
  split hand the pair card of the other hand. It ignores the other seats' open cards and the
  cards the other split hand drew. Those are unseen for the computation, so by exchangeability
  (the cards after a stopping time are as random as the first ones) the bank's hand and every
  card a seat draws behave as if drawn from the shoe minus exactly those cards. So the value of
  a hand depends only on (its composition, the known extra cards, split or not), and it is the
  exact expectation of what Auto's play returns, with one seat or several.
* **The bank.** Its two closed cards and its draws are a random sequence from the shoe minus
  the seat's known cards. The multisets the bank can hold while it must draw form a tree (a
  merged multiset draws on the same way: the bank's rule reads only the multiset); one pass
  down that tree per shoe composition gives the probabilities of its final keys (bust, 17-21,
  20.5, three sevens). ``prepare`` makes that pass for every shoe the values need at once:
  vectorised (``eenentwintig.vectors``) where numpy is installed (the ``fast`` extra), in pure
  Python otherwise (the same operations in the same order: the same figures).
* **A hand**: pass = the hand's key against the bank's distribution; buy = the average over
  the next card; a hand at 21, at seven cards or bust has no choice. **Wash**: the average over
  two new cards, the 7 and 8 gone, of the best of the new hand's choices (it may split).
  **Split** of a pair x: each hand is played for its own result with the other pair card
  known, so by linearity and exchangeability the split is worth exactly twice one split hand
  (``split_hand``): x plus a card from the shoe minus both x, played as a split hand (no 20.5,
  no further split).
* **The bet**: the seat bets having seen only its open card; the value of an open card is the
  average of the first-two-card values over the closed card. The best bet rule bets the
  maximum where that value is positive, the minimum elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache, lru_cache
from operator import mul
from typing import Any

from machine.gamemath.eenentwintig.lanes import LISTS, Comp, Vectors
from machine.gamemath.tablecache import Table
from machine.games.blackjack.scoring import hand_score
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.rules import EenentwintigRules

ZERO: Comp = (0,) * 8
INDEX = {v: i for i, v in enumerate(sc.VALUES)}
OUTCOME_KEYS = (sc.BUST, 34, 36, 38, 40, sc.TWENTY_AND_A_HALF, 42, sc.THREE_SEVENS)
"""The bank's final keys: bust, 17, 18, 19, 20, 20.5, 21, three sevens."""
FIRST_CHOICES = ("stand", "hit", "split", "wash")  # a first decision's choices, as tablecache keeps them
_OUTCOME = {k: i for i, k in enumerate(OUTCOME_KEYS)}
# for a seat's key: +1 against each bank key it beats, -1 against each that beats it
_SIGNS = {k: tuple((k > b) - (k < b) for b in OUTCOME_KEYS) for k in range(1, 44)}

Edge = tuple[int, int, int]  # (value index, child node, that value's count in the node)
Ends = tuple[tuple[int, tuple[tuple[int, int], ...]], ...]  # (outcome, ((value index, its count), ...))
Tree = tuple[tuple[int, tuple[Edge, ...], Ends], ...]  # per node: (cards, edges, ends)


def plus(c: Comp, i: int, n: int = 1) -> Comp:
    """``c`` with ``n`` more cards of value index ``i``."""
    return c[:i] + (c[i] + n,) + c[i + 1 :]


def comp_of(values: Sequence[int]) -> Comp:
    """The composition of some card values."""
    out = [0] * 8
    for v in values:
        out[INDEX[v]] += 1
    return tuple(out)


@lru_cache(maxsize=1 << 16)  # the hands of a rule set's analysis ask for a few thousand, many times each
def facts(c: Comp) -> tuple[int, int, int, int]:
    """(best total, cards, aces, sevens) of a composition (the total as ``blackjack_rules``)."""
    hard = sum(map(mul, c, sc.VALUES))
    return hand_score(hard, c[0] > 0, False)[0], sum(c), c[0], c[4]


@lru_cache(maxsize=4)
def bank_tree(two_aces: bool, three_sevens: bool) -> Tree:
    """The multisets the bank holds while it still draws, level by level from none: per node
    (cards, the draws after which it still draws, the draws after which it stands grouped by
    its final outcome, ``scoring.bank_draws``)."""
    found = {ZERO: 0}
    order = [ZERO]
    nodes = []
    for b in order:  # grows while read: breadth first, so a node's parents come before it
        edges = []
        ends: dict[int, list[tuple[int, int]]] = {}
        for i in range(8):
            nb = plus(b, i)
            total, n, aces, sevens = facts(nb)
            if n >= 2 and not sc.bank_draws(total, n, aces, two_aces):
                key = sc.hand_key(total, n, aces, sevens, True, two_aces, three_sevens)
                ends.setdefault(_OUTCOME[key], []).append((i, b[i]))
                continue
            if nb not in found:
                found[nb] = len(order)
                order.append(nb)
            edges.append((i, found[nb], b[i]))
        nodes.append((sum(b), tuple(edges), tuple((o, tuple(e)) for o, e in sorted(ends.items()))))
    return tuple(nodes)


BATCH = 2000  # shoes per bank_batch call: the work lists stay a few MB

Plan = tuple[tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], tuple[tuple[int, ...], ...]]
"""``bank_plan``: the groups (outcome, level, draws) and per tree node the groups it feeds."""


@lru_cache(maxsize=4)
def bank_plan(tree: Tree) -> Plan:
    """The tree's ends regrouped for ``bank_batch``: each distinct (outcome, level of the node,
    its draws) is one group, and each node lists the groups it feeds. Nodes of one level that
    stand on the same draws share the same shoe factors, so their weights are added first and
    multiplied once per group."""
    groups: dict[tuple[int, int, tuple[tuple[int, int], ...]], int] = {}
    feeds = []
    for n, _edges, ends in tree:
        feeds.append(tuple(groups.setdefault((o, n, draws), len(groups)) for o, draws in ends))
    return tuple(groups), tuple(feeds)


def bank_batch(tree: Tree, decks: list[Comp], infinite: bool) -> list[tuple[float, ...]]:
    """The bank's outcome probabilities for each shoe composition of ``decks``, in one pass
    down ``bank_tree`` with a vector over the shoes at each node: numpy arrays where numpy is
    installed (the ``fast`` extra, ``eenentwintig.vectors``) and there are enough shoes, Python
    lists stepped by C-level ``map`` otherwise; the same operations in the same order either way
    (``bank_pass``), so the same figures to the last bit."""
    vectorised = _vectorised() if len(decks) >= VECTOR_FROM else None
    return bank_pass(tree, decks, infinite, vectorised.ARRAYS if vectorised is not None else LISTS)


def bank_batch_python(tree: Tree, decks: list[Comp], infinite: bool) -> list[tuple[float, ...]]:
    """``bank_batch`` on Python lists (what is used without numpy)."""
    return bank_pass(tree, decks, infinite, LISTS)


def bank_pass(tree: Tree, decks: list[Comp], infinite: bool, v: Vectors) -> list[tuple[float, ...]]:
    """The pass of ``bank_batch`` with the vector operations ``v``.

    The weight a node carries is the number of ordered ways to draw its cards from the shoe
    (the product of the cards left at each draw), not yet a probability: every path to a node
    of ``n`` cards has the same denominator, the falling factorial N (N-1) ... (N-n+1) of the
    shoe's size N (N^n on an infinite deck: each draw 1/8, nothing depletes). So no division is
    needed on the way down, and an outcome's probability is a sum over ``bank_plan``'s groups of
    (the group's summed weight) x (its draws' cards left) / (the denominator of one card more)."""
    groups, feeds = bank_plan(tree)
    k = len(decks)
    cols = v.columns(decks)
    totals = v.shift(v.total(cols), 0.0)  # (as floats)
    avail: dict[tuple[int, int], Any] = {}  # (value index, held) -> cards of it left, per shoe

    def left(i: int, held: int) -> Any:
        got = avail.get((i, held))
        if got is None:
            got = avail[(i, held)] = cols[i] if infinite else v.minus(cols[i], held)
        return got

    weight: list[Any] = [None] * len(tree)
    weight[0] = v.ones(k)
    acc: list[Any] = [None] * len(groups)
    for node, (_n, edges, _ends) in enumerate(tree):
        w = weight[node]
        if w is None:
            continue
        weight[node] = None
        for i, child, held in edges:
            q = v.mul(w, left(i, held))
            have = weight[child]
            weight[child] = q if have is None else v.add(have, q)
        for g in feeds[node]:  # no vector is changed in place: sharing w is safe
            have = acc[g]
            acc[g] = w if have is None else v.add(have, w)
    levels = 1 + max(n for _o, n, _d in groups) if groups else 0
    denominators = [totals]  # per level n: N (N-1) ... (N-n), per shoe (1 where no card is left)
    for n in range(1, levels):
        denominators.append(v.mul(denominators[-1], totals if infinite else v.shift(totals, n)))
    denominators = [v.positive_or_one(d) for d in denominators]
    sums: dict[tuple[tuple[int, int], ...], Any] = {}
    out: list[Any] = [v.zeros(k) for _ in OUTCOME_KEYS]
    for (o, n, draws), a in zip(groups, acc, strict=True):
        if a is None:
            continue
        s = sums.get(draws)
        if s is None:
            s = sums[draws] = v.total([left(i, held) for i, held in draws])
        out[o] = v.add(out[o], v.div(v.mul(a, s), denominators[n]))
    return v.rows(out)


VECTOR_FROM = 32
"""Shoes from which ``bank_batch`` takes the numpy pass: for a few, the pure-Python pass is
quicker (a numpy pass costs some 8 ms whatever the number of shoes; pure Python 4 ms a shoe)."""


@cache
def _vectorised():
    """The numpy bank pass (``eenentwintig.vectors``), or None without numpy."""
    try:
        from machine.gamemath.eenentwintig import vectors
    except ImportError:
        return None
    return vectors


class Exact:
    """Every value of one rule set, computed on demand and remembered."""

    def __init__(self, rules: EenentwintigRules):
        self.rules = rules
        self.infinite = rules.decks == 0
        self.full: Comp = (4 * max(rules.decks, 1),) * 8
        self._tree = bank_tree(rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21)
        self._bank: dict[Comp, tuple[float, ...]] = {}
        self._hand: dict[tuple[Comp, Comp, bool], float] = {}
        self._split: dict[tuple[int, Comp], float] = {}
        self._first: dict[tuple[Comp, Comp], dict[str, float]] = {}
        self._wanted: set[Comp] | None = None
        self._draws: dict[Comp, list[tuple[int, float]]] = {}

    def hands(self) -> list[tuple[Comp, Comp, bool]]:
        """Every hand valued so far, the first decisions' two cards among them: (its
        composition, the other cards gone, split or not)."""
        return list(self._hand) + [(hand, extra, False) for hand, extra in self._first if (hand, extra, False) not in self._hand]

    # -- the shoe -----------------------------------------------------------------------------

    def deck(self, seen: Comp) -> Comp:
        """The shoe's composition once ``seen`` is out (the whole shoe for an infinite deck)."""
        if self.infinite:
            return self.full
        return tuple(f - s for f, s in zip(self.full, seen))

    def draws(self, seen: Comp) -> list[tuple[int, float]]:
        """(value index, probability) of the next card, ``seen`` out (remembered: a list the
        caller must not change)."""
        got = self._draws.get(seen)
        if got is None:
            d = self.deck(seen)
            n = sum(d)
            got = self._draws[seen] = [(i, c / n) for i, c in enumerate(d) if c > 0]
        return got

    # -- the bank -----------------------------------------------------------------------------

    def bank(self, seen: Comp) -> tuple[float, ...]:
        """The probability of each of ``OUTCOME_KEYS`` for the bank's final hand."""
        d = self.deck(seen)
        out = self._bank.get(d)
        if out is None:
            out = self._bank[d] = self._bank_pass(d)
        return out

    def _bank_pass(self, d: Comp) -> tuple[float, ...]:
        if self._wanted is not None:  # the first of prepare()'s two walks: only list the shoes
            self._wanted.add(d)
            return (0.0,) * len(OUTCOME_KEYS)
        return bank_batch(self._tree, [d], self.infinite)[0]

    def prepare(self) -> None:
        """Compute every value of the game now: a first walk lists the shoes whose bank
        distribution the values need, ``bank_batch`` computes them together (several times
        faster than one by one), a second walk computes the values."""
        self._wanted = set()
        try:
            self.net()
        finally:
            wanted, self._wanted = sorted(self._wanted), None
        for k in range(0, len(wanted), BATCH):
            part = wanted[k : k + BATCH]
            self._bank.update(zip(part, bank_batch(self._tree, part, self.infinite)))
        self._hand.clear()
        self._split.clear()
        self._first.clear()
        self.net()

    # -- the tables kept on disk (tablecache) ---------------------------------------------------

    def tables(self) -> dict[str, Table]:
        """Every value computed so far, as plain tables: the bank's outcomes per shoe
        (``bank``), the hands ((hand, extra, split) -> value), the split hands ((pair, extra) ->
        value) and the first decisions ((hand, extra) -> a value per ``FIRST_CHOICES``, NaN
        where the choice is not offered)."""
        return {
            "bank": dict(self._bank),
            "hand": {(*h, *e, int(s)): (v,) for (h, e, s), v in self._hand.items()},
            "split": {(p, *e): (v,) for (p, e), v in self._split.items()},
            "first": {(*h, *e): tuple(c.get(a, math.nan) for a in FIRST_CHOICES) for (h, e), c in self._first.items()},
        }

    def restore(self, tables: dict[str, Table]) -> bool:
        """Take values made by ``tables`` (of these rules, by this program) instead of computing
        them; False (and nothing taken) when they are not of that shape."""
        widths = {"bank": (8, len(OUTCOME_KEYS)), "hand": (17, 1), "split": (9, 1), "first": (16, len(FIRST_CHOICES))}
        if set(tables) != set(widths) or any(
            len(k) != widths[name][0] or len(v) != widths[name][1] for name, t in tables.items() for k, v in t.items()
        ):
            return False
        self._bank.update(tables["bank"])
        self._hand.update(((k[:8], k[8:16], bool(k[16])), v) for k, (v,) in tables["hand"].items())
        self._split.update(((k[0], k[1:]), v) for k, (v,) in tables["split"].items())
        self._first.update(
            ((k[:8], k[8:]), {a: x for a, x in zip(FIRST_CHOICES, v) if not math.isnan(x)}) for k, v in tables["first"].items()
        )
        return True

    def stand(self, hand: Comp, extra: Comp, from_split: bool) -> float:
        """Pass: the hand's key against the bank, the hand and ``extra`` out of the shoe."""
        total, n, aces, sevens = facts(hand)
        r = self.rules
        key = sc.hand_key(total, n, aces, sevens, not from_split, r.two_aces_twenty_and_a_half, r.three_sevens_beat_21)
        if key == sc.BUST:
            return -1.0
        seen = tuple(map(sum, zip(hand, extra)))
        return sum(map(mul, self.bank(seen), _SIGNS[key]))

    # -- a hand's choices -----------------------------------------------------------------------

    def hand(self, hand: Comp, extra: Comp, from_split: bool) -> float:
        """The value of a hand played on from here by the best of pass and buy."""
        k = (hand, extra, from_split)
        v = self._hand.get(k)
        if v is None:
            total, n, _aces, _sevens = facts(hand)
            if total > 21:
                v = -1.0
            else:
                v = self.stand(hand, extra, from_split)
                if not sc.hand_stops(total, n):
                    v = max(v, self.buy(hand, extra, from_split))
            self._hand[k] = v
        return v

    def buy(self, hand: Comp, extra: Comp, from_split: bool) -> float:
        """Buy one card, then play on at best."""
        seen = tuple(map(sum, zip(hand, extra)))
        return sum(p * self.hand(plus(hand, i), extra, from_split) for i, p in self.draws(seen))

    def split_hand(self, pair: int, extra: Comp) -> float:
        """One hand of a split pair (value index ``pair``): its pair card, a second card, played
        for its own result with the other pair card and ``extra`` known."""
        k = (pair, extra)
        v = self._split.get(k)
        if v is None:
            other = plus(extra, pair)
            v = self._split[k] = sum(
                p * self.hand(plus(plus(ZERO, pair), i), other, True) for i, p in self.draws(plus(other, pair))
            )
        return v

    def wash(self, extra: Comp) -> float:
        """Throw the 7 and 8 away (``extra`` holds them): two new cards, the best of their choices."""
        out = 0.0
        for i, p in self.draws(extra):
            for j, q in self.draws(plus(extra, i)):
                new = plus(plus(ZERO, i), j)
                out += p * q * max(self.choices(new, extra).values())
        return out

    def choices(self, hand: Comp, extra: Comp = ZERO) -> dict[str, float]:
        """The value of each choice on an unsplit hand of two cards: its first decision
        (``extra``: the washed 7 and 8 once it washed). A hand at 21 only passes."""
        k = (hand, extra)
        out = self._first.get(k)
        if out is None:
            total, n, _aces, _sevens = facts(hand)
            out = {"stand": self.stand(hand, extra, False)}
            if not sc.hand_stops(total, n):
                out["hit"] = self.buy(hand, extra, False)
            values = [v for i, c in enumerate(hand) for v in [sc.VALUES[i]] * c]
            if n == 2 and sc.is_pair(n, values[0], values[1]):
                out["split"] = 2 * self.split_hand(INDEX[values[0]], extra)
            if n == 2 and extra == ZERO and sc.is_vuile_was(n, values[0], values[1]):
                out["wash"] = self.wash(hand)
            self._first[k] = out
        return out

    def first(self, hand: Comp) -> float:
        """The value of an unsplit two-card hand, played at best."""
        return max(self.choices(hand).values())

    # -- the bet and the return -----------------------------------------------------------------

    def open_card(self, i: int) -> float:
        """The expected net per point bet of a seat whose open card has value index ``i``
        (its closed card unseen: any card of the shoe but that one)."""
        return sum(p * self.first(plus(plus(ZERO, i), j)) for j, p in self.draws(plus(ZERO, i)))

    def open_cards(self) -> list[tuple[int, float, float]]:
        """Per value index: (value, chance as the open card, expected net per point)."""
        return [(sc.VALUES[i], p, self.open_card(i)) for i, p in self.draws(ZERO)]

    def net(self) -> float:
        """The expected net per bet at a flat bet, Auto's play."""
        return sum(p * e for _v, p, e in self.open_cards())


@lru_cache(maxsize=8)
def exact(rules: EenentwintigRules) -> Exact:
    """The (cached) analysis of a rule set."""
    return Exact(rules)
