"""Building the running cabinet from its configuration: the core, the journal and the devices.

Owns: ``Wiring`` — opening the cabinet core on its journal with the game profile, the shoes and
Auto (its tables prepared for the game in force, how far they are told to a callback); the
software identity check (journaled, and fatal when the configuration requires the release
manifest); the panel host and the ccTalk bus devices on the links it is given, their counters
compared with the journal's the moment the bus is open; the bus worker thread; and closing all
of it in the right order. The links are URLs: a real serial port, or a simulator's pty that the
development harness (``machine/devtools/harness.py``) started.
Never runs a frame, routes an input or draws.
"""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from hardware.links import is_simulated
from hardware.panel import PanelHost

from machine.core.cabinet import Cabinet, CabinetLocked, MemoryLocked, open_cabinet, random_shuffle, stacked_shuffle
from machine.games.catalog import make_game
from machine.loop.devices import BusDevices, BusWorker
from machine.loop.panelhead import PanelHeadStore
from machine.loop.vouchers import PrinterWorker
from machine.money.archive import JournalKeeper
from machine.money.memory import UntrustedMemory
from machine.operator import applying
from machine.operator.config import MachineConfig
from machine.operator.firststart import init_if_new
from machine.operator.identity import check_manifest, software_id
from machine.operator.panelpair import link_key
from machine.profiles import load_profile


def default_auto(engine: str = "blackjack") -> Callable[[Any], str]:
    from machine.gamemath.engines import auto_for

    return auto_for(engine)


class StartWatch(Protocol):
    """What follows the start (a window's start-up screen, ``Screens``): how far Auto's tables
    are, and the work that prepares them, run while the watcher keeps itself alive."""

    def starting(self, title: str, done: int | None = None, total: int | None = None) -> None: ...

    def while_starting(self, work: Callable[[], None]) -> None: ...


def prepare_auto(in_force: Any, others: list[Any], watch: StartWatch | None = None) -> threading.Timer | None:
    """Auto's tables (a few seconds a game): the game in force now, so no decision of it waits,
    through ``watch`` where given (each report of the engine, done of total, to its
    ``starting``; none when the cache folder has the tables); the other enabled games in a
    background thread a minute after start-up (the start and the first rounds keep both cores),
    each ready long before a player is likely to choose it (a game chosen sooner computes its
    own tables at its first Auto decision). Returns that thread's timer, for the cabinet to
    cancel when it closes (None: no other game)."""
    from machine.gamemath.engines import prepare

    if watch is None:
        prepare(in_force)
    else:
        w = watch
        w.while_starting(lambda: prepare(in_force, lambda done, of: w.starting(in_force.title, done, of)))

    def the_others() -> None:
        for p in others:
            prepare(p, workers=1)  # one core: the other keeps the rounds going

    if not others:
        return None
    later = threading.Timer(60.0, the_others)
    later.name, later.daemon = "auto-tables", True
    later.start()
    return later


@dataclass
class Wiring:
    """The cabinet core and its devices, joined; the bus worker is not started yet."""

    cab: Cabinet
    lock: threading.Lock
    software_id: str
    panel: PanelHost
    devices: BusDevices
    worker: BusWorker
    panel_head: PanelHeadStore | None = None  # the journal's head in the panel's memory
    first_start: str | None = None  # what a first start made (``first_start=True`` where nothing was there)
    keeper: JournalKeeper | None = None  # the journal's own archiving, a step each frame
    later: threading.Timer | None = None  # the other games' Auto tables, a minute after start
    journal_lock: applying.FolderLock | None = None  # one cabinet per journal
    printer: PrinterWorker | None = None  # the ticket printer's worker (vouchers), not started yet

    @classmethod
    def build(
        cls,
        cfg: MachineConfig,
        base: Path,
        panel_url: str,
        bus_url: str,
        clock: Callable[[], float],
        auto: Callable[[Any], str] | None = None,
        shoes: Callable[[int], list[str]] | None = None,
        watch: StartWatch | None = None,
        first_start: bool = False,
        printer_url: str | None = None,
    ) -> Wiring:
        """``watch``: a window's start-up screen, told how far Auto's tables of the game in
        force are while they are prepared (``prepare_auto``). ``first_start``: where no witness
        (the data folder, the head stores, the panel's memory) knows a journal, begin one
        (``cabinet run --init``)."""
        for name, url in (("panel", panel_url), ("bus", bus_url)):
            if is_simulated(url):
                raise ValueError(f"devices.{name}: {url} needs the simulators (cabinet run starts them)")
        profile = load_profile(cfg.game)
        others = tuple(load_profile(g) for g in cfg.games_enabled if g != cfg.game)
        with contextlib.ExitStack() as opened:  # a failed start closes what it opened, in reverse
            key = link_key(cfg, base)  # the key paired at installation: every panel frame authenticated
            panel = PanelHost(panel_url, clock=clock, key=key)  # first: where it keeps the journal's head, start-up reads it
            opened.callback(panel.close)
            panel_head = PanelHeadStore(panel) if cfg.memory.panel_head else None
            if panel_head is not None:
                opened.callback(panel_head.close)
            try:
                made = init_if_new(cfg, base, () if panel_head is None else (panel_head,)) if first_start else None
                memory = cfg.machine_memory(base, () if panel_head is None else (panel_head,))
            except UntrustedMemory as exc:
                raise MemoryLocked(f"memory error: {exc}") from None
            held = applying.hold_journal(cfg.journal_path(base))  # a second cabinet on it: "database is locked"
            opened.callback(held.release)
            cab = open_cabinet(
                cfg.journal_path(base),
                profile,
                dataclasses.replace(cfg.cabinet_settings(), games=others),
                lambda p: make_game(p, auto or default_auto(p.engine)),
                random_shuffle(secrets.SystemRandom()) if shoes is None else stacked_shuffle(shoes),
                memory,
            )
            opened.callback(cab.journal.close)
            applying.hold_settings(cab, cfg, (profile, *others))  # the journal's settings in force, or no start
            later = None
            if auto is None:
                later = prepare_auto(cab.profile, [p for p in (profile, *others) if p.game != cab.profile.game], watch)
                if later is not None:
                    opened.callback(later.cancel)
            lock = threading.Lock()
            ident = software_id()
            manifest = check_manifest()
            with lock:
                cab.operator_event("software identity", clock(), id=ident, manifest="match" if not manifest else manifest[0])
            if manifest and cfg.require_manifest:
                raise CabinetLocked(f"software identity: the program files do not match the release manifest: {manifest[0]}")
            devices = BusDevices.open(cfg, bus_url, dict(cab.acceptor_counters), cab.validator_counters())
            opened.callback(devices.close)
            worker = BusWorker(cab, lock, devices, clock)
            if cfg.devices.printer is not None and is_simulated(printer_url or cfg.devices.printer):
                raise ValueError(f"devices.printer: {cfg.devices.printer} needs the simulators (cabinet run starts them)")
            worker.check_at_start()  # the bus is open: the devices' counters against the journal's, before any payout
            opened.pop_all()  # started: Wiring.close closes them from now on
        keeper = JournalKeeper(cab.journal, cfg.data_path(base) / "archive", cfg.seats, cfg.memory.archive_at_mb * 2**20,
                               cfg.memory.archive_at_days * 86400.0, idle=lambda: cab.round is None and not cab.is_paying(),
                               games=max(100, cab.settings.recall_games))
        printer = None
        if cfg.devices.printer is not None:  # opened by its worker, which says when it cannot be
            printer = PrinterWorker(cab, lock, printer_url or cfg.devices.printer, language=cfg.language,
                                    cents_per_point=cfg.denomination_cents)
        return cls(cab, lock, ident, panel, devices, worker, panel_head, made, keeper, later, held, printer)

    def close(self) -> None:
        if self.later is not None:
            self.later.cancel()  # not yet run: it never will (a run under way is a daemon, left to end)
        if self.keeper is not None:
            self.keeper.close()
        self.worker.stop()
        if self.printer is not None:
            self.printer.stop()
        self.devices.close()
        if self.panel_head is not None:
            self.panel_head.close()
        self.panel.close()
        self.cab.journal.close()
        if self.journal_lock is not None:
            self.journal_lock.release()
