"""The exact analysis of the blackjack family, compiled (optional: numba, the ``fast`` extra).

Owns: ``FastTable`` (one up card's dealer outcomes for every hand the player can hold, and
the numbers the kernels read) and ``FastPlay`` (the values of ``table.Play``: the optimal
play, Auto's policy or a chart's, from the hand's own cards or with pair cards also out), and
the numba kernels behind them. ``table.UpTable`` uses them when numba is installed and falls
back to its own pure-Python ``Play`` otherwise (or with ``CABINET_EXACT=python``); the split
walk (``split``), the first decision and the whole game (``game``) are the same code on either.

Writes no rule: which hands exist, their totals, what a settled hand is paid, which removal
leaves a blackjack to the dealer, what a policy does and the dealer's drawing are read from
``UpTable`` (itself reading ``blackjack_rules``) into arrays before anything is compiled.
The kernels are the arithmetic of ``table.Play`` written on those arrays, in the same order
of operations, so that from the same dealer outcomes both give the same bits: the cache folder
keeps these tables' dealer outcomes, and a cabinet that reads them back and plays them with
``Play`` decides exactly as the process that computed them (``tests/test_exact_fast.py``).

Theory of operation
-------------------
* **Hands** are numbered: every composition of two or more cards of hard total 21 or less that
  fits the shoe with the up card (``shoe.hands_up_to``), with the number of the hand after
  drawing each value (-1: bust, or no such card left).
* **The dealer** (``dealer_dists``, ``_block``): ``dealer.terminals`` lists every multiset D
  the dealer can draw with its outcome and number of orderings; P(outcome | removal r) is the
  sum over D of orderings x prod_v fall(S_v - r_v, d_v) / fall(|S| - |r|, |D|). The D are put
  in a trie (values tens first, as ``dealer.probs_batch`` orders them), so a product shared by
  many D is made once per removal (about a third of the multiplications of the plain sum),
  and ``BLOCK`` removals are evaluated side by side, which the processor's vector lanes do at
  once.
* **Plays** (``play_values``): a value array per (hand, split hand or not) for hitting,
  doubling and playing on, NaN until known. The optimal play of a hand from its own cards is
  computed for every hand at once. A play under a policy (Auto's, or a chart's asked once per
  hand) with pair cards out (the split walk's) is computed on demand, depth first with an
  explicit stack: a first walk lists the dealer outcomes the policy's hands will read (only
  those, as ``Play.needs`` would ask for them), they are computed in blocks, and a second walk
  does the arithmetic. A removal reached as different (hand, pair cards out) is computed once.
* **Threads**: the kernels run without Python's lock, so ``game.Analysis.compute_all`` gives
  the up cards to one thread per core; each up card is computed alone (the same bits).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from machine.gamemath.blackjack import dealer
from machine.gamemath.blackjack.shoe import Comp, hands_up_to, merge, plus, score, size
from machine.gamemath.blackjack.table import ACTION_ORDER, best_of_values, doubles_to_sevens_bonus, stands_on_sevens_bonus

if TYPE_CHECKING:
    from machine.gamemath.blackjack.table import Policy, UpTable

ACTIONS = ACTION_ORDER[:3]  # the play actions: stand, hit, double

# Columns of the hand array ``H``.
_TOTAL, _CARDS, _TDOUBLE, _CHILD = 0, 1, 2, 3

# The walks' stacks: a hand and its children at each card drawn, from 2 cards to 21 aces, and
# numba does not check bounds.
_STACK = 1 + 10 * 21


# -- the kernels ------------------------------------------------------------------------------
#
# ``dl``, the dealer and the shoe of one up card, is a tuple of arrays:
#   left0   cards of each value in the shoe once the up card is out (finite shoes)
#   n0      [their number]
#   q       the infinite deck's chance of each value (q[0] < 0: a finite shoe)
#   trie    per node (parent node, value index * (deepest + 1) + count); node 0 the root
#   tnode   per multiset the dealer can draw, its node; sorted by (outcome, number of cards)
#   tmult   its number of orderings
#   groups  (outcome, number of cards, end in tnode) of each run of that sort
#   falls   fall(x, d) for every x up to left0's largest and d up to the deepest count
#   inf     the infinite deck's dealer outcomes (inf[0] < 0: a finite shoe)
#   flags   [hole card, value index whose card makes a blackjack (-1: none)]


BLOCK = 8  # removals evaluated side by side (the machine's vector lanes do several at once)


@njit(cache=True, error_model="numpy", nogil=True)
def _block(rs, m, dl, prod, fl, inverse, acc, res):  # pragma: no cover
    """The dealer's outcomes for the removals ``rs[:m]`` (m <= BLOCK) into ``res[:m]`` (all 0
    for a removal the shoe cannot give), BLOCK removals side by side: the trie's products node
    by node, then the multisets' sums per (outcome, number of cards), each over fall(|S|, |D|)."""
    left0, n0, q, trie, tnode, tmult, groups, falls, inf, flags = dl
    for b in range(m):
        for o in range(7):
            res[b, o] = 0.0
    if inf[0] >= 0.0:  # the infinite deck: one answer for every removal
        for b in range(m):
            for o in range(7):
                res[b, o] = inf[o] if not (flags[0] and o == 6) else 0.0
        return
    deep = falls.shape[1]
    for b in range(BLOCK):
        n = n0[0]
        fits = b < m
        if fits:
            for v in range(10):
                n -= rs[b, v]
                if left0[v] - rs[b, v] < 0:
                    fits = False
        for v in range(10):
            x = left0[v] - rs[b, v] if fits else 0
            for c in range(deep):
                fl[v * deep + c, b] = falls[x, c] if fits else 0.0
        f = 1.0
        for k in range(inverse.shape[0]):
            inverse[k, b] = 1.0 / f if fits and f > 0.0 else 0.0
            f *= n - k
    for b in range(BLOCK):
        prod[0, b] = 1.0
    for i in range(1, trie.shape[0]):
        pa = trie[i, 0]
        cd = trie[i, 1]
        for b in range(BLOCK):
            prod[i, b] = prod[pa, b] * fl[cd, b]
    j = 0
    for g in range(groups.shape[0]):
        for b in range(BLOCK):
            acc[b] = 0.0
        end = groups[g, 2]
        while j < end:
            t = tmult[j]
            nd = tnode[j]
            for b in range(BLOCK):
                acc[b] += t * prod[nd, b]
            j += 1
        o = groups[g, 0]
        k = groups[g, 1]
        for b in range(m):
            res[b, o] += acc[b] * inverse[k, b]
    if flags[0]:
        for b in range(m):
            res[b, 6] = 0.0


@njit(cache=True, error_model="numpy", nogil=True)
def _scratch(dl):  # pragma: no cover
    trie, groups, falls = dl[3], dl[6], dl[7]
    prod = np.empty((trie.shape[0], BLOCK))
    fl = np.empty((10 * falls.shape[1], BLOCK))
    inverse = np.empty((groups[:, 1].max() + 1 if groups.shape[0] else 1, BLOCK))
    return prod, fl, inverse, np.empty(BLOCK), np.empty((BLOCK, 7)), np.zeros((BLOCK, 10), np.int64)


@njit(cache=True, error_model="numpy", nogil=True)
def dealer_dists(comps, dl):  # pragma: no cover
    """The dealer's outcomes for each row of ``comps`` (removals)."""
    out = np.zeros((comps.shape[0], 7))
    prod, fl, inverse, acc, res, rs = _scratch(dl)
    for start in range(0, comps.shape[0], BLOCK):
        m = min(BLOCK, comps.shape[0] - start)
        for b in range(m):
            for v in range(10):
                rs[b, v] = comps[start + b, v]
        _block(rs, m, dl, prod, fl, inverse, acc, res)
        for b in range(m):
            for o in range(7):
                out[start + b, o] = res[b, o]
    return out


@njit(cache=True, error_model="numpy", nogil=True)
def _fill(req, nreq, pair, C, dist0, have0, distp, havep, dl, scratch):  # pragma: no cover
    """Compute the requested dealer outcomes (rows of ``req[:nreq]``: y, f) in blocks: hand y
    with f pair cards (value index ``pair``) out, into ``dist0[y]`` (f = 0) or ``distp[f, y]``."""
    prod, fl, inverse, acc, res, rs = scratch
    for start in range(0, nreq, BLOCK):
        m = min(BLOCK, nreq - start)
        for b in range(m):
            y, f = req[start + b, 0], req[start + b, 1]
            for v in range(10):
                rs[b, v] = C[y, v]
            rs[b, pair] += f
        _block(rs, m, dl, prod, fl, inverse, acc, res)
        for b in range(m):
            y, f = req[start + b, 0], req[start + b, 1]
            for o in range(7):
                if f:
                    distp[f, y, o] = res[b, o]
                else:
                    dist0[y, o] = res[b, o]
            if f:
                havep[f, y] = 1
            else:
                have0[y] = 1


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def _mass_after(hole, bj, v, qbj, left_bj, n):  # pragma: no cover
    """``UpTable.mass`` once a card of value index ``v`` more is out: 1, or P(no dealer
    blackjack), ``left_bj`` cards of value index ``bj`` being left among ``n`` before that card
    (``qbj`` >= 0: the infinite deck's chance of that value)."""
    if not hole or bj < 0:
        return 1.0
    if qbj >= 0.0:
        return 1.0 - qbj
    nc = n - 1
    return 1.0 - ((left_bj - (1 if v == bj else 0)) / nc if nc > 0 else 0.0)


# The hot loops below read arrays directly rather than through helper functions: numba counts
# references to every array a call passes, which would cost more than the arithmetic.


@njit(cache=True, error_model="numpy", nogil=True)
def _request(x, pair, e, H, have0, havep, req, nreq):  # pragma: no cover
    """Ask for the dealer's outcomes of hand ``x`` with ``e`` pair cards out, kept for hand y
    with f pair cards out, y taking as many of the e cards as it can (so that a removal is
    computed once whichever (hand, e) it is reached as); returns the new count of requests."""
    y, f = x, e
    while f > 0 and H[y, _CHILD + pair] >= 0:
        y = H[y, _CHILD + pair]
        f -= 1
    known = havep[f, y] if f else have0[y]
    if known == 0:
        if f:
            havep[f, y] = 2  # requested
        else:
            have0[y] = 2
        req[nreq, 0] = y
        req[nreq, 1] = f
        nreq += 1
    return nreq


@njit(cache=True, error_model="numpy", nogil=True)
def _collect(xs, ss, what, H, C, pair, e, charlie, dl, have0, havep, aft, hit, dbl, polhit, policy, req):  # pragma: no cover
    """The walk of ``play_values`` without its arithmetic: every dealer outcome it will read
    that is not known yet, requested in ``req`` (its number returned). A policy's walk does not
    depend on the values, so this is exactly what the values need."""
    left0, n0a, q = dl[0], dl[1], dl[2]
    n0 = n0a[0]
    infinite = q[0] >= 0.0
    nreq = 0
    seen = np.zeros(aft.shape, np.bool_)
    stack = np.empty(_STACK, np.int64)
    for i in range(xs.shape[0]):
        x0 = xs[i]
        s = ss[i]
        w = what[i]
        if w == 0:
            nreq = _request(x0, pair, e, H, have0, havep, req, nreq)
            continue
        if w == 2:
            if math.isnan(dbl[x0, s]):
                n = n0 - H[x0, _CARDS] - e
                for v in range(10):
                    c = H[x0, _CHILD + v]
                    live = q[v] > 0.0 if infinite else n > 0 and left0[v] - C[x0, v] - (e if v == pair else 0) > 0
                    if live and c >= 0 and H[c, _TDOUBLE] <= 21:
                        nreq = _request(c, pair, e, H, have0, havep, req, nreq)
            continue
        stack[0] = x0
        sp = 1
        while sp > 0:
            sp -= 1
            x = stack[sp]
            hit_only = w == 1 and sp == 0 and x == x0
            if not hit_only and (seen[x, s] or not math.isnan(aft[x, s])):
                continue
            if not hit_only:  # (its stand may still be asked for by a later item)
                seen[x, s] = True
            if not hit_only and charlie and H[x, _CARDS] >= charlie:
                continue
            total = H[x, _TOTAL]
            hits = hit_only or (total != 21 and (not policy or polhit[x, s]))
            if not hit_only and (not hits or not policy):
                nreq = _request(x, pair, e, H, have0, havep, req, nreq)
            if hits and math.isnan(hit[x, s]):
                n = n0 - H[x, _CARDS] - e
                for v in range(10):
                    c = H[x, _CHILD + v]
                    live = q[v] > 0.0 if infinite else n > 0 and left0[v] - C[x, v] - (e if v == pair else 0) > 0
                    if live and c >= 0 and not seen[c, s] and math.isnan(aft[c, s]):
                        stack[sp] = c
                        sp += 1
    return nreq


@njit(cache=True, error_model="numpy", nogil=True)
def play_values(xs, ss, what, H, C, F, pay, pay_dbl, pair, e, charlie, bonus, dl,  # pragma: no cover
                dist0, have0, distp, havep, aft, hit, dbl, polhit, policy):
    """Values of the hands ``xs`` (split hands where ``ss``) in one play, ``what`` per hand:
    0 stand, 1 hit, 2 double, 3 play on (``Play.after``); the play's removal beyond each hand
    is ``e`` cards of value index ``pair``.

    The play's memo arrays (``aft``, ``hit``, ``dbl``: NaN until known) and the table's dealer
    outcomes (``dist0``/``have0`` from the hands' own cards, ``distp``/``havep`` with pair
    cards out; see ``_request``) are filled as a side effect: first every
    dealer outcome the walk needs is listed (``_collect``) and computed in blocks, then the walk
    is done. ``policy``: the play follows ``polhit`` (whether to hit a hand it plays on, rather
    than stand) instead of maximising.
    """
    left0, n0a, q, flags = dl[0], dl[1], dl[2], dl[9]
    n0 = n0a[0]
    infinite = q[0] >= 0.0
    hole = flags[0] != 0
    bj = flags[1]
    qbj = q[bj] if infinite and bj >= 0 else -1.0
    scratch = _scratch(dl)
    req = np.empty((max(16, 2 * H.shape[0]), 2), np.int64)  # (a removal per hand at most)
    if policy or e:  # (the hands' own outcomes are all known: an optimal play without pair cards needs none)
        nreq = _collect(xs, ss, what, H, C, pair, e, charlie, dl, have0, havep, aft, hit, dbl, polhit, policy, req)
        _fill(req, nreq, pair, C, dist0, have0, distp, havep, dl, scratch)
    out = np.empty(xs.shape[0])
    r = np.empty(10, np.int64)
    pr = np.empty(10)
    stack = np.empty(_STACK, np.int64)
    for i in range(xs.shape[0]):
        x0 = xs[i]
        s = ss[i]
        w = what[i]
        stack[0] = x0
        sp = 1
        while sp > 0:
            x = stack[sp - 1]
            top = sp == 1
            # the next card's chances and the mass (UpTable.probs, UpTable.mass) with x's removal
            n = n0 - H[x, _CARDS] - e
            for v in range(10):
                r[v] = C[x, v]
            r[pair] += e
            for v in range(10):
                if infinite:
                    pr[v] = q[v]
                else:
                    pr[v] = (left0[v] - r[v]) / n if n > 0 else 0.0
            mass = 1.0
            if hole and bj >= 0:
                mass = 1.0 - pr[bj]
            if top and w == 2:  # doubling x0
                if math.isnan(dbl[x, s]):
                    acc = 0.0
                    for v in range(10):
                        pv = pr[v]
                        if pv:
                            c = H[x, _CHILD + v]
                            mc = _mass_after(hole, bj, v, qbj, left0[bj] - r[bj] if bj >= 0 else 0, n)
                            if c < 0 or H[c, _TDOUBLE] > 21:
                                wv = -2.0 * mc
                            else:
                                y, f = c, e
                                while f > 0 and H[y, _CHILD + pair] >= 0:
                                    y = H[y, _CHILD + pair]
                                    f -= 1
                                if (havep[f, y] if f else have0[y]) != 1:  # not listed by _collect
                                    nreq = _request(c, pair, e, H, have0, havep, req, 0)
                                    _fill(req, nreq, pair, C, dist0, have0, distp, havep, dl, scratch)
                                t = H[c, _TDOUBLE]
                                wv = 0.0
                                for o in range(7):
                                    wv += (distp[f, y, o] if f else dist0[y, o]) * pay_dbl[t, o]
                                if bonus and F[c, 2 + s]:
                                    wv += bonus * mc
                            acc += pv * wv
                    dbl[x, s] = acc
                out[i] = dbl[x, s]
                sp -= 1
                continue
            hit_only = top and w == 1  # the hand asked for, its hit value only
            if not hit_only and not (top and w == 0) and not math.isnan(aft[x, s]):
                sp -= 1
                continue
            total = H[x, _TOTAL]
            if not hit_only and (w != 0 or not top) and charlie and H[x, _CARDS] >= charlie:
                aft[x, s] = mass
                sp -= 1
                continue
            hits = hit_only or not policy or polhit[x, s]
            if total == 21 and not hit_only:
                hits = False
            if top and w == 0:
                hits = False
            if hits and math.isnan(hit[x, s]):
                pushed = False
                for v in range(10):
                    c = H[x, _CHILD + v]
                    if c >= 0 and math.isnan(aft[c, s]) and pr[v]:
                        stack[sp] = c
                        sp += 1
                        pushed = True
                if pushed:
                    continue
                acc = 0.0
                for v in range(10):
                    pv = pr[v]
                    if pv:
                        c = H[x, _CHILD + v]
                        if c >= 0:
                            acc += pv * aft[c, s]
                        else:
                            mc = _mass_after(hole, bj, v, qbj, left0[bj] - r[bj] if bj >= 0 else 0, n)
                            acc += pv * -mc
                hit[x, s] = acc
            sp -= 1
            if hit_only:
                out[i] = hit[x, s]
                continue
            if hits and policy:
                aft[x, s] = hit[x, s]
                continue
            # standing: the dealer's outcomes for x's removal
            y, f = x, e
            while f > 0 and H[y, _CHILD + pair] >= 0:
                y = H[y, _CHILD + pair]
                f -= 1
            if (havep[f, y] if f else have0[y]) != 1:
                nreq = _request(x, pair, e, H, have0, havep, req, 0)
                _fill(req, nreq, pair, C, dist0, have0, distp, havep, dl, scratch)
            st = 0.0
            for o in range(7):
                st += (distp[f, y, o] if f else dist0[y, o]) * pay[total, o]
            if top and w == 0:
                out[i] = st
                continue
            if total == 21:
                if F[x, s]:
                    st += bonus * mass
                aft[x, s] = st
            elif not policy and hit[x, s] > st:
                aft[x, s] = hit[x, s]
            else:
                aft[x, s] = st
        if w == 3:
            out[i] = aft[x0, s]
    return out


# -- the tables and plays ---------------------------------------------------------------------


def forget() -> None:
    """Clear what this module remembers across tables (for a benchmark that times from nothing)."""
    _falls.cache_clear()
    _hand_arrays.cache_clear()


@lru_cache(maxsize=16)
def _falls(top: int, deep: int) -> np.ndarray:
    """fall(x, d) = x (x - 1) ... (x - d + 1) for x up to ``top`` and d below ``deep``."""
    out = np.ones((top + 1, deep))
    for d in range(1, deep):
        for x in range(top + 1):
            out[x, d] = float(math.prod(range(x - d + 1, x + 1))) if x >= d else 0.0
    return out


@lru_cache(maxsize=8)
def _hand_arrays(
    limit: Comp | None, hard_aces: bool, bonus: float
) -> tuple[list[Comp], dict[Comp, int], np.ndarray, np.ndarray, np.ndarray]:
    """Every hand within ``limit`` (None: any), its number, and the kernels' arrays of them:
    ``H`` (total, cards, total once doubled, the hand after drawing each value), ``C`` (the
    compositions) and ``F`` (the three-sevens bonus on standing and on doubling, as a split
    hand or not). The same for every up card the limit does not bind."""
    hands = list(hands_up_to(limit))
    index = {h: i for i, h in enumerate(hands)}
    n = len(hands)
    H = np.full((n, _CHILD + 10), -1, np.int64)
    F = np.zeros((n, 4))
    for i, h in enumerate(hands):
        H[i, _TOTAL] = score(h)[0]
        H[i, _CARDS] = size(h)
        H[i, _TDOUBLE] = score(h, hard_aces)[0]
        for v in range(1, 11):
            H[i, _CHILD + v - 1] = index.get(plus(h, v), -1)
        for s in (0, 1):
            F[i, s] = stands_on_sevens_bonus(bonus, h, bool(s))
            F[i, 2 + s] = doubles_to_sevens_bonus(bonus, h, bool(s))
    return hands, index, H, np.array(hands, np.int64).reshape(n, 10), F


class FastTable:
    """One up card's arrays for the kernels, read from ``table`` (an ``UpTable``)."""

    def __init__(self, table: UpTable):
        self.t = table
        shoe = table.shoe
        rules = table.rules
        limit = table.left_after_up()
        # No hand of hard total 21 or less holds more than 21 // v cards of value v: a limit
        # above that binds nothing (so six decks share one set of arrays for every up card).
        binding = None if limit is None else tuple(min(m, 21 // v) for v, m in enumerate(limit, 1))
        self.hands, self.index, self.H, self.C, self.F = _hand_arrays(
            binding, rules.double_makes_aces_hard, float(table.bonus)
        )
        self.n = len(self.hands)
        self.pays = {k: np.array(v, np.float64) for k, v in table.pays.items()}
        q = np.full(10, -1.0)
        inf = np.full(7, -1.0)
        if shoe.infinite:
            left0 = np.zeros(10, np.int64)
            q = np.array(shoe.next_probs(shoe.full), np.float64)
            inf = np.array(dealer.probs_infinite(table.up, rules.dealer_hits_soft_17, tuple(q)))
        else:
            left0 = np.array(limit, np.int64)
        nodes, ends, mults = dealer.trie(table.up, rules.dealer_hits_soft_17)
        deep = max(c for _, _, c in nodes) + 1
        trie = np.array([(parent, v * deep + c) for parent, v, c in nodes], np.int64)
        order = sorted(range(len(ends)), key=lambda j: (ends[j][1], ends[j][2]))
        groups: list[tuple[int, int, int]] = []
        for at, j in enumerate(order):
            o, k = ends[j][1], ends[j][2]
            if groups and groups[-1][:2] == (o, k):
                groups[-1] = (o, k, at + 1)
            else:
                groups.append((o, k, at + 1))
        falls = _falls(int(left0.max()), deep)
        bj = table.blackjack_value()
        flags = np.array([int(bool(table.hole)), -1 if bj is None else bj - 1], np.int64)
        self.dl = (
            left0, np.array([int(left0.sum())], np.int64), q, trie,
            np.array([ends[j][0] for j in order], np.int64), np.array([mults[j] for j in order], np.float64),
            np.array(groups, np.int64).reshape(len(groups), 3), falls, inf, flags,
        )
        self.charlie = table.charlie_cards()
        self.bonus = float(table.bonus)
        self.max_hands = rules.max_hands
        # The dealer's outcomes for hand x from its own cards (dist0[x]) and, per pair card, with
        # f pair cards out too (pairs[value index][0][f, x]); have: whether computed.
        self.dist0 = dealer_dists(self.C, self.dl)
        self.have0 = np.ones(self.n, np.int8)
        self.pairs: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._policies: dict[int, tuple[Policy, np.ndarray]] = {}

    def dealer(self, comps: list[Comp]) -> np.ndarray:
        """The dealer's outcomes for each removal of ``comps`` (rows of 7)."""
        return dealer_dists(np.array(comps, np.int64).reshape(len(comps), 10), self.dl)

    def with_pairs(self, pair: int, e: int) -> tuple[np.ndarray, np.ndarray]:
        """The arrays of hands with up to ``e`` cards of value index ``pair`` out."""
        arrays = self.pairs.get(pair)
        if arrays is None or arrays[0].shape[0] <= e:
            size = max(e + 1, 2 * self.max_hands)  # the most a split of max_hands hands removes
            dist, have = np.zeros((size, self.n, 7)), np.zeros((size, self.n), np.int8)
            if arrays is not None:
                dist[: arrays[0].shape[0]] = arrays[0]
                have[: arrays[1].shape[0]] = arrays[1]
            arrays = self.pairs[pair] = (dist, have)
        return arrays

    def trim(self) -> None:
        """Forget the dealer's outcomes with pair cards out (the split plays')."""
        self.pairs = {}

    def policy_hits(self, policy: Policy) -> np.ndarray:
        """Whether ``policy`` hits each hand (of three cards or more, or a two-card hand it may
        only stand or hit), as a split hand or not: asked once per policy."""
        found = self._policies.get(id(policy))
        if found is None or found[0] is not policy:
            stand_hit = ("stand", "hit")
            hits = np.array([[policy(h, split, stand_hit) == "hit" for split in (False, True)] for h in self.hands],
                            np.bool_).reshape(self.n, 2)
            found = self._policies[id(policy)] = (policy, hits)
        return found[1]


class FastPlay:
    """``table.Play``'s values from the kernels: the optimal play (``policy`` None), Auto's
    policy (an optimal ``FastPlay`` from the hand's own cards, the same first hand or not: each
    hand takes the choice it finds best), or any other ``table.Policy`` (a chart), asked once
    for every hand whether it hits (``FastTable.policy_hits``) and for each two-card decision."""

    def __init__(self, ft: FastTable, extra: Comp, policy: FastPlay | Policy | None, first: bool):
        self.ft = ft
        self.extra = extra
        self.first = first
        self.policy = policy
        self.choose: Policy | None = None
        if isinstance(policy, FastPlay):
            best = policy.best
            self.choose = lambda hand, split, options: best(hand, split, options)[0]
        elif policy is not None:
            self.choose = policy
        pairs = [i for i, c in enumerate(extra) if c]
        if len(pairs) > 1:
            raise ValueError(f"a compiled play removes cards of one value only, not {extra}")
        self.pair = pairs[0] if pairs else 0
        self.e = extra[self.pair]
        self.pay = ft.pays[(False, first)]
        self.pay_doubled = ft.pays[(True, first)]
        n = ft.n
        memo = np.full((3, n, 2), np.nan)  # what is known of each hand, as a split hand or not
        self.aft, self.hit_, self.dbl = memo[0], memo[1], memo[2]
        if policy is None:
            self.polhit = np.zeros((n, 2), np.bool_)
        elif isinstance(policy, FastPlay):
            self.polhit = policy.hits()
        else:
            self.polhit = ft.policy_hits(policy)
        self.stand0: np.ndarray | None = None
        self._hits: np.ndarray | None = None
        self._best: dict[tuple[Comp, bool, tuple[str, ...]], tuple[str, float]] = {}
        self._known: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
        if policy is None:
            self._all()
            assert self.stand0 is not None
            self._known = (self.stand0, self.hit_, self.dbl, self.aft)

    def _run(self, xs: np.ndarray, ss: np.ndarray, what: np.ndarray) -> np.ndarray:
        ft = self.ft
        with ft.t.lock:  # one thread at a time fills a table's arrays (see UpTable.lock)
            distp, havep = ft.with_pairs(self.pair, self.e)
            return play_values(
                xs, ss, what, ft.H, ft.C, ft.F, self.pay, self.pay_doubled, self.pair, self.e, ft.charlie, ft.bonus,
                ft.dl, ft.dist0, ft.have0, distp, havep, self.aft, self.hit_, self.dbl, self.polhit,
                self.policy is not None,
            )

    def _all(self) -> None:
        """Every hand's values at once (the optimal play from the hands' own cards)."""
        n = self.ft.n
        every = np.arange(n, dtype=np.int64)
        two = np.flatnonzero(self.ft.H[:, _CARDS] == 2).astype(np.int64)
        zeros, ones = np.zeros(n, np.int64), np.ones(n, np.int64)
        self.stand0 = self._run(every, zeros, zeros)
        for s in (zeros, ones):
            self._run(every, s, np.full(n, 3, np.int64))
            self._run(every, s, ones)
            self._run(two, s[: len(two)], np.full(len(two), 2, np.int64))

    def hits(self) -> np.ndarray:
        """Whether this (optimal) play hits each hand, as a split hand or not (hit > stand)."""
        if self._hits is None:
            assert self.stand0 is not None
            self._hits = self.hit_ > self.stand0[:, None]
        return self._hits

    # -- Play's interface -----------------------------------------------------------------------

    def _one(self, hand: Comp, split: bool, what: int) -> float:
        x = self.ft.index[hand]
        known = self._known
        if known is not None:  # the optimal play: every value of every hand is known
            v = known[0].item(x) if what == 0 else known[what].item(x, int(split))
            if v == v:  # not NaN
                return float(v)
        return float(self._run(np.array([x], np.int64), np.array([int(split)], np.int64),
                               np.array([what], np.int64))[0])

    def stand(self, hand: Comp) -> float:
        if hand not in self.ft.index:  # bust (a hand the shoe cannot hold has no value here)
            return -self.ft.t.mass(self.removed(hand))
        return self._one(hand, False, 0)

    def removed(self, hand: Comp) -> Comp:
        return merge(hand, self.extra)

    def hit(self, hand: Comp, split: bool) -> float:
        return self._one(hand, split, 1)

    def double(self, hand: Comp, split: bool) -> float:
        return self._one(hand, split, 2)

    def after(self, hand: Comp, split: bool) -> float:
        return self._one(hand, split, 3)

    def value(self, hand: Comp, split: bool, action: str) -> float:
        what = ACTIONS.index(action) if action in ACTIONS else -1
        if what < 0:
            raise ValueError(f"no value for {action!r} here")
        return self._one(hand, split, what)

    def best(self, hand: Comp, split: bool, options: tuple[str, ...]) -> tuple[str, float]:
        """The best of ``options`` (stand/hit/double) and its value; ties go to the earlier action."""
        key = (hand, split, options)
        found = self._best.get(key)
        if found is None:
            found = best_of_values(lambda a: self.value(hand, split, a), options)
            if self._known is not None:  # (a policy play's values may still be filled in)
                self._best[key] = found
        return found

    def two_card(self, hand: Comp, split: bool, options: tuple[str, ...]) -> float:
        if self.choose is None:
            return self.best(hand, split, options)[1]
        return self.value(hand, split, self.choose(hand, split, options))

    def two_cards(self, hands: list[tuple[Comp, tuple[str, ...]]], split: bool) -> list[float]:
        """``two_card`` of each (hand, options), the kernel called once."""
        if self.choose is None:
            return [self.two_card(h, split, o) for h, o in hands]
        actions = [ACTIONS.index(self.choose(h, split, o)) for h, o in hands]
        xs = np.array([self.ft.index[h] for h, _ in hands], np.int64)
        out = self._run(xs, np.full(len(hands), int(split), np.int64), np.array(actions, np.int64))
        return [float(v) for v in out]
