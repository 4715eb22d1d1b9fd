"""The games the cabinet knows, by engine name: each one's settings class and its ``Game``.

Owns: the one table from a profile's ``engine:`` to the settings class that parses its
``rules:`` and to the class that hosts it on the cabinet. Adding a game is a line here, a
package under ``machine/games`` and a profile file. Pure: imports games only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from machine.games.blackjack import BlackjackGame
from machine.games.eenendertigen.game import EenendertigenGame
from machine.games.eenendertigen.rules import EenendertigenRules
from machine.games.eenentwintig.game import EenentwintigGame
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import Game
from machine.games.ochko.game import OchkoGame
from machine.games.ochko.rules import OchkoRules
from machine.games.rules import Rules, RulesError, TableRules

# engine -> (settings class, Game class: built as GameClass(profile, auto))
ENGINES: dict[str, tuple[type[TableRules], Callable[..., Game]]] = {
    "blackjack": (Rules, BlackjackGame),
    "ochko": (OchkoRules, OchkoGame),
    "eenentwintig": (EenentwintigRules, EenentwintigGame),
    "eenendertigen": (EenendertigenRules, EenendertigenGame),
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


def settings_from_dict(data: Mapping[str, Any]) -> TableRules:
    """Settings kept as plain data (``to_dict``) rebuilt by the first game's settings class that
    has every setting they name (a seat's money keeps the rules of whichever game is in force)."""
    names = set(data)
    for cls, _game in ENGINES.values():
        if names <= {f.name for f in dataclasses.fields(cls)}:  # type: ignore[arg-type]
            return cls.from_dict(data)
    raise RulesError("rules", [f"no game has the settings {', '.join(sorted(names))}"])
