"""The compiled fast path of the simulator (optional: ``pip install cabinet[fast]``, i.e. numba).

Owns: ``fast_simulate`` (the same ``Tally`` as ``machine.gamemath.simulate.simulate``, millions of rounds
a second), the numba kernel that plays a round of the blackjack family for one or more seats
betting the minimum with Auto's choices, and Auto's decision tables for that kernel. Keeps no
strategy of its own: every choice the kernel makes is read from a table filled from
``machine.gamemath.auto`` (the same calls ``auto_action`` makes), and the kernel is checked round
for round against ``machine.games.round.Round`` on the same shoes (``tests/test_fastsim.py``), so the
engine stays the single source of truth of the rules. Nor does it write a rule of its own: the
hand total, the natural, three sevens, the dealer's draw, the peek and the settlement table are
the functions of ``machine.games.blackjack_rules``, compiled here (``inline_kernel``) as the engine and the
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
* **Shoes**: the kernel's own generator (xoshiro256**, ``_next64``; a uniform pick by Lemire's
  exact multiply-and-shift, ``_below``), seeded per chunk inside the compiled code (a chunk plays
  the same rounds whatever the number of threads). Each round is a fresh shuffle, drawn lazily: the
  k-th card is a uniform pick among the cards not yet dealt (Fisher-Yates run from the front only
  as far as the round needs), which is the same distribution as dealing from a full shuffle.
  ``play_shoes`` plays given, fully shuffled shoes instead (the check against the engine).
* **Threads**: chunks run in a ``prange`` loop; ``workers`` sets numba's thread count.
* **A cluster** (``fast_run(..., cluster=)``, ``machine.gamemath.cluster``): the same chunk plan,
  ``CLUSTER_CHUNKS`` chunks a task, each worker playing its chunks one after another on one
  thread (``_play_batch``); the chunks' integer sums make the same figure as the threads'.
* **What it plays**: what ``simulate.play_chunk`` plays: every seat bets ``min_bet`` with funds
  enough for every offer, Auto answers everything. Every rule setting of ``Rules`` is played
  (surrender late or early, five-card charlie included) except ``decks: 0`` (the infinite deck
  is the analysis's; the engine deals from a real shoe too).
* **Speed**: run ``python -m machine.gamemath.fastsim`` (compile time, tables time and rounds per second on
  one thread and on every core).
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

try:
    import numba
    import numpy as np
    from numba import njit, prange
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the fast simulator needs numba: pip install 'cabinet[fast]' (or pip install numba)"
    ) from exc

from machine.gamemath import tablecache
from machine.gamemath.simulate import Tally
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.checks import PLAY_ACTIONS
from machine.games.blackjack.rules import Rules, totals_mask
from machine.games.cards import RANKS, deck_ranks, new_shoe, value
from machine.games.interface import ShoeExhausted

if TYPE_CHECKING:
    from machine.gamemath.cluster import Cluster

FAST_CHUNK = 50_000
"""Rounds per chunk: each chunk has its own seed, so a seed gives the same figure on any threads."""

MAX_HANDS = 16  # the largest max_hands a Rules accepts
MAX_MISSES = 64  # unknown table keys a chunk records in one pass

# Options and actions, in the engine's order (PLAY_ACTIONS): bit i of a mask is PLAY_ACTIONS[i].
A_HIT, A_STAND, A_DOUBLE, A_SPLIT, A_SURRENDER = 0, 1, 2, 3, 4
M_HIT, M_STAND, M_DOUBLE, M_SPLIT, M_SURRENDER = 1, 2, 4, 8, 16
assert PLAY_ACTIONS == ("hit", "stand", "double", "split", "surrender")

# Fields of a hand in the kernel's hands array hs[seat, hand, field].
F_STATE, F_HARD, F_ACE, F_N, F_STAKE, F_FS, F_SA, F_AHARD, F_SURR, F_CHARLIE, F_DONE, F_SEVENS, F_FIRST = range(13)
NF = 13

# Parameters of the rule set, as an int64 array P (a ratio of the rules as numerator, denominator).
(P_HOLE, P_H17, P_DAS, P_DMAH, P_LIMIT, P_MAXH, P_SA1, P_RESPLIT, P_SURR, P_CHARLIE, P_BET,
 P_BJNUM, P_BJDEN, P_INSAMT, P_INSNUM, P_INSDEN, P_BONUSNUM, P_BONUSDEN, P_DHARD, P_DSOFT,
 P_ORIGINAL, P_TIES, P_P21, P_FIRST_APART) = range(24)
NP = 24
KINDS = 6  # play-table kinds: 2 * from_split + split_aces, + 2 for a first split hand valued apart
SURR_NONE, SURR_LATE, SURR_EARLY = 0, 1, 2
NO_LIMIT = 1 << 30

# Kernel return codes (a non-negative value is the number of cards the round used).
MISS = -1
EXHAUSTED = -2


# The round and its loop are compiled without numba's reference counting (NRT): they allocate
# nothing, and the atomic reference counts on the dozen arrays a round touches cost more than
# the round itself (4.4 M against 7.6 M rounds/s on one core here). ``_nrt`` is a private numba option: if a
# numba without it comes, the kernels compile with NRT, slower but the same.
try:
    from numba.core.cpu import CPUTargetOptions

    _NO_NRT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
except ImportError:  # pragma: no cover
    _NO_NRT = {}


class FastSimError(RuntimeError):
    """The fast path cannot play these settings (or met a state it cannot answer)."""


# -- the rules, compiled from machine.games.blackjack_rules ---------------------------------------

_FOLLOWED: dict[str, str] = {}  # a kernels' file -> the digest of the rule files compiled into it


def cache_follows(kernel_file: str, *rule_files: str) -> str:
    """Make numba's cached kernels of ``kernel_file`` go stale when a file of ``rule_files``
    changes; returns the digest of those files.

    Numba stamps a cached kernel with the source of the file it is written in only, but these
    kernels compile the rules of other files into themselves. Each cache locator gets a
    variant, for the files named here only, whose stamp adds a digest of the rules' source.
    (Numba's locator classes are its internals: without them, a rules change needs the cache
    cleared.) Ochko's fast path (``gamemath.ochko.fast``) uses it too.
    """
    h = hashlib.sha256()
    for f in rule_files:
        h.update(Path(f).read_bytes())
    digest = h.hexdigest()
    _FOLLOWED[os.path.abspath(kernel_file)] = digest
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover
        return digest
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or any(getattr(c, "follows_rules", False) for c in classes):
        return digest

    class FollowsRules:
        follows_rules = True
        _rules_digest = ""

        @classmethod
        def from_function(cls, py_func, py_file):
            digest = _FOLLOWED.get(os.path.abspath(py_file))
            if digest is None:
                return None
            self = super().from_function(py_func, py_file)  # type: ignore[misc]
            if self is not None:
                self.rules_digest = digest
            return self

        def get_source_stamp(self):
            return super().get_source_stamp(), self.rules_digest  # type: ignore[misc,attr-defined]

    classes[:0] = [type(f"{c.__name__}FollowingRules", (FollowsRules, c), {}) for c in classes]
    return digest


_RULES_DIGEST = cache_follows(__file__, bj.__file__)


inline_kernel = njit(cache=True, inline="always", **_NO_NRT)
"""Compile a function to be inlined in the kernels, without numba's reference counting: the
rules of ``blackjack_rules`` here, and the rounds of every fast path (they allocate nothing, and
a call per round or per hand passing a dozen arrays would pay atomic reference counts on each)."""


_score = inline_kernel(bj.hand_score)
_natural = inline_kernel(bj.is_natural)
_earns_sevens = inline_kernel(bj.earns_three_sevens)
_dealer_draws = inline_kernel(bj.dealer_draws)
_peeks = inline_kernel(bj.dealer_peeks)
_waits_for_dealer = inline_kernel(bj.waits_for_dealer)
_insurance_waits = inline_kernel(bj.insurance_waits_for_dealer)
_settle_hand = inline_kernel(bj.settle_hand)
_ratio_of = inline_kernel(bj.ratio_of)
_insurance_return = inline_kernel(bj.insurance_return)


# -- the compiled round ---------------------------------------------------------------------------


@njit(cache=True, **_NO_NRT)
def _options(P, hard, ace, n, fs, sa, sd_used, nhands, pair, up):
    """The mask of actions the engine allows (Round._play_problem, funds unlimited)."""
    total, soft = _score(hard, ace, False)
    one_card = sa and P[P_SA1]
    free = sd_used < P[P_LIMIT]
    mask = M_STAND
    if not one_card and total < 21:
        mask |= M_HIT
    if not one_card and n == 2 and (not fs or P[P_DAS]) and free:
        allowed = P[P_DSOFT] if soft else P[P_DHARD]
        if (allowed >> total) & 1:
            mask |= M_DOUBLE
    if n == 2 and pair and not (sa and not P[P_RESPLIT]) and nhands < P[P_MAXH] and free:
        mask |= M_SPLIT
    early_asked = P[P_SURR] == SURR_EARLY and _peeks(P[P_HOLE], up)  # asked before the peek instead
    if P[P_SURR] != SURR_NONE and n == 2 and not fs and nhands == 1 and not early_asked:
        mask |= M_SURRENDER
    return mask


@njit(cache=True, **_NO_NRT)
def _finished_alone(P, hard, ace, n, fs, sa, mask):
    """0: the hand waits for a decision; 1: done; 2: done as a five-card charlie.

    Round._settle_without_decision for a hand that is not doubled (aces not hard).
    """
    total, soft = _score(hard, ace, False)
    if (not fs and _natural(n, hard, ace)) or total > 21:
        return 1
    if P[P_CHARLIE] and n >= 5:
        return 2
    if sa and P[P_SA1] and n >= 2:
        return 0 if mask & M_SPLIT else 1
    if total >= 21 and not (mask & M_DOUBLE):
        return 1
    return 0


@inline_kernel
def _kind(P, fs, sa, first):
    """The play table's kind of a hand: 2 * from_split + split_aces, + 2 for the seat's first
    split hand under rules that value it apart."""
    k = 2 * fs + sa
    if fs and first and P[P_FIRST_APART]:
        k += 2
    return k


# The simulator's own generator: xoshiro256** (Blackman and Vigna), its four words of state in an
# array ``rng`` the round passes along, seeded per chunk through splitmix64. Inlined, a card
# costs a few nanoseconds; numba's np.random (the Mersenne twister behind a thread-local state
# looked up on every call, and a rejection loop over bit masks) cost 33 ns a card here, the
# larger part of a round. Every fast path deals its rounds with it (``_deal``): ochko,
# eenentwintig, 31. (The fully shuffled shoes of the round-for-round checks, ``_shuffled``, still
# come from numba's generator: they are made once per check, and their seeds pin the cases the
# checks are known to reach.)
_U64 = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)


@inline_kernel
def _rotl(x, k):
    return (x << _U64(k)) | (x >> _U64(64 - k))


@inline_kernel
def _next64(rng):
    """The next 64 random bits of the generator ``rng`` (xoshiro256**)."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = _rotl(s1 * _U64(5), 7) * _U64(9)
    t = s1 << _U64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, _rotl(s3, 45)
    return result


@njit(cache=True)
def _rng_seeded(seed):
    """A generator's state from a seed: four splitmix64 outputs (never all zero)."""
    rng = np.empty(4, np.uint64)
    x = _U64(seed)
    for i in range(4):
        x += _U64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
        rng[i] = z ^ (z >> _U64(31))
    return rng


@inline_kernel
def _below(rng, k):
    """A uniform integer in [0, k), 1 <= k < 2**32, exactly: Lemire's multiply and shift, a
    product whose low word falls under 2**32 mod k drawn again."""
    kk = _U64(k)
    m = (_next64(rng) >> _U64(32)) * kk
    low = m & _MASK32
    if low < kk:
        floor = (_U64(0x100000000) - kk) % kk
        while low < floor:
            m = (_next64(rng) >> _U64(32)) * kk
            low = m & _MASK32
    return np.int64(m >> _U64(32))


@inline_kernel
def _deal(deck, pos, lazy, rng):
    """The card at ``pos``; lazily shuffled (``lazy``): first swap in a uniform pick, from the
    generator ``rng``, of the cards left."""
    if lazy:
        j = pos + _below(rng, deck.shape[0] - pos)
        c = deck[j]
        deck[j] = deck[pos]
        deck[pos] = c
        return c
    return deck[pos]


@inline_kernel
def _dealer_takes(deck, pos, lazy, rng, hard, ace):
    """The dealer's (hard total, holds an ace) once the card at ``pos`` is added."""
    c = _deal(deck, pos, lazy, rng)
    return hard + c, ace or c == 1


@inline_kernel
def _add(hs, s, h, v, nxt):
    st = hs[s, h, F_STATE]
    hs[s, h, F_STATE] = nxt[st, v - 1] if st >= 0 else -1
    hs[s, h, F_HARD] += v
    if v == 1:
        hs[s, h, F_ACE] = 1
    if v == 7:
        hs[s, h, F_SEVENS] += 1
    if hs[s, h, F_N] == 0:
        hs[s, h, F_FIRST] = v
    hs[s, h, F_N] += 1


@inline_kernel
def _new_hand(hs, s, h, stake):
    for f in range(NF):
        hs[s, h, f] = 0
    hs[s, h, F_STAKE] = stake


@inline_kernel
def _play_round(deck, lazy, rng, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss):
    """Play one round from ``deck`` (position 0 on); returns the cards used, MISS or EXHAUSTED.

    ``net[s]`` gets each seat's returned minus staked; on MISS, ``miss`` holds the unknown key
    (state, up - 1, 2 * from_split + split_aces, mask), or (state, up - 1, -1, kind) for
    insurance (kind 0) and early surrender (kind 1).
    """
    n = deck.shape[0]
    pos = 0
    bet = P[P_BET]
    for s in range(nseats):
        nh[s] = 1
        sd[s] = 0
        ins[s] = 0
        _new_hand(hs, s, 0, bet)
    # -- the deal: first cards, up card, second cards, hole card
    for s in range(nseats):
        if pos >= n:
            return EXHAUSTED
        _add(hs, s, 0, _deal(deck, pos, lazy, rng), nxt)
        pos += 1
    if pos >= n:
        return EXHAUSTED
    up = _deal(deck, pos, lazy, rng)
    pos += 1
    d_hard = up
    d_ace = up == 1
    d_n = 1
    for s in range(nseats):
        if pos >= n:
            return EXHAUSTED
        _add(hs, s, 0, _deal(deck, pos, lazy, rng), nxt)
        pos += 1
    if P[P_HOLE]:
        if pos >= n:
            return EXHAUSTED
        d_hard, d_ace = _dealer_takes(deck, pos, lazy, rng, d_hard, d_ace)
        pos += 1
        d_n = 2
    # -- insurance, in seat order
    if up == 1 and P[P_INSAMT] > 0:
        for s in range(nseats):
            if _natural(hs[s, 0, F_N], hs[s, 0, F_HARD], hs[s, 0, F_ACE]):
                continue  # blackjack: not asked
            a = insure[hs[s, 0, F_STATE]]
            if a < 0:
                miss[0], miss[1], miss[2], miss[3] = hs[s, 0, F_STATE], up - 1, -1, 0
                return MISS
            if a:
                ins[s] = P[P_INSAMT]
    # -- early surrender, then the peek
    peek = _peeks(P[P_HOLE], up)
    if P[P_SURR] == SURR_EARLY and peek:
        for s in range(nseats):
            if _natural(hs[s, 0, F_N], hs[s, 0, F_HARD], hs[s, 0, F_ACE]):
                continue
            a = early[hs[s, 0, F_STATE], up - 1]
            if a < 0:
                miss[0], miss[1], miss[2], miss[3] = hs[s, 0, F_STATE], up - 1, -1, 1
                return MISS
            if a:
                hs[s, 0, F_SURR] = 1
                hs[s, 0, F_DONE] = 1
    d_natural = _natural(d_n, d_hard, d_ace)
    if not (peek and d_natural):
        # -- the seats' play, seat by seat, hand by hand
        for s in range(nseats):
            h = 0
            while h < nh[s]:
                if hs[s, h, F_DONE]:
                    h += 1
                    continue
                if hs[s, h, F_N] == 1:  # a split hand gets its second card when it is reached
                    if pos >= n:
                        return EXHAUSTED
                    _add(hs, s, h, _deal(deck, pos, lazy, rng), nxt)
                    pos += 1
                hard = hs[s, h, F_HARD]
                ace = hs[s, h, F_ACE]
                cn = hs[s, h, F_N]
                fs = hs[s, h, F_FS]
                sa = hs[s, h, F_SA]
                pair = cn == 2 and hs[s, h, F_FIRST] * 2 == hard
                mask = _options(P, hard, ace, cn, fs, sa, sd[s], nh[s], pair, up)
                fin = _finished_alone(P, hard, ace, cn, fs, sa, mask)
                if fin:
                    hs[s, h, F_DONE] = 1
                    if fin == 2:
                        hs[s, h, F_CHARLIE] = 1
                    h += 1
                    continue
                st = hs[s, h, F_STATE]
                kind = _kind(P, fs, sa, h == 0)
                a = play[st, up - 1, kind, mask] if st >= 0 else -1
                if a < 0:
                    miss[0], miss[1], miss[2], miss[3] = st, up - 1, kind, mask
                    return MISS
                if a == A_HIT:
                    if pos >= n:
                        return EXHAUSTED
                    _add(hs, s, h, _deal(deck, pos, lazy, rng), nxt)
                    pos += 1
                elif a == A_STAND:
                    hs[s, h, F_DONE] = 1
                elif a == A_SURRENDER:
                    hs[s, h, F_SURR] = 1
                    hs[s, h, F_DONE] = 1
                elif a == A_DOUBLE:
                    sd[s] += 1
                    hs[s, h, F_STAKE] += bet
                    hs[s, h, F_AHARD] = P[P_DMAH]
                    if pos >= n:
                        return EXHAUSTED
                    _add(hs, s, h, _deal(deck, pos, lazy, rng), nxt)
                    pos += 1
                    hs[s, h, F_DONE] = 1
                else:  # split: the right hand takes the second card, the left draws at once
                    sd[s] += 1
                    v = hs[s, h, F_FIRST]
                    for k in range(nh[s], h + 1, -1):
                        for f in range(NF):
                            hs[s, k, f] = hs[s, k - 1, f]
                    nh[s] += 1
                    for k in (h, h + 1):
                        _new_hand(hs, s, k, bet)
                        _add(hs, s, k, v, nxt)
                        hs[s, k, F_FS] = 1
                        hs[s, k, F_SA] = v == 1
                    if pos >= n:
                        return EXHAUSTED
                    _add(hs, s, h, _deal(deck, pos, lazy, rng), nxt)
                    pos += 1
    # -- the dealer: draws only if some hand or insurance waits for it
    needed = False
    for s in range(nseats):
        if ins[s] > 0 and _insurance_waits(P[P_HOLE]):
            needed = True
        for h in range(nh[s]):
            total, soft = _score(hs[s, h, F_HARD], hs[s, h, F_ACE], hs[s, h, F_AHARD])
            natural = not hs[s, h, F_FS] and _natural(hs[s, h, F_N], hs[s, h, F_HARD], hs[s, h, F_ACE])
            if _waits_for_dealer(total, natural, hs[s, h, F_CHARLIE], hs[s, h, F_SURR], P[P_SURR] == SURR_EARLY,
                                 P[P_HOLE]):
                needed = True
    if needed and not (peek and d_natural):
        while True:
            total, soft = _score(d_hard, d_ace, False)
            if not _dealer_draws(total, soft, P[P_H17]):
                break
            if pos >= n:
                return EXHAUSTED
            d_hard, d_ace = _dealer_takes(deck, pos, lazy, rng, d_hard, d_ace)
            pos += 1
            d_n += 1
    # -- settlement
    d_total, d_soft = _score(d_hard, d_ace, False)
    d_bj = _natural(d_n, d_hard, d_ace)
    late = P[P_SURR] == SURR_LATE
    for s in range(nseats):
        ret = 0
        staked = ins[s]
        for h in range(nh[s]):
            stake = hs[s, h, F_STAKE]
            staked += stake
            total, soft = _score(hs[s, h, F_HARD], hs[s, h, F_ACE], hs[s, h, F_AHARD])
            fs = hs[s, h, F_FS]
            cn = hs[s, h, F_N]
            natural = not fs and _natural(cn, hs[s, h, F_HARD], hs[s, h, F_ACE])
            _, returned = _settle_hand(stake, bet, total, natural, hs[s, h, F_SURR], hs[s, h, F_CHARLIE], h == 0,
                                       d_total, d_bj, late, P[P_ORIGINAL], P[P_TIES], P[P_P21],
                                       P[P_BJNUM], P[P_BJDEN])
            ret += returned
            if P[P_BONUSNUM] and _earns_sevens(fs, cn, hs[s, h, F_SEVENS]):
                ret += _ratio_of(bet, P[P_BONUSNUM], P[P_BONUSDEN])
        ret += _insurance_return(ins[s], d_bj, P[P_INSNUM], P[P_INSDEN])
        net[s] = ret - staked
    return pos


# -- loops over many rounds -------------------------------------------------------------------------


@njit(cache=True, **_NO_NRT)
def _rounds(shoes, lazy, rng, count, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss,
            nets, used, misses, out):
    """Play ``count`` rounds: from shoes[0] shuffled lazily, or one on each row of ``shoes``.

    Without NRT and with the round inlined, the loop does no reference counting and passes no
    arrays per round. Given shoes (not lazy), each round also fills nets[i], used[i], misses[i].
    Totals:
    out = [sum of net, sum of net squared, cards used, rounds that missed, shoe exhausted];
    when lazy, the first MAX_MISSES unknown keys go to misses[0 .. MAX_MISSES - 1].
    """
    s1 = 0
    s2 = 0
    cards = 0
    nmiss = 0
    exhausted = 0
    for i in range(count):
        deck = shoes[0] if lazy else shoes[i]
        r = _play_round(deck, lazy, rng, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss)
        if not lazy:
            used[i] = r
            for s in range(nseats):
                nets[i, s] = net[s]
        if r >= 0:
            t = 0
            for s in range(nseats):
                t += net[s]
            s1 += t
            s2 += t * t
            cards += r
        elif r == MISS:
            k = i if not lazy else nmiss
            if k < misses.shape[0]:
                for j in range(4):
                    misses[k, j] = miss[j]
            nmiss += 1
        else:
            exhausted += 1
    out[0] = s1
    out[1] = s2
    out[2] = cards
    out[3] = nmiss
    out[4] = exhausted


@njit(cache=True)
def _scratch(nseats):
    """The work arrays ``_rounds`` plays in: hands, hand counts, splits and doubles used,
    insurance, net results and the missed key."""
    return (np.zeros((nseats, MAX_HANDS, NF), np.int32), np.zeros(nseats, np.int64), np.zeros(nseats, np.int64),
            np.zeros(nseats, np.int64), np.zeros(nseats, np.int64), np.zeros(4, np.int64))


@njit(cache=True)
def _run_chunk(seed, rounds, base, nseats, P, nxt, play, insure, early, out, misses):
    """Play ``rounds`` lazily shuffled rounds, the kernels' generator seeded by ``seed`` (``_rng_seeded``)."""
    rng = _rng_seeded(seed)
    deck = np.empty((1, base.shape[0]), base.dtype)
    deck[0] = base
    hs, nh, sd, ins, net, miss = _scratch(nseats)
    nets = np.zeros((1, nseats), np.int64)
    used = np.zeros(1, np.int64)
    _rounds(deck, True, rng, rounds, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss,
            nets, used, misses, out)


@njit(cache=True, parallel=True)
def _run_chunks(seeds, counts, base, nseats, P, nxt, play, insure, early, out, misses):
    for c in prange(seeds.shape[0]):
        _run_chunk(seeds[c], counts[c], base, nseats, P, nxt, play, insure, early, out[c], misses[c])


@njit(cache=True)
def _play_shoes(shoes, nseats, P, nxt, play, insure, early, nets, used, misses):
    """Play one round on each row of ``shoes`` (fully shuffled values); used[i] < 0: MISS/EXHAUSTED."""
    hs, nh, sd, ins, net, miss = _scratch(nseats)
    out = np.zeros(5, np.int64)
    _rounds(shoes, False, np.zeros(4, np.uint64), shoes.shape[0], nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss,
            nets, used, misses, out)


@njit(cache=True)
def _shuffled(base, count, seed):
    """``count`` full Fisher-Yates shuffles of ``base`` from numba's generator seeded by ``seed``."""
    np.random.seed(seed)
    out = np.empty((count, base.shape[0]), base.dtype)
    deck = base.copy()
    for r in range(count):
        for i in range(deck.shape[0] - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            c = deck[i]
            deck[i] = deck[j]
            deck[j] = c
        out[r] = deck
    return out


@njit(cache=True)
def _lazy_deals(base, cards, count, seed):
    """The first ``cards`` cards of ``count`` rounds dealt as the simulator deals them (``_deal``)."""
    rng = _rng_seeded(seed)
    out = np.empty((count, cards), base.dtype)
    deck = base.copy()
    for r in range(count):
        for pos in range(cards):
            out[r, pos] = _deal(deck, pos, True, rng)
    return out


@njit(cache=True)
def _askable(P, st_hard, st_ace, st_n, fits, need):
    """Mark every play key (state, up - 1, kind, mask) the engine can ask Auto about.

    Walks every composition against every up card it fits with, as a first hand (no split, no
    double yet, one hand) and as a split hand (split aces or not, the seat's first hand or not,
    1.. splits and doubles used, 2..max_hands hands), and keeps the keys of hands that wait for
    a decision.
    """
    maxh = P[P_MAXH]
    top = min(P[P_LIMIT], 2 * MAX_HANDS)
    for st in range(st_hard.shape[0]):
        n = st_n[st]
        if n < 2:
            continue
        hard = st_hard[st]
        ace = st_ace[st]
        pair = n == 2 and (hard % 2 == 0) and fits[st, 10]  # fits[:, 10]: two equal cards
        for up in range(1, 11):
            if not fits[st, up - 1]:
                continue
            for fs in range(2):
                for sa in range(2):
                    if sa and not (fs and ace):
                        continue
                    if not fs:
                        mask = _options(P, hard, ace, n, 0, 0, 0, 1, pair, up)
                        if _finished_alone(P, hard, ace, n, 0, 0, mask) == 0:
                            need[st, up - 1, 0, mask] = True
                        continue
                    if maxh < 2 or top < 1:
                        continue
                    for nhands in range(2, maxh + 1):
                        for used in range(1, top + 1):
                            mask = _options(P, hard, ace, n, 1, sa, used, nhands, pair, up)
                            if _finished_alone(P, hard, ace, n, 1, sa, mask) == 0:
                                need[st, up - 1, _kind(P, 1, sa, False), mask] = True
                                need[st, up - 1, _kind(P, 1, sa, True), mask] = True


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
    from machine.gamemath.table import first_hand_apart

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
    from machine.gamemath.auto import play_choice

    return play_choice(rules, cards, up, options, from_split, split_aces, first_hand)


class Tables:
    """Auto's decision tables for one rule set, and the kernel's view of the rules."""

    def __init__(self, rules: Rules, prefill: bool = True):
        from machine.gamemath.shoe import hands_up_to, shoe_of

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
        """Answer every key the engine can ask (``_askable``), insurance and early surrender."""
        from machine.gamemath.auto import prepare

        prepare(self.rules)
        need = np.zeros(self.play.shape, np.bool_)
        _askable(self.P, self.st_hard, self.st_ace, self.st_n, self.fits, need)
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
        from machine.gamemath.auto import insurance_value

        if self.fits[st, 0]:
            self.insure[st] = insurance_value(self.rules, self.cards(st), 1) > 0

    def fill_early(self, st: int, u: int) -> None:
        from machine.gamemath.auto import first_choice

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
    return _shuffled(base, count, _seed32("shoes", seed, 0))


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
        _play_shoes(shoes[todo], seats, *t.arrays, sub_nets, sub_used, sub_miss)
        nets[todo], used[todo] = sub_nets, sub_used
        if (sub_used == EXHAUSTED).any():
            raise ShoeExhausted("the shoe ran out of cards")
        missed = sub_used == MISS
        for row in {(int(a), int(b), int(c), int(d)) for a, b, c, d in sub_miss[missed]}:
            t.fill(row)
        todo = todo[missed]
    return nets, used


# -- the simulator ---------------------------------------------------------------------------------------


def _seed32(kind: str, seed: int, chunk: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{kind}/{seed}/{chunk}".encode()).digest()[:4], "little")


def chunk_plan(kind: str, rounds: int, seed: int, workers: int | None) -> tuple[int, np.ndarray, np.ndarray]:
    """How a fast path splits ``rounds``: the threads to run (``workers``, else every core numba
    may use), each chunk's rounds (``FAST_CHUNK`` at most) and each chunk's own 32-bit seed, so a
    seed gives the same figure on any number of threads."""
    threads = max(1, min(workers or os.cpu_count() or 1, numba.config.NUMBA_NUM_THREADS))
    counts = [min(FAST_CHUNK, rounds - start) for start in range(0, rounds, FAST_CHUNK)]
    seeds = np.array([_seed32(kind, seed, c) for c in range(len(counts))], np.int64)
    return threads, np.array(counts, np.int64), seeds


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
            _run_chunks(seeds[idx], counts[idx], base, seats, *t.arrays, o, m)
        else:
            for k, c in enumerate(idx):
                _run_chunk(seeds[c], counts[c], base, seats, *t.arrays, o[k], m[k])
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
    _run_chunks(np.array([1], np.int64), np.array([1], np.int64), base, 1, *t.arrays, out, m)
    shoes = _shuffled(base, 1, 1)
    _play_shoes(shoes, 1, *t.arrays, np.zeros((1, 1), np.int64), np.zeros(1, np.int64), np.zeros((1, 4), np.int64))
    _lazy_deals(base, 2, 1, 1)
    _askable(t.P, t.st_hard, t.st_ace, t.st_n, t.fits, np.zeros(t.play.shape, np.bool_))
    return time.perf_counter() - s


def main(argv: list[str] | None = None) -> int:
    """``python -m machine.gamemath.fastsim [--game G] [--rounds N] [--seats K] [--seed S]``: the benchmark."""
    import argparse

    from machine.gamemath import game_rtp
    from machine.profiles import load_profile

    ap = argparse.ArgumentParser(prog="python -m machine.gamemath.fastsim", description=main.__doc__)
    ap.add_argument("--game", default="random-blackjack")
    ap.add_argument("--rounds", type=int, default=20_000_000)
    ap.add_argument("--seats", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rules = load_profile(args.game).rules
    c = ensure_compiled()
    print(f"compile (or load from numba's cache): {c:.2f} s")
    cores = min(os.cpu_count() or 1, numba.config.NUMBA_NUM_THREADS)
    exact = game_rtp(rules).rtp if args.seats == 1 else None
    for w in sorted({1, cores}):
        run = fast_run(rules, args.rounds, args.seed, w, seats=args.seats)
        if run.tables_seconds:
            print(f"Auto's tables from the exact analysis: {run.tables_seconds:.2f} s")
        tl = run.tally
        print(
            f"{w} thread(s): {tl.rounds} rounds in {run.seconds:.2f} s = {run.rounds_per_second / 1e6:.2f} M rounds/s; "
            f"RTP {tl.rtp:.5f} +- {tl.half_width:.5f}" + (f" (exact {exact:.5f})" if exact is not None else "")
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
