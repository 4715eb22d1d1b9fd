"""The exact analysis of the blackjack family, compiled (optional: numba, the ``fast`` extra).

Owns: ``FastTable`` (one up card's dealer outcomes for every hand the player can hold, and
the numbers the kernels read) and ``FastPlay`` (the values of ``table.Play``: the optimal
play, Auto's policy or a chart's, from the hand's own cards or with pair cards also out), and
the kernels behind them (``exact_kernels``, compiled by numba's jit, or ahead of time into a
module that needs no numba: ``exact_aot``). ``table.UpTable`` uses them when either is there and
falls back to its own pure-Python ``Play`` otherwise (or with ``CABINET_EXACT=python``); the split
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
  the up cards to one thread per core; each up card is computed alone (the same bits). What
  runs under the lock is kept short, as it is the part the threads cannot share: the hand
  arrays are built a column at a time, the split plays' arrays with pair cards out are handed
  from one table to the next (``_spare``), Python's garbage collector is paused meanwhile
  (``game.collector_paused``) and OpenBLAS starts no threads of its own (``blas``).
"""

from __future__ import annotations

import math
import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from machine.gamemath import blas  # noqa: F401 - before numpy is imported (see blas)

# isort: split
import numpy as np

from machine.gamemath.blackjack import dealer, exact_aot
from machine.gamemath.blackjack.choices import ACTION_ORDER, best_of_values, doubles_to_sevens_bonus, stands_on_sevens_bonus
from machine.gamemath.blackjack.exact_layout import CARDS, CHILD, TDOUBLE, TOTAL
from machine.gamemath.blackjack.shoe import CARD_HARD, Comp, hands_up_to, merge, total_of

if TYPE_CHECKING:
    from machine.gamemath.blackjack.table import Policy, UpTable

ACTIONS = ACTION_ORDER[:3]  # the play actions: stand, hit, double

# The kernels: the ahead-of-time module's when it is built from the current source (no numba
# in the process), else numba's jit of the same source (ImportError without numba: the tables
# fall back to the pure-Python play). KERNELS says which ("aot" or "jit").
dealer_dists, play_values, KERNELS = exact_aot.kernels()

# -- the tables and plays ---------------------------------------------------------------------


def forget() -> None:
    """Clear what this module remembers across tables (for a benchmark that times from nothing)."""
    _falls.cache_clear()
    _hand_arrays.cache_clear()
    release()


@lru_cache(maxsize=16)
def _falls(top: int, deep: int) -> np.ndarray:
    """fall(x, d) = x (x - 1) ... (x - d + 1) for x up to ``top`` and d below ``deep``."""
    out = np.ones((top + 1, deep))
    for d in range(1, deep):
        for x in range(top + 1):
            out[x, d] = float(math.prod(range(x - d + 1, x + 1))) if x >= d else 0.0
    return out


_ARRAYS = threading.Lock()


@lru_cache(maxsize=8)
def _hand_arrays(
    limit: Comp | None, hard_aces: bool, bonus: float
) -> tuple[list[Comp], dict[Comp, int], np.ndarray, np.ndarray, np.ndarray]:
    """Every hand within ``limit`` (None: any), its number, and the kernels' arrays of them:
    ``H`` (total, cards, total once doubled, the hand after drawing each value), ``C`` (the
    compositions) and ``F`` (the three-sevens bonus on standing and on doubling, as a split
    hand or not). The same for every up card the limit does not bind.

    Built a column at a time: the totals are looked up by (hard total, an ace or not) in a
    table of ``shoe.total_of``'s answers, and a hand's children are found by a number for each
    composition (its counts as digits; ``hands_up_to`` lists the hands in increasing order
    of it, so a sorted search finds them)."""
    hands = list(hands_up_to(limit))
    index = dict(zip(hands, range(len(hands))))
    n = len(hands)
    C = np.array(hands, np.int64).reshape(n, 10)
    hard = C @ np.array(CARD_HARD, np.int64)
    ace = (C[:, 0] > 0).astype(np.int64)
    top = int(hard.max(initial=0)) + 1
    H = np.full((n, CHILD + 10), -1, np.int64)
    for col, aces_hard in ((TOTAL, False), (TDOUBLE, hard_aces)):
        by = np.array([[total_of(h, bool(a), aces_hard)[0] for a in (0, 1)] for h in range(top)], np.int64)
        H[:, col] = by[hard, ace]
    H[:, CARDS] = C.sum(axis=1)
    base = 22  # more than any count: no hand holds 22 cards
    digit = base ** np.arange(9, -1, -1, dtype=np.int64)  # the ace's count the first digit
    code = C @ digit
    for v in range(10):
        child = code + digit[v]
        at = np.minimum(np.searchsorted(code, child), max(n - 1, 0))
        H[:, CHILD + v] = np.where(code[at] == child, at, -1) if n else -1
    F = np.zeros((n, 4))
    if bonus:  # (no bonus: no hand earns it)
        for i, h in enumerate(hands):
            for s in (0, 1):
                F[i, s] = stands_on_sevens_bonus(bonus, h, bool(s))
                F[i, 2 + s] = doubles_to_sevens_bonus(bonus, h, bool(s))
    return hands, index, H, C, F


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
        with _ARRAYS:  # (threads building the up cards' tables at once make them once)
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
        """The arrays of hands with up to ``e`` cards of value index ``pair`` out (a row of
        ``dist`` is only read once ``have`` says it is computed)."""
        arrays = self.pairs.get(pair)
        if arrays is None or arrays[0].shape[0] <= e:
            size = max(e + 1, 2 * self.max_hands)  # the most a split of max_hands hands removes
            dist, have = _spare((size, self.n, 7))
            if arrays is not None:
                dist[: arrays[0].shape[0]] = arrays[0]
                have[: arrays[1].shape[0]] = arrays[1]
            arrays = self.pairs[pair] = (dist, have)
        return arrays

    def trim(self) -> None:
        """Forget the dealer's outcomes with pair cards out (the split plays'); their arrays
        are kept for the next table's (``release`` frees them)."""
        with self.t.lock, _SPARE_LOCK:  # (no play of this table is filling them: see FastPlay._run)
            for dist, have in self.pairs.values():
                kept = _SPARES.setdefault(dist.shape, [])
                if len(kept) < SPARES:
                    kept.append((dist, have))
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

    def know_hits(self, policy: Policy, hits: np.ndarray) -> None:
        """Take ``hits`` as ``policy_hits(policy)`` (from a caller that has them as arrays at
        once, a chart's column: ``chartarrays.chart_hits``), instead of asking every hand."""
        self._policies[id(policy)] = (policy, hits)


# Arrays of the dealer's outcomes with pair cards out, left by a table's split plays for the next
# table's (a megabyte each for six decks: fresh ones cost a page fault per 4 KB written).
_SPARES: dict[tuple[int, ...], list[tuple[np.ndarray, np.ndarray]]] = {}
SPARES = 20  # kept at most, of one shape: a table's pair cards for each of two threads
_SPARE_LOCK = threading.Lock()


def _spare(shape: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Arrays (dist, have) of ``shape`` for ``FastTable.with_pairs``: ``have`` all 0, ``dist``
    anything (a spare one when there is one)."""
    with _SPARE_LOCK:
        kept = _SPARES.get(shape)
        if kept:
            dist, have = kept.pop()
            have.fill(0)
            return dist, have
    return np.empty(shape), np.zeros(shape[:2], np.int8)


def release() -> None:
    """Free the spare arrays (``FastTable.trim``): ``game.Analysis.compute_all`` does when done."""
    with _SPARE_LOCK:
        _SPARES.clear()


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
        two = np.flatnonzero(self.ft.H[:, CARDS] == 2).astype(np.int64)
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

    def values(self, hands: list[tuple[Comp, str]], split: bool) -> list[float]:
        """``value`` of each (hand, action), the action stand, hit or double: the kernel called
        once (a chart's first decisions on every first deal against the up card)."""
        xs = np.array([self.ft.index[h] for h, _ in hands], np.int64)
        what = np.array([ACTIONS.index(a) for _, a in hands], np.int64)
        out = self._run(xs, np.full(len(hands), int(split), np.int64), what)
        return [float(v) for v in out]
