"""What every ``cabinet`` subcommand shares: its errors, its exit statuses, its argument types.

Owns: ``CommandError`` (one line, status 2) and ``Unreachable`` (status 1), the statuses, the
``count`` argument type, reading a script file (or standard input), the ``Parser`` that refuses
a bad command line in one line, and the ``Command``/``Arg`` rows of the command table
(``machine/cli/commands.py``), whose handlers are imported only when their command runs
(``Later``). Never does a command's work and never prints.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import gc
import importlib
import sys
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

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


@contextlib.contextmanager
def left_to_exit(args: argparse.Namespace) -> Iterator[None]:
    """For a command whose objects hold nothing to close or flush (the math commands' tables),
    run as the process's own command (``args.own_process``, set by ``main``): Python's cyclic
    collector off meanwhile (its first pass after the tables were made took 9 ms of ``cabinet
    strategy``), and what the command made frozen at the end, left to the exit, which then skips
    its last collection over every object (18 ms). Called with argv (a test), nothing changes."""
    if not getattr(args, "own_process", False):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()


def read_script(path: str) -> Any:
    """A YAML or JSON script from a file, or from standard input for ``-``."""
    from machine import yamlio  # PyYAML: only for the commands that read a script

    if path == "-":
        return yamlio.loads(yamlio.read_stream(sys.stdin), "<stdin>")
    return yamlio.load(path)


def pct(x: float) -> str:
    """A return as the commands print it: ``99.54321 %``."""
    return f"{x * 100:.5f} %"


class Parser(argparse.ArgumentParser):
    """argparse's parser, refusing a bad command line in ONE line (no usage block above it:
    ``cabinet <command> --help`` gives that); its subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


Handler = Callable[[argparse.Namespace], int]


@dataclasses.dataclass(frozen=True)
class Later:
    """A command's handler named ``"module.function"`` (a module of ``machine/cli``), imported
    when the command runs: what argparse keeps as the command's ``func``."""

    name: str

    def __call__(self, args: argparse.Namespace) -> int:
        module, _, function = self.name.rpartition(".")
        handler: Handler = getattr(importlib.import_module(f"machine.cli.{module}"), function)
        return handler(args)


@dataclasses.dataclass(frozen=True)
class Arg:
    """One argument of a command: ``add_argument(*flags, **options)``."""

    flags: tuple[str, ...]
    options: dict[str, Any]


def arg(*flags: str, **options: Any) -> Arg:
    return Arg(flags, options)


@dataclasses.dataclass(frozen=True)
class OneOf:
    """Arguments of which at most one may be given (a mutually exclusive group)."""

    args: tuple[Arg, ...]


@dataclasses.dataclass(frozen=True)
class Command:
    """A row of the command table: the name, the help line (None: none listed), the arguments,
    and either the handler (``"module.function"``, see ``Later``) or the subcommands (``dest``:
    where argparse keeps which one)."""

    name: str
    help: str | None
    args: tuple[Arg | OneOf, ...] = ()
    handler: str | None = None
    sub: tuple[Command, ...] = ()
    dest: str = ""

    def add_to(self, sub: Any) -> None:
        """Add this command's parser to the subparsers ``sub`` (argparse's ``add_subparsers``)."""
        p = sub.add_parser(self.name, **({} if self.help is None else {"help": self.help}))
        add_args(p, self.args)
        if self.sub:
            inner = p.add_subparsers(dest=self.dest, required=True)
            for c in self.sub:
                c.add_to(inner)
        if self.handler is not None:
            p.set_defaults(func=Later(self.handler))


def add_args(p: Any, args: tuple[Arg | OneOf, ...]) -> None:
    for a in args:
        if isinstance(a, OneOf):
            group = p.add_mutually_exclusive_group()
            for one in a.args:
                group.add_argument(*one.flags, **one.options)
        else:
            p.add_argument(*a.flags, **a.options)
