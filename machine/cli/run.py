"""The cabinet's own commands: ``run``, ``init``, ``archive``, ``ram-clear``.

Owns: starting the cabinet (the window or ``--headless``), ending it on a signal through every
``finally``, and turning what stops it from starting into one line (a link or device that
cannot be reached, a journal in use: status 1; a data folder that cannot be made: status 2);
the first start, the archive and the RAM clear from the command line. The cabinet itself is
``machine/loop/app.py``; the simulators are reached only through ``machine/cli/harness.py``,
when the configuration asks for them.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from machine.cli import harness
from machine.cli.common import EXIT_USAGE, CommandError, Unreachable


def run_command(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config

    cfg = load_config(args.config)
    if args.game is not None:
        if args.game not in cfg.games_enabled:
            raise CommandError(f"--game {args.game}: not an enabled game (games_enabled: {', '.join(cfg.games_enabled)})")
        cfg = cfg.model_copy(update={"game": args.game})
    if args.stay and not args.headless:
        raise CommandError("--stay: with --headless (the window stays up until it is closed anyway)")
    if not args.headless:
        _a_visible_display()
    with _signals_end_the_run():
        try:
            return _run(args, cfg)
        except KeyboardInterrupt:  # Ctrl-C: everything closed on the way out, as after Esc
            return 128 + signal.SIGINT


def _a_visible_display() -> None:
    """The window of ``cabinet run`` must be seen: a video driver that draws nowhere (SDL's
    ``dummy`` or ``offscreen``, asked for in ``SDL_VIDEODRIVER``) and no display at all
    (``NO_DISPLAY``) are refused before anything starts (the simulators, the journal, Auto's tables)."""
    from machine.display.screens import INVISIBLE_DRIVERS, open_display

    asked = os.environ.get("SDL_VIDEODRIVER", "").strip().lower()
    if asked and all(d.strip() in INVISIBLE_DRIVERS for d in asked.split(",")):
        raise CommandError(f"SDL_VIDEODRIVER={asked} draws nowhere a person sees: unset it to use the display, "
                           "or run with --headless")
    open_display()  # DisplayError: one line, status 2


def _run(args: argparse.Namespace, cfg: Any) -> int:
    data = None if args.data is None else Path(args.data).expanduser().resolve()
    if data is not None:
        cfg = cfg.model_copy(update={"data_dir": str(data)})
    with _start_failures(cfg, args.config):
        if args.headless:
            return harness.soak(cfg, rounds=args.rounds, seed=args.seed, data=data, stay=args.stay)
        from hardware.links import is_simulated

        from machine.loop.app import CabinetApp

        if is_simulated(cfg.devices.bus) or is_simulated(cfg.devices.panel):
            app: CabinetApp = harness.simulated_cabinet(cfg, first_start=args.init)
        else:
            app = CabinetApp(cfg, Path.cwd(), first_start=args.init)  # --init: asks the panel's memory too
        if app.wiring.first_start is not None:
            print(app.wiring.first_start, file=sys.stderr)
    try:
        app.run()
    finally:
        app.close()
    return 0


def init_command(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config
    from machine.operator.firststart import init_cabinet

    print(init_cabinet(load_config(args.config), Path.cwd()))
    return 0


def archive_command(args: argparse.Namespace) -> int:
    import time

    from machine.operator.config import load_config
    from machine.operator.firststart import archive_cabinet

    cfg = load_config(args.config)
    with _cabinet_stopped(cfg, "nothing archived"):
        print(archive_cabinet(cfg, Path.cwd(), Path(args.to), args.keep_days, time.time()))
    return 0


def ram_clear_command(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config
    from machine.operator.firststart import ram_clear_cabinet

    cfg = load_config(args.config)
    if not args.reason.strip():
        raise CommandError("--reason: say why, in the operator's words (it is journaled); an empty reason is refused")
    if not args.yes:
        print(f"would move {cfg.journal_path(Path.cwd())} aside and start a new journal with every meter at zero; "
              "add --yes to do it")
        return EXIT_USAGE
    with _cabinet_stopped(cfg, "nothing cleared"):
        print(ram_clear_cabinet(cfg, Path.cwd(), args.reason))
    return 0


@contextlib.contextmanager
def _cabinet_stopped(cfg: Any, nothing: str) -> Iterator[None]:
    """The journal's folder held for this command, as a running cabinet holds it: the archive
    and the RAM clear rewrite or move the journal, which a running cabinet keeps writing (and
    whose meters it keeps in memory), so while it runs they are refused in one line (status 1)."""
    from machine.operator.applying import JournalHeld, hold_journal

    path = cfg.journal_path(Path.cwd())
    try:
        held = hold_journal(path)
    except JournalHeld:
        raise Unreachable(f"{path}: the cabinet is running (another process has the journal open): stop it first; "
                          f"{nothing}") from None
    try:
        yield
    finally:
        held.release()


@contextlib.contextmanager
def _signals_end_the_run() -> Iterator[None]:
    """SIGTERM and SIGHUP end the run the way an error does, through every ``finally`` (the
    simulators stopped, a soak's temporary journal folder removed), with status 128 + the
    signal; the handlers before are back afterwards. (SIGKILL cannot be caught: the simulator
    process watches its parent and quits by itself.)"""
    def end(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers
        return
    before = {sig: signal.signal(sig, end) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


@contextlib.contextmanager
def _start_failures(cfg: Any, config: str | None) -> Iterator[None]:
    """What stops the cabinet from starting, as one line: a link that cannot be opened or a
    device that does not answer (``Unreachable``, status 1), a data folder that cannot be made
    (status 2, a configuration problem), a journal another process holds (status 1). Whatever
    was started is already stopped by then (the app and the harness close it on the way out)."""
    from hardware.cctalk.host import CctalkError

    try:
        yield
    except CctalkError as exc:  # the port opened but the device is not there (or not that device)
        raise Unreachable(f"devices.bus: {cfg.devices.bus}: {exc}") from None
    except OSError as exc:  # TransportError (a port that cannot be opened) is an OSError too
        from hardware.transport import TransportError

        if isinstance(exc, TransportError):
            name = "devices.bus" if str(exc).startswith(f"{cfg.devices.bus}:") else "devices.panel"
            raise Unreachable(f"{name}: {exc}") from None
        where = exc.filename or ""
        data = cfg.data_path(Path.cwd())
        if where and (Path(where) == data or data in Path(where).parents or Path(where) in data.parents):
            raise CommandError(f"{config or 'config/machine.yaml'}: data_dir {cfg.data_dir}: cannot make the journal's "
                               f"folder {where}: {exc.strerror or exc}") from None
        raise Unreachable(f"{where}: {exc.strerror or exc}" if where else str(exc)) from None
    except RuntimeError as exc:
        if _locked(exc):
            path = cfg.journal_path(Path.cwd())
            raise Unreachable(f"{path}: the journal is in use by another process (another cabinet on this "
                              "data_dir?): database is locked") from None
        from hardware.sim.launcher import SimError  # the simulators (bus: sim) did not start

        if isinstance(exc, SimError):
            raise Unreachable(str(exc).replace("\n", " ")) from None
        raise


def _locked(exc: BaseException | None) -> bool:
    """Whether ``exc`` or what it was raised from is SQLite's "database is locked" (another
    process holds the journal's write lock)."""
    import sqlite3

    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, sqlite3.OperationalError) and (
            getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            or "database is locked" in str(exc)
        ):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False
