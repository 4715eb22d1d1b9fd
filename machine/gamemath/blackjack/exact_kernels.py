"""The compiled kernels of blackjack's exact analysis (numba): the dealer's outcomes and the plays.

Owns: ``dealer_dists`` (the dealer's outcomes for blocks of removals) and ``play_values`` (the
values of the hands of one play, depth first), with their helpers, on the arrays
``exact_fast.FastTable`` and ``FastPlay`` build; the layout of the tuple ``dl`` (the hand
array's columns are ``exact_layout``'s). Writes no rule and reads no object: ``exact_fast``'s
docstring tells the theory of operation. The same functions are compiled ahead of time into a
numba-free extension module by ``exact_aot`` (its signatures: ``exact_aot.SIGNATURES``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from machine.gamemath import kernels
from machine.gamemath.blackjack import exact_layout
from machine.gamemath.blackjack.exact_layout import CARDS, CHILD, TDOUBLE, TOTAL

# numba's cache of these kernels goes stale when the layout they compile in changes.
kernels.cache_follows(__file__, exact_layout.__file__)

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


# The hot loops below read arrays directly; their helpers are inlined (``inline="always"``):
# numba counts references to every array a call passes, which would cost more than the
# arithmetic.


@njit(cache=True, error_model="numpy", nogil=True)
def _request(x, pair, e, H, have0, havep, req, nreq):  # pragma: no cover
    """Ask for the dealer's outcomes of hand ``x`` with ``e`` pair cards out, kept for hand y
    with f pair cards out, y taking as many of the e cards as it can (so that a removal is
    computed once whichever (hand, e) it is reached as); returns the new count of requests."""
    y, f = x, e
    while f > 0 and H[y, CHILD + pair] >= 0:
        y = H[y, CHILD + pair]
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
                n = n0 - H[x0, CARDS] - e
                for v in range(10):
                    c = H[x0, CHILD + v]
                    live = q[v] > 0.0 if infinite else n > 0 and left0[v] - C[x0, v] - (e if v == pair else 0) > 0
                    if live and c >= 0 and H[c, TDOUBLE] <= 21:
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
            if not hit_only and charlie and H[x, CARDS] >= charlie:
                continue
            total = H[x, TOTAL]
            hits = hit_only or (total != 21 and (not policy or polhit[x, s]))
            if not hit_only and (not hits or not policy):
                nreq = _request(x, pair, e, H, have0, havep, req, nreq)
            if hits and math.isnan(hit[x, s]):
                n = n0 - H[x, CARDS] - e
                for v in range(10):
                    c = H[x, CHILD + v]
                    live = q[v] > 0.0 if infinite else n > 0 and left0[v] - C[x, v] - (e if v == pair else 0) > 0
                    if live and c >= 0 and not seen[c, s] and math.isnan(aft[c, s]):
                        stack[sp] = c
                        sp += 1
    return nreq


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def _outcomes_of(x, pair, e, H, have0, havep):  # pragma: no cover
    """(y, f, listed): where the dealer's outcomes of hand ``x`` with ``e`` pair cards out are
    kept (see ``_request``), and whether they are computed (``_collect`` listed them; else
    ``_outcomes_now``). Only the arrays it reads are passed: each array an inlined helper takes
    costs a count of references on every call."""
    y, f = x, e
    while f > 0 and H[y, CHILD + pair] >= 0:
        y = H[y, CHILD + pair]
        f -= 1
    return y, f, (havep[f, y] if f else have0[y]) == 1


@njit(cache=True, error_model="numpy", nogil=True)
def _outcomes_now(x, pair, e, H, C, have0, havep, dist0, distp, dl, scratch, req):  # pragma: no cover
    """Compute the dealer's outcomes of hand ``x`` with ``e`` pair cards out (not listed by ``_collect``)."""
    nreq = _request(x, pair, e, H, have0, havep, req, 0)
    _fill(req, nreq, pair, C, dist0, have0, distp, havep, dl, scratch)


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def _card_chances(x, pair, e, H, C, left0, n0, q, infinite, hole, bj, r, pr):  # pragma: no cover
    """The next card's chances ``pr`` with hand ``x``'s removal ``r`` (its cards and ``e`` pair
    cards): (the cards left, the mass), as ``UpTable.probs`` and ``UpTable.mass``."""
    n = n0 - H[x, CARDS] - e
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
    return n, mass


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def _double_value(x, s, pair, e, H, C, F, pay_dbl, bonus, dl, left0, hole, bj, qbj, n, r, pr,  # pragma: no cover
                  dist0, have0, distp, havep, scratch, req):
    """The value of doubling hand ``x`` (split hand where ``s``): one card, then stand."""
    acc = 0.0
    for v in range(10):
        pv = pr[v]
        if pv:
            c = H[x, CHILD + v]
            mc = _mass_after(hole, bj, v, qbj, left0[bj] - r[bj] if bj >= 0 else 0, n)
            if c < 0 or H[c, TDOUBLE] > 21:
                wv = -2.0 * mc
            else:
                y, f, listed = _outcomes_of(c, pair, e, H, have0, havep)
                if not listed:
                    _outcomes_now(c, pair, e, H, C, have0, havep, dist0, distp, dl, scratch, req)
                t = H[c, TDOUBLE]
                wv = 0.0
                for o in range(7):
                    wv += (distp[f, y, o] if f else dist0[y, o]) * pay_dbl[t, o]
                if bonus and F[c, 2 + s]:
                    wv += bonus * mc
            acc += pv * wv
    return acc


@njit(cache=True, error_model="numpy", nogil=True, inline="always")
def _hit_value(x, s, H, aft, left0, hole, bj, qbj, n, r, pr):  # pragma: no cover
    """The value of hitting hand ``x`` once its children's ``aft`` are known."""
    acc = 0.0
    for v in range(10):
        pv = pr[v]
        if pv:
            c = H[x, CHILD + v]
            if c >= 0:
                acc += pv * aft[c, s]
            else:
                mc = _mass_after(hole, bj, v, qbj, left0[bj] - r[bj] if bj >= 0 else 0, n)
                acc += pv * -mc
    return acc


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
            if top and w == 2:  # doubling x0
                if math.isnan(dbl[x, s]):
                    n, mass = _card_chances(x, pair, e, H, C, left0, n0, q, infinite, hole, bj, r, pr)
                    dbl[x, s] = _double_value(x, s, pair, e, H, C, F, pay_dbl, bonus, dl, left0, hole, bj, qbj, n, r, pr,
                                              dist0, have0, distp, havep, scratch, req)
                out[i] = dbl[x, s]
                sp -= 1
                continue
            hit_only = top and w == 1  # the hand asked for, its hit value only
            if not hit_only and not (top and w == 0) and not math.isnan(aft[x, s]):
                sp -= 1  # (known already: a hand reached again, by another order of its cards)
                continue
            n, mass = _card_chances(x, pair, e, H, C, left0, n0, q, infinite, hole, bj, r, pr)
            total = H[x, TOTAL]
            if not hit_only and (w != 0 or not top) and charlie and H[x, CARDS] >= charlie:
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
                    c = H[x, CHILD + v]
                    if c >= 0 and math.isnan(aft[c, s]) and pr[v]:
                        stack[sp] = c
                        sp += 1
                        pushed = True
                if pushed:
                    continue
                hit[x, s] = _hit_value(x, s, H, aft, left0, hole, bj, qbj, n, r, pr)
            sp -= 1
            if hit_only:
                out[i] = hit[x, s]
                continue
            if hits and policy:
                aft[x, s] = hit[x, s]
                continue
            # standing: the dealer's outcomes for x's removal
            y, f, listed = _outcomes_of(x, pair, e, H, have0, havep)
            if not listed:
                _outcomes_now(x, pair, e, H, C, have0, havep, dist0, distp, dl, scratch, req)
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
