"""Shared screens: whether a configuration's seats share one screen, and what ``config check``
says of a game that hides cards enabled on such a layout.

Owns: ``shared_screen`` (the single window's tiles, or windows not each on a display or at a
position of its own: the seats see each other's screen) and ``verdict``, the refusals and
warnings about the enabled games whose rules hide a seat's cards from the other seats (the
game says so itself: ``Game.hidden_hands``, asked through the one registry, never by engine
name): a refusal on a released cabinet (``require_manifest: true``), a warning otherwise.
Never changes a setting and never opens a display.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machine.games import catalog
from machine.profiles import load_profile

if TYPE_CHECKING:
    from machine.operator.config import MachineConfig


def shared_screen(cfg: MachineConfig) -> str | None:
    """Why the configured seats share a screen (words for a finding), or None when each seat
    has a screen of its own (``layout: windows``, each window on a display or at a position no
    other seat's window names)."""
    if cfg.seats < 2:
        return None
    d = cfg.display
    if d.layout != "windows":
        return f"display.layout: {d.layout} draws the {cfg.seats} seats as tiles of one window"
    places = []
    for n in range(cfg.seats):
        entry = d.windows[n] if n < len(d.windows) else None
        if entry is None or (entry.display is None and (entry.x is None or entry.y is None)):
            return f"display.windows: seat {n + 1}'s window has no display or position of its own (a grid on display 0)"
        places.append(("display", entry.display) if entry.display is not None else ("at", entry.x, entry.y))
    if len(set(places)) < len(places):
        return "display.windows: two seats' windows share a display or a position"
    return None


def hides_cards(game: str) -> bool:
    """Whether the rules of enabled game ``game`` (a profile name) hide a seat's cards from the others."""
    profile = load_profile(game)
    return catalog.engine(profile.engine).hidden_hands


def verdict(cfg: MachineConfig) -> tuple[list[str], list[str]]:
    """(refusals, warnings): each enabled game that hides cards, on seats that share a screen."""
    why = shared_screen(cfg)
    if why is None:
        return [], []
    lines = [f"games_enabled: {game} hides each seat's cards from the other seats, but {why}: every seat sees "
             "them (a development layout; give each seat a screen of its own with layout: windows)"
             for game in cfg.games_enabled if hides_cards(game)]
    if cfg.require_manifest:
        return [f"{line} (require_manifest: true)" for line in lines], []
    return [], lines
