"""The regulators' tests of the shuffle (machine/devtools/shufflestats.py, ``cabinet bench shuffle``):
each one catches the fault it is for, and the cabinet's shuffle passes all three (slow: tools/bench)."""

from __future__ import annotations

import random

import pytest

from machine.devtools import shufflestats as st


def test_the_chi_square_critical_value_is_the_tables():
    # the 99th percentile of chi-square with 100 degrees of freedom is 135.807 (tables)
    assert st.chi_square_critical(100) == pytest.approx(135.807, abs=0.1)
    assert st.chi_square_critical(2601) == pytest.approx(2771.7, abs=1.0)


def test_a_shuffle_that_leaves_cards_near_their_place_fails_the_positions_test():
    rng = random.Random(5)
    decks = []
    for _ in range(3000):  # only neighbours swapped: position follows the card
        d = list(range(st.DECK))
        for i in range(0, st.DECK - 1, 2):
            if rng.random() < 0.5:
                d[i], d[i + 1] = d[i + 1], d[i]
        decks.append(d)
    assert not st.positions(decks).passed


def test_a_deck_cut_into_halves_fails_the_runs_test():
    rng = random.Random(6)
    low, high = list(range(st.DECK // 2)), list(range(st.DECK // 2, st.DECK))
    decks = [rng.sample(low, len(low)) + rng.sample(high, len(high)) for _ in range(500)]
    assert not st.runs(decks).passed


def test_rounds_that_remember_the_last_shoe_fail_the_serial_test():
    rng = random.Random(7)
    decks = [st.shuffles(1, rng)[0]]
    for _ in range(2000):  # each shoe the last one with two cards swapped
        d = list(decks[-1])
        i, j = rng.randrange(st.DECK), rng.randrange(st.DECK)
        d[i], d[j] = d[j], d[i]
        decks.append(d)
    assert not st.serial(decks).passed


@pytest.mark.slow
def test_the_cabinets_shuffle_passes_every_test_at_99_percent():
    found = st.run_all(20_000, random.Random(2024))
    assert [f.passed for f in found] == [True, True, True], [f.line() for f in found]


def test_the_positions_test_rejects_a_fair_shuffle_about_one_time_in_a_hundred():
    # Pearson's sum over a table of permutations unscaled has mean 52 x 51, not 51²: at "99 %"
    # it refused 9 of these 200 fair runs (4.5 %); scaled by 51/52 it is chi-square with 51²
    refused = sum(not st.positions(st.shuffles(200, random.Random(seed))).passed for seed in range(200))
    assert refused <= 4
