"""The table of the ``cabinet`` subcommands: name, help line, arguments, handler.

Owns: every command's name, its help and its arguments, in the order ``cabinet --help`` lists
them, and ``build_parser``, which builds argparse's parser from the table. The handlers live
per area (``games``, ``audit``, ``config``, ``run``, ``tournament``, ``devices``, ``harness``);
a new command is one row here and its handler there, named ``"module.function"`` (a module of
``machine/cli``), imported only when its command runs: building the parser imports no
handler's module, so that ``cabinet rtp`` never loads the journal, SQLite or another game.
Never does a command's work.
"""

from __future__ import annotations

import argparse

from machine.cli.common import Command, OneOf, Parser, arg, count
from machine.cli.tournament import published_seed
from machine.i18n import LANGUAGES
from machine.money.defaults import DEFAULT_KEY_FILE

CONFIG = arg("--config", help="the machine configuration (default: config/machine.yaml)")

GAMES = (
    Command("round", "play one scripted round and print the result as JSON",
            (arg("script", help="a YAML or JSON round script, or - for standard input"),), "games.round_command"),
    Command("rtp", "the exact RTP and house edge of a game and rules, with Auto",
            (arg("script", help="YAML/JSON naming a game and optional rules overrides, or -"),
             arg("--json", action="store_true")), "games.rtp_command"),
    Command("strategy", "the total-dependent basic strategy chart and its RTP", (arg("script"),),
            "games.strategy_command"),
    Command("simulate", "play many rounds on the engine with Auto; RTP with a 95 %% interval", (
        arg("script"),
        arg("--rounds", type=count(), required=True),
        arg("--seats", type=count(1, 7), default=1),
        arg("--seed", type=int, default=1),
        arg("--workers", type=count(1, 1024),
            help="processes, or threads with --fast (default: every core); with --cluster, the worker "
            "processes 'local' starts, or how many of the scheduler's workers to use (default: all)"),
        arg("--fast", action="store_true",
            help="the compiled fast path (needs the 'fast' extra: numba), checked against the engine in the tests"),
        arg("--cluster", metavar="ADDRESS",
            help="run the seeded chunks on Dask distributed (the 'cluster' extra): a scheduler's tcp://host:8786, "
            "or 'local' to start --workers worker processes here (docs/cluster.md)"),
        arg("--exact", action="store_true",
            help="compute the exact RTP beside the result when the cache folder does not hold it yet"),
    ), "games.simulate_command"),
    Command("session", "play one seat's money from a script and print the meters after every step",
            (arg("script", help="a YAML or JSON session script, or - for standard input"),), "games.session_command"),
    Command("tournament", "eenendertigen tournaments: the decks a published seed deals", dest="tournament_command",
            sub=(Command("deals", "every deck of a tournament, derived from its seed", (
                arg("--seed", required=True, type=published_seed,
                    help="the tournament's seed, as published when it closed (64 hex digits)"),
                arg("--variant", choices=("classic", "modern"), required=True),
                arg("--rounds", type=count(), default=16, help="rounds to derive (default 16)"),
                arg("--json", action="store_true"),
            ), "tournament.deals_command"),)),
)

CRASHTEST = Command("crashtest", "kill the cabinet at random instants and compare with an uninterrupted run", (
    arg("--kills", type=count(), default=200, help="kill points to take (default 200)"),
    arg("--seed", type=int, default=1),
), "harness.crashtest_command")

AUDIT = Command("audit", "meters, game recall and the event log from the journal (read-only)", (
    arg("what", nargs="?", choices=("all", "meters", "recall", "events", "tournaments", "verify"),
        default="all", help="what to show; verify proves the journal's hash chain unbroken; tournaments: "
        "each eenendertigen tournament's ranking and round scores (its seed once closed)"),
    arg("--data", default="data", help="the cabinet's data directory, or a journal or archive file (default: data)"),
    arg("--key", help=f"the cabinet's machine key (default: $CABINET_KEY, else {DEFAULT_KEY_FILE})"),
    arg("--seat", type=count(1, 99), help="one seat only"),
    arg("--games", type=count(), help="recall: last N games per seat (default 100; --steps, --png: 10)"),
    arg("--steps", action="store_true", help="recall: every game step by step, in words, with who decided"),
    arg("--png", metavar="DIR", help="recall: each game as a picture, DIR/seat<N>-game<K>.png (K=1: the newest)"),
    arg("--language", choices=LANGUAGES, default="en", help="--steps, --png: the words' language (default en)"),
    OneOf((arg("--json", action="store_true", help="JSON for a program instead of text"),
           arg("--csv", action="store_true", help="CSV for a spreadsheet instead of text (one table: not all or verify)"))),
), "audit.audit_command")

CABINET = (
    Command("run", "run the cabinet (devices set to sim are simulated over real links)", (
        CONFIG,
        arg("--headless", action="store_true", help="no window: play --rounds rounds on every seat and check"),
        arg("--rounds", type=count(), default=20, help="with --headless: rounds to play (default 20)"),
        arg("--seed", type=int, default=1, help="with --headless: the robot players' seed"),
        arg("--game", help="the game to play (one of games_enabled; default: the configuration's game)"),
        arg("--data", help="the data folder (default: the configuration's data_dir; with --headless: a "
            "temporary one, or this one, initialised when new, to go on from one soak to the next)"),
        arg("--init", action="store_true",
            help="a first start where there is no journal and no head store knows one (tools/run passes it)"),
        arg("--stay", action="store_true", help="with --headless: after the rounds stay up idle (answering SAS) "
            "until SIGTERM, then check the accounts"),
    ), "run.run_command"),
    Command("init", "the first start: the machine key (if none) and a new journal", (CONFIG,), "run.init_command"),
    Command("archive", "move records older than the retention into a checked archive file "
            "(the cabinet stopped; the last 100 games of every seat and every meter stay)", (
        arg("--to", required=True, help="the archive file to write (never over an existing one)"),
        arg("--keep-days", type=count(0, 36500), default=365, help="records younger than this stay (default 365)"),
        CONFIG,
    ), "run.archive_command"),
    Command("ram-clear", "start a new journal after a memory error (the old one is kept aside)", (
        CONFIG,
        arg("--reason", required=True, help="why, in the operator's words (journaled)"),
        arg("--yes", action="store_true", help="do it (without: say what it would do)"),
    ), "run.ram_clear_command"),
    Command("config", "check a machine configuration file without starting anything, or set its PIN",
            dest="config_command", sub=(
                Command("check", None, (arg("file"),), "config.check_command"),
                Command("pin", "set the operator PIN (4-8 digits) in FILE, changing only its operator_pin line", (
                    arg("file", nargs="?", help="the machine configuration (default: config/machine.yaml)"),
                    arg("--pin-stdin", action="store_true", help="read the new PIN from one line of standard input"),
                ), "config.pin_command"),
                Command("apply", "put FILE's money settings and rules in force on its journal (the cabinet stopped, the "
                        "operator PIN; every change journaled with its old and new value)", (
                    arg("file"),
                    arg("--pin-stdin", action="store_true", help="read the operator PIN from one line of standard input"),
                ), "config.apply_command"),
            )),
)

SCREENSHOTS = Command("screenshots", "render every main and menu screen headless into DIR as PNG files", (
    arg("dir", help="English (or the one --language) into DIR, each other language into DIR/<lang>/"),
    arg("--language", help="only this language (en, nl, nb, ru), straight into DIR"),
    arg("--game", help="only this game's screens (default: every enabled game's), and the menu's"),
    arg("--config", help="the configuration whose games_enabled to render (default: config/machine.yaml)"),
    arg("--size", help="WIDTHxHEIGHT of each picture (default 1920x1080)"),
), "harness.screenshots_command")

DEVICES = Command("devices", "the real devices: find what answers on a ccTalk bus", dest="devices_command", sub=(
    Command("scan", "list every device on a ccTalk bus: address, category, maker, product, serial", (
        arg("--bus", help="the bus's serial port or URL (default: devices.bus in the configuration)"),
        CONFIG,
        arg("--json", action="store_true", help="a JSON list instead of one line per device"),
        arg("--method", choices=("auto", "address", "simple"), default="auto",
            help="address: poll 253 only; simple: 254 to every address; auto (default): 253, then 254 if nobody answered"),
        arg("--timeout-ms", type=count(1, 5000), default=50, help="the 254 sweep's wait at each address (default 50)"),
        arg("--poll-wait-ms", type=count(1, 5000), default=1500, help="how long to listen after the 253 (default 1500)"),
        arg("--echo", action=argparse.BooleanOptionalAction, help="the link echoes the host (default: bus_echo)"),
        arg("--checksum", choices=("sum8", "crc16"), help="default: bus_checksum in the configuration"),
    ), "devices.scan_command"),
))

PANEL = Command("panel", "the button panel: pair it with this cabinet (at installation)", dest="panel_command", sub=(
    Command("pair", "give the panel a new link key (its main door open, its operator key on)", (
        arg("--config", help="the machine configuration (default: config/machine.yaml)"),
        arg("--panel", help="the panel's serial port or URL (default: devices.panel in the configuration)"),
    ), "devices.pair_command"),
))

SAS = Command("sas", "SAS: the project's own host, to poll a cabinet's SAS link", dest="sas_command", sub=(
    Command("poll", "poll one SAS address and print its meters and events in plain lines", (
        arg("port", help="the host's end of the link: a serial port, a pty path or socket://HOST:PORT"),
        arg("--address", type=count(1, 127), default=1, help="the machine's SAS address (default 1)"),
        arg("--meters", action="store_true", help="read the meters (one 'meter NAME VALUE' line each)"),
        arg("--events", type=float, metavar="SECONDS", help="general polls for SECONDS, a line per exception"),
        arg("--timeout-ms", type=count(1, 10000), default=500, help="the wait for each reply (default 500)"),
    ), "sas.poll_command"),
    Command("transfer", "one AFT transfer to or from a seat; prints its status once no longer pending", (
        arg("port", help="the host's end of the link: a serial port, a pty path or socket://HOST:PORT"),
        arg("--address", type=count(1, 127), default=1, help="the machine's SAS address (default 1)"),
        OneOf((arg("--to-seat", type=count(1), metavar="CENTS", help="move CENTS to the seat's credit"),
               arg("--from-seat", type=count(1), metavar="CENTS", help="move up to CENTS from the seat to the host"))),
        arg("--id", required=True, help="the transaction id (1 to 20 ASCII characters; a repeat is answered, not redone)"),
        arg("--asset", type=count(1, 0xFFFFFFFF), required=True, help="the machine's asset number"),
        arg("--key", help="the registration key, 40 hex digits (default: none, registration not required)"),
        arg("--partial", action="store_true", help="a partial transfer is allowed"),
        arg("--wait", type=float, default=5.0, help="seconds to wait while the transfer is pending (default 5)"),
        arg("--timeout-ms", type=count(1, 10000), default=500, help="the wait for each reply (default 500)"),
    ), "sas.transfer_command"),
))

BENCH = Command("bench", "print benchmark figures (all, or those named)", (
    arg("names", nargs="*", help="journal, frames, press, payout, ... (default: all)"),
    arg("--coins", type=count(), help="payout: coins to pay (default 50)"),
    arg("--rounds", type=count(), help="the benchmarks that play rounds: how many (cluster: default 10**9)"),
    arg("--cluster", metavar="ADDRESS", help="cluster: a Dask scheduler's tcp://host:8786 (default: local)"),
), "harness.bench_command")

# every command, in the order ``cabinet --help`` lists them
COMMANDS: tuple[Command, ...] = (*GAMES, CRASHTEST, AUDIT, *CABINET, SCREENSHOTS, DEVICES, PANEL, SAS, BENCH)


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="cabinet", description="Random Blackjack cabinet firmware and tools.")
    p.add_argument("--version", action="store_true", help="the version and the software identity (SHA-256)")
    sub = p.add_subparsers(dest="command", required=False, metavar="COMMAND")
    for command in COMMANDS:
        command.add_to(sub)
    return p
