"""The one registry of the games the cabinet knows, by engine name.

Owns: the table from a profile's ``engine:`` to everything that serves that engine in every
layer: its settings class (parses the profile's ``rules:``), the ``Game`` class that hosts it on
the cabinet, and the dotted names of its modules in the layers above the games (the game math,
the ``cabinet round`` script runner, ...). The layers above look a game up here and import its
module by name, lazily, so this module imports games only and never a layer above it
(python-can's interface registry is the model). Its own classes are named too (``"module:Class"``)
and imported when first asked for: a process that prices or plays one game loads that game's
modules only, never every game's. Adding a game is one ``Engine`` here (or one
``register`` call: the tests register a toy game that lives in ``tests/`` only), its packages
in each layer, and a profile file: ``docs/game-interface.md`` has the checklist.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any

from machine.games.rules import RulesError

if TYPE_CHECKING:
    from machine.games.interface import Game
    from machine.games.rules import TableRules


@dataclasses.dataclass(frozen=True)
class Engine:
    """One game engine and where each layer finds its part of it.

    ``rules``: the settings class of its profiles; ``game``: the class that hosts it on the
    cabinet, built as ``game(profile, auto)``; either given as the class itself or named as
    ``"module:Class"``, imported when first asked for (``rules_class``, ``game_class``). The
    rest are dotted module names, imported only when asked for (``module``): ``math`` offers
    the game-math interface described in ``machine/gamemath/engines.py``; ``script`` the
    ``cabinet round`` runner (``run(script, profile, auto) -> dict``). ``motif``: the cards that
    stand for the game where the screens show it idle (attract mode: a hand its players know it
    by), card codes."""

    name: str
    rules: type[TableRules] | str
    game: Callable[..., Game] | str
    math: str
    script: str
    motif: tuple[str, ...] = ()

    def rules_class(self) -> type[TableRules]:
        """The settings class of this engine's profiles, imported now if named."""
        found: type[TableRules] = _imported(self.rules)
        return found

    def game_class(self) -> Callable[..., Game]:
        """The class that hosts this engine on the cabinet, imported now if named."""
        found: Callable[..., Game] = _imported(self.game)
        return found

    @property
    def hidden_hands(self) -> bool:
        """Whether the game hides a seat's cards from the other seats during a round
        (``Game.hidden_hands``: ochko, eenendertigen); a class that does not say hides nothing."""
        return bool(getattr(self.game_class(), "hidden_hands", False))

    def module(self, part: str) -> ModuleType:
        """The module of this engine's ``part`` (``"math"``, ``"script"``), imported now."""
        return importlib.import_module(getattr(self, part))


def _imported(what: Any) -> Any:
    """``what`` itself, or the object it names as ``"module:name"``, imported now."""
    if not isinstance(what, str):
        return what
    module, _, name = what.partition(":")
    return getattr(importlib.import_module(module), name)


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
    Engine("blackjack", "machine.games.blackjack.rules:Rules", "machine.games.blackjack.game:BlackjackGame",
           "machine.gamemath.blackjack", "machine.scripts.blackjack", motif=("AS", "JS")),
    Engine("ochko", "machine.games.ochko.rules:OchkoRules", "machine.games.ochko.game:OchkoGame",
           "machine.gamemath.ochko", "machine.scripts.ochko", motif=("AH", "AS")),
    Engine("eenentwintig", "machine.games.eenentwintig.rules:EenentwintigRules",
           "machine.games.eenentwintig.game:EenentwintigGame", "machine.gamemath.eenentwintig",
           "machine.scripts.eenentwintig", motif=("7H", "7S", "7D")),
    Engine("eenendertigen", "machine.games.eenendertigen.rules:EenendertigenRules",
           "machine.games.eenendertigen.game:EenendertigenGame", "machine.gamemath.eenendertigen",
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
    return engine(name).rules_class()


def make_game(profile: Any, auto: Callable[[Any], str]) -> Game:
    """The ``Game`` that hosts ``profile`` on the cabinet, with Auto's strategy injected."""
    return engine(profile.engine).game_class()(profile, auto)

