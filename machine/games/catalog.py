"""The one registry of the games the cabinet knows, by engine name.

Owns: the table from a profile's ``engine:`` to everything that serves that engine in every
layer: its settings class (parses the profile's ``rules:``), the ``Game`` class that hosts it on
the cabinet, and the dotted names of its modules in the layers above the games (the game math,
the ``cabinet round`` script runner, ...). The layers above look a game up here and import its
module by name, lazily, so this module imports games only and never a layer above it
(python-can's interface registry is the model). Adding a game is one ``Engine`` here (or one
``register`` call: the tests register a toy game that lives in ``tests/`` only), its packages
in each layer, and a profile file: ``docs/game-interface.md`` has the checklist.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from machine.games.blackjack.game import BlackjackGame
from machine.games.blackjack.rules import Rules
from machine.games.eenendertigen.game import EenendertigenGame
from machine.games.eenendertigen.rules import EenendertigenRules
from machine.games.eenentwintig.game import EenentwintigGame
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import Game
from machine.games.ochko.game import OchkoGame
from machine.games.ochko.rules import OchkoRules
from machine.games.rules import RulesError, TableRules


@dataclasses.dataclass(frozen=True)
class Engine:
    """One game engine and where each layer finds its part of it.

    ``rules``: the settings class of its profiles; ``game``: the class that hosts it on the
    cabinet, built as ``game(profile, auto)``. The rest are dotted module names, imported only
    when asked for (``module``): ``math`` offers the game-math interface described in
    ``machine/gamemath/engines.py``; ``script`` the ``cabinet round`` runner
    (``run(script, profile, auto) -> dict``). ``motif``: the cards that stand for the game
    where the screens show it idle (attract mode: a hand its players know it by), card codes."""

    name: str
    rules: type[TableRules]
    game: Callable[..., Game]
    math: str
    script: str
    motif: tuple[str, ...] = ()

    @property
    def hidden_hands(self) -> bool:
        """Whether the game hides a seat's cards from the other seats during a round
        (``Game.hidden_hands``: ochko, eenendertigen); a class that does not say hides nothing."""
        return bool(getattr(self.game, "hidden_hands", False))

    def module(self, part: str) -> ModuleType:
        """The module of this engine's ``part`` (``"math"``, ``"script"``), imported now."""
        return importlib.import_module(getattr(self, part))


_ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> None:
    """Add (or replace) an engine in the registry."""
    _ENGINES[engine.name] = engine


def unregister(name: str) -> None:
    """Take an engine out of the registry (a test's toy game, after the test)."""
    _ENGINES.pop(name, None)


for _e in (
    # the motifs: blackjack's ace with a black jack (the name's story, seed 002); ochko's two aces,
    # an ochko of their own (seed 004); eenentwintig's three sevens that beat every 21 (seed 000);
    # eenendertigen's 31 in one suit, the seed's harten aas, heer, vrouw (seed 001)
    Engine("blackjack", Rules, BlackjackGame, "machine.gamemath.blackjack", "machine.scripts.blackjack",
           motif=("AS", "JS")),
    Engine("ochko", OchkoRules, OchkoGame, "machine.gamemath.ochko", "machine.scripts.ochko", motif=("AH", "AS")),
    Engine("eenentwintig", EenentwintigRules, EenentwintigGame, "machine.gamemath.eenentwintig", "machine.scripts.eenentwintig",
           motif=("7H", "7S", "7D")),
    Engine("eenendertigen", EenendertigenRules, EenendertigenGame, "machine.gamemath.eenendertigen",
           "machine.scripts.eenendertigen", motif=("AH", "KH", "QH")),
):
    register(_e)


def engines() -> Iterator[Engine]:
    """Every registered engine, in registration order."""
    return iter(tuple(_ENGINES.values()))


def names() -> tuple[str, ...]:
    """The registered engines' names, in registration order."""
    return tuple(_ENGINES)


def engine(name: str) -> Engine:
    """The engine called ``name``; a ``RulesError`` naming the known ones otherwise."""
    if name not in _ENGINES:
        raise RulesError("engine", [f"unknown game engine {name!r} (known: {', '.join(sorted(_ENGINES))})"])
    return _ENGINES[name]


def rules_class(name: str) -> type[TableRules]:
    """The settings class of engine ``name``'s profiles."""
    return engine(name).rules


def make_game(profile: Any, auto: Callable[[Any], str]) -> Game:
    """The ``Game`` that hosts ``profile`` on the cabinet, with Auto's strategy injected."""
    return engine(profile.engine).game(profile, auto)

