"""Bad input to the commands (issue 14, finding 8): one clear line on standard error and exit
status 2 (or the journal-broken status 1 of ``audit verify``), never a traceback; a reader that
stops early (``| head``) ends a command quietly."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from machine.cli import main
from machine.devtools import crashtest
from tests.cabinet_helpers import TEST_KEY

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def journal_dir(tmp_path_factory):
    """A data directory whose journal holds a few played rounds (the crash test's child run)."""
    data = tmp_path_factory.mktemp("data")
    crashtest.run_child(data, 5, None, key=TEST_KEY)
    return data


def one_line(capsys) -> str:
    """The one line on standard error (and nothing on standard output)."""
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def argparse_error(capsys) -> str:
    """argparse's refusal: one error line naming the option, nothing on stdout."""
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    return err.strip()


# -- cabinet audit --------------------------------------------------------------------------------


def test_audit_meters_as_json_gives_the_meters(journal_dir, capsys):
    assert main(["audit", "meters", "--json", "--data", str(journal_dir)]) == 0
    assert set(json.loads(capsys.readouterr().out)) == {"seats", "cabinet", "games", "problems"}


def test_audit_of_a_seat_the_cabinet_has_not_says_so(journal_dir, capsys):
    assert main(["audit", "--seat", "9", "--data", str(journal_dir)]) == 2
    assert one_line(capsys) == "cabinet audit: --seat 9: no such seat (the cabinet has seats 1 to 3)"


def test_audit_recall_of_more_games_than_sqlite_counts_is_refused(journal_dir, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["audit", "recall", "--games", "99999999999999999999", "--data", str(journal_dir)])
    assert stop.value.code == 2
    assert argparse_error(capsys) == ("cabinet audit: error: argument --games: 99999999999999999999: "
                                      "must be at most 1,000,000,000")


def _bad_journal(tmp_path: Path, journal_dir: Path, kind: str) -> Path:
    path = tmp_path / "journal.sqlite"
    good = (journal_dir / "journal.sqlite").read_bytes()
    path.write_bytes({"empty": b"", "truncated": good[: len(good) // 2], "random": os.urandom(len(good))}[kind])
    return path


@pytest.mark.parametrize("kind", ["empty", "truncated", "random"])
def test_audit_verify_of_a_file_that_is_no_journal_says_it_is_broken(tmp_path, journal_dir, capsys, kind):
    path = _bad_journal(tmp_path, journal_dir, kind)
    assert main(["audit", "verify", "--data", str(tmp_path)]) == 1  # the journal-broken status
    line = one_line(capsys)
    assert line.startswith(f"cabinet audit: JOURNAL BROKEN: {path}: the journal cannot be read: ")
    assert line.endswith("(not a cabinet journal, or damaged)")
    assert main(["audit", "verify", "--json", "--data", str(tmp_path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["records"] == 0 and len(result["problems"]) == 1


@pytest.mark.parametrize("kind", ["empty", "truncated", "random"])
def test_audit_of_a_file_that_is_no_journal_is_one_line(tmp_path, journal_dir, capsys, kind):
    path = _bad_journal(tmp_path, journal_dir, kind)
    assert main(["audit", "--data", str(tmp_path)]) == 2
    line = one_line(capsys)
    assert line.startswith(f"cabinet audit: {path}: the journal cannot be read: ")
    assert line.endswith("(not a cabinet journal, or damaged)")


@pytest.mark.parametrize("what", [[], ["all"]])
def test_audit_all_csv_gives_every_table_each_with_its_header(journal_dir, capsys, what):
    assert main(["audit", *what, "--csv", "--data", str(journal_dir)]) == 0
    tables = capsys.readouterr().out.split("\n\n")
    assert [t.splitlines()[0].split(",")[0] for t in tables] == ["scope", "seat", "seq"]  # meters, recall, events


def test_audit_verify_csv_is_refused_in_one_line(journal_dir, capsys):
    assert main(["audit", "verify", "--csv", "--data", str(journal_dir)]) == 2
    assert one_line(capsys) == "cabinet audit: verify --csv: the check is one verdict, not a table; ask verify --json"


def test_audit_verify_json_gives_json(journal_dir, capsys):
    assert main(["audit", "verify", "--json", "--data", str(journal_dir)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result == {"ok": True, "records": result["records"], "problems": []} and result["records"] > 0


def test_audit_verify_json_names_the_break(tmp_path, journal_dir, capsys):
    import sqlite3

    shutil.copy(journal_dir / "journal.sqlite", tmp_path / "journal.sqlite")
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("UPDATE journal SET data = '{}' WHERE seq = 3")
    db.commit()
    db.close()
    assert main(["audit", "verify", "--json", "--data", str(tmp_path)]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["ok"] is False and result["problems"][0].startswith("record 3 ")


# -- a reader that stops early --------------------------------------------------------------------


DEALS = ["tournament", "deals", "--seed", "ab" * 32, "--variant", "classic", "--rounds", "3"]  # a published seed's form


@pytest.mark.parametrize(("argv", "unbuffered"), [(DEALS, False), (DEALS, True), (["--help"], False)])
def test_a_reader_that_stops_early_ends_the_command_quietly(argv, unbuffered):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(ROOT)
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    code = "import sys; from machine.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, *argv],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the command writes a byte
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=60) == 0
    assert err == ""


# -- cabinet screenshots --------------------------------------------------------------------------


def test_screenshots_onto_a_file_says_it_is_not_a_folder(tmp_path, capsys):
    target = tmp_path / "pictures"
    target.write_text("not a folder")
    assert main(["screenshots", str(target), "--game", "ochko", "--language", "en"]) == 2
    assert one_line(capsys) == f"cabinet screenshots: {target}: a file is there, not a folder to write the pictures into"


def test_screenshots_under_a_file_says_where_it_cannot_write(tmp_path, capsys):
    (tmp_path / "afile").write_text("")
    target = tmp_path / "afile" / "pictures"
    assert main(["screenshots", str(target), "--game", "ochko", "--language", "en"]) == 2
    assert one_line(capsys) == f"cabinet screenshots: {target}: cannot write the pictures there (Not a directory)"


def test_screenshots_into_an_unwritable_folder_says_so(tmp_path, capsys, monkeypatch):
    from machine.devtools import screenshots

    def refused(out, *args, **kwargs):  # as root every folder is writable: the refusal is staged
        raise PermissionError(13, "Permission denied", str(out / "ochko-deal.png"))
        yield  # a generator, like the real one

    monkeypatch.setattr(screenshots, "write_screenshots", refused)
    assert main(["screenshots", str(tmp_path), "--game", "ochko", "--language", "en"]) == 2
    where = tmp_path / "ochko-deal.png"
    assert one_line(capsys) == f"cabinet screenshots: {where}: cannot write the pictures there (Permission denied)"


# -- numbers on the command line ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "option", "why"),
    [
        (["crashtest", "--kills", "-5"], "--kills", "-5: must be at least 1"),
        (["run", "--headless", "--rounds", "-5"], "--rounds", "-5: must be at least 1"),
        (["simulate", "x.yaml", "--rounds", "10", "--workers", "0"], "--workers", "0: must be at least 1"),
        (["simulate", "x.yaml", "--rounds", "0"], "--rounds", "0: must be at least 1"),
        (["simulate", "x.yaml", "--rounds", "10", "--seats", "8"], "--seats", "8: must be at most 7"),
        (["audit", "--games", "0"], "--games", "0: must be at least 1"),
        (["audit", "--seat", "0"], "--seat", "0: must be at least 1"),
        (["tournament", "deals", "--seed", "0" * 64, "--variant", "classic", "--rounds", "0"], "--rounds",
         "0: must be at least 1"),
        (["bench", "payout", "--coins", "-1"], "--coins", "-1: must be at least 1"),
        (["crashtest", "--kills", "many"], "--kills", "'many' is not a whole number"),
    ],
)
def test_command_line_numbers_are_checked_by_argparse(argv, option, why, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    assert argparse_error(capsys).endswith(f"error: argument {option}: {why}")
