"""Eenentwintig's compiled fast path (optional: numba, the ``fast`` extra).

Owns: ``fast_simulate`` (the ``Tally`` of ``eenentwintig.simulate``, millions of rounds a
second), the numba kernel that plays an eenentwintig round for one or more seats betting the
minimum with Auto's choices, and the table of those choices. Keeps no strategy and writes no
rule of its own: every choice is read from a table filled by ``eenentwintig.option_values``
and ``best_of`` (what ``auto_action`` calls), the hand's total, key and stops, the bank's draw
and the settlement are ``scoring``'s functions (and ``blackjack_rules.hand_score``) compiled
here; the kernel is checked round for round against ``EenentwintigRound`` on the same shoes
(``tests/test_eenentwintig_math.py``).

Theory of operation
-------------------
* **Cards** are value indexes 0..7 of ``scoring.VALUES``; a shoe of them is dealt lazily
  (``kernels.deal``: each card a uniform pick among those left), seeded per chunk.
* **A hand** is its composition's number in a trie of every composition of hard total 21 or
  less (``nxt[state, value]``, -1 once bust), with the composition's hard total, aces, cards
  and sevens beside it.
* **Auto's choice** depends on the hand's composition and on what else Auto counts as gone:
  nothing (context 0), the washed 7 and 8 (1), the other split hand's pair card x (2 + x),
  or both (10 + x). ``act[context, state]`` is the choice (0 pass, 1 buy, 2 split, 3 wash).
  Every entry the engine can reach is filled before the first round from the hands the exact
  analysis valued; an entry still -1 when the kernel meets it is a bug, reported, not guessed.
* **What it plays**: what ``eenentwintig.play_chunk`` plays: each seat bets ``min_bet`` with
  funds for every split, Auto answers everything; ``decks`` 1 to 8.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numba
import numpy as np
from numba import njit, prange

from machine.gamemath import kernels
from machine.gamemath.eenentwintig.auto import ORDER, analysis, best_of, option_values
from machine.gamemath.eenentwintig.exact import INDEX, ZERO, Comp, facts, plus
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
from machine.games.blackjack import scoring as bj
from machine.games.cards import new_shoe
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.rules import EenentwintigRules

STAND, HIT, SPLIT, WASH = range(4)
assert ORDER == ("stand", "hit", "split", "wash")
CONTEXTS = 18
P_TWO_ACES, P_THREE_SEVENS, P_BET = range(3)
MISS = -1  # a choice the table does not hold (a bug: every reachable one is filled)
SEVEN, EIGHT = INDEX[7], INDEX[8]
VAL = np.array(sc.VALUES, np.int64)

# the kernels below compile these rules (and the toolkit's draw) into themselves: their cache follows them
cache_follows(__file__, sc.__file__, bj.__file__, kernels.__file__)
# The round and its loop are inlined and compiled without numba's reference counting
# (``kernels.inline_kernel``; with the toolkit's generator besides, eenentwintig's 1.5 M rounds/s
# became 9.5 M on one core here).
_score = inline_kernel(bj.hand_score)
_key = inline_kernel(sc.hand_key)
_stops = inline_kernel(sc.hand_stops)
_bank_draws = inline_kernel(sc.bank_draws)
_settle = inline_kernel(sc.settle)
_returned = inline_kernel(sc.returned)


@inline_kernel
def _hand_key(P, hard, aces, n, sevens, unsplit):
    total, _soft = _score(hard, aces > 0, False)
    return _key(total, n, aces, sevens, unsplit, P[P_TWO_ACES] != 0, P[P_THREE_SEVENS] != 0)


@inline_kernel
def _play_hand(deck, pos, lazy, rng, nxt, hard, aces, ncards, act, ctx, state):
    """Play a hand by the table until it stops or asks for a split or a wash.

    Returns (state after, the choice that ended it, cards used); state -1: bust."""
    while True:
        if state < 0:
            return state, STAND, pos
        total, _soft = _score(hard[state], aces[state] > 0, False)
        if _stops(total, ncards[state]):
            return state, STAND, pos
        a = act[ctx, state]
        if a == HIT:
            c = deal(deck, pos, lazy, rng)
            pos += 1
            state = nxt[state, c]
            continue
        return state, a, pos


@inline_kernel
def _play_round(deck, lazy, rng, nseats, P, nxt, hard, aces, ncards, sevens, act, first, states, keys, net):
    """Play one round from ``deck``; returns the cards used, or MISS. ``net[s]`` gets each
    seat's returned minus staked; ``keys[s, h]`` each hand's key (-1: no hand); ``first`` and
    ``states`` are scratch (each seat's first card, its hand after the deal)."""
    bet = P[P_BET]
    pos = 0
    for s in range(nseats):
        first[s] = deal(deck, pos, lazy, rng)
        pos += 1
    b1 = deal(deck, pos, lazy, rng)
    pos += 1
    for s in range(nseats):
        c = deal(deck, pos, lazy, rng)
        pos += 1
        states[s] = nxt[nxt[0, first[s]], c]
    b2 = deal(deck, pos, lazy, rng)
    pos += 1
    alive = False
    for s in range(nseats):
        keys[s, 0] = -1
        keys[s, 1] = -1
        state = states[s]
        ctx = 0
        pair = first[s]  # the unsplit hand's first card (after a wash, the new first card)
        while True:
            state, a, pos = _play_hand(deck, pos, lazy, rng, nxt, hard, aces, ncards, act, ctx, state)
            if a == WASH:
                c1 = deal(deck, pos, lazy, rng)
                c2 = deal(deck, pos + 1, lazy, rng)
                pos += 2
                state = nxt[nxt[0, c1], c2]
                pair = c1
                ctx = 1
                continue
            break
        if a < 0:
            return MISS
        nh = 1
        if a == SPLIT:
            nh = 2
            ctx = 2 + pair + (8 if ctx == 1 else 0)
            for h in range(2):
                c = deal(deck, pos, lazy, rng)
                pos += 1
                hs, a2, pos = _play_hand(deck, pos, lazy, rng, nxt, hard, aces, ncards, act, ctx, nxt[nxt[0, pair], c])
                if a2 != STAND:
                    return MISS
                keys[s, h] = 0 if hs < 0 else _hand_key(P, hard[hs], aces[hs], ncards[hs], sevens[hs], False)
        else:
            keys[s, 0] = 0 if state < 0 else _hand_key(P, hard[state], aces[state], ncards[state], sevens[state], True)
        for h in range(nh):
            if keys[s, h] > 0:
                alive = True
    # the bank: two cards, then under 17 (nothing when every hand is bust)
    bh = VAL[b1] + VAL[b2]
    ba = (b1 == 0) + (b2 == 0)
    bs = (VAL[b1] == 7) + (VAL[b2] == 7)
    bn = 2
    if alive:
        while True:
            total, _soft = _score(bh, ba > 0, False)
            if not _bank_draws(total, bn, ba, P[P_TWO_ACES] != 0):
                break
            c = deal(deck, pos, lazy, rng)
            pos += 1
            bh += VAL[c]
            ba += c == 0
            bs += VAL[c] == 7
            bn += 1
    total, _soft = _score(bh, ba > 0, False)
    bank_key = _key(total, bn, ba, bs, True, P[P_TWO_ACES] != 0, P[P_THREE_SEVENS] != 0)
    for s in range(nseats):
        t = 0
        for h in range(2):
            if keys[s, h] >= 0:
                t += _returned(bet, _settle(keys[s, h], bank_key)) - bet
        net[s] = t
    return pos


@njit(cache=True)
def _rounds(shoes, lazy, rng, count, nseats, P, nxt, hard, aces, ncards, sevens, act, nets, used, out):
    """Play ``count`` rounds (lazily shuffled from shoes[0], or one on each row of ``shoes``).
    out = [sum of net, sum of net squared, cards used, rounds missed]."""
    keys = np.empty((nseats, 2), np.int64)
    net = np.zeros(nseats, np.int64)
    first = np.empty(nseats, np.int64)
    states = np.empty(nseats, np.int64)
    _loop(shoes, lazy, rng, count, nseats, P, nxt, hard, aces, ncards, sevens, act, nets, used, out,
          keys, net, first, states)


@njit(cache=True, **NO_NRT)
def _loop(shoes, lazy, rng, count, nseats, P, nxt, hard, aces, ncards, sevens, act, nets, used, out,
          keys, net, first, states):
    """The loop of ``_rounds`` in its work arrays (allocating nothing: no reference counts)."""
    s1 = 0
    s2 = 0
    cards = 0
    missed = 0
    for i in range(count):
        deck = shoes[0] if lazy else shoes[i]
        r = _play_round(deck, lazy, rng, nseats, P, nxt, hard, aces, ncards, sevens, act, first, states, keys, net)
        if not lazy:
            used[i] = r
            for s in range(nseats):
                nets[i, s] = net[s]
        if r < 0:
            missed += 1
            continue
        t = 0
        for s in range(nseats):
            t += net[s]
        s1 += t
        s2 += t * t
        cards += r
    out[0] = s1
    out[1] = s2
    out[2] = cards
    out[3] = missed


@njit(cache=True)
def _run_chunk(seed, rounds, base, nseats, P, nxt, hard, aces, ncards, sevens, act, out):
    rng = rng_seeded(seed)
    deck = np.empty((1, base.shape[0]), base.dtype)
    deck[0] = base
    # bool(True), not the literal True: one compile of the loop serves this call and the given shoes' (a  # noqa: UP018
    # literal would be a specialisation of its own, compiled again: half the fast path's compile time)
    _rounds(deck, bool(True), rng, rounds, nseats, P, nxt, hard, aces, ncards, sevens, act,  # noqa: UP018
            np.zeros((1, nseats), np.int64), np.zeros(1, np.int64), out)


@njit(cache=True, parallel=True)
def _run_chunks(seeds, counts, base, nseats, P, nxt, hard, aces, ncards, sevens, act, out):
    for c in prange(seeds.shape[0]):
        _run_chunk(seeds[c], counts[c], base, nseats, P, nxt, hard, aces, ncards, sevens, act, out[c])


# -- the tables ----------------------------------------------------------------------------------


class Tables:
    """The hand trie, Auto's choices by context and state, and the kernel's rule settings."""

    def __init__(self, rules: EenentwintigRules):
        if rules.decks < 1:
            raise FastSimError(f"the fast path deals from a real shoe: decks must be 1-8, not {rules.decks}")
        self.rules = rules
        comps = [ZERO]
        index = {ZERO: 0}
        for c in comps:  # grows while read: every composition of hard total 21 or less
            for i in range(8):
                nc = plus(c, i)
                if nc not in index and sum(map(int.__mul__, nc, sc.VALUES)) <= 21 and sum(nc) <= sc.MAX_CARDS:
                    index[nc] = len(comps)
                    comps.append(nc)
        self.index = index
        n = len(comps)
        self.nxt = np.full((n, 8), -1, np.int64)
        self.hard = np.zeros(n, np.int64)
        self.aces = np.zeros(n, np.int64)
        self.ncards = np.zeros(n, np.int64)
        self.sevens = np.zeros(n, np.int64)
        for k, c in enumerate(comps):
            self.hard[k] = sum(map(int.__mul__, c, sc.VALUES))
            self.aces[k], self.ncards[k], self.sevens[k] = c[0], sum(c), c[4]
            for i in range(8):
                self.nxt[k, i] = index.get(plus(c, i), -1)
        self.P = np.array([rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21, rules.min_bet], np.int64)
        self.act = np.full((CONTEXTS, n), -1, np.int64)
        self._fill()

    def _fill(self) -> None:
        """Auto's choice at every hand the analysis valued (every hand the engine can ask about)."""
        e = analysis(self.rules)
        for hand, extra, fs in e.hands():
            total, n, _aces, _sevens = facts(hand)
            if total > 21 or sc.hand_stops(total, n) or hand not in self.index:
                continue
            self.act[context(extra, fs), self.index[hand]] = ORDER.index(best_of(option_values(self.rules, hand, extra, fs)))

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.P, self.nxt, self.hard, self.aces, self.ncards, self.sevens, self.act

    def base(self) -> np.ndarray:
        return np.array([INDEX[sc.value(c)] for c in new_shoe(self.rules.decks, sc.RANKS)], np.int64)


def context(extra: Comp, from_split: bool) -> int:
    """The table's context of a hand: what else Auto counts as gone (see the docstring)."""
    washed = sum(extra) >= 2  # the 7 and the 8, and on a split hand the pair card besides
    if washed:
        extra = plus(plus(extra, SEVEN, -1), EIGHT, -1)
    if not from_split:
        return 1 if washed else 0
    return 2 + extra.index(1) + (8 if washed else 0)


@lru_cache(maxsize=4)
def tables(rules: EenentwintigRules) -> Tables:
    return Tables(rules)


# -- running it ----------------------------------------------------------------------------------


def play_shoes(rules: EenentwintigRules, shoes: np.ndarray, seats: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """One round on each row of ``shoes`` (value indexes, fully shuffled): (nets, cards used)."""
    t = tables(rules)
    nets = np.zeros((shoes.shape[0], seats), np.int64)
    used = np.zeros(shoes.shape[0], np.int64)
    _rounds(shoes, False, np.zeros(4, np.uint64), shoes.shape[0], seats, *t.arrays, nets, used, np.zeros(4, np.int64))
    if (used < 0).any():
        raise FastSimError("a choice missing from Auto's table (a bug)")
    return nets, used


def shuffled_shoes(rules: EenentwintigRules, count: int, seed: int) -> np.ndarray:
    """``count`` fully shuffled shoes of value indexes (numba's generator, seeded)."""
    return shuffled(tables(rules).base(), count, seed)


def shoe_cards(values: np.ndarray, decks: int) -> list[str]:
    """A shoe of value indexes as a genuine order of card codes (each rank has one value)."""
    left = {r: [r + s for s in "SHDC"] * decks for r in sc.RANKS}
    out = []
    for i in values:
        rank = next(r for r, v in sc.RANK_VALUE.items() if v == sc.VALUES[int(i)])
        out.append(left[rank].pop())
    return out


def fast_simulate(
    rules: EenentwintigRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``eenentwintig.simulate`` on the compiled path: the same Tally, Auto's play, minimum bets.
    Chunks of ``FAST_CHUNK`` rounds each have their own seed, whatever the threads."""
    t = tables(rules)
    threads, counts_a, seeds = chunk_plan("eenentwintig", rounds, seed, workers)
    counts = list(counts_a)
    out = np.zeros((len(counts), 4), np.int64)
    base = t.base()
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        batch = threads * 4
        done = 0
        for b0 in range(0, len(counts), batch):
            part = slice(b0, b0 + batch)
            _run_chunks(seeds[part], counts_a[part], base, seats, *t.arrays, out[part])
            done += int(counts_a[part].sum())
            if progress:
                progress(done, rounds)
    finally:
        numba.set_num_threads(previous)
    if out[:, 3].any():
        raise FastSimError("a choice missing from Auto's table (a bug)")
    bet = rules.min_bet * seats
    s1, s2 = int(out[:, 0].sum()), int(out[:, 1].sum())
    return Tally(rounds=rounds, bet=bet * rounds, net=s1, sum_x=s1 / bet, sum_xx=s2 / (bet * bet))
