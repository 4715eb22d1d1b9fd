"""The compiled fast path (machine.gamemath.blackjack.fast) against the engine, round for round, on the same shoes.

Every shoe is a numba-shuffled array of card values; the engine gets the same order as card
codes (``shoe_cards``) and plays it with ``auto_action``, the fast path plays the array. Each
round must give every seat the same net result and use the same number of cards. Besides plain
random shoes, "rich" shoes put pairs (and sevens) where the seats' cards and first draws fall,
so splits, resplits, the hand limit and the joint limit on splits and doubles are met often.
Skipped when numba (the ``fast`` extra) is not installed.
"""

from __future__ import annotations

import dataclasses
import math
from collections import Counter
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import numpy

pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from machine.gamemath import kernels, tablecache  # noqa: E402
from machine.gamemath.blackjack import fast as fastsim  # noqa: E402
from machine.gamemath.blackjack import fastkernel, game_rtp  # noqa: E402
from machine.gamemath.blackjack.auto import auto_action  # noqa: E402
from machine.gamemath.simulate import Tally  # noqa: E402
from machine.games.blackjack.hand import is_natural, score  # noqa: E402
from machine.games.blackjack.round import Round  # noqa: E402
from machine.games.blackjack.rules import Rules  # noqa: E402
from machine.games.cards import deck_ranks, new_shoe, value  # noqa: E402
from machine.profiles import load_profile  # noqa: E402

# name -> (rules, random shoes, rich shoes, seats, features the engine rounds must show)
RULE_SETS = {
    "casino-2-decks": (
        load_profile("casino-blackjack", {"decks": 2}).rules, 1_500, 1_000, 1,
        {"double", "split", "max_hands", "das", "split_aces", "peek_bj", "blackjack"},
    ),
    # Hole card, soft 17 hit, 6:5, double any two, no DAS, split aces play on, no resplit of
    # aces, late surrender, five-card charlie, insurance paying 3:1 (so Auto insures).
    "variant-late-charlie": (
        Rules(decks=2, hole_card=True, dealer_hits_soft_17=True, blackjack_pays=Fraction(6, 5),
              insurance_pays=Fraction(3), double_hard=None, double_soft=None, double_after_split=False,
              double_makes_aces_hard=False, max_splits_and_doubles=None, max_hands=3,
              split_aces_one_card=False, resplit_aces=False, surrender="late", five_card_charlie=True),
        1_500, 1_000, 1,
        {"double", "split", "resplit", "max_hands", "surrender", "charlie", "insured", "peek_bj"},
    ),
    # One deck, three seats, early surrender before the peek, at most 2 splits and doubles.
    "variant-early-3-seats": (
        Rules(decks=1, hole_card=True, surrender="early", max_splits_and_doubles=2, max_hands=6),
        1_200, 1_000, 3,
        {"double", "split", "resplit", "limit", "das", "surrender", "split_aces"},
    ),
    # One deck, no hole card (early surrender is then a play choice), one split or double,
    # sixteen hands, an odd minimum bet (no insurance: half a bet is 0), bonus 5/2.
    "variant-no-hole-2-seats": (
        Rules(decks=1, surrender="early", max_splits_and_doubles=1, max_hands=16, min_bet=1, bet_step=1,
              three_sevens_bonus=Fraction(5, 2)),
        1_200, 1_000, 2,
        {"double", "split", "limit", "surrender", "split_aces", "sevens"},
    ),
    # The table variants of seed 002 (other-games.md), as shipped ...
    "swedish-pub-blackjack": (
        load_profile("swedish-pub-blackjack").rules, 800, 600, 1, {"tie_lost", "split", "double", "peek_bj"},
    ),
    "spanish-21": (
        load_profile("spanish-21").rules, 800, 600, 1, {"21_beats_21", "blackjack", "split", "peek_bj"},
    ),
    # ... and original bets only with two seats, resplits and late surrender on two decks: the
    # seat's first split hand is played (and paid) apart from the others
    "european-2-seats": (
        load_profile("european-blackjack", {"decks": 2, "max_hands": 3, "resplit_aces": True, "surrender": "late"}).rules,
        1_000, 800, 2,
        {"double", "das", "split", "resplit", "surrender", "dealer_bj", "original_only"},
    ),
    # the two profiles above as shipped (one deck, one split, one seat): every 21-family profile's
    # own rules are checked round for round (eenentwintig's, ochko's and 31's in their test files)
    "casino-blackjack": (
        load_profile("casino-blackjack").rules, 300, 300, 1, {"double", "das", "split", "max_hands", "peek_bj"},
    ),
    "european-blackjack": (
        load_profile("european-blackjack").rules, 300, 300, 1, {"double", "das", "split", "dealer_bj", "original_only"},
    ),
    # the flagship last: its Auto analysis is then still cached for test_game_math_commands
    "random-blackjack": (
        load_profile("random-blackjack").rules, 3_000, 2_000, 1,
        {"double", "split", "resplit", "max_hands", "limit", "das", "split_aces", "double_ace",
         "sevens", "dealer_bj", "blackjack"},
    ),
}


def engine_round(rules: Rules, cards: list[str], seats: int) -> Round:
    rnd = Round.start(rules, cards, [rules.min_bet] * seats)
    while (d := rnd.pending) is not None:
        rnd.act(d.seat, auto_action(rnd))
    return rnd


def features(rnd: Round, seen: Counter) -> None:
    r = rnd.rules
    limit = r.max_splits_and_doubles
    for s in rnd.seats:
        n = len(s.hands)
        seen["split"] += n >= 2
        seen["resplit"] += n >= 3
        seen["max_hands"] += n >= 2 and n == r.max_hands
        seen["limit"] += limit is not None and s.splits_and_doubles >= limit
        seen["insured"] += s.insurance > 0
        seen["sevens"] += s.bonus > 0
        for h in s.hands:
            seen["double"] += h.doubled
            seen["das"] += h.doubled and h.from_split
            seen["surrender"] += h.surrendered
            seen["charlie"] += h.charlie
            seen["split_aces"] += h.split_aces
            seen["double_ace"] += h.doubled and any(c[0] == "A" for c in h.cards)
            seen["blackjack"] += h.result == "blackjack"
            dealer_total = score(rnd.dealer).total
            seen["tie_lost"] += h.result == "lose" and h.total == dealer_total and not h.bust
            seen["21_beats_21"] += h.result == "win" and h.total == dealer_total == 21
            seen["original_only"] += is_natural(rnd.dealer) and h.returned > 0 and h.result in ("lose", "push") and (
                h.from_split or h.doubled)
    dealer_bj = len(rnd.dealer) == 2 and sorted(c[0] == "A" for c in rnd.dealer) == [False, True] and all(
        c[0] in "ATJQK" for c in rnd.dealer
    )
    seen["dealer_bj"] += dealer_bj
    seen["peek_bj"] += dealer_bj and rnd.peeked


def rich_shoes(shoes: numpy.ndarray, seats: int, hole: bool, seed: int) -> numpy.ndarray:
    """Each shoe with one value (a pair card, often an ace, eight or seven) moved to the first
    seat's two cards (and to each other seat's with even odds) and to the next cards drawn, by
    swaps, so each row is still a whole shoe."""
    rng = np.random.default_rng(seed)
    out = shoes.copy()
    after = 2 * seats + 1 + (1 if hole else 0)
    for row in out:
        v = int(rng.choice([1, 1, 2, 3, 6, 7, 7, 8, 8, 9, 10]))
        extra = int(rng.integers(1, 5))
        paired = [0] + [i for i in range(1, seats) if rng.random() < 0.5]
        targets = paired + [seats + 1 + i for i in paired] + list(range(after, after + extra))
        fixed = set()
        for p in targets:
            if row[p] != v:
                cand = [q for q in np.flatnonzero(row == v) if q not in fixed and q > p]
                if not cand:
                    break
                q = cand[0]
                row[p], row[q] = row[q], row[p]
            fixed.add(p)
    return out


# slow: thousands of shoes played by the compiled kernel and again, round by round, by the pure engine
@pytest.mark.parametrize("name", list(RULE_SETS))
def test_the_fast_path_plays_every_round_as_the_engine_does(name):
    rules, n_random, n_rich, seats, expected = RULE_SETS[name]
    shoes = fastsim.shuffled_shoes(rules, n_random, seed=20261130)
    shoes = np.concatenate([shoes, rich_shoes(shoes[:n_rich], seats, rules.hole_card, seed=7)])
    nets, used = fastsim.play_shoes(rules, shoes, seats)
    seen: Counter = Counter()
    bad = []
    for i, row in enumerate(shoes):
        rnd = engine_round(rules, fastsim.shoe_cards(row, rules.decks, deck_ranks(rules.spanish_deck)), seats)
        features(rnd, seen)
        engine = [s.returned - s.staked for s in rnd.seats]
        if engine != nets[i].tolist() or rnd.cards_used != used[i]:
            bad.append((i, engine, nets[i].tolist(), rnd.cards_used, int(used[i])))
    assert not bad, f"{len(bad)} of {len(shoes)} rounds differ, first: {bad[:3]}"
    missing = {f for f in expected if not seen[f]}
    assert not missing, f"the shoes never led to {missing}: {dict(seen)}"


def test_shoe_cards_is_a_genuine_order_of_the_engine_shoe():
    rules = Rules(decks=2)
    row = fastsim.shuffled_shoes(rules, 1, seed=3)[0]
    cards = fastsim.shoe_cards(row, rules.decks)
    assert sorted(cards) == sorted(new_shoe(2))
    assert [value(c) for c in cards] == row.tolist()


def test_the_lazy_deal_is_uniform():
    """Each dealt position holds each card of a 10-card deck 1/10 of the time (chi-square, 99 %)."""
    base = np.arange(10, dtype=np.int8)
    trials = 20_000
    deals = kernels.lazy_deals(base, 10, trials, 12345)
    counts = np.zeros((10, 10))
    for pos in range(10):
        counts[pos] = np.bincount(deals[:, pos], minlength=10)
    assert (np.sort(deals, axis=1) == base).all()
    expected = trials / 10
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    df = 81
    critical = df * (1 - 2 / (9 * df) + 2.326348 * math.sqrt(2 / (9 * df))) ** 3
    assert chi2 < critical


M64 = (1 << 64) - 1


def reference_deals(seed: int, sizes: list[int]) -> list[int]:
    """The kernels' generator written plainly from its definitions: splitmix64 to seed
    xoshiro256**, then for each size k a pick in [0, k) by Lemire's multiply and shift (the high
    32 bits of an output times k, drawn again while the low word is under 2**32 mod k)."""
    x, state = seed, []
    for _ in range(4):
        x = (x + 0x9E3779B97F4A7C15) & M64
        z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        state.append(z ^ (z >> 31))

    def rotl(v: int, k: int) -> int:
        return ((v << k) | (v >> (64 - k))) & M64

    def next64() -> int:
        s0, s1, s2, s3 = state
        out = (rotl((s1 * 5) & M64, 7) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        state[:] = [s0, s1, s2, rotl(s3, 45)]
        return out

    picks = []
    for k in sizes:
        while True:
            m = (next64() >> 32) * k
            if m & 0xFFFFFFFF >= (1 << 32) % k:
                break
        picks.append(m >> 32)
    return picks


def test_the_kernels_generator_is_xoshiro256_starstar_with_an_exact_pick():
    """Every uint64 step stays an integer in numba (mixed with int64 it would go through a
    float): the lazy deal's swaps are the reference generator's picks, pick for pick."""
    base = np.arange(52, dtype=np.int8)
    for seed in (0, 1, 2**31 + 5):
        deals = kernels.lazy_deals(base, 52, 3, seed)
        deck = list(range(52))
        picks = iter(reference_deals(seed, [52 - pos for _ in range(3) for pos in range(52)]))
        for row in deals:
            for pos in range(52):
                j = pos + next(picks)
                deck[pos], deck[j] = deck[j], deck[pos]
            assert row.tolist() == deck


# The two tests below play a rule set of RULE_SETS (one deck, two seats): its Auto analysis and
# its fast-path tables are then those the round-for-round test above already computed.
SHARED_RULES = RULE_SETS["variant-no-hole-2-seats"][0]


def test_fast_simulate_gives_a_tally_that_depends_on_the_seed_not_the_workers():
    rules = SHARED_RULES
    one = fastsim.fast_simulate(rules, 120_000, seed=5, workers=1)
    two = fastsim.fast_simulate(rules, 120_000, seed=5, workers=2)
    other = fastsim.fast_simulate(rules, 120_000, seed=6, workers=2)
    assert isinstance(one, Tally)
    assert dataclasses.astuple(one) == dataclasses.astuple(two)
    assert one.rounds == 120_000 and one.bet == 120_000 * rules.min_bet
    assert dataclasses.astuple(one) != dataclasses.astuple(other)


def test_unknown_table_keys_are_answered_and_their_chunks_played_again(monkeypatch):
    """With empty tables every key is a miss at first; the figure is the prefilled one."""
    rules = SHARED_RULES
    full = fastsim.fast_run(rules, 60_000, seed=9, workers=1, seats=2)
    assert full.replays == 0
    monkeypatch.setattr(fastsim, "_tables_cache", {rules: fastsim.Tables(rules, prefill=False)})
    lazy = fastsim.fast_run(rules, 60_000, seed=9, workers=1, seats=2)
    assert lazy.replays > 0
    assert dataclasses.astuple(lazy.tally) == dataclasses.astuple(full.tally)
    assert lazy.cards == full.cards


def test_the_tables_answers_are_kept_in_the_cache_folder_and_read_back_as_computed(monkeypatch):
    rules = SHARED_RULES
    computed = fastsim.Tables(rules)  # prefilled from the analysis
    path = tablecache.path_of(fastsim.FAST_TABLES, tablecache.rules_key(fastsim.FAST_TABLES, rules.to_dict()))
    path.unlink(missing_ok=True)
    monkeypatch.setattr(fastsim, "_tables_cache", {})
    fastsim.tables(rules)  # computed, and written
    assert path.is_file()

    def refuse(*args):
        raise AssertionError("computed, not read back")

    monkeypatch.setattr(fastsim, "_tables_cache", {})  # a new process
    monkeypatch.setattr(fastsim.Tables, "prefill", refuse)
    monkeypatch.setattr(fastsim, "auto_play_choice", refuse)
    read = fastsim.tables(rules)
    assert read.filled == computed.filled > 0
    for a, b in zip(computed.arrays, read.arrays, strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_answers_that_do_not_fit_the_tables_are_refused_and_nothing_is_changed():
    t = fastsim.Tables(SHARED_RULES, prefill=False)
    ok: dict[str, tablecache.Table] = {"play": {}, "insure": {}, "early": {}}
    cases: list[tuple[str, tablecache.Table]] = [
        ("play", {(0, 0, 0, 0): (9.0,)}), ("play", {(10**4, 0, 0, 0): (1.0,)}),
        ("insure", {(0,): (0.5,)}), ("early", {(0, -1): (0.0,)}),
    ]
    for name, bad in cases:
        assert not t.restore({**ok, name: bad})
    assert not t.restore({"play": {}})
    assert (t.play < 0).all() and (t.insure < 0).all() and (t.early < 0).all() and t.filled == 0


@pytest.mark.slow  # cabinet bench repeats it at 10 M rounds; tools/bench runs it
def test_fast_simulate_agrees_with_the_exact_rtp():
    rules = load_profile("random-blackjack").rules
    t = fastsim.fast_simulate(rules, 2_000_000, seed=1)
    exact = game_rtp(rules).rtp
    assert abs(t.rtp - exact) < t.half_width, (t.rtp, t.half_width, exact)


def test_settings_the_fast_path_cannot_deal_are_refused():
    with pytest.raises(fastsim.FastSimError, match="decks"):
        fastsim.fast_simulate(Rules(decks=0), 10)
    with pytest.raises(fastsim.FastSimError, match="seat"):
        fastsim.fast_simulate(Rules(), 10, seats=0)


def test_the_fast_path_reads_the_doubling_totals_from_the_rules_so_a_split_21_stands():
    casino = fastsim.rule_params(load_profile("casino-blackjack").rules)
    assert not casino[fastkernel.P_DSOFT] >> 21 & 1 and casino[fastkernel.P_DSOFT] >> 20 & 1  # "any" but 21
    assert fastsim.rule_params(load_profile("random-blackjack").rules)[fastkernel.P_DSOFT] >> 21 & 1
