"""The ``cabinet`` command and its subcommands.

Owns: argument parsing, reading script files, printing results and turning errors into one
line on standard error: exit status 2 for a bad configuration or command line, 1 for something
``cabinet run`` needs that cannot be reached or is in use (a serial port, a device, the
simulator, a journal another process holds). The work itself lives in the modules it calls.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn

from machine import __version__, yamlio
from machine.devtools.progress import working
from machine.money.memory import DEFAULT_KEY_FILE

EXIT_USAGE = 2
EXIT_MEMORY = 3  # the journal cannot be trusted: nothing was played
EXIT_UNREACHABLE = 1


class CommandError(Exception):
    """An error the command reports as one line and exit status 2."""

    status = EXIT_USAGE


class Unreachable(CommandError):
    """A device, port or file the cabinet needs cannot be reached or is in use: exit status 1."""

    status = EXIT_UNREACHABLE


def count(low: int = 1, high: int = 1_000_000_000) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (a count of rounds, kills,
    workers...), refused by argparse with one line naming the option otherwise."""

    def parse(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < low:
            raise argparse.ArgumentTypeError(f"{text}: must be at least {low}")
        if n > high:
            raise argparse.ArgumentTypeError(f"{text}: must be at most {high:,}")
        return n

    parse.__name__ = "count"  # argparse names the type in its messages
    return parse


def read_script(path: str) -> Any:
    """A YAML or JSON script from a file, or from standard input for ``-``."""
    if path == "-":
        return yamlio.loads(yamlio.read_stream(sys.stdin), "<stdin>")
    return yamlio.load(path)


def _cmd_round(args: argparse.Namespace) -> int:
    from machine.scripts.roundscript import run_round_script

    script = read_script(args.script)
    result = run_round_script(script, auto=_auto_strategy(script))
    print(json.dumps(result, indent=2))
    return 0


def _cmd_session(args: argparse.Namespace) -> int:
    from machine.scripts.session import run_session_script

    script = read_script(args.script)
    result = run_session_script(script, auto=_auto_strategy(script))
    print(json.dumps(result, indent=2))
    return 0


def _cmd_crashtest(args: argparse.Namespace) -> int:
    from machine.devtools.crashtest import main as crash_main

    return crash_main(args.kills, args.seed)


def _cmd_audit(args: argparse.Namespace) -> int:
    import sqlite3

    from machine.money.journal import JournalError
    from machine.money.memory import UntrustedMemory, load_key

    path = Path(args.data)
    if path.is_dir() or not path.exists():  # a data folder; a file: a journal or an archive itself
        path = path / "journal.sqlite"
    if not path.exists():
        raise CommandError(f"{path}: no journal here (is --data the cabinet's data directory?)")
    if args.csv and args.what == "verify":
        raise CommandError("verify --csv: the check is one verdict, not a table; ask verify --json")
    try:
        key = load_key(args.key)
    except UntrustedMemory as exc:
        raise CommandError(f"{exc}; an auditor gives the cabinet's key with --key") from None
    try:
        return _audit(args, path, key)
    except (JournalError, sqlite3.DatabaseError) as exc:
        text = str(exc) if str(path) in str(exc) else f"{path}: the journal cannot be read: {exc}"
        if args.what != "verify":
            raise CommandError(f"{text} (not a cabinet journal, or damaged)") from None
        # verify: a journal it cannot read is a broken journal (memory error), status 1
        if args.json:
            print(json.dumps({"ok": False, "records": 0, "problems": [text]}, indent=2))
        else:
            print(f"cabinet audit: JOURNAL BROKEN: {text} (not a cabinet journal, or damaged)", file=sys.stderr)
        return 1


def _audit(args: argparse.Namespace, path: Any, key: bytes) -> int:
    from machine.money.audit import gather, verify_result
    from machine.operator.reports import as_csv, as_text, verify_report

    if args.what == "verify":
        if args.json:
            result = verify_result(path, key)
            print(json.dumps(result, indent=2))
            return 0 if result["ok"] else 1
        text, ok = verify_report(path, key)
        print(text)
        return 0 if ok else 1
    if args.what == "tournaments":
        from machine.operator.reports import gather_tournaments, tournaments_csv, tournaments_text

        tours = gather_tournaments(path, key)
        print(tournaments_csv(tours) if args.csv else json.dumps(tours, indent=2) if args.json else tournaments_text(tours),
              end="" if args.csv else "\n")
        return 1 if tours["problems"] else 0
    report = gather(path, key, seat=args.seat, games=args.games)
    if args.csv:
        tables = ("meters", "recall", "events") if args.what == "all" else (args.what,)
        print("\n".join(as_csv(report, t) for t in tables), end="")  # all: each table after a blank line
    elif args.json:
        parts = {"meters": ("seats", "cabinet", "games"), "recall": ("recall",), "events": ("events",)}
        keys = parts.get(args.what, tuple(report))
        print(json.dumps({k: report[k] for k in (*keys, "problems")} if args.what != "all" else report, indent=2))
    else:
        print(as_text(report, args.what))
    return 1 if report["problems"] else 0


def _published_seed(text: str) -> str:
    """An argparse type: a tournament seed in the form the cabinet publishes (64 hex digits)."""
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a published tournament seed (64 hex digits, 0-9 a-f)")
    return text


def _cmd_tournament_deals(args: argparse.Namespace) -> int:
    """The decks a tournament with ``--seed`` deals, round by round (eenendertigen ``deals``)."""
    from machine.games.eenendertigen.deals import tournament_decks

    decks = tournament_decks(args.seed, args.variant, args.rounds)
    if args.json:
        rounds = [{"round": n, "deck": d} for n, d in enumerate(decks, start=1)]
        print(json.dumps({"seed": args.seed, "variant": args.variant, "rounds": rounds}, indent=2))
    else:
        for n, d in enumerate(decks, start=1):
            print(f"round {n:2}: {' '.join(d)}")
    return 0


def _cmd_bench(args: argparse.Namespace) -> int:
    from machine.devtools.bench import BENCHES, run

    unknown = [n for n in args.names if n not in BENCHES]
    if unknown:
        raise CommandError(f"no benchmark {unknown[0]!r} (known: {', '.join(BENCHES)})")
    return run(args.names, coins=args.coins, rounds=args.rounds, cluster=args.cluster)


def _cmd_screenshots(args: argparse.Namespace) -> int:
    from machine.devtools.screenshots import write_screenshots
    from machine.operator.config import load_config

    games = load_config(args.config).games_enabled
    size = None
    if args.size is not None:
        w, _, h = args.size.partition("x")
        if not (w.isdigit() and h.isdigit() and 320 <= int(w) <= 7680 and 240 <= int(h) <= 4320):
            raise CommandError(f"--size {args.size}: write WIDTHxHEIGHT in pixels, e.g. 1280x720")
        size = (int(w), int(h))
    out = Path(args.dir)
    try:
        if out.exists() and not out.is_dir():
            raise CommandError(f"{out}: a file is there, not a folder to write the pictures into")
        out.mkdir(parents=True, exist_ok=True)
        if not os.access(out, os.W_OK | os.X_OK):
            raise PermissionError(13, "Permission denied", str(out))
        for path in write_screenshots(out, games, language=args.language, game=args.game, size=size):
            print(path)
    except OSError as exc:
        where = exc.filename or out
        raise CommandError(f"{where}: cannot write the pictures there ({exc.strerror or exc})") from None
    return 0


def _cmd_run(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config

    cfg = load_config(args.config)
    if args.game is not None:
        if args.game not in cfg.games_enabled:
            raise CommandError(f"--game {args.game}: not an enabled game (games_enabled: {', '.join(cfg.games_enabled)})")
        cfg = cfg.model_copy(update={"game": args.game})
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
            from machine.devtools.soak import soak

            return soak(cfg, Path.cwd(), rounds=args.rounds, seed=args.seed, data=data)
        from machine.loop.app import CabinetApp

        if cfg.devices.bus == "sim" or cfg.devices.panel == "sim":
            from machine.devtools.harness import SimulatedCabinet  # development only: the simulators

            app: CabinetApp = SimulatedCabinet(cfg, Path.cwd(), first_start=args.init)
        else:
            app = CabinetApp(cfg, Path.cwd(), first_start=args.init)  # --init: asks the panel's memory too
        if app.wiring.first_start is not None:
            print(app.wiring.first_start, file=sys.stderr)
    try:
        app.run()
    finally:
        app.close()
    return 0


def _cmd_init(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config
    from machine.operator.firststart import init_cabinet

    print(init_cabinet(load_config(args.config), Path.cwd()))
    return 0


def _cmd_archive(args: argparse.Namespace) -> int:
    import time

    from machine.operator.config import load_config
    from machine.operator.firststart import archive_cabinet

    print(archive_cabinet(load_config(args.config), Path.cwd(), Path(args.to), args.keep_days, time.time()))
    return 0


def _cmd_ram_clear(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config
    from machine.operator.firststart import ram_clear_cabinet

    cfg = load_config(args.config)
    if not args.reason.strip():
        raise CommandError("--reason: say why, in the operator's words (it is journaled); an empty reason is refused")
    if not args.yes:
        print(f"would move {cfg.journal_path(Path.cwd())} aside and start a new journal with every meter at zero; "
              "add --yes to do it")
        return EXIT_USAGE
    print(ram_clear_cabinet(cfg, Path.cwd(), args.reason))
    return 0


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


def _cmd_config(args: argparse.Namespace) -> int:
    from machine.operator.configcmd import check_command

    return check_command(args)


def _cmd_config_apply(args: argparse.Namespace) -> int:
    from machine.operator.configcmd import apply_command

    return apply_command(args)


def _cmd_config_pin(args: argparse.Namespace) -> int:
    """Set the operator PIN in a configuration file: read twice without echo, or one line of
    standard input (``--pin-stdin``); only the ``operator_pin`` line changes."""
    import getpass

    from machine.games.rules import config_dir
    from machine.operator import pin

    path = Path(args.file) if args.file else config_dir() / "machine.yaml"
    if args.pin_stdin:
        new = sys.stdin.readline().rstrip("\r\n")
    elif not sys.stdin.isatty():  # getpass would echo, and warn over several lines
        raise CommandError("no terminal to ask the PIN on without echo: give it on one line with --pin-stdin")
    else:
        try:
            new = getpass.getpass("New operator PIN (4-8 digits): ")
            if pin.check_format(new) != getpass.getpass("The same PIN again: "):
                raise CommandError("the two PINs differ: nothing changed")
        except (EOFError, KeyboardInterrupt):
            raise CommandError("no PIN given: nothing changed") from None
    pin.check_format(new)
    try:
        pin.set_in_file(path, pin.hash_pin(new))
    except OSError as exc:
        raise CommandError(f"{exc.filename or path}: cannot write the new PIN ({exc.strerror or exc}): nothing changed") from None
    print(f"{path}: operator PIN set")
    return 0


def _auto_strategy(script: Any):
    """Auto for the script's game: the decision with the highest expected return (gamemath)."""
    from machine.gamemath.engines import auto_for
    from machine.scripts.roundscript import ScriptError, load_game

    try:
        engine = load_game(script).engine
    except ScriptError:
        engine = "blackjack"  # the script's own error is reported when it is played
    return auto_for(engine)


ROUND_SCRIPT_KEYS = ("game", "rules", "shoe", "seats", "bank", "players")  # every game's round-script keys


def _priced_game(path: str):
    from machine.scripts.roundscript import ScriptError, load_game

    script = read_script(path)
    profile = load_game(script)
    extra = sorted(str(k) for k in script if k not in ROUND_SCRIPT_KEYS)
    if extra:  # a round script of any game prices its game and rules (the README's examples); the rest is not read
        raise ScriptError(f"unknown key {extra[0]!r} (known: game, rules)")
    return profile


def _pct(x: float) -> str:
    return f"{x * 100:.5f} %"


def _cmd_rtp(args: argparse.Namespace) -> int:
    from machine.gamemath import game_rtp, prepare

    profile = _priced_game(args.script)
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        math = math_of(profile.engine)
        with working(f"cabinet rtp: pricing {profile.game}"):
            out = json.dumps(math.rtp_report(profile), indent=2) if args.json else "\n".join(math.rtp_lines(profile))
        print(out)
        return 0
    r = profile.rules
    with working(f"cabinet rtp: pricing {profile.game}"):
        prepare(r)  # Auto's tables computed and left in the cache folder, or read from it
        res = game_rtp(r)
    if args.json:
        print(json.dumps({"game": profile.game, "rules": r.to_dict(), "rtp": res.rtp, "house_edge": res.house_edge,
                          "breakdown": res.breakdown, "frequency": res.frequency}, indent=2))
        return 0
    decks = "infinite deck" if r.decks == 0 else f"{r.decks} deck{'s' if r.decks != 1 else ''}"
    print(f"{profile.title} ({profile.game}), {decks}: exact, Auto's composition-dependent play")
    print(f"RTP {_pct(res.rtp)}   house edge {_pct(res.house_edge)}")
    print("expected net per original bet, by the hand's first decision:")
    for k, v in res.breakdown.items():
        freq = res.frequency.get(k)
        if v == 0 and not freq:
            continue  # a choice this game never offers or Auto never takes
        print(f"  {k:<14}{v * 100:+.5f} %" + (f"   (taken in {freq * 100:.3f} % of rounds)" if freq is not None else ""))
    return 0


def _cmd_strategy(args: argparse.Namespace) -> int:
    from machine.gamemath.chart import basic_strategy, chart_rtp

    profile = _priced_game(args.script)
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        with working(f"cabinet strategy: {profile.game}"):
            lines = math_of(profile.engine).strategy_lines(profile)
        print("\n".join(lines))
        return 0
    with working(f"cabinet strategy: {profile.game}"):
        chart = basic_strategy(profile.rules)
        res = chart_rtp(profile.rules, chart)
    print(f"Basic strategy (total-dependent) for {profile.title}: H hit, S stand, D double (else hit), "
          "Ds double (else stand), P split, R surrender")
    print(chart.text())
    print(f"RTP with this chart {_pct(res.rtp)}   house edge {_pct(res.house_edge)}")
    return 0


def _cmd_simulate(args: argparse.Namespace) -> int:
    from machine.devtools.progress import RateProgress
    from machine.gamemath import engines

    profile = _priced_game(args.script)
    if profile.rules.decks == 0:
        raise CommandError("an infinite deck can be priced (cabinet rtp) but not dealt")
    if args.rounds < 2:  # --seats is checked by its argparse type
        raise CommandError("--rounds must be at least 2 and --seats 1 to 7")
    most = min(4 * (os.cpu_count() or 1), args.rounds)
    if args.cluster is None and args.workers is not None and args.workers > most:
        raise CommandError(f"--workers {args.workers}: at most {most} here (4 per core, and no more than --rounds)")
    blackjack = profile.engine == "blackjack"
    if args.cluster is not None and args.fast and not blackjack:
        raise CommandError(f"--cluster with --fast plays the blackjack family's fast path only, not {profile.engine}'s")
    math: Any = None if blackjack else engines.math_of(profile.engine)
    exact_known = blackjack or engines.has_exact_rtp(profile.engine)
    # Auto's tables from the cache folder (computed and left there when absent), before the first
    # round (blackjack's fast path keeps its own answers there: fastsim.tables); the exact figure
    # from the cache too, computed only with --exact.
    if not (blackjack and args.fast):
        with working(f"cabinet simulate: Auto's tables of {profile.game}"):
            engines.prepare(profile)
    exact: float | None = None
    if exact_known:
        if args.exact:
            with working(f"cabinet simulate: the exact RTP of {profile.game}"):
                exact = engines.returns(profile)[0]
        elif (cached := engines.cached_returns(profile)) is not None:
            exact = cached[0]
    progress = RateProgress("cabinet simulate")
    if args.cluster is None:
        t = _simulated(profile, args, None, progress)
    else:
        from machine.gamemath.cluster import ClusterError, open_cluster

        try:
            with open_cluster(args.cluster, args.workers) as cluster:
                t = _simulated(profile, args, cluster, progress)
        except ClusterError as exc:
            raise CommandError(str(exc)) from None
    if not exact_known:  # eenendertigen: the return depends on the computer players' play
        print(f"simulated RTP {_pct(t.rtp)} +/- {t.half_width * 100:.5f} % (95 %) over {t.rounds} rounds: "
              f"{math.SIMULATED_AS}")
        return 0
    print(f"simulated RTP {_pct(t.rtp)} +/- {t.half_width * 100:.5f} % (95 %) over {t.rounds} rounds x {args.seats} seat(s)")
    if exact is None:
        print("exact RTP     not computed: add --exact to compute it (once: later runs read it from the cache)")
        return 0
    lo, hi = t.rtp - t.half_width, t.rtp + t.half_width
    inside = "inside" if lo <= exact <= hi else "OUTSIDE"
    print(f"exact RTP     {_pct(exact)}: {inside} the interval")
    return 0


def _simulated(profile: Any, args: argparse.Namespace, cluster: Any, progress: Any) -> Any:
    """The Tally of ``cabinet simulate``: the engine or the fast path, here or on ``cluster``."""
    workers = None if cluster is not None else args.workers
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        math = math_of(profile.engine)
        if args.fast:
            return math.fast_simulate(profile.rules, args.rounds, args.seed, workers, seats=args.seats, progress=progress)
        return math.simulate(profile.rules, args.rounds, args.seats, args.seed, workers, progress=progress, cluster=cluster)
    if args.fast:
        from machine.gamemath.fastsim import fast_simulate

        return fast_simulate(profile.rules, args.rounds, args.seed, workers, seats=args.seats, progress=progress,
                             cluster=cluster)
    from machine.gamemath.simulate import simulate

    return simulate(profile.rules, args.rounds, args.seats, args.seed, workers, progress=progress, cluster=cluster)


def _version() -> str:
    from machine.operator.identity import check_manifest, software_id

    problems = check_manifest()
    state = "matches the release manifest" if not problems else f"does NOT match the release manifest ({problems[0]})"
    return f"cabinet {__version__}\nsoftware identity (SHA-256): {software_id()}\n{state}"


def _cmd_devices_scan(args: argparse.Namespace) -> int:
    from hardware.cctalk.codec import Checksum
    from hardware.cctalk.host import CctalkBus
    from hardware.cctalk.scan import scan

    url, echo, checksum = args.bus, args.echo, args.checksum
    if url is None or echo is None or checksum is None:
        from machine.operator.config import load_config

        devices = load_config(args.config).devices
        url = devices.bus if url is None else url
        echo = devices.bus_echo if echo is None else echo
        checksum = devices.bus_checksum if checksum is None else checksum
    if url == "sim":
        raise CommandError("the configuration's bus is 'sim': name the link to scan with --bus URL")
    timeout = args.timeout_ms / 1000
    try:
        with CctalkBus.open(url, echo=echo, checksum=Checksum(checksum), timeout=max(timeout, 0.2)) as bus:
            found = scan(bus, method=args.method, timeout=timeout, wait=args.poll_wait_ms / 1000)
    except OSError as exc:  # TransportError: the link could not be opened, or went away
        raise CommandError(str(exc)) from None
    if args.json:
        print(json.dumps([d.as_dict() for d in found], indent=2))
    else:
        for device in found:
            print(device.line())
    if not found:
        print(f"cabinet devices scan: no ccTalk device answered on {url}", file=sys.stderr)
        return 1
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse's parser, refusing a bad command line in ONE line (no usage block above it:
    ``cabinet <command> --help`` gives that); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cabinet", description="Random Blackjack cabinet firmware and tools.")
    p.add_argument("--version", action="store_true", help="the version and the software identity (SHA-256)")
    sub = p.add_subparsers(dest="command", required=False, metavar="COMMAND")
    r = sub.add_parser("round", help="play one scripted round and print the result as JSON")
    r.add_argument("script", help="a YAML or JSON round script, or - for standard input")
    r.set_defaults(func=_cmd_round)
    rtp = sub.add_parser("rtp", help="the exact RTP and house edge of a game and rules, with Auto")
    rtp.add_argument("script", help="YAML/JSON naming a game and optional rules overrides, or -")
    rtp.add_argument("--json", action="store_true")
    rtp.set_defaults(func=_cmd_rtp)
    st = sub.add_parser("strategy", help="the total-dependent basic strategy chart and its RTP")
    st.add_argument("script")
    st.set_defaults(func=_cmd_strategy)
    sim = sub.add_parser("simulate", help="play many rounds on the engine with Auto; RTP with a 95 %% interval")
    sim.add_argument("script")
    sim.add_argument("--rounds", type=count(), required=True)
    sim.add_argument("--seats", type=count(1, 7), default=1)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--workers", type=count(1, 1024),
                     help="processes, or threads with --fast (default: every core); with --cluster, the worker "
                     "processes 'local' starts, or how many of the scheduler's workers to use (default: all)")
    sim.add_argument("--fast", action="store_true",
                     help="the compiled fast path (needs the 'fast' extra: numba), checked against the engine in the tests")
    sim.add_argument("--cluster", metavar="ADDRESS",
                     help="run the seeded chunks on Dask distributed (the 'cluster' extra): a scheduler's tcp://host:8786, "
                     "or 'local' to start --workers worker processes here (docs/cluster.md)")
    sim.add_argument("--exact", action="store_true",
                     help="compute the exact RTP beside the result when the cache folder does not hold it yet")
    sim.set_defaults(func=_cmd_simulate)
    s = sub.add_parser("session", help="play one seat's money from a script and print the meters after every step")
    s.add_argument("script", help="a YAML or JSON session script, or - for standard input")
    s.set_defaults(func=_cmd_session)
    tour = sub.add_parser("tournament", help="eenendertigen tournaments: the decks a published seed deals")
    tour_sub = tour.add_subparsers(dest="tournament_command", required=True)
    deals = tour_sub.add_parser("deals", help="every deck of a tournament, derived from its seed")
    deals.add_argument("--seed", required=True, type=_published_seed,
                       help="the tournament's seed, as published when it closed (64 hex digits)")
    deals.add_argument("--variant", choices=("classic", "modern"), required=True)
    deals.add_argument("--rounds", type=count(), default=16, help="rounds to derive (default 16)")
    deals.add_argument("--json", action="store_true")
    deals.set_defaults(func=_cmd_tournament_deals)
    c = sub.add_parser("crashtest", help="kill the cabinet at random instants and compare with an uninterrupted run")
    c.add_argument("--kills", type=count(), default=200, help="kill points to take (default 200)")
    c.add_argument("--seed", type=int, default=1)
    c.set_defaults(func=_cmd_crashtest)
    a = sub.add_parser("audit", help="meters, game recall and the event log from the journal (read-only)")
    a.add_argument("what", nargs="?", choices=("all", "meters", "recall", "events", "tournaments", "verify"),
                   default="all", help="what to show; verify proves the journal's hash chain unbroken; tournaments: "
                   "each eenendertigen tournament's ranking and round scores (its seed once closed)")
    a.add_argument("--data", default="data", help="the cabinet's data directory, or a journal or archive file (default: data)")
    a.add_argument("--key", default=os.environ.get("CABINET_KEY", DEFAULT_KEY_FILE),
                   help=f"the cabinet's machine key (default: $CABINET_KEY, else {DEFAULT_KEY_FILE})")
    a.add_argument("--seat", type=count(1, 99), help="one seat only")
    a.add_argument("--games", type=count(), default=100, help="recall: last N games per seat (default 100)")
    form = a.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="JSON for a program instead of text")
    form.add_argument("--csv", action="store_true", help="CSV for a spreadsheet instead of text (one table: not all or verify)")
    a.set_defaults(func=_cmd_audit)
    run = sub.add_parser("run", help="run the cabinet (devices set to sim are simulated over real links)")
    run.add_argument("--config", help="the machine configuration (default: config/machine.yaml)")
    run.add_argument("--headless", action="store_true", help="no window: play --rounds rounds on every seat and check")
    run.add_argument("--rounds", type=count(), default=20, help="with --headless: rounds to play (default 20)")
    run.add_argument("--seed", type=int, default=1, help="with --headless: the robot players' seed")
    run.add_argument("--game", help="the game to play (one of games_enabled; default: the configuration's game)")
    run.add_argument("--data", help="the data folder (default: the configuration's data_dir; with --headless: a "
                     "temporary one, or this one, initialised when new, to go on from one soak to the next)")
    run.add_argument("--init", action="store_true",
                     help="a first start where there is no journal and no head store knows one (tools/run passes it)")
    run.set_defaults(func=_cmd_run)
    ini = sub.add_parser("init", help="the first start: the machine key (if none) and a new journal")
    ini.add_argument("--config", help="the machine configuration (default: config/machine.yaml)")
    ini.set_defaults(func=_cmd_init)
    ar = sub.add_parser("archive", help="move records older than the retention into a checked archive file "
                        "(the cabinet stopped; the last 100 games of every seat and every meter stay)")
    ar.add_argument("--to", required=True, help="the archive file to write (never over an existing one)")
    ar.add_argument("--keep-days", type=count(0, 36500), default=365, help="records younger than this stay (default 365)")
    ar.add_argument("--config", help="the machine configuration (default: config/machine.yaml)")
    ar.set_defaults(func=_cmd_archive)
    rc = sub.add_parser("ram-clear", help="start a new journal after a memory error (the old one is kept aside)")
    rc.add_argument("--config", help="the machine configuration (default: config/machine.yaml)")
    rc.add_argument("--reason", required=True, help="why, in the operator's words (journaled)")
    rc.add_argument("--yes", action="store_true", help="do it (without: say what it would do)")
    rc.set_defaults(func=_cmd_ram_clear)
    cfg = sub.add_parser("config", help="check a machine configuration file without starting anything, or set its PIN")
    cfg_sub = cfg.add_subparsers(dest="config_command", required=True)
    chk = cfg_sub.add_parser("check")
    chk.add_argument("file")
    chk.set_defaults(func=_cmd_config)
    pn = cfg_sub.add_parser("pin", help="set the operator PIN (4-8 digits) in FILE, changing only its operator_pin line")
    pn.add_argument("file", nargs="?", help="the machine configuration (default: config/machine.yaml)")
    pn.add_argument("--pin-stdin", action="store_true", help="read the new PIN from one line of standard input")
    pn.set_defaults(func=_cmd_config_pin)
    ap = cfg_sub.add_parser("apply", help="put FILE's money settings and rules in force on its journal (the cabinet "
                            "stopped, the operator PIN; every change journaled with its old and new value)")
    ap.add_argument("file")
    ap.add_argument("--pin-stdin", action="store_true", help="read the operator PIN from one line of standard input")
    ap.set_defaults(func=_cmd_config_apply)
    sc = sub.add_parser("screenshots", help="render every main and menu screen headless into DIR as PNG files")
    sc.add_argument("dir", help="English (or the one --language) into DIR, each other language into DIR/<lang>/")
    sc.add_argument("--language", help="only this language (en, nl, nb, ru), straight into DIR")
    sc.add_argument("--game", help="only this game's screens (default: every enabled game's), and the menu's")
    sc.add_argument("--config", help="the configuration whose games_enabled to render (default: config/machine.yaml)")
    sc.add_argument("--size", help="WIDTHxHEIGHT of each picture (default 1920x1080)")
    sc.set_defaults(func=_cmd_screenshots)
    dev = sub.add_parser("devices", help="the real devices: find what answers on a ccTalk bus")
    dev_sub = dev.add_subparsers(dest="devices_command", required=True)
    ds = dev_sub.add_parser("scan", help="list every device on a ccTalk bus: address, category, maker, product, serial")
    ds.add_argument("--bus", help="the bus's serial port or URL (default: devices.bus in the configuration)")
    ds.add_argument("--config", help="the machine configuration (default: config/machine.yaml)")
    ds.add_argument("--json", action="store_true", help="a JSON list instead of one line per device")
    ds.add_argument("--method", choices=("auto", "address", "simple"), default="auto",
                    help="address: poll 253 only; simple: 254 to every address; auto (default): 253, then 254 if nobody answered")
    ds.add_argument("--timeout-ms", type=count(1, 5000), default=50, help="the 254 sweep's wait at each address (default 50)")
    ds.add_argument("--poll-wait-ms", type=count(1, 5000), default=1500, help="how long to listen after the 253 (default 1500)")
    ds.add_argument("--echo", action=argparse.BooleanOptionalAction, help="the link echoes the host (default: bus_echo)")
    ds.add_argument("--checksum", choices=("sum8", "crc16"), help="default: bus_checksum in the configuration")
    ds.set_defaults(func=_cmd_devices_scan)
    b = sub.add_parser("bench", help="print benchmark figures (all, or those named)")
    b.add_argument("names", nargs="*", help="journal, frames, press, payout, ... (default: all)")
    b.add_argument("--coins", type=count(), help="payout: coins to pay (default 50)")
    b.add_argument("--rounds", type=count(), help="the benchmarks that play rounds: how many (cluster: default 10**9)")
    b.add_argument("--cluster", metavar="ADDRESS", help="cluster: a Dask scheduler's tcp://host:8786 (default: local)")
    b.set_defaults(func=_cmd_bench)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """The command; a reader that stops early (``| head``) ends it quietly with status 0."""
    try:
        try:
            status = _main(argv)
        finally:  # --help and argparse's refusals leave through SystemExit: flush those too
            sys.stdout.flush()  # here, not at exit, where a closed pipe would print "Exception ignored"
    except BrokenPipeError:  # the reader stopped early: not an error of ours
        _drop_stdout()
        return 0
    return status


def _drop_stdout() -> None:
    """Point standard output at /dev/null so that Python's flush at exit writes nowhere."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no file descriptor (captured output in a test): nothing to flush
        pass


def _main(argv: Sequence[str] | None = None) -> int:
    from machine.core.cabinet import CabinetLocked, MemoryLocked
    from machine.money.journal import JournalError  # a state row failing its checksum, a file that is no journal
    from machine.money.memory import UntrustedMemory

    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(_version())
        return 0
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except UntrustedMemory as exc:
        print(f"memory error: {exc}", file=sys.stderr)
        return EXIT_MEMORY
    except CabinetLocked as exc:  # "memory error: ..." (3), or "software identity: ..." (2)
        print(exc, file=sys.stderr)
        return EXIT_MEMORY if isinstance(exc, MemoryLocked) else EXIT_USAGE
    except (ValueError, CommandError, JournalError) as exc:
        # ConfigError lists every problem, one per line
        # ScriptError, RulesError, YamlError and CardError are all ValueErrors with a full line.
        print(f"cabinet {args.command}: {exc}", file=sys.stderr)
        return exc.status if isinstance(exc, CommandError) else EXIT_USAGE
