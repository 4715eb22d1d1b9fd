"""The explicit starts of a cabinet's memory: ``cabinet init``, ``cabinet ram-clear``, a temporary one.

Owns: the operator's side of ``machine/money/memory.py`` for a configuration: making the machine
key on the first start (never over an existing one), the first journal, the RAM clear that
starts anew after a memory error (the untrusted journal kept for the inspector), and the
throw-away memory of a soak, a benchmark or a screenshot run (key, heads and journal in one
temporary folder).

Never starts a journal where a head store knows one, and never decides that a memory error may
be cleared: the operator does, by running the command.
"""

from __future__ import annotations

from pathlib import Path

from machine.money.memory import create_key, init, open_journal, ram_clear
from machine.operator.config import MachineConfig


def init_cabinet(cfg: MachineConfig, base: Path) -> str:
    """The first start: the key (if none yet) and a new journal; one line saying what was made."""
    made = not cfg.key_path(base).exists()
    if made:
        create_key(cfg.key_path(base))
    journal = init(cfg.journal_path(base), cfg.machine_memory(base))
    try:
        key = f"new machine key {cfg.key_path(base)}" if made else f"machine key {cfg.key_path(base)}"
        return (f"initialised: journal {cfg.journal_path(base)} (journal id {journal.journal_id}), {key}, "
                f"head stores {', '.join(str(p) for p in cfg.head_paths(base))}")
    finally:
        journal.close()


def init_if_new(cfg: MachineConfig, base: Path) -> str | None:
    """``init_cabinet`` where nothing was ever started (its line), else nothing (None)."""
    return init_cabinet(cfg, base) if is_new(cfg, base) else None


def is_new(cfg: MachineConfig, base: Path) -> bool:
    """No journal is here and no head store knows one (a missing key counts as new: init makes it)."""
    if not cfg.key_path(base).exists():
        return not cfg.journal_path(base).exists()
    memory = cfg.machine_memory(base)
    try:
        journal_there = cfg.journal_path(base).stat().st_size > 0
    except (FileNotFoundError, NotADirectoryError):
        journal_there = False
    return not journal_there and all(store.read(memory.key) is None for store in memory.heads)


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
        upto = row[0] or 0
        for n in range(1, cfg.seats + 1):
            kept = journal.records("game", seat=n, last=games)
            if kept:
                upto = min(upto, kept[0].seq - 1)
        start = journal.records("round_start", last=1)
        if start and journal.get("round") is not None:
            upto = min(upto, start[0].seq - 1)
        moved, anchor = journal.archive(upto, to)
        if not moved:
            return f"nothing to archive: no checkpoint is older than {keep_days} days and the last {games} games of every seat"
        return (f"archived records {journal.anchor_seq - moved + 1} to {anchor} ({moved:,}) into {to}, checked; the journal "
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

