"""The command line's one door into the development harness (``machine/devtools``).

Owns: the commands that exist for development only — ``bench``, ``crashtest``, ``screenshots``
— and the two ways ``cabinet run`` reaches the simulators when the configuration asks for them
(``devices: sim``: the simulated devices over real links; ``--headless``: robots playing through
them). No other module of the product imports the harness (``tests/test_layers.py``); a
cabinet driving real devices never comes here.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from machine.cli.common import CommandError


def bench_command(args: argparse.Namespace) -> int:
    from machine.devtools.bench import BENCHES, run

    unknown = [n for n in args.names if n not in BENCHES]
    if unknown:
        raise CommandError(f"no benchmark {unknown[0]!r} (known: {', '.join(BENCHES)})")
    return run(args.names, coins=args.coins, rounds=args.rounds, cluster=args.cluster)


def crashtest_command(args: argparse.Namespace) -> int:
    from machine.devtools.crashtest import main as crash_main

    return crash_main(args.kills, args.seed)


def screenshots_command(args: argparse.Namespace) -> int:
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


def soak(cfg: Any, rounds: int, seed: int, data: Path | None, stay: bool = False) -> int:
    """``cabinet run --headless``: robot players on the simulated devices, then the audit
    (``stay``: idle after the rounds until SIGTERM, then the audit)."""
    from machine.devtools.soak import soak as soak_run

    return soak_run(cfg, Path.cwd(), rounds=rounds, seed=seed, data=data, stay=stay)


def simulated_cabinet(cfg: Any, first_start: bool = False) -> Any:
    """The cabinet app on the simulators the configuration names (``devices: sim``);
    ``first_start``: ``run --init``."""
    from machine.devtools.harness import SimulatedCabinet  # development only: the simulators

    return SimulatedCabinet(cfg, Path.cwd(), first_start=first_start)
