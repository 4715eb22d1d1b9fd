"""The dealer's final hand, exactly, for every set of cards the player has taken out.

Owns: the probabilities of the dealer's outcomes (17, 18, 19, 20, 21, bust, blackjack) for an
up card and a shoe from which the player's cards have been removed, as the engine plays the
dealer (draw below 17, and on soft 17 when the rules say so; a blackjack is an ace and a ten as
the dealer's first two cards). Never decides anything for the player.

Theory of operation
-------------------
The dealer's drawn cards form a multiset D; every ordering of D that the drawing rule allows
ends at the same outcome, and each ordering has the same probability, so

    P(outcome | shoe S) = sum over D of  m(D) * prod_v fall(S_v, d_v) / fall(|S|, |D|)

with m(D) the number of allowed orderings (``terminals``) and fall the falling factorial.
Computing that sum separately for each of the thousands of player compositions r (S = shoe
minus r minus up card) costs |D| * |r| products. ``probs_batch`` instead contracts the sum one
card value at a time, tens first: after the values v1..vm are done, a table holds, for every
(rest of D, cards the dealer drew so far, outcome), a vector over the distinct prefixes
(r_v1..r_vm) of the wanted compositions. Both sides shrink where the other grows, so the work
is a small fraction of the direct sum, and the vectors are handled by C-level ``map`` calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import add, mul

from machine.gamemath.blackjack.shoe import CARD_HARD, Comp, Shoe
from machine.games.blackjack import scoring as bj

OUTCOMES = ("17", "18", "19", "20", "21", "bust", "blackjack")
BUST = 5
BLACKJACK = 6
Dist = tuple[float, ...]  # probability of each of OUTCOMES

_ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)  # value indexes, tens first: it keeps the tables small


@cache
def terminals(up: int, hits_soft_17: bool) -> tuple[tuple[Comp, int, int], ...]:
    """Every multiset of cards the dealer can draw after ``up``: (cards, outcome, orderings).

    Whether the dealer draws again depends on the cards drawn, not on their order, so the
    orderings are counted a card at a time per multiset (each multiset once per number of cards,
    not once per ordering).
    """
    found: dict[tuple[Comp, int], int] = {}
    # What the dealer does on each hard total (aces as 1) with an ace or not, read from the
    # rules once: -1 draws again, else the outcome a natural apart (the last drawing hard total
    # is 16, so no hand reaches 27).
    step = [[_dealer_step(hard, ace, hits_soft_17) for ace in (False, True)] for hard in range(27)]
    # multisets of n cards the dealer still draws to: (orderings, hard total with the up card)
    level: dict[Comp, tuple[int, int]] = {(0,) * 10: (1, up)}
    adds = [(v - 1, hard_of_card) for v, hard_of_card in enumerate(CARD_HARD, 1)]
    n = 0
    while level:
        nxt: dict[Comp, tuple[int, int]] = {}
        for drawn, (ways, hard0) in level.items():
            has_ace = up == 1 or drawn[0] > 0
            for i, add_hard in adds:
                key = drawn[:i] + (drawn[i] + 1,) + drawn[i + 1 :]
                hard = hard0 + add_hard
                ace = has_ace or i == 0
                outcome = step[hard][ace]
                if outcome < 0:
                    before = nxt.get(key)
                    nxt[key] = (ways if before is None else before[0] + ways, hard)
                    continue
                if n == 0 and bj.is_natural(n + 2, hard, ace):
                    outcome = BLACKJACK
                found[(key, outcome)] = found.get((key, outcome), 0) + ways
        level = nxt
        n += 1
    return tuple((d, o, m) for (d, o), m in found.items())


def _dealer_step(hard: int, ace: bool, hits_soft_17: bool) -> int:
    """-1 when the dealer draws again on ``hard`` (aces as 1, ``ace``: one among the cards),
    else the outcome's index (bust, or the total's; a natural is the caller's)."""
    total, soft = bj.hand_score(hard, ace, False)
    if bj.dealer_draws(total, soft, hits_soft_17):
        return -1
    return BUST if total > 21 else total - 17


@cache
def trie(up: int, hits_soft_17: bool) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]], list[float]]:
    """``terminals`` as a trie for the compiled analysis (``exact_fast``): nodes (parent node,
    value index, count; node 0 the root), each a multiset's cards of one value added to its
    parent's, values in ``_ORDER``; and per multiset (its node, outcome, number of cards) with
    its orderings. A node is listed after its parent."""
    nodes: list[tuple[int, int, int]] = [(0, 0, 0)]
    at: dict[tuple[int, int, int], int] = {}
    ends: list[tuple[int, int, int]] = []
    mults: list[float] = []
    for d, o, m in terminals(up, hits_soft_17):
        node = 0
        for v in _ORDER:
            if d[v]:
                key = (node, v, d[v])
                nxt = at.get(key)
                if nxt is None:
                    nxt = at[key] = len(nodes)
                    nodes.append(key)
                node = nxt
        ends.append((node, o, sum(d)))
        mults.append(float(m))
    return nodes, ends, mults


@cache
def probs_infinite(up: int, hits_soft_17: bool, q: tuple[float, ...]) -> Dist:
    """The dealer's outcomes from an infinite deck whose draws have the chances ``q`` (a full
    deck's: 1/13 per value, 4/13 for a ten)."""
    out = [0.0] * 7
    for d, o, m in terminals(up, hits_soft_17):
        p = float(m)
        for i, n in enumerate(d):
            if n:
                p *= q[i] ** n
        out[o] += p
    return tuple(out)


def _fall(n: int, k: int) -> int:
    p = 1
    for i in range(k):
        p *= n - i
    return p


def probs_batch(shoe: Shoe, up: int, hits_soft_17: bool, comps: Sequence[Comp]) -> list[Dist]:
    """The dealer's outcomes for each player composition in ``comps`` (up card not included).

    Every composition must fit in the shoe together with the up card.
    """
    if shoe.infinite:
        d = probs_infinite(up, hits_soft_17, shoe.next_probs(shoe.full))
        return [d] * len(comps)
    if not comps:
        return []
    left = list(shoe.full)
    left[up - 1] -= 1
    n_left = sum(left)

    # Distinct prefixes of the compositions, value by value in _ORDER, each with its parent.
    ordered = [tuple(r[i] for i in _ORDER) for r in comps]
    parents: list[list[int]] = []
    values: list[list[int]] = []
    index: dict[tuple[int, ...], int] = {(): 0}
    for m in range(10):
        nxt: dict[tuple[int, ...], int] = {}
        par: list[int] = []
        val: list[int] = []
        for r in ordered:
            key = r[: m + 1]
            if key not in nxt:
                nxt[key] = len(par)
                par.append(index[key[:-1]])
                val.append(key[-1])
        parents.append(par)
        values.append(val)
        index = nxt

    # table[(dealer cards of the values still to do, dealer cards so far, outcome)]: a vector
    # over the prefixes done so far of the sum of orderings * prod fall(S_v, d_v).
    table: dict[tuple[tuple[int, ...], int, int], list[float]] = {}
    for d, o, mult in terminals(up, hits_soft_17):
        table[(tuple(d[i] for i in _ORDER), 0, o)] = [float(mult)]

    for m, vi in enumerate(_ORDER):
        have = left[vi]
        par, val = parents[m], values[m]
        top = max(val) + 1
        factors: dict[int, list[float]] = {}
        new: dict[tuple[tuple[int, ...], int, int], list[float]] = {}
        for (rest, k, o), vec in table.items():
            dv = rest[0]
            if dv:
                fac = factors.get(dv)
                if fac is None:
                    by_x = [float(_fall(have - x, dv)) for x in range(top)]
                    fac = factors[dv] = list(map(by_x.__getitem__, val))
                out = list(map(mul, map(vec.__getitem__, par), fac))
            else:
                out = list(map(vec.__getitem__, par))
            to = (rest[1:], k + dv, o)
            old = new.get(to)
            new[to] = out if old is None else list(map(add, old, out))
        table = new

    # Divide by fall(|S|, |D|), |S| the shoe left once the composition is out.
    rows = list(index)
    sizes = [n_left - sum(key) for key in rows]
    cols = [[0.0] * len(rows) for _ in range(7)]
    inverse: dict[int, list[float]] = {}
    for (_, k, o), vec in table.items():
        inv = inverse.get(k)
        if inv is None:
            by_size = {s: 1.0 / _fall(s, k) if s >= k else 0.0 for s in set(sizes)}
            inv = inverse[k] = list(map(by_size.__getitem__, sizes))
        cols[o] = list(map(add, cols[o], map(mul, vec, inv)))
    by_key = dict(zip(rows, zip(*cols)))
    return [by_key[r] for r in ordered]
