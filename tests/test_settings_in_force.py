"""The operator is the only way money settings and rules change (issue 24, findings 1 and 2).

The settings in force are the journal's: a configuration or profile that differs from them in
what moves money or changes a rule does not start the cabinet (status 2, one line per field,
old -> new, and how to apply it); ``cabinet config apply`` (the cabinet stopped, the operator
PIN, no seat's money moved) puts it in force and journals every change with its old and new
value; a round resumed after a restart is recalled under the rules it was dealt under.
"""

from __future__ import annotations

import dataclasses
import io
import shutil
import sys
from pathlib import Path

import pytest

from machine.cli import main
from machine.games.blackjack.game import BlackjackGame
from machine.money.journal import Journal
from machine.money.memory import FileHeadStore
from machine.operator import inforce
from machine.operator.config import load_config
from machine.operator.firststart import init_cabinet
from machine.profiles import load_profile
from tests.cabinet_helpers import boot, stacked_shoes, stand_player
from tests.test_cabinet_core import coins

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = (ROOT / "config" / "machine.yaml").read_text()


def config(tmp_path: Path, text: str = SHIPPED, name: str = "machine.yaml") -> Path:
    """``text`` with its journal, key and head store in ``tmp_path``, one game enabled."""
    text = (text.replace("data_dir: data ", f"data_dir: {tmp_path / 'data'} ")
            .replace("key_file: ~/.config/cabinet/machine.key", f"key_file: {tmp_path / 'key' / 'machine.key'}")
            .replace("head_stores: [~/.local/state/cabinet]", f"head_stores: [{tmp_path / 'heads'}]"))
    lines = [("games_enabled: [random-blackjack]" if ln.startswith("games_enabled:") else ln) for ln in text.splitlines()]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    return path


def soak(path: Path, tmp_path: Path) -> int:
    """``cabinet run --headless`` on the configuration's own journal: two rounds a seat."""
    return main(["run", "--headless", "--rounds", "2", "--data", str(tmp_path / "data"), "--config", str(path)])


def journal(tmp_path: Path, path: Path) -> Journal:
    cfg = load_config(path)
    return Journal(cfg.journal_path(tmp_path), cfg.machine_memory(tmp_path).key, readonly=True)


def apply(capsys, path: Path, entered: str) -> tuple[int, str, str]:
    real = sys.stdin
    sys.stdin = io.StringIO(entered + "\n")
    try:
        status = main(["config", "apply", "--pin-stdin", str(path)])
    finally:
        sys.stdin = real
    out, err = capsys.readouterr()
    return status, out, err


# slow: a first start and a headless soak (the simulators started, Auto's tables), made once for
# the file's tests (it took 4.5-6 s a test); each test plays on a copy of its own
@pytest.fixture(scope="module")
def played(tmp_path_factory) -> Path:
    """A cabinet that has played (seats' rows in the journal), stopped: its folder."""
    folder = tmp_path_factory.mktemp("played")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        path = config(folder)
        init_cabinet(load_config(path), folder)
        assert soak(path, folder) == 0
    return folder


@pytest.fixture
def cabinet(played, tmp_path, monkeypatch, capsys):
    """A copy of ``played`` in this test's folder (its configuration naming this folder; the head
    store's file renamed for the journal's new path); the shipped configuration."""
    shutil.copytree(played, tmp_path, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    path = config(tmp_path)
    cfg = load_config(path)
    heads = list((tmp_path / "heads").glob("head-*"))
    assert len(heads) == 1
    heads[0].rename(FileHeadStore(tmp_path / "heads", cfg.journal_path(tmp_path)).file)
    capsys.readouterr()
    return path


# slow: two headless soaks of the real cabinet (the simulators over ptys): starting is what is checked
def test_a_denomination_change_does_not_start_the_cabinet(cabinet, tmp_path, capsys):
    # finding 1: one cent a point and every coin's points x10 passed config check and started,
    # paying ten times what came in
    tenfold = cabinet.read_text().replace("denomination_cents: 10", "denomination_cents: 1").replace(
        "EU050A: 5", "EU050A: 50").replace("EU100A: 10", "EU100A: 100").replace("EU200A: 20", "EU200A: 200").replace(
        "hopper_coin: 10 ", "hopper_coin: 100 ")
    path = tmp_path / "tenfold.yaml"
    path.write_text(tenfold)
    assert main(["config", "check", str(path)]) == 0  # a valid configuration by itself
    capsys.readouterr()
    before = journal(tmp_path, cabinet).last_seq
    assert soak(path, tmp_path) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert lines[1:6] == ["  denomination_cents: 10 -> 1", "  coins.EU050A: 5 -> 50", "  coins.EU100A: 10 -> 100",
                          "  coins.EU200A: 20 -> 200", "  hopper_coin: 10 -> 100"]
    assert len(lines) == 7 and "cabinet config apply FILE" in lines[6]
    j = journal(tmp_path, cabinet)
    assert j.get(inforce.ROW)["machine"]["denomination_cents"] == 10  # still what is in force
    assert not j.records("move", since=before)  # no coin, no payout
    assert not [r for r in j.records("event", since=before) if r.data["event"] == "settings_changed"]
    assert soak(cabinet, tmp_path) == 0  # the configuration in force starts as before
    capsys.readouterr()


def test_the_denomination_is_not_applied_while_points_are_on_a_meter(cabinet, tmp_path, capsys):
    path = tmp_path / "tenfold.yaml"
    path.write_text(cabinet.read_text().replace("denomination_cents: 10", "denomination_cents: 1").replace(
        "EU050A: 5", "EU050A: 50").replace("EU100A: 10", "EU100A: 100").replace("EU200A: 20", "EU200A: 200").replace(
        "hopper_coin: 10 ", "hopper_coin: 100 "))
    held = {n: journal(tmp_path, cabinet).get(f"seat/{n}")["money"] for n in range(1, 5)}
    if not any(m["credit"] or m["club"] for m in held.values()):
        pytest.skip("the soak left no points on a meter")  # the robots' seed leaves some (see the soak's lines)
    status, out, err = apply(capsys, path, "1234")
    assert status == 2 and out == ""
    assert "denomination_cents changes what a point is worth, and seat" in err and err.count("\n") == 1
    assert journal(tmp_path, cabinet).get(inforce.ROW)["machine"]["denomination_cents"] == 10


# slow: headless soaks before and after the change (the simulators over ptys)
def test_a_pay_table_change_waits_for_the_operator_and_is_journaled_with_old_and_new(cabinet, tmp_path, capsys,
                                                                                     monkeypatch):
    # finding 2: a profile folder given by CABINET_CONFIG with another pay table started at once
    folder = tmp_path / "profiles"
    shutil.copytree(ROOT / "config", folder)
    profile = folder / "games" / "random-blackjack.yaml"
    profile.write_text(profile.read_text().replace("blackjack_pays: 1.5 ", "blackjack_pays: 2 ").replace(
        "three_sevens_bonus: 1 ", "three_sevens_bonus: 5 ").replace("max_bet: 500", "max_bet: 400"))
    monkeypatch.setenv("CABINET_CONFIG", str(folder))
    assert soak(cabinet, tmp_path) == 2
    err = capsys.readouterr().err
    assert err.splitlines()[1:4] == ["  games.random-blackjack.blackjack_pays: 1.5 -> 2",
                                     "  games.random-blackjack.max_bet: 500 -> 400",
                                     "  games.random-blackjack.three_sevens_bonus: 1 -> 5"]
    before = journal(tmp_path, cabinet).last_seq

    status, out, err = apply(capsys, cabinet, "9999")  # a wrong PIN: counted, nothing applied
    assert (status, out) == (2, "") and "wrong PIN; nothing changed" in err
    status, out, err = apply(capsys, cabinet, "1234")
    assert (status, err) == (0, "")
    assert out == (f"{cabinet}: applied 3 changes, each journaled with its old and new value: "
                   "games.random-blackjack.blackjack_pays: 1.5 -> 2; games.random-blackjack.max_bet: 500 -> 400; "
                   "games.random-blackjack.three_sevens_bonus: 1 -> 5\n")
    j = journal(tmp_path, cabinet)
    (rec,) = j.records("settings_in_force", since=before)
    assert rec.data["changes"] == [
        {"field": "games.random-blackjack.blackjack_pays", "old": 1.5, "new": 2},
        {"field": "games.random-blackjack.max_bet", "old": 500, "new": 400},
        {"field": "games.random-blackjack.three_sevens_bonus", "old": 1, "new": 5}]
    events = [r.data for r in j.records("event", since=before)]
    assert [e["event"] for e in events] == ["power_up", "pin_wrong", "power_up", *["settings_changed"] * 3]
    assert (events[3]["name"], events[3]["old"], events[3]["new"]) == ("games.random-blackjack.blackjack_pays", 1.5, 2)
    for n in range(1, 5):  # every seat bets within the new limits beside the new pay table
        assert j.get(f"seat/{n}")["money"]["limits"] == {"min_bet": 2, "max_bet": 400, "bet_step": 2}
    assert j.get(inforce.ROW)["games"]["random-blackjack"]["blackjack_pays"] == 2
    assert soak(cabinet, tmp_path) == 0  # now in force: it starts
    capsys.readouterr()
    status, out, _ = apply(capsys, cabinet, "1234")
    assert (status, out) == (0, f"{cabinet}: nothing to apply: the configuration's settings are the settings in force\n")


# slow: a second cabinet process against a running one (the simulators over ptys)
def test_a_second_cabinet_on_a_journal_in_use_is_status_1_and_one_line(cabinet, tmp_path, capsys):
    # finding 13: it used to start, and the first write of one of them failed with
    # "UNIQUE constraint failed: journal.seq" (status 2)
    from machine.devtools.harness import SimulatedCabinet

    first = SimulatedCabinet(load_config(cabinet), tmp_path, headless=True, auto=stand_player)
    try:
        assert soak(cabinet, tmp_path) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == (f"cabinet run: {tmp_path / 'data' / 'journal.sqlite'}: the journal is in use by "
                                     "another process (another cabinet on this data_dir?): database is locked\n")
        status, out, err = apply(capsys, cabinet, "1234")
        assert status == 2 and "the cabinet is running" in err
    finally:
        first.close()
    assert soak(cabinet, tmp_path) == 0


def test_a_resumed_round_is_recalled_under_the_rules_it_was_dealt_under(tmp_path):
    # finding 2: the interrupted round was finished under its own rules, but its recall record
    # was stamped with the rules of the next start
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    coins(cab, 1, "EU100A", "EU100A")
    cab.press(1, "+2", now=1)
    cab.press(1, "start", now=1)
    assert cab.round is not None
    cab.journal.close()
    from machine.core.cabinet import open_cabinet
    from tests.cabinet_helpers import memory

    new = load_profile("random-blackjack", {"blackjack_pays": 2})
    cab = open_cabinet(tmp_path / "journal.sqlite", new, dataclasses.replace(cab.settings),
                       lambda p: BlackjackGame(p, stand_player), stacked_shoes(), memory(tmp_path))
    cab.press(1, "stand", now=2)
    assert cab.round is None
    (game,) = cab.journal.records("game", seat=1)
    assert game.data["rules"]["blackjack_pays"] == 1.5
