"""The durable journal: an append-only chain of authenticated records, and state rows bound to it.

Owns: the SQLite file under the data directory (WAL, ``synchronous=FULL``, one
``BEGIN IMMEDIATE`` transaction per money event), the chain, the state rows that hold the
meters and the round in progress, the checkpoints, and the checks that find a corrupt, cut,
edited or forged file. Knows nothing of blackjack: records are a kind, a seat and a JSON
document. A failure to write is fatal: the caller must stop, never play on.

Authenticated with the machine's key (HMAC-SHA-256; the key lives outside the data folder, see
``machine/money/memory.py``): every record's ``mac`` covers the previous record's mac and this
record's fields, so editing, inserting or deleting any row breaks the chain from there, and
without the key nobody can write a chain that passes. The file names the key it was written
under (``meta.key_id``) so another machine's journal is told apart from a forged one. Every meta
row (the schema, key id, journal id, anchor, ``archive_of``) is covered by one more, ``meta_mac``,
under the key: a row added (an ``archive_of`` that would spare a journal the row check), edited
or removed is a memory error. A file written before that tag existed gets it the first time it
is opened to write; read-only, its unsigned rows are used only where something else checks them.

State rows are bound to the chain: each transaction that writes rows ends with one ``rows``
record naming every row it wrote and the digest of its value; a row carries the sequence number
of that record and a mac over its key, value and sequence number. So the value every row must
hold is recomputed from the records (the last ``rows`` record that names it) and compared: an
old row put back from a copy, a row edited and re-summed, or a missing row is found.

Every ``CHECKPOINT_EVERY`` records a ``checkpoint`` record names every row's sequence number and
digest at that point. Start-up checks the chain and the rows from the last checkpoint at least
``BOOT_WINDOW`` records back (the whole of a journal up to that size, so a boot costs at most
that whatever the journal's age); ``verify`` checks everything from the first record; both
check each checkpoint they pass against the rows recomputed up to it. Archiving
(``machine/money/archive.py``) moves records before a checkpoint into a verified export;
``move_anchor`` then deletes them and the journal starts at an anchor (the sequence number and
mac of the last record moved), itself authenticated.

Every record also carries ``at``, the wall-clock time it was written (seconds since 1970, UTC),
for the event log and recall to show a date and time; the mac covers it, so a date in recall or
the event log cannot be moved without the key. (A journal written before that keeps its older
records' macs, which do not: ``meta.times_from`` names the first record whose mac does, set when
the new release first opens the file to write; a clock is still no evidence of the true time,
only the key's word for the time the cabinet's clock said.)

The file holds nothing else: its schema (every table, index, trigger and view in
``sqlite_master``) must be exactly the one ``SCHEMA`` makes, checked at open and again whenever
SQLite says the schema changed; and every transaction reads back, before it commits, the records
and rows it wrote. So an object planted in the file (a trigger that drops every insert, a view)
is a memory error at once, before or while the cabinet runs, not at the next start.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 2
GENESIS = "0" * 64
CHECKPOINT_EVERY = 1000  # records between checkpoints
BOOT_WINDOW = 50_000  # start-up checks at least this many of the last records (every record of a smaller journal)
ROWS = "rows"  # the record that closes a transaction which wrote state rows
CHECKPOINT = "checkpoint"

SCHEMA = """
CREATE TABLE IF NOT EXISTS journal (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    seat INTEGER,
    data TEXT NOT NULL,
    mac TEXT NOT NULL,
    at REAL
);
CREATE INDEX IF NOT EXISTS journal_kind_seat ON journal (kind, seat, seq);
CREATE TABLE IF NOT EXISTS state (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    seq INTEGER NOT NULL,
    mac TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be trusted or written; the machine must lock, not play on."""


SchemaObject = tuple[str, str, str, str | None]  # sqlite_master's type, name, table and SQL


def _schema_objects(db: sqlite3.Connection) -> set[SchemaObject]:
    return set(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))


def _made_by_schema() -> frozenset[SchemaObject]:
    """Every object ``SCHEMA`` makes, as sqlite_master names it (SQLite's own text of each)."""
    with contextlib.closing(sqlite3.connect(":memory:")) as db:
        db.executescript(SCHEMA)
        return frozenset(_schema_objects(db))


EXPECTED_SCHEMA = _made_by_schema()


def planted(db: sqlite3.Connection) -> list[str]:
    """Every object in the file that ``SCHEMA`` does not make, and every one it makes that is not there as made."""
    found = _schema_objects(db)
    odd = [f"{t} {n!r} on {tbl}" for t, n, tbl, _ in sorted(found - EXPECTED_SCHEMA, key=str)]
    return odd + [f"{t} {n!r} not as made" for t, n, _, _ in sorted(EXPECTED_SCHEMA - found, key=str)]


@dataclass(frozen=True)
class Record:
    seq: int
    kind: str
    seat: int | None
    data: dict[str, Any]
    mac: str
    at: float | None = None  # the wall-clock time it was written


def canon(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def mac(key: bytes, text: str) -> str:
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """The public name of a key (not the key): which key a journal was written under."""
    return mac(key, "cabinet key id")[:16]


def record_text(prev: str, seq: int, kind: str, seat: int | None, data_text: str, at: float | None = None) -> str:
    """What a record's mac covers: the previous mac, its fields and the time it was written."""
    return f"record+at|{prev}|{seq}|{kind}|{'' if seat is None else seat}|{'' if at is None else repr(at)}|{data_text}"


def untimed_record_text(prev: str, seq: int, kind: str, seat: int | None, data_text: str) -> str:
    """What the mac of a record written before times were authenticated covers (its time not)."""
    return f"record|{prev}|{seq}|{kind}|{'' if seat is None else seat}|{data_text}"


def row_text(name: str, value_text: str, seq: int) -> str:
    return f"row|{name}|{seq}|{value_text}"


def record_mac(key: bytes, prev: str, seq: int, kind: str, seat: int | None, data_text: str,
               at: float | None = None) -> str:
    return mac(key, record_text(prev, seq, kind, seat, data_text, at))



class Keyed:
    """HMAC-SHA-256 under one key, the key's set-up done once (a start-up checks many records)."""

    def __init__(self, key: bytes):
        self._base = hmac.new(key, digestmod=hashlib.sha256)

    def __call__(self, text: str) -> str:
        h = self._base.copy()
        h.update(text.encode())
        return h.hexdigest()


META_MAC = "meta_mac"  # the meta row whose mac covers every other meta row


def meta_mac(key: bytes, meta: dict[str, str]) -> str:
    """The tag over every meta row (but itself): none can be added, edited or removed without the key."""
    return mac(key, "meta|" + canon({k: v for k, v in meta.items() if k != META_MAC}))


def meta_problem(meta: dict[str, str], key: bytes) -> str | None:
    """What makes a file's meta rows not those of a journal under ``key`` (None: nothing)."""
    if meta.get("schema") != str(SCHEMA_VERSION):
        return (f"a journal of schema {meta.get('schema', '?')}, not {SCHEMA_VERSION} "
                "(written without authenticated memory: read it with the release that wrote it)")
    if meta.get("key_id") != key_id(key):
        return f"written under another machine key (key id {meta.get('key_id', '?')}, this key's is {key_id(key)})"
    tag = meta.get(META_MAC)
    if tag is not None and not hmac.compare_digest(meta_mac(key, meta), tag):
        return "the journal's meta rows fail their mac (one added, edited or removed: memory error)"
    return None


def anchor_mac(key: bytes, journal_id: str, seq: int, last: str) -> str:
    """The tag of an anchor: the last record archived away (``seq``) and its mac ``last``."""
    return mac(key, f"anchor|{journal_id}|{seq}|{last}")


def digest(value_text: str) -> str:
    """What a ``rows`` record keeps of a row's value."""
    return hashlib.sha256(value_text.encode()).hexdigest()[:32]


RowIndex = dict[str, tuple[int, str]]  # row name -> (the rows record that wrote it, its digest)


def compare_rows(db: sqlite3.Connection, sign: Callable[[str], str], index: RowIndex) -> list[str]:
    """Every state row against the value its records say it holds (``sign``: the mac under the key)."""
    problems: list[str] = []
    rows = {k: (v, s, m) for k, v, s, m in db.execute("SELECT key, value, seq, mac FROM state")}
    for name in sorted(set(rows) | set(index)):
        if name not in rows:
            problems.append(f"state row {name!r} is missing (record {index[name][0]} wrote it)")
            continue
        value, seq, mac = rows[name]
        if not hmac.compare_digest(sign(row_text(name, value, seq)), mac):
            problems.append(f"state row {name!r} fails its mac (edited or forged)")
        elif name not in index:
            problems.append(f"state row {name!r} was written by no record")
        elif (seq, digest(value)) != index[name]:
            problems.append(f"state row {name!r} is not what record {index[name][0]} wrote (an old or altered copy)")
    return problems


@dataclass
class _Walk:
    """What reading the chain found: problems, the rows it says, the records since the last checkpoint."""

    problems: list[str]
    index: RowIndex
    since_checkpoint: int


class Journal:
    """One journal file. Writes happen only inside ``with journal.transaction():``.

    ``key`` is the machine's key. ``create`` (its new journal id) makes a new journal where there
    is none (only ``machine/money/memory.py``'s explicit first start does that). ``step_hook`` is called at
    every point where the disk is touched (before and after each statement and the commit); the
    crash test uses it to kill the process at such an instant. ``on_commit(seq, mac)`` runs after
    every commit (the second record of the head). A journal whose tail fails its check at open
    (``problems``) takes no transaction.
    """

    def __init__(self, path: str | Path, key: bytes, *, readonly: bool = False, create: str | None = None,
                 step_hook: Callable[[str], None] | None = None, clock: Callable[[], float] = time.time,
                 on_commit: Callable[[int, str], None] | None = None):
        self.path = Path(path)
        self.key = key
        self._mac = Keyed(key)
        self.clock = clock  # the time a record is written with
        self.readonly = readonly
        self._hook = step_hook or (lambda where: None)
        self.on_commit = on_commit
        self._in_tx = False
        self._pending: dict[str, str] = {}
        self._written: list[tuple[int, str]] = []  # this transaction's records (seq, mac)
        self._rows_written: dict[str, tuple[str, int, str]] = {}  # and rows (value, seq, mac)
        self._schema_version = -1
        self._moved: tuple[dict[str, str], int, str] | None = None  # meta and anchor move_anchor set, at commit
        try:
            if readonly:
                if not self.path.exists():
                    raise JournalError(f"{self.path}: no journal here")
                self.db = sqlite3.connect(
                    f"file:{self.path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
                )
            else:
                if not create and not self.path.exists():
                    raise JournalError(f"{self.path}: no journal here")
                self.path.parent.mkdir(parents=True, exist_ok=True)
                # one connection, used from the frame loop and the bus worker under the
                # cabinet's lock (never at the same time)
                self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=FULL")
                if create and not self._tables():
                    self._create(create)
            self._read_meta()
            if self.unsigned_meta and not readonly:
                self._sign_old_meta()
            self.anchor_seq, self._anchor_mac = self._anchor()
            with self._snapshot():
                walk = self._walk(self._boot_start())
                self.problems = walk.problems + (compare_rows(self.db, self._mac, walk.index) if not walk.problems else [])
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: the journal cannot be read: {exc}") from None
        self._index = walk.index
        self._since_checkpoint = walk.since_checkpoint
        self._last_seq, self._last_mac = self.anchor_seq, self._anchor_mac
        row = self.db.execute("SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        if row:
            self._last_seq, self._last_mac = row

    def _tables(self) -> set[str]:
        return {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def _create(self, journal_id: str) -> None:
        self.db.executescript(SCHEMA)
        meta = {"schema": str(SCHEMA_VERSION), "key_id": key_id(self.key), "journal_id": journal_id,
                "times_from": "1"}
        self.db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", self._signed(meta).items())

    @property
    def meta(self) -> dict[str, str]:
        """The meta rows, checked under their tag."""
        return dict(self._meta)

    def _signed(self, meta: dict[str, str]) -> dict[str, str]:
        """``meta`` with its tag (the rows to write)."""
        rows = {k: v for k, v in meta.items() if k != META_MAC}
        return {**rows, META_MAC: meta_mac(self.key, rows)}

    def _sign_old_meta(self) -> None:
        """A journal written before every meta row was authenticated, opened to write: its rows
        get their tag now (an ``archive_of`` row no tag covers is refused: no journal has one)."""
        if "archive_of" in self._meta:
            raise JournalError(f"{self.path}: an archive_of meta row that no mac covers in a journal opened to write "
                               "(planted: memory error)")
        meta = self._signed({**self._meta, "times_from": str(self._max_seq() + 1)})  # the records before: untimed macs
        self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?), (?, ?)",  # one statement: atomic
                        ("times_from", meta["times_from"], META_MAC, meta[META_MAC]))
        self._read_meta()

    def _read_meta(self) -> None:
        if not {"journal", "state", "meta"} <= self._tables():
            raise JournalError(f"{self.path}: the journal cannot be read: no journal tables in it (an empty or foreign file)")
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if wrong := meta_problem(meta, self.key):
            raise JournalError(f"{self.path}: {wrong}")
        tag = meta.get(META_MAC)
        # written before every meta row was authenticated (only what is checked elsewhere is used)
        self.unsigned_meta = tag is None
        # the first record whose mac covers its time (a file from before: none of them)
        self.times_from = sys.maxsize if tag is None else int(meta.get("times_from", "1"))
        self.journal_id: str = meta.get("journal_id", "")
        self._meta = meta
        self._check_schema()

    def _check_schema(self) -> None:
        """The file's tables, indexes, triggers and views: exactly those ``SCHEMA`` makes."""
        version = int(self.db.execute("PRAGMA schema_version").fetchone()[0])
        if odd := planted(self.db):
            raise JournalError(f"{self.path}: the journal's file holds what the cabinet never made: {', '.join(odd)} "
                               "(a planted object: memory error)")
        self._schema_version = version

    def _schema_unchanged(self) -> None:
        """Inside a transaction (the write lock held): the schema is the one checked, or is checked again."""
        if int(self.db.execute("PRAGMA schema_version").fetchone()[0]) != self._schema_version:
            self._check_schema()

    def _anchor(self) -> tuple[int, str]:
        """Where the chain starts: record 0 (genesis), or after the records archived away."""
        text = self._meta.get("anchor")
        if text is None:
            return 0, GENESIS
        a = json.loads(text)
        if not hmac.compare_digest(anchor_mac(self.key, self.journal_id, a["seq"], a["mac"]), a["tag"]):
            raise JournalError(f"{self.path}: the anchor of the archived records fails its mac (edited)")
        return int(a["seq"]), str(a["mac"])

    @property
    def is_archive(self) -> bool:
        """Records ``archive`` moved out of a journal (no state rows of their own): said by a meta
        row under the tag, or, in a file written before meta rows had one, by no state row at all."""
        if "archive_of" not in self._meta:
            return False
        return not self.unsigned_meta or self.db.execute("SELECT COUNT(*) FROM state").fetchone()[0] == 0

    def close(self) -> None:
        self.db.close()

    # -- writing ------------------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        if self.readonly:
            raise JournalError("the journal is open read-only")
        if self.problems:
            raise JournalError(f"{self.path}: the journal failed its check: {self.problems[0]}")
        if self._in_tx:
            raise JournalError("transactions do not nest")
        saved = (self._last_seq, self._last_mac, self._since_checkpoint, dict(self._index))
        self._pending, self._written, self._rows_written = {}, [], {}
        self._hook("begin")
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self._in_tx = True
            self._schema_unchanged()
            yield
            self._write_rows()
            self._read_back(saved[0])
            self._hook("before_commit")
            self.db.execute("COMMIT")
        except BaseException as exc:
            self._in_tx = False
            self._last_seq, self._last_mac, self._since_checkpoint, self._index = saved
            self._pending, self._moved = {}, None
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise JournalError(f"{self.path}: writing the journal failed: {exc}") from None
            raise
        self._in_tx = False
        if self._moved is not None:
            self._meta, self.anchor_seq, self._anchor_mac = self._moved
            self._moved = None
        self._hook("after_commit")
        if self.on_commit is not None:
            self.on_commit(self._last_seq, self._last_mac)
        self._still_there()

    def _read_back(self, before: int) -> None:
        """Before the commit: the file holds exactly the records and rows this transaction wrote
        (something in the file that drops, changes or adds a write is found here, not at the next start)."""
        got = self.db.execute("SELECT seq, mac FROM journal WHERE seq > ? ORDER BY seq", (before,)).fetchall()
        lost = f"{self.path}: the journal did not keep what was written (%s: a planted object or a damaged file, memory error)"
        if got != self._written:
            raise JournalError(lost % f"records {before + 1} to {self._last_seq} written, {len(got)} found")
        for key, want in self._rows_written.items():
            if self.db.execute("SELECT value, seq, mac FROM state WHERE key = ?", (key,)).fetchone() != want:
                raise JournalError(lost % f"state row {key!r} is not what was written")

    def _still_there(self) -> None:
        """After a commit: the file and its write-ahead log are still where SQLite writes them.
        (Deleted while open, SQLite writes on into the unlinked file, and every record since
        the last checkpoint of the file would be gone at the next start.)"""
        for f in (self.path, Path(f"{self.path}-wal")):
            if not f.exists():
                raise JournalError(f"{f}: removed while the journal was open: the records since would be lost "
                                   "(memory error)")

    def append(self, kind: str, data: dict[str, Any], seat: int | None = None) -> int:
        """Add a record to the chain (inside a transaction); returns its sequence number."""
        if not self._in_tx:
            raise JournalError("append outside a transaction")
        seq = self._last_seq + 1
        text = canon(data)
        at = float(self.clock())  # (as SQLite gives it back: a REAL)
        mac = self._mac(record_text(self._last_mac, seq, kind, seat, text, at))
        self._hook("append")
        self.db.execute("INSERT INTO journal (seq, kind, seat, data, mac, at) VALUES (?, ?, ?, ?, ?, ?)",
                        (seq, kind, seat, text, mac, at))
        self._last_seq, self._last_mac = seq, mac
        self._written.append((seq, mac))
        self._since_checkpoint += 1
        return seq

    def put(self, key: str, value: Any) -> None:
        """Set a state row (inside a transaction); written with the transaction's ``rows`` record."""
        if not self._in_tx:
            raise JournalError("put outside a transaction")
        self._pending[key] = canon(value)

    def _write_rows(self) -> None:
        """Close the transaction: the ``rows`` record, the rows bound to it, a checkpoint when due."""
        if self._pending:
            digests = {k: digest(t) for k, t in sorted(self._pending.items())}
            seq = self.append(ROWS, digests)
            for k, text in sorted(self._pending.items()):
                self._hook("put")
                row = (text, seq, self._mac(row_text(k, text, seq)))
                self.db.execute("INSERT OR REPLACE INTO state (key, value, seq, mac) VALUES (?, ?, ?, ?)", (k, *row))
                self._rows_written[k] = row
                self._index[k] = (seq, digests[k])
            self._pending = {}
        if self._since_checkpoint >= CHECKPOINT_EVERY:
            self._hook("checkpoint")
            self.append(CHECKPOINT, {"rows": {k: list(v) for k, v in sorted(self._index.items())}})
            self._since_checkpoint = 0

    # -- reading ------------------------------------------------------------------------------

    @property
    def last_seq(self) -> int:
        return self._last_seq

    @property
    def last_mac(self) -> str:
        return self._last_mac

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._pending:
            return json.loads(self._pending[key])
        row = self.db.execute("SELECT value, seq, mac FROM state WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        value, seq, mac = row
        if not hmac.compare_digest(self._mac(row_text(key, value, seq)), mac):
            raise JournalError(f"{self.path}: state row {key!r} fails its mac (memory error)")
        return json.loads(value)

    def mac_at(self, seq: int) -> str | None:
        """The mac of record ``seq`` (the anchor's for the last archived one), None when absent."""
        if seq == self.anchor_seq:
            return self._anchor_mac
        row = self.db.execute("SELECT mac FROM journal WHERE seq = ?", (seq,)).fetchone()
        return None if row is None else str(row[0])

    def last_of(self, kind: str) -> int:
        """The sequence number of the newest record of ``kind`` (0 when there is none)."""
        row = self.db.execute("SELECT MAX(seq) FROM journal WHERE kind = ?", (kind,)).fetchone()
        return row[0] or 0

    def records(
        self, kind: str | None = None, seat: int | None = None, last: int | None = None, since: int = 0,
        before: int | None = None,
    ) -> list[Record]:
        """Records in order, optionally of one kind and seat, after ``since`` (and before
        ``before``), the ``last`` N."""
        sql = "SELECT seq, kind, seat, data, mac, at FROM journal"
        cond: list[str] = ["seq > ?"]
        args: list[int | str] = [since]
        if before is not None:
            cond.append("seq < ?")
            args.append(before)
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

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction: the chain and the rows as of one instant, while a running cabinet
        (another process) goes on writing."""
        if self._in_tx:
            yield
            return
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            self.db.execute("COMMIT")

    def _boot_start(self) -> int:
        """Where start-up begins its check: the last checkpoint at least ``BOOT_WINDOW`` records
        back (0: from the first record, for a journal that has none so far back)."""
        row = self.db.execute("SELECT MAX(seq) FROM journal WHERE kind = ? AND seq <= ?",
                              (CHECKPOINT, self._max_seq() - BOOT_WINDOW)).fetchone()
        return row[0] or 0

    def _max_seq(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM journal").fetchone()[0])

    def _walk(self, start: int) -> _Walk:
        """Check the chain from record ``start`` (0: from the first) to the end, and recompute
        from its ``rows`` records the value every state row must hold; each checkpoint past the
        first must agree with the rows recomputed up to it."""
        problems: list[str] = []
        if start:
            prev = self.mac_at(start - 1)
            if prev is None:
                return _Walk([f"record {start - 1} is missing (before checkpoint {start})"], {}, 0)
        else:
            start, prev = self.anchor_seq + 1, self._anchor_mac
        index: RowIndex = {}
        known = start == 1  # the index is complete only from the very first record
        expect, since = start, 0
        timed = self.times_from
        for seq, kind, seat, text, mac, at in self.db.execute(
            "SELECT seq, kind, seat, data, mac, at FROM journal WHERE seq >= ? ORDER BY seq", (start,)
        ):
            if seq != expect:
                problems.append(f"record {expect} is missing (the chain jumps to {seq})")
                break
            covered = (record_text(prev, seq, kind, seat, text, at) if seq >= timed
                       else untimed_record_text(prev, seq, kind, seat, text))
            if not hmac.compare_digest(self._mac(covered), mac):
                problems.append(f"record {seq} ({kind}) was altered or forged: its mac does not match the chain")
                break
            since += 1
            if kind == ROWS:
                index.update((k, (seq, d)) for k, d in json.loads(text).items())
            elif kind == CHECKPOINT:
                said = {k: (int(v[0]), str(v[1])) for k, v in json.loads(text)["rows"].items()}
                if known and said != index:
                    problems.append(f"checkpoint {seq} does not name the rows the records before it wrote")
                index, known, since = said, True, 0
            prev, expect = mac, seq + 1
        if not known and not problems:
            problems.append(f"the records after the anchor (record {self.anchor_seq}) do not begin with a checkpoint")
        return _Walk(problems, index, since)

    def move_anchor(self, upto: int, meta: dict[str, str | None]) -> None:
        """Inside a transaction: delete the records after the anchor up to ``upto`` (archived: a
        checked copy is elsewhere, see ``machine/money/archive.py``); the chain then starts at an
        anchor at ``upto``. ``meta`` rows are set (None: removed), the tag renewed. In force once
        the transaction commits."""
        last = self.mac_at(upto)
        if not self._in_tx or last is None or not self.anchor_seq < upto < self._last_seq:
            raise JournalError(f"{self.path}: records up to {upto} cannot be archived away (anchor {self.anchor_seq})")
        anchor = {"seq": upto, "mac": last, "tag": anchor_mac(self.key, self.journal_id, upto, last)}
        rows = self._signed({k: v for k, v in {**self._meta, **meta, "anchor": canon(anchor)}.items() if v is not None})
        self._hook("archive")
        self.db.execute("DELETE FROM journal WHERE seq <= ?", (upto,))
        self.db.execute("DELETE FROM meta")
        self.db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", rows.items())
        self._moved = (rows, upto, last)

    def verify(self) -> list[str]:
        """Every problem found: SQLite's integrity check, the whole chain, every checkpoint, the
        state rows recomputed from the records."""
        problems: list[str] = []
        try:
            (ok,) = self.db.execute("PRAGMA integrity_check").fetchone()
            if ok != "ok":
                return [f"SQLite integrity check: {ok}"]
            with self._snapshot():
                self._read_meta()  # nothing trusted that is not checked now: the schema, the meta rows' tag
                self.anchor_seq, self._anchor_mac = self._anchor()
                if self._max_seq() <= self.anchor_seq:
                    return ["the journal holds no records (emptied)"]
                walk = self._walk(0)
                problems += walk.problems
                if not problems and not self.is_archive:
                    problems += compare_rows(self.db, self._mac, walk.index)
        except sqlite3.DatabaseError as exc:
            problems.append(f"the journal cannot be read: {exc}")
        except JournalError as exc:
            problems.append(str(exc).removeprefix(f"{self.path}: "))
        return problems
