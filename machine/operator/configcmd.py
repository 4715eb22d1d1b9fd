"""The ``cabinet config`` subcommands of the operator's settings: ``apply`` (and ``check``'s returns).

Owns: reading the operator PIN for ``config apply`` (without echo on a terminal, or one line of
standard input with ``--pin-stdin``) and printing what was applied. Never changes a setting
itself: machine/operator/applying.py does, in one journaled transaction.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path

from machine.operator.applying import ApplyRefused, apply_configuration
from machine.operator.config import load_config


def read_pin(from_stdin: bool) -> str:
    """The operator PIN: one line of standard input, or asked without echo on the terminal."""
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    if not sys.stdin.isatty():  # getpass would echo, and warn over several lines
        raise ApplyRefused("no terminal to ask the PIN on without echo: give it on one line with --pin-stdin")
    try:
        return getpass.getpass("Operator PIN: ")
    except (EOFError, KeyboardInterrupt):
        raise ApplyRefused("no PIN given: nothing changed") from None


def apply_command(args: argparse.Namespace) -> int:
    """``cabinet config apply FILE``: the configuration's settings put in force on its journal."""
    cfg = load_config(args.file)
    print(f"{args.file}: " + apply_configuration(cfg, Path.cwd(), lambda: read_pin(args.pin_stdin)))
    return 0
