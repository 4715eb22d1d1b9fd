"""Narrow player screens (machine/display/narrow.py): eight seats as 4 x 2 tiles of one
1920x1080 window (480 x 540 each), two side by side. On every seat's tile of an eight-seat
round of every game, each part the painter drew (the house's or the table's cards and total,
the other seat's box or the list, the turn line, the countdown, the seat's own hands, the
header) stays inside its own rectangle of the layout, and no two overlap."""

from __future__ import annotations

import os
from itertools import combinations
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.devtools import scenes  # noqa: E402
from machine.display import narrow  # noqa: E402
from machine.display.draw import Renderer, tile_rects  # noqa: E402
from machine.display.view import build_view  # noqa: E402

BLACKJACK_TOP = "8S 9C 6H 8D TD 3C 9S QH 2C 3D 4H 5S 6C 7D"
SHORT_TOP = "8S 9C TH 8D TD JC 9S QH KC AD 7H"  # the 32- and 36-card decks
PARTS = ("title", "minmax", "rule", "house", "side", "notice", "message", "countdown", "hands")


def eight_seats(tmp: Path, game: str, decisions: int, seats: int = 8):
    """Eight seats (or ``seats``) bet 2 and start; then ``decisions`` decisions, each the one at
    hand (the stake proposed, else Draw or Auto, else Stand); the cabinet and the time."""
    top = BLACKJACK_TOP if "blackjack" in game else SHORT_TOP
    cab = scenes._cabinet(tmp, top, seats=seats, game=game)
    for n in range(1, seats + 1):
        scenes._coins(cab, n, "EU200A", "EU200A", "EU200A")
        cab.press(n, "+2", 1)
    for n in range(1, seats + 1):
        cab.press(n, "start", 2)
    t = 3.0
    for _ in range(decisions):
        if cab.round is None or cab.round.pending is None:
            break
        d = cab.round.pending
        button = "start" if str(d.options[0]).startswith("bet") else "auto" if game.startswith("eenendertigen") else "draw"
        cab.press(d.seat, button if cab.is_live(d.seat, button) else "stand", t)
        t += 0.5
    return cab, t


def draw(cab, t: float, language: str, size=(1920, 1080)) -> tuple[Renderer, pygame.Surface]:
    pygame.font.init()
    r = Renderer(language=language)
    surf = pygame.Surface(size)
    view = build_view(cab, t, languages=dict.fromkeys(cab.seats, language))
    r.draw_table(surf, view, now=t - 10)  # the cards first seen 10 s before: no animation
    r.draw_table(surf, view, now=t)
    return r, surf


def overlaps(r: Renderer, number: int) -> list[tuple[str, str]]:
    """The pairs of parts seat ``number``'s screen drew over each other."""
    drawn = {name: rect for (n, name), rect in r.drawn.items() if n == number}
    return [(a, b) for a, b in combinations(sorted(drawn), 2) if drawn[a].colliderect(drawn[b])]


CASES = [("random-blackjack", 6, "ru"), ("random-blackjack", 30, "en"), ("casino-blackjack", 4, "nl"),
         ("ochko", 3, "nb"), ("ochko", 9, "ru"), ("ochko", 40, "en"), ("eenentwintig", 3, "nl"),
         ("eenentwintig", 9, "ru"), ("eenendertigen", 4, "ru"), ("eenendertigen", 40, "nl"),
         ("eenendertigen-modern", 3, "en")]


@pytest.mark.parametrize(("game", "decisions", "language"), CASES)
def test_on_eight_tiles_every_part_stays_in_its_rectangle_and_none_overlaps(tmp_path, game, decisions, language):
    cab, t = eight_seats(tmp_path, game, decisions)
    r, _surf = draw(cab, t, language)
    view = build_view(cab, t)
    turn = view.turn
    for tile, number in zip(tile_rects(pygame.Surface((1920, 1080)), 8), range(1, 9), strict=True):
        lay = r.layouts[number]
        assert lay is not None and lay.s == 1.0
        rects = lay.rects
        assert all(pygame.Rect(0, 0, *tile.size).contains(x) for x in rects.values())
        assert [(a, b) for a, b in combinations(sorted(rects), 2) if rects[a].colliderect(rects[b])] == []
        drawn = {name: rect for (n, name), rect in r.drawn.items() if n == number}
        assert {"title", "minmax", "house"} <= set(drawn)  # the header, the house's or the table's cards
        assert ("hands" in drawn) == bool(view.seats[number - 1].hands)  # the seat's own cards, when it has some
        if turn is not None and turn != number:
            assert {"side", "message"} <= set(drawn)  # who decides: the box or the list, and the turn line
        outside = [name for name, rect in drawn.items() if name in PARTS and not rects[name].contains(rect)]
        assert outside == [], (number, {n: (drawn[n], rects[n]) for n in outside})
        assert overlaps(r, number) == []
    cab.journal.close()


def test_the_wide_layout_on_an_eight_seat_tile_overlapped(tmp_path, monkeypatch):
    """The check above sees what it is for: with the wide layout forced onto the narrow tiles
    (the painter before the narrow layout), the box of the seat deciding covered the dealer's
    card and the header's list ran under the seat's own hand."""
    monkeypatch.setattr(narrow, "NARROW_UNITS", 0)
    cab, t = eight_seats(tmp_path, "random-blackjack", 6)
    r, _surf = draw(cab, t, "ru")
    assert r.layouts[1] is None
    assert {("house", "side"), ("hands", "title")} <= set(overlaps(r, 1))
    cab.journal.close()


@pytest.mark.parametrize(("size", "narrow_one"), [((960, 540), False), ((1920, 1080), False), ((1280, 800), False),
                                                 ((480, 540), True), ((960, 1080), True), ((1024, 768), True),
                                                 ((240, 270), True)])
def test_which_screens_are_narrow(size, narrow_one):
    """16:9 and 16:10 keep the wide layout (and every reference picture with it); a tile taller
    than wide, two seats side by side and 4:3 get the narrow one."""
    lay = narrow.layout(*size)
    assert (lay is not None) == narrow_one
    if lay is not None:
        assert lay.s == size[1] / 540


def test_two_seats_side_by_side_get_the_narrow_layout_at_twice_the_size(tmp_path):
    cab, t = eight_seats(tmp_path, "ochko", 3, seats=2)  # seat 1 has bust: shown to seat 2 while play holds
    assert build_view(cab, t).revealing == {1}
    r, _surf = draw(cab, t, "ru")  # 960 x 1080 each
    for number in (1, 2):
        lay = r.layouts[number]
        assert lay is not None and lay.s == 2.0 and lay["hands"].width == 960 - 32
        assert overlaps(r, number) == []
        assert {"house", "hands", "side", "message"} <= {name for (n, name) in r.drawn if n == number}
    cab.journal.close()


@pytest.mark.parametrize("scene", ["insurance", "dealer-blackjack", "split", "surrender", "eenentwintig-settled",
                                   "ochko-reveal", "eenendertigen-reveal", "tilt", "handpay"])
def test_the_scenes_on_narrow_tiles_keep_their_parts_apart(tmp_path, scene):
    """The four-seat scenes drawn as tiles of eight (480 x 540): the insurance on the notice's
    row, a split's two hands, the settled hands' outcomes, a lock screen's table beneath it."""
    cab = scenes.SCENES[scene](tmp_path)
    r = Renderer(language="ru")
    surf = pygame.Surface((1920, 1080))
    view = build_view(cab, scenes.SCENE_TIME, languages=dict.fromkeys(cab.seats, "ru"))
    for now in (scenes.SCENE_TIME - 10, scenes.SCENE_TIME):
        r.draw_table(surf, view, now, tiles=(4, 2))
    for number in cab.seats:
        lay = r.layouts[number]
        assert lay is not None
        drawn = {name: rect for (n, name), rect in r.drawn.items() if n == number}
        assert [name for name, rect in drawn.items() if not lay[name].contains(rect)] == []
        assert overlaps(r, number) == []
    if scene == "dealer-blackjack":  # seat 1's insurance won: said on the notice's row
        assert (1, "notice") in r.drawn
    cab.journal.close()
