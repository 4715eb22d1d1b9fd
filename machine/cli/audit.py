"""The ``audit`` command: meters, game recall, the event log and the tournaments from a journal.

Owns: finding the journal (a data folder, a journal or an archive file), the machine key, and
printing the report as text, JSON or CSV, with exit status 1 when the journal shows a
problem. The reading and the checks live in ``machine/money/audit.py``. Never writes to the
journal (the audit is read-only).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from machine.cli.auditrecall import check_recall_options, recall_pictures
from machine.cli.common import CommandError
from machine.money.defaults import DEFAULT_KEY_FILE


def default_key() -> str:
    """The machine key's file when ``--key`` is not given: ``$CABINET_KEY``, else the default."""
    return os.environ.get("CABINET_KEY", DEFAULT_KEY_FILE)


def audit_command(args: argparse.Namespace) -> int:
    import sqlite3

    from machine.money.journal import JournalError
    from machine.money.memory import UntrustedMemory, load_key

    path = Path(args.data)
    if path.is_dir() or not path.exists():  # a data folder; a file: a journal or an archive itself
        path = path / "journal.sqlite"
    if not path.exists():
        raise CommandError(f"{path}: no journal here (is --data the cabinet's data directory?)")
    check_recall_options(args)
    if args.csv and args.what == "verify":
        raise CommandError("verify --csv: the check is one verdict, not a table; ask verify --json")
    try:
        key = load_key(default_key() if args.key is None else args.key)
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
    if args.steps or args.png is not None:
        return recall_pictures(args, path, key)
    if args.what == "tournaments":
        from machine.operator.reports import gather_tournaments, tournaments_csv, tournaments_text

        tours = gather_tournaments(path, key)
        print(tournaments_csv(tours) if args.csv else json.dumps(tours, indent=2) if args.json else tournaments_text(tours),
              end="" if args.csv else "\n")
        return 1 if tours["problems"] else 0
    report = gather(path, key, seat=args.seat, games=100 if args.games is None else args.games)
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
