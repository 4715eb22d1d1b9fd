"""Eenentwintig's math: the exact analysis against brute force, Auto, the return and the bet
rule, the commands, and the fast path against the engine round for round."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest

from machine.gamemath import eenentwintig as een
from machine.gamemath.eenentwintig.exact import OUTCOME_KEYS, ZERO, Exact, comp_of
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.profiles import load_profile

RULES: EenentwintigRules = load_profile("eenentwintig").rules
ONE_DECK = replace(RULES, decks=1)


# -- brute force, card sequence by card sequence (no multisets merged) --------------------------


def brute_bank(deck: dict[int, int], rules: EenentwintigRules) -> dict[int, float]:
    """The bank's final key, by every sequence of cards it can draw from ``deck``."""
    out: dict[int, float] = {}

    def rec(cards: list[int], p: float) -> None:
        n = len(cards)
        hard = sum(cards)
        total = hard + 10 if 1 in cards and hard + 10 <= 21 else hard
        two_aces = rules.two_aces_twenty_and_a_half and cards == [1, 1]
        if n >= 2 and (two_aces or total >= 17):
            if total > 21:
                key = 0
            elif two_aces:
                key = 41
            elif rules.three_sevens_beat_21 and cards == [7, 7, 7]:
                key = 43
            else:
                key = 2 * total
            out[key] = out.get(key, 0.0) + p
            return
        left = sum(deck.values())
        for v, c in list(deck.items()):
            if c:
                deck[v] -= 1
                rec(cards + [v], p * c / left)
                deck[v] += 1

    rec([], 1.0)
    return out


def deck_without(rules: EenentwintigRules, *values: int) -> dict[int, int]:
    deck = {v: 4 * rules.decks for v in sc.VALUES}
    for v in values:
        deck[v] -= 1
    return deck


@pytest.mark.parametrize("rules", [ONE_DECK, replace(ONE_DECK, two_aces_twenty_and_a_half=False, three_sevens_beat_21=False)])
@pytest.mark.parametrize("seen", [(), (10, 9), (7, 7, 1), (1, 1, 2, 3)])
def test_the_banks_distribution_is_the_brute_force_one(rules, seen):
    e = Exact(rules)
    got = dict(zip(OUTCOME_KEYS, e.bank(comp_of(seen)), strict=True))
    want = brute_bank(deck_without(rules, *seen), rules)
    assert set(want) <= set(OUTCOME_KEYS)
    for k in OUTCOME_KEYS:
        assert got[k] == pytest.approx(want.get(k, 0.0), abs=1e-12), k


def brute_hand(hand: list[int], deck: dict[int, int], rules: EenentwintigRules) -> float:
    """The best of pass and buy for an unsplit hand of three or more cards, sequence by sequence."""
    hard = sum(hand)
    total = hard + 10 if 1 in hand and hard + 10 <= 21 else hard
    if total > 21:
        return -1.0
    key = 43 if rules.three_sevens_beat_21 and hand == [7, 7, 7] else 2 * total
    bank = brute_bank(dict(deck), rules)
    stand = sum(p * ((key > b) - (key < b)) for b, p in bank.items())
    if total >= 21 or len(hand) >= 7:
        return stand
    left = sum(deck.values())
    buy = 0.0
    for v, c in list(deck.items()):
        if c:
            deck[v] -= 1
            buy += c / left * brute_hand(hand + [v], deck, rules)
            deck[v] += 1
    return max(stand, buy)


@pytest.mark.parametrize("hand", [[10, 8, 1], [9, 4, 3, 2], [7, 7, 2], [1, 1, 2, 3, 4, 4]])
def test_a_hands_value_is_the_brute_force_one(hand):
    e = een.analysis(ONE_DECK)
    want = brute_hand(list(hand), deck_without(ONE_DECK, *hand), ONE_DECK)
    assert e.hand(comp_of(hand), ZERO, False) == pytest.approx(want, abs=1e-12)


def test_the_first_choices():
    e = een.analysis(RULES)
    assert set(e.choices(comp_of([1, 10]))) == {"stand"}  # a natural only passes
    assert set(e.choices(comp_of([7, 8]))) == {"stand", "hit", "wash"}
    assert set(e.choices(comp_of([7, 8]), comp_of([7, 8]))) == {"stand", "hit"}  # washed once
    c = e.choices(comp_of([9, 9]))
    assert c["split"] == 2 * e.split_hand(sc.VALUES.index(9), ZERO)
    assert e.choices(comp_of([1, 1]))["stand"] > e.choices(comp_of([10, 10]))["stand"]  # 20.5 above 20
    inf = een.analysis(replace(RULES, decks=0))
    assert inf.hand(comp_of([10, 2]), ZERO, False) == inf.hand(comp_of([10, 2]), comp_of([9, 9]), False)


def test_the_exact_returns():
    assert een.exact_rtp(RULES) == pytest.approx(0.9943919040437047, abs=1e-12)
    assert een.exact_rtp(replace(RULES, decks=0)) == pytest.approx(0.9932078689959124, abs=1e-12)
    assert een.exact_rtp(replace(RULES, decks=1)) == pytest.approx(0.9960094516228408, abs=1e-12)
    # the bank's two aces standing on 20.5 cost the seats more than their own 20.5 brings
    plain = een.exact_rtp(replace(RULES, two_aces_twenty_and_a_half=False, three_sevens_beat_21=False))
    assert plain == pytest.approx(0.9988138911666331, abs=1e-12)


def test_the_best_bet_rule_follows_the_open_card():
    rule = een.bet_rule(RULES)
    assert rule["text"] == "bet 10 when the open card is an ace or a ten, else 2"
    assert [(r["open_card"], r["bet"]) for r in rule["table"] if r["bet"] == 10] == [("A", 10), ("T", 10)]
    assert sum(r["chance"] * r["net_per_point"] for r in rule["table"]) == pytest.approx(een.exact_rtp(RULES) - 1)
    assert rule["average_bet"] == pytest.approx(4.0) and rule["rtp"] == pytest.approx(1.1002338, abs=1e-6)


def test_auto_bets_the_minimum_and_plays_the_best_offered_choice():
    rnd = EenentwintigRound.start(RULES, "9S 9D 9H 8C TS TH".split(), [1], funds=[6])
    assert een.auto_action(rnd) == "bet:2"
    rnd.act(1, "bet:4")  # funds left: 2, no split
    values = een.option_values(RULES, comp_of([9, 9]), ZERO, False)
    assert een.best_of(values) == "split" and een.auto_action(rnd) == "stand"  # the best of what is offered
    rnd = EenentwintigRound.start(RULES, "7S 9D 8H 8C 9S TS".split(), [1])
    rnd.act(1, "bet:2")
    assert een.auto_action(rnd) == "wash"


def test_auto_counts_the_other_split_hands_pair_card_and_the_washed_cards_as_gone():
    rnd = EenentwintigRound.start(RULES, "7S 9D 8H 8C 9S 9H TS TH".split(), [1])
    for a in ("bet:2", "wash", "split"):
        rnd.act(1, a)
    assert een.seen_by(rnd, 1, 0) == (comp_of([9, 10]), comp_of([7, 8, 9]), True)


def test_the_engine_simulator_plays_auto_and_a_seed_gives_the_same_figure():
    a = een.simulate(RULES, 600, seats=2, seed=3, workers=1)
    b = een.simulate(RULES, 600, seats=2, seed=3, workers=1)
    assert a.rounds == 600 and a.bet == 600 * 2 * 2 and (a.net, a.sum_xx) == (b.net, b.sum_xx)


def cabinet(*args: str, script: str = "game: eenentwintig\n") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "machine", *args, "-"], input=script, capture_output=True, text=True)


def test_cabinet_rtp_gives_the_flat_bet_return_and_the_bet_rule_under_their_own_keys():
    proc = cabinet("rtp", "--json", script="game: eenentwintig\nrules: {decks: 0}\n")
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["rtp"] == pytest.approx(0.9932078689959124, abs=1e-12) and rep["house_edge"] == pytest.approx(1 - rep["rtp"])
    assert rep["bet_rule"].startswith("bet 10 when the open card is") and rep["bet_rule_rtp"] > 1
    assert rep["rules"]["decks"] == 0


def test_cabinet_strategy_prints_the_chart(capsys, monkeypatch):
    import io

    from machine.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("game: eenentwintig\n"))
    assert main(["strategy", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "   7  B  P  W  B  B  B  B  B" in lines  # 7 and 8: wash; 7 and 7: split
    assert any(line.startswith("Bet: bet 10 when the open card is an ace or a ten") for line in lines)


# -- the fast path --------------------------------------------------------------------------------


def test_without_numba_the_fast_path_fails_with_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.delitem(sys.modules, "machine.gamemath.eenentwintig.fast", raising=False)
    monkeypatch.delitem(sys.modules, "machine.gamemath.kernels", raising=False)
    with pytest.raises(ValueError, match=r"^the fast simulator needs numba: pip install 'cabinet\[fast\]'"):
        een.fast_simulate(RULES, 10)


def rich(shoes, seats: int):
    """The shoes with 7 and 8 or a pair where the seats' first cards fall, so washes and splits
    (after a wash too) come often."""
    import numpy as np

    out = shoes.copy()
    rng = np.random.default_rng(5)
    seven, eight = sc.VALUES.index(7), sc.VALUES.index(8)
    for row in out:
        for s in range(seats):
            want = [seven, eight] if rng.random() < 0.5 else [int(rng.integers(8))] * 2
            if rng.random() < 0.3:
                want = [seven, eight]  # then a wash
            for pos, v in zip((s, seats + 1 + s), want, strict=True):
                found = np.flatnonzero(row[pos:] == v)
                if len(found):  # a small shoe may hold no more of it
                    j = int(found[0]) + pos
                    row[pos], row[j] = row[j], row[pos]
    return out


@pytest.mark.parametrize(("decks", "seats"), [(2, 1), (1, 3), (8, 2)])
def test_the_fast_path_plays_every_round_as_the_engine(decks, seats):
    pytest.importorskip("numba")
    from machine.gamemath.eenentwintig import fast

    rules = replace(RULES, decks=decks)
    random_shoes = fast.shuffled_shoes(rules, 400, decks)
    seen = {"wash": 0, "split": 0}
    for shoes in (random_shoes, rich(random_shoes, seats)):
        nets, used = fast.play_shoes(rules, shoes, seats)
        for i in range(shoes.shape[0]):
            rnd = EenentwintigRound.start(rules, fast.shoe_cards(shoes[i], decks), list(range(1, seats + 1)))
            while (d := rnd.pending) is not None:
                a = een.auto_action(rnd)
                seen[a] = seen.get(a, 0) + 1
                rnd.act(d.seat, a)
            assert [s.returned - s.staked for s in rnd.seats] == list(nets[i]), i
            assert rnd.cards_used == used[i], i
    assert seen["wash"] > 60 and seen["split"] > 60


@pytest.mark.slow  # cabinet bench repeats it at 10 M rounds; tools/bench runs it
def test_the_fast_path_agrees_with_the_exact_return():
    pytest.importorskip("numba")
    t = een.fast_simulate(RULES, 1_000_000, seed=2, workers=1)
    assert abs(t.rtp - een.exact_rtp(RULES)) < t.half_width


# -- the vectorised bank pass (numpy) against the pure-Python one ---------------------------------


@pytest.mark.parametrize("rules", [RULES, ONE_DECK, replace(RULES, decks=0),
                                   replace(ONE_DECK, two_aces_twenty_and_a_half=False, three_sevens_beat_21=False)])
def test_the_numpy_bank_pass_gives_the_pure_python_figures(rules):
    vectorised = pytest.importorskip("machine.gamemath.eenentwintig.vectors")
    from machine.gamemath.eenentwintig import exact as ex

    e = Exact(rules)
    seen = [(), (10, 9), (7, 7, 1), (1, 1, 2, 3), (7, 8, 9, 10, 1), (4, 4, 4, 3, 3, 3, 2, 2)]
    shoes = [e.deck(comp_of(s)) for s in seen]
    tree = ex.bank_tree(rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21)
    pure = ex.bank_batch_python(tree, shoes, e.infinite)
    fast = ex.bank_pass(tree, shoes, e.infinite, vectorised.ARRAYS)
    for p, c in zip(pure, fast, strict=True):
        assert sum(p) == pytest.approx(1, abs=1e-12)
        assert c == p  # the same operations in the same order: the same bits


def test_the_exact_return_is_the_same_on_the_pure_python_path(monkeypatch):
    # the pinned returns above take the vectorised bank pass where numpy is installed: this one
    # takes the pure-Python pass (the one used without numpy), to the same 1e-12
    from machine.gamemath.eenentwintig import exact as ex

    monkeypatch.setattr(ex, "_vectorised", lambda: None)
    pure = Exact(ONE_DECK)
    pure.prepare()
    assert pure.net() == pytest.approx(0.9960094516228408 - 1, abs=1e-12)
