"""Ochko's math: the exact values Auto plays by, the return and the bet rule, the chart, and
the simulators (the engine's and the compiled one, round for round against the engine)."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import replace

import pytest

from machine.cli import main
from machine.gamemath.ochko import exact, report
from machine.gamemath.ochko.exact import NV, VALUES, ZERO, analysis, auto_action, comp_of, exact_rtp, plus, value_index
from machine.gamemath.ochko.sim import play_chunk
from machine.games.interface import bet_action
from machine.games.ochko.round import OchkoRound
from machine.profiles import load_profile

RULES = load_profile("ochko").rules


def test_the_bankers_outcomes_add_up_and_standing_under_17_wins_only_on_a_banker_bust():
    a = analysis(1, True)
    for up in range(NV):
        removed = plus(plus(ZERO, up), value_index("TS"))
        dist = a.banker(VALUES[up], 1, int(up == exact.ACE_I), removed)
        assert sum(dist) == pytest.approx(1.0, abs=1e-12)
        assert a.stand(16, up, removed) == pytest.approx(2 * dist[-1] - 1, abs=1e-12)
        assert a.stand(12, up, removed) == a.stand(16, up, removed)


def test_an_infinite_deck_values_a_stand_as_a_direct_count_does():
    """Against a 10 up, the banker's totals counted card by card (each value 1/9, two aces
    impossible), and a stand on 18 valued from them."""
    def banker(total: int) -> dict[int, float]:
        if total >= 17:
            return {min(total, 22): 1.0}
        out: dict[int, float] = {}
        for v in (2, 3, 4, 6, 7, 8, 9, 10, 11):
            for t, p in banker(total + v).items():
                out[t] = out.get(t, 0.0) + p / 9
        return out

    dist = banker(10)
    direct = dist.get(22, 0) + dist.get(17, 0) - sum(dist.get(t, 0) for t in (19, 20, 21))
    assert analysis(0, True).stand(18, value_index("TH"), ZERO) == pytest.approx(direct, abs=1e-12)


def test_an_open_card_is_worth_at_least_a_dark_one_so_the_dark_draw_leaves_the_return_unchanged():
    dark = replace(RULES, dark_draw=True)
    assert exact_rtp(dark) == exact_rtp(RULES)
    valued = [v for k, v in analysis(1, True)._values.items() if k[2] and "dark" in v]
    assert len(valued) > 500 and all(v["hit"] >= v["dark"] for v in valued)


def test_the_exact_returns():
    assert exact_rtp(RULES) == pytest.approx(0.9546052194512, abs=1e-12)
    assert exact_rtp(replace(RULES, decks=0)) == pytest.approx(0.9494910532537, abs=1e-12)
    assert exact_rtp(replace(RULES, two_aces_21=False)) == pytest.approx(0.9484395847136, abs=1e-12)


def auto_on(shoe: str, seats: int = 1, **rules) -> OchkoRound:
    rnd = OchkoRound.start(replace(RULES, **rules), shoe.split(), list(range(1, seats + 1)))
    assert auto_action(rnd) == bet_action(RULES.min_bet)  # Auto stakes the minimum
    rnd.act(1, auto_action(rnd))
    return rnd


def test_auto_plays_the_composition_not_only_the_total():
    assert auto_action(auto_on("6S KH 7S")) == "stand"  # 13 of 6 and 7 against a king
    assert auto_action(auto_on("KS KH 9S")) == "hit"  # 13 of king and 9 against a king
    assert auto_action(auto_on("TS 9H KS")) == "hit"  # 14 against a 9
    assert auto_action(auto_on("TS 9H 8S", dark_draw=True)) == "stand"  # 18: never dark
    values = analysis(1, True).action_values(comp_of(["6S", "7S"]), value_index("KH"), False)
    assert values["stand"] > values["hit"]


def test_auto_is_never_worse_than_the_chart():
    for rules in (RULES, replace(RULES, decks=0), replace(RULES, two_aces_21=False, dark_draw=True)):
        cells = report.chart(rules)
        assert exact_rtp(rules) >= report.chart_rtp(rules, cells) > exact_rtp(rules) - 0.005
        assert cells[20] == dict.fromkeys(range(NV), "stand") and cells[8] == dict.fromkeys(range(NV), "hit")


def test_the_bet_rule_stakes_the_most_exactly_where_the_first_card_has_the_edge():
    table = report.bet_table(RULES)
    ace, six = value_index("AS"), value_index("6S")
    assert table[(ace, six)] > 0 > table[(six, six)]
    assert report.top_stake(RULES) == 100  # what a fresh bank covers
    flat = exact_rtp(RULES)
    assert report.bet_rule_rtp(RULES) > flat
    assert report.bet_rule_rtp(replace(RULES, max_bet=2)) == pytest.approx(flat, abs=1e-12)
    assert report.bet_rule_text(RULES).startswith("stake 100 when the first card and the banker's up card are ")


def run_cli(*args: str, stdin: str = "game: ochko\n", capsys=None, monkeypatch=None) -> tuple[int, str, str]:
    assert capsys is not None and monkeypatch is not None
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cabinet_rtp_gives_the_flat_return_as_fractions_and_the_bet_rule_beside_it(capsys, monkeypatch):
    code, out, _ = run_cli("rtp", "-", "--json", capsys=capsys, monkeypatch=monkeypatch)
    rep = json.loads(out)
    assert code == 0 and rep["rtp"] == pytest.approx(exact_rtp(RULES)) and rep["house_edge"] == pytest.approx(1 - rep["rtp"])
    assert isinstance(rep["bet_rule"], str) and rep["bet_rule_rtp"] > 1 and rep["bet_rule_stakes"] == {"min": 2, "max": 100}
    code, out, _ = run_cli("rtp", "-", stdin="game: ochko\nrules: {decks: 0}\n", capsys=capsys, monkeypatch=monkeypatch)
    assert code == 0 and "infinite deck" in out and "RTP 94.94911 %" in out


def test_cabinet_strategy_prints_the_chart_and_the_stake_table(capsys, monkeypatch):
    code, out, _ = run_cli("strategy", "-", capsys=capsys, monkeypatch=monkeypatch)
    lines = out.splitlines()
    assert code == 0 and lines[1].split() == ["J", "Q", "K", "6", "7", "8", "9", "10", "A"]
    assert lines[2].split() == ["4"] + ["D"] * 9 and lines[18].split() == ["20"] + ["S"] * 9
    assert "RTP with this chart" in out and lines[-1].split()[0] == "A"


def test_the_engine_simulator_carries_the_bank_and_agrees_with_the_exact_return():
    t = play_chunk(RULES, 4000, 1, 7, 0)
    assert t.rounds == 4000 and t.bet == 8000
    assert abs(t.rtp - exact_rtp(RULES)) < t.half_width * 1.5
    several = play_chunk(replace(RULES, opening_bank=4), 300, 4, 7, 0)  # a tiny bank: seats sit out
    assert several.bet < 300 * 4 * 2


# -- the compiled path against the engine ----------------------------------------------------------


def engine_rounds(rules, shoes, seats: int, bank: int, choose) -> list[tuple[int, int, int, int]]:
    from machine.gamemath.ochko import fast

    out = []
    for row in shoes:
        rnd = OchkoRound.start(rules, fast.shoe_cards(row, rules.decks), list(range(1, seats + 1)),
                               carry={"bank": bank, "closed": False})
        while (d := rnd.pending) is not None:
            rnd.act(d.seat, choose(rnd))
        staked = sum(s.staked for s in rnd.seats)
        out.append((sum(s.returned for s in rnd.seats) - staked, staked, rnd.cards_used, rnd.bank))
    return out


@pytest.mark.parametrize(("rules", "seats", "bank", "count"), [
    (RULES, 1, 100, 3000),
    (replace(RULES, two_aces_21=False), 3, 100, 1500),
    (replace(RULES, decks=2), 5, 6, 1500),  # a bank of 6: the later seats often sit out
])
def test_the_fast_path_plays_every_round_as_the_engine(rules, seats, bank, count):
    pytest.importorskip("numba")
    from machine.gamemath.ochko import fast

    shoes = fast.shuffled_shoes(rules, count, 3)
    got = fast.play_shoes(rules, shoes, seats, bank)
    want = engine_rounds(rules, shoes, seats, bank, auto_action)
    assert [tuple(int(got[k][i]) for k in ("net", "staked", "used", "bank")) for i in range(count)] == want


def test_the_fast_path_plays_the_dark_card_as_the_engine():
    """Auto never draws dark, so the kernel's dark card is checked with a table that does
    wherever it is offered, the engine playing the same table."""
    pytest.importorskip("numba")
    import numpy as np

    from machine.gamemath.ochko import fast
    from machine.games.ochko.rules import may_draw_dark

    rules = replace(RULES, dark_draw=True)
    t = fast.Tables(rules)
    for s, hand in enumerate(t.states):
        if may_draw_dark(exact.comp_total(hand, True), True):
            t.act[s][t.act[s] >= 0] = fast.DARK
    count = 1500
    shoes = fast.shuffled_shoes(rules, count, 5)
    out = {k: np.zeros(count, np.int64) for k in ("net", "staked", "used", "bank")}
    fast._play_shoes(shoes, 2, *t.arrays, 100, out["net"], out["staked"], out["used"], out["bank"])

    def choose(rnd: OchkoRound) -> str:
        d = rnd.pending
        assert d is not None
        if d.kind == "bet":
            return d.options[0]
        state = 0
        for card in rnd.seat(d.seat).cards:
            state = int(t.nxt[state, value_index(card)])
        choice = ("hit", "stand", "dark")[int(t.act[state, value_index(rnd.up_card or "")])]
        darks.append(choice == "dark")
        return choice

    darks: list[bool] = []
    want = engine_rounds(rules, shoes, 2, 100, choose)
    assert sum(darks) > 500
    assert [tuple(int(out[k][i]) for k in ("net", "staked", "used", "bank")) for i in range(count)] == want


@pytest.mark.slow  # cabinet bench repeats it at 10 M rounds; tools/bench runs it
def test_the_fast_path_agrees_with_the_exact_return():
    pytest.importorskip("numba")
    from machine.gamemath.ochko import fast

    t = fast.fast_simulate(RULES, 1_000_000, seed=2, workers=1)
    assert t.rounds == 1_000_000 and abs(t.rtp - exact_rtp(RULES)) < t.half_width


def test_without_numba_the_fast_path_is_refused_with_one_line(capsys, monkeypatch):
    import machine.gamemath.ochko as package

    monkeypatch.delattr(package, "fast", raising=False)
    monkeypatch.setitem(sys.modules, "machine.gamemath.ochko.fast", None)  # as when numba is missing
    code, out, err = run_cli("simulate", "-", "--fast", "--rounds", "100", capsys=capsys, monkeypatch=monkeypatch)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("cabinet simulate: --fast needs numba: pip install 'cabinet[fast]'")


def test_the_fast_path_compiles_the_games_rules_and_its_cache_follows_their_source():
    pytest.importorskip("numba")
    from machine.gamemath.ochko import fast
    from machine.games.blackjack import scoring as bj
    from machine.games.ochko import rules as ok

    assert fast._hand_total.py_func is ok.hand_total and fast._at_once.py_func is ok.at_once
    assert fast._settle_hand.py_func is bj.settle_hand and fast._dealer_draws.py_func is bj.dealer_draws
    try:
        locator = fast._play_shoes._cache._impl._locator  # numba's internals
    except AttributeError:
        pytest.skip("this numba keeps its cache locator elsewhere")
    assert fast.RULES_DIGEST in locator.get_source_stamp()
