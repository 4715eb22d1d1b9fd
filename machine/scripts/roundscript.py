"""The scripted round of ``cabinet round`` (shared/spec/round-script.md), for any game.

Owns: finding the profile a script names and the runner of its engine, through the game
catalog only (``catalog.engine(profile.engine).module("script")``: each engine's script module
offers ``run(script, profile, auto) -> dict``, the ``ACTIONS`` its scripts may write and, where
some are written as lists, ``read_actions``). Knows no game by name, no meters, hardware or
display. Auto decisions come from a strategy the caller passes in.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from machine.games import catalog
from machine.games.rules import Profile, RulesError
from machine.profiles import load_profile
from machine.scripts.scripting import AutoStrategy, ScriptError, need

__all__ = ["ScriptError", "load_game", "read_actions", "run_round_script", "script_actions", "script_module"]


def load_game(script: Mapping[str, Any]) -> Profile:
    """The profile a script names, with its ``rules:`` overrides applied."""
    need(isinstance(script, Mapping), "the script must be a mapping with game:, shoe: and seats:")
    need("game" in script, "the script names no game (game: random-blackjack)")
    try:
        profile = load_profile(script["game"], script.get("rules"))
    except RulesError as exc:
        raise ScriptError(str(exc)) from None
    return profile


def script_module(profile: Profile) -> ModuleType:
    """The script module of the profile's engine, as the game catalog names it."""
    return catalog.engine(profile.engine).module("script")


def run_round_script(script: Mapping[str, Any], auto: AutoStrategy | None = None) -> dict[str, Any]:
    """Play a round script and return its result (round-script.md); raise ``ScriptError``.

    ``auto`` is Auto's strategy for the script's game (the caller picks it by the engine).
    """
    profile = load_game(script)
    result: dict[str, Any] = script_module(profile).run(script, profile, auto)
    return result


def script_actions(profile: Profile) -> tuple[str, ...]:
    """The actions a script of the profile's game may write."""
    return tuple(script_module(profile).ACTIONS)


def read_actions(profile: Profile, written: object, where: str) -> object:
    """A seat's written ``actions`` as the round's action strings where the game writes some as
    lists (eenendertigen's ``[swap, 1, 2]``); anything else is left for ``SeatScript`` to check."""
    read = getattr(script_module(profile), "read_actions", None)
    return written if read is None else read(written, where)
