"""Painting an eenendertigen tournament on a player screen from the ``TournamentView``.

Owns: the ranking list screen (the attract screen while a tournament is open, the screen of
every seat waiting while one participant plays, the last closed tournament's final list with
its published seed), the name entry screen of the seat entering (the name so far, the
character Draw / Stand stand on, the buttons' meanings) and the participant's "Round k of 16 -
score S" line above their table. Draws with the ``Renderer`` it is given (machine/display/
draw.py calls in through two small hooks); never changes the cabinet.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pygame

from machine.display.palette import DIM, GOLD, WHITE
from machine.display.view import SeatView, TableView
from machine.i18n import N_

UNNAMED = re.compile(r"Player \d+")  # the core's name for a participant who entered none (never typed: lower case)

if TYPE_CHECKING:
    from machine.display.draw import Renderer

PANEL = (8, 40, 24)
LOCKED = ("handpay", "tilt", "memory_error")


def takes_screen(view: TableView, seat: SeatView) -> bool:
    """Whether the tournament paints this seat's whole screen (its name entry, or the ranking
    list where the seat would otherwise show the attract screen or wait)."""
    t = view.tournament
    if t is None or seat.state in LOCKED:
        return False
    if t.state == "playing":
        return not (t.seat == seat.number and t.stage == "play") and seat.state != "in_round"
    return view.attract and seat.state == "idle"


def draw_screen(r: Renderer, surf: pygame.Surface, view: TableView, seat: SeatView, now: float, s: float,
                offset: tuple[int, int] = (0, 0)) -> None:
    """The seat's whole screen (``takes_screen`` said so): name entry or ranking list, buttons."""
    t = view.tournament
    assert t is not None
    if t.state == "playing" and t.seat == seat.number and t.stage == "name":
        _name_entry(r, surf, view, seat, s)
    else:
        _ranking(r, surf, view, seat, now, s)
    r._buttons(surf, seat, s, offset)


def draw_progress(r: Renderer, surf: pygame.Surface, view: TableView, seat: SeatView, s: float) -> None:
    """The playing participant's line above their table."""
    t = view.tournament
    if t is None or t.state != "playing" or t.seat != seat.number or t.stage != "play":
        return
    W, _ = surf.get_size()
    box = pygame.Rect(int(W * 0.2), int(2 * s), int(W * 0.6), int(24 * s))
    pygame.draw.rect(surf, PANEL, box, border_radius=int(6 * s))
    r.text(surf, f"{_name(r, t.who)}: {_progress(r, t)}", int(16 * s), GOLD, center=box.center, width=box.width - 8 * s)


def heading(r: Renderer, t) -> str:
    """The tournament's heading in the screen's language (its variant a known word)."""
    return r._(t.heading, **{k: r.tr(str(v)) if k == "variant" else v for k, v in t.fields.items()})


def _progress(r: Renderer, t) -> str:
    f = t.fields
    return r._(t.progress, round=f["round"], rounds=f["rounds"], score=r.num(f["score"])) if t.progress else ""


def _ranking(r: Renderer, surf: pygame.Surface, view: TableView, seat: SeatView, now: float, s: float) -> None:
    t = view.tournament
    assert t is not None
    W, H = surf.get_size()
    r.text(surf, r._("TOURNAMENT") if t.state != "closed" else r._("TOURNAMENT RESULT"), int(34 * s), GOLD,
           center=(W / 2, H * 0.07), width=W - 20 * s)
    r.text(surf, heading(r, t), int(16 * s), WHITE, center=(W / 2, H * 0.13), width=W - 20 * s)
    if t.state == "closed":
        status = r._("Seed: {seed}", seed=t.seed)
    elif t.state == "open":
        status = r._("Opens soon: the cabinet plays as usual until then")
    elif t.seat is not None and t.stage == "play":
        f = t.fields
        status = r._("Seat {seat} is playing: {name}, round {round} of {rounds} - score {score}", seat=t.seat,
                     name=_name(r, t.who), round=f["round"], rounds=f["rounds"], score=r.num(f["score"]))
    elif t.seat is not None:
        status = r._("Seat {seat} is entering a name", seat=t.seat)
    elif t.full:
        status = r._("Ten participants: the tournament is full")
    else:
        status = r._("Press Start to enter") if "start" in seat.lamps else r._("A tournament is on")
    r.text(surf, status, int(13 * s) if t.state == "closed" else int(17 * s), DIM if t.state == "closed" else GOLD,
           center=(W / 2, H * 0.185), width=W - 20 * s)
    top = H * 0.23
    box = pygame.Rect(int(W * 0.1), int(top), int(W * 0.8), int(H * 0.42))
    pygame.draw.rect(surf, PANEL, box, border_radius=int(8 * s))
    cols = (0.14, 0.24, 0.62, 0.78)
    y = top + 6 * s
    for text, c in zip((N_("Rank"), N_("Name"), N_("Score"), N_("Rounds")), cols, strict=True):
        r.text(surf, r._(text), int(13 * s), DIM, topleft=(int(W * c), int(y)))
    y += 20 * s
    if not t.rows:
        r.text(surf, r._("No participants yet"), int(16 * s), WHITE, topleft=(int(W * cols[1]), int(y)))
    for row in t.rows[:10]:
        for i, (text, c) in enumerate(zip(row, cols, strict=True)):
            r.text(surf, _name(r, text) if i == 1 else r.tr(text), int(15 * s), WHITE, topleft=(int(W * c), int(y)))
        y += 19 * s
    if t.state != "playing":  # the attract screen of the game in force, the list on it
        r.text(surf, f"{r._(view.game_title).upper()}  -  {r._('SEAT {seat}', seat=seat.number)}", int(17 * s), GOLD,
               center=(W / 2, H * 0.70), width=W - 20 * s)
        if int(now * 2) % 2 == 0:
            r.text(surf, r._("INSERT COINS"), int(24 * s), WHITE, center=(W / 2, H * 0.75), width=W - 20 * s)
        if seat.number in view.game_choice:
            r.text(surf, r._("Draw / Stand: choose the game"), int(14 * s), GOLD, center=(W / 2, H * 0.80))


def _name(r: Renderer, name: str) -> str:
    """A participant's name: as entered (A-Z, 0-9), or "Player N" in the seat's language."""
    return r.tr(name) if UNNAMED.fullmatch(name) else name


def _name_entry(r: Renderer, surf: pygame.Surface, view: TableView, seat: SeatView, s: float) -> None:
    t = view.tournament
    assert t is not None
    W, H = surf.get_size()
    r.text(surf, r._("ENTER YOUR NAME"), int(32 * s), GOLD, center=(W / 2, H * 0.1), width=W - 20 * s)
    r.text(surf, heading(r, t), int(15 * s), WHITE, center=(W / 2, H * 0.17), width=W - 20 * s)
    box = pygame.Rect(int(W * 0.15), int(H * 0.24), int(W * 0.7), int(H * 0.14))
    pygame.draw.rect(surf, PANEL, box, border_radius=int(8 * s))
    shown = t.name + "[" + (t.char if t.char != " " else r._("space")) + "]"
    r.text(surf, shown, int(34 * s), WHITE, center=box.center)
    y = H * 0.43
    for line in t.keys:
        r.text(surf, r.tr(line), int(15 * s), DIM, center=(W / 2, y))
        y += 19 * s
    r.text(surf, r._("An empty name plays as the next participant number"), int(13 * s), DIM, center=(W / 2, y + 4 * s),
           width=W - 20 * s)
    if t.note:
        r.text(surf, r.tr(t.note), int(16 * s), (240, 140, 40), center=(W / 2, H * 0.71), width=W - 20 * s)
