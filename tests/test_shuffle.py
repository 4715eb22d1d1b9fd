"""The shuffle is unbiased: every card is equally likely at every position."""

from __future__ import annotations

import math
import random
from collections import Counter

from machine.games.cards import RANKS, new_shoe, parse_card, shuffle


def chi_square_critical_99(df: int) -> float:
    """The 99 % point of the chi-square distribution (Wilson-Hilferty; within 0.1 % for df > 30)."""
    z = 2.326348  # the 99 % point of the standard normal
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_chi_square_over_positions_is_below_the_99_percent_point():
    n, trials = 10, 20_000
    rng = random.Random(20261130)
    counts: Counter[tuple[int, int]] = Counter()
    items = [str(i) for i in range(n)]
    for _ in range(trials):
        for pos, item in enumerate(shuffle(items, rng)):
            counts[int(item), pos] += 1
    expected = trials / n
    chi2 = sum((counts[i, p] - expected) ** 2 / expected for i in range(n) for p in range(n))
    # (n-1)^2 degrees of freedom: each row and each column of the table sums to `trials`.
    assert chi2 < chi_square_critical_99((n - 1) ** 2)


def test_a_biased_shuffle_is_caught_by_the_same_test():
    """The naive swap-with-any-position shuffle is biased; the test must see it."""
    n, trials = 10, 20_000
    rng = random.Random(7)
    counts: Counter[tuple[int, int]] = Counter()
    for _ in range(trials):
        items = list(range(n))
        for i in range(n):
            j = rng.randrange(n)
            items[i], items[j] = items[j], items[i]
        for pos, item in enumerate(items):
            counts[item, pos] += 1
    expected = trials / n
    chi2 = sum((counts[i, p] - expected) ** 2 / expected for i in range(n) for p in range(n))
    assert chi2 > chi_square_critical_99((n - 1) ** 2)


def test_the_critical_value_matches_the_tables():
    assert abs(chi_square_critical_99(81) - 113.51) < 0.1  # tables: 113.512


def test_the_shoe_holds_n_decks_and_the_shuffle_keeps_every_card():
    shoe = new_shoe(6)
    assert len(shoe) == 312 and Counter(shoe)["AS"] == 6 and len(set(shoe)) == 52
    assert sorted(shuffle(shoe, random.Random(1))) == sorted(shoe)
    assert {c[0] for c in shoe} == set(RANKS)


def test_the_same_seed_gives_the_same_order_and_the_input_is_untouched():
    shoe = new_shoe(1)
    copy = list(shoe)
    assert shuffle(shoe, random.Random(5)) == shuffle(shoe, random.Random(5))
    assert shoe == copy


def test_card_codes():
    assert parse_card("10h") == "TH" and parse_card(" as ") == "AS"
    for bad in ("1S", "AX", "", "10", 10, None, "KSS"):
        try:
            parse_card(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} accepted")
