"""The command line as a table of commands whose handlers know no game: every report comes
from the engine's math module, found through the game catalog."""

from __future__ import annotations

import ast
import dataclasses
import io
import json
import sys
from pathlib import Path

import pytest

from machine.cli import main
from machine.cli.commands import COMMANDS, build_parser
from machine.cli.common import CommandError
from machine.games import catalog

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def toy_math():
    """Ochko's engine with its math module swapped for tests/toy_math.py, for one test."""
    real = catalog.engine("ochko")
    catalog.register(dataclasses.replace(real, math="tests.toy_math"))
    yield
    catalog.register(real)


def run(argv, capsys, monkeypatch, text="game: ochko\n"):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cabinet_rtp_prints_the_lines_of_the_math_module_the_catalog_names(toy_math, capsys, monkeypatch):
    assert run(["rtp", "-"], capsys, monkeypatch) == (0, "ochko: the toy math prices it at 50 %\na second line\n", "")
    code, out, err = run(["rtp", "-", "--json"], capsys, monkeypatch)
    assert (code, json.loads(out), err) == (0, {"game": "ochko", "rtp": 0.5, "said by": "the toy math"}, "")


def test_cabinet_strategy_prints_the_chart_of_the_math_module_the_catalog_names(toy_math, capsys, monkeypatch):
    assert run(["strategy", "-"], capsys, monkeypatch) == (0, "ochko: the toy math's chart\n", "")


def test_blackjacks_reports_come_from_its_own_math_module(capsys, monkeypatch):
    code, out, err = run(["rtp", "-"], capsys, monkeypatch, "game: random-blackjack\n")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Random Blackjack (random-blackjack), 6 decks: exact, Auto's composition-dependent play"
    assert lines[1].startswith("RTP ") and "house edge" in lines[1]
    assert lines[2] == "expected net per original bet, by the hand's first decision:"


def test_no_module_of_the_command_line_compares_an_engines_name():
    names = set(catalog.names())
    found = []
    paths = sorted((ROOT / "machine" / "cli").rglob("*.py")) + [p for p in [ROOT / "machine" / "cli.py"] if p.exists()]
    assert paths
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                consts = [c.value for c in (node.left, *node.comparators) if isinstance(c, ast.Constant)]
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {v!r}" for v in consts if v in names]
    assert found == []


def test_the_parser_has_one_subcommand_per_row_of_the_table_in_its_order():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices or ()) == [c.name for c in COMMANDS]
    assert [c.name for c in COMMANDS][:5] == ["round", "rtp", "strategy", "simulate", "session"]


def test_every_handler_the_table_names_is_a_function_of_its_module():
    import importlib

    def rows(commands):
        for c in commands:
            yield c
            yield from rows(c.sub)

    named = [c.handler for c in rows(COMMANDS) if c.handler is not None]
    assert len(named) > 15 and all(isinstance(h, str) for h in named)  # names: imported when their command runs
    for name in named:
        module, _, function = name.rpartition(".")
        assert callable(getattr(importlib.import_module(f"machine.cli.{module}"), function)), name


@pytest.fixture
def no_harness(monkeypatch, tmp_path):
    """``cabinet run`` in ``tmp_path`` with a display taken as there and no Auto tables, and the
    command line's door into the development harness recording each time it is asked."""
    from machine.cli import harness
    from machine.display import screens
    from machine.loop import wiring

    asked: list[str] = []

    def refuse(what: str):
        def door(*args, **kwargs):
            asked.append(what)
            raise CommandError(f"{what}: asked")
        return door

    monkeypatch.setattr(harness, "simulated_cabinet", refuse("simulators"))
    monkeypatch.setattr(harness, "soak", refuse("soak"))
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(screens, "open_display", lambda: None)
    monkeypatch.chdir(tmp_path)
    return asked


def test_cabinet_run_on_real_devices_never_reaches_the_development_harness(tmp_path, capsys, no_harness):
    from tests.test_start_failures import config

    path = config(tmp_path, bus="/dev/ttyNONE", panel="/dev/ttyNONE")
    assert main(["run", "--config", str(path)]) == 1  # the port cannot be opened: before that, no harness
    assert capsys.readouterr().err.startswith("cabinet run: devices.bus: /dev/ttyNONE: cannot open: ")
    assert no_harness == []


@pytest.mark.parametrize(("argv", "door"), [([], "simulators"), (["--headless"], "soak")])
def test_cabinet_run_reaches_the_simulators_only_through_the_harness(tmp_path, capsys, no_harness, argv, door):
    from tests.test_start_failures import config

    assert main(["run", "--config", str(config(tmp_path)), *argv]) == 2
    assert capsys.readouterr().err == f"cabinet run: {door}: asked\n"
    assert no_harness == [door]
