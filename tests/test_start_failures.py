"""``cabinet run`` that cannot start: one line on standard error, nothing on standard output, the
exit status of its kind (1: a port, device or journal that cannot be reached or is in use; 2: the
configuration), and nothing it started left behind."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from machine.cli import main
from machine.loop import wiring
from machine.money import journal

SHIPPED = (Path(__file__).resolve().parents[1] / "config" / "machine.yaml").read_text()


def config(tmp_path: Path, *, bus: str = "sim", panel: str = "sim", data: str = "data") -> Path:
    text = SHIPPED.replace("bus: sim ", f"bus: {bus} ").replace("panel: sim ", f"panel: {panel} ")
    text = text.replace("data_dir: data ", f"data_dir: {data} ")
    lines = [("games_enabled: [random-blackjack]" if ln.startswith("games_enabled:") else ln) for ln in text.splitlines()]
    path = tmp_path / "machine.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def quick(monkeypatch, tmp_path):
    """No Auto tables (not what these are about), a dummy video driver, the run in ``tmp_path``."""
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.chdir(tmp_path)
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not left, f"threads left running: {left}"


def one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)
    assert "Traceback" not in err
    return err.rstrip("\n")


@pytest.mark.parametrize(("bus", "said"), [
    ("/dev/ttyNONE", "cabinet run: devices.bus: /dev/ttyNONE: cannot open: "),
    ("socket://127.0.0.1:1", "cabinet run: devices.bus: socket://127.0.0.1:1: cannot open: "),
    ("loop://", "cabinet run: devices.bus: loop://: ccTalk bus: address 2: no reply: expected a 'Coin Acceptor' device"),
])
def test_a_bus_that_cannot_be_reached_is_one_line_and_status_1(tmp_path, capsys, quick, bus, said):
    assert main(["run", "--config", str(config(tmp_path, bus=bus))]) == 1
    assert one_line(capsys).startswith(said)


def test_a_data_dir_that_cannot_be_made_is_one_line_and_status_2(tmp_path, capsys, quick):
    (tmp_path / "afile").write_text("")
    data = tmp_path / "afile" / "data"  # under a file: no folder can be made there (even as root)
    path = config(tmp_path, data=str(data))
    assert main(["run", "--config", str(path)]) == 2
    assert one_line(capsys) == (f"cabinet run: {path}: data_dir {data}: cannot make the journal's folder {data}: "
                                "Not a directory")


def test_a_journal_another_process_holds_is_one_line_and_status_1(tmp_path, capsys, quick, monkeypatch):
    connect = sqlite3.connect
    monkeypatch.setattr(journal.sqlite3, "connect", lambda *a, **k: connect(*a, **{**k, "timeout": 0.05}))
    path = config(tmp_path)
    (tmp_path / "data").mkdir()
    holder = connect(tmp_path / "data" / "journal.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of writing it
    try:
        assert main(["run", "--config", str(path)]) == 1
    finally:
        holder.close()
    assert one_line(capsys) == (f"cabinet run: {tmp_path / 'data' / 'journal.sqlite'}: the journal is in use by another "
                                "process (another cabinet on this data_dir?): database is locked")
