"""Blackjack's compiled round and its loops (numba): what ``blackjack.fast`` runs.

Owns: the kernel that plays a round of the blackjack family for one or more seats betting the
minimum with Auto's choices read from tables (``play_round``), its loops over many rounds
(``run_chunk``, ``run_chunks``, ``play_given_shoes``) and the walk of every key the engine can
ask Auto about (``askable``); the layout of the hands and rule arrays they read. Writes no
rule of its own: the hand total, the natural, three sevens, the dealer's draw, the peek and
the settlement are the functions of ``machine.games.blackjack.scoring``, compiled here
(``inline_kernel``); cards come from the shared generator (``machine.gamemath.kernels``). The
module docstring of ``blackjack.fast`` tells the theory of operation.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from machine.gamemath import kernels
from machine.gamemath.kernels import NO_NRT, deal, inline_kernel, rng_seeded
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.round import PLAY_ACTIONS

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

RULES_DIGEST = kernels.cache_follows(__file__, bj.__file__, kernels.__file__)

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


@njit(cache=True, **NO_NRT)
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


@njit(cache=True, **NO_NRT)
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



@inline_kernel
def _dealer_takes(deck, pos, lazy, rng, hard, ace):
    """The dealer's (hard total, holds an ace) once the card at ``pos`` is added."""
    c = deal(deck, pos, lazy, rng)
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
def _deal_round(deck, lazy, rng, nseats, P, nxt, hs, nh, sd, ins):
    """The deal: each seat's first card, the up card, the second cards, the hole card.

    Returns (cards used, up card, dealer's hard total, holds an ace, dealer's cards); the cards
    used are EXHAUSTED when the shoe ran out."""
    n = deck.shape[0]
    pos = 0
    bet = P[P_BET]
    for s in range(nseats):
        nh[s] = 1
        sd[s] = 0
        ins[s] = 0
        _new_hand(hs, s, 0, bet)
    for s in range(nseats):
        if pos >= n:
            return EXHAUSTED, 0, 0, False, 0
        _add(hs, s, 0, deal(deck, pos, lazy, rng), nxt)
        pos += 1
    if pos >= n:
        return EXHAUSTED, 0, 0, False, 0
    up = deal(deck, pos, lazy, rng)
    pos += 1
    d_hard = up
    d_ace = up == 1
    d_n = 1
    for s in range(nseats):
        if pos >= n:
            return EXHAUSTED, 0, 0, False, 0
        _add(hs, s, 0, deal(deck, pos, lazy, rng), nxt)
        pos += 1
    if P[P_HOLE]:
        if pos >= n:
            return EXHAUSTED, 0, 0, False, 0
        d_hard, d_ace = _dealer_takes(deck, pos, lazy, rng, d_hard, d_ace)
        pos += 1
        d_n = 2
    return pos, up, d_hard, d_ace, d_n


@inline_kernel
def _offers_before_play(nseats, P, up, insure, early, hs, ins, miss):
    """Insurance, in seat order, then early surrender where the dealer peeks: 0, or MISS with
    the unknown key in ``miss``."""
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
    if P[P_SURR] == SURR_EARLY and _peeks(P[P_HOLE], up):
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
    return 0


@inline_kernel
def _split(hs, nh, sd, s, h, bet, nxt):
    """Split hand ``h`` of seat ``s``: the hands after it move right, both halves start again
    from the pair card (the left one takes its second card next, the right one when reached)."""
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


@inline_kernel
def _play_seats(deck, pos, lazy, rng, nseats, P, nxt, play, up, hs, nh, sd, miss):
    """The seats' play, seat by seat, hand by hand, from the card at ``pos``: the cards used
    after it, or MISS (the unknown key in ``miss``) or EXHAUSTED."""
    n = deck.shape[0]
    bet = P[P_BET]
    for s in range(nseats):
        h = 0
        while h < nh[s]:
            if hs[s, h, F_DONE]:
                h += 1
                continue
            if hs[s, h, F_N] == 1:  # a split hand gets its second card when it is reached
                if pos >= n:
                    return EXHAUSTED
                _add(hs, s, h, deal(deck, pos, lazy, rng), nxt)
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
            if a == A_STAND:
                hs[s, h, F_DONE] = 1
                continue
            if a == A_SURRENDER:
                hs[s, h, F_SURR] = 1
                hs[s, h, F_DONE] = 1
                continue
            if a == A_DOUBLE:
                sd[s] += 1
                hs[s, h, F_STAKE] += bet
                hs[s, h, F_AHARD] = P[P_DMAH]
            elif a != A_HIT:  # split: the left hand draws at once
                _split(hs, nh, sd, s, h, bet, nxt)
            if pos >= n:
                return EXHAUSTED
            _add(hs, s, h, deal(deck, pos, lazy, rng), nxt)
            pos += 1
            if a == A_DOUBLE:
                hs[s, h, F_DONE] = 1
    return pos


@inline_kernel
def _dealer_needed(nseats, P, hs, nh, ins):
    """Whether some hand or insurance waits for the dealer's hand."""
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
    return needed


@inline_kernel
def _settle(nseats, P, hs, nh, ins, net, d_total, d_bj):
    """Each seat's returned minus staked into ``net``, against the dealer's total and natural."""
    bet = P[P_BET]
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


@inline_kernel
def play_round(deck, lazy, rng, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss):
    """Play one round from ``deck`` (position 0 on); returns the cards used, MISS or EXHAUSTED.

    ``net[s]`` gets each seat's returned minus staked; on MISS, ``miss`` holds the unknown key
    (state, up - 1, 2 * from_split + split_aces, mask), or (state, up - 1, -1, kind) for
    insurance (kind 0) and early surrender (kind 1).
    """
    n = deck.shape[0]
    pos, up, d_hard, d_ace, d_n = _deal_round(deck, lazy, rng, nseats, P, nxt, hs, nh, sd, ins)
    if pos < 0:
        return pos
    if _offers_before_play(nseats, P, up, insure, early, hs, ins, miss) < 0:
        return MISS
    peek = _peeks(P[P_HOLE], up)
    d_natural = _natural(d_n, d_hard, d_ace)
    if not (peek and d_natural):
        pos = _play_seats(deck, pos, lazy, rng, nseats, P, nxt, play, up, hs, nh, sd, miss)
        if pos < 0:
            return pos
        if _dealer_needed(nseats, P, hs, nh, ins):  # the dealer draws only if a hand or insurance waits
            while True:
                total, soft = _score(d_hard, d_ace, False)
                if not _dealer_draws(total, soft, P[P_H17]):
                    break
                if pos >= n:
                    return EXHAUSTED
                d_hard, d_ace = _dealer_takes(deck, pos, lazy, rng, d_hard, d_ace)
                pos += 1
                d_n += 1
    d_total, d_soft = _score(d_hard, d_ace, False)
    _settle(nseats, P, hs, nh, ins, net, d_total, _natural(d_n, d_hard, d_ace))
    return pos


# -- loops over many rounds -------------------------------------------------------------------------


@njit(cache=True, **NO_NRT)
def play_rounds(shoes, lazy, rng, count, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss,
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
        r = play_round(deck, lazy, rng, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss)
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
def scratch(nseats):
    """The work arrays ``play_rounds`` plays in: hands, hand counts, splits and doubles used,
    insurance, net results and the missed key."""
    return (np.zeros((nseats, MAX_HANDS, NF), np.int32), np.zeros(nseats, np.int64), np.zeros(nseats, np.int64),
            np.zeros(nseats, np.int64), np.zeros(nseats, np.int64), np.zeros(4, np.int64))


@njit(cache=True)
def run_chunk(seed, rounds, base, nseats, P, nxt, play, insure, early, out, misses):
    """Play ``rounds`` lazily shuffled rounds, the kernels' generator seeded by ``seed`` (``rng_seeded``)."""
    rng = rng_seeded(seed)
    deck = np.empty((1, base.shape[0]), base.dtype)
    deck[0] = base
    hs, nh, sd, ins, net, miss = scratch(nseats)
    nets = np.zeros((1, nseats), np.int64)
    used = np.zeros(1, np.int64)
    # bool(True), not the literal True: one compile of the loop serves this call and the given shoes' (a  # noqa: UP018
    # literal would be a specialisation of its own, compiled again: half the fast path's compile time)
    play_rounds(deck, bool(True), rng, rounds, nseats, P, nxt, play, insure, early, hs, nh, sd, ins, net, miss,  # noqa: UP018
            nets, used, misses, out)


@njit(cache=True, parallel=True)
def run_chunks(seeds, counts, base, nseats, P, nxt, play, insure, early, out, misses):
    for c in prange(seeds.shape[0]):
        run_chunk(seeds[c], counts[c], base, nseats, P, nxt, play, insure, early, out[c], misses[c])


@njit(cache=True)
def play_given_shoes(shoes, nseats, P, nxt, play, insure, early, nets, used, misses):
    """Play one round on each row of ``shoes`` (fully shuffled values); used[i] < 0: MISS/EXHAUSTED."""
    hs, nh, sd, ins, net, miss = scratch(nseats)
    out = np.zeros(5, np.int64)
    play_rounds(shoes, bool(False), np.zeros(4, np.uint64), shoes.shape[0], nseats, P, nxt, play, insure,  # noqa: UP018
                early, hs, nh, sd, ins, net, miss, nets, used, misses, out)



@njit(cache=True)
def askable(P, st_hard, st_ace, st_n, fits, need):
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

