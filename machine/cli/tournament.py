"""The ``tournament`` commands: ``tournament deals``, the decks a published seed deals.

Owns: printing eenendertigen's tournament decks, round by round, as text or JSON. The decks
are derived in ``machine/games/eenendertigen/deals.py``. Never opens a journal.
"""

from __future__ import annotations

import argparse
import json
import re


def published_seed(text: str) -> str:
    """An argparse type: a tournament seed in the form the cabinet publishes (64 hex digits)."""
    if not re.fullmatch(r"[0-9a-f]{64}", text):
        raise argparse.ArgumentTypeError(f"{text[:80]!r} is not a published tournament seed (64 hex digits, 0-9 a-f)")
    return text


def deals_command(args: argparse.Namespace) -> int:
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
