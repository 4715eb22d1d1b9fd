"""Game profiles read from disk: ``config/games/<name>.yaml`` with a script's overrides on top.

Owns: where the configuration lives (``$CABINET_CONFIG``, else the configuration shipped in the
package) and loading a profile file into a ``Profile`` (its game, its engine, found in the game
catalog, and the engine's settings with the file's and the caller's overrides applied). This is
the I/O the games must not do: they receive a ``Profile`` and never read a file or the
environment. Never deals a card.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from machine import yamlio
from machine.games.catalog import rules_class
from machine.games.rules import Profile, RulesError


def shipped_config_dir() -> Path:
    """The configuration shipped with the program: ``machine/_config``, package data.

    In a checkout and in an editable install ``machine/_config`` is a symbolic link to the
    repository's ``config/``; in a wheel it is a copy of it. Either way the package finds it.
    """
    folder = Path(__file__).parent / "_config"  # importlib.resources's answer on disk, without its import (~2 ms)
    if folder.is_dir():
        return folder
    import importlib.resources

    found = importlib.resources.files("machine") / "_config"
    if not isinstance(found, Path):  # e.g. a zipped install: there is no folder to read
        raise RulesError("config", [f"the shipped configuration is not a folder on disk ({found})"])
    return found


def config_dir() -> Path:
    """The configuration folder: ``$CABINET_CONFIG``, else the shipped one."""
    env = os.environ.get("CABINET_CONFIG")
    return Path(env) if env else shipped_config_dir()


MAX_GAME_NAME = 64  # a profile file name; a longer one would be an OS error, not "no such game"


def load_profile(game: str, overrides: Mapping[str, Any] | None = None) -> Profile:
    """Load ``config/games/<game>.yaml`` and apply ``overrides`` to its rules."""
    if not isinstance(game, str) or not game or "/" in game or game.startswith("."):
        raise RulesError("game", [f"{game!r} is not a game profile name"])
    if len(game) > MAX_GAME_NAME:
        raise RulesError("game", [f"a game name of {len(game)} characters is not a game profile name "
                                  f"(at most {MAX_GAME_NAME})"])
    path = config_dir() / "games" / f"{game}.yaml"
    if not path.is_file():
        known = sorted(p.stem for p in (config_dir() / "games").glob("*.yaml"))
        raise RulesError("game", [f"no game profile {game!r} (known: {', '.join(known) or 'none'})"])
    data = yamlio.load(path)
    if not isinstance(data, dict):
        raise RulesError(str(path), ["a profile must be a mapping with game: and rules:"])
    extra = set(data) - {"game", "engine", "title", "rules"}
    if extra:
        raise RulesError(str(path), [f"{k}: unknown key (known: game, engine, title, rules)" for k in sorted(extra)])
    if data.get("game") != game:
        raise RulesError(str(path), [f"game: says {data.get('game')!r}, but the file is named for {game!r}"])
    engine = str(data.get("engine", "blackjack"))
    try:
        cls = rules_class(engine)
    except RulesError as exc:
        raise RulesError(str(path), exc.problems) from None
    rules = cls().with_overrides(data.get("rules") or {}, f"{path}: rules")
    rules = rules.with_overrides(overrides, "rules")
    return Profile(game=game, engine=engine, title=str(data.get("title", game)), rules=rules)
