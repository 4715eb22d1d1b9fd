"""The journal's file against an adversary with the disk but not the key (issue 24, findings 8-11):
objects planted in the SQLite file, meta rows added or edited, record times moved, the data
folder or its witnesses deleted. Each is a memory error (or ``audit verify`` fails), never play
on a journal that does not keep what it is given.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from machine.core.cabinet import CabinetLocked
from machine.money.journal import Journal, JournalError

from .cabinet_helpers import TEST_KEY, boot

DROP_EVERY_RECORD = "CREATE TRIGGER drop_it BEFORE INSERT ON journal BEGIN SELECT RAISE(IGNORE); END"


def coins(cab, seat: int, n: int) -> None:
    for _ in range(n):
        assert cab.coin(seat, "EU200A", 0.0)


def db(tmp: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp / "journal.sqlite", isolation_level=None)


def played(tmp: Path) -> None:
    cab = boot(tmp)
    coins(cab, 1, 3)
    cab.journal.close()


# -- finding 8: objects planted in the file --------------------------------------------------------


@pytest.mark.parametrize("planted, named", [
    (DROP_EVERY_RECORD, "trigger 'drop_it' on journal"),
    ("CREATE TRIGGER keep_credit BEFORE UPDATE ON state BEGIN SELECT RAISE(IGNORE); END", "trigger 'keep_credit' on state"),
    ("CREATE VIEW v AS SELECT * FROM journal", "view 'v' on v"),
    ("CREATE INDEX extra ON state (seq)", "index 'extra' on state"),
])
def test_an_object_planted_in_the_file_before_the_start_is_a_memory_error(tmp_path, planted, named):
    played(tmp_path)
    db(tmp_path).execute(planted)
    with pytest.raises(CabinetLocked, match=f"memory error: .*holds what the cabinet never made: {named} .*planted"):
        boot(tmp_path)
    with pytest.raises(JournalError, match=named):  # and the audit's reading of it
        Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True)


def test_a_trigger_planted_while_the_cabinet_runs_stops_it_at_the_next_money_event(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, 2)
    credit, last = cab.seats[1].money.credit, cab.journal.last_seq
    db(tmp_path).execute(DROP_EVERY_RECORD)  # another process, no key needed
    with pytest.raises(JournalError, match="trigger 'drop_it' on journal .*memory error"):
        cab.coin(1, "EU200A", 0.0)
    assert db(tmp_path).execute("SELECT MAX(seq) FROM journal").fetchone()[0] == last
    cab.journal.close()
    with pytest.raises(CabinetLocked, match="trigger 'drop_it'"):
        boot(tmp_path)
    db(tmp_path).execute("DROP TRIGGER drop_it")  # taken away again: the journal is what it was
    assert boot(tmp_path).seats[1].money.credit == credit


def test_a_write_the_file_does_not_keep_is_found_before_the_commit(tmp_path, monkeypatch):
    """Read-back: even where the schema check cannot see it (here the schema version is made to
    look unchanged), a record the file did not keep is a memory error at that commit."""
    cab = boot(tmp_path)
    coins(cab, 1, 1)
    monkeypatch.setattr(Journal, "_schema_unchanged", lambda self: None)
    db(tmp_path).execute(DROP_EVERY_RECORD)
    with pytest.raises(JournalError, match="did not keep what was written \\(records \\d+ to \\d+ written, 0 found"):
        cab.coin(1, "EU200A", 0.0)
    cab.journal.close()


# -- finding 9: the meta rows ------------------------------------------------------------------------


def keyfile(tmp: Path) -> Path:
    path = tmp / "auditor.key"
    path.write_text(TEST_KEY.hex())
    path.chmod(0o600)
    return path


def audit_verify(tmp: Path, capsys, data: Path | None = None) -> tuple[int, str]:
    from machine.cli import main

    status = main(["audit", "verify", "--data", str(data or tmp), "--key", str(keyfile(tmp))])
    out, err = capsys.readouterr()
    return status, out + err


def test_an_inserted_archive_of_row_does_not_switch_verify_off(tmp_path, capsys):
    played(tmp_path)
    con = db(tmp_path)
    (value,) = con.execute("SELECT value FROM state WHERE key = 'seat/1'").fetchone()
    forged = value.replace('"credit":60', '"credit":1060')
    assert forged != value
    con.execute("UPDATE state SET value = ? WHERE key = 'seat/1'", (forged,))
    con.execute("INSERT INTO meta (key, value) VALUES ('archive_of', 'journal.sqlite')")
    status, text = audit_verify(tmp_path, capsys)
    assert status == 1 and "JOURNAL BROKEN" in text and "meta rows fail their mac" in text
    with pytest.raises(CabinetLocked, match="meta rows fail their mac"):
        boot(tmp_path)


@pytest.mark.parametrize("tamper", [
    "UPDATE meta SET value = '0123456789abcdef' WHERE key = 'journal_id'",
    "INSERT INTO meta (key, value) VALUES ('note', 'anything')",
    "DELETE FROM meta WHERE key = 'journal_id'",
])
def test_every_meta_row_is_under_the_key(tmp_path, capsys, tamper):
    played(tmp_path)
    assert audit_verify(tmp_path, capsys)[0] == 0
    db(tmp_path).execute(tamper)
    status, text = audit_verify(tmp_path, capsys)
    assert status == 1 and "meta rows fail their mac" in text


# -- finding 10: record times ---------------------------------------------------------------------


def test_record_times_moved_without_the_key_are_a_memory_error(tmp_path, capsys):
    played(tmp_path)
    db(tmp_path).execute("UPDATE journal SET at = at - 365 * 86400")  # every record a year back
    with pytest.raises(CabinetLocked, match="record 1 \\(init\\) was altered or forged"):
        boot(tmp_path)
    status, text = audit_verify(tmp_path, capsys)
    assert status == 1 and "record 1 (init) was altered or forged" in text


def test_one_time_moved_or_cleared_is_found(tmp_path):
    played(tmp_path)
    last = db(tmp_path).execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    db(tmp_path).execute("UPDATE journal SET at = NULL WHERE seq = ?", (last,))
    with pytest.raises(CabinetLocked, match=f"record {last} \\(.*\\) was altered or forged"):
        boot(tmp_path)


def test_the_meta_tag_stripped_to_pass_as_an_older_journal_is_found(tmp_path):
    """Removing the tag (and the first timed record) makes the file look written before times were
    authenticated: then its records' macs, which cover their times, do not match the older form."""
    played(tmp_path)
    db(tmp_path).execute("DELETE FROM meta WHERE key IN ('meta_mac', 'times_from')")
    with pytest.raises(CabinetLocked, match="record 1 \\(init\\) was altered or forged"):
        boot(tmp_path)


def as_written_before_times_were_authenticated(tmp: Path) -> int:
    """Rewrite the journal in ``tmp`` as the release before this one wrote it: every mac without
    the record's time, no meta tag, the head store following. Returns its last record."""
    from machine.money.journal import Keyed, untimed_record_text
    from machine.money.memory import Head

    from .cabinet_helpers import memory

    con = db(tmp)
    sign, prev = Keyed(TEST_KEY), "0" * 64
    for seq, kind, seat, data in con.execute("SELECT seq, kind, seat, data FROM journal ORDER BY seq").fetchall():
        prev = sign(untimed_record_text(prev, seq, kind, seat, data))
        con.execute("UPDATE journal SET mac = ? WHERE seq = ?", (prev, seq))
    con.execute("DELETE FROM meta WHERE key IN ('meta_mac', 'times_from')")
    (journal_id,) = con.execute("SELECT value FROM meta WHERE key = 'journal_id'").fetchone()
    last = con.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    memory(tmp).heads[0].write(Head(journal_id, last, prev), TEST_KEY)
    return last


def test_a_journal_written_before_times_were_authenticated_opens_verifies_and_restores(tmp_path, capsys):
    """The migration chosen: its records keep their macs (a journal is never re-signed: that would
    launder a forgery); the first open to write signs the meta rows with ``times_from`` after its
    last record, and every record from there covers its time."""
    played(tmp_path)
    old_last = as_written_before_times_were_authenticated(tmp_path)
    assert audit_verify(tmp_path, capsys)[0] == 0  # read as it is
    cab = boot(tmp_path)
    assert cab.seats[1].money.credit == 60  # every meter restored
    coins(cab, 1, 1)
    cab.journal.close()
    meta = dict(db(tmp_path).execute("SELECT key, value FROM meta"))
    assert int(meta["times_from"]) == old_last + 1 and "meta_mac" in meta
    assert boot(tmp_path).seats[1].money.credit == 80
    assert audit_verify(tmp_path, capsys)[0] == 0
    db(tmp_path).execute("UPDATE journal SET at = at - 86400 WHERE seq = ?", (old_last + 1,))  # a timed record
    with pytest.raises(CabinetLocked, match=f"record {old_last + 1} \\(power_up\\) was altered or forged"):
        boot(tmp_path)


def test_an_older_journal_with_an_archive_of_row_is_not_taken_for_an_archive(tmp_path, capsys):
    played(tmp_path)
    as_written_before_times_were_authenticated(tmp_path)
    con = db(tmp_path)
    (value,) = con.execute("SELECT value FROM state WHERE key = 'seat/1'").fetchone()
    con.execute("UPDATE state SET value = ? WHERE key = 'seat/1'", (value.replace('"credit":60', '"credit":1060'),))
    con.execute("INSERT INTO meta (key, value) VALUES ('archive_of', 'journal.sqlite')")
    status, text = audit_verify(tmp_path, capsys)  # it has state rows: no archive, so they are checked
    assert status == 1 and "state row 'seat/1' fails its mac" in text


# -- finding 11: the first start asks every witness ---------------------------------------------


def machine(tmp: Path, data: str = "data"):
    """A configuration with its data folder, key and head store in ``tmp`` (not initialised)."""
    from machine.operator.config import parse_config
    from tests.helpers import two_seats

    return parse_config(two_seats(f"data_dir: {tmp / data}",
                                  f"memory: {{key_file: {tmp / 'key' / 'machine.key'}, head_stores: [{tmp / 'usb'}]}}"),
                        "m.yaml")


def commit_coins(cfg, base: Path, more=(), n: int = 3) -> int:
    from machine.money.memory import open_journal

    j = open_journal(cfg.journal_path(base), cfg.machine_memory(base, more))
    for k in range(n):
        with j.transaction():
            j.append("coin", {"points": 20, "n": k}, 1)
    last = j.last_seq
    j.close()
    return last


@pytest.mark.timeout(60)
def test_a_journal_the_panels_memory_knows_is_never_started_anew(tmp_path):
    """Journal and head store both deleted: the panel's memory still holds the head, so the first
    start (``cabinet run --init``, the soak's ``--data``) does not begin a fresh journal."""
    import shutil
    import time

    from hardware.panel.host import PanelHost
    from hardware.sim.panel import PanelSimulator

    from machine.loop.panelhead import PanelHeadStore, decode
    from machine.money.memory import Head, UntrustedMemory, open_journal
    from machine.operator.firststart import init_if_new, is_new

    cfg = machine(tmp_path)
    with PanelSimulator(seats=2) as sim, PanelHost(sim.link_url) as host:
        host.start()
        panel = PanelHeadStore(host)
        try:
            assert init_if_new(cfg, tmp_path, (panel,)) is not None
            last = commit_coins(cfg, tmp_path, (panel,))
            end = time.monotonic() + 60  # bounds a hang only
            while (decode(host.read_head() or b"", load_key(cfg)) or Head("", 0, "")).seq != last:
                assert time.monotonic() < end, "the panel never got the head"
                time.sleep(0.02)
            shutil.rmtree(tmp_path / "data")
            shutil.rmtree(tmp_path / "usb")
            assert not is_new(cfg, tmp_path, (panel,))
            assert init_if_new(cfg, tmp_path, (panel,)) is None
            said = f"the journal is missing, but the panel's memory holds its head at record {last}"
            with pytest.raises(UntrustedMemory, match=said):
                open_journal(cfg.journal_path(tmp_path), cfg.machine_memory(tmp_path, (panel,)))
            assert not (tmp_path / "data").exists()
        finally:
            panel.close()


def load_key(cfg) -> bytes:
    from machine.money.memory import load_key as load

    return load(cfg.memory.key_file)


@pytest.mark.parametrize("left", ["zero bytes", "emptied", "only its wal"])
def test_a_data_folder_that_holds_journal_files_is_never_new_when_copied_elsewhere(tmp_path, left):
    import shutil

    from machine.money.memory import UntrustedMemory, open_journal
    from machine.operator.firststart import init_cabinet, init_if_new, is_new

    cfg = machine(tmp_path)
    init_cabinet(cfg, tmp_path)
    commit_coins(cfg, tmp_path)
    copy = machine(tmp_path, data="elsewhere")  # the same key; its head file (named by the folder) is not there
    shutil.copytree(tmp_path / "data", tmp_path / "elsewhere")
    journal = copy.journal_path(tmp_path)
    if left == "zero bytes":
        journal.write_bytes(b"")
    elif left == "emptied":
        sqlite3.connect(journal, isolation_level=None).executescript("DELETE FROM journal; DELETE FROM state;")
    else:
        journal.unlink()
        Path(f"{journal}-wal").write_bytes(b"")
    assert not is_new(copy, tmp_path)
    assert init_if_new(copy, tmp_path) is None
    with pytest.raises(UntrustedMemory, match="a journal is already here"):
        init_cabinet(copy, tmp_path)
    with pytest.raises(UntrustedMemory):  # a temporary start (create) does not begin one either
        open_journal(journal, copy.machine_memory(tmp_path), create=True).close()


def test_init_after_a_deleted_key_writes_no_key_it_would_refuse_with(tmp_path):
    from machine.money.memory import UntrustedMemory
    from machine.operator.firststart import init_cabinet

    cfg = machine(tmp_path)
    init_cabinet(cfg, tmp_path)
    commit_coins(cfg, tmp_path)
    key = cfg.key_path(tmp_path)
    key.unlink()
    with pytest.raises(UntrustedMemory, match="no machine key, but the journal's files journal.sqlite.* put back the key"):
        init_cabinet(cfg, tmp_path)
    assert not key.exists()  # no new key that would be refused at once
    for f in (tmp_path / "data").iterdir():  # the head store alone still knows it
        f.unlink()
    with pytest.raises(UntrustedMemory, match="no machine key, but the head store .* knows a journal"):
        init_cabinet(cfg, tmp_path)
    assert not key.exists()


def test_the_old_key_put_back_after_a_refused_init_opens_the_journal(tmp_path):
    from machine.money.memory import UntrustedMemory, open_journal
    from machine.operator.firststart import init_cabinet

    cfg = machine(tmp_path)
    init_cabinet(cfg, tmp_path)
    last = commit_coins(cfg, tmp_path)
    key = cfg.key_path(tmp_path)
    saved = key.read_bytes()
    key.unlink()
    with pytest.raises(UntrustedMemory):
        init_cabinet(cfg, tmp_path)
    key.write_bytes(saved)  # as the operator restores it: no manual delete of a new key first
    key.chmod(0o600)
    j = open_journal(cfg.journal_path(tmp_path), cfg.machine_memory(tmp_path))
    assert j.last_seq == last
    j.close()


@pytest.mark.timeout(90)
def test_the_cabinets_first_start_asks_the_panels_memory(tmp_path, monkeypatch):
    """End to end through the wiring (``cabinet run --init``, the soak's ``--data``): a panel that
    keeps its memory in a file, the journal and the head store deleted: a memory error, and no
    fresh journal written."""
    import shutil
    import time

    from hardware.sim import panel as sim_panel

    from machine.core.cabinet import MemoryLocked
    from machine.devtools.harness import SimulatedCabinet
    from machine.loop import wiring
    from machine.loop.panelhead import decode

    real = sim_panel.PanelSimulator
    monkeypatch.setattr(sim_panel, "PanelSimulator",  # (whatever else the harness gives it: the memory in this file)
                        lambda *args, **kw: real(*args, **{**kw, "nv_file": str(tmp_path / "panel.nv")}))
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    cfg = machine(tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, first_start=True)
    try:
        assert app.wiring.first_start is not None and app.wiring.first_start.startswith("initialised: ")
        key, end = load_key(cfg), time.monotonic() + 60  # bounds a hang only
        while (decode(app.sims.panel.nv.load() or b"", key) or Head0).seq != app.cab.journal.last_seq:
            assert time.monotonic() < end, "the panel never got the head"
            app.frame()
            time.sleep(0.02)
        last = app.cab.journal.last_seq
    finally:
        app.close()
    shutil.rmtree(tmp_path / "data")
    shutil.rmtree(tmp_path / "usb")
    with pytest.raises(MemoryLocked, match="memory error: .*the journal is missing, but the panel's memory holds its head "
                                           "at record ") as exc:
        SimulatedCabinet(cfg, tmp_path, headless=True, first_start=True)
    assert int(str(exc.value).rsplit(" ", 1)[1]) >= last  # (the cabinet may commit once more on its way out)
    assert not (tmp_path / "data" / "journal.sqlite").exists()


class Head0:
    seq = 0


@pytest.mark.parametrize("cut_at", ["head", "begin", "append", "before_commit"])
def test_a_first_start_cut_before_its_first_record_starts_again_and_only_then(tmp_path, cut_at):
    """The head stores learn a new journal (at record 0) before its file is made: a cut first
    start leaves files only beside a witness that knows them at their start, so "journal files
    are never new" and "a cut first start is started again" do not meet."""
    from machine.money.memory import open_journal

    from .cabinet_helpers import memory

    class Cut(Exception):
        pass

    def cut(where: str) -> None:
        if where == cut_at:
            raise Cut(where)

    with pytest.raises(Cut):
        open_journal(tmp_path / "journal.sqlite", memory(tmp_path), step_hook=cut, create=True)
    j = open_journal(tmp_path / "journal.sqlite", memory(tmp_path), create=True)  # started again
    assert [r.kind for r in j.records()] == ["init"]
    j.close()
