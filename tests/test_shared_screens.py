"""Seats that share a screen: ``config check`` names each enabled game that hides a seat's cards
from the others (the game says so, through the registry), an error on a released cabinet and a
warning otherwise; the one window of the tiles layout says in its title that it is shared."""

from __future__ import annotations

from pathlib import Path

import pytest

from machine.cli import main
from machine.games import catalog
from machine.operator import pin, sharedscreen
from machine.operator.config import parse_config

BASE = (Path(__file__).resolve().parents[1] / "config" / "machine.yaml").read_text()
ENABLED = next(line for line in BASE.splitlines() if line.startswith("games_enabled:"))
TILES = "display.layout: tiles draws the 4 seats as tiles of one window"


def cfg_text(games: str = "[random-blackjack, ochko]", display: str = "", released: bool = False) -> str:
    text = BASE.replace(ENABLED, f"games_enabled: {games}").replace("allow_player_edge: []", f"allow_player_edge: {games}")
    if display:
        text = text.replace("  layout: tiles ", display, 1)
    if released:
        old_pin = next(line for line in text.splitlines() if line.startswith("operator_pin:"))
        text = text.replace(old_pin, f"operator_pin: {pin.hash_pin('5678')}").replace(
            "require_manifest: false", "require_manifest: true")
    return text


def finding(game: str, why: str = TILES) -> str:
    return (f"games_enabled: {game} hides each seat's cards from the other seats, but {why}: every seat sees them "
            "(a development layout; give each seat a screen of its own with layout: windows)")


def test_the_games_say_whether_they_hide_cards():
    assert {e.name: e.hidden_hands for e in catalog.engines()} == {
        "blackjack": False, "eenentwintig": False, "ochko": True, "eenendertigen": True}


@pytest.mark.parametrize("display, why", [
    ("", TILES),
    ("  layout: windows ", "display.windows: seat 1's window has no display or position of its own (a grid on display 0)"),
    ("  layout: windows\n  windows: [{display: 0}, {display: 1}, {display: 1}, {display: 3}] ",
     "display.windows: two seats' windows share a display or a position"),
    ("  layout: windows\n  windows: [{display: 0}, {display: 1}, {x: 0, y: 0}, {x: 1920, y: 0}] ", None),
])
def test_which_layouts_share_a_screen(display, why):
    cfg = parse_config(cfg_text(display=display), "m.yaml")
    assert sharedscreen.shared_screen(cfg) == why
    assert sharedscreen.shared_screen(cfg.model_copy(update={"seats": 1})) is None  # one seat shares with no one


def test_config_check_warns_of_hidden_cards_on_a_shared_screen_and_refuses_them_on_a_released_cabinet(
        tmp_path, capsys, monkeypatch):
    import machine.gamemath.engines as engines

    monkeypatch.setattr(engines, "returns", lambda profile: (0.99, None))  # the figures: tests of their own
    path = tmp_path / "m.yaml"
    path.write_text(cfg_text("[random-blackjack, ochko, eenentwintig, eenendertigen-modern]"))
    assert main(["config", "check", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:3] == [f"{path}: warning: {finding('ochko')}", f"{path}: warning: {finding('eenendertigen-modern')}"]
    assert len(out) == 4  # and the shipped PIN's warning
    path.write_text(cfg_text("[random-blackjack, ochko]", released=True))
    assert main(["config", "check", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"cabinet config: {path}: {finding('ochko')} (require_manifest: true)\n"
    path.write_text(cfg_text("[random-blackjack, ochko]", released=True, display=(
        "  layout: windows\n  windows: [{display: 0}, {display: 1}, {display: 2}, {display: 3}] ")))
    assert main(["config", "check", str(path)]) == 0  # a screen per seat: nothing to say
    assert capsys.readouterr().out.splitlines() == [f"{path}: OK (4 seats, game random-blackjack, data in data)"]
    path.write_text(cfg_text("[random-blackjack, eenentwintig]", released=True))
    assert main(["config", "check", str(path)]) == 0  # shared, but no game hides a card


def test_the_one_window_of_the_tiles_layout_says_it_is_a_shared_development_screen(tmp_path, monkeypatch):
    import pygame

    from machine.display.screens import Screens
    from machine.operator.firststart import temporary

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    cfg = temporary(parse_config(cfg_text(), "m.yaml"), tmp_path)
    screens = Screens(cfg, "Ochko")
    try:
        assert pygame.display.get_caption()[0] == (
            "Ochko - cabinet - development layout: a shared screen (4 seats in one window)")
        screens.caption("Random Blackjack")  # the game in force changed: still said
        assert pygame.display.get_caption()[0].endswith("development layout: a shared screen (4 seats in one window)")
    finally:
        screens.close()


def test_the_window_caption_follows_the_game_in_force_when_it_changes_in_play(tmp_path, monkeypatch):
    import pygame

    from machine.devtools import scenes
    from machine.display.screens import Screens
    from machine.display.view import build_view
    from machine.operator.firststart import temporary

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    cfg = temporary(parse_config(cfg_text(), "m.yaml"), tmp_path)
    screens = Screens(cfg, "Ochko")  # the game in force at the start
    cab = scenes.SCENES["betting"](tmp_path / "scene")  # then Random Blackjack is chosen
    try:
        screens.draw(build_view(cab, scenes.SCENE_TIME), scenes.SCENE_TIME, attract=False, banner="")
        assert pygame.display.get_caption()[0].startswith("Random Blackjack - cabinet")
    finally:
        screens.close()
        cab.journal.close()
