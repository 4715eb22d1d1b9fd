"""The expected value of splitting a pair, resplits and the joint limit included.

Owns: the value of the split decision for a pair against one up card, when the split hands
are played by a given policy (Auto's: each split hand takes the choice that is best for its
own cards, the other split hands' cards put back, i.e. CDZ-; or a chart's), and a pair card
that comes to a split hand is split again whenever the engine allows it.

Theory of operation
-------------------
Only the split hands' *second* cards shape the round: a pair card is split again (until the
hand limit), any other card completes the hand, which is then played out. The cards a hand
draws while it is played out are unseen by the other hands' decisions, so by exchangeability a
hand's value only depends on how many pair cards (t) and how many non-pair cards (b) the hands
took as second cards, not on which. Write S_t for the shoe without the up card and t pair
cards, p for the pair card, and

* X(t): a split hand whose second card is drawn from S_t (a pair card then played as a pair,
  not split); R(t): the pair played as a hand, its two cards among the t;
* A(b, t), B(b, t): X(t) and R(t) with b random non-pair cards also gone. Taking a random card
  out changes no expectation, X(t) = pi A(0, t+1) + (1 - pi) A(1, t), hence
  A(b, t) = (A(b-1, t) - pi A(b-1, t+1)) / (1 - pi) with pi = S_t[p] / (|S_t| - (b - 1)),
  and the same recursion for B;
* W(b, t) = (A(b, t) - pi B(b, t+1)) / (1 - pi), pi = S_t[p] / (|S_t| - b): a hand whose
  second card is known not to be a pair card.

A walk over (hands made h, hands completed k) gives the chance of each way the split ends: all
h < H hands completed, each a W(h-1, h) hand; or H hands reached with k completed before, k
W(k-1, H) hands and H - k hands whose second cards are unconditioned, A(k, H). This is exact
for the policy; it is the formulation of E. Farmer's exact CDZ- split algorithm (github
possibly-wrong/blackjack), and it is what the engine pays when the doubling limit cannot bind.

Under ``no_hole_card_loses: original`` a dealer blackjack takes the original bet from the
seat's first hand only (the leftmost), so that hand is valued (and played, by Auto) apart from
the others (``table``: a ``first`` play). The first hand takes its second card before any other
hand, so it is the first hand completed: in the walk's endings above it is one of the W hands
when k >= 1 and one of the A(0, H) hands when k = 0; its own W or A is used for it and the
others' for the rest. The exchangeability argument is untouched: it is about which cards the
hands hold, not about how each hand is valued.

The joint limit on splits and doubles (``max_splits_and_doubles``) makes a hand's right to
double (and to split again) depend on what the hands before it did. That is priced by a second
walk over the hands in the engine's order, which tracks the splits and doubles used and whether
each second card is a pair card, a card the hand would double on, or another card; in that walk
the other hands' second cards are not taken out of the shoe. Only the difference the limit
makes in that walk (limit against no limit) is added to the exact value, so the approximation
touches nothing but that difference: for Random Blackjack the limit is worth about 5e-5 of a
bet in RTP, and the approximation is a small fraction of that. (With a first hand valued apart,
each hand of that walk sorts its second cards by its own policy.)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from machine.gamemath.blackjack.shoe import ZERO, Comp, plus, unit
from machine.gamemath.blackjack.table import Play, Policy, UpTable

if TYPE_CHECKING:
    from machine.gamemath.blackjack.exact_fast import FastPlay

Value = Callable[[int, int], float]
"""A value of the theory above as a function of (b, t)."""


def hands_cap(table: UpTable, p: int) -> int:
    """How many hands a split of ``p`` can make at most (0: no split), by max hands and the limit."""
    r = table.rules
    limit = r.max_splits_and_doubles
    if r.max_hands < 2 or (limit is not None and limit < 1):
        return 0
    cap = r.max_hands if (p != 1 or r.resplit_aces) else 2
    if limit is not None:
        cap = min(cap, limit + 1)
    return cap


class _Hands:
    """The hand values of the theory above for one pair card, up card and policy, for the
    seat's first hand (``first``) or for the other split hands (see ``table``)."""

    def __init__(self, table: UpTable, p: int, policy: Policy, key: object, first: bool):
        self.t = table
        self.p = p
        self.policy = policy
        self.key = key
        self.first = first
        r = table.rules
        self.one_card = p == 1 and r.split_aces_one_card
        self.shoe = table.shoe
        self.X = lru_cache(maxsize=None)(self._x)
        self.R = lru_cache(maxsize=None)(self._r)
        self.A = lru_cache(maxsize=None)(self._a)
        self.B = lru_cache(maxsize=None)(self._b)
        self._hands: dict[tuple[int, bool], dict[int, float]] = {}
        self._means: dict[tuple[tuple[int, ...], int, bool], float] = {}
        self._start_lists: dict[bool, list[tuple[int, tuple[Comp, tuple[str, ...]]]]] = {}

    # -- the shoe S_t ------------------------------------------------------------------------

    def removed(self, t: int) -> Comp:
        return unit(self.p, t)

    def pairs_left(self, t: int) -> int | None:
        """Pair cards left in S_t (None: infinite deck)."""
        if self.shoe.infinite:
            return None
        return self.shoe.full[self.p - 1] - t - (1 if self.t.up == self.p else 0)

    def pi(self, t: int, gone: int) -> float:
        """Chance that the next card is a pair card, from S_t with ``gone`` non-pair cards out."""
        left = self.pairs_left(t)
        if left is None:
            return self.shoe.p(ZERO, self.p)
        if left <= 0:
            return 0.0
        n = self.shoe.cards - 1 - t - gone
        return left / n if n > 0 else 0.0

    # -- hand values ---------------------------------------------------------------------------

    def play(self, extra_pairs: int) -> Play | FastPlay:
        return self.t.play(unit(self.p, extra_pairs), self.policy, self.key, self.first)

    def options(self, hand: Comp, allow_double: bool) -> tuple[str, ...]:
        return self.t.options(hand, True, allow_double, self.one_card)

    def _r(self, t: int, allow_double: bool = True) -> float:
        """The pair played as a hand (not split again), t pair cards out including its two."""
        hand = unit(self.p, 2)
        return self.play(t - 2).two_card(hand, True, self.options(hand, allow_double))

    def hands(self, t: int, allow_double: bool = True) -> dict[int, float]:
        """The value of a split hand pair card + c, t pair cards out before its second card c,
        for every c (not a pair card) the shoe holds."""
        key = (t, allow_double)
        found = self._hands.get(key)
        if found is None:
            found = self._hands[key] = self._second_cards(t, allow_double)
        return found

    def _second_cards(self, t: int, allow_double: bool) -> dict[int, float]:
        probs = self.t.probs(self.removed(t))
        starts = [(c, start) for c, start in self._starts(allow_double) if probs[c - 1]]
        values = self.play(t - 1).two_cards([start for _, start in starts], True)
        return dict(zip((c for c, _ in starts), values, strict=True))

    def _starts(self, allow_double: bool) -> list[tuple[int, tuple[Comp, tuple[str, ...]]]]:
        """Each second card c but the pair card, with the hand it makes and that hand's options
        (the same whatever the pair cards out: made once)."""
        found = self._start_lists.get(allow_double)
        if found is None:
            found = []
            for c in range(1, 11):
                if c != self.p:
                    hand = plus(unit(self.p), c)
                    found.append((c, (hand, self.options(hand, allow_double))))
            self._start_lists[allow_double] = found
        return found

    def _x(self, t: int) -> float:
        probs = self.t.probs(self.removed(t))
        hands = self.hands(t)
        v = 0.0
        for i, q in enumerate(probs):
            if q:
                v += q * (self.R(t + 1) if i + 1 == self.p else hands[i + 1])
        return v

    def _not_a_pair(self, b: int, t: int, drawn: Value, pair: Value) -> float:
        """A value from S_t and b non-pair cards out, once one more card is known not to be a
        pair card: (drawn(b, t) - pi pair(b, t+1)) / (1 - pi), pi = S_t[p] / (|S_t| - b)."""
        pi = self.pi(t, b)
        if pi == 0.0:
            return drawn(b, t)
        return (drawn(b, t) - pi * pair(b, t + 1)) / (1.0 - pi)

    def _a(self, b: int, t: int) -> float:
        return self.X(t) if b == 0 else self._not_a_pair(b - 1, t, self.A, self.A)

    def _b(self, b: int, t: int) -> float:
        return self.R(t) if b == 0 else self._not_a_pair(b - 1, t, self.B, self.B)

    def W(self, b: int, t: int) -> float:
        return self._not_a_pair(b, t, self.A, self.B)

    # -- for the walk with the joint limit ------------------------------------------------------

    def second_cards(self) -> tuple[list[int], list[int], bool]:
        """The non-pair second cards this policy doubles on, the others, and whether it doubles
        the pair played as a hand."""
        p = self.p
        probs0 = self.t.probs(self.removed(2))
        doubles: list[int] = []
        others: list[int] = []
        for i, q in enumerate(probs0):
            c = i + 1
            if c == p or not q:
                continue
            hand = plus(unit(p), c)
            if self.policy(hand, True, self.options(hand, True)) == "double":
                doubles.append(c)
            else:
                others.append(c)
        pair_doubles = self.policy(unit(p, 2), True, self.options(unit(p, 2), True)) == "double"
        return doubles, others, pair_doubles

    def mean(self, cards: list[int], t: int, allow: bool) -> float:
        """The mean value of a split hand whose second card is one of ``cards``."""
        key = (tuple(cards), t, allow)
        found = self._means.get(key)
        if found is None:
            found = self._means[key] = self._mean(cards, t, allow)
        return found

    def _mean(self, cards: list[int], t: int, allow: bool) -> float:
        probs = self.t.probs(self.removed(t))
        weight = sum(probs[c - 1] for c in cards)
        if not weight:
            return 0.0
        hands = self.hands(t, allow)
        return sum(probs[c - 1] * hands.get(c, 0.0) for c in cards) / weight


class PairSplits:
    """The split of one pair card against one up card: the walks of the theory above.

    The seat's first hand is played by ``policy`` and the other split hands by ``other`` (a
    policy and its key; default the same); their values differ only under rules whose
    ``first_apart`` is set (``table``). The first hand is the leftmost: it takes its second card
    before any other hand, so it is the first hand completed.
    """

    def __init__(self, table: UpTable, p: int, policy: Policy, key: object,
                 other: tuple[Policy, object] | None = None):
        self.t = table
        self.p = p
        self.first = _Hands(table, p, policy, key, True)
        if table.first_apart:
            self.rest = _Hands(table, p, *(other or (policy, key)), False)
        else:
            self.rest = self.first
        self.one_card = self.first.one_card
        self.shoe = table.shoe
        self.pi = self.first.pi

    def _hands(self, n: int, first: float, rest: float) -> float:
        """n hands of which the first is worth ``first`` and the others ``rest``."""
        return first + (n - 1) * rest

    def exact(self, cap: int) -> float:
        """The split's value with no doubling limit, up to ``cap`` hands (Farmer's walk)."""
        f, o = self.first, self.rest
        total = 0.0
        reach = {(2, 0): 1.0}
        for h in range(2, cap + 1):
            for k in range(0, h + 1):
                w = reach.pop((h, k), 0.0)
                if not w:
                    continue
                if h == cap:
                    if k:  # the first hand is among the k completed ones
                        v = f.W(k - 1, cap) + (k - 1) * o.W(k - 1, cap) + (cap - k) * o.A(k, cap)
                    else:
                        v = self._hands(cap, f.A(0, cap), o.A(0, cap))
                    total += w * v
                    continue
                if k == h:
                    total += w * self._hands(h, f.W(h - 1, h), o.W(h - 1, h))
                    continue
                pp = self.pi(h, k)
                if pp:
                    reach[(h + 1, k)] = reach.get((h + 1, k), 0.0) + w * pp
                if pp < 1.0:
                    reach[(h, k + 1)] = reach.get((h, k + 1), 0.0) + w * (1.0 - pp)
        return total

    def limited(self, cap: int, limit: int | None) -> float:
        """The walk over hands in the engine's order, with the joint limit (see the module doc)."""
        t0 = self.t
        p = self.p
        probs0 = t0.probs(unit(p, 2))
        kinds = {id(h): h.second_cards() for h in (self.first, self.rest)}
        finite = not self.shoe.infinite
        left0 = t0.shoe.left(t0.upc) if finite else None
        n0 = (t0.shoe.cards - 1 - 2) if finite else 0

        def count(cards: list[int]) -> float:
            if left0 is not None:
                return float(sum(left0[c - 1] for c in cards))
            return sum(probs0[c - 1] for c in cards)

        pairs0 = self.first.pairs_left(2)

        @cache
        def walk(h: int, used: int, jp: int, nd: int, no: int) -> float:
            k = jp + nd + no
            if k == h:
                return 0.0
            hands = self.first if k == 0 else self.rest  # hand k is the one taking its second card
            doubles, others, pair_doubles = kinds[id(hands)]
            # The cards of each kind already taken as second cards (by the hands' own kinds).
            if pairs0 is not None:
                n = n0 - (h - 2) - k
                if n <= 0:
                    return 0.0
                pp = max(pairs0 - (h - 2) - jp, 0) / n
                pd = max(count(doubles) - nd, 0) / n
                po = max(count(others) - no, 0) / n
            else:
                pp, pd, po = probs0[p - 1], count(doubles), count(others)
            free = limit is None or used < limit
            # Pair cards out before this hand's second card, capped at the deepest level the
            # exact walk uses (the cap only touches this walk's approximation, see above).
            t = min(h + jp, 2 * cap - 2)
            v = 0.0
            if pp:
                if h < cap and free:
                    v += pp * walk(h + 1, used + 1, jp, nd, no)
                else:
                    val = hands._r(t + 1, free)
                    v += pp * (val + walk(h, used + (1 if free and pair_doubles else 0), jp + 1, nd, no))
            if pd:
                v += pd * (hands.mean(doubles, t, free) + walk(h, used + (1 if free else 0), jp, nd + 1, no))
            if po:
                v += po * (hands.mean(others, t, True) + walk(h, used, jp, nd, no + 1))
            return v

        return walk(2, 1, 0, 0, 0)

    def limit_binds(self, cap: int) -> bool:
        """Whether the joint limit can refuse a double that the split hands would take."""
        limit = self.t.rules.max_splits_and_doubles
        can_double = self.t.rules.double_after_split and not self.one_card
        return limit is not None and can_double and limit < (cap - 1) + cap

    def value(self) -> float | None:
        cap = hands_cap(self.t, self.p)
        if cap < 2 or not self.t.fits(unit(self.p, 2)):
            return None
        v = self.exact(cap)
        if self.limit_binds(cap):
            v += self.limited(cap, self.t.rules.max_splits_and_doubles) - self.limited(cap, None)
        return v

    def needed(self) -> set[Comp]:
        """Every composition whose dealer probabilities ``value`` will ask for."""
        cap = hands_cap(self.t, self.p)
        if cap < 2 or not self.t.fits(unit(self.p, 2)):
            return set()
        p = self.p
        binds = self.limit_binds(cap)
        hands: set[Comp] = set()
        for variant in {id(h): h for h in (self.first, self.rest)}.values():
            play0 = variant.play(0)
            assert isinstance(play0, Play)  # (a compiled play lists what it needs itself)
            starts = []
            for c in range(1, 11):
                hand = plus(unit(p), c)
                if self.t.fits(plus(hand, p)):
                    for allow in (True, False) if binds else (True,):
                        starts.append((hand, variant.options(hand, allow)))
            hands |= play0.needs(starts, True)
        top = max(1, 2 * cap - 3)
        shoe = self.t.shoe
        out = set()
        for h in hands:
            last = top if shoe.infinite else min(top, shoe.full[p - 1] - h[p - 1] - (self.t.up == p))
            for e in range(1, last + 1):
                out.add(plus(h, p, e))
        return out


def split_values(
    table: UpTable, policy: Policy, key: object, other: tuple[Policy, object] | None = None
) -> dict[int, float | None]:
    """W-value of splitting each pair card (None: not allowed), the dealer batch done once.

    ``policy`` plays the seat's first hand, ``other`` (default the same) the other split hands.
    """
    pairs = {p: PairSplits(table, p, policy, key, other) for p in range(1, 11)}
    if table.fast is None:  # (compiled plays list what they need themselves)
        needed: set[Comp] = set()
        for pair in pairs.values():
            needed |= pair.needed()
        table.compute(sorted(needed))
    values = {p: pair.value() for p, pair in pairs.items()}
    table.trim()
    return values
