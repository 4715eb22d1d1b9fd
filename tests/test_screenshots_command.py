"""``cabinet screenshots DIR [--language L] [--game G]`` (machine/devtools/screenshots.py): which
scenes, in which languages, written where."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from machine.cli import main  # noqa: E402
from machine.devtools.scenes import MENU_SCENES, SCENES  # noqa: E402
from machine.devtools.screenshots import ScreenshotError, scene_games, write_screenshots  # noqa: E402

MENUS = list(MENU_SCENES)
GAMES = ("random-blackjack", "casino-blackjack", "ochko", "eenentwintig", "eenendertigen")


def menus_with(game: str) -> list[str]:
    """The menu pages rendered with one game: all but the pages about another game."""
    return [m for m in MENUS if not any(m.endswith(f"-{g}") and g != game for g in GAMES)]


def fake(tmp_path):
    drawn: list[tuple[str, str]] = []

    def render(name, language):
        drawn.append((name, language))
        return name, language

    def save(picture, path):
        path.write_text(repr(picture))

    return drawn, render, save


def test_each_scene_belongs_to_the_game_its_cabinet_plays():
    games = scene_games()
    assert set(games) == set(SCENES)
    assert games["split"] == "random-blackjack" and games["surrender"] == "casino-blackjack"
    assert games["ochko-stake"] == "ochko" and games["eenentwintig-wash"] == "eenentwintig"
    assert {g for n, g in games.items() if n.startswith(("eenendertigen-", "tournament-"))} == {"eenendertigen"}


def test_by_default_every_language_english_where_it_always_was_the_others_in_their_folders(tmp_path):
    drawn, render, save = fake(tmp_path)
    games = sorted(set(scene_games().values()))
    paths = write_screenshots(tmp_path, games, render=render, save=save)
    per_language = len(SCENES) + len(MENUS)
    assert len(paths) == 4 * per_language and len(set(drawn)) == 4 * per_language
    assert tmp_path / "split.png" in paths and tmp_path / "menu-meters.png" in paths
    assert tmp_path / "nl" / "split.png" in paths and tmp_path / "ru" / "menu-events.png" in paths
    assert (tmp_path / "nb" / "ochko-stake.png").read_text() == "('ochko-stake', 'nb')"
    assert not (tmp_path / "en").exists()


def test_one_game_and_one_language_go_straight_into_the_folder_with_the_menu_pages(tmp_path):
    drawn, render, save = fake(tmp_path)
    paths = write_screenshots(tmp_path, ["random-blackjack"], language="ru", game="ochko", render=render, save=save)
    assert drawn == [(n, "ru") for n in ("ochko-stake", "ochko-reveal", "ochko-settled", *menus_with("ochko"))]
    assert paths == [tmp_path / f"{n}.png" for n, _ in drawn]


def test_the_enabled_games_choose_the_scenes(tmp_path):
    drawn, render, save = fake(tmp_path)
    write_screenshots(tmp_path, ["eenentwintig"], language="en", render=render, save=save)
    assert [n for n, _ in drawn] == ["eenentwintig-bet", "eenentwintig-wash", "eenentwintig-settled",
                                     *menus_with("eenentwintig")]


@pytest.mark.parametrize(("option", "problem"), [
    (["--language", "de"], "cabinet screenshots: --language de: not a language of the cabinet (en, nl, nb, ru)"),
    (["--game", "poker"], "cabinet screenshots: --game poker: no scenes of that game (the scenes show: "
                          "casino-blackjack, eenendertigen, eenentwintig, ochko, random-blackjack)"),
])
def test_an_option_that_names_nothing_is_one_line_and_exit_2(tmp_path, capsys, option, problem):
    assert main(["screenshots", str(tmp_path), *option]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines() == [problem] and not any(tmp_path.iterdir())


def test_the_command_renders_real_pictures(tmp_path, capsys):
    assert main(["screenshots", str(tmp_path), "--game", "ochko", "--language", "nl"]) == 0
    names = ["ochko-stake", "ochko-reveal", "ochko-settled", *menus_with("ochko")]
    assert capsys.readouterr().out.splitlines() == [str(tmp_path / f"{n}.png") for n in names]
    assert all((tmp_path / f"{n}.png").stat().st_size > 10_000 for n in names)
    assert ScreenshotError.__mro__[1] is ValueError  # the CLI's one-line errors


def test_a_menu_page_about_one_game_goes_with_that_game(monkeypatch):
    from machine.devtools import scenes
    from machine.devtools.screenshots import choose_scenes

    monkeypatch.setattr(scenes, "MENU_SCENES", {"menu-main": (), "menu-recall-ochko": (), "menu-recall": ()})
    of_scene = {"split": "random-blackjack", "ochko-stake": "ochko"}
    assert choose_scenes(["random-blackjack"], None, of_scene) == ["split", "menu-main", "menu-recall"]
    assert choose_scenes([], "ochko", of_scene) == ["ochko-stake", "menu-main", "menu-recall-ochko", "menu-recall"]
