"""``cabinet screenshots DIR [--language L] [--game G]``: the scenes written as PNG files.

Owns: choosing which of the scenes (``machine/devtools/scenes.py``: every main screen of each
game, and the operator menu's pages) to render, in which languages and where to: every language
of the cabinet by default — English at ``DIR/<scene>.png`` as before (the paths of the
reference images the screen tests compare), each other language in ``DIR/<lang>/`` — or the one
language asked for straight into ``DIR``; every enabled game's scenes by default, or one game's.
The menu pages belong to every game, except a page about one game (its name ends with the
game's, ``menu-recall-ochko``), which goes with that game. Never decides what a scene shows
(scenes.py does).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from machine.i18n import LANGUAGES

TOURNAMENT_PREFIX = "tournament-"  # the tournament scenes: scenes.py plays an eenendertigen tournament
TOURNAMENT_GAME = "eenendertigen"


class ScreenshotError(ValueError):
    """An option naming nothing there is to render (one line, exit 2)."""


def scene_games() -> dict[str, str]:
    """Each player-screen scene's game: the one its cabinet plays (set up on a throw-away
    journal, a fraction of a second each); the tournament scenes, the tournament's game."""
    from machine.devtools.scenes import SCENES

    out = {}
    for name, make in SCENES.items():
        if name.startswith(TOURNAMENT_PREFIX):
            out[name] = TOURNAMENT_GAME
            continue
        with tempfile.TemporaryDirectory() as tmp:
            cab = make(Path(tmp))
            out[name] = cab.profile.game
            cab.journal.close()
    return out


def choose_scenes(games: Iterable[str], game: str | None, of_scene: dict[str, str]) -> list[str]:
    """The scenes to render: those of ``game`` (or of every game in ``games``), then the menu's
    (a menu page about one game only with that game)."""
    from machine.devtools.scenes import MENU_SCENES

    wanted = set(games) if game is None else {game}
    if game is not None and game not in of_scene.values():
        have = ", ".join(sorted(set(of_scene.values())))
        raise ScreenshotError(f"--game {game}: no scenes of that game (the scenes show: {have})")
    games_shown = set(of_scene.values())

    def menu_wanted(name: str) -> bool:  # a page about one game (``menu-recall-ochko``): with that game
        about = [g for g in games_shown if name.endswith(f"-{g}")]
        return not about or any(g in wanted for g in about)

    return [name for name, g in of_scene.items() if g in wanted] + [m for m in MENU_SCENES if menu_wanted(m)]


def choose_languages(language: str | None) -> list[str]:
    if language is None:
        return list(LANGUAGES)
    if language not in LANGUAGES:
        raise ScreenshotError(f"--language {language}: not a language of the cabinet ({', '.join(LANGUAGES)})")
    return [language]


def target(folder: Path, scene: str, language: str, one_language: bool) -> Path:
    """Where a scene's picture goes: ``DIR/<scene>.png`` for English or the one language asked
    for, else ``DIR/<lang>/<scene>.png``."""
    return folder / f"{scene}.png" if one_language or language == "en" else folder / language / f"{scene}.png"


def write_screenshots(
    folder: Path,
    games: Sequence[str],
    *,
    language: str | None = None,
    game: str | None = None,
    render: Callable[..., Any] | None = None,
    save: Callable[[Any, Path], None] | None = None,
    size: tuple[int, int] | None = None,
) -> list[Path]:
    """Render the chosen scenes in the chosen languages into ``folder`` (at ``size``, default
    the scenes' 1920x1080); the paths written."""
    languages = choose_languages(language)
    scenes = choose_scenes(games, game, scene_games())
    if render is None or save is None:
        import pygame

        from machine.devtools.scenes import render_scene

        render = render or render_scene
        save = save or (lambda surface, path: pygame.image.save(surface, str(path)))
    out = []
    for lang in languages:
        for name in scenes:
            path = target(folder, name, lang, language is not None)
            path.parent.mkdir(parents=True, exist_ok=True)
            save(render(name, language=lang, **({"size": size} if size else {})), path)
            out.append(path)
    return out
