"""``cabinet audit recall --steps`` and ``--png DIR``: each game of a seat step by step, as text or pictures.

Owns: checking these options (one line for a bad combination), reading each seat's last games
with their rounds' events (``machine/money/recalled.py``), and printing them step by step in
the chosen language (``machine/operator/recall.py``) or writing one PNG per game
(``machine/display/recallpic.py``): ``seat<N>-game<K>.png``, K = 1 the newest. Never writes to
the journal; never writes over a file that is no picture of its own.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from machine.cli.common import CommandError

PICTURE_GAMES = 10  # --steps / --png: the last game and the nine before it, unless --games says otherwise


def check_recall_options(args: argparse.Namespace) -> None:
    """One line for options that do not go together."""
    wants = [f for f, v in (("--steps", args.steps), ("--png", args.png)) if v]
    if not wants:
        return
    if args.what != "recall":
        raise CommandError(f"{wants[0]}: only with recall (cabinet audit recall {wants[0]} ...)")
    if args.json or args.csv:
        raise CommandError(f"{wants[0]} draws the games for people; --json and --csv give the records")
    if args.png is not None and Path(args.png).exists() and not Path(args.png).is_dir():
        raise CommandError(f"--png {args.png}: a file is there, not a folder")


def recall_pictures(args: argparse.Namespace, path: Path, key: bytes) -> int:
    """Print the games step by step (``--steps``) and/or write them as PNGs (``--png``); status
    1 when the journal shows a problem."""
    from machine.i18n import Words
    from machine.money.journal import Journal
    from machine.money.recalled import recalled
    from machine.operator.recall import recall_of, recall_text
    from machine.operator.reports import utc

    _ = Words(args.language)
    games = PICTURE_GAMES if args.games is None else args.games
    j = Journal(path, key, readonly=True)
    try:
        cab = j.get("cabinet")
        seats = list(range(1, (cab or {}).get("seats", 0) + 1))
        if args.seat is not None and args.seat not in seats:
            raise CommandError(f"--seat {args.seat}: no such seat (the cabinet has seats 1 to {len(seats)})")
        since = j.last_of("ram_clear")
        chosen = {n: recalled(j, n, games, since) for n in ([args.seat] if args.seat else seats)}
        problems = j.verify()
    finally:
        j.close()
    out = Path(args.png) if args.png is not None else None
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise CommandError(f"--png {out}: cannot make the folder ({exc.strerror or exc})") from None
    for n, records in chosen.items():
        newest_first = records[::-1]
        if args.steps or out is None or not newest_first:  # --png alone: a seat with no game still says so
            print(_("Seat {seat}: last {count} games, the newest first", seat=n, count=len(newest_first)))
        for k, g in enumerate(newest_first, 1):
            rc = recall_of(g, _, k, len(newest_first), None, utc(g["at"]) if g.get("at") else "")
            if args.steps:
                print("\n".join(recall_text(rc)))
            if out is not None:
                _png(rc, out / f"seat{n}-game{k}.png")
    for p in problems:
        print(f"JOURNAL PROBLEM (memory error): {p}")
    return 1 if problems else 0


def _png(rc: Any, to: Path) -> None:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # only the pictures' names on standard output
    import pygame

    from machine.display.recallpic import recall_png

    try:
        recall_png(rc, to)
    except (OSError, pygame.error) as exc:
        raise CommandError(f"{to}: cannot write the picture ({exc})") from None
    print(to)
