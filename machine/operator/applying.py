"""The journal's settings in force held against the configuration, and the operator's way to change them.

Owns: one cabinet per journal (the data folder locked while a process has the journal open:
a second one ends with "database is locked", as SQLite says it); the start-up check (a
configuration that differs from the settings in force in anything that moves money or changes
a rule is not put in force: the cabinet refuses to start, ``SettingsRefused``, one line per
field, old -> new, and how to apply it); the first record of the settings in force (a journal
without one takes the configured settings, journaled); and ``cabinet config apply``: with the
cabinet stopped, at a moment that moves no seat's money (no round, no payout, no bet; for a
change of what a point is worth, no points on any meter), after the operator PIN (the lockout
of machine/core/pinlock.py), the new settings put in force in ONE transaction that journals
every change with its old and new value and gives every seat the new money settings and table limits.

Never decides which settings count (machine/operator/inforce.py) and never changes a setting
the operator did not apply.
"""

from __future__ import annotations

import dataclasses
import fcntl
import os
import sqlite3
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from machine.core.cabinet import Cabinet, CabinetLocked, open_cabinet, stacked_shuffle
from machine.games.catalog import make_game
from machine.games.rules import Profile
from machine.money.seatmoney import TableLimits
from machine.operator import inforce, pin
from machine.operator.config import MachineConfig
from machine.operator.inforce import Change
from machine.profiles import load_profile

HOW_TO_APPLY = ("apply them with the cabinet stopped: `cabinet config apply FILE` (asks the operator PIN; every change "
                "journaled with its old and new value), or put the settings in force back into the configuration")


class SettingsRefused(CabinetLocked):
    """The configuration differs from the settings in force: the cabinet does not start (status 2)."""


class ApplyRefused(ValueError):
    """``cabinet config apply`` cannot apply now: one line saying why (status 2)."""


class JournalHeld(RuntimeError):
    """Another process has this journal open (raised from SQLite's "database is locked")."""


@dataclasses.dataclass
class FolderLock:
    """The data folder locked for this process (``flock``: released when it closes or dies)."""

    fd: int | None

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


def hold_journal(journal_path: Path) -> FolderLock:
    """Lock the journal's folder for this process; ``JournalHeld`` when another holds it. A
    folder that is not there yet holds no journal to share (opening it will say so)."""
    folder = journal_path.parent
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except (FileNotFoundError, NotADirectoryError):
        return FolderLock(None)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise JournalHeld(f"{journal_path}: another process has the journal open") from sqlite3.OperationalError(
            "database is locked")
    return FolderLock(fd)


def configured(cfg: MachineConfig, profiles: Sequence[Profile]) -> dict[str, Any]:
    """The configuration's settings that count (``inforce.snapshot``), its enabled games' rules."""
    return inforce.snapshot(cfg.model_dump(), ((p.game, p.rules.to_dict()) for p in profiles))


def enabled_profiles(cfg: MachineConfig) -> list[Profile]:
    return [load_profile(g) for g in dict.fromkeys([cfg.game, *cfg.games_enabled])]


def refusal(changes: Sequence[Change]) -> str:
    lines = "\n".join(f"  {c.line()}" for c in changes)
    return (f"settings in force: the configuration differs from the settings in force (the journal's) in what moves "
            f"money or changes a rule, so the cabinet does not start:\n{lines}\n{HOW_TO_APPLY}")


def hold_settings(cab: Cabinet, cfg: MachineConfig, profiles: Sequence[Profile]) -> None:
    """At start-up, before any device is opened: the journal's settings in force against the
    configuration's. A journal that has none yet takes the configured ones (journaled);
    any difference raises ``SettingsRefused`` and nothing is changed."""
    now = configured(cfg, profiles)
    in_force = cab.journal.get(inforce.ROW)
    if in_force is None:
        _put_in_force(cab, now, [], "start-up")
        return
    changes = inforce.differences(in_force, now)
    if changes:
        raise SettingsRefused(refusal(changes))


def _put_in_force(cab: Cabinet, settings: dict[str, Any], changes: Sequence[Change], who: str) -> None:
    """One transaction: the settings in force, an event per change with its old and new value,
    and (for a change) every seat's money settings and table limits as the core now has them."""
    core = cab.core
    with core.tx("settings_in_force", {"changes": [c.to_dict() for c in changes], "by": who}):
        for seat in core.state.seats.values() if changes else ():
            seat.money.settings = core.settings.money
            seat.money.limits = TableLimits.of(core.rules)
            core.store.seat_dirty(seat)
        for c in changes:
            core.store.event("settings_changed", name=c.field, old=c.old, new=c.new, by=who, applied=True)
        if not changes:
            core.store.event("settings_changed", name="settings in force", old=None, new="as configured", by=who)
        core.journal.put(inforce.ROW, settings)


def _busy(cab: Cabinet, changes: Sequence[Change]) -> str | None:
    """Why the settings cannot change now (they would move a seat's money), or None."""
    if cab.round is not None:
        return ("a round is in play: it ends under the rules it was dealt under (start the cabinet with the settings "
                "in force, let it end, stop it, then apply)")
    if cab.payouts or cab.hopper_test_pending():
        return "a payout is in progress: start the cabinet with the settings in force and let it end first"
    for n, seat in sorted(cab.seats.items()):
        if seat.money.bet:
            return f"seat {n} has a bet of {seat.money.bet}: let it be played or dropped first"
    worth = [c for c in changes if c.moves_worth]
    if worth:
        for n, seat in sorted(cab.seats.items()):
            if seat.money.credit or seat.money.club:
                return (f"{worth[0].field} changes what a point is worth, and seat {n} holds {seat.money.credit} credit and "
                        f"{seat.money.club} club points: pay them out (or RAM clear) first")
    return None


def _no_play(view: Any) -> str:
    raise RuntimeError("no decision is taken while settings are applied")


def apply_configuration(cfg: MachineConfig, base: Path, ask_pin: Callable[[], str], who: str = "operator",
                        clock: Callable[[], float] = time.monotonic) -> str:
    """``cabinet config apply``: put the configuration's settings in force on its journal;
    one line saying what was applied. ``ApplyRefused`` (nothing changed) when the cabinet
    runs, a seat's money would move, the PIN entry is locked or the PIN is wrong."""
    profiles = enabled_profiles(cfg)
    by_name = {p.game: p for p in profiles}
    journal_path = cfg.journal_path(base)
    try:
        lock = hold_journal(journal_path)
    except JournalHeld:
        raise ApplyRefused(f"{journal_path}: the cabinet is running (another process has the journal open): stop it "
                           "first; nothing changed") from None
    try:
        cab = open_cabinet(journal_path, by_name[cfg.game],
                           dataclasses.replace(cfg.cabinet_settings(), games=tuple(p for p in profiles if p.game != cfg.game)),
                           lambda p: make_game(p, _no_play), stacked_shuffle(lambda n: []), cfg.machine_memory(base))
        try:
            return _apply(cab, configured(cfg, profiles), cfg.operator_pin, ask_pin, who, clock)
        finally:
            cab.journal.close()
    finally:
        lock.release()


def _apply(cab: Cabinet, settings: dict[str, Any], stored_pin: str, ask_pin: Callable[[], str], who: str,
           clock: Callable[[], float]) -> str:
    in_force = cab.journal.get(inforce.ROW)
    changes = [] if in_force is None else inforce.differences(in_force, settings)
    if in_force is not None and not changes:
        return "nothing to apply: the configuration's settings are the settings in force"
    busy = _busy(cab, changes)
    if busy:
        raise ApplyRefused(f"not applied: {busy}; nothing changed")
    now = clock()
    locked = cab.pin_locked_for(now)
    if locked > 0:
        raise ApplyRefused(f"the PIN entry is locked for {locked:.0f} s more of the cabinet's running time after wrong "
                           "PINs; nothing changed")
    entered = ask_pin()
    if not pin.check(entered, stored_pin):
        lock = cab.pin_refused(now)
        raise ApplyRefused("wrong PIN" + (f" (the PIN entry is now locked for {lock:.0f} s of running time)" if lock else "")
                           + "; nothing changed")
    cab.pin_accepted(now)
    _put_in_force(cab, settings, changes, who)
    if not changes:
        return "settings in force: the configuration's (the journal held none yet), journaled"
    return f"applied {len(changes)} change{'s' if len(changes) > 1 else ''}, each journaled with its old and new value: " + \
        "; ".join(c.line() for c in changes)
