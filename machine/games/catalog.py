"""The games the cabinet knows, by engine name: each one's settings class and its ``Game``.

Owns: the one table from a profile's ``engine:`` to the settings class that parses its
``rules:`` and to the class that hosts it on the cabinet. Adding a game is a line here, a
package under ``machine/games`` and a profile file. Pure: imports games only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from machine.games.blackjack import BlackjackGame
from machine.games.eenentwintig.game import EenentwintigGame
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import Game
from machine.games.rules import Rules, RulesError, TableRules

# engine -> (settings class, Game class: built as GameClass(profile, auto))
ENGINES: dict[str, tuple[type[TableRules], Callable[..., Game]]] = {
    "blackjack": (Rules, BlackjackGame),
    "eenentwintig": (EenentwintigRules, EenentwintigGame),
}


def _entry(engine: str) -> tuple[type[TableRules], Callable[..., Game]]:
    if engine not in ENGINES:
        raise RulesError("engine", [f"unknown game engine {engine!r} (known: {', '.join(sorted(ENGINES))})"])
    return ENGINES[engine]


def rules_class(engine: str) -> type[TableRules]:
    """The settings class of ``engine``'s profiles."""
    return _entry(engine)[0]


def make_game(profile: Any, auto: Callable[[Any], str]) -> Game:
    """The ``Game`` that hosts ``profile`` on the cabinet, with Auto's strategy injected."""
    return _entry(profile.engine)[1](profile, auto)
