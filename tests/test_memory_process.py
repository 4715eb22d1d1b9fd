"""The real process on a data folder an attacker or a fault has touched (issue 14, item 9).

``cabinet run --headless --rounds N --data DIR`` (what ``tools/run --headless`` runs) plays on
the journal in DIR, so a soak can stop and go on later; on a journal it must not trust it plays
nothing and exits with status 3 and one line that starts ``memory error:``. Between two runs the
tests put back an old copy of DIR, cut the WAL a kill left, empty or delete the journal and edit
single values in its tables, as the independent checks will.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import two_seats

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.timeout(300)



def command(tmp: Path, rounds: int = 1) -> list[str]:
    return [sys.executable, "-m", "machine", "run", "--config", str(tmp / "cfg.yaml"), "--headless",
            "--rounds", str(rounds), "--data", str(tmp / "data")]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}


def run(tmp: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(tmp), cwd=tmp, env=env(), capture_output=True, text=True, timeout=240)


def save(tmp: Path, name: str) -> None:
    for part in ("data", "usb", "data-sim"):  # data-sim: the simulated devices and the panel's memory
        shutil.copytree(tmp / part, tmp / name / part)


def put_back(tmp: Path, name: str, parts: tuple[str, ...] = ("data", "usb", "data-sim")) -> None:
    for part in parts:
        shutil.rmtree(tmp / part)
        shutil.copytree(tmp / name / part, tmp / part)


@pytest.fixture(scope="module")
def soaked(tmp_path_factory) -> Path:
    """DIR after a first soak (saved as ``first``) and a second one killed mid-play (``killed``:
    its WAL holds the records since)."""
    tmp = tmp_path_factory.mktemp("soak")
    (tmp / "cfg.yaml").write_text(two_seats("betting_time: 2", "decision_timeout: 1",
                                               f"memory: {{key_file: {tmp}/key/machine.key, head_stores: [{tmp}/usb]}}"))
    done = run(tmp)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every meter and coin accounted for" in done.stdout and (tmp / "data" / "journal.sqlite").exists()
    save(tmp, "first")
    proc = subprocess.Popen(command(tmp, rounds=50), cwd=tmp, env=env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    wal = tmp / "data" / "journal.sqlite-wal"
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and not (wal.exists() and wal.stat().st_size > 64_000):
            time.sleep(0.2)
        assert wal.exists() and wal.stat().st_size > 64_000, "the second soak never wrote its WAL"
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the cabinet and its simulators, as a power cut would
        proc.wait()
    save(tmp, "killed")
    return tmp


def memory_error(tmp: Path, *words: str) -> str:
    done = run(tmp)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 3, done.stdout + done.stderr
    assert len(lines) == 1 and lines[0].startswith("memory error: "), done.stderr
    assert "soak:" not in done.stdout  # nothing played
    for w in words:
        assert w in lines[0]
    return lines[0]


# slow: a cabinet process soaked, SIGKILLed and soaked again on the same journal
def test_a_soak_goes_on_after_a_kill_from_where_the_journal_stopped(soaked):
    put_back(soaked, "killed")
    done = run(soaked)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "every meter and coin accounted for" in done.stdout


def test_an_old_copy_of_the_data_folder_put_back(soaked):
    put_back(soaked, "killed")
    put_back(soaked, "first", ("data",))
    memory_error(soaked, "an older or cut copy", "records lost")


def test_a_cut_wal(soaked):
    put_back(soaked, "killed")
    wal = soaked / "data" / "journal.sqlite-wal"
    with open(wal, "r+b") as f:
        f.truncate(wal.stat().st_size // 2)
    memory_error(soaked, "an older or cut copy")


def test_a_flipped_bit_in_the_wal(soaked):
    put_back(soaked, "killed")
    wal = soaked / "data" / "journal.sqlite-wal"
    data = bytearray(wal.read_bytes())
    data[len(data) // 3] ^= 0x10
    wal.write_bytes(bytes(data))
    memory_error(soaked)


def _db(tmp: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp / "data" / "journal.sqlite", isolation_level=None)


def test_a_credit_edited_and_re_summed(soaked):
    put_back(soaked, "killed")
    con = _db(soaked)
    value, seq = con.execute("SELECT value, seq FROM state WHERE key = 'seat/1'").fetchone()
    forged = value.replace('"credit":', '"credit":1000', 1)
    con.execute("UPDATE state SET value = ?, mac = ? WHERE key = 'seat/1'",
                (forged, hashlib.sha256(f"seat/1|{seq}|{forged}".encode()).hexdigest()))
    con.close()
    memory_error(soaked, "state row 'seat/1' fails its mac")


def test_a_single_value_edited_in_a_record(soaked):
    put_back(soaked, "killed")
    con = _db(soaked)
    seq = con.execute("SELECT MIN(seq) FROM journal WHERE kind = 'move'").fetchone()[0]  # the first coin's
    con.execute("UPDATE journal SET data = replace(data, '\"amount\":', '\"amount\":9') WHERE seq = ?", (seq,))
    assert con.total_changes == 1
    con.close()
    memory_error(soaked, f"record {seq} (move) was altered or forged")


@pytest.mark.parametrize("how", ["emptied tables", "zero bytes", "deleted"])
def test_an_emptied_or_missing_journal(soaked, how):
    put_back(soaked, "killed")
    journal = soaked / "data" / "journal.sqlite"
    if how == "emptied tables":
        _db(soaked).executescript("DELETE FROM journal; DELETE FROM state;")
    else:
        for f in journal.parent.glob("journal.sqlite*"):
            f.unlink()
        if how == "zero bytes":
            journal.write_bytes(b"")
    line = memory_error(soaked)
    assert any(w in line for w in ("no records (emptied)", "the journal is missing", "no journal tables")), line
