"""The durable journal: an append-only, hash-chained record plus checksummed state rows.

Owns: the SQLite file under the data directory (WAL, ``synchronous=FULL``, one
``BEGIN IMMEDIATE`` transaction per money event), the chain of record hashes, the checksums
of the state rows that hold the meters and the round in progress, and the start-up check that
finds a corrupt, truncated or edited file. Knows nothing of blackjack: records are a kind, a
seat and a JSON document. A failure to write is fatal: the caller must stop, never play on.

Every record's ``hash`` is SHA-256 over the previous record's hash and this record's fields,
so editing or deleting any row breaks the chain from that row on. Every state row carries a
checksum over its key, value and the sequence number of the record that last wrote it, and
that sequence number must exist in the chain.

Every record also carries ``at``, the wall-clock time it was written (seconds since 1970, UTC),
for the event log and recall to show a date and time. It is not in the hash (a clock is no
evidence); a file written before the column existed gets it on open (empty on its old rows).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
GENESIS = "0" * 64

_SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    seat INTEGER,
    data TEXT NOT NULL,
    hash TEXT NOT NULL,
    at REAL
);
CREATE INDEX IF NOT EXISTS journal_kind_seat ON journal (kind, seat, seq);
CREATE TABLE IF NOT EXISTS state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    seq INTEGER NOT NULL,
    checksum TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be trusted or written; the machine must lock, not play on."""


@dataclass(frozen=True)
class Record:
    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    hash: str
    at: float | None = None  # the wall-clock time it was written (None: before the column existed)


def _canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def record_hash(prev: str, seq: int, kind: str, seat: int | None, data_text: str) -> str:
    h = hashlib.sha256()
    h.update(f"{prev}|{seq}|{kind}|{'' if seat is None else seat}|".encode())
    h.update(data_text.encode())
    return h.hexdigest()


def state_checksum(key: str, value_text: str, seq: int) -> str:
    return hashlib.sha256(f"{key}|{seq}|{value_text}".encode()).hexdigest()


class Journal:
    """One journal file. Writes happen only inside ``with journal.transaction():``.

    ``step_hook`` is called at every point where the disk is touched (before and after each
    statement and the commit); the crash test uses it to kill the process at such an instant.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False, step_hook: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time):
        self.path = Path(path)
        self._clock = clock
        self.readonly = readonly
        self._hook = step_hook or (lambda where: None)
        self._in_tx = False
        self._last_hash = GENESIS
        self._last_seq = 0
        try:
            if readonly:
                if not self.path.exists():
                    raise JournalError(f"{self.path}: no journal here")
                self.db = sqlite3.connect(
                    f"file:{self.path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # one connection, used from the frame loop and the bus worker under the
                # cabinet's lock (never at the same time)
                self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                self.db.executescript(_SCHEMA)
                self.db.execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
                if "at" not in self._columns():  # a file from before the time column
                    self.db.execute("ALTER TABLE journal ADD COLUMN at REAL")
            self._at = "at" if "at" in self._columns() else "NULL"
            row = self.db.execute("SELECT seq, hash FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: the journal cannot be read: {exc}") from None
        if row:
            self._last_seq, self._last_hash = row

    def _columns(self) -> set[str]:
        return {row[1] for row in self.db.execute("PRAGMA table_info(journal)")}

    def close(self) -> None:
        self.db.close()

    # -- writing ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self.readonly:
            raise JournalError("the journal is open read-only")
        if self._in_tx:
            raise JournalError("transactions do not nest")
        saved = (self._last_seq, self._last_hash)
        self._hook("begin")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self._in_tx = True
            yield
            self._hook("before_commit")
            self.db.execute("COMMIT")
        except BaseException as exc:
            self._in_tx = False
            self._last_seq, self._last_hash = saved
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"{self.path}: writing the journal failed: {exc}") from None
            raise
        self._in_tx = False
        self._hook("after_commit")

    def append(self, kind: str, data: dict[str, Any], seat: int | None = None) -> int:
        """Add a record to the chain (inside a transaction); returns its sequence number."""
        if not self._in_tx:
            raise JournalError("append outside a transaction")
        seq = self._last_seq + 1
        text = _canon(data)
        h = record_hash(self._last_hash, seq, kind, seat, text)
        self._hook("append")
        self.db.execute("INSERT INTO journal (seq, kind, seat, data, hash, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (seq, kind, seat, text, h, self._clock()))
        self._last_seq, self._last_hash = seq, h
        return seq

    def put(self, key: str, value: Any) -> None:
        """Set a state row (inside a transaction, after at least one append in the journal)."""
        if not self._in_tx:
            raise JournalError("put outside a transaction")
        text = _canon(value)
        seq = self._last_seq
        self._hook("put")
        self.db.execute(
            "INSERT OR REPLACE INTO state (key, value, seq, checksum) VALUES (?, ?, ?, ?)",
            (key, text, seq, state_checksum(key, text, seq)),
        )

    # -- reading ------------------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self._last_seq

    def get(self, key: str, default: Any = None) -> Any:
        row = self.db.execute("SELECT value, seq, checksum FROM state WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        value, seq, checksum = row
        if state_checksum(key, value, seq) != checksum:
            raise JournalError(f"{self.path}: state row {key!r} fails its checksum (memory error)")
        return json.loads(value)

    def last_of(self, kind: str) -> int:
        """The sequence number of the newest record of ``kind`` (0 when there is none)."""
        row = self.db.execute("SELECT MAX(seq) FROM journal WHERE kind = ?", (kind,)).fetchone()
        return row[0] or 0

    def state_keys(self) -> list[str]:
        return [k for (k,) in self.db.execute("SELECT key FROM state ORDER BY key")]

    def records(
        self, kind: str | None = None, seat: int | None = None, last: int | None = None, since: int = 0
    ) -> list[Record]:
        """Records in order, optionally of one kind and seat, after ``since``, the ``last`` N."""
        sql = f"SELECT seq, kind, seat, data, hash, {self._at} FROM journal"
        cond: list[str] = ["seq > ?"]
        args: list[int | str] = [since]
        if kind is not None:
            cond.append("kind = ?")
            args.append(kind)
        if seat is not None:
            cond.append("seat = ?")
            args.append(seat)
        sql += " WHERE " + " AND ".join(cond)
        sql += " ORDER BY seq DESC" if last else " ORDER BY seq"
        if last:
            sql += f" LIMIT {int(last)}"
        rows = [Record(s, k, st, json.loads(d), h, at) for s, k, st, d, h, at in self.db.execute(sql, args)]
        return rows[::-1] if last else rows

    # -- checking -----------------------------------------------------------------------------

    def verify(self) -> list[str]:
        """Every problem found: SQLite's integrity check, the chain, the state checksums."""
        problems: list[str] = []
        try:
            (ok,) = self.db.execute("PRAGMA integrity_check").fetchone()
            if ok != "ok":
                problems.append(f"SQLite integrity check: {ok}")
                return problems
            prev, expect = GENESIS, 1
            for seq, kind, seat, text, h in self.db.execute("SELECT seq, kind, seat, data, hash FROM journal ORDER BY seq"):
                if seq != expect:
                    problems.append(f"record {expect} is missing (the chain jumps to {seq})")
                    break
                if record_hash(prev, seq, kind, seat, text) != h:
                    problems.append(f"record {seq} ({kind}) was altered: its hash does not match the chain")
                    break
                prev, expect = h, seq + 1
            for key, value, seq, checksum in self.db.execute("SELECT key, value, seq, checksum FROM state"):
                if state_checksum(key, value, seq) != checksum:
                    problems.append(f"state row {key!r} fails its checksum")
                elif seq > self._last_seq:
                    problems.append(f"state row {key!r} claims record {seq}, beyond the end of the chain")
        except sqlite3.DatabaseError as exc:
            problems.append(f"the journal cannot be read: {exc}")
        return problems
