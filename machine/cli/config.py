"""The ``config`` commands: ``config check`` and ``config pin``.

Owns: checking a machine configuration without starting anything (and the advice on a game
whose return favours the players), and setting the operator PIN in a file. The checks
themselves live in ``machine/operator/config.py``, the PIN's format and hash in
``machine/operator/pin.py``. Never starts a device or opens a journal.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from machine.cli.common import CommandError, pct


def check_command(args: argparse.Namespace) -> int:
    from machine.operator.config import load_config

    cfg = load_config(args.file)
    print(f"{args.file}: OK ({cfg.seats} seats, game {cfg.game}, data in {cfg.data_dir})")
    for line in _return_warnings(cfg.games_enabled):
        print(f"{args.file}: warning: {line}")
    return 0


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


def _return_warnings(games: Sequence[str]) -> list[str]:
    """A line for every enabled game whose exact return is 100 % or more (a seed's home rules
    can favour the player), at a flat bet or with the best bet rule where the bet follows the cards."""
    from machine.gamemath.engines import has_exact_rtp, returns
    from machine.profiles import load_profile

    out = []
    for name in games:
        profile = load_profile(name)
        if not has_exact_rtp(profile.engine):
            out += _simulated_return_warning(name, profile)
            continue
        flat, rule = returns(profile)
        if flat >= 1:
            out.append(f"{name} returns {pct(flat)} at a flat bet with Auto's play: the players win in the long run")
        if rule is not None and rule >= 1:
            out.append(f"{name}: a player who stakes the most only when the cards seen favour them gets "
                       f"{pct(rule)} back (cabinet rtp shows the bet rule); a lower max_bet limits it")
    return out


def _simulated_return_warning(name: str, profile: Any) -> list[str]:
    """Eenendertigen: its return depends on the computer players, so the figure is simulated
    (the compiled path, a fixed seed, remembered like the exact figures)."""
    from machine.gamemath.engines import SIMULATED_ROUNDS, returns

    try:
        flat, _ = returns(profile)
    except ValueError:  # no numba: the figure would take hours on the engine
        return [f"{name}: its return is not checked without the fast extra (pip install 'cabinet[fast]'); "
                "cabinet simulate gives it"]
    if flat < 1:
        return []
    return [f"{name} returns {pct(flat)} to Auto against three computer players at win_pays "
            f"{float(profile.rules.win_pays):g} (simulated over {SIMULATED_ROUNDS:,} rounds): the players win in the "
            "long run; a lower win_pays lowers it"]
