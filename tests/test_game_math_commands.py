"""`cabinet rtp`, `cabinet strategy`, `cabinet simulate` and Auto in `cabinet round`."""

from __future__ import annotations

import io
import json
import shutil
import sys

import pytest

from machine.cli import main
from machine.gamemath import blackjack as gamemath
from machine.gamemath import tablecache
from machine.gamemath.blackjack import game as gamemath_game
from machine.gamemath.blackjack import game_rtp
from machine.gamemath.blackjack.simulate import simulate
from machine.gamemath.engines import prepare
from machine.profiles import load_profile


def run(argv, text, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# The shipped Random Blackjack profile's tests first, the overridden rules last: test_fastsim
# (run just before) leaves that profile's Auto analysis in the analysis cache (it plays it last),
# and a new rule set computed first would push it out (the cache keeps 8).


def test_strategy_prints_the_chart_and_its_rtp(capsys, monkeypatch):
    code, out, err = run(["strategy", "-"], "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    assert "Hard" in out and "Soft" in out and "Pair" in out
    assert "RTP with this chart" in out


def test_the_math_commands_leave_their_tables_to_the_exit_only_as_the_processs_own_command(capsys, monkeypatch):
    """``cabinet strategy`` / ``cabinet rtp`` as the process's command (no argv: the command
    line's) run with Python's collector off and freeze what they made once done, so that the
    exit skips its pass over every table; called with argv (here, a test), nothing changes."""
    import gc

    frozen = gc.get_freeze_count()  # (none, unless a test before froze some)
    code, _, err = run(["strategy", "-"], "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()
    monkeypatch.setattr(sys, "argv", ["cabinet", "strategy", "-"])
    try:
        code, out, err = run(None, "game: random-blackjack\n", capsys, monkeypatch)
        assert code == 0, err
        assert "RTP with this chart" in out and gc.get_freeze_count() > frozen and not gc.isenabled()
    finally:
        gc.enable()
        if not frozen:
            gc.unfreeze()


def test_round_scripts_take_auto_now(capsys, monkeypatch):
    script = '{"game": "random-blackjack", "shoe": ["AS", "6H", "8C", "TD", "2D"], "seats": [{"bet": 10, "actions": ["auto"]}]}'
    code, out, err = run(["round", "-"], script, capsys, monkeypatch)
    assert code == 0, err
    hand = json.loads(out)["seats"][0]["hands"][0]
    assert hand["cards"] == ["AS", "8C"] and not hand["doubled"]  # soft 19: Auto stands, never doubles here


@pytest.mark.slow  # cabinet bench repeats it at 10 M rounds; tools/bench runs it
def test_the_simulation_agrees_with_the_exact_rtp_within_its_interval():
    rules = load_profile("random-blackjack").rules
    t = simulate(rules, rounds=20_000, seats=2, seed=11, workers=1)
    exact = game_rtp(rules).rtp
    # a fixed seed makes this deterministic; 3.29 standard errors is the 99.9 % interval, so a
    # wrong engine or a wrong exact figure (off by more than ~2 % of a bet) cannot pass
    sigma = t.half_width / 1.959964
    assert abs(t.rtp - exact) <= 3.29 * sigma
    assert t.rounds == 20_000 and 0.005 < t.half_width < 0.02


def test_simulate_command_reports_the_interval_and_the_exact_figure(capsys, monkeypatch):
    args = ["simulate", "-", "--rounds", "2000", "--workers", "1", "--seed", "5", "--exact"]
    code, out, err = run(args, "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("simulated RTP") and "over 2000 rounds x 1 seat(s)" in lines[0]
    assert lines[1].startswith("exact RTP     98.98329 %")
    assert "cabinet simulate: 2000/2000 rounds (100 %), " in err and " rounds/s, done in " in err  # the progress line


def _tables_only_cache(tmp_path, monkeypatch):
    """A cache folder holding Random Blackjack's Auto tables (copied from the run's) but no returns."""
    prepare(load_profile("random-blackjack"))
    for f in tablecache.cache_dir().glob("auto-*.tables"):
        shutil.copy(f, tmp_path)
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path))


def _no_exact_analysis(monkeypatch):
    def refuse(rules):
        raise AssertionError("the exact RTP was computed")

    monkeypatch.setattr(gamemath, "game_rtp", refuse)
    monkeypatch.setattr(gamemath_game, "game_rtp", refuse)


def test_simulate_starts_at_once_saying_the_exact_figure_was_not_computed(tmp_path, capsys, monkeypatch):
    _tables_only_cache(tmp_path, monkeypatch)
    _no_exact_analysis(monkeypatch)
    args = ["simulate", "-", "--rounds", "100", "--workers", "1"]
    code, out, err = run(args, "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("simulated RTP") and "over 100 rounds x 1 seat(s)" in lines[0]
    assert lines[1] == "exact RTP     not computed: add --exact to compute it (once: later runs read it from the cache)"


def test_simulate_exact_computes_the_figure_once_then_reads_it_from_the_cache(tmp_path, capsys, monkeypatch):
    _tables_only_cache(tmp_path, monkeypatch)
    args = ["simulate", "-", "--rounds", "100", "--workers", "1"]
    code, out, err = run([*args, "--exact"], "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    assert out.splitlines()[1] == "exact RTP     98.98329 %: inside the interval"
    _no_exact_analysis(monkeypatch)
    code, again, err = run(args, "game: random-blackjack\n", capsys, monkeypatch)
    assert code == 0, err
    assert again == out  # the same seed, the same figure, and the exact one read back


def test_rtp_json_gives_rtp_and_house_edge_as_fractions(capsys, monkeypatch):
    code, out, err = run(["rtp", "-", "--json"], "game: random-blackjack\nrules: {decks: 2}\n", capsys, monkeypatch)
    assert code == 0, err
    res = json.loads(out)
    assert res["rtp"] == pytest.approx(0.9915824, abs=2e-7)  # Random Blackjack, 2 decks
    assert res["house_edge"] == pytest.approx(1 - res["rtp"])
    assert sum(res["breakdown"].values()) == pytest.approx(res["rtp"] - 1)


def test_rtp_takes_a_hole_card_with_peek_as_an_override(capsys, monkeypatch):
    script = (
        "game: random-blackjack\nrules: {hole_card: true, double_hard: any, double_soft: any, double_makes_aces_hard: false,"
        " max_splits_and_doubles: null, resplit_aces: false, three_sevens_bonus: 0}\n"
    )
    code, out, err = run(["rtp", "-"], script, capsys, monkeypatch)
    assert code == 0, err
    assert "house edge 0.40287 %" in out  # Farmer's exact engine, CDZ-: 0.40287 %


def test_rtp_leaves_autos_tables_in_the_cache_folder_and_a_second_run_reads_them(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path))
    script = "game: casino-blackjack\nrules: {decks: 1}\n"
    gamemath_game.analysis.cache_clear()
    code, first, err = run(["rtp", "-"], script, capsys, monkeypatch)
    assert code == 0, err
    assert len(list(tmp_path.glob("auto-blackjack-*"))) == 1
    gamemath_game.analysis.cache_clear()  # a new process: only the folder remembers

    def refuse(table, *args):
        raise AssertionError(f"up card {table.up}'s split values were computed again")

    monkeypatch.setattr(gamemath_game, "split_values", refuse)
    code, again, err = run(["rtp", "-"], script, capsys, monkeypatch)
    assert code == 0, err
    assert again == first
    gamemath_game.analysis.cache_clear()
