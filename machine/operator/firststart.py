"""The explicit starts of a cabinet's memory: ``cabinet init``, ``cabinet ram-clear``, a temporary one.

Owns: the operator's side of ``machine/money/memory.py`` for a configuration: making the machine
key on the first start (never over an existing one), the first journal, the RAM clear that
starts anew after a memory error (the untrusted journal kept for the inspector), and the
throw-away memory of a soak, a benchmark or a screenshot run (key, heads and journal in one
temporary folder).

The first start asks every witness: the data folder (a file of a journal there, even emptied,
means it is not new), every head store and, where the caller has it open, the panel's memory
(``more``: ``machine/loop/wiring.py`` passes it for ``cabinet run --init`` and the soak's
``--data``). Never starts a journal where a witness knows one, never makes a key where a
journal or a head is already there (it would be refused at once: the journal was written under
the key that is gone, which must be put back), and never decides that a memory error may be
cleared: the operator does, by running the command.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from machine.money.archive import archive, keep_from
from machine.money.memory import (
    FileHeadStore,
    HeadStore,
    UntrustedMemory,
    create_key,
    init,
    journal_files,
    open_journal,
    ram_clear,
)
from machine.operator.config import MachineConfig


def init_cabinet(cfg: MachineConfig, base: Path, more: Sequence[HeadStore] = ()) -> str:
    """The first start: the key (if none yet) and a new journal; one line saying what was made."""
    made = not cfg.key_path(base).exists()
    if made:
        if left := _left_without_key(cfg, base):
            raise UntrustedMemory(f"{cfg.key_path(base)}: no machine key, but {left}: put back the key they were written "
                                  "under (a new key is made only for a first start; a new start over them is "
                                  "`cabinet ram-clear` once the key is back)")
        create_key(cfg.key_path(base))
    journal = init(cfg.journal_path(base), cfg.machine_memory(base, more))
    try:
        key = f"new machine key {cfg.key_path(base)}" if made else f"machine key {cfg.key_path(base)}"
        return (f"initialised: journal {cfg.journal_path(base)} (journal id {journal.journal_id}), {key}, "
                f"head stores {', '.join(str(p) for p in cfg.head_paths(base))}")
    finally:
        journal.close()


def init_if_new(cfg: MachineConfig, base: Path, more: Sequence[HeadStore] = ()) -> str | None:
    """``init_cabinet`` where nothing was ever started (its line), else nothing (None)."""
    return init_cabinet(cfg, base, more) if is_new(cfg, base, more) else None


def is_new(cfg: MachineConfig, base: Path, more: Sequence[HeadStore] = ()) -> bool:
    """No file of a journal is here and no witness knows one: the head stores, and the panel's
    memory among ``more`` (a missing key counts as new where nothing at all is left: init makes it)."""
    if not cfg.key_path(base).exists():
        return not _left_without_key(cfg, base)
    if journal_files(cfg.journal_path(base)):
        return False
    memory = cfg.machine_memory(base, more)
    return all(store.read(memory.key) is None for store in memory.heads)


def _left_without_key(cfg: MachineConfig, base: Path) -> str:
    """What a cabinet whose key is gone left behind (its journal's files, a head file), or ''."""
    journal = cfg.journal_path(base)
    if files := journal_files(journal):
        return f"the journal's files {', '.join(files)} are in {journal.parent}"
    heads = [store.file for p in cfg.head_paths(base) if (store := FileHeadStore(p, journal)).file.exists()]
    return f"the head store {heads[0]} knows a journal" if heads else ""


def ram_clear_cabinet(cfg: MachineConfig, base: Path, reason: str) -> str:
    """A new start after a memory error; one line saying where the untrusted journal went."""
    journal, kept = ram_clear(cfg.journal_path(base), cfg.machine_memory(base), reason)
    journal.close()
    where = f"the untrusted journal is kept as {kept}" if kept else "there was no journal"
    return f"RAM cleared: a new journal {cfg.journal_path(base)} begins with the RAM clear; {where}"


def archive_cabinet(cfg: MachineConfig, base: Path, to: Path, keep_days: int, now: float, games: int = 100) -> str:
    """Move the records older than ``keep_days`` days into the archive ``to``, never one of the last
    ``games`` games of any seat nor the round in play (every meter lives in the state rows and
    stays); one line saying what moved. The cabinet must be stopped."""
    journal = open_journal(cfg.journal_path(base), cfg.machine_memory(base))
    try:
        row = journal.db.execute("SELECT MAX(seq) FROM journal WHERE at < ?", (now - keep_days * 86400,)).fetchone()
        moved, anchor = archive(journal, min(row[0] or 0, keep_from(journal, cfg.seats, games)), to)
        if not moved:
            return f"nothing to archive: no checkpoint is older than {keep_days} days and the last {games} games of every seat"
        return (f"archived records {anchor - moved + 1} to {anchor} ({moved:,}) into {to}, checked; the journal "
                f"keeps {journal.last_seq - anchor:,} records, the last {games} games of every seat and every meter")
    finally:
        journal.close()


def temporary(cfg: MachineConfig, folder: Path) -> MachineConfig:
    """``cfg`` with its data, key and head store in ``folder`` (a soak's, a benchmark's, a test's),
    initialised the first time."""
    cfg = cfg.model_copy(update={
        "data_dir": str(folder / "data"),
        "memory": cfg.memory.model_copy(update={"key_file": str(folder / "key" / "machine.key"),
                                                "head_stores": [str(folder / "heads")]}),
    })
    init_if_new(cfg, folder)  # (the same folder again: a restart of the temporary cabinet)
    return cfg

