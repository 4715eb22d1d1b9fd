"""Limits from the seeds and the house's return (issue 24, findings 2, 3, 15 and 16).

A profile's limits are its seed's (Random Blackjack: bets from 2, at most 500, in steps of 2);
no pay above what a table pays; ``config check`` refuses a game that a player's best play
beats unless the operator names it, and one below ``min_return``; a released cabinet refuses
the shipped PIN and a weak PIN hash, ``config check`` warns of both otherwise.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from machine.cli import main
from machine.operator import pin
from machine.operator.config import ConfigError, parse_config

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "config" / "machine.yaml").read_text()
ENABLED = next(line for line in BASE.splitlines() if line.startswith("games_enabled:"))


def test_the_random_blackjack_profile_of_finding_2_is_refused_at_its_lines(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    profile = folder / "games" / "random-blackjack.yaml"
    profile.write_text(profile.read_text().replace("min_bet: 2", "min_bet: 1").replace("max_bet: 500", "max_bet: 100000")
                       .replace("bet_step: 2", "bet_step: 1").replace("blackjack_pays: 1.5 ", "blackjack_pays: 1000000 "))
    monkeypatch.setenv("CABINET_CONFIG", str(folder))
    with pytest.raises(ConfigError) as err:
        parse_config(BASE, "machine.yaml")
    assert err.value.problems == [
        f"{profile}:23: rules.min_bet: 1 is below the seed's minimum bet of 2",
        f"{profile}:24: rules.max_bet: 100000 is above the seed's absolute maximum bet of 500",
        f"{profile}:25: rules.bet_step: 1: the seed's bets go in steps of 2 (a multiple of it)",
        f"{profile}:10: rules.blackjack_pays: 1e+06 times the bet is more than any table pays (at most 10)",
    ]


def test_each_limit_of_the_seeds_by_itself(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    shutil.copytree(ROOT / "config", folder)
    monkeypatch.setenv("CABINET_CONFIG", str(folder))
    profile = folder / "games" / "random-blackjack.yaml"
    shipped = profile.read_text()
    for old, new, said in [("max_bet: 500", "max_bet: 502", "rules.max_bet: 502 is above the seed's absolute maximum bet of 500"),
                           ("min_bet: 2", "min_bet: 1\n  bet_step: 1", "rules.min_bet: 1 is below the seed's minimum"),
                           ("blackjack_pays: 1.5 ", "blackjack_pays: 1e308 ", "more than any table pays"),
                           ("blackjack_pays: 1.5 ", "blackjack_pays: 1.2 ", "1.2 x a bet of 2 is not a whole number")]:
        profile.write_text(shipped.replace("  bet_step: 2\n", "\n" if "bet_step" in new else "  bet_step: 2\n")
                           .replace(old, new))
        with pytest.raises(ConfigError) as err:
            parse_config(BASE, "machine.yaml")
        assert any(said in p for p in err.value.problems), err.value.problems
    eenentwintig = folder / "games" / "eenentwintig.yaml"
    eenentwintig.write_text(eenentwintig.read_text().replace("max_bet: 10 ", "max_bet: 12 "))
    with pytest.raises(ConfigError, match="rules.max_bet: 12 is above the seed's absolute maximum bet of 10"):
        parse_config(BASE.replace(ENABLED, "games_enabled: [random-blackjack, eenentwintig]"), "machine.yaml")


@pytest.mark.parametrize("line, said", [
    ("hopper_limit: 100000000000000000000000000000000", "hopper_limit: Input should be less than or equal to 100000"),
    ("credit_limit: 100000000000000000000000000000000", "credit_limit: Input should be less than or equal to 1000000"),
    ("min_return: 101", "min_return: Input should be less than or equal to 100"),
    ("allow_player_edge: [ochko]", "allow_player_edge.0: 'ochko' is not in games_enabled"),
])
def test_machine_settings_have_a_real_cabinets_bounds(line, said):
    key = line.split(":")[0]
    text = "\n".join(line if ln.startswith(f"{key}:") else ln for ln in BASE.splitlines())
    with pytest.raises(ConfigError) as err:
        parse_config(text, "machine.yaml")
    assert any(said in p for p in err.value.problems), err.value.problems


def test_config_check_refuses_a_return_below_the_floor(tmp_path, capsys, monkeypatch):
    import machine.gamemath.engines as engines

    monkeypatch.setattr(engines, "returns", lambda profile: (0.95, None) if profile.game != "spanish-21" else (0.79, None))
    path = tmp_path / "m.yaml"
    path.write_text(BASE)
    assert main(["config", "check", str(path)]) == 2
    assert capsys.readouterr().err == (f"cabinet config: {path}: games_enabled: spanish-21 returns 79.00000 % at best "
                                       "play, below min_return 80 %: refused\n")
    path.write_text(BASE.replace("min_return: 80 ", "min_return: 75 "))
    assert main(["config", "check", str(path)]) == 0


SHARED_31 = ("games_enabled: eenendertigen-modern hides each seat's cards from the other seats, but display.layout: tiles "
             "draws the 4 seats as tiles of one window: every seat sees them (a development layout; give each seat a "
             "screen of its own with layout: windows)")


def test_the_shipped_configuration_enables_only_games_below_100_percent_at_best_play(capsys, tmp_path, monkeypatch):
    # finding 3: casino and European blackjack (100.15 %), eenentwintig (110.0 % with the bet
    # rule), ochko (111.8 %) and eenendertigen classic (110 %) were enabled and only warned about
    from machine.gamemath import engines
    from machine.operator.config import load_config
    from machine.profiles import load_profile

    cfg = load_config()
    assert cfg.games_enabled == ["random-blackjack", "swedish-pub-blackjack", "spanish-21", "eenendertigen-modern"]
    assert cfg.allow_player_edge == [] and cfg.min_return == 80
    for game in ("random-blackjack", "swedish-pub-blackjack", "spanish-21"):
        flat, rule = engines.returns(load_profile(game))
        assert 0.8 <= flat < 1 and rule is None, game
    assert main(["config", "check", str(ROOT / "config" / "machine.yaml")]) in (0,)
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [f"{ROOT / 'config' / 'machine.yaml'}: warning: {SHARED_31}",  # tools/run's tiles: one screen
                       f"{ROOT / 'config' / 'machine.yaml'}: warning: operator_pin: the PIN is the shipped 1234: set your "
                       "own with `cabinet config pin FILE`"]


def test_a_released_cabinet_refuses_the_shipped_pin_and_a_weak_hash(tmp_path, capsys):
    released = BASE.replace("require_manifest: false", "require_manifest: true")
    with pytest.raises(ConfigError) as err:
        parse_config(released, "machine.yaml")
    (problem,) = err.value.problems
    assert "operator_pin: the PIN is the shipped 1234" in problem and problem.endswith("(require_manifest: true)")
    weak = pin.hash_pin("2468", n=2, r=1)
    text = "\n".join(f"operator_pin: {weak}" if ln.startswith("operator_pin:") else ln for ln in released.splitlines())
    with pytest.raises(ConfigError, match=r"operator_pin: scrypt N=2 r=1 p=1 is weaker than the shipped N=16384 r=8"):
        parse_config(text, "machine.yaml")
    strong = pin.hash_pin("2468")
    ok = "\n".join(f"operator_pin: {strong}" if ln.startswith("operator_pin:") else ln for ln in released.splitlines())
    assert parse_config(ok, "machine.yaml").require_manifest
    # not released: config check says so
    path = tmp_path / "m.yaml"
    path.write_text(text.replace("require_manifest: true", "require_manifest: false"))
    import machine.gamemath.engines as engines

    engines_returns = engines.returns
    try:
        engines.returns = lambda profile: (0.95, None)
        assert main(["config", "check", str(path)]) == 0
    finally:
        engines.returns = engines_returns
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [f"{path}: warning: {SHARED_31}",
                       f"{path}: warning: operator_pin: scrypt N=2 r=1 p=1 is weaker than the shipped N=16384 r=8 p=1: "
                       "set the PIN again with `cabinet config pin FILE`"]


def test_the_readmes_table_of_games_says_what_the_shipped_configuration_enables():
    # finding 3: the table shows each game's return at best play and whether it is enabled
    from machine.operator.config import load_config

    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(next(line for line in lines if line.startswith("| profile | engine | in short |")))
    assert lines[start].rstrip(" |").endswith("at best play: enabled in `config/machine.yaml`?")
    enabled = []
    for row in lines[start + 2:]:
        if not row.startswith("|"):
            break
        names, last = row.split(" | ")[0], row.rstrip(" |").rsplit(" | ", 1)[1]
        profiles = [n.strip("`| ") for n in names.split(",")]
        verdicts = re.findall(r"%[^:;]*: (\*\*yes\*\*|no)", last)  # "98.98 %: **yes**", "110.02 % (...): no"
        assert len(verdicts) == len(profiles), row
        enabled += [p for p, v in zip(profiles, verdicts, strict=True) if v == "**yes**"]
    assert enabled == load_config().games_enabled
