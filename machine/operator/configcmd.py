"""The ``cabinet config`` subcommands of the operator's settings: ``check`` and ``apply``.

Owns: ``config check``'s verdict on the house's return (an enabled game whose return at best
play, the bet rule included where the bet follows a card, is 100 % or more is refused unless
``allow_player_edge`` names it, then a warning; a return below ``min_return`` is refused), its
warnings about the operator PIN (the shipped 1234, a hash weaker than the shipped parameters;
refused outright on a released cabinet by the configuration itself), a game that hides cards on
seats sharing a screen (machine/operator/sharedscreen.py), reading the operator PIN
for ``config apply`` (without echo on a terminal, or one line of standard input with
``--pin-stdin``) and printing what was applied. Never changes a setting itself:
machine/operator/applying.py does, in one journaled transaction.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from machine.operator import pin, sharedscreen
from machine.operator.applying import ApplyRefused, apply_configuration
from machine.operator.config import ConfigError, MachineConfig, load_config


def pct(x: float) -> str:
    return f"{x * 100:.5f} %"


def check_command(args: argparse.Namespace) -> int:
    """``cabinet config check FILE``: the file's own checks, then the enabled games' returns."""
    cfg = load_config(args.file)
    problems, warnings = (a + b for a, b in zip(returns_verdict(cfg), sharedscreen.verdict(cfg), strict=True))
    if problems:
        raise ConfigError([f"{args.file}: {line}" for line in problems])
    print(f"{args.file}: OK ({cfg.seats} seats, game {cfg.game}, data in {cfg.data_dir})")
    for line in warnings + pin.weaknesses(cfg.operator_pin):
        print(f"{args.file}: warning: {line}")
    return 0


def returns_verdict(cfg: MachineConfig) -> tuple[list[str], list[str]]:
    """(refusals, warnings) about the enabled games' returns: 100 % or more at best play is
    refused unless ``allow_player_edge`` names the game (then a warning); below ``min_return``
    is refused."""
    from machine.gamemath import engines
    from machine.profiles import load_profile

    problems, warnings = [], []
    floor = cfg.min_return / 100
    for name in cfg.games_enabled:
        profile = load_profile(name)
        if not engines.has_exact_rtp(profile.engine):
            lines, flat = _simulated(name, profile)
            best = flat
            if flat is None:
                warnings.append(f"{name}: its return is not checked without the fast extra (pip install 'cabinet[fast]'); "
                                "cabinet simulate gives it")
        else:
            flat, rule = engines.returns(profile)
            lines = []
            if flat >= 1:
                lines.append(f"{name} returns {pct(flat)} at a flat bet with Auto's play: the players win in the long run")
            if rule is not None and rule >= 1:
                lines.append(f"{name}: a player who stakes the most only when the cards seen favour them gets "
                             f"{pct(rule)} back (cabinet rtp shows the bet rule); a lower max_bet limits it")
            best = flat if rule is None else max(flat, rule)
        if lines and name in cfg.allow_player_edge:
            warnings += [f"{line} (allowed: allow_player_edge names it)" for line in lines]
        elif lines:
            problems += [f"games_enabled: {line}: refused (an operator who means to offer it names it in "
                         "allow_player_edge)" for line in lines]
        if best is not None and best < floor:
            problems.append(f"games_enabled: {name} returns {pct(best)} at best play, below min_return "
                            f"{cfg.min_return:g} %: refused")
    return problems, warnings


def _simulated(name: str, profile: Any) -> tuple[list[str], float | None]:
    """Eenendertigen: its return depends on the computer players, so the figure is simulated
    (the compiled path, a fixed seed, remembered like the exact figures)."""
    from machine.gamemath import engines

    try:
        flat, _ = engines.returns(profile)
    except ValueError:  # no numba: the figure would take hours on the engine
        return [], None
    if flat < 1:
        return [], flat
    return [f"{name} returns {pct(flat)} to Auto against three computer players at win_pays "
            f"{float(profile.rules.win_pays):g} (simulated over {engines.SIMULATED_ROUNDS:,} rounds): the players win in "
            "the long run; a lower win_pays lowers it"], flat


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
