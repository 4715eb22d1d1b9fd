"""Which game math serves which game engine: Auto, the exact return, the chart, the simulators.

Owns: the one table from a profile's ``engine`` to its math. Blackjack's math is this package's
analysis (``auto``, ``game``, ``chart``, ``simulate``, ``fastsim``); every other game has one
module here that offers the same things under the same names:

* ``auto_action(round) -> str`` — Auto's answer to the decision the round waits on;
* ``prepare(rules)`` — compute Auto's tables now, so no decision waits;
* ``exact_rtp(rules) -> float`` — the exact return at a flat bet with Auto's play;
* ``rtp_report(profile) -> dict`` — ``cabinet rtp --json`` (``game``, ``rules``, ``rtp``,
  ``house_edge`` at a flat bet, and the game's own keys); ``rtp_lines(profile)`` its text;
* ``strategy_lines(profile) -> list[str]`` — ``cabinet strategy``;
* ``simulate(rules, rounds, seats, seed, workers, progress)`` and
  ``fast_simulate(rules, rounds, seed, workers, seats, progress)`` — a ``Tally`` (``rtp``,
  ``half_width``, ``rounds``) from the engine and from the compiled fast path.

Each module is imported only when its game is asked for (numba and the tables are heavy).
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any


def math_of(engine: str) -> ModuleType:
    """The math module of a game engine other than blackjack."""
    if engine == "eenentwintig":
        from machine.gamemath import eenentwintig

        return eenentwintig
    raise ValueError(f"no game math for engine {engine!r}")


def auto_for(engine: str) -> Callable[[Any], str]:
    """Auto's strategy for a game engine."""
    if engine == "blackjack":
        from machine.gamemath.auto import auto_action

        return auto_action
    return math_of(engine).auto_action


def prepare(profile: Any) -> None:
    """Compute Auto's tables for a profile now (a few seconds a game)."""
    if profile.engine == "blackjack":
        from machine.gamemath.auto import prepare as prepare_blackjack

        prepare_blackjack(profile.rules)
    else:
        math_of(profile.engine).prepare(profile.rules)
