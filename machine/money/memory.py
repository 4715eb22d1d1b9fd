"""The machine's memory as an inspector must trust it: the key, the head stores, the first start.

Owns: the per-machine key (32 random bytes made by ``cabinet init``, kept outside the data
folder in a file only the cabinet's user may read), the second record of the journal's head
(the sequence number and mac of its last record, written after every commit to each head
store: a folder on another disk or a USB key, and where the panel supports it the panel's own
non-volatile memory), and the start-up rule that a journal must reach the newest head any store
holds. A journal that is older, shorter, empty, missing, forged or written under another key is
a **memory error**: the cabinet does not play until an explicit, journaled RAM clear. Nothing
here ever starts a fresh journal silently: a first start is ``init``, a new start after a
memory error is ``ram_clear`` (the untrusted journal is kept beside it for the inspector).

Never reads the journal's meaning (that is the core's); only its chain, heads and rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import secrets
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from machine.money.journal import GENESIS, Journal, JournalError, key_id, mac
from machine.money.meters import EVENT_CODES

KEY_BYTES = 32


class UntrustedMemory(RuntimeError):
    """The journal cannot be trusted: the cabinet locks until a RAM clear. Its text is one line."""


# -- the key --------------------------------------------------------------------------------------


def create_key(path: str | Path) -> bytes:
    """Make a new machine key at ``path`` (never over an existing one), readable only by us."""
    p = Path(path).expanduser()
    p.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise UntrustedMemory(f"{p}: a machine key is already there (a key is never replaced: it signs the journal)") from None
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")
        f.flush()
        os.fsync(f.fileno())
    return key


def load_key(path: str | Path) -> bytes:
    """The machine key at ``path``; a missing, unreadable, shared or malformed key is refused."""
    p = Path(path).expanduser()
    try:
        st = p.stat()
        text = p.read_text().strip()
    except FileNotFoundError:
        raise UntrustedMemory(f"{p}: no machine key (a first start is `cabinet init`)") from None
    except OSError as exc:
        raise UntrustedMemory(f"{p}: the machine key cannot be read ({exc.strerror or exc})") from None
    if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UntrustedMemory(f"{p}: the machine key is open to other users (mode {stat.S_IMODE(st.st_mode):o}): chmod 600 it")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise UntrustedMemory(f"{p}: not a machine key ({KEY_BYTES} bytes in hex expected)")
    return key


# -- the head stores ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """The journal's head as a store saw it: which journal, its last record and that record's mac."""

    journal_id: str
    seq: int
    mac: str

    def tag(self, key: bytes) -> str:
        return mac(key, f"head|{self.journal_id}|{self.seq}|{self.mac}")


class HeadStore(Protocol):
    """Somewhere the head is written after every commit, away from the data folder."""

    name: str

    def read(self, key: bytes) -> Head | None:
        """The head stored (None: none yet); raises UntrustedMemory when what is stored is not genuine."""

    def write(self, head: Head, key: bytes) -> None: ...


class FileHeadStore:
    """A head store in a folder (another disk, a USB key): one small file per journal, two slots
    written in turn in place (``fdatasync``, no new file per commit): a write cut by a power cut
    spoils at most the slot it was writing, and the other still holds the head before it."""

    SLOT = 256  # bytes per slot: the head as JSON, padded with spaces

    def __init__(self, folder: str | Path, journal_path: str | Path):
        self.folder = Path(folder).expanduser()
        where = str(Path(journal_path).expanduser().resolve())
        self.file = self.folder / f"head-{hashlib.sha256(where.encode()).hexdigest()[:16]}"
        self.name = str(self.file)
        self._slot = 0

    def read(self, key: bytes) -> Head | None:
        try:
            data = self.file.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise UntrustedMemory(f"{self.file}: the head store cannot be read ({exc.strerror or exc})") from None
        slots = [(h.seq, i, h) for i in (0, 1) if (h := _slot_head(data[i * self.SLOT:(i + 1) * self.SLOT], key))]
        if not slots:
            if data.strip(b" \0"):
                raise UntrustedMemory(f"{self.file}: the head store is damaged or was altered (its mac does not match)")
            return None
        _, newest, head = max(slots)
        self._slot = 1 - newest  # the next write goes over the older slot
        return head

    def write(self, head: Head, key: bytes) -> None:
        text = json.dumps({"journal": head.journal_id, "seq": head.seq, "mac": head.mac, "tag": head.tag(key)}).encode()
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            os.pwrite(fd, text.ljust(self.SLOT), self._slot * self.SLOT)
            os.fdatasync(fd)
        finally:
            os.close(fd)
        self._slot = 1 - self._slot


def _slot_head(data: bytes, key: bytes) -> Head | None:
    """The head in one slot, or None when the slot holds none that this key signed."""
    try:
        d = json.loads(data)
        head = Head(str(d["journal"]), int(d["seq"]), str(d["mac"]))
    except (ValueError, KeyError, TypeError):
        return None
    return head if hmac.compare_digest(head.tag(key), str(d.get("tag", ""))) else None


class MemoryHeadStore:
    """A head store in the process's memory only (tests and scenes whose subject is not the head)."""

    name = "memory"

    def __init__(self) -> None:
        self.head: Head | None = None

    def read(self, key: bytes) -> Head | None:
        return self.head

    def write(self, head: Head, key: bytes) -> None:
        self.head = head


@dataclass(frozen=True)
class Memory:
    """What the journal's trust rests on: the machine key and the head stores."""

    key: bytes
    heads: Sequence[HeadStore]

    @classmethod
    def temporary(cls) -> Memory:
        """A fresh key and a head store in memory (tests, scenes, benchmarks: a temporary journal)."""
        return cls(secrets.token_bytes(KEY_BYTES), (MemoryHeadStore(),))


def _newest(memory: Memory, skip_damaged: bool = False) -> tuple[Head, str] | None:
    """The newest head any store holds, with the store's name. A store that fails is a memory
    error, or is passed over with ``skip_damaged`` (a RAM clear overwrites it)."""
    best: tuple[Head, str] | None = None
    for store in memory.heads:
        try:
            head = store.read(memory.key)
        except UntrustedMemory:
            if not skip_damaged:
                raise
            continue
        if head is not None and (best is None or head.seq > best[0].seq):
            best = (head, store.name)
    return best


def _writer(memory: Memory, journal_id: str, step_hook: Callable[[str], None] | None) -> Callable[[int, str], None]:
    """After every commit: the new head to every store (a store that cannot be written: fatal)."""
    hook = step_hook or (lambda where: None)

    def write(seq: int, mac: str) -> None:
        head = Head(journal_id, seq, mac)
        for store in memory.heads:
            hook("head")
            try:
                store.write(head, memory.key)
            except OSError as exc:
                raise JournalError(f"{store.name}: the journal's head cannot be written ({exc.strerror or exc})") from None
    return write


# -- opening, the first start, the RAM clear ------------------------------------------------------


def open_journal(
    path: str | Path, memory: Memory, *, step_hook: Callable[[str], None] | None = None,
    clock: Callable[[], float] = time.time, create: bool = False,
) -> Journal:
    """The journal at ``path``, checked against the head stores; any doubt is UntrustedMemory.

    ``create``: where nothing was ever started (``may_start``), make the journal (the explicit
    first start of ``init``, or a temporary journal); everywhere else a missing journal is a
    memory error, never a fresh start.
    """
    path = Path(path)
    newest = _newest(memory)
    if may_start(path, newest, memory.key):
        if not create:
            raise UntrustedMemory(f"{path}: no journal here, and no head store knows one (a first start is `cabinet init`)")
        return _create(path, memory, step_hook, clock)
    if not path.exists():
        if newest is None:
            raise UntrustedMemory(f"{path}: the journal is missing, but its files {', '.join(journal_files(path))} are "
                                  "here: a data folder that held a journal is never new")
        head, store = newest
        raise UntrustedMemory(f"{path}: the journal is missing, but {store} holds its head at record {head.seq}")
    try:
        journal = Journal(path, memory.key, step_hook=step_hook, clock=clock)
    except JournalError as exc:
        raise UntrustedMemory(str(exc)) from None
    try:
        _check(journal, newest)
    except UntrustedMemory:
        journal.close()
        raise
    journal.on_commit = _writer(memory, journal.journal_id, step_hook)
    return journal


def journal_files(path: str | Path) -> list[str]:
    """The journal's files at ``path`` (the file, its write-ahead log, its shared memory) that exist."""
    return [Path(f"{path}{s}").name for s in ("", "-wal", "-shm") if os.path.lexists(f"{path}{s}")]


def may_start(path: Path, newest: tuple[Head, str] | None, key: bytes) -> bool:
    """Whether a journal may begin at ``path``: no witness knows one and no file of one is there
    (a first start: a data folder that held a journal, even emptied or cut to nothing, is never
    new), or the witnesses know one at its start (record 0) and it holds no record (a first start
    cut before its first record committed, started again)."""
    if newest is None:
        return not journal_files(path)
    return newest[0].seq == 0 and not _committed(path, key)


def _committed(path: Path, key: bytes) -> bool:
    """Whether a journal here holds any record (a file that is no journal counts as holding some:
    it is never overwritten)."""
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        journal = Journal(path, key, readonly=True)
    except JournalError:
        return True
    try:
        return journal.last_seq > 0
    finally:
        journal.close()


def _create(path: Path, memory: Memory, step_hook: Callable[[str], None] | None, clock: Callable[[], float],
            first: tuple[str, dict[str, Any]] | None = None) -> Journal:
    """A new journal: the head stores learn it (at record 0) before its file is made, so a cut at
    any instant leaves either nothing, or a journal its heads know (its file, if any, holding no
    record: started again), never a file of a journal no witness knows."""
    for suffix in ("", "-wal", "-shm"):  # what a cut first start left (nothing committed)
        with contextlib.suppress(FileNotFoundError, NotADirectoryError):
            Path(str(path) + suffix).unlink()
    journal_id = secrets.token_hex(8)
    write = _writer(memory, journal_id, step_hook)
    write(0, GENESIS)
    journal = Journal(path, memory.key, create=journal_id, step_hook=step_hook, clock=clock)
    journal.on_commit = write
    kind, data = first or ("init", {})
    with journal.transaction():
        journal.append(kind, {**data, "key_id": key_id(memory.key), "journal_id": journal.journal_id})
        if kind == "ram_clear":  # in the event log too, with what was found
            journal.append("event", {"code": EVENT_CODES["ram_clear"], "event": "ram_clear", "by": data["by"],
                                     "reason": data["reason"]})
    return journal


def _check(journal: Journal, newest: tuple[Head, str] | None) -> None:
    """The journal against the newest head: every disagreement found, in one line."""
    where, found = journal.path, []
    if journal.last_seq == journal.anchor_seq:
        on = f", but {newest[1]} holds its head at record {newest[0].seq}" if newest else ""
        raise UntrustedMemory(f"{where}: the journal holds no records (emptied){on}")
    if newest is None:
        found.append("no head store knows this journal (its second record is missing: the head stores were emptied "
                     "or changed)")
    else:
        head, store = newest
        mac = journal.mac_at(head.seq)
        if head.journal_id != journal.journal_id:
            found.append(f"another journal than the one {store} knows (journal {journal.journal_id}, the head store's "
                         f"{head.journal_id})")
        elif journal.last_seq < head.seq:
            found.append(f"the journal ends at record {journal.last_seq}, but {store} holds its head at record {head.seq}: "
                         f"an older or cut copy ({head.seq - journal.last_seq} records lost)")
        elif mac is None or not hmac.compare_digest(mac[:len(head.mac)], head.mac):  # (a store may keep a prefix)
            found.append(f"record {head.seq} is not the one {store} holds as its head (a different history)")
    found += journal.problems
    if found:
        raise UntrustedMemory(f"{where}: " + "; ".join(found))


def init(path: str | Path, memory: Memory) -> Journal:
    """The explicit first start: a new journal where there is none and no head store knows one."""
    path = Path(path)
    newest = _newest(memory)
    if not may_start(path, newest, memory.key):
        if newest is not None and newest[0].seq > 0 and not path.exists():
            raise UntrustedMemory(f"{path}: {newest[1]} holds this journal's head at record {newest[0].seq}: the journal "
                                  "is missing (a memory error), not new; clear it with `cabinet ram-clear`")
        where = ", ".join(journal_files(path)) or f"known to {newest[1] if newest else 'a head store'}"
        raise UntrustedMemory(f"{path}: a journal is already here ({where}): a new start over it is a RAM clear")
    return open_journal(path, memory, create=True)


def ram_clear(path: str | Path, memory: Memory, reason: str, now: float | None = None,
              clock: Callable[[], float] = time.time) -> tuple[Journal, Path | None]:
    """A new start after a memory error: the untrusted journal (if any) is moved aside for the
    inspector, a new journal begins with a ``ram_clear`` record saying what was found, and every
    head store is pointed at it. Returns the journal and where the old one went. ``clock`` is the
    wall clock the new journal's records are stamped with; ``now`` (default: the clock) names
    the untrusted journal kept aside."""
    path = Path(path)
    when = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now if now is not None else clock()))
    kept: Path | None = None
    if path.exists():
        kept = path.with_name(f"{path.name}.untrusted-{when}")
        for suffix in ("", "-wal", "-shm"):
            old = Path(str(path) + suffix)
            if old.exists():
                old.rename(Path(str(kept) + suffix))
    newest = _newest(memory, skip_damaged=True)
    journal = _create(path, memory, None, clock, ("ram_clear", {
        "by": "memory error", "reason": reason, "kept": None if kept is None else kept.name,
        "old_head": None if newest is None else newest[0].seq}))
    return journal, kept
