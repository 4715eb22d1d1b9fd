"""The ``cabinet`` command and its subcommands.

Owns: the command's entry point (``main``; the console script ``cabinet`` and ``python -m
machine``): parsing the command line with the table in ``commands.py``, calling the
subcommand's handler (one module per area beside this one) and turning errors into one line on
standard error: exit status 2 for a bad configuration or command line, 1 for something
``cabinet run`` needs that cannot be reached or is in use (a serial port, a device, the
simulator, a journal another process holds), 3 for a journal that cannot be trusted. The work
itself lives in the modules the handlers call.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from machine import __version__
from machine.cli.commands import build_parser
from machine.cli.common import EXIT_MEMORY, EXIT_USAGE, CommandError

__all__ = ["build_parser", "main"]


def _version() -> str:
    from machine.operator.identity import check_manifest, software_id

    problems = check_manifest()
    state = "matches the release manifest" if not problems else f"does NOT match the release manifest ({problems[0]})"
    return f"cabinet {__version__}\nsoftware identity (SHA-256): {software_id()}\n{state}"


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
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        print(_version())
        return 0
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    args.own_process = argv is None  # the process's own command line (common.left_to_exit)
    try:
        return int(args.func(args))
    except Exception as exc:
        status = _failed(args.command, exc)
        if status is None:
            raise
        return status


def _raised(exc: Exception, module: str, name: str) -> bool:
    """Whether ``exc`` is ``module``'s exception ``name``: never when the command did not import
    that module (so that a command needing no cabinet, journal or memory never loads them)."""
    found = getattr(sys.modules.get(module), name, None)
    return isinstance(found, type) and isinstance(exc, found)


def _failed(command: str, exc: Exception) -> int | None:
    """The exit status of a command that raised ``exc``, its line printed; None: not ours to
    turn into a line (a bug: its traceback)."""
    if _raised(exc, "machine.money.memory", "UntrustedMemory"):
        print(f"memory error: {exc}", file=sys.stderr)
        return EXIT_MEMORY
    if _raised(exc, "machine.core.cabinet", "CabinetLocked"):  # "memory error: ..." (3), or "software identity: ..." (2)
        print(exc, file=sys.stderr)
        return EXIT_MEMORY if _raised(exc, "machine.core.cabinet", "MemoryLocked") else EXIT_USAGE
    # a state row failing its checksum, a file that is no journal
    if isinstance(exc, (ValueError, CommandError)) or _raised(exc, "machine.money.journal", "JournalError"):
        # ConfigError lists every problem, one per line
        # ScriptError, RulesError, YamlError and CardError are all ValueErrors with a full line.
        print(f"cabinet {command}: {exc}", file=sys.stderr)
        return exc.status if isinstance(exc, CommandError) else EXIT_USAGE
    return None
