"""Archiving: old records moved out of the journal into checked files, by command or by the cabinet itself.

Owns: what the journal must keep (``keep_from``: the last ``games`` games of every seat with
their rounds' events, each seat's last money move, the round in play; every meter lives in the
state rows and never moves),
the three steps of an archive — ``plan`` (where to cut: before a checkpoint), ``export`` (the
records copied into a new file under the same key and chain, checked like any journal by
``cabinet audit verify``, then renamed into place: a cut export leaves no archive behind) and
``finish`` (the records deleted from the journal, a chunk per transaction, the journal then
starting at an authenticated anchor; an ``archived`` record says what went where) — and
``JournalKeeper``, the cabinet's own archiving: at idle moments, once the journal's bytes in use
pass a size or its oldest record an age the operator sets (``memory.archive_at_mb``,
``memory.archive_at_days``), the export runs on a thread of its own (its own read connection:
the records it copies never change) and each frame deletes at most one chunk, so play stops for
no more than a frame. A deletion cut by a power cut goes on at the next start (``meta.archiving``
says how far it must go; the export was checked before the first chunk). A failed export
leaves the journal as it was and is not tried again until a restart; the loop logs it once
(``unreported_failure``: an operator event ``journal archive failed`` with the reason).

Never moves a record the rules keep, never writes over a file, never deletes before the export
is checked.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from machine.money.journal import CHECKPOINT, SCHEMA, Journal, JournalError, canon, meta_mac

CHUNK = 500  # records deleted per transaction: a few ms, well inside a frame (cabinet bench journal-keeping)
MIN_RECORDS = 1000  # an automatic archive moves at least this many records (no tiny archives)
CHECK_EVERY = 60.0  # seconds between two looks at the journal's size and age
META_KEPT = ("schema", "key_id", "journal_id", "anchor", "times_from")  # the meta rows an archive carries


@dataclass(frozen=True)
class Plan:
    """An archive to make: records ``first`` to ``last`` (the one before a checkpoint) of ``source``."""

    source: Path
    key: bytes
    first: int
    last: int
    last_mac: str
    meta: dict[str, str]  # the archive file's meta rows, signed

    @property
    def records(self) -> int:
        return self.last - self.first + 1


def keep_from(journal: Journal, seats: int, games: int = 100) -> int:
    """The newest record that may be archived away: none of the last ``games`` games of any seat,
    nor a seat's last money move (the start-up check of its credit), nor the round in play."""
    upto = journal.last_seq
    for n in range(1, seats + 1):
        kept = journal.records("game", seat=n, last=games)
        if kept:  # from the oldest kept game's round start on: recall shows its round step by step
            start = journal.db.execute("SELECT MAX(seq) FROM journal WHERE kind = 'round_start' AND seq < ?",
                                       (kept[0].seq,)).fetchone()[0]
            upto = min(upto, (start or kept[0].seq) - 1)
        move = journal.records("move", seat=n, last=1)
        if move:
            upto = min(upto, move[0].seq - 1)
    start = journal.records("round_start", last=1)
    if start and journal.get("round") is not None:
        upto = min(upto, start[0].seq - 1)
    return upto


def plan(journal: Journal, upto: int) -> Plan | None:
    """The records before the last checkpoint at or before ``upto`` (None: no checkpoint that old)."""
    cut = journal.db.execute("SELECT MAX(seq) FROM journal WHERE kind = ? AND seq <= ?", (CHECKPOINT, upto)).fetchone()[0]
    if not cut or cut - 1 <= journal.anchor_seq:
        return None
    last_mac = journal.mac_at(cut - 1)
    if last_mac is None:
        raise JournalError(f"{journal.path}: record {cut - 1} is missing: nothing archived")
    rows = {k: v for k, v in journal.meta.items() if k in META_KEPT} | {"archive_of": journal.path.name}
    return Plan(journal.path, journal.key, journal.anchor_seq + 1, cut - 1, last_mac,
                rows | {"meta_mac": meta_mac(journal.key, rows)})


def export(p: Plan, to: Path) -> int:
    """Copy the planned records into the new file ``to`` and check it; the records copied. Any
    thread may run it: it reads the journal through a connection of its own."""
    if to.exists():
        raise JournalError(f"{to}: a file is already there (an archive is never written over)")
    to.parent.mkdir(parents=True, exist_ok=True)
    part = to.with_name(to.name + ".partial")
    part.unlink(missing_ok=True)  # what a cut export left
    src = sqlite3.connect(f"file:{p.source}?mode=ro", uri=True, isolation_level=None, check_same_thread=False)
    with contextlib.closing(src), contextlib.closing(sqlite3.connect(part, isolation_level=None)) as out:
        out.executescript(SCHEMA)
        out.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", p.meta.items())
        out.execute("BEGIN")
        rows = src.execute("SELECT seq, kind, seat, data, mac, at FROM journal WHERE seq BETWEEN ? AND ? ORDER BY seq",
                           (p.first, p.last))
        while batch := rows.fetchmany(5_000):
            out.executemany("INSERT INTO journal (seq, kind, seat, data, mac, at) VALUES (?, ?, ?, ?, ?, ?)", batch)
        out.execute("COMMIT")
    exported = Journal(part, p.key, readonly=True)
    try:
        problems, last = exported.verify(), exported.last_seq
    finally:
        exported.close()
    if problems or last != p.last:
        part.unlink(missing_ok=True)
        raise JournalError(f"{to}: the archive failed its check ({'; '.join(problems) or 'records missing'}): "
                           "nothing deleted from the journal")
    part.rename(to)
    return p.records


def finish(journal: Journal, p: Plan, to: Path, chunk: int | None = CHUNK) -> bool:
    """Delete the next ``chunk`` of the exported records from the journal (None: all), in one
    transaction; True once all are gone and the ``archived`` record is written."""
    upto = p.last if chunk is None else min(p.last, journal.anchor_seq + chunk)
    done = upto == p.last
    going = {"file": to.name, "first": p.first, "last": p.last, "last_mac": p.last_mac}
    with journal.transaction():
        journal.move_anchor(upto, {"archiving": None if done else canon(going)})
        if done:
            journal.append("archived", {"records": p.records, "upto": p.last, "file": to.name, "last_mac": p.last_mac})
    return done


def unfinished(journal: Journal, folder: Path) -> tuple[Plan, Path] | None:
    """An archive whose deletion a power cut stopped (``meta.archiving``), to go on with."""
    text = journal.meta.get("archiving")
    if text is None:
        return None
    a = json.loads(text)
    return Plan(journal.path, journal.key, int(a["first"]), int(a["last"]), str(a["last_mac"]), {}), folder / a["file"]


def archive(journal: Journal, upto: int, to: Path) -> tuple[int, int]:
    """The whole archive at once (``cabinet archive``, the cabinet stopped): (records moved, the new
    anchor); (0, anchor) when no checkpoint is old enough."""
    if (left := unfinished(journal, to.parent)) is not None:
        while not finish(journal, *left):
            pass
    p = plan(journal, upto)
    if p is None:
        return 0, journal.anchor_seq
    moved = export(p, to)
    while not finish(journal, p, to):
        pass
    return moved, p.last


class JournalKeeper:
    """The cabinet's own archiving (see the module's docstring). ``step`` runs every frame with the
    cabinet's lock held and does at most one chunk's work; ``idle()`` says no round is in play and
    no payout runs."""

    def __init__(self, journal: Journal, folder: Path, seats: int, max_bytes: int, max_age: float,
                 idle: Callable[[], bool], games: int = 100, chunk: int = CHUNK, check_every: float = CHECK_EVERY,
                 min_records: int = MIN_RECORDS):
        self.journal, self.folder, self.seats, self.games = journal, folder, seats, games
        self.max_bytes, self.max_age, self.idle = max_bytes, max_age, idle
        self.chunk, self.check_every, self.min_records = chunk, check_every, min_records
        self._next_check = 0.0
        self._thread: threading.Thread | None = None
        self._exported: BaseException | int | None = None
        self._work = unfinished(journal, folder)  # a deletion a power cut stopped goes on first
        self._ready = self._work is not None
        self.made: list[Path] = []  # the archives written since start-up
        self.pauses: list[float] = []  # seconds each deletion step held the loop
        self.failure: str | None = None  # an export that failed (the journal is untouched; no retry until restart)
        self._reported = False

    def bytes_in_use(self) -> int:
        """The journal's pages that hold data (free pages left by an archive are used again first)."""
        db = self.journal.db
        pages = db.execute("PRAGMA page_count").fetchone()[0] - db.execute("PRAGMA freelist_count").fetchone()[0]
        return int(pages * db.execute("PRAGMA page_size").fetchone()[0])

    def due(self, wall: float) -> bool:
        if self.bytes_in_use() > self.max_bytes:
            return True
        oldest = self.journal.db.execute("SELECT at FROM journal ORDER BY seq LIMIT 1").fetchone()
        return oldest is not None and oldest[0] is not None and oldest[0] < wall - self.max_age

    def step(self, now: float, wall: float) -> None:
        if self._thread is not None:
            if self._thread.is_alive():
                return
            self._thread = None
            if isinstance(self._exported, BaseException):
                self.failure, self._work = f"the journal's archive failed: {self._exported}", None
                return
            self._ready = True
        if self._work is not None and self._ready:
            if self.idle():
                t = time.perf_counter()
                done = finish(self.journal, *self._work, chunk=self.chunk)
                self.pauses.append(time.perf_counter() - t)
                if done:
                    self.made.append(self._work[1])
                    self._work, self._ready = None, False
            return
        if self.failure is not None or now < self._next_check or not self.idle():
            return
        self._next_check = now + self.check_every
        if not self.due(wall):
            return
        p = plan(self.journal, keep_from(self.journal, self.seats, self.games))
        if p is None or p.records < self.min_records:
            return
        self._work = (p, self.folder / f"journal-{p.first:010d}-{p.last:010d}.sqlite")
        self._thread = threading.Thread(target=self._export, args=self._work, name="journal-archive", daemon=True)
        self._thread.start()

    def unreported_failure(self) -> str | None:
        """Why the export failed, the first time it is asked after the failure (the loop logs it
        once as an event the operator sees); None before a failure and after it was asked."""
        if self.failure is None or self._reported:
            return None
        self._reported = True
        return str(self._exported)

    def _export(self, p: Plan, to: Path) -> None:
        try:
            self._exported = export(p, to)
        except (JournalError, sqlite3.Error, OSError) as exc:
            self._exported = exc

    def close(self) -> None:
        """Wait for an export under way (its file is renamed into place only when checked)."""
        if self._thread is not None:
            self._thread.join(timeout=30.0)
