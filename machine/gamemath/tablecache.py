"""Auto's tables kept on disk, so a cabinet (or a command, or a test process) that needs a rule
set's tables again reads them in a fraction of a second instead of computing them for seconds.

Owns: the cache folder (``CABINET_CACHE_DIR``, else ``$XDG_CACHE_HOME/cabinet``, else
``~/.cache/cabinet``); the key of a rule set's tables (a digest of the engine, the rules and the
program that computes them: the source of ``machine/gamemath`` and ``machine/games``); the file
format, and reading and writing it. A file holds named tables, each a mapping from a tuple of
small integers (a composition) to a tuple of floats, stored as raw arrays after a JSON header;
the first lines hold the key and a SHA-256 of everything after them, checked before anything
is parsed, so a cut, edited or foreign file reads as absent (the tables are computed and written
again), never as tables and never as a crash. Nothing in a file is executed or unpickled. A file
is written to a temporary name in the folder and renamed over the old one, so processes sharing
the folder see a whole file or none. Never decides what a table means: each game's math says
what it saves and how it restores it (``game.Analysis``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import chain
from pathlib import Path
from typing import Any

MAGIC = b"cabinet auto tables 1\n"

Table = dict[tuple[int, ...], tuple[float, ...]]


def cache_dir() -> Path:
    """The folder of the cabinet's caches: ``CABINET_CACHE_DIR``, else ``cabinet`` in the user's
    cache folder (``XDG_CACHE_HOME`` or ``~/.cache``)."""
    own = os.environ.get("CABINET_CACHE_DIR")
    if own:
        return Path(own)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cabinet"


@cache
def program_digest() -> str:
    """A digest of the program that computes the tables and the returns (every source file of
    the game math and of the games): a changed program makes every cached figure stale."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for base in (here, here.parent / "games"):
        for f in sorted(base.rglob("*.py")):
            h.update(f.relative_to(base.parent).as_posix().encode() + b"\0")
            h.update(f.read_bytes())
    return h.hexdigest()


def rules_key(engine: str, rules: dict[str, Any], *extra: object) -> str:
    """The key of a rule set's cached figures: its engine, its rules (``Rules.to_dict()``),
    anything else the figures depend on, and the program's digest."""
    text = json.dumps([engine, rules, [repr(e) for e in extra], program_digest()], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def path_of(kind: str, key: str) -> Path:
    """The file of a key (one per rule set: a stale file of the same rules is overwritten)."""
    return cache_dir() / f"{kind}-{key[:32]}.tables"


@dataclass(frozen=True)
class Packed:
    """A table already laid out as a file stores it: ``n`` rows of ``kw`` keys and ``vw``
    values, ``keys`` their int16 and ``values`` their float64 bytes, little-endian, row after
    row (numpy's ``astype("<i2").tobytes()`` and ``astype("<f8").tobytes()`` of the two arrays).
    ``encode`` writes the same bytes for it as for the dict of those rows, without the dict."""

    n: int
    kw: int
    vw: int
    keys: bytes
    values: bytes


def pack(name: str, table: Table | Packed) -> Packed:
    """A table as its file's rows (a ``Packed`` as it is, once its sizes are checked)."""
    if isinstance(table, Packed):
        if len(table.keys) != 2 * table.n * table.kw or len(table.values) != 8 * table.n * table.vw:
            raise ValueError(f"table {name}: {table.n} rows are not {len(table.keys)} + {len(table.values)} bytes")
        return table
    kw = len(next(iter(table))) if table else 0
    vw = len(next(iter(table.values()))) if table else 0
    k = array("h", chain.from_iterable(table))
    v = array("d", chain.from_iterable(table.values()))
    if len(k) != kw * len(table) or len(v) != vw * len(table) or set(map(len, table)) - {kw}:
        raise ValueError(f"table {name}: rows of different widths")
    if sys.byteorder != "little":  # pragma: no cover - the files are little-endian everywhere
        k.byteswap()
        v.byteswap()
    return Packed(len(table), kw, vw, k.tobytes(), v.tobytes())


def encode(key: str, tables: Mapping[str, Table | Packed]) -> bytes:
    """The file's bytes: the magic line, the key, the content digest, then the content."""
    header: list[list[Any]] = []
    parts: list[bytes] = []
    for name, table in tables.items():
        rows = pack(name, table)
        header.append([name, rows.n, rows.kw, rows.vw])
        parts += [rows.keys, rows.values]
    content = json.dumps(header).encode() + b"\n" + b"".join(parts)
    return MAGIC + key.encode() + b"\n" + hashlib.sha256(content).hexdigest().encode() + b"\n" + content


def decode(data: bytes, key: str) -> dict[str, Table] | None:
    """The tables of a file's bytes, or None when they are not whole, not this key's or not
    this format's."""
    try:
        if not data.startswith(MAGIC):
            return None
        stored_key, digest, content = data[len(MAGIC):].split(b"\n", 2)
        if stored_key != key.encode() or hashlib.sha256(content).hexdigest().encode() != digest:
            return None
        head, _, raw = content.partition(b"\n")
        header = json.loads(head)
        if not isinstance(header, list):
            return None
        tables: dict[str, Table] = {}
        pos = 0
        for name, n, kw, vw in header:
            if not (isinstance(name, str) and all(isinstance(x, int) and x >= 0 for x in (n, kw, vw))):
                return None
            k, v = array("h"), array("d")
            k.frombytes(raw[pos : pos + 2 * n * kw])
            pos += 2 * n * kw
            v.frombytes(raw[pos : pos + 8 * n * vw])
            pos += 8 * n * vw
            if len(k) != n * kw or len(v) != n * vw:
                return None
            if sys.byteorder != "little":  # pragma: no cover
                k.byteswap()
                v.byteswap()
            keys = zip(*[iter(k)] * kw) if kw else iter([()] * n)
            rows = zip(*[iter(v)] * vw) if vw else iter([()] * n)
            tables[name] = dict(zip(keys, rows))
        return tables if pos == len(raw) else None
    except (ValueError, TypeError):  # a header that is no list of [name, n, kw, vw]
        return None


def load(kind: str, key: str) -> dict[str, Table] | None:
    """The tables cached under ``key``, or None (none, stale, or not whole)."""
    try:
        data = path_of(kind, key).read_bytes()
    except OSError:
        return None
    return decode(data, key)


def save(kind: str, key: str, tables: Mapping[str, Table | Packed]) -> None:
    """Write the tables under ``key`` (atomically); a folder that cannot be written is skipped:
    the tables are computed again next time."""
    path = path_of(kind, key)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(encode(key, tables))
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
