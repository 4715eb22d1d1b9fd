"""The compiled fast path of the simulator (optional: ``pip install cabinet[fast]``, i.e. numba).

Owns: ``fast_simulate`` (the same ``Tally`` as ``blackjack.simulate.simulate``, millions of
rounds a second), Auto's decision tables for the kernel that plays a round of the blackjack
family for one or more seats betting the minimum with Auto's choices (``blackjack.fastkernel``),
the shoes of the round-for-round check, and the runs over threads or a cluster. Keeps no
strategy of its own: every choice the kernel makes is read from a table filled from
``machine.gamemath.blackjack.auto`` (the same calls ``auto_action`` makes), and the kernel is checked round
for round against ``machine.games.blackjack.round.Round`` on the same shoes (``tests/test_fastsim.py``), so the
engine stays the single source of truth of the rules. Nor does it write a rule of its own: the
hand total, the natural, three sevens, the dealer's draw, the peek and the settlement table are
the functions of ``machine.games.blackjack.scoring``, compiled here (``inline_kernel``) as the engine and the
analysis call them plain.

Theory of operation
-------------------
* **Cards** are their values 1..10 (the engine looks at nothing else: a ten, jack, queen and
  king are alike, the ace is the rank A, the three-sevens bonus asks for the value 7); a
  Spanish deck simply holds fewer cards of value 10. ``shoe_cards`` turns a shoe of values back
  into a genuine order of the engine's card codes.
* **A hand** is kept as its composition's number in a trie of every composition of hard total
  21 or less (``next_state[s, v - 1]`` is the composition after drawing ``v``; -1 once the hand
  is bust), its hard total, whether it holds an ace, its card count, its stake and its flags
  (from a split, split aces, aces hard after a double, surrendered, charlie, done).
* **Auto's choices** are a function of exactly what ``auto_action`` reads: the hand's cards,
  the up card, from-split, split-aces, whether a split hand is the seat's first (only under
  rules that value it apart: ``no_hole_card_loses: original`` without a hole card) and the
  options the engine offers. The options are a 5-bit mask (hit, stand, double, split,
  surrender, as ``PLAY_ACTIONS``), so the play table is ``play[state, up - 1, kind, mask]`` ->
  the index of the action in ``PLAY_ACTIONS``, with kind = 2 * from_split + split_aces, plus 2
  for a first split hand valued apart (``_kind``); insurance is ``insure[state]`` (up card an
  ace) and early surrender
  ``early[state, up - 1]``. Before the first round, a compiled walk lists every key the engine
  can ask about (every composition, up card, split state, splits-and-doubles used and number of
  hands), and each is answered in Python by the exact analysis. A key that is still unknown when
  the kernel meets it (-1) is not guessed: the round is marked as a miss, the key is answered
  in Python and the whole chunk is played again (its seed makes it the same chunk), so a
  figure never depends on a missing entry. The answers of that walk are kept in the cache
  folder per rule set (``tablecache``, kind ``fast-blackjack``), so a new process reads them
  back instead of asking the analysis again.
* **Shoes**: the kernels' shared generator (``machine.gamemath.kernels``: xoshiro256**; a
  uniform pick by Lemire's exact multiply-and-shift), seeded per chunk inside the compiled code (a chunk plays
  the same rounds whatever the number of threads). Each round is a fresh shuffle, drawn lazily: the
  k-th card is a uniform pick among the cards not yet dealt (Fisher-Yates run from the front only
  as far as the round needs), which is the same distribution as dealing from a full shuffle.
  ``play_shoes`` plays given, fully shuffled shoes instead (the check against the engine).
* **Threads**: chunks run in a ``prange`` loop; ``workers`` sets numba's thread count.
* **A cluster** (``fast_run(..., cluster=)``, ``machine.gamemath.cluster``): the same chunk plan,
  ``CLUSTER_CHUNKS`` chunks a task, each worker playing its chunks one after another on one
  thread (``_play_batch``); the chunks' integer sums make the same figure as the threads'.
* **What it plays**: what ``blackjack.simulate.play_chunk`` plays: every seat bets ``min_bet`` with funds
  enough for every offer, Auto answers everything. Every rule setting of ``Rules`` is played
  (surrender late or early, five-card charlie included) except ``decks: 0`` (the infinite deck
  is the analysis's; the engine deals from a real shoe too).
* **Speed**: ``cabinet bench fastsim`` (compile time, tables time and rounds per second on one
  thread and on every core).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from machine.gamemath import tablecache
from machine.gamemath.blackjack.fastkernel import (
    EXHAUSTED,
    KINDS,
    MAX_HANDS,
    MAX_MISSES,
    MISS,
    NO_LIMIT,
    NP,
    P_BET,
    P_BJDEN,
    P_BJNUM,
    P_BONUSDEN,
    P_BONUSNUM,
    P_CHARLIE,
    P_DAS,
    P_DHARD,
    P_DMAH,
    P_DSOFT,
    P_FIRST_APART,
    P_H17,
    P_HOLE,
    P_INSAMT,
    P_INSDEN,
    P_INSNUM,
    P_LIMIT,
    P_MAXH,
    P_ORIGINAL,
    P_P21,
    P_RESPLIT,
    P_SA1,
    P_SURR,
    P_TIES,
    SURR_EARLY,
    SURR_LATE,
    SURR_NONE,
    askable,
    play_given_shoes,
    run_chunk,
    run_chunks,
)
from machine.gamemath.kernels import FAST_CHUNK, FastSimError, chunk_plan, lazy_deals, seed32, shuffled
from machine.gamemath.simulate import Tally
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.checks import PLAY_ACTIONS
from machine.games.blackjack.rules import Rules, totals_mask
from machine.games.cards import RANKS, deck_ranks, new_shoe, value
from machine.games.interface import ShoeExhausted

if TYPE_CHECKING:
    from machine.gamemath.cluster import Cluster

__all__ = ["FAST_CHUNK", "FastRun", "FastSimError", "Tables", "chunk_plan", "fast_run", "fast_simulate", "play_shoes",
           "rule_params", "shoe_cards", "shuffled_shoes", "tables"]

# -- the tables, filled from the exact analysis --------------------------------------------------------


def _check_rules(rules: Rules) -> None:
    if rules.decks < 1:
        raise FastSimError(f"the fast path deals from a real shoe: decks must be 1-8, not {rules.decks}")
    if rules.max_hands > MAX_HANDS:
        raise FastSimError(f"max_hands above {MAX_HANDS} is not supported")


def _double_mask(rules: Rules, soft: bool) -> int:
    """The totals a two-card hand may double on, as a bit mask (the rules' own answer)."""
    return totals_mask(frozenset(t for t in range(32) if rules.may_double_total(t, soft)))


def rule_params(rules: Rules) -> np.ndarray:
    """The settings as the kernel reads them (seats bet ``min_bet``, funds unlimited)."""
    from machine.gamemath.blackjack.table import first_hand_apart

    _check_rules(rules)
    bet = rules.min_bet
    ins_amt = bet // 2
    P = np.zeros(NP, np.int64)
    P[P_HOLE] = rules.hole_card
    P[P_H17] = rules.dealer_hits_soft_17
    P[P_DAS] = rules.double_after_split
    P[P_DMAH] = rules.double_makes_aces_hard
    P[P_LIMIT] = NO_LIMIT if rules.max_splits_and_doubles is None else rules.max_splits_and_doubles
    P[P_MAXH] = rules.max_hands
    P[P_SA1] = rules.split_aces_one_card
    P[P_RESPLIT] = rules.resplit_aces
    P[P_SURR] = {"none": SURR_NONE, "late": SURR_LATE, "early": SURR_EARLY}[rules.surrender]
    P[P_CHARLIE] = rules.five_card_charlie
    P[P_BET] = bet
    P[P_BJNUM], P[P_BJDEN] = rules.blackjack_pays.numerator, rules.blackjack_pays.denominator
    P[P_INSAMT] = ins_amt
    P[P_INSNUM], P[P_INSDEN] = rules.insurance_pays.numerator, rules.insurance_pays.denominator
    P[P_BONUSNUM], P[P_BONUSDEN] = rules.three_sevens_bonus.numerator, rules.three_sevens_bonus.denominator
    P[P_DHARD] = _double_mask(rules, False)
    P[P_DSOFT] = _double_mask(rules, True)
    P[P_ORIGINAL] = rules.no_hole_card_loses == "original"
    P[P_TIES] = totals_mask(rules.dealer_wins_ties)
    P[P_P21] = rules.player_21_wins
    P[P_FIRST_APART] = first_hand_apart(rules)
    return P


def auto_play_choice(
    rules: Rules, cards: list[int], up: int, options: tuple[str, ...], from_split: bool, split_aces: bool,
    first_hand: bool = True,
) -> str:
    """Auto's answer to a play decision: the very function ``auto.auto_action`` uses."""
    from machine.gamemath.blackjack.auto import play_choice

    return play_choice(rules, cards, up, options, from_split, split_aces, first_hand)


class Tables:
    """Auto's decision tables for one rule set, and the kernel's view of the rules."""

    def __init__(self, rules: Rules, prefill: bool = True):
        from machine.gamemath.blackjack.shoe import hands_up_to, shoe_of

        _check_rules(rules)
        self.rules = rules
        self.P = rule_params(rules)
        full = list(shoe_of(rules).full)
        self.full = full
        comps = list(hands_up_to(tuple(full), 21, 0))
        index = {c: i for i, c in enumerate(comps)}
        ns = len(comps)
        self.comps = comps
        self.nxt = np.full((ns, 10), -1, np.int32)
        self.st_hard = np.zeros(ns, np.int64)
        self.st_ace = np.zeros(ns, np.int64)
        self.st_n = np.zeros(ns, np.int64)
        fits = np.zeros((ns, 11), np.bool_)
        for i, c in enumerate(comps):
            self.st_hard[i] = sum(k * (v + 1) for v, k in enumerate(c))
            self.st_ace[i] = c[0] > 0
            self.st_n[i] = sum(c)
            for v in range(10):
                d = list(c)
                d[v] += 1
                j = index.get(tuple(d))
                if j is not None:
                    self.nxt[i, v] = j
                fits[i, v] = c[v] + 1 <= full[v]  # the hand and this up card come out of the shoe
            fits[i, 10] = sum(c) == 2 and max(c) == 2
        self.fits = fits
        self.zero = index[(0,) * 10]
        self.play = np.full((ns, 10, KINDS, 32), -1, np.int8)
        self.insure = np.full(ns, -1, np.int8)
        self.early = np.full((ns, 10), -1, np.int8)
        self.filled = 0
        if prefill:
            self.prefill()

    @property
    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.P, self.nxt, self.play, self.insure, self.early

    def cards(self, state: int) -> list[int]:
        return [v + 1 for v, k in enumerate(self.comps[state]) for _ in range(k)]

    def prefill(self) -> None:
        """Answer every key the engine can ask (``askable``), insurance and early surrender."""
        from machine.gamemath.blackjack.auto import prepare

        prepare(self.rules)
        need = np.zeros(self.play.shape, np.bool_)
        askable(self.P, self.st_hard, self.st_ace, self.st_n, self.fits, need)
        need &= self.play < 0
        for st, u, fsa, mask in np.argwhere(need):
            self.fill_play(int(st), int(u), int(fsa), int(mask))
        for st in np.flatnonzero(self.st_n == 2):
            self.fill_insure(int(st))
            for u in range(10):
                if self.fits[st, u]:
                    self.fill_early(int(st), u)

    def fill_play(self, st: int, u: int, fsa: int, mask: int) -> None:
        """Answer a play key; ``fsa`` is the kind (``_kind``): 2 * from_split + split_aces, + 2
        for a first split hand valued apart (kinds 4 and 5), where 2 and 3 are the other hands."""
        options = tuple(a for i, a in enumerate(PLAY_ACTIONS) if mask >> i & 1)
        from_split, split_aces = fsa >= 2, fsa % 2 == 1
        first = fsa >= 4 or not (from_split and self.P[P_FIRST_APART])
        choice = auto_play_choice(self.rules, self.cards(st), u + 1, options, from_split, split_aces, first)
        self.play[st, u, fsa, mask] = PLAY_ACTIONS.index(choice)
        self.filled += 1

    def fill_insure(self, st: int) -> None:
        from machine.gamemath.blackjack.auto import insurance_value

        if self.fits[st, 0]:
            self.insure[st] = insurance_value(self.rules, self.cards(st), 1) > 0

    def fill_early(self, st: int, u: int) -> None:
        from machine.gamemath.blackjack.auto import first_choice

        if self.rules.surrender == "early" and bj.dealer_peeks(self.rules.hole_card, u + 1):
            c = self.cards(st)
            natural = bj.is_natural(len(c), sum(c), 1 in c)
            self.early[st, u] = (not natural) and first_choice(self.rules, c, u + 1)[0] == "surrender"
        else:
            self.early[st, u] = 0

    def fill(self, key: tuple[int, int, int, int]) -> None:
        """Answer a key the kernel met unanswered (see MISS in ``_play_round``)."""
        st, u, fsa, mask = key
        if st < 0:
            raise FastSimError(f"the fast path met a hand it has no composition for: {key}")
        if fsa < 0:
            if mask == 0:
                self.fill_insure(st)
                if self.insure[st] < 0:
                    raise FastSimError(f"no insurance answer for state {key}")
            else:
                self.fill_early(st, u)
        else:
            self.fill_play(st, u, fsa, mask)

    def base(self) -> np.ndarray:
        """The shoe's card values, unshuffled."""
        return np.array([value(c) for c in new_shoe(self.rules.decks, deck_ranks(self.rules.spanish_deck))], np.int8)


    # -- kept on disk (tablecache): the answers prefill computed, a few seconds a rule set ----------

    def saved(self) -> dict[str, tablecache.Table]:
        """The answered keys, as ``tablecache`` tables: play, insurance and early surrender."""
        out: dict[str, tablecache.Table] = {}
        for name, a in (("play", self.play), ("insure", self.insure), ("early", self.early)):
            out[name] = {tuple(int(x) for x in k): (float(a[tuple(k)]),) for k in np.argwhere(a >= 0)}
        return out

    def restore(self, saved: dict[str, tablecache.Table]) -> bool:
        """Answer the keys of ``saved`` (a file read back); False, nothing changed, when it does
        not fit these tables (then they are computed)."""
        arrays = {"play": self.play, "insure": self.insure, "early": self.early}
        top = {"play": len(PLAY_ACTIONS), "insure": 2, "early": 2}
        got = {}
        for name, a in arrays.items():
            table = saved.get(name)
            if table is None:
                return False
            keys = np.array(list(table), np.int64).reshape(len(table), a.ndim)
            vals = np.array([v[0] for v in table.values()], np.float64) if table else np.zeros(0)
            if ((keys < 0) | (keys >= np.array(a.shape))).any() or ((vals < 0) | (vals >= top[name])).any() \
                    or (vals != np.round(vals)).any():
                return False
            got[name] = (keys, vals)
        for name, (keys, vals) in got.items():
            arrays[name][tuple(keys.T)] = vals.astype(np.int8)
        self.filled = len(got["play"][1])
        return True


FAST_TABLES = "fast-blackjack"  # the fast path's answers' kind in tablecache

_tables_cache: dict[Rules, Tables] = {}
_tables_lock = threading.Lock()


def tables(rules: Rules) -> Tables:
    """The tables of a rule set: kept in this process, and their answers in the cache folder
    (``tablecache``: read back in a fraction of a second; computed and written when absent)."""
    with _tables_lock:
        t = _tables_cache.get(rules)
        if t is None:
            t = Tables(rules, prefill=False)
            key = tablecache.rules_key(FAST_TABLES, rules.to_dict())
            saved = tablecache.load(FAST_TABLES, key)
            if saved is None or not t.restore(saved):
                t.prefill()
                tablecache.save(FAST_TABLES, key, t.saved())
            _tables_cache[rules] = t
        return t


# -- shoes for the engine -----------------------------------------------------------------------------


def shuffled_shoes(rules: Rules, count: int, seed: int) -> np.ndarray:
    """``count`` fully shuffled shoes of card values (rows), from numba's generator."""
    _check_rules(rules)
    base = np.array([value(c) for c in new_shoe(rules.decks, deck_ranks(rules.spanish_deck))], np.int8)
    return shuffled(base, count, seed32("shoes", seed, 0))


def shoe_cards(values, decks: int, ranks: str = RANKS) -> list[str]:
    """A shoe of values as engine card codes: the k-th card of a value is that value's k-th card
    of ``new_shoe(decks, ranks)``, so the result is a genuine order of the engine's shoe."""
    pools: dict[int, list[str]] = {}
    for c in new_shoe(decks, ranks):
        pools.setdefault(value(c), []).append(c)
    taken = dict.fromkeys(pools, 0)
    out = []
    for v in values:
        v = int(v)
        out.append(pools[v][taken[v]])
        taken[v] += 1
    return out



def play_shoes(rules: Rules, shoes: np.ndarray, seats: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Play one round on each shoe (rows of values) with the fast path.

    Returns (net per round and seat, cards used per round). Unknown keys are answered and the
    shoe played again; a shoe that runs out raises ``ShoeExhausted`` as the engine would.
    """
    t = tables(rules)
    shoes = np.ascontiguousarray(shoes, dtype=np.int8)
    count = shoes.shape[0]
    nets = np.zeros((count, seats), np.int64)
    used = np.zeros(count, np.int64)
    todo = np.arange(count)
    while len(todo):
        sub_nets = np.zeros((len(todo), seats), np.int64)
        sub_used = np.zeros(len(todo), np.int64)
        sub_miss = np.zeros((len(todo), 4), np.int64)
        play_given_shoes(shoes[todo], seats, *t.arrays, sub_nets, sub_used, sub_miss)
        nets[todo], used[todo] = sub_nets, sub_used
        if (sub_used == EXHAUSTED).any():
            raise ShoeExhausted("the shoe ran out of cards")
        missed = sub_used == MISS
        for row in {(int(a), int(b), int(c), int(d)) for a, b, c, d in sub_miss[missed]}:
            t.fill(row)
        todo = todo[missed]
    return nets, used


# -- the simulator ---------------------------------------------------------------------------------------



@dataclass
class FastRun:
    """A fast-path run: the tally and what was measured beside it."""

    tally: Tally
    cards: int  # cards dealt in all
    seconds: float  # the compiled loop only
    tables_seconds: float  # Auto's tables from the exact analysis (0 when already built)
    compile_seconds: float  # compiling or loading the kernels (0 when already done)
    threads: int
    replays: int  # chunks played again after an unknown table key was answered

    @property
    def rounds_per_second(self) -> float:
        return self.tally.rounds / self.seconds if self.seconds else float("inf")


def fast_simulate(
    rules: Rules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None, cluster: Cluster | None = None,
) -> Tally:
    """``simulate.simulate`` on the compiled fast path: the same Tally, Auto's play, minimum bets.

    ``workers`` threads (default: every core numba may use). The rounds come from the kernels'
    generator seeded per chunk of ``FAST_CHUNK`` rounds, so a seed gives the same figure on any
    number of workers (not the engine simulator's figure: its shoes come from ``random``), and
    the same on a ``cluster``'s workers.
    """
    return fast_run(rules, rounds, seed, workers, seats=seats, progress=progress, cluster=cluster).tally


def _play_batch(
    rules: Rules, t: Tables, seeds: np.ndarray, counts: np.ndarray, seats: int, parallel: bool,
) -> tuple[np.ndarray, float, int]:
    """Play the chunks ``seeds``/``counts``: each chunk's row (net sum, net squared sum, cards,
    misses, exhausted), the compiled loop's seconds and the chunks played again. A key the tables
    did not know is answered from the analysis and its chunk played again (its seed makes it the
    same chunk). ``parallel``: a ``prange`` over the chunks on numba's current threads; else one
    chunk after another on this thread (a cluster worker's task)."""
    base = t.base()
    out = np.zeros((len(seeds), 5), np.int64)
    idx = np.arange(len(seeds))
    seconds = 0.0
    replays = 0
    while len(idx):
        o = np.zeros((len(idx), 5), np.int64)
        m = np.zeros((len(idx), MAX_MISSES, 4), np.int64)
        s = time.perf_counter()
        if parallel:
            run_chunks(seeds[idx], counts[idx], base, seats, *t.arrays, o, m)
        else:
            for k, c in enumerate(idx):
                run_chunk(seeds[c], counts[c], base, seats, *t.arrays, o[k], m[k])
        seconds += time.perf_counter() - s
        out[idx] = o
        if o[:, 4].any():
            raise ShoeExhausted(f"a shoe of {rules.decks} deck(s) ran out during a round")
        again = o[:, 3] > 0
        if not again.any():
            break
        # Unknown keys: answer them from the analysis, then play those chunks again.
        replays += int(again.sum())
        for i in np.flatnonzero(again):
            for row in m[i, : min(int(o[i, 3]), MAX_MISSES)]:
                t.fill((int(row[0]), int(row[1]), int(row[2]), int(row[3])))
        idx = idx[again]
    return out, seconds, replays


CLUSTER_CHUNKS = 20
"""Chunks of a plan in one cluster task (a million rounds: a fraction of a second a task)."""


def prepare_worker(rules: Rules) -> None:
    """Compile the kernels and build the tables of ``rules`` in this process (``Cluster.warm``)."""
    ensure_compiled()
    tables(rules)


def _planned_job(job: tuple[Rules, int, np.ndarray, np.ndarray]) -> np.ndarray:
    """A cluster task: chunks of a plan (their seeds and rounds), played on one thread here."""
    rules, seats, seeds, counts = job
    prepare_worker(rules)
    return _play_batch(rules, tables(rules), seeds, counts, seats, parallel=False)[0]


_compiled = False


def ensure_compiled() -> float:
    """Compile (or load from numba's cache) every kernel once; the seconds it took (0 after)."""
    global _compiled
    if _compiled:
        return 0.0
    seconds = compile_all()
    _compiled = True
    return seconds


def fast_run(
    rules: Rules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None, cluster: Cluster | None = None,
) -> FastRun:
    """``fast_simulate`` with its timings: compile, tables and the compiled loop apart.

    With ``cluster`` (``machine.gamemath.cluster``) the same chunk plan is played by the
    cluster's workers, ``CLUSTER_CHUNKS`` chunks a task; ``seconds`` is then the whole run's wall
    time (the workers' own compile and tables included unless ``cluster.warm`` ran first)."""
    if seats < 1:
        raise FastSimError(f"a round needs at least one seat, not {seats}")
    _check_rules(rules)
    threads, counts_a, seeds = chunk_plan("fast", rounds, seed, workers)
    nchunks = len(counts_a)
    out = np.zeros((nchunks, 5), np.int64)
    replays = 0
    seconds = compile_seconds = tables_seconds = 0.0
    if cluster is not None:  # the kernels and the tables are the workers' (prepare_worker)
        # Each worker plays its share of the plan on one thread; the chunks' integer sums are
        # added whatever their order, so the figure is the one of any number of threads here.
        threads = cluster.size
        groups = [slice(g, min(nchunks, g + CLUSTER_CHUNKS)) for g in range(0, nchunks, CLUSTER_CHUNKS)]
        jobs = [(rules, seats, seeds[g], counts_a[g]) for g in groups]
        s = time.perf_counter()
        done = 0
        for g, rows in zip(groups, cluster.map(_planned_job, jobs)):
            out[g] = rows
            done += int(counts_a[g].sum())
            if progress:
                progress(done, rounds)
        seconds = time.perf_counter() - s
    else:
        compile_seconds = ensure_compiled()
        t0 = time.perf_counter()
        known = rules in _tables_cache
        t = tables(rules)
        tables_seconds = 0.0 if known else time.perf_counter() - t0
        batch = threads * 4
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            done = 0
            for b0 in range(0, nchunks, batch):
                idx = np.arange(b0, min(nchunks, b0 + batch))
                rows, sec, again = _play_batch(rules, t, seeds[idx], counts_a[idx], seats, parallel=True)
                out[idx] = rows
                seconds += sec
                replays += again
                done += int(counts_a[idx].sum())
                if progress:
                    progress(done, rounds)
        finally:
            numba.set_num_threads(previous)
    bet = rules.min_bet * seats
    s1 = int(out[:, 0].sum())
    s2 = int(out[:, 1].sum())
    tally = Tally(rounds=rounds, bet=bet * rounds, net=s1, sum_x=s1 / bet, sum_xx=s2 / (bet * bet))
    return FastRun(tally, int(out[:, 2].sum()), seconds, tables_seconds, compile_seconds, threads, replays)


def compile_all() -> float:
    """Compile (or load from numba's cache) every kernel; returns the seconds it took."""
    s = time.perf_counter()
    t = Tables(Rules(decks=1), prefill=False)
    base = t.base()
    out = np.zeros((1, 5), np.int64)
    m = np.zeros((1, MAX_MISSES, 4), np.int64)
    run_chunks(np.array([1], np.int64), np.array([1], np.int64), base, 1, *t.arrays, out, m)
    shoes = shuffled(base, 1, 1)
    play_given_shoes(shoes, 1, *t.arrays, np.zeros((1, 1), np.int64), np.zeros(1, np.int64), np.zeros((1, 4), np.int64))
    lazy_deals(base, 2, 1, 1)
    askable(t.P, t.st_hard, t.st_ace, t.st_n, t.fits, np.zeros(t.play.shape, np.bool_))
    return time.perf_counter() - s

