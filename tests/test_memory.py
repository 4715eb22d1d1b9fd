"""Memory an inspector can trust (issue 14, findings 2-5 and 7): every way found to roll back,
forge, cut or empty the journal is a memory error at the next start, and `audit verify` says so.

Each test plays a few inputs on a real journal, tampers with the disk as an attacker or a fault
would, and opens the cabinet again.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import sqlite3
from pathlib import Path

import pytest

from machine.core.cabinet import CabinetLocked
from machine.money import journal as journal_module
from machine.money.journal import Journal, JournalError, record_mac
from machine.money.memory import (
    FileHeadStore,
    Head,
    Memory,
    UntrustedMemory,
    create_key,
    init,
    load_key,
    open_journal,
    ram_clear,
)

from .cabinet_helpers import TEST_KEY, boot, memory


def coins(cab, seat: int, n: int) -> None:
    for _ in range(n):
        assert cab.coin(seat, "EU200A", 0.0)


def played(tmp: Path):
    """A cabinet with some money on it, closed: 3 coins on seat 1 and 1 on seat 2."""
    cab = boot(tmp)
    coins(cab, 1, 3)
    coins(cab, 2, 1)
    cab.journal.close()
    return cab


def db(tmp: Path) -> sqlite3.Connection:
    return sqlite3.connect(tmp / "journal.sqlite", isolation_level=None)


def locked(tmp: Path, match: str) -> None:
    with pytest.raises(CabinetLocked, match=match):
        boot(tmp)


# -- finding 3: forged state --------------------------------------------------------------------


def test_a_credit_raised_and_re_summed_as_the_old_checksum_was_is_a_memory_error(tmp_path):
    played(tmp_path)
    con = db(tmp_path)
    (value, seq) = con.execute("SELECT value, seq FROM state WHERE key = 'seat/1'").fetchone()
    forged = value.replace('"credit":60', '"credit":1060')
    assert forged != value
    # what the old code accepted: the row's checksum recomputed as plain SHA-256
    con.execute("UPDATE state SET value = ?, mac = ? WHERE key = 'seat/1'",
                (forged, hashlib.sha256(f"seat/1|{seq}|{forged}".encode()).hexdigest()))
    locked(tmp_path, "state row 'seat/1' fails its mac")
    assert any("seat/1" in p for p in Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True).verify())


def test_a_record_edited_and_the_chain_re_hashed_after_it_is_a_memory_error(tmp_path):
    played(tmp_path)
    con = db(tmp_path)
    rows = con.execute("SELECT seq, kind, seat, data FROM journal ORDER BY seq").fetchall()
    coin = next(r for r in rows if r[1] == "coin")
    prev = con.execute("SELECT mac FROM journal WHERE seq = ?", (coin[0] - 1,)).fetchone()[0]
    wrong = b"\x00" * 32  # the attacker has no key: any other key re-chains wrongly
    for seq, kind, seat, data in rows[coin[0] - 1:]:
        if seq == coin[0]:
            data = data.replace('"points":20', '"points":90')
        mac = record_mac(wrong, prev, seq, kind, seat, data)
        con.execute("UPDATE journal SET data = ?, mac = ? WHERE seq = ?", (data, mac, seq))
        prev = mac
    locked(tmp_path, f"record {coin[0]} \\(coin\\) was altered or forged")


def test_an_old_row_put_back_from_a_copy_is_not_what_the_records_say(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, 1)
    old = db(tmp_path).execute("SELECT value, seq, mac FROM state WHERE key = 'seat/1'").fetchone()
    coins(cab, 1, 2)
    cab.journal.close()
    db(tmp_path).execute("UPDATE state SET value = ?, seq = ?, mac = ? WHERE key = 'seat/1'", old)  # genuine, but old
    locked(tmp_path, "state row 'seat/1' is not what record \\d+ wrote")


def test_a_missing_row_is_found(tmp_path):
    played(tmp_path)
    db(tmp_path).execute("DELETE FROM state WHERE key = 'seat/2'")
    locked(tmp_path, "state row 'seat/2' is missing")


def test_a_move_record_that_disagrees_with_the_seat_row_is_found(tmp_path):
    """The seat rows recomputed from the money moves: a row the records bind but the moves do not
    explain (here: a consistent forgery made with the key itself) is still refused."""
    played(tmp_path)
    j = Journal(tmp_path / "journal.sqlite", TEST_KEY)
    seat = j.get("seat/1")
    seat["money"]["credit"] += 1000
    with j.transaction():
        j.append("press", {"button": "nothing"}, 1)
        j.put("seat/1", seat)
    j.close()
    locked(tmp_path, "seat 1's credit/club 1060/0 are not what its last money move left \\(60/0")


# -- finding 2 and 4: an older or cut journal -----------------------------------------------------


def test_an_older_valid_copy_of_the_journal_is_a_memory_error(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, 3)
    cab.journal.close()
    copy = tmp_path / "copy"
    copy.mkdir()
    for f in tmp_path.glob("journal.sqlite*"):
        shutil.copy(f, copy / f.name)
    cab = boot(tmp_path)
    assert cab.press(1, "collect", 0.0)  # the credit goes to the hopper...
    cab.journal.close()
    for f in tmp_path.glob("journal.sqlite*"):
        f.unlink()
    for f in copy.iterdir():  # ...and the old copy, credit and all, is put back
        shutil.copy(f, tmp_path / f.name)
    assert Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True).verify() == []  # a genuine journal
    locked(tmp_path, r"the journal ends at record \d+, but memory holds its head at record \d+: an older or cut copy")


def test_records_lost_from_the_end_are_a_memory_error(tmp_path):
    played(tmp_path)
    con = db(tmp_path)
    last = con.execute("SELECT MAX(seq) FROM journal").fetchone()[0]
    con.execute("DELETE FROM journal WHERE seq > ?", (last - 3,))
    locked(tmp_path, f"ends at record {last - 3}, but memory holds its head at record {last}")


def test_another_journal_in_its_place_is_a_memory_error(tmp_path):
    played(tmp_path)
    other = tmp_path / "other"
    played(other)
    for f in tmp_path.glob("journal.sqlite*"):
        f.unlink()
    for f in other.glob("journal.sqlite*"):
        shutil.copy(f, tmp_path / f.name)
    locked(tmp_path, "another journal than the one memory knows")


# -- finding 5: starting from zero ----------------------------------------------------------------


def test_an_emptied_journal_is_a_memory_error_and_verify_says_so(tmp_path):
    played(tmp_path)
    db(tmp_path).executescript("DELETE FROM journal; DELETE FROM state;")
    locked(tmp_path, "holds no records \\(emptied\\), but memory holds its head")
    assert Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True).verify() == ["the journal holds no records (emptied)"]


@pytest.mark.parametrize("how", ["deleted", "zero bytes"])
def test_a_missing_or_zero_byte_journal_is_a_memory_error_never_a_fresh_start(tmp_path, how):
    played(tmp_path)
    for f in tmp_path.glob("journal.sqlite*"):
        f.unlink()
    if how == "zero bytes":
        (tmp_path / "journal.sqlite").write_bytes(b"")
    locked(tmp_path, "memory error: .*(missing|no records|no journal tables)")


def test_a_cabinet_never_starts_a_journal_without_being_told(tmp_path):
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.games.blackjack.game import BlackjackGame
    from machine.profiles import load_profile

    with pytest.raises(CabinetLocked, match="no journal here, and no head store knows one \\(a first start is `cabinet init`\\)"):
        open_cabinet(tmp_path / "journal.sqlite", load_profile("random-blackjack"), CabinetSettings(seats=1),
                     lambda p: BlackjackGame(p, lambda r: "stand"), lambda cards, n: cards, memory(tmp_path))
    assert not (tmp_path / "journal.sqlite").exists()


# -- the key --------------------------------------------------------------------------------------


def test_another_machines_key_is_told_apart_from_a_forgery(tmp_path):
    played(tmp_path)
    with pytest.raises(UntrustedMemory, match="written under another machine key"):
        open_journal(tmp_path / "journal.sqlite", Memory(b"\x01" * 32, memory(tmp_path).heads))


def test_the_key_is_made_once_readable_only_by_its_user_and_refused_when_shared(tmp_path):
    path = tmp_path / "keys" / "machine.key"
    key = create_key(path)
    assert load_key(path) == key and (path.stat().st_mode & 0o777) == 0o600
    with pytest.raises(UntrustedMemory, match="already there"):
        create_key(path)
    path.chmod(0o644)
    with pytest.raises(UntrustedMemory, match="open to other users \\(mode 644\\): chmod 600"):
        load_key(path)
    path.chmod(0o600)
    path.write_text("not hex\n")
    with pytest.raises(UntrustedMemory, match="not a machine key"):
        load_key(path)
    with pytest.raises(UntrustedMemory, match="no machine key \\(a first start is `cabinet init`\\)"):
        load_key(tmp_path / "nowhere.key")


def test_an_auditor_with_the_key_verifies_a_copied_journal_off_the_machine(tmp_path, capsys):
    from machine.cli import main

    played(tmp_path)
    away = tmp_path / "usb"
    away.mkdir()
    shutil.copy(tmp_path / "journal.sqlite", away / "journal.sqlite")
    keyfile = tmp_path / "auditor.key"
    keyfile.write_text(TEST_KEY.hex())
    keyfile.chmod(0o600)
    assert main(["audit", "verify", "--data", str(away), "--key", str(keyfile)]) == 0
    assert capsys.readouterr().out.startswith("journal OK: ")
    keyfile.write_text((b"\x07" * 32).hex())
    assert main(["audit", "verify", "--data", str(away), "--key", str(keyfile)]) == 1
    assert "written under another machine key" in capsys.readouterr().err


# -- the head in files ----------------------------------------------------------------------------


def test_the_head_file_is_written_after_every_commit_and_an_edited_one_is_refused(tmp_path):
    journal = tmp_path / "data" / "journal.sqlite"
    store = FileHeadStore(tmp_path / "usb", journal)
    mem = Memory(TEST_KEY, (store,))
    j = init(journal, mem)
    with j.transaction():
        j.append("coin", {"points": 20}, 1)
    head = store.read(TEST_KEY)
    assert head is not None and (head.seq, head.mac) == (j.last_seq, j.last_mac)
    j.close()
    slots = store.file.read_bytes()
    assert len(slots) == 2 * store.SLOT
    forged = re.sub(rb'"seq": \d+', b'"seq": 99', slots)  # later heads, forged in both slots
    store.file.write_bytes(forged)
    with pytest.raises(UntrustedMemory, match="the head store is damaged or was altered"):
        open_journal(journal, mem)


def test_a_head_write_cut_by_a_power_cut_leaves_the_head_before_it(tmp_path):
    journal = tmp_path / "data" / "journal.sqlite"
    store = FileHeadStore(tmp_path / "usb", journal)
    j = init(journal, Memory(TEST_KEY, (store,)))
    before = j.last_seq
    with j.transaction():
        j.append("coin", {"points": 20}, 1)
    j.close()
    data = bytearray(store.file.read_bytes())
    newest = max((0, 1), key=lambda i: b'"seq": %d' % j.last_seq in data[i * store.SLOT:(i + 1) * store.SLOT])
    data[newest * store.SLOT:newest * store.SLOT + 40] = b"\x00" * 40  # the slot being written, torn
    store.file.write_bytes(bytes(data))
    head = FileHeadStore(tmp_path / "usb", journal).read(TEST_KEY)
    assert head is not None and head.seq == before  # the other slot: one commit behind, which the journal passes
    open_journal(journal, Memory(TEST_KEY, (store,))).close()


def test_init_refuses_where_a_head_store_knows_a_journal_and_ram_clear_starts_anew(tmp_path):
    played(tmp_path)
    for f in tmp_path.glob("journal.sqlite*"):
        f.unlink()
    with pytest.raises(UntrustedMemory, match="the journal is missing \\(a memory error\\), not new"):
        init(tmp_path / "journal.sqlite", memory(tmp_path))
    j, kept = ram_clear(tmp_path / "journal.sqlite", memory(tmp_path), "the journal was lost")
    assert kept is None
    rec, event = j.records()
    assert rec.kind == "ram_clear" and rec.data["reason"] == "the journal was lost" and rec.data["old_head"] > 5
    assert (event.kind, event.data["event"], event.data["reason"]) == ("event", "ram_clear", "the journal was lost")
    j.close()
    cab = boot(tmp_path)  # the cabinet starts again, every meter at zero
    assert cab.seats[1].money.credit == 0


def test_ram_clear_keeps_the_untrusted_journal_for_the_inspector(tmp_path):
    played(tmp_path)
    db(tmp_path).execute("DELETE FROM journal WHERE seq = 3")
    locked(tmp_path, "record 3 is missing")
    j, kept = ram_clear(tmp_path / "journal.sqlite", memory(tmp_path), "record 3 missing", now=1796155200.0)
    j.close()
    assert kept is not None and kept.name == "journal.sqlite.untrusted-20261201T200000" and kept.exists()
    assert boot(tmp_path).round_no == 0


# -- finding 7: checkpoints ----------------------------------------------------------------------


def test_start_up_checks_a_window_from_a_checkpoint_and_verify_checks_everything(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "CHECKPOINT_EVERY", 20)
    cab = boot(tmp_path)
    coins(cab, 1, 30)
    cab.journal.close()
    con = db(tmp_path)
    checkpoints = [s for (s,) in con.execute("SELECT seq FROM journal WHERE kind = 'checkpoint' ORDER BY seq")]
    assert len(checkpoints) >= 3
    early = checkpoints[0] - 2
    con.execute("UPDATE journal SET data = '{}' WHERE seq = ?", (early,))
    # a journal within the window: start-up reads all of it
    locked(tmp_path, f"record {early} ")
    # a window shorter than the journal: start-up begins at a checkpoint after the edit, so it
    # opens; verify reads everything and finds it
    monkeypatch.setattr(journal_module, "BOOT_WINDOW", 25)
    assert boot(tmp_path).seats[1].money.credit == 600
    problems = Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True).verify()
    assert problems and problems[0].startswith(f"record {early} ")


def test_a_checkpoint_that_disagrees_with_the_records_before_it_is_found(tmp_path, monkeypatch):
    monkeypatch.setattr(journal_module, "CHECKPOINT_EVERY", 20)
    cab = boot(tmp_path)
    coins(cab, 1, 12)
    j = cab.journal
    # a checkpoint written with the key but naming a row value no record wrote
    with j.transaction():
        j.append("checkpoint", {"rows": {"seat/1": [1, "0" * 32]}})
    problems = j.verify()
    assert any("does not name the rows the records before it wrote" in p for p in problems)


def test_a_journal_of_the_old_unauthenticated_schema_is_refused_in_one_line(tmp_path):
    path = tmp_path / "journal.sqlite"
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE journal (seq INTEGER PRIMARY KEY, kind TEXT, seat INTEGER, data TEXT, hash TEXT);"
                      "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT, seq INTEGER, checksum TEXT);"
                      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema', '1');"
                      "INSERT INTO journal VALUES (1, 'power_up', NULL, '{}', 'x');")
    con.close()
    with pytest.raises(JournalError, match="a journal of schema 1, not 2 \\(written without authenticated memory"):
        Journal(path, TEST_KEY)


# -- the head in the panel's memory ---------------------------------------------------------------


@pytest.mark.timeout(30)
def test_the_panels_memory_catches_a_rollback_of_the_data_folder_and_the_head_file_together(tmp_path):
    """Data folder and USB head store copied and put back together: the panel still knows."""
    import time

    from hardware.panel.host import PanelHost
    from hardware.sim.panel import PanelSimulator

    from machine.loop.panelhead import PanelHeadStore, decode

    journal = tmp_path / "data" / "journal.sqlite"
    with PanelSimulator(seats=2) as sim, PanelHost(sim.link_url) as host:
        host.start()
        panel = PanelHeadStore(host, pump=False)  # the host's own thread pumps the link
        mem = Memory(TEST_KEY, (FileHeadStore(tmp_path / "usb", journal), panel))
        try:
            j = init(journal, mem)
            j.close()
            shutil.copytree(tmp_path, tmp_path.parent / "snapshot")
            j = open_journal(journal, mem)
            for n in range(5):
                with j.transaction():
                    j.append("coin", {"points": 20, "n": n}, 1)
            last = j.last_seq
            j.close()
            end = time.monotonic() + 60  # bounds a hang only
            while (decode(host.read_head() or b"", TEST_KEY) or Head("", 0, "")).seq != last:
                assert time.monotonic() < end, "the panel never got the head"
                time.sleep(0.02)
            for part in ("data", "usb"):
                shutil.rmtree(tmp_path / part)
                shutil.copytree(tmp_path.parent / "snapshot" / part, tmp_path / part)
            with pytest.raises(UntrustedMemory, match=f"but the panel's memory holds its head at record {last}"):
                open_journal(journal, mem)
        finally:
            panel.close()


def test_a_panel_blob_of_another_key_or_garbage_counts_as_no_head():
    from machine.loop.panelhead import decode, encode

    head = Head("0123456789abcdef", 42, "ab" * 32)
    blob = encode(head, TEST_KEY)
    assert len(blob) <= 64 and decode(blob, TEST_KEY) == Head(head.journal_id, 42, "ab" * 16)
    assert decode(blob, b"\x02" * 32) is None and decode(b"garbage", TEST_KEY) is None


# -- finding 7: archiving --------------------------------------------------------------------------


def play_rounds(cab, rounds: int) -> None:
    for r in range(rounds):
        for n in (1, 2):
            assert cab.press(n, "+2", float(r))
        for n in (1, 2):
            cab.press(n, "start", float(r))
        while cab.round is not None:
            cab.press(cab.round.pending.seat, "stand", float(r))


def test_archiving_moves_old_records_into_a_checked_file_and_keeps_the_last_games_and_every_meter(tmp_path, monkeypatch):
    from machine.cli import main
    from machine.operator.config import parse_config
    from machine.operator.firststart import archive_cabinet, temporary
    from tests.helpers import pin_setting

    monkeypatch.setattr(journal_module, "CHECKPOINT_EVERY", 40)
    cfg = temporary(parse_config("seats: 2\ndevices: {bus: sim, panel: sim, acceptors: {1: 2, 2: 11}, "
                                 "hoppers: [{address: 3, seats: [1, 2]}]}\n" + pin_setting(), "m.yaml"), tmp_path)
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.games.blackjack.game import BlackjackGame
    from machine.profiles import load_profile

    from .cabinet_helpers import stacked_shoes, stand_player

    def start():
        return open_cabinet(cfg.journal_path(tmp_path), load_profile("random-blackjack"), CabinetSettings(seats=2),
                            lambda p: BlackjackGame(p, stand_player), stacked_shoes(), cfg.machine_memory(tmp_path))

    cab = start()
    coins(cab, 1, 5)
    coins(cab, 2, 5)
    play_rounds(cab, 8)
    before = {n: (s.money.credit, s.money.club, s.meters.to_dict()) for n, s in cab.seats.items()}
    last_games = {n: [r.data for r in cab.journal.records("game", seat=n, last=3)] for n in (1, 2)}
    total = cab.journal.last_seq
    cab.journal.close()
    line = archive_cabinet(cfg, tmp_path, tmp_path / "2026.archive", keep_days=0, now=2e9, games=3)
    assert line.startswith("archived records 1 to ") and "checked" in line
    cab = start()  # every meter as before, the last 3 games of each seat still in the journal
    assert {n: (s.money.credit, s.money.club, s.meters.to_dict()) for n, s in cab.seats.items()} == before
    assert {n: [r.data for r in cab.journal.records("game", seat=n, last=3)] for n in (1, 2)} == last_games
    anchor = cab.journal.anchor_seq
    assert 0 < anchor < total and cab.journal.records()[0].kind == "checkpoint"
    assert cab.journal.verify() == []
    cab.journal.close()
    keyfile = cfg.key_path(tmp_path)
    assert main(["audit", "verify", "--data", str(tmp_path / "2026.archive"), "--key", str(keyfile)]) == 0
    archived = Journal(tmp_path / "2026.archive", load_key(keyfile), readonly=True)
    assert archived.last_seq == anchor and archived.is_archive
    archived.close()
    # the archive is checked like any journal: an edited record in it is found
    sqlite3.connect(tmp_path / "2026.archive", isolation_level=None).execute(
        "UPDATE journal SET data = '{}' WHERE seq = 5")
    assert main(["audit", "verify", "--data", str(tmp_path / "2026.archive"), "--key", str(keyfile)]) == 1


def test_a_key_or_head_store_inside_the_data_folder_is_refused():
    from machine.operator.config import ConfigError, parse_config
    from tests.helpers import pin_setting

    text = ("data_dir: /srv/cabinet\nmemory: {key_file: /srv/cabinet/machine.key, head_stores: [/media/usb, /srv/cabinet/h]}\n"
            "devices: {bus: sim, panel: sim}\n" + pin_setting())
    with pytest.raises(ConfigError) as exc:
        parse_config(text, "m.yaml")
    assert [p.split(": ", 2)[1] for p in exc.value.problems] == ["memory.key_file", "memory.head_stores.1"]
    assert "inside data_dir '/srv/cabinet': a copy of the data folder would carry it along" in exc.value.problems[0]


@pytest.mark.parametrize("which", ["journal.sqlite-wal", "journal.sqlite"])
def test_the_journals_files_removed_while_it_runs_stop_it_at_the_next_input(tmp_path, which):
    cab = boot(tmp_path)
    coins(cab, 1, 1)
    (tmp_path / which).unlink()
    with pytest.raises(JournalError, match=f"{which}: removed while the journal was open"):
        coins(cab, 1, 1)
    cab.journal.close()
    if which == "journal.sqlite":
        locked(tmp_path, "the journal is missing")  # and the next start finds it gone


@pytest.mark.timeout(60)
def test_a_windowed_cabinet_shows_the_memory_error_on_its_screens_before_it_ends(tmp_path, monkeypatch):
    from machine.devtools.harness import SimulatedCabinet
    from machine.display.draw import Renderer
    from machine.loop import app
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary
    from tests.helpers import two_seats

    cfg = temporary(parse_config(two_seats(), "m.yaml"), tmp_path)
    for f in cfg.data_path(tmp_path).glob("journal.sqlite*"):
        f.unlink()
    shown: list[str] = []
    monkeypatch.setattr(Renderer, "draw_memory_error", lambda self, surf, detail: shown.append(detail))
    monkeypatch.setattr(app, "memory_error_seen", lambda: bool(shown))  # closed once drawn
    with pytest.raises(CabinetLocked, match="memory error: .*the journal is missing"):
        SimulatedCabinet(cfg, tmp_path, headless=False)
    assert shown and "the journal is missing" in shown[0]


def test_verify_beside_a_running_cabinet_reads_one_instant(tmp_path, monkeypatch):
    """The audit reads the chain, then the rows: a commit by the running cabinet in between must
    not read as rows the records do not explain."""
    cab = boot(tmp_path)
    coins(cab, 1, 2)
    reader = Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True)
    walk = Journal._walk

    def walk_then_the_cabinet_commits(self, start):
        found = walk(self, start)
        if self is reader:
            coins(cab, 1, 1)  # the cabinet, another connection, commits meanwhile
        return found

    monkeypatch.setattr(Journal, "_walk", walk_then_the_cabinet_commits)
    assert reader.verify() == []
    reader.close()
    cab.journal.close()
