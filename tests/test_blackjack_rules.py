"""The rules of the blackjack family, written once in machine.games.blackjack.scoring.

Each rule is pinned on its own (exact totals, draws, returns), then checked to be the one the
engine's hands, the analysis's compositions and the compiled fast path use: the fast path
compiles the very same functions, and each compiled rule must answer as the plain one does.
"""

from __future__ import annotations

import itertools

import pytest

from machine.gamemath.blackjack import shoe
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.hand import earns_three_sevens, is_natural, score


def test_one_ace_counts_eleven_only_while_the_total_stays_at_21_or_less():
    assert bj.hand_score(7, True, False) == (17, True)  # A 6
    assert bj.hand_score(11, True, False) == (21, True)  # A T
    assert bj.hand_score(12, True, False) == (12, False)  # A A T
    assert bj.hand_score(7, True, True) == (7, False)  # after a double in Random Blackjack
    assert bj.hand_score(16, False, False) == (16, False)


def test_the_hard_total_of_value_counts_counts_every_ace_as_one():
    counts = (2, 0, 0, 0, 0, 0, 1, 0, 0, 1)  # A A 7 T
    assert bj.counts_hard_total(counts) == 19
    assert shoe.score(counts) == (19, False)
    assert shoe.score((1, 0, 0, 0, 0, 1, 0, 0, 0, 0)) == (17, True)


def test_a_natural_is_an_ace_and_a_ten_as_exactly_two_cards():
    assert bj.is_natural(2, 11, True)
    assert not bj.is_natural(3, 11, True)  # A 5 5
    assert not bj.is_natural(2, 11, False)  # impossible without an ace, but the rule says so
    assert is_natural(["AS", "KD"]) and not is_natural(["AS", "5D", "5C"]) and not is_natural(["AS", "AD"])
    assert shoe.is_natural((1, 0, 0, 0, 0, 0, 0, 0, 0, 1)) and not shoe.is_natural((1, 0, 0, 0, 2, 0, 0, 0, 0, 0))


def test_three_sevens_earn_the_bonus_only_as_exactly_three_cards_and_not_after_a_split():
    assert bj.earns_three_sevens(False, 3, 3)
    assert not bj.earns_three_sevens(True, 3, 3)
    assert not bj.earns_three_sevens(False, 4, 3)
    assert earns_three_sevens(["7S", "7H", "7D"]) and not earns_three_sevens(["7S", "7H", "7D"], from_split=True)
    assert shoe.earns_three_sevens((0, 0, 0, 0, 0, 0, 3, 0, 0, 0), False)
    assert bj.ratio_of(10, 1, 1) == 10 and bj.ratio_of(5, 3, 2) == 7  # rounded down to a point


@pytest.mark.parametrize(
    ("total", "soft", "h17", "draws"),
    [(16, False, False, True), (17, False, True, False), (17, True, False, False), (17, True, True, True),
     (18, True, True, False), (12, True, False, True)],
)
def test_the_dealer_draws_below_17_and_on_soft_17_only_when_the_rules_say(total, soft, h17, draws):
    assert bj.dealer_draws(total, soft, h17) is draws


def test_the_dealer_peeks_only_with_a_hole_card_under_an_ace_or_a_ten():
    assert [up for up in range(1, 11) if bj.dealer_peeks(True, up)] == [1, 10]
    assert not any(bj.dealer_peeks(False, up) for up in range(1, 11))


def test_a_bust_a_charlie_and_an_early_surrender_do_not_wait_for_the_dealer():
    # (total, natural, charlie, surrendered, early, hole card)
    for hole in (False, True):
        assert bj.waits_for_dealer(20, False, False, False, False, hole)
        assert not bj.waits_for_dealer(22, False, False, False, False, hole)
        assert not bj.waits_for_dealer(18, False, True, False, False, hole)
        assert not bj.waits_for_dealer(16, False, False, True, True, hole)
    assert bj.waits_for_dealer(16, False, False, True, False, False)  # late: loses all to a dealer blackjack


def test_with_a_hole_card_a_blackjack_and_a_surrender_no_longer_wait_nor_does_insurance():
    # the peek has settled what a dealer blackjack decides; without a hole card it has not
    assert not bj.waits_for_dealer(21, True, False, False, False, True)
    assert bj.waits_for_dealer(21, True, False, False, False, False)
    assert not bj.waits_for_dealer(16, False, False, True, False, True)  # late, after the peek
    assert bj.waits_for_dealer(21, False, False, False, False, True)  # a 21 of three cards still waits
    assert not bj.insurance_waits_for_dealer(True) and bj.insurance_waits_for_dealer(False)


def settle(stake, total, natural, surrendered, charlie, d_total, d_natural, late=False, *, bet=None, first=True,
           original=False, ties=0, p21=False, num=3, den=2):
    code, returned = bj.settle_hand(stake, stake if bet is None else bet, total, natural, surrendered, charlie, first,
                                    d_total, d_natural, late, original, ties, p21, num, den)
    return bj.RESULTS[code], returned


# (stake, total, natural, surrendered, charlie, dealer total, dealer natural, late) -> (result, returned)
SETTLEMENTS = [
    ((10, 20, False, False, False, 19, False, False), ("win", 20)),
    ((10, 19, False, False, False, 19, False, False), ("push", 10)),
    ((10, 18, False, False, False, 19, False, False), ("lose", 0)),
    ((10, 12, False, False, False, 25, False, False), ("win", 20)),  # the dealer bust
    ((10, 23, False, False, False, 25, False, False), ("lose", 0)),  # the seat bust first
    ((10, 21, True, False, False, 20, False, False), ("blackjack", 25)),  # 3 to 2
    ((10, 21, True, False, False, 21, True, False), ("push", 10)),
    ((10, 21, False, False, False, 21, True, False), ("lose", 0)),  # 21 in three loses to a blackjack
    ((20, 15, False, False, True, 21, True, False), ("win", 40)),  # a charlie beats even a blackjack
    ((10, 16, False, True, False, 20, False, True), ("surrender", 5)),
    ((10, 16, False, True, False, 21, True, True), ("lose", 0)),  # late: all lost to a blackjack
    ((10, 16, False, True, False, 21, True, False), ("surrender", 5)),  # early: half back
    ((5, 16, False, True, False, 20, False, False), ("surrender", 2)),  # half a point rounded down
]


@pytest.mark.parametrize(("args", "want"), SETTLEMENTS)
def test_the_settlement_table(args, want):
    assert settle(*args) == want


def test_a_blackjack_pays_the_rules_ratio_rounded_down():
    assert settle(10, 21, True, False, False, 20, False, num=6, den=5) == ("blackjack", 22)
    assert settle(5, 21, True, False, False, 20, False) == ("blackjack", 12)


def test_original_bets_only_the_first_hand_loses_the_bet_the_others_push_a_bust_has_lost():
    dealer_bj = dict(d_total=21, d_natural=True)
    assert settle(20, 19, False, False, False, bet=10, original=True, **dealer_bj) == ("lose", 10)  # double back
    assert settle(10, 19, False, False, False, bet=10, original=True, **dealer_bj) == ("lose", 0)
    assert settle(20, 19, False, False, False, bet=10, first=False, original=True, **dealer_bj) == ("push", 20)
    assert settle(10, 23, False, False, False, bet=10, first=False, original=True, **dealer_bj) == ("lose", 0)
    assert settle(20, 19, False, False, False, bet=10, original=False, **dealer_bj) == ("lose", 0)  # all
    # no dealer blackjack: the setting changes nothing
    assert settle(20, 19, False, False, False, 18, False, bet=10, first=False, original=True) == ("win", 40)


def test_the_dealer_wins_ties_on_the_listed_totals_only():
    ties = (1 << 17) | (1 << 18) | (1 << 19)
    assert [settle(10, t, False, False, False, t, False, ties=ties)[0] for t in range(17, 22)] == [
        "lose", "lose", "lose", "push", "push"]
    assert settle(10, 21, True, False, False, 21, True, ties=ties | 1 << 21) == ("push", 10)  # blackjacks push
    assert settle(10, 19, False, False, False, 18, False, ties=ties) == ("win", 20)


def test_the_players_21_beats_a_dealer_21_and_a_blackjack_beats_a_dealer_blackjack():
    assert settle(10, 21, False, False, False, 21, False, p21=True) == ("win", 20)
    assert settle(10, 21, False, False, False, 21, False) == ("push", 10)
    assert settle(10, 21, False, False, False, 21, True, p21=True) == ("lose", 0)  # a dealer blackjack still wins
    assert settle(10, 21, True, False, False, 21, True, p21=True) == ("blackjack", 25)
    assert settle(10, 20, False, False, False, 20, False, p21=True) == ("push", 10)


def test_insurance_returns_stake_and_winnings_only_against_a_dealer_blackjack():
    assert bj.insurance_return(5, True, 2, 1) == 15
    assert bj.insurance_return(5, False, 2, 1) == 0
    assert bj.insurance_return(0, True, 2, 1) == 0
    assert bj.insurance_return(5, True, 3, 2) == 12  # 5 + 7.5 rounded down


def test_the_engine_hand_and_the_analysis_composition_agree_on_every_small_hand():
    ranks = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS"]
    for n in (2, 3, 4):
        for hand in itertools.combinations_with_replacement(range(10), n):
            cards = [ranks[v] for v in hand]
            counts = tuple(hand.count(v) for v in range(10))
            for aces_hard in (False, True):
                assert tuple(score(cards, aces_hard)) == shoe.score(counts, aces_hard)
            assert is_natural(cards) == shoe.is_natural(counts)
            assert earns_three_sevens(cards) == shoe.earns_three_sevens(counts, False)


# -- the same functions, compiled -----------------------------------------------------------------

RULE_GRID = {
    "hand_score": itertools.product(range(2, 32), (False, True), (False, True)),
    "is_natural": itertools.product(range(1, 6), range(2, 22), (False, True)),
    "earns_three_sevens": itertools.product((False, True), range(1, 6), range(0, 5)),
    "dealer_draws": itertools.product(range(2, 27), (False, True), (False, True)),
    "dealer_peeks": itertools.product((False, True), range(1, 11)),
    "waits_for_dealer": itertools.product(range(4, 27), *[(False, True)] * 5),
    "insurance_waits_for_dealer": [(False,), (True,)],
    "settle_hand": itertools.product(
        (5, 10), (5,), (12, 18, 20, 21, 23), (False, True), (False, True), (False, True), (False, True),
        (17, 18, 21, 24), (False, True), (False, True), (False, True), (0, 0b1110 << 16), (False, True), (3, 6), (2, 5),
    ),
    "ratio_of": itertools.product((2, 5, 10, 500), (0, 1, 3), (1, 2, 4)),
    "insurance_return": itertools.product((0, 1, 5, 250), (False, True), (1, 2, 3), (1, 2)),
}


@pytest.mark.parametrize("name", sorted(RULE_GRID))
def test_every_rule_compiles_with_numba_and_answers_as_the_plain_function(name):
    numba = pytest.importorskip("numba")
    plain = getattr(bj, name)
    compiled = numba.njit(plain)
    for args in RULE_GRID[name]:
        assert compiled(*args) == plain(*args), (name, args)


def test_the_fast_path_compiles_these_rules_and_its_cache_follows_their_source():
    pytest.importorskip("numba")
    from machine.gamemath.blackjack import fastkernel

    assert fastkernel._settle_hand.py_func is bj.settle_hand
    assert fastkernel._dealer_draws.py_func is bj.dealer_draws
    assert fastkernel._peeks.py_func is bj.dealer_peeks
    try:
        locator = fastkernel.play_given_shoes._cache._impl._locator  # numba's internals
    except AttributeError:
        pytest.skip("this numba keeps its cache locator elsewhere")
    assert fastkernel.RULES_DIGEST in locator.get_source_stamp()

