"""The exact analysis of ochko: every choice's expected value, Auto, the return and the bet rule.

Owns: the expected net (per point staked) of ``stand`` (enough), ``hit`` (draw) and ``dark``
for a seat holding any composition of cards against any banker's up card, composition-dependent
and exact (a recursion over the deck's compositions, memoised), and from it Auto's choice, the
return of a seat betting flat with Auto's play, and the best bet rule. The rules are the
game's own functions (``games.ochko.rules``: totals, 21 and over settled at once, the dark card;
``blackjack_rules``: the banker's draw and the settlement of a waiting hand). Never deals.

What a seat knows (the model): its own cards and the banker's up card. Every other card is
unseen, so the next card it draws — and each card the banker draws — is drawn from the deck
less those cards: a card's chance is its count left over the cards left (``decks == 0``: an
infinite deck, every value 1/9 whatever has been seen). For a lone seat this is the round's
exact law, so ``rtp`` is exact; with more seats the others' hidden cards are unseen too, and a
seat's choice uses the same law (what the others' stopping tells about their cards is left out).

The deal a lone seat meets: its first card, the up card, then (its stake placed) its second
card. ``Hand`` compositions count the nine values 2 (jack), 3 (queen), 4 (king), 6, 7, 8, 9, 10
and 11 (ace).

Why Auto never draws dark: a dark card makes the total the hand then stands on, and settles it
with the banker drawing from the same deck; an open card makes the same total and then offers
standing on it — or pays at once on 21 where the dark hand only ties a banker's 21. So ``hit``
is worth at least ``dark`` in every state (they are equal where every card busts or stands),
and ties go to the open card.
"""

from __future__ import annotations

import math
from functools import lru_cache
from math import comb, factorial, prod
from typing import Any

from machine.gamemath import tablecache
from machine.gamemath.tablecache import Table
from machine.games.blackjack import scoring as bj
from machine.games.ochko.rules import (
    LOSE_AT_ONCE,
    POINTS,
    WIN_AT_ONCE,
    OchkoRules,
    at_once,
    hand_total,
    may_draw_dark,
)

Comp = tuple[int, ...]
VALUES: tuple[int, ...] = tuple(sorted(set(POINTS.values())))  # (2, 3, 4, 6, 7, 8, 9, 10, 11)
NV = len(VALUES)
ACE_I = VALUES.index(11)
PER_DECK = 4  # cards of each value in a 36-card pack
ZERO: Comp = (0,) * NV
BANKER_TOTALS = (17, 18, 19, 20, 21, 22)  # where the banker stops; 22 stands for every bust
ORDER = ("stand", "hit", "dark")  # ties go to the earlier


def value_index(card: str) -> int:
    """The index in a composition of a card code."""
    return VALUES.index(POINTS[card[0]])


def plus(c: Comp, i: int) -> Comp:
    return c[:i] + (c[i] + 1,) + c[i + 1 :]


def comp_of(cards: list[str] | tuple[str, ...]) -> Comp:
    out = [0] * NV
    for card in cards:
        out[value_index(card)] += 1
    return tuple(out)


def comp_total(c: Comp, two_aces_21: bool) -> int:
    return hand_total(sum(n * v for n, v in zip(c, VALUES)), sum(c), c[ACE_I], two_aces_21)


def _net_vs_banker(total: int) -> tuple[float, ...]:
    """The net of a waiting hand of ``total`` (bust: any total over 21) per banker outcome."""
    out = []
    for banker in BANKER_TOTALS:
        _code, returned = bj.settle_hand(1, 1, total, False, False, False, True, banker, False, False, False, 0, False, 1, 1)
        out.append(float(returned - 1))
    return tuple(out)


class Analysis:
    """The expected values under one deck size and two-aces rule (the dark draw is a choice
    offered or not: ``action_values`` takes it as an argument)."""

    def __init__(self, decks: int, two_aces_21: bool):
        self.decks = decks
        self.two = two_aces_21
        self.full: Comp | None = (PER_DECK * decks,) * NV if decks > 0 else None
        self._banker: dict[tuple[int, int, int, Comp], tuple[float, ...]] = {}
        self._stand: dict[tuple[int, int, Comp], float] = {}
        self._values: dict[tuple[int, tuple[int, ...], bool], dict[str, float]] = {}
        self._net = {t: _net_vs_banker(t) for t in range(2, 33)}
        self._draws: dict[Comp, list[tuple[int, float]]] = {}

    # -- the deck ------------------------------------------------------------------------------

    def draws(self, removed: Comp) -> list[tuple[int, float]]:
        """(value index, chance) of the next card, given the cards ``removed`` (seen or dealt);
        remembered per ``removed`` (a list the caller must not change)."""
        got = self._draws.get(removed)
        if got is None:
            if self.full is None:
                got = [(i, 1.0 / NV) for i in range(NV)]
            else:
                left = [f - r for f, r in zip(self.full, removed)]
                n = sum(left)
                got = [(i, k / n) for i, k in enumerate(left) if k > 0]
            self._draws[removed] = got
        return got

    def fits(self, c: Comp) -> bool:
        return self.full is None or all(a <= f for a, f in zip(c, self.full))

    def chance_of(self, hand: Comp, up: int) -> float:
        """The chance that a seat's first ``sum(hand)`` cards are ``hand`` (in any order) and the
        banker's up card is ``up``: the weight of a composition in the chart's averages."""
        n = sum(hand)
        if self.full is None:
            ways = factorial(n) / prod(factorial(k) for k in hand)
            return ways / NV ** (n + 1)
        total = sum(self.full)
        p = prod(comb(f, k) for f, k in zip(self.full, hand)) / comb(total, n)
        return p * (self.full[up] - hand[up]) / (total - n)

    def _key(self, removed: Comp) -> Comp:
        return removed if self.full is not None else ZERO

    # -- the banker ----------------------------------------------------------------------------

    def banker(self, points: int, n: int, aces: int, removed: Comp) -> tuple[float, ...]:
        """The chances of the banker's final totals ``BANKER_TOTALS`` from a hand of ``points``
        (``n`` cards, ``aces`` of them aces), drawing from the deck less ``removed``."""
        total = hand_total(points, n, aces, self.two)
        if not bj.dealer_draws(total, False, False):
            return tuple(1.0 if min(total, 22) == t else 0.0 for t in BANKER_TOTALS)
        key = (points, n, aces if n < 2 else 0, self._key(removed))  # aces count only for the second card
        got = self._banker.get(key)
        if got is not None:
            return got
        acc = [0.0] * len(BANKER_TOTALS)
        for i, p in self.draws(removed):
            more, ace = points + VALUES[i], aces + (i == ACE_I)
            after = hand_total(more, n + 1, ace, self.two)
            if bj.dealer_draws(after, False, False):
                sub = self.banker(more, n + 1, ace, plus(removed, i))
                for k in range(len(acc)):
                    acc[k] += p * sub[k]
            else:  # the banker stops here: no need to ask (or remember) that hand
                acc[min(after, 22) - BANKER_TOTALS[0]] += p
        out = tuple(acc)
        self._banker[key] = out
        return out

    def stand(self, total: int, up: int, removed: Comp) -> float:
        """The net of a hand of ``total`` waiting for the banker (its up card ``up``), the deck
        less ``removed`` (the up card among them); a bust (a dark card's) loses whatever."""
        if total > 21:
            return -1.0
        key = (total, up, self._key(removed))
        got = self._stand.get(key)
        if got is None:
            dist = self.banker(VALUES[up], 1, int(up == ACE_I), removed)
            got = sum(p * x for p, x in zip(dist, self._net[total]))
            self._stand[key] = got
        return got

    # -- the seat ------------------------------------------------------------------------------

    def removed(self, hand: Comp, up: int) -> Comp:
        return plus(hand, up) if self.full is not None else ZERO

    def after_card(self, hand: Comp, up: int, dark_draw: bool) -> float:
        """The value of an open hand: settled at once on 21 or over, else its best choice."""
        outcome = at_once(comp_total(hand, self.two))
        if outcome == WIN_AT_ONCE:
            return 1.0
        if outcome == LOSE_AT_ONCE:
            return -1.0
        return max(self.action_values(hand, up, dark_draw).values())

    def action_values(self, hand: Comp, up: int, dark_draw: bool) -> dict[str, float]:
        """Each choice's expected net per point for a seat holding ``hand`` (two cards or more,
        under 21) against the up card ``up`` (a value index)."""
        total = comp_total(hand, self.two)
        # an infinite deck: a hand of two cards or more is worth what its total is worth
        cache_key = (up, hand if self.full is not None else (total,), dark_draw)
        got = self._values.get(cache_key)
        if got is not None:
            return got
        removed = self.removed(hand, up)
        out = {"stand": self.stand(total, up, removed)}
        draws = self.draws(removed)
        out["hit"] = sum(p * self.after_card(plus(hand, i), up, dark_draw) for i, p in draws)
        if may_draw_dark(total, dark_draw):
            out["dark"] = sum(p * self.stand(total + VALUES[i], up, plus(removed, i)) for i, p in draws)
        self._values[cache_key] = out
        return out

    def first_card_ev(self, first: int, up: int, dark_draw: bool) -> float:
        """The expected net per point of a stake placed on the first card ``first`` against
        ``up``: the second card comes, then Auto's play."""
        hand = plus(ZERO, first)
        return sum(p * self.after_card(plus(hand, i), up, dark_draw) for i, p in self.draws(self.removed(hand, up)))

    # -- the tables kept on disk (tablecache) ---------------------------------------------------

    def tables(self) -> dict[str, Table]:
        """Every choice's values computed so far: (up, dark draw offered, the hand's composition
        or, on an infinite deck, its total) -> (stand, hit, dark; NaN where dark is not offered)."""
        return {"values": {
            (up, int(dark), *hand): (v["stand"], v["hit"], v.get("dark", math.nan))
            for (up, hand, dark), v in self._values.items()
        }}

    def restore(self, tables: dict[str, Table]) -> bool:
        """Take values made by ``tables`` (of this deck and rule, by this program) instead of
        computing them; False (and nothing taken) when they are not of that shape."""
        width = 2 + (NV if self.full is not None else 1)
        values = tables.get("values")
        if values is None or len(tables) != 1 or any(len(k) != width or len(v) != 3 for k, v in values.items()):
            return False
        for (up, dark, *hand), (stand, hit, dark_value) in values.items():
            got = {"stand": stand, "hit": hit}
            if not math.isnan(dark_value):
                got["dark"] = dark_value
            self._values[(up, tuple(hand), bool(dark))] = got
        return True

    def deals(self) -> list[tuple[int, int, float]]:
        """(first card, up card, chance) of what a seat sees before it stakes."""
        out = []
        for first, p1 in self.draws(ZERO):
            for up, p2 in self.draws(plus(ZERO, first)):
                out.append((first, up, p1 * p2))
        return out


@lru_cache(maxsize=16)
def analysis(decks: int, two_aces_21: bool) -> Analysis:
    """The shared analysis of a deck size and two-aces rule (its tables fill as it is asked),
    with the values ``prepare`` left on disk for them and this program (``tablecache``)."""
    a = Analysis(decks, two_aces_21)
    cached = tablecache.load(TABLES, _tables_key(decks, two_aces_21))
    if cached is not None:
        a.restore(cached)
    return a


TABLES = "auto-ochko"  # the tables' kind in tablecache


def _tables_key(decks: int, two_aces_21: bool) -> str:
    return tablecache.rules_key("ochko", {"decks": decks, "two_aces_21": two_aces_21})


def of(rules: OchkoRules) -> Analysis:
    return analysis(rules.decks, rules.two_aces_21)


def best(values: dict[str, float], options: tuple[str, ...] | None = None) -> str:
    """The best choice among ``options`` (default: all valued), ties to the earlier of ``ORDER``."""
    choice, top = "", float("-inf")
    for a in ORDER:
        if a in values and (options is None or a in options) and values[a] > top:
            choice, top = a, values[a]
    return choice


def exact_rtp(rules: OchkoRules) -> float:
    """The return of a lone seat staking the same amount every round, Auto playing."""
    a = of(rules)
    return 1.0 + sum(p * a.first_card_ev(f, u, rules.dark_draw) for f, u, p in a.deals())


def auto_action(rnd: Any) -> str:
    """Auto's answer to the decision an ``OchkoRound`` waits on: the minimum stake, then the
    choice of highest expected value for the seat's cards against the up card."""
    d = rnd.pending
    if d is None:
        raise ValueError("the round waits on no decision")
    if d.kind == "bet":
        return d.options[0]  # the round lists the stakes from the minimum up
    seat = rnd.seat(d.seat)
    values = of(rnd.rules).action_values(comp_of(seat.cards), value_index(rnd.up_card), rnd.rules.dark_draw)
    return best(values, d.options)


def prepare(rules: OchkoRules) -> None:
    """Fill the tables Auto reads (every hand a seat can hold, every up card): a few seconds,
    or a moment when the cache folder has them; what was computed is left there."""
    a = of(rules)
    known = len(a._values)
    exact_rtp(rules)
    if len(a._values) != known:
        tablecache.save(TABLES, _tables_key(rules.decks, rules.two_aces_21), a.tables())
