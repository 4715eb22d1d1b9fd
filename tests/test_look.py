"""A finished look (issue 23, item 8): meters in large digits, lit and unlit buttons unlike at
a glance, each seat's credit and its game's own motif in attract mode, no text across the felt's
gold arc, and the operator menu's pages in one type size with the meters' columns in place."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.devtools import scenes  # noqa: E402
from machine.display import menu as menu_module  # noqa: E402
from machine.display import notes  # noqa: E402
from machine.display.draw import Renderer, tile_rects  # noqa: E402
from machine.display.painter import METERS_TOP, felt_rect  # noqa: E402
from machine.display.view import build_view  # noqa: E402
from machine.games import catalog  # noqa: E402
from machine.i18n import LANGUAGES  # noqa: E402

GAMES = ("random-blackjack", "ochko", "eenentwintig", "eenendertigen")
SIZE = (960, 540)


def texts_of(monkeypatch) -> list[tuple[str, int, pygame.Rect]]:
    """Every text ``Renderer.text`` draws from now on: its words, type size and rectangle."""
    drawn: list[tuple[str, int, pygame.Rect]] = []
    text = Renderer.text

    def record(self, surf, msg, size, *args, **kw):
        r = text(self, surf, msg, size, *args, **kw)
        off = surf.get_abs_offset()
        drawn.append((msg, size, r.move(off)))
        return r

    monkeypatch.setattr(Renderer, "text", record)
    return drawn


def attract(game: str, language: str, size=SIZE, seats: int = 1) -> pygame.Surface:
    """The attract screens of ``game``: one seat's on the whole surface, or each of ``seats``
    on its tile of it (as the development window draws them)."""
    surf = pygame.Surface(size)
    with tempfile.TemporaryDirectory() as tmp:
        cab = scenes._cabinet(Path(tmp), game=game, seats=seats)
        view = build_view(cab, scenes.SCENE_TIME, languages=dict.fromkeys(cab.seats, language))
        cab.journal.close()
    Renderer(language=language).draw_table(surf, view, now=scenes.SCENE_TIME)
    return surf


def outline(r: pygame.Rect, n: int = 16) -> list[tuple[float, float]]:
    """Points along a text's rectangle: its top and bottom edges and its sides."""
    xs = [r.left + r.width * i / n for i in range(n + 1)]
    points: list[tuple[float, float]] = [(x, y) for x in xs for y in (r.top, r.bottom)]
    return points + [(float(r.left), float(r.centery)), (float(r.right), float(r.centery))]


def inside(x: float, y: float, e: pygame.Rect) -> bool:
    return ((x - e.centerx) / (e.width / 2)) ** 2 + ((y - e.centery) / (e.height / 2)) ** 2 <= 1


@pytest.mark.parametrize("seats", [1, 4])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_no_text_of_attract_mode_crosses_the_felts_arc(game, language, seats, monkeypatch):
    """The ochko, 31 and Russian attract lines ran across the gold arc; now every text above the
    meters lies wholly inside the felt (or wholly outside it), on a whole screen and on a tile."""
    drawn = texts_of(monkeypatch)
    attract(game, language, seats=seats)
    crossing = []
    for tile in tile_rects(pygame.Surface(SIZE), seats):
        e = felt_rect(tile.width, tile.height).move(tile.topleft)
        above = [(m, r) for m, _size, r in drawn
                 if tile.contains(r) and r.top < tile.bottom - METERS_TOP * tile.height / 540]
        assert len(above) >= 5  # the title, the seat, the call for coins (on at this time), the lines
        crossing += [m for m, r in above if len({inside(x, y, e) for x, y in outline(r)}) > 1]
    assert crossing == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_its_own_motif_from_the_registry_and_attract_shows_the_credit(game, monkeypatch):
    cards: list[str | None] = []
    card_surface = notes.card_surface
    def record(code, *a):
        cards.append(code)
        return card_surface(code, *a)

    monkeypatch.setattr(notes, "card_surface", record)
    drawn = texts_of(monkeypatch)
    attract(game, "en")
    engine = catalog.engine(scenes.load_profile(game).engine)
    assert cards == list(engine.motif) and len(engine.motif) >= 2
    assert "CREDIT" in [m for m, _s, _r in drawn]  # the meters, while the seat is idle too
    motifs = {catalog.engine(scenes.load_profile(g).engine).motif for g in GAMES}
    assert len(motifs) == len(GAMES)  # no two games alike (the A-K-7-7-7 fan decorated every one)


def test_the_meters_are_read_in_large_digits(monkeypatch):
    """A real cabinet's meters read from the seat: the points at 31 px on 540 lines (they were
    20), their names at 13 px (12)."""
    drawn = texts_of(monkeypatch)
    surf = pygame.Surface(SIZE)
    with tempfile.TemporaryDirectory() as tmp:
        cab = scenes.scene_betting(Path(tmp))
        view = build_view(cab, scenes.SCENE_TIME)
        cab.journal.close()
    Renderer().draw_seat(surf, view, 1, now=scenes.SCENE_TIME)
    sizes = {m: size for m, size, _r in drawn}
    assert sizes["CREDIT"] >= 13 and sizes[str(view.seats[0].credit)] >= 31


def test_lit_and_unlit_buttons_differ_by_far_more_than_a_shade():
    """The unlit legends were grey on grey, (130, 140, 134) on (60, 70, 64), beside lit amber."""
    surf = pygame.Surface(SIZE)
    with tempfile.TemporaryDirectory() as tmp:
        cab = scenes.scene_betting(Path(tmp))
        view = build_view(cab, scenes.SCENE_TIME)
        cab.journal.close()
    r = Renderer()
    r.draw_seat(surf, view, 1, now=scenes.SCENE_TIME)
    seat = view.seats[0]

    def light(c) -> float:
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]

    lit = [b for b in seat.lamps]
    unlit = [b for (n, b) in r.button_rects if n == 1 and b not in seat.lamps]
    assert lit and unlit
    fill = {b: surf.get_at(r.button_rects[(1, b)].move(0, 0).inflate(-8, -8).topleft)[:3] for b in lit + unlit}
    assert min(light(fill[b]) for b in lit) - max(light(fill[b]) for b in unlit) > 150
    assert max(light(fill[b]) for b in unlit) < 40  # dark: the unlit button recedes


def menu_texts(name: str, monkeypatch, language: str = "en") -> list[tuple[str, int, dict]]:
    said: list[tuple[str, int, dict]] = []
    blit = menu_module._blit

    def record(surf, r, text, size, color, **where):
        said.append((text, size, where))
        return blit(surf, r, text, size, color, **where)

    monkeypatch.setattr(menu_module, "_blit", record)
    scenes.render_scene(name, size=SIZE, language=language)
    return said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_menu_pages_share_one_type_size_and_the_meters_keep_their_columns(language, monkeypatch):
    sizes: dict[str, int] = {}
    columns: dict[str, tuple[int, ...]] = {}
    for name in ("menu-meters", "menu-meters-2", "menu-settings", "menu-events"):
        said = menu_texts(name, monkeypatch, language)
        rows = [size for _t, size, _w in said[2:-1]]  # the table: not OPERATOR, the title, the footer
        sizes[name] = max(set(rows), key=rows.count)
        if name.startswith("menu-meters"):  # the header's right-aligned names: where each column ends
            columns[name] = tuple(w["topright"][0] for _t, _s, w in said[2:12] if "topright" in w)
    assert len(set(sizes.values())) == 1
    assert columns["menu-meters"] == columns["menu-meters-2"] and len(columns["menu-meters"]) >= 6


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_text_of_any_player_scene_crosses_the_felts_arc(language, monkeypatch):
    """Every main screen's texts, on each of its tiles (four, eight for eight seats), clear of
    the arc (English, and Russian: the longest words)."""
    drawn = texts_of(monkeypatch)
    crossing = []
    for name in scenes.SCENES:
        if name == "starting":
            continue
        drawn.clear()
        scenes.render_scene(name, size=SIZE, language=language)
        for tile in tile_rects(pygame.Surface(SIZE), scene_seats(name)):
            e = felt_rect(tile.width, tile.height).move(tile.topleft)
            crossing += [(name, m) for m, _size, r in drawn
                         if tile.contains(r) and r.top < tile.bottom - METERS_TOP * tile.height / 540
                         and len({inside(x, y, e) for x, y in outline(r)}) > 1]
    assert crossing == []


def scene_seats(name: str) -> int:
    """How many seats scene ``name``'s cabinet has (its tiles on the window)."""
    with tempfile.TemporaryDirectory() as tmp:
        cab = scenes.SCENES[name](Path(tmp))
        cab.journal.close()
        return len(cab.seats)


def limited_texts_of(monkeypatch) -> list[tuple[str, int, float | None, pygame.Rect]]:
    """Every text drawn from now on with the room it was given (``width``) and where it went."""
    drawn: list[tuple[str, int, float | None, pygame.Rect]] = []
    text = Renderer.text

    def record(self, surf, msg, size, color, center=None, topleft=None, topright=None, width=None, smallest=9):
        r = text(self, surf, msg, size, color, center, topleft, topright, width, smallest)
        drawn.append((msg, size, width, r))
        return r

    monkeypatch.setattr(Renderer, "text", record)
    return drawn


# slow: every player scene drawn at 1920x1080 with each text's room measured
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_text_of_any_player_scene_runs_past_its_room_at_the_windows_size(language, monkeypatch):
    """On the 1920x1080 window's tiles every text given a room fits in it (the Russian title of
    eenentwintig ran 9 pixels past the header's at its smallest size)."""
    drawn = limited_texts_of(monkeypatch)
    over = []
    for name in scenes.SCENES:
        if name == "starting":
            continue
        drawn.clear()
        scenes.render_scene(name, size=(1920, 1080), language=language)
        over += [(name, m, w, r.width) for m, _size, w, r in drawn if w is not None and r.width > w + 0.5]
    assert over == []


@pytest.mark.parametrize("scene", ["ochko-reveal", "ochko-settled", "eenentwintig-settled"])
def test_a_lone_hands_result_keeps_its_type_size_in_russian(scene, monkeypatch):
    """"Выигрыш 2 (возврат 4)" under a seat's one hand is drawn at the result's size, not squeezed
    into the width of two cards (it was, to about half the size of the English "Win 2 (4 back)")."""
    drawn = limited_texts_of(monkeypatch)
    scenes.render_scene(scene, size=(1920, 1080), language="ru")
    renderer = Renderer(language="ru")
    results = [(m, r.width, renderer.font(size).size(m)[0]) for m, size, _w, r in drawn
               if size == 19 and m.startswith(("Выигрыш", "Проигрыш"))]
    assert results and all(drawn_w == full for _m, drawn_w, full in results), results
