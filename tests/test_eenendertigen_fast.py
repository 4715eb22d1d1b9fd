"""Eenendertigen's compiled fast path against the engine and the Python strategy.

The kernel's tables are checked entry for entry against ``score2``, ``value`` and ``draw_sum``
(the same floats, not nearly the same), and whole rounds on identical shuffled decks are played
through the kernel and through ``play_round`` (the engine with ``choose`` in every place): the
same final hands in the same order, winners, Auto's return, cards used and turns, round for
round, for both variants. Skipped when numba (the ``fast`` extra) is not installed, except the
one-line refusal without it.
"""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from fractions import Fraction

import pytest

from machine.gamemath import eenendertigen as een
from machine.games.eenendertigen.rules import score2
from machine.profiles import load_profile

CLASSIC = load_profile("eenendertigen").rules
MODERN = load_profile("eenendertigen", {"variant": "modern"}).rules


def test_without_numba_the_fast_path_fails_with_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.delitem(sys.modules, "machine.gamemath.eenendertigen.fast", raising=False)
    monkeypatch.delitem(sys.modules, "machine.gamemath.kernels", raising=False)
    import machine.gamemath
    import machine.gamemath.eenendertigen

    # imported by an earlier test: the package keeps it as an attribute
    monkeypatch.delattr(machine.gamemath.eenendertigen, "fast", raising=False)
    monkeypatch.delattr(machine.gamemath, "kernels", raising=False)
    with pytest.raises(ValueError, match=r"^the fast simulator needs numba: pip install 'cabinet\[fast\]'"):
        een.fast_simulate(CLASSIC, 10)


@pytest.mark.parametrize("variant", ["classic", "modern"])
def test_the_tables_hold_the_python_strategys_own_floats(variant):
    pytest.importorskip("numba")
    from machine.gamemath.eenendertigen import fast

    t = fast.tables(variant)
    rng = random.Random(variant)
    hands = [tuple(rng.sample(t.cards, 3)) for _ in range(150)]
    # hands of 31, three of a rank and with a 31 one card away, where the values jump
    hands += [("AS", "KS", "QS"), ("7H", "7S", "7D"), ("AS", "KS", "9H"), ("TD", "AD", "8D")]
    for hand in hands:
        a, b, c = t.index(hand)
        assert t.S[a, b, c] == t.S[c, a, b] == score2(hand), hand
        assert t.V[0, a, b, c] == een.value(variant, hand, False), hand
        assert t.V[1, b, c, a] == een.value(variant, hand, True), hand
        if variant == "modern" and (len(hands) - hands.index(hand) <= 16):  # Python's draw sums are slow: a few
            key = tuple(sorted(hand))
            assert t.D[0, a, b, c] == een.draw_sum(key, False), hand
            assert t.D[1, c, b, a] == een.draw_sum(key, True), hand


def test_the_kernels_sum_adds_as_this_pythons_sum():
    """A draw's value is a table's sum less the pile's: both must be Python's own ``sum`` of floats
    (plain before 3.12, compensated from 3.12), bit for bit, whichever Python runs."""
    pytest.importorskip("numba")
    from machine.gamemath.eenendertigen import fast

    rng = random.Random(3)
    for _ in range(200):
        xs = [rng.choice([1062.0, 61.0, 1e-3, -7.25]) * rng.random() + rng.randrange(60) for _ in range(rng.randrange(1, 50))]
        acc, comp = 0.0, 0.0
        for x in xs:
            acc, comp = fast._sum_add(acc, comp, x, fast.NEUMAIER)
        assert fast._sum_end(acc, comp, fast.NEUMAIER) == sum(xs)


def rigged(decks):
    """Every fifth deck deals a 31 to one place, every tenth to two (knocks on the deal, the one
    more turn of every other place); the other decks as they were shuffled."""
    out = []
    for j, deck in enumerate(decks):
        deck = list(deck)
        if j % 5 == 0:
            places = [j // 5 % 4] + ([(j // 5 + 1) % 4] if j % 10 == 0 else [])
            for place, suit in zip(places, "SH", strict=False):
                for k, rank in enumerate("AKQ"):  # a place's cards are dealt at p, p + 4, p + 8
                    at, card = place + 4 * k, rank + suit
                    i = deck.index(card)
                    deck[at], deck[i] = deck[i], deck[at]
        out.append(deck)
    return out


def engine_round(rules, deck):
    rnd = een.play_round(rules, deck)
    return ([p.cards for p in rnd.places], rnd.winners, rnd.places[0].returned, rnd.cards_used, rnd.turns, rnd.ended)


@pytest.mark.parametrize(("rules", "rounds"), [(CLASSIC, 300), (MODERN, 200)])
def test_the_kernel_plays_every_round_as_the_engine(rules, rounds):
    pytest.importorskip("numba")
    from machine.gamemath.eenendertigen import fast

    decks = rigged(fast.shuffled_decks(rules.variant, rounds, 12))
    ends: dict[str, int] = {}
    ties = 0
    dealt_31 = 0
    for i, (deck, got) in enumerate(zip(decks, fast.play_decks(rules, decks), strict=True)):
        hands, winners, returned, used, turns, ended = engine_round(rules, list(deck))
        assert (got.hands, got.winners, got.returned, got.cards_used, got.turns) == (hands, winners, returned, used, turns), i
        ends[ended] = ends.get(ended, 0) + 1
        ties += len(winners) > 1
        dealt_31 += ended == "31" and turns <= 3
    # the rounds met every way a variant's round ends, ties and knocks on the deal
    assert dealt_31 >= rounds // 5
    assert set(ends) == ({"31", "swaps", "all passed"} if rules.variant == "classic" else {"31", "all passed", "stack empty"})
    assert ties > 0


def test_a_tie_shares_win_pays_by_the_floor_and_a_seed_gives_one_figure_on_any_threads():
    pytest.importorskip("numba")
    from machine.gamemath.eenendertigen import fast

    rules = replace(CLASSIC, win_pays=Fraction(5, 2), min_bet=6)
    one, two = fast.fast_run(rules, 3000, 4, 1), fast.fast_run(rules, 3000, 4, 2)
    assert one.tally == two.tally and one.wins == two.wins
    w1, w2, w3, w4 = one.wins
    assert one.tally.rounds == 3000 and one.tally.bet == 18_000
    # alone 15, two tied 7 (7.5 floored), three 5, four 3 (3.75 floored)
    assert one.tally.net == 15 * w1 + 7 * w2 + 5 * w3 + 3 * w4 - 18_000
    assert w1 > 0 and w2 > 0
    assert een.fast_simulate(rules, 3000, 4, 1) == one.tally
