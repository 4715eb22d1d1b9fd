"""Eenendertigen on the screens: what the view says (places hidden, then revealed; the picks), a
click or a finger on a drawn card reaching ``Cabinet.touch`` through the loop's router, and the
recall of a real round (operator menu page and drawing, ``cabinet audit`` text and CSV).
The scenes are the screenshot scenes (machine/devtools/scenes.py), played on a real cabinet."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.devtools.scenes import (  # noqa: E402
    EEN31_CLASSIC,
    _two_seat_round,
    scene_eenendertigen_discard,
    scene_eenendertigen_reveal,
    scene_eenendertigen_swap,
)
from machine.display.gamewords import say  # noqa: E402
from machine.display.view import build_view  # noqa: E402
from machine.games.interface import FACE_DOWN  # noqa: E402
from machine.loop.app import CabinetApp  # noqa: E402
from machine.loop.modes import ModeEvent  # noqa: E402
from machine.loop.router import Router  # noqa: E402
from tests.helpers import stored_pin  # noqa: E402

HIDDEN = (FACE_DOWN,) * 3


# -- the view -------------------------------------------------------------------------------------


def test_the_view_hides_every_place_and_frames_the_seats_picks(tmp_path):
    cab = scene_eenendertigen_swap(tmp_path)  # seat 1 to move; Draw and Split moved its picks to 2 and 2
    v = build_view(cab, 8.0)
    assert [(p.place, p.seat, p.cards, p.score_text) for p in v.places] == [
        (1, 1, HIDDEN, ""), (2, 2, HIDDEN, ""), (3, None, HIDDEN, ""), (4, None, HIDDEN, "")]
    assert [p.turn for p in v.places] == [True, False, False, False]
    assert v.dealer_cards == ("9D", "QH", "7S") and v.stack is None and v.max_swaps == 5 and v.dealer_title == "TABLE"
    one, two = v.seats[0], v.seats[1]
    assert one.hands[0].cards == ("AH", "8C", "KH") and two.hands[0].cards == ("7D", "8D", "9S")  # each its own, open
    assert one.picks == {"hand": 2, "table": 2} and two.picks == {}
    assert one.labels["draw"] == "Hand card" and one.labels["double"] == "Swap" and one.message == "Your turn"
    assert (two.message, two.fields) == ("Seat {seat} is deciding", {"seat": 1})


def test_the_view_reveals_every_place_at_the_end_and_keeps_it_between_rounds(tmp_path):
    cab = scene_eenendertigen_reveal(tmp_path)  # seat 1 swapped to 31 and knocked; the others had one more turn
    assert cab.round is None
    v = build_view(cab, 8.0)
    got = [(p.place, p.cards, p.score_text, p.knocked, p.passed, p.won, p.returned) for p in v.places]
    assert got == [
        (1, ("AH", "QH", "KH"), "31", True, False, True, 7),
        (2, ("7D", "8D", "9S"), "15", False, True, False, 0),
        (3, ("JC", "8C", "7C"), "25", False, False, False, 0),
        (4, ("TS", "8S", "JS"), "28", False, False, False, 0),
    ]
    assert v.notice == "31! · Place 1 wins"
    assert v.seats[0].message == "You win" and v.seats[1].message == "You lose"  # no "Table wins": no house
    assert v.seats[0].hands[0].result == "win" and v.seats[0].hands[0].returned == 7
    assert all(s.picks == {} for s in v.seats)


def test_the_modern_view_shows_the_stack_and_four_cards_at_the_discard(tmp_path):
    cab = scene_eenendertigen_discard(tmp_path)
    v = build_view(cab, 8.0)
    assert v.stack == 52 - 12 - 1 - 1 and v.max_swaps is None and v.dealer_cards == ("2S",)
    one = v.seats[0]
    assert one.hands[0].cards == ("KS", "5S", "9D", "QS") and one.picks == {"hand": 3}
    assert one.message == "Discard a card" and one.labels["double"] == "Discard"


# -- touch ----------------------------------------------------------------------------------------


def _screens_and_app(cab) -> tuple[Any, Any]:
    from machine.display.screens import Screens

    cfg: Any = SimpleNamespace(display=SimpleNamespace(layout="single", width=1920, height=1080, fullscreen=False),
                               language="en", seats=4)
    screens = Screens(cfg, "test")
    app: Any = SimpleNamespace(screens=screens, clock=lambda: 5.0, lock=threading.Lock(),
                               router=Router(cab, lambda: None, []))  # type: ignore[arg-type, return-value]
    app.touch = lambda event: CabinetApp.touch(app, event)
    return screens, app


def _click(app, cab, target: tuple[int, str], **extra) -> None:
    app.screens.draw(build_view(cab, 5.0), 5.0, attract=False, banner="")  # the rects of what is on screen now
    rect = app.screens.renderer.card_rects[target]
    CabinetApp.on_input(app, pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1, **extra))


def test_a_click_on_a_card_reaches_cabinet_touch_through_the_router(tmp_path):
    cab = _two_seat_round(tmp_path, EEN31_CLASSIC, 5, game="eenendertigen")
    screens, app = _screens_and_app(cab)
    _click(app, cab, (1, "hand:2"))  # chooses the 8C
    assert cab.picks(1) == {"hand": 2, "table": 1} and cab.round.places[0].cards == ["AH", "8C", "KH"]
    _click(app, cab, (2, "table:1"))  # seat 2's screen (the top right tile): not its turn, nothing
    assert cab.seats[2].picks == {} and cab.round.turn == 0
    _click(app, cab, (1, "table:2"), touch=True)  # a finger's copy as a mouse event: the finger counts, not this
    assert cab.round.turn == 0
    screens.draw(build_view(cab, 5.0), 5.0, attract=False, banner="")
    rect = screens.renderer.card_rects[(1, "table:2")]
    finger = pygame.event.Event(pygame.FINGERDOWN, x=rect.centerx / 1920, y=rect.centery / 1080, touch_id=1, finger_id=0)
    CabinetApp.on_input(app, finger)  # the QH: both cards chosen, the swap: 31
    place = cab.round.places[0]
    assert place.cards == ["AH", "QH", "KH"] and place.knocked and cab.round.pending.seat == 2
    assert cab.journal.records("round_event")  # it was played as a move, journaled


def test_a_touch_goes_nowhere_while_the_operator_menu_has_the_screen(tmp_path):
    cab = _two_seat_round(tmp_path, EEN31_CLASSIC, 5, game="eenendertigen")
    screens, app = _screens_and_app(cab)
    app.router.open_menu = lambda: SimpleNamespace(requests=[])
    app.router.fire(ModeEvent.OPERATOR_KEY_ON, 5.0)
    _click(app, cab, (1, "hand:3"))
    assert cab.seats[1].picks == {}


# -- recall ---------------------------------------------------------------------------------------


def test_recall_of_a_real_round_shows_every_place_and_move(tmp_path):
    from machine.display.draw import Renderer
    from machine.display.menu import draw_menu
    from machine.money.audit import gather
    from machine.operator.menu import OperatorMenu
    from machine.operator.reports import as_csv, as_text

    cab = scene_eenendertigen_reveal(tmp_path)
    menu = OperatorMenu(cab, stored_pin("1234"), "id")
    for b in ("draw", "start"):  # Game recall, seat 1
        menu.press(1, b, 6)
    page = menu.view()
    assert page.lines[-16:-7] == [  # every place's moves in words, step by step
        "   17. Place 1 (seat 1): knock: 31!", "   18. Place 2 (seat 2): pass",
        "   19. Place 3 (computer): swap hand card 2 for table card 2: took 8♣, gave 10♠",
        "   20. Place 4 (computer): swap hand card 1 for table card 2: took 10♠, gave 9♣",
        "   21. Place 1 (seat 1) shows A♥ Q♥ K♥: 31, wins", "   22. Place 2 (seat 2) shows 7♦ 8♦ 9♠: 15",
        "   23. Place 3 (computer) shows J♣ 8♣ 7♣: 25", "   24. Place 4 (computer) shows 10♠ 8♠ J♠: 28",
        "   25. Ended: a knock with 31",
    ]
    pygame.font.init()
    draw_menu(pygame.Surface((960, 540)), page, Renderer())  # every place's cards, no KeyError
    cab.journal.close()
    report = gather(Path(tmp_path) / "journal.sqlite", cab.journal.key)
    text = as_text(report, "recall")
    assert ("places P1 seat 1: AH QH KH 31 31! WIN 7 | P2 seat 2: 7D 8D 9S 15 passed lose | "
            "P3 computer: JC 8C 7C 25 | P4 computer: TS 8S JS 28  ended 31, winners 1  decisions pass") in text
    assert "    moves: P1 swap:2:2 took QH gave 8C, P1 31!, P2 passed" in text
    rows = as_csv(report, "recall").splitlines()
    assert rows[0].endswith(",club_after") and rows[1].startswith("1,1,2,,P1 seat 1: AH QH KH 31 31! WIN 7 | ")
    assert len(rows[1].split(",")) == len(rows[0].split(","))  # the CSV's columns are every game's (moves: --json)


def test_the_words_of_31_in_dutch():
    from machine.games.text import SEP, Text
    from machine.i18n import Words

    nl = Words("nl")
    game = {  # the game's own words and texts (message ids with their fields), through the catalog
        "TABLE": "TAFEL", "31!": "31!", "30.5": "30,5",
        Text("31! Place {place} knocked: one more turn each", place=2):
            "31! Plaats 2 heeft 31: de anderen mogen nog \u00e9\u00e9n keer wisselen",
        Text.joined(SEP, ["Everyone passed", Text("Place {place} wins", place=3)]): "Iedereen heeft gepast · plaats 3 wint",
        Text.joined(SEP, ["31!", Text("Places {places} share the win", places="1, 3")]): "31! · plaatsen 1, 3 delen de winst",
        "Swap all three": "Alle drie ruilen",
    }
    assert {en: say(nl, en) for en in game} == game
    assert list(game)[3] == "31! Place 2 knocked: one more turn each"  # the English cabinet round prints
    assert nl("Place {place} \u00b7 {who}", place=2, who=nl("Seat {seat}", seat=4)) == "Plaats 2 \u00b7 Speler 4"
    assert nl("Place {place} \u00b7 {who}", place=3, who=nl("Computer")) == "Plaats 3 \u00b7 Computer"
    assert nl("swaps {swaps}/{most}", swaps=2, most=5) == "geruild 2/5" and nl("Stack {cards}", cards=23) == "Stapel 23"
    assert nl("passed") == "gepast" and nl("Discard a card") == "Leg een kaart af"
