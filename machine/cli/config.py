"""The ``config`` commands: ``config check``, ``config pin`` and ``config apply``.

Owns: checking a machine configuration without starting anything (and the advice on a game
whose return favours the players), and setting the operator PIN in a file. The checks
themselves live in ``machine/operator/config.py``, the PIN's format and hash in
``machine/operator/pin.py``. Never starts a device or opens a journal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from machine.cli.common import CommandError


def check_command(args: argparse.Namespace) -> int:
    from machine.operator.configcmd import check_command as check

    return check(args)


def apply_command(args: argparse.Namespace) -> int:
    from machine.operator.configcmd import apply_command as apply

    return apply(args)


def pin_command(args: argparse.Namespace) -> int:
    """Set the operator PIN in a configuration file: read twice without echo, or one line of
    standard input (``--pin-stdin``); only the ``operator_pin`` line changes."""
    import getpass

    from machine.operator import pin
    from machine.profiles import config_dir

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
