"""The game math finds every game through the catalog (issue 22): each game's math package
offers the same interface, ``engines`` and ``precompile`` ask the registry and nothing else, and
neither the game math nor the benchmarks test an engine's name or import another module's
private name."""

from __future__ import annotations

import ast
import dataclasses
import sys
import types
from pathlib import Path
from types import SimpleNamespace

import pytest

from machine.gamemath import engines, precompile
from machine.games import catalog
from machine.games.ochko.rules import OchkoRules

ROOT = Path(__file__).resolve().parents[1]
INTERFACE = ("auto_action", "prepare", "exact_rtp", "rtp_report", "rtp_lines", "strategy_lines", "simulate",
             "fast_simulate", "HAS_EXACT_RTP", "precompile")
CHECKED = [ROOT / "machine" / "gamemath", ROOT / "machine" / "devtools" / "bench"]


@pytest.mark.parametrize("name", catalog.names())
def test_every_games_math_package_offers_the_same_interface(name):
    math = catalog.engine(name).module("math")
    assert math.__name__ == f"machine.gamemath.{name}"  # a package named as the game
    assert [k for k in INTERFACE if not hasattr(math, k)] == []


@pytest.mark.parametrize("name", catalog.names())
def test_every_engine_names_its_settings_and_game_classes_in_its_own_game_package(name):
    from machine.games.hosted import HostedGame
    from machine.games.rules import TableRules

    e = catalog.engine(name)
    rules, game = e.rules_class(), e.game_class()  # named "module:Class", imported here
    assert issubclass(rules, TableRules) and catalog.rules_class(name) is rules
    assert isinstance(game, type) and issubclass(game, HostedGame)
    assert (rules.__module__, game.__module__) == (f"machine.games.{name}.rules", f"machine.games.{name}.game")


@pytest.fixture
def toy(monkeypatch):
    """A game engine whose math is a module of this test only, registered for the test."""
    math = types.ModuleType("toy_math_of_the_registry_test")
    math.calls = []
    math.auto_action = lambda rnd: "stand"
    math.prepare = lambda rules: math.calls.append(("prepare", rules))
    math.exact_rtp = lambda rules: 0.97
    math.bet_rule_rtp = lambda rules: 1.01
    math.HAS_EXACT_RTP = True
    math.precompile = lambda: math.calls.append("precompile")
    monkeypatch.setitem(sys.modules, math.__name__, math)
    catalog.register(dataclasses.replace(catalog.engine("ochko"), name="toy", math=math.__name__))
    yield math
    catalog.unregister("toy")


def test_engines_ask_a_games_math_through_the_catalog_only(toy):
    profile = SimpleNamespace(engine="toy", rules=OchkoRules())
    assert engines.math_of("toy") is toy
    assert engines.auto_for("toy") is toy.auto_action
    seen: list[tuple[int, int]] = []
    engines.prepare(profile, lambda done, of: seen.append((done, of)))
    assert seen == [(0, 1), (1, 1)] and toy.calls == [("prepare", profile.rules)]
    assert engines.has_exact_rtp("toy")
    assert engines.exact_returns(profile) == (0.97, 1.01)


def test_precompile_takes_its_steps_from_the_registry(toy):
    steps = precompile.steps()
    assert list(steps) == ["blackjack exact", "blackjack", "ochko", "eenentwintig", "eenendertigen", "toy"]
    assert steps["toy"] is toy.precompile


def _sources():
    for folder in CHECKED:
        for path in sorted(folder.rglob("*.py")):
            yield path, ast.parse(path.read_text())


def test_no_engine_name_is_tested_in_the_game_math_or_the_benchmarks():
    names = set(catalog.names())
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                constants = [s.value for s in sides if isinstance(s, ast.Constant)]
                for s in sides:
                    if isinstance(s, (ast.Tuple, ast.List, ast.Set)):
                        constants += [e.value for e in s.elts if isinstance(e, ast.Constant)]
                if names & set(c for c in constants if isinstance(c, str)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_no_module_of_the_game_math_or_the_benchmarks_imports_a_private_name():
    found = []
    for path, tree in _sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("machine"):
                found += [f"{path.relative_to(ROOT)}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert found == []
