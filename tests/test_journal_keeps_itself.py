"""The journal keeps itself (issue 24, item 7 and finding 17): the cabinet archives by itself at
idle moments once the journal passes a size or an age, a chunk per frame, keeping the last games
of every seat and every meter, each archive checked like a journal by ``cabinet audit verify``."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from machine.money import journal as journal_module
from machine.money.archive import JournalKeeper

from .cabinet_helpers import TEST_KEY, boot


def play_rounds(cab, rounds: int) -> None:
    for r in range(rounds):
        for n in (1, 2):
            if cab.seats[n].money.credit < 40:
                assert cab.coin(n, "EU200A", float(r))
            assert cab.press(n, "+2", float(r))
        for n in (1, 2):
            cab.press(n, "start", float(r))
        while cab.round is not None:
            cab.press(cab.round.pending.seat, "stand", float(r))


def state(cab, games: int) -> tuple:
    return ({n: (s.money.credit, s.money.club, s.meters.to_dict()) for n, s in cab.seats.items()},
            {n: [r.data for r in cab.journal.records("game", seat=n, last=games)] for n in cab.seats})


def keeper(cab, tmp: Path, *, idle=None, max_bytes: int = 1, max_age: float = 1e9, chunk: int = 25) -> JournalKeeper:
    return JournalKeeper(cab.journal, tmp / "archive", seats=2, max_bytes=max_bytes, max_age=max_age,
                         idle=idle or (lambda: cab.round is None and not cab.is_paying()), games=3, chunk=chunk,
                         check_every=0.0, min_records=1)


def run_frames(k: JournalKeeper, frames: int | None = None, wall: float | None = None) -> int:
    """Frames until the keeper made an archive: ``frames`` of them, or (None) as many as its
    export thread needs, for up to 60 s (a loaded machine may take long; the 60 s bound a hang)."""
    end = time.monotonic() + 60
    i = 0
    while (i < frames) if frames is not None else (time.monotonic() < end):
        k.step(float(i), wall or time.time())
        if k.made:
            return i
        time.sleep(0.005)
        i += 1
    return i


def verify(tmp: Path, path: Path) -> int:
    from machine.cli import main

    key = tmp / "audit.key"
    key.write_text(TEST_KEY.hex())
    key.chmod(0o600)
    return main(["audit", "verify", "--data", str(path), "--key", str(key)])


@pytest.fixture
def small_checkpoints(monkeypatch):
    monkeypatch.setattr(journal_module, "CHECKPOINT_EVERY", 40)


def test_past_its_size_the_journal_archives_itself_a_chunk_a_frame_keeping_games_and_meters(tmp_path, small_checkpoints,
                                                                                              capsys):
    cab = boot(tmp_path)
    play_rounds(cab, 12)
    before, total = state(cab, 3), cab.journal.last_seq
    k = keeper(cab, tmp_path)
    run_frames(k)
    (made,) = k.made
    anchor = cab.journal.anchor_seq
    assert 0 < anchor < total and made.name == f"journal-{1:010d}-{anchor:010d}.sqlite"
    assert len(k.pauses) == math.ceil(anchor / 25)  # one chunk of 25 records per frame
    assert state(cab, 3) == before and cab.journal.verify() == []
    assert cab.journal.records("archived")[-1].data["records"] == anchor
    assert verify(tmp_path, made) == 0 and "journal OK" in capsys.readouterr().out
    cab.journal.close()
    again = boot(tmp_path)  # a restart restores every meter from the kept journal
    assert state(again, 3) == before
    again.journal.close()


def test_it_waits_for_an_idle_moment(tmp_path, small_checkpoints):
    cab = boot(tmp_path)
    play_rounds(cab, 8)
    k = keeper(cab, tmp_path, idle=lambda: False)
    run_frames(k, frames=50)
    assert not k.made and cab.journal.anchor_seq == 0 and not (tmp_path / "archive").exists()


def test_an_age_passed_archives_and_a_young_small_journal_does_not(tmp_path, small_checkpoints):
    cab = boot(tmp_path)
    play_rounds(cab, 8)
    young = keeper(cab, tmp_path, max_bytes=2**30, max_age=86400.0)
    run_frames(young, frames=20)
    assert not young.made
    old = keeper(cab, tmp_path, max_bytes=2**30, max_age=86400.0)
    run_frames(old, wall=time.time() + 2 * 86400)  # two days on: its oldest record is older than a day
    assert len(old.made) == 1 and cab.journal.anchor_seq > 0


def test_a_deletion_cut_by_a_power_cut_goes_on_at_the_next_start(tmp_path, small_checkpoints):
    cab = boot(tmp_path)
    play_rounds(cab, 12)
    before = state(cab, 3)
    k = keeper(cab, tmp_path, chunk=10)
    i, end = 0, time.monotonic() + 60  # (the 60 s bound a hang)
    while time.monotonic() < end:
        k.step(float(i), time.time())
        if k.pauses:  # one chunk deleted: the power goes
            break
        time.sleep(0.005)
        i += 1
    assert len(k.pauses) == 1 and "archiving" in cab.journal.meta
    cab.journal.close()
    cab = boot(tmp_path)
    assert state(cab, 3) == before and cab.journal.verify() == []
    k = keeper(cab, tmp_path, chunk=10)
    run_frames(k)
    assert len(k.made) == 1 and "archiving" not in cab.journal.meta
    assert len(cab.journal.records("archived")) == 1 and cab.journal.verify() == []
    assert verify(tmp_path, k.made[0]) == 0


def test_the_configuration_sets_when(tmp_path):
    from machine.operator.config import ConfigError, parse_config
    from tests.helpers import two_seats

    cfg = parse_config(two_seats(), "m.yaml")
    assert (cfg.memory.archive_at_mb, cfg.memory.archive_at_days) == (256, 90)
    cfg = parse_config(two_seats("memory: {archive_at_mb: 64, archive_at_days: 30}"), "m.yaml")
    assert (cfg.memory.archive_at_mb, cfg.memory.archive_at_days) == (64, 30)
    with pytest.raises(ConfigError):
        parse_config(two_seats("memory: {archive_at_mb: 0}"), "m.yaml")


@pytest.mark.timeout(90)
def test_the_running_cabinet_archives_from_its_frame_loop(tmp_path, small_checkpoints, monkeypatch, capsys):
    from machine.devtools.harness import SimulatedCabinet
    from machine.loop import wiring
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary
    from tests.helpers import two_seats

    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    cfg = temporary(parse_config(two_seats("memory: {archive_at_mb: 1}"), "m.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True)
    try:
        k = app.wiring.keeper
        assert k is not None and k.max_bytes == 2**20 and k.max_age == 90 * 86400
        with app.lock:
            play_rounds(app.cab, 10)
            before = state(app.cab, 3)
        k.max_bytes, k.games, k.check_every, k.min_records = 1, 3, 0.0, 1  # due at once (a journal of a few KB)
        end = time.monotonic() + 60  # bounds a hang only
        while time.monotonic() < end:
            app.frame()
            if k.made:
                break
            time.sleep(0.01)
        (made,) = k.made
        with app.lock:
            assert state(app.cab, 3) == before and app.cab.journal.anchor_seq > 0 and app.cab.journal.verify() == []
        assert made.parent == cfg.data_path(tmp_path) / "archive"
    finally:
        app.close()
    from machine.cli import main

    assert main(["audit", "verify", "--data", str(made), "--key", str(cfg.key_path(tmp_path))]) == 0
    assert "journal OK" in capsys.readouterr().out


@pytest.mark.timeout(90)
def test_a_failed_archive_is_one_event_in_the_log_and_the_journal_is_untouched(tmp_path, small_checkpoints,
                                                                                 monkeypatch):
    from machine.devtools.harness import SimulatedCabinet
    from machine.loop import wiring
    from machine.money import archive
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary
    from tests.helpers import two_seats

    def full_disk(p, to):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    monkeypatch.setattr(archive, "export", full_disk)
    cfg = temporary(parse_config(two_seats("memory: {archive_at_mb: 1}"), "m.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True)
    try:
        k = app.wiring.keeper
        assert k is not None
        with app.lock:
            play_rounds(app.cab, 10)
            last = app.cab.journal.last_seq
        k.max_bytes, k.games, k.check_every, k.min_records = 1, 3, 0.0, 1
        end = time.monotonic() + 60  # bounds a hang only
        while time.monotonic() < end:
            app.frame()
            if k.failure is not None:
                break
            time.sleep(0.01)
        for _ in range(20):  # the frames after it: no second event, no retry
            app.frame()
        with app.lock:
            failed = [r.data for r in app.cab.journal.records("event") if r.data.get("what") == "journal archive failed"]
            assert failed == [{"code": 170, "event": "operator", "what": "journal archive failed",
                               "reason": "[Errno 28] No space left on device"}]
            assert app.cab.journal.anchor_seq == 0 and not k.made and app.cab.journal.last_seq > last
    finally:
        app.close()
