"""The shuffle's statistics (issue 24, item 8): the cabinet's shuffler passes the tests regulators
name at 99 %, and each test fails a shuffle that is wrong in the way it looks for."""

import random

import pytest

from machine.devtools.bench.shuffle import cabinet_shuffle, chi2_critical, shuffle_statistics

NAMES = ["chi-square, every card at every position", "chi-square, the worst card's positions",
         "cards over their own critical value (of 52)", "runs above/below the median (z²)",
         "runs up and down (z²)", "serial correlation of consecutive cards (z²)"]


def verdicts(shuffle, shuffles=2000):
    return {s.name: s.passed for s in shuffle_statistics(shuffle, shuffles)}


@pytest.mark.slow
def test_the_cabinets_shuffle_passes_every_test_at_99_percent():
    # the product's shuffler over a seeded generator of the same randrange (the product: SystemRandom)
    for seed in (1, 2, 3):
        assert verdicts(cabinet_shuffle(random.Random(seed)), 3000) == dict.fromkeys(NAMES, True), seed


def sattolo(rng):
    """Sattolo's off-by-one Fisher-Yates: no card ever stays where it was."""
    def shuffle(cards):
        for i in range(len(cards) - 1, 0, -1):
            j = rng.randrange(i)
            cards[i], cards[j] = cards[j], cards[i]
        return cards
    return shuffle


def rotation(rng):
    """A random cut of the fresh deck: every card uniform over the positions, neighbours kept."""
    def shuffle(cards):
        k = rng.randrange(len(cards))
        return cards[k:] + cards[:k]
    return shuffle


def test_a_shuffle_that_never_leaves_a_card_in_place_fails_the_position_tests():
    v = verdicts(sattolo(random.Random(1)))
    assert [v[n] for n in NAMES[:3]] == [False, False, False]


def test_a_cut_that_keeps_neighbours_fails_the_runs_and_the_serial_correlation():
    v = verdicts(rotation(random.Random(1)))
    assert [v[n] for n in NAMES[3:]] == [False, False, False]
    assert v[NAMES[0]] and v[NAMES[1]]  # each card's position alone is uniform


def test_the_critical_values_are_the_tables():
    # chi-square at 99 %: df 1 6.635, df 51 77.386, df 2601 ~2771.7 (Wilson-Hilferty beyond df 1)
    assert chi2_critical(1) == pytest.approx(6.6349, abs=1e-3)
    assert chi2_critical(51) == pytest.approx(77.386, rel=1e-3)
    assert chi2_critical(10) == pytest.approx(23.209, rel=2e-3)
