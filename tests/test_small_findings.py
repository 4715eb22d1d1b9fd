"""The smaller findings of issue 24 (13 and 16): each refused in one line, status 2, or accepted
where the README says it works."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from machine.cli import main

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = (ROOT / "config" / "machine.yaml").read_text()


def one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)
    return err.rstrip("\n")


def argparse_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    return err.splitlines()[-1]


def test_simulate_starts_no_more_workers_than_cores_and_rounds_make_sane(capsys):
    most = min(4 * (os.cpu_count() or 1), 100)
    assert main(["simulate", str(ROOT / "examples" / "round.yaml"), "--rounds", "100", "--workers", "200"]) == 2
    assert one_line(capsys) == (f"cabinet simulate: --workers 200: at most {most} here (4 per core, and no more than "
                                "--rounds)")
    assert main(["simulate", str(ROOT / "examples" / "round.yaml"), "--rounds", "3", "--workers", "4"]) == 2
    assert "at most 3 here" in one_line(capsys)


@pytest.mark.parametrize("seed", ["abc", "-1", "\U0001f600", "A" * 64, "0" * 63])
def test_tournament_deals_takes_only_a_published_seed(seed, capsys):
    err = argparse_error(capsys, ["tournament", "deals", "--seed", seed, "--variant", "classic"])
    assert "is not a published tournament seed (64 hex digits, 0-9 a-f)" in err
    assert main(["tournament", "deals", "--seed", "0" * 64, "--variant", "classic", "--rounds", "1"]) == 0


def test_a_session_refuses_a_coin_no_cabinet_takes(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("game: random-blackjack\nsteps:\n  - coin: 100000000000000000000000000000\n")
    assert main(["session", str(path)]) == 2
    assert one_line(capsys) == ("cabinet session: steps[0]: coin: 100000000000000000000000000000 points is no coin "
                                "(a coin is at most 100000 points, as config/machine.yaml's coins)")
    path.write_text("game: random-blackjack\nmachine: {hopper_limit: 100000000000000000000000000000}\nsteps: []\n")
    assert main(["session", str(path)]) == 2
    assert "machine: hopper_limit: must be 1 to 100000 points" in one_line(capsys)


@pytest.mark.parametrize("text", ["", "# only a comment\n", "\n\n"])
def test_config_pin_on_an_empty_file_sets_nothing(text, tmp_path, capsys, monkeypatch):
    path = tmp_path / "m.yaml"
    path.write_text(text)
    monkeypatch.setattr(sys, "stdin", io.StringIO("2468\n"))
    assert main(["config", "pin", "--pin-stdin", str(path)]) == 2
    assert "not a machine configuration" in one_line(capsys)
    assert path.read_text() == text


def test_a_ram_clear_needs_a_reason(tmp_path, capsys):
    path = tmp_path / "m.yaml"
    path.write_text(SHIPPED)
    for reason in ("", "   "):
        assert main(["ram-clear", "--config", str(path), "--reason", reason, "--yes"]) == 2
        assert one_line(capsys) == ("cabinet ram-clear: --reason: say why, in the operator's words (it is journaled); "
                                    "an empty reason is refused")


def test_the_archive_and_the_ram_clear_are_refused_while_a_cabinet_holds_the_journal(tmp_path, capsys, monkeypatch):
    """They rewrite or move the journal a running cabinet keeps writing: they went ahead under it."""
    from machine.operator.applying import hold_journal
    from machine.operator.config import load_config

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "m.yaml"
    path.write_text(SHIPPED)
    assert main(["init", "--config", str(path)]) == 0
    capsys.readouterr()
    journal = load_config(str(path)).journal_path(tmp_path)
    before = journal.read_bytes()
    running = hold_journal(journal)  # what a running cabinet holds (machine/loop/wiring.py)
    try:
        for argv, nothing in ((["archive", "--to", str(tmp_path / "a.sqlite"), "--keep-days", "0"], "nothing archived"),
                              (["ram-clear", "--reason", "test", "--yes"], "nothing cleared")):
            assert main([*argv, "--config", str(path)]) == 1
            assert one_line(capsys) == (f"cabinet {argv[0]}: {journal}: the cabinet is running (another process has the "
                                        f"journal open): stop it first; {nothing}")
        assert journal.read_bytes() == before and not (tmp_path / "a.sqlite").exists()
    finally:
        running.release()
    assert main(["ram-clear", "--reason", "test", "--yes", "--config", str(path)]) == 0  # stopped: it goes ahead
    assert "RAM cleared" in capsys.readouterr().out


@pytest.mark.parametrize("example", ["ochko", "eenendertigen"])
def test_the_readmes_example_scripts_are_priced_and_simulated(example, capsys):
    # the README calls them round scripts to start from; rtp and simulate read a round script's game and rules
    path = str(ROOT / "examples" / f"{example}.yaml")
    assert main(["simulate", path, "--rounds", "20", "--workers", "1"]) == 0
    assert "simulated RTP" in capsys.readouterr().out
    if example == "ochko":
        assert main(["rtp", path]) == 0
        assert "RTP 95.46052 %" in capsys.readouterr().out


@pytest.mark.parametrize("line, said", [
    ("data_dir: ~nosuchuser/x", "data_dir: '~nosuchuser/x': ~nosuchuser is no user's home folder on this machine"),
    ("  key_file: ~nosuchuser/k", "memory.key_file: '~nosuchuser/k': ~nosuchuser is no user's home folder"),
])
def test_a_home_folder_of_no_user_is_one_line(line, said, tmp_path, capsys):
    key = line.strip().split(":")[0]
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(line if ln.strip().startswith(f"{key}:") else ln for ln in SHIPPED.splitlines()) + "\n")
    for argv in (["config", "check", str(path)], ["run", "--headless", "--config", str(path)]):
        assert main(argv) == 2
        assert said in one_line(capsys)
