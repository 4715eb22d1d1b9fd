"""Ochko's compiled fast path (optional: numba): millions of rounds a second, Auto's play.

Owns: the numba kernel that plays ochko rounds as ``sim.play_chunk`` plays them on the engine
(every seat staking the minimum, Auto answering, the bank carried from round to round within a
chunk and fresh at its start), Auto's table for that kernel, and ``fast_simulate``. Keeps no
strategy and writes no rule of its own: every choice is read from a table filled from
``exact.action_values`` (what ``auto_action`` reads), the rules are ``games.ochko.rules``' and
``blackjack_rules``' functions compiled, the lazy shuffle and the chunk seeds are the blackjack
fast path's, and the kernel is checked round for round against ``OchkoRound`` on the same shoes
(``tests/test_ochko_math.py``).

* **Cards** are value indexes 0..8 (jack, queen, king, 6 ... 10, ace: ``exact.VALUES``).
* **A seat's hand** is its composition's number among every composition of 20 points or less
  (``nxt[state, card]``: the composition after the card, -1 past 20 points), its points, its
  number of cards and aces (two aces: ``hand_total``). ``act[state, up]`` is Auto's choice
  (0 draw, 1 enough, 2 dark) among the choices the round offers there; -1 where no round can be.
* **Threads**: chunks of ``FAST_CHUNK`` rounds run in a ``prange`` loop, each seeding numba's
  generator itself, so a seed gives the same figure on any number of threads.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numba
import numpy as np
from numba import njit, prange

from machine.gamemath import kernels
from machine.gamemath.kernels import (
    NO_NRT,
    FastSimError,
    cache_follows,
    chunk_plan,
    deal,
    inline_kernel,
    rng_seeded,
    seed32,
    shuffled,
)
from machine.gamemath.ochko.exact import ACE_I, NV, PER_DECK, VALUES, ZERO, Comp, best, comp_total, of, plus
from machine.gamemath.simulate import Tally
from machine.games.blackjack import scoring as bj
from machine.games.cards import new_shoe
from machine.games.interface import ShoeExhausted
from machine.games.ochko import rules as ok
from machine.games.ochko.rules import RANKS, OchkoRules

P_MIN, P_MAX, P_TWO, P_OPEN = range(4)
HIT, STAND, DARK = 0, 1, 2
ACT_CODES = {"hit": HIT, "stand": STAND, "dark": DARK}
S_PTS, S_N, S_ACES, S_ST, S_STAKE, S_WAIT = range(6)  # rows of the seats array
EXHAUSTED, NO_ENTRY = -2, -3
V = np.array(VALUES, np.int64)


# the kernels compile ochko's rules, blackjack's and the fast path's lazy draw into themselves
RULES_DIGEST = cache_follows(__file__, ok.__file__, bj.__file__, kernels.__file__)


_hand_total = inline_kernel(ok.hand_total)
_at_once = inline_kernel(ok.at_once)
_is_stuk = inline_kernel(ok.is_stuk)
_stake_cap = inline_kernel(ok.stake_cap)
_bank_closes = inline_kernel(ok.bank_closes)
_bank_move = inline_kernel(ok.bank_move)
_dealer_draws = inline_kernel(bj.dealer_draws)
_settle_hand = inline_kernel(bj.settle_hand)


@inline_kernel
def _play_round(deck, lazy, rng, nseats, P, vals, nxt, act, bank2, seats, res):
    """One round from ``deck``; ``bank2`` = [bank, closed] before and after it; ``res`` gets
    [net of every seat, staked, cards used]. Returns the cards used, EXHAUSTED or NO_ENTRY."""
    ncards = deck.shape[0]
    two = P[P_TWO] != 0
    bank = bank2[0]
    if bank2[1] != 0 or bank < P[P_MIN]:
        bank = P[P_OPEN]
    stuk = _is_stuk(bank, P[P_OPEN])
    pos = 0
    for k in range(nseats):
        if pos >= ncards:
            return EXHAUSTED
        c = deal(deck, pos, lazy, rng)
        pos += 1
        seats[S_PTS, k] = vals[c]
        seats[S_N, k] = 1
        seats[S_ACES, k] = 1 if c == ACE_I else 0
        seats[S_ST, k] = nxt[0, c]
        seats[S_STAKE, k] = 0
        seats[S_WAIT, k] = 0
    if pos >= ncards:
        return EXHAUSTED
    up = deal(deck, pos, lazy, rng)
    pos += 1
    waiting = 0
    net = 0
    staked = 0
    for k in range(nseats):
        if _stake_cap(bank, waiting, P[P_MAX]) < P[P_MIN]:
            continue  # sits out
        stake = P[P_MIN]
        seats[S_STAKE, k] = stake
        staked += stake
        while True:
            if pos >= ncards:
                return EXHAUSTED
            c = deal(deck, pos, lazy, rng)
            pos += 1
            st = seats[S_ST, k]
            seats[S_ST, k] = nxt[st, c] if st >= 0 else -1
            seats[S_PTS, k] += vals[c]
            seats[S_N, k] += 1
            seats[S_ACES, k] += 1 if c == ACE_I else 0
            outcome = _at_once(_hand_total(seats[S_PTS, k], seats[S_N, k], seats[S_ACES, k], two))
            if outcome != 0:
                net += stake if outcome > 0 else -stake
                bank -= stake if outcome > 0 else -stake
                break
            a = act[seats[S_ST, k], up]
            if a < 0:
                return NO_ENTRY
            if a == 0:
                continue
            if a == 2:
                if pos >= ncards:
                    return EXHAUSTED
                c = deal(deck, pos, lazy, rng)
                pos += 1
                seats[S_PTS, k] += vals[c]
                seats[S_N, k] += 1
            seats[S_WAIT, k] = 1
            waiting += stake
            break
    if waiting > 0:
        bp = vals[up]
        bn = 1
        ba = 1 if up == ACE_I else 0
        while _dealer_draws(_hand_total(bp, bn, ba, two), False, False):
            if pos >= ncards:
                return EXHAUSTED
            c = deal(deck, pos, lazy, rng)
            pos += 1
            bp += vals[c]
            bn += 1
            ba += 1 if c == ACE_I else 0
        banker = _hand_total(bp, bn, ba, two)
        for k in range(nseats):
            if seats[S_WAIT, k]:
                stake = seats[S_STAKE, k]
                total = _hand_total(seats[S_PTS, k], seats[S_N, k], seats[S_ACES, k], two)
                _code, returned = _settle_hand(
                    stake, stake, total, False, False, False, True, banker, False, False, False, 0, False, 1, 1
                )
                net += returned - stake
                bank += _bank_move(stake, returned)
    bank2[0] = bank
    bank2[1] = 1 if _bank_closes(bank, stuk, P[P_MIN]) else 0
    res[0] = net
    res[1] = staked
    res[2] = pos
    return pos


@njit(cache=True, **NO_NRT)
def _rounds(rounds, deck, rng, nseats, P, vals, nxt, act, bank2, seats, res, out_i, out_f):
    """The loop of ``_run_chunk``, compiled without reference counting (it allocates nothing)."""
    for _ in range(rounds):
        r = _play_round(deck, True, rng, nseats, P, vals, nxt, act, bank2, seats, res)
        if r < 0:
            out_i[3] = r
            return
        out_i[0] += res[0]
        out_i[1] += res[1]
        out_i[2] += res[2]
        x = res[0] / res[1]
        out_f[0] += x
        out_f[1] += x * x


@njit(cache=True)
def _run_chunk(seed, rounds, base, nseats, P, vals, nxt, act, out_i, out_f):
    """``rounds`` lazily shuffled rounds from a fresh bank; out_i = [net, staked, cards, error],
    out_f = [sum of net / staked per round, sum of its square]."""
    rng = rng_seeded(seed)
    deck = base.copy()
    seats = np.zeros((6, nseats), np.int64)
    bank2 = np.zeros(2, np.int64)
    bank2[0] = P[P_OPEN]
    res = np.zeros(3, np.int64)
    _rounds(rounds, deck, rng, nseats, P, vals, nxt, act, bank2, seats, res, out_i, out_f)


@njit(cache=True, parallel=True)
def _run_chunks(seeds, counts, base, nseats, P, vals, nxt, act, out_i, out_f):
    for c in prange(seeds.shape[0]):
        _run_chunk(seeds[c], counts[c], base, nseats, P, vals, nxt, act, out_i[c], out_f[c])


@njit(cache=True)
def _play_shoes(shoes, nseats, P, vals, nxt, act, bank, nets, staked, used, banks):
    """One round on each row of ``shoes`` (fully shuffled), each from a bank of ``bank``."""
    seats = np.zeros((6, nseats), np.int64)
    bank2 = np.zeros(2, np.int64)
    res = np.zeros(3, np.int64)
    rng = np.zeros(4, np.uint64)  # (given shoes: never drawn from)
    for i in range(shoes.shape[0]):
        bank2[0] = bank
        bank2[1] = 0
        used[i] = _play_round(shoes[i], False, rng, nseats, P, vals, nxt, act, bank2, seats, res)
        nets[i] = res[0]
        staked[i] = res[1]
        banks[i] = bank2[0]


# -- Auto's table ---------------------------------------------------------------------------------


class Tables:
    """Every composition of 20 points or less, the next one after each card, Auto's choices."""

    def __init__(self, rules: OchkoRules):
        if rules.decks < 1:
            raise FastSimError("the fast path deals real decks: decks 0 (an infinite deck) is priced, not dealt")
        self.rules = rules
        a = of(rules)
        full = (PER_DECK * rules.decks,) * NV
        states: list[Comp] = [ZERO]
        index = {ZERO: 0}
        nxt: list[list[int]] = []
        i = 0
        while i < len(states):
            row = []
            for v in range(NV):
                c = plus(states[i], v)
                fits = c[v] <= full[v]
                if not fits or sum(n * p for n, p in zip(c, VALUES)) > 20:
                    row.append(-1)
                    continue
                if c not in index:
                    index[c] = len(states)
                    states.append(c)
                row.append(index[c])
            nxt.append(row)
            i += 1
        self.states = states
        self.nxt = np.array(nxt, np.int64)
        self.act = np.full((len(states), NV), -1, np.int64)
        for s, hand in enumerate(states):
            if sum(hand) < 2:
                continue
            total = comp_total(hand, a.two)
            options = ("hit", "stand", "dark") if ok.may_draw_dark(total, rules.dark_draw) else ("hit", "stand")
            for up in range(NV):
                if hand[up] + 1 <= full[up]:
                    self.act[s, up] = ACT_CODES[best(a.action_values(hand, up, rules.dark_draw), options)]
        self.P = np.array([rules.min_bet, rules.max_bet, int(rules.two_aces_21), rules.opening_bank], np.int64)
        self.base = np.array([VALUES.index(ok.points(c)) for c in new_shoe(rules.decks, RANKS)], np.int8)

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.P, V, self.nxt, self.act


@lru_cache(maxsize=8)
def tables(rules: OchkoRules) -> Tables:
    return Tables(rules)


# -- shoes for the check against the engine --------------------------------------------------------


def shuffled_shoes(rules: OchkoRules, count: int, seed: int) -> np.ndarray:
    """``count`` fully shuffled shoes of value indexes (rows), from numba's generator."""
    return shuffled(tables(rules).base, count, seed32("ochko-shoes", seed, 0))


def shoe_cards(values, decks: int) -> list[str]:
    """A shoe of value indexes as card codes: the k-th card of a value is that value's k-th
    card of the game's fresh shoe, so the result is a genuine order of the engine's shoe."""
    pools: dict[int, list[str]] = {}
    for c in new_shoe(decks, RANKS):
        pools.setdefault(VALUES.index(ok.points(c)), []).append(c)
    taken = dict.fromkeys(pools, 0)
    out = []
    for v in values:
        v = int(v)
        out.append(pools[v][taken[v]])
        taken[v] += 1
    return out


def play_shoes(rules: OchkoRules, shoes: np.ndarray, seats: int, bank: int) -> dict[str, np.ndarray]:
    """One round on each shoe, each from a bank of ``bank``: the net of all seats, the stakes,
    the cards used and the bank after, per round."""
    t = tables(rules)
    shoes = np.ascontiguousarray(shoes, dtype=np.int8)
    n = shoes.shape[0]
    out = {k: np.zeros(n, np.int64) for k in ("net", "staked", "used", "bank")}
    _play_shoes(shoes, seats, *t.arrays, bank, out["net"], out["staked"], out["used"], out["bank"])
    _raise_for(int(out["used"].min()) if n else 0, rules)
    return out


def _raise_for(code: int, rules: OchkoRules) -> None:
    if code == EXHAUSTED:
        raise ShoeExhausted(f"a shoe of {rules.decks} deck(s) ran out during a round")
    if code == NO_ENTRY:
        raise FastSimError("Auto's table has no entry for a hand the kernel met (a bug)")


# -- the simulator ----------------------------------------------------------------------------------


def fast_simulate(
    rules: OchkoRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``sim.simulate`` compiled: the same Tally (returned over staked), from the kernels' generator
    seeded per chunk (not the engine simulator's shoes, which come from ``random``)."""
    if seats < 1:
        raise FastSimError(f"a round needs at least one seat, not {seats}")
    t = tables(rules)
    threads, counts_a, seeds = chunk_plan("ochko", rounds, seed, workers)
    counts = list(counts_a)
    out_i = np.zeros((len(counts), 4), np.int64)
    out_f = np.zeros((len(counts), 2), np.float64)
    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    batch = threads * 4
    try:
        for b0 in range(0, len(counts), batch):
            sl = slice(b0, b0 + batch)
            _run_chunks(seeds[sl], counts_a[sl], t.base, seats, *t.arrays, out_i[sl], out_f[sl])
            _raise_for(int(out_i[sl, 3].min()), rules)
            if progress:
                progress(int(counts_a[: b0 + batch].sum()), rounds)
    finally:
        numba.set_num_threads(previous)
    return Tally(rounds=rounds, bet=int(out_i[:, 1].sum()), net=int(out_i[:, 0].sum()),
                 sum_x=float(out_f[:, 0].sum()), sum_xx=float(out_f[:, 1].sum()))
