"""Eenendertigen's compiled fast path (optional: numba, the ``fast`` extra).

Owns: ``fast_simulate`` (the ``Tally`` of ``eenendertigen.simulate``) and ``fast_run`` (that
tally with Auto's wins by the number of tied winners, for ``cabinet bench eenendertigen``), the
numba kernel that plays a round of Auto in place 1 (the minimum bet) against three computer
players, and the tables the kernel reads. Keeps no strategy of its own and writes no score: the
score of every hand is ``rules.score2``'s, the value of every hand is ``eenendertigen.value``'s
arithmetic over ``future`` (the same operations in the same order, so the same floats), and the
kernel's turn order and choice are ``round.EenendertigenRound`` and ``eenendertigen.choose``
step for step; ``tests/test_eenendertigen_fast.py`` checks the tables entry for entry against
the Python functions and the kernel round for round against the engine on the same decks.

Theory of operation
-------------------
* **Cards** are their index in the variant's deck (``eenendertigen._deck``: 32 or 52 codes).
* **Tables**, built once per variant (about a second for modern): ``S[a, b, c]`` the score in
  half points of the hand {a, b, c} (every order filled: a hand's score is the same in any
  order); ``V[last, a, b, c]`` the value ``choose`` gives the hand (last 0: its score plus
  ``Q`` x the mean gain of one more card, ``F`` from the integer total of every card the hand
  does not hold; last 1: the score alone, 31 plus 1000); modern ``D[last, a, b, c]``: the sum
  over the deck (in deck order) of the best discard's value after that card is added, as
  ``strategy.draw_sum`` sums it. Python's ``sum`` of floats is added as this Python adds it (plain
  left to right before 3.12, Neumaier's compensated sum from 3.12), so a draw's value, the
  table's sum less the pile's, is the same float as the engine's.
* **A round** is dealt lazily from the chunk's seeded generator (``kernels.deal``: each card a
  uniform pick among those left). The hands keep their cards' order and the table its order
  (modern: the pile, top last), because a tie goes to the first option in that order.
* **Threads**: chunks of ``FAST_CHUNK`` rounds, each with its own seed, in a ``prange`` loop;
  ``workers`` sets numba's thread count, so a seed gives the same figure on any threads (not
  the engine simulator's figure: its decks come from ``random``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations

import numba
import numpy as np
from numba import njit, prange

from machine.gamemath import kernels
from machine.gamemath.eenendertigen.strategy import KNOCK_BONUS, PASS_AT, Q, deck_of
from machine.gamemath.kernels import (
    NO_NRT,
    FastSimError,
    cache_follows,
    chunk_plan,
    deal,
    inline_kernel,
    rng_seeded,
    shuffled,
)
from machine.gamemath.simulate import Tally
from machine.games.eenendertigen.round import MAX_SWAPS
from machine.games.eenendertigen.rules import HAND, PLACES, THIRTY_ONE2, EenendertigenRules, score2

# the kernel compiles the toolkit's draw into itself: its cache follows that file too
cache_follows(__file__, kernels.__file__)

NEUMAIER = sys.version_info >= (3, 12)  # Python's sum of floats compensates from 3.12 on
# the kernel's rule settings, an int64 array P
P_CLASSIC, P_PASS_AT, P_BET, P_PAYS_NUM, P_PAYS_DEN, P_NEUMAIER = range(6)
# the kernel's moves
M_PASS, M_SWAP, M_SWAP_ALL, M_TAKE, M_DRAW = range(5)
STUCK = -1  # a round that did not end within MAX_TURNS turns (a bug, reported)
MAX_TURNS = 10_000
# per chunk: sum of net, sum of net squared, cards dealt, rounds stuck, Auto's wins alone, in a tie of 2, 3, 4
O_NET, O_NET2, O_CARDS, O_STUCK, O_WINS = 0, 1, 2, 3, 4
NO = 8


# -- the tables ----------------------------------------------------------------------------------


# The round, its choice and its loop are inlined and compiled without numba's reference counting
# (``kernels.inline_kernel``).


@inline_kernel
def _sum_add(acc, comp, x, neumaier):
    """One item of Python's ``sum`` of floats: (running sum, compensation)."""
    t = acc + x
    if neumaier:
        if abs(acc) >= abs(x):
            comp += (acc - t) + x
        else:
            comp += (x - t) + acc
    return t, comp


@inline_kernel
def _sum_end(acc, comp, neumaier):
    if neumaier and comp != 0.0:
        return acc + comp
    return acc


@njit(cache=True)
def _future_totals(S, hands):
    """For each hand (a row of three card indexes) ``future``'s integer total: the best score
    over every card the hand does not hold of keeping the hand or putting the card in."""
    n = S.shape[0]
    out = np.zeros(hands.shape[0], np.int64)
    for k in range(hands.shape[0]):
        a, b, c = hands[k, 0], hands[k, 1], hands[k, 2]
        s = S[a, b, c]
        total = 0
        for x in range(n):
            if x in (a, b, c):
                continue
            best = s
            t = S[x, b, c]
            best = t if t > best else best
            t = S[a, x, c]
            best = t if t > best else best
            t = S[a, b, x]
            best = t if t > best else best
            total += best
        out[k] = total
    return out


@inline_kernel
def _best_discard(V, last, a, b, c, x):
    """``eenendertigen._best_discard``: the best value of three of the four cards."""
    best = V[last, b, c, x]
    t = V[last, a, c, x]
    best = t if t > best else best
    t = V[last, a, b, x]
    best = t if t > best else best
    t = V[last, a, b, c]
    best = t if t > best else best
    return best


@njit(cache=True)
def _draw_sums(V, hands, neumaier):
    """``strategy.draw_sum`` for each hand and both ``last``: the best discard's value summed over the
    deck in deck order, as Python's ``sum`` adds it."""
    n = V.shape[1]
    out = np.zeros((2, hands.shape[0]))
    for k in range(hands.shape[0]):
        a, b, c = hands[k, 0], hands[k, 1], hands[k, 2]
        for last in range(2):
            acc = 0.0
            comp = 0.0
            for x in range(n):
                if x in (a, b, c):
                    continue
                acc, comp = _sum_add(acc, comp, _best_discard(V, last, a, b, c, x), neumaier)
            out[last, k] = _sum_end(acc, comp, neumaier)
    return out


class Tables:
    """The scores, values and draw sums of every hand of a variant (see the module docstring)."""

    def __init__(self, variant: str):
        self.variant = variant
        self.cards = deck_of(variant)
        n = len(self.cards)
        hands = np.array(list(combinations(range(n), HAND)), np.int64)
        scores = np.array([score2([self.cards[i] for i in h]) for h in hands], np.int64)
        perms = list(permutations(range(HAND)))
        self.S = np.zeros((n, n, n), np.int64)
        for p in perms:
            self.S[hands[:, p[0]], hands[:, p[1]], hands[:, p[2]]] = scores
        future = _future_totals(self.S, hands) / (n - HAND)  # future(): total / len(rest)
        s = scores.astype(np.float64)
        later = s + Q * (future - s)  # _value(): s + Q * (future - s)
        final = s + np.where(scores == THIRTY_ONE2, KNOCK_BONUS, 0.0)  # _value(): the score on the last turn
        later = np.where(scores == THIRTY_ONE2, final, later)
        self.V = np.zeros((2, n, n, n))
        for last, vals in enumerate((later, final)):
            for p in perms:
                self.V[last, hands[:, p[0]], hands[:, p[1]], hands[:, p[2]]] = vals
        self.D = np.zeros((2, 1, 1, 1))
        if variant == "modern":
            sums = _draw_sums(self.V, hands, NEUMAIER)
            self.D = np.zeros((2, n, n, n))
            for last in range(2):
                for p in perms:
                    self.D[last, hands[:, p[0]], hands[:, p[1]], hands[:, p[2]]] = sums[last]

    def index(self, cards: list[str] | tuple[str, ...]) -> tuple[int, ...]:
        return tuple(self.cards.index(c) for c in cards)

    def base(self) -> np.ndarray:
        return np.arange(len(self.cards), dtype=np.int64)


@lru_cache(maxsize=2)
def tables(variant: str) -> Tables:
    return Tables(variant)


def rule_params(rules: EenendertigenRules) -> np.ndarray:
    return np.array([rules.variant == "classic", PASS_AT[rules.variant], rules.min_bet,
                     rules.win_pays.numerator, rules.win_pays.denominator, NEUMAIER], np.int64)


# -- the round -----------------------------------------------------------------------------------


@inline_kernel
def _choose(P, S, V, D, hands, i, table, tlen, last, stack, swaps, first, ma):
    """``eenendertigen.choose`` for place ``i`` (not after a draw): (move, x, y); a swap is
    (M_SWAP, hand position, table position), a take (M_TAKE, discarded position, 0). ``ma`` is
    scratch: the hand after each move."""
    classic = P[P_CLASSIC] != 0
    pass_at = P[P_PASS_AT]
    h0, h1, h2 = hands[i, 0], hands[i, 1], hands[i, 2]
    now = S[h0, h1, h2]
    # the moves in the round's own order: classic swap:H:T (H, then T), swap_all; modern take_open:D
    nm = 10 if classic else 3
    if classic:
        k = 0
        for h in range(3):
            for t in range(3):
                ma[k, 0], ma[k, 1], ma[k, 2] = h0, h1, h2
                ma[k, h] = table[t]
                k += 1
        ma[9, 0], ma[9, 1], ma[9, 2] = table[0], table[1], table[2]
    else:
        top = table[tlen - 1]
        ma[0, 0], ma[0, 1], ma[0, 2] = h1, h2, top
        ma[1, 0], ma[1, 1], ma[1, 2] = h0, h2, top
        ma[2, 0], ma[2, 1], ma[2, 2] = h0, h1, top
    best_now = -1
    for k in range(nm):
        s = S[ma[k, 0], ma[k, 1], ma[k, 2]]
        best_now = s if s > best_now else best_now
    if best_now == THIRTY_ONE2:
        for k in range(nm):
            if S[ma[k, 0], ma[k, 1], ma[k, 2]] == THIRTY_ONE2:
                return _move_of(classic, k)
    if now >= pass_at and best_now <= now:
        return M_PASS, 0, 0
    best_v = -1.0
    best_k = -1
    for k in range(nm):
        passes = False
        if classic:
            passes = swaps + 1 >= MAX_SWAPS or (k == 9 and not first)
        lv = 1 if (last or passes) else 0
        v = V[lv, ma[k, 0], ma[k, 1], ma[k, 2]]
        if best_k < 0 or v > best_v:
            best_v, best_k = v, k
    if not classic and stack > 0:
        lv = 1 if last else 0
        acc = 0.0
        comp = 0.0
        for j in range(tlen):  # the pile, bottom first, as _draw_value sums it
            acc, comp = _sum_add(acc, comp, _best_discard(V, lv, h0, h1, h2, table[j]), P[P_NEUMAIER] != 0)
        total = D[lv, h0, h1, h2] - _sum_end(acc, comp, P[P_NEUMAIER] != 0)
        v = total / (S.shape[0] - HAND - tlen)
        if v > best_v:
            best_v, best_k = v, -2
    if best_v <= now and (last or now >= pass_at):
        return M_PASS, 0, 0
    if best_k == -2:
        return M_DRAW, 0, 0
    return _move_of(classic, best_k)


@inline_kernel
def _move_of(classic, k):
    if not classic:
        return M_TAKE, k, 0
    if k == 9:
        return M_SWAP_ALL, 0, 0
    return M_SWAP, k // 3, k % 3


@inline_kernel
def _deal_round(deck, lazy, rng, classic, hands, table, passed, knocked, swaps):
    """The deal: three cards to each place, one at a time, then the table (classic: three open
    cards; modern: one); every place not passed, not knocked, no swap yet. Returns (cards used,
    the table's length)."""
    pos = 0
    for k in range(HAND):
        for i in range(PLACES):
            hands[i, k] = deal(deck, pos, lazy, rng)
            pos += 1
    tlen = HAND if classic else 1
    for t in range(tlen):
        table[t] = deal(deck, pos, lazy, rng)
        pos += 1
    for i in range(PLACES):
        passed[i] = False
        knocked[i] = False
        swaps[i] = 0
    return pos, tlen


@inline_kernel
def _next_owed(fin):
    """The next place still owed a turn after a knock (``fin``), or -1: the round ends."""
    turn = -1
    if fin[1] < fin[0]:
        turn = fin[2 + fin[1]]
        fin[1] += 1
    return turn


@inline_kernel
def _discard_after_draw(V, hands, i, last):
    """The card of place ``i``'s four (after a modern draw) whose discard keeps the best value."""
    lv = 1 if last else 0
    best_v = -1.0
    d = -1
    for k in range(HAND + 1):
        a = hands[i, 0] if k != 0 else hands[i, 1]
        b = hands[i, 1] if k > 1 else hands[i, 2]
        c = hands[i, 2] if k > 2 else hands[i, 3]
        v = V[lv, a, b, c]
        if d < 0 or v > best_v:
            best_v, d = v, k
    return d


@inline_kernel
def _make_move(deck, pos, lazy, rng, V, classic, hands, table, tlen, passed, swaps, i, m, x, y, last, first):
    """Place ``i`` makes move ``m`` (``x``, ``y``: which cards) as the round does; returns (cards
    used, the table's length)."""
    if m == M_PASS:
        passed[i] = True
    elif m == M_SWAP:
        c = hands[i, x]
        hands[i, x] = table[y]
        table[y] = c
        swaps[i] += 1
        if classic and swaps[i] >= MAX_SWAPS:
            passed[i] = True
    elif m == M_SWAP_ALL:
        for k in range(HAND):
            c = hands[i, k]
            hands[i, k] = table[k]
            table[k] = c
        swaps[i] += 1
        if classic and swaps[i] >= MAX_SWAPS:
            passed[i] = True
        if not first:
            passed[i] = True
    elif m == M_TAKE:  # the open card in, the hand's x-th card on the pile
        gone = hands[i, x]
        top = table[tlen - 1]
        for k in range(x, HAND - 1):
            hands[i, k] = hands[i, k + 1]
        hands[i, HAND - 1] = top
        table[tlen - 1] = gone
        swaps[i] += 1
    else:  # M_DRAW, then the discard of best value (choose after a draw)
        hands[i, 3] = deal(deck, pos, lazy, rng)
        pos += 1
        d = _discard_after_draw(V, hands, i, last)
        gone = hands[i, d]
        for k in range(d, HAND):
            hands[i, k] = hands[i, k + 1]
        table[tlen] = gone
        tlen += 1
        swaps[i] += 1
    return pos, tlen


@inline_kernel
def _winner_mask(S, hands):
    """The places of the best score, as a bit mask."""
    best = -1
    for i in range(PLACES):
        s = S[hands[i, 0], hands[i, 1], hands[i, 2]]
        best = s if s > best else best
    mask = 0
    for i in range(PLACES):
        if S[hands[i, 0], hands[i, 1], hands[i, 2]] == best:
            mask |= 1 << i
    return mask


# Compiled on its own, not inlined into the loop that calls it once a round: numba's inlining copied
# its whole IR into the loop, 8 of the fast path's 14 s of CPU, for a loop no faster (on one core
# 0.42-0.44 M modern rounds/s inlined, 0.48 M called). (The other games' rounds stay inlined: there
# a call per round cost 15-20 % of the rounds/s.)
@njit(cache=True, **NO_NRT)
def _play_round(deck, lazy, rng, P, S, V, D, hands, table, passed, knocked, swaps, fin, ma):
    """Play one round (``EenendertigenRound`` with every place choosing as ``choose``).

    Returns (cards used, winners as a bit mask of places, turns), or STUCK cards used."""
    classic = P[P_CLASSIC] != 0
    n = deck.shape[0]
    pos, tlen = _deal_round(deck, lazy, rng, classic, hands, table, passed, knocked, swaps)
    # fin[0] its length, fin[1] the next, fin[2:] the places still owed a turn after a knock
    final = False
    last_one = -1
    first_taken = False
    turns = 0
    turn = 0
    for i in range(PLACES):
        if S[hands[i, 0], hands[i, 1], hands[i, 2]] == THIRTY_ONE2:
            knocked[i] = True
            final = True
    if final:
        fin[0] = 0
        fin[1] = 0
        for i in range(PLACES):
            if not knocked[i]:
                fin[2 + fin[0]] = i
                fin[0] += 1
        turn = _next_owed(fin)
    while turn >= 0:
        if turns > MAX_TURNS:
            return STUCK, 0, turns
        i = turn
        last = final or last_one == i
        first = i == 0 and not first_taken
        stack = n - pos if not classic else 0
        m, x, y = _choose(P, S, V, D, hands, i, table, tlen, last, stack, swaps[i], first, ma)
        pos, tlen = _make_move(deck, pos, lazy, rng, V, classic, hands, table, tlen, passed, swaps, i, m, x, y, last,
                               first)
        # _after_turn
        turns += 1
        first_taken = True
        if S[hands[i, 0], hands[i, 1], hands[i, 2]] == THIRTY_ONE2 and not knocked[i]:
            knocked[i] = True
            if not final:
                final = True
                fin[0] = 0
                fin[1] = 0
                for k in range(1, PLACES):
                    j = (i + k) % PLACES
                    if not passed[j]:
                        fin[2 + fin[0]] = j
                        fin[0] += 1
        if not classic and n - pos == 0:
            break
        if final:
            turn = _next_owed(fin)
            continue
        if last_one >= 0:
            break
        waiting = 0
        one = -1
        for j in range(PLACES):
            if not passed[j]:
                waiting += 1
                one = j
        if waiting == 0:
            break
        if waiting == 1:
            last_one = one
        for k in range(1, PLACES + 1):
            j = (i + k) % PLACES
            if not passed[j]:
                turn = j
                break
    return pos, _winner_mask(S, hands), turns


@inline_kernel
def _winners(mask):
    w = 0
    for i in range(PLACES):
        w += (mask >> i) & 1
    return w


@njit(cache=True)
def _rounds(shoes, lazy, rng, count, P, S, V, D, rows, out):
    """Play ``count`` rounds (lazily shuffled from shoes[0], or one on each row of ``shoes``).
    ``rows`` (given decks only) gets per round: cards used, winners mask, turns, Auto's
    return, then the four final hands. ``out``: see O_*."""
    hands = np.zeros((PLACES, HAND + 1), np.int64)
    table = np.zeros(shoes.shape[1], np.int64)
    passed = np.zeros(PLACES, np.bool_)
    knocked = np.zeros(PLACES, np.bool_)
    swaps = np.zeros(PLACES, np.int64)
    fin = np.zeros(PLACES + 2, np.int64)
    ma = np.zeros((10, HAND), np.int64)
    _loop(shoes, lazy, rng, count, P, S, V, D, rows, out, hands, table, passed, knocked, swaps, fin, ma)


@njit(cache=True, **NO_NRT)
def _loop(shoes, lazy, rng, count, P, S, V, D, rows, out, hands, table, passed, knocked, swaps, fin, ma):
    """The loop of ``_rounds`` in its work arrays (allocating nothing: no reference counts)."""
    bet = P[P_BET]
    for r in range(count):
        deck = shoes[0] if lazy else shoes[r]
        used, mask, turns = _play_round(deck, lazy, rng, P, S, V, D, hands, table, passed, knocked, swaps, fin, ma)
        if used < 0:
            out[O_STUCK] += 1
            continue
        w = _winners(mask)
        returned = (P[P_PAYS_NUM] * bet) // (P[P_PAYS_DEN] * w) if mask & 1 else 0
        net = returned - bet
        out[O_NET] += net
        out[O_NET2] += net * net
        out[O_CARDS] += used
        if mask & 1:
            out[O_WINS + w - 1] += 1
        if not lazy:
            rows[r, 0], rows[r, 1], rows[r, 2], rows[r, 3] = used, mask, turns, returned
            for i in range(PLACES):
                for k in range(HAND):
                    rows[r, 4 + HAND * i + k] = hands[i, k]


@njit(cache=True)
def _run_chunk(seed, rounds, base, P, S, V, D, out):
    rng = rng_seeded(seed)
    deck = np.empty((1, base.shape[0]), base.dtype)
    deck[0] = base
    # bool(True), not the literal True: one compile of the loop serves this call and the given shoes' (a  # noqa: UP018
    # literal would be a specialisation of its own, compiled again: half the fast path's compile time)
    _rounds(deck, bool(True), rng, rounds, P, S, V, D, np.zeros((1, 1), np.int64), out)  # noqa: UP018


@njit(cache=True, parallel=True)
def _run_chunks(seeds, counts, base, P, S, V, D, out):
    for c in prange(seeds.shape[0]):
        _run_chunk(seeds[c], counts[c], base, P, S, V, D, out[c])


# -- running it ----------------------------------------------------------------------------------


@dataclass
class RoundOut:
    """One round the kernel played on a given deck (what the engine's round is checked against)."""

    cards_used: int
    winners: list[int]  # place numbers, 1-4
    turns: int
    returned: int  # Auto's (place 1's) return
    hands: list[list[str]]  # each place's final hand, in its order


def play_decks(rules: EenendertigenRules, decks: list[list[str]]) -> list[RoundOut]:
    """One round on each deck (card codes, in dealing order) through the kernel."""
    t = tables(rules.variant)
    shoes = np.array([t.index(d) for d in decks], np.int64)
    rows = np.zeros((len(decks), 4 + PLACES * HAND), np.int64)
    out = np.zeros(NO, np.int64)
    _rounds(shoes, False, np.zeros(4, np.uint64), len(decks), rule_params(rules), t.S, t.V, t.D, rows, out)
    if out[O_STUCK]:
        raise FastSimError(f"{out[O_STUCK]} round(s) did not end within {MAX_TURNS} turns (a bug)")
    return [RoundOut(int(r[0]), [i + 1 for i in range(PLACES) if int(r[1]) >> i & 1], int(r[2]), int(r[3]),
                     [[t.cards[int(c)] for c in r[4 + HAND * i:4 + HAND * (i + 1)]] for i in range(PLACES)])
            for r in rows]


def shuffled_decks(variant: str, count: int, seed: int) -> list[list[str]]:
    """``count`` fully shuffled decks of the variant (numba's generator, seeded) as card codes."""
    t = tables(variant)
    return [[t.cards[int(i)] for i in row] for row in shuffled(t.base(), count, seed)]


@dataclass
class FastRun:
    """A fast-path run: the tally, Auto's wins by the number of tied winners, and the timing."""

    tally: Tally
    wins: tuple[int, int, int, int]  # rounds Auto won alone, in a tie of two, of three, of four
    cards: int
    seconds: float  # the compiled loop only
    tables_seconds: float  # building the variant's tables (0 when already built)
    threads: int

    @property
    def rounds_per_second(self) -> float:
        return self.tally.rounds / self.seconds if self.seconds else float("inf")


def fast_run(
    rules: EenendertigenRules, rounds: int, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> FastRun:
    """``rounds`` rounds of Auto in place 1 against three computer players on ``workers`` threads."""
    s = time.perf_counter()
    t = tables(rules.variant)
    tables_seconds = time.perf_counter() - s
    threads, counts_a, seeds = chunk_plan(f"eenendertigen/{rules.variant}", rounds, seed, workers)
    counts = list(counts_a)
    out = np.zeros((len(counts), NO), np.int64)
    P = rule_params(rules)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    s = time.perf_counter()
    try:
        batch = threads * 4
        done = 0
        for b0 in range(0, len(counts), batch):
            part = slice(b0, b0 + batch)
            _run_chunks(seeds[part], counts_a[part], t.base(), P, t.S, t.V, t.D, out[part])
            done += int(counts_a[part].sum())
            if progress:
                progress(done, rounds)
    finally:
        numba.set_num_threads(previous)
    seconds = time.perf_counter() - s
    if out[:, O_STUCK].any():
        raise FastSimError(f"{int(out[:, O_STUCK].sum())} round(s) did not end within {MAX_TURNS} turns (a bug)")
    bet = rules.min_bet
    s1, s2 = int(out[:, O_NET].sum()), int(out[:, O_NET2].sum())
    tally = Tally(rounds=rounds, bet=bet * rounds, net=s1, sum_x=s1 / bet, sum_xx=s2 / (bet * bet))
    w1, w2, w3, w4 = (int(out[:, O_WINS + k].sum()) for k in range(4))
    return FastRun(tally, (w1, w2, w3, w4), int(out[:, O_CARDS].sum()), seconds, tables_seconds, threads)


def fast_simulate(
    rules: EenendertigenRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``eenendertigen.simulate`` on the compiled path: the same Tally (one seat, as it plays)."""
    return fast_run(rules, rounds, seed, workers, progress).tally
