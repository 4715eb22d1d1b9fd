"""Painting a table of places (eenendertigen) on one player screen, from a ``TableView``.

Owns: the layout of a game of places below the header: the table's open cards at the top
(classic: three; modern: the open card beside the closed stack, drawn as a card back with its
count) with the seat's picked table card framed; the notice line; the other places small in a
row, each with its label ("Place 3 · Computer"), its cards (backs while hidden), "passed",
"31!", its swaps and a marker on the place to move, and at the end its score and WIN; the
seat's own hand in the middle, larger, its picked card framed and lifted, its score and result.
Records every card a touch may choose in ``Renderer.card_rects`` (``(seat, "hand:2")``,
``(seat, "table:1")``, ``(seat, "stack")``), moved by the tile's offset like the buttons.
Never changes the cabinet and never routes a touch (the loop does, through the router).
``draw.py`` calls it with its ``Renderer``; the colours come from ``palette.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import pygame

from machine.display.palette import DIM, FELT_DARK, GOLD, RED, WHITE
from machine.display.view import SeatView, TableView
from machine.games.interface import PlaceShown

if TYPE_CHECKING:
    from machine.display.draw import Renderer  # it calls in here and draws with what it is given

# the layout's heights at s = 1 (a 960x540 screen); everything scales with s
TABLE_Y = 26
NOTICE_Y = 140
PANELS_Y = 152
PANEL_H = 82
MESSAGE_Y = 250
HAND_Y = 280
COUNTDOWN_Y = 330  # the decision's countdown, right of the hand (clear of the places' row)
LIFT = 12
TABLE_SCALE = 0.7  # the table's cards (the Renderer's card is 92x132 at s = 1)
OWN_SCALE = 0.78  # with HAND_Y: the hand and its label clear of the notes line above the meters
SMALL_SCALE = 0.38
NARROW_PANEL_SCALE = 0.3  # the other places' cards on a narrow tile, their words on a line below them


class Spots(NamedTuple):
    """Where the parts of a table of places go, at s = 1: the heights above on a wide screen,
    a narrow tile's from machine/display/narrow.py (``narrow``: the table's title left of its
    cards, each other place's words on one line below its cards)."""

    table_y: float = TABLE_Y
    notice_y: float = NOTICE_Y
    panels_y: float = PANELS_Y
    hand_y: float = HAND_Y
    table_scale: float = TABLE_SCALE
    own_scale: float = OWN_SCALE
    narrow: bool = False


WIDE = Spots()


def draw_places(r: Renderer, surf: pygame.Surface, view: TableView, seat: SeatView, now: float, s: float, offset,
                spots: Spots = WIDE) -> None:
    """The table, the notice, the other places and the seat's own hand (see the module docstring),
    where ``spots`` puts them."""
    with r.part(seat.number, "house"):
        _table(r, surf, view, seat, now, s, offset, spots)
    if view.notice:
        with r.part(seat.number, "notice"):
            r.text(surf, r.tr(view.notice), int((17 if spots is WIDE else 15) * s), GOLD,
                   center=(surf.get_width() / 2, spots.notice_y * s), width=surf.get_width() - 20 * s)
    own = seat.hands[0] if seat.hands else None
    others = [p for p in view.places if own is None or p.seat != seat.number]
    with r.part(seat.number, "side"):
        _panels(r, surf, view, others, now, s, spots)
    if own is not None:
        mine = next((p for p in view.places if p.seat == seat.number), None)
        with r.part(seat.number, "hands"):
            _own_hand(r, surf, view, seat, mine, now, s, offset, spots)


def _frame(surf: pygame.Surface, rect: pygame.Rect, s: float) -> None:
    pygame.draw.rect(surf, GOLD, rect.inflate(int(10 * s), int(10 * s)), width=max(2, int(3 * s)), border_radius=int(8 * s))


def _table(r: Renderer, surf, view: TableView, seat: SeatView, now: float, s: float, offset, spots: Spots) -> None:
    W = surf.get_width()
    scale = spots.table_scale
    cw, ch = r.card_size(s * scale)
    gap = 12 * s
    cards = list(view.dealer_cards)
    slots = max(1, len(cards)) + (1 if view.stack is not None else 0)
    x = W / 2 - (slots * cw + (slots - 1) * gap) / 2
    y = spots.table_y * s
    if spots.narrow:  # a narrow tile: the title left of the cards, the header's lines above them
        r.text(surf, r.tr(view.dealer_title), int(16 * s), DIM, topright=(int(x - 10 * s), int(y + ch / 2 - 10 * s)),
               width=x - 22 * s)
    else:
        r.text(surf, r.tr(view.dealer_title), int(16 * s), DIM, center=(W / 2, 14 * s))
    picked = seat.picks.get("table")
    if not cards:  # modern: the open card just taken, the pile's place empty until the discard
        pygame.draw.rect(surf, DIM, pygame.Rect(int(x), int(y), cw, ch), width=max(1, int(2 * s)), border_radius=int(6 * s))
        x += cw + gap
    for i, c in enumerate(cards):
        rect = pygame.Rect(int(x), int(y), cw, ch)
        r._card(surf, c, x, y, s * scale, ("table", i, c), now)
        if picked == i + 1:
            _frame(surf, rect, s)
        r.card_rects[(seat.number, f"table:{i + 1}")] = rect.move(offset)
        x += cw + gap
    if view.stack is not None:
        rect = pygame.Rect(int(x), int(y), cw, ch)
        if view.stack:
            r._card(surf, None, x, y, s * scale, ("stack",), now)
        else:
            pygame.draw.rect(surf, DIM, rect, width=max(1, int(2 * s)), border_radius=int(6 * s))
        pill = pygame.Rect(0, 0, int(cw * 1.25), int(22 * s))
        pill.center = (rect.centerx, rect.bottom - int(14 * s))
        pygame.draw.rect(surf, (0, 0, 0), pill, border_radius=int(6 * s))
        r.text(surf, r._("Stack {cards}", cards=view.stack), int(14 * s), WHITE, center=pill.center, width=pill.width - 4 * s)
        r.card_rects[(seat.number, "stack")] = rect.move(offset)


def _status(r: Renderer, view: TableView, p: PlaceShown) -> list[tuple[str, str]]:
    """What a place shows beside its cards, as (text, colour name): 31!, passed, its swaps."""
    out = []
    if p.knocked:
        out.append(("31!", "gold"))
    if p.passed:
        out.append((r._("passed"), "dim"))
    if view.max_swaps is not None:
        out.append((r._("swaps {swaps}/{most}", swaps=p.swaps, most=view.max_swaps), "dim"))
    else:
        out.append((r._("swaps {swaps}", swaps=p.swaps), "dim"))
    return out


def _panels(r: Renderer, surf, view: TableView, places: list[PlaceShown], now: float, s: float, spots: Spots) -> None:
    if not places:
        return
    W = surf.get_width()
    colors = {"gold": GOLD, "dim": DIM, "white": WHITE}
    gap = 10 * s
    pw = min(300 * s, (W - 20 * s - gap * (len(places) - 1)) / len(places))
    x = W / 2 - (pw * len(places) + gap * (len(places) - 1)) / 2
    cw, ch = r.card_size(s * SMALL_SCALE)
    for p in places:
        box = pygame.Rect(int(x), int(spots.panels_y * s), int(pw), int(PANEL_H * s))
        r.mark(box)
        pygame.draw.rect(surf, FELT_DARK, box, border_radius=int(8 * s))
        edge = GOLD if p.turn or p.won else DIM
        pygame.draw.rect(surf, edge, box, width=max(1, int((3 if p.turn or p.won else 1) * s)), border_radius=int(8 * s))
        who = r._("Computer") if p.seat is None else r._("Seat {seat}", seat=p.seat)
        lx = box.left + int(8 * s)
        if p.turn:  # the place to move: a marker before its label
            ty = box.top + 12 * s
            pygame.draw.polygon(surf, GOLD, [(lx, ty - 6 * s), (lx, ty + 6 * s), (lx + 9 * s, ty)])
            lx += int(13 * s)
        r.text(surf, r._("Place {place} \u00b7 {who}", place=p.place, who=who), int(14 * s),
               WHITE if p.seat is not None else DIM, topleft=(lx, box.top + int(5 * s)), width=box.right - lx - 6 * s)
        cy = box.top + int(24 * s)
        if spots.narrow:
            _narrow_panel(r, surf, view, p, box, cy, now, s)
            x += pw + gap
            continue
        for j, c in enumerate(p.cards):
            r._card(surf, c, box.left + 8 * s + j * (cw + 3 * s), cy, s * SMALL_SCALE, ("place", p.place, j, c), now)
        sx = box.left + 8 * s + len(p.cards) * (cw + 3 * s) + 6 * s
        lines = _status(r, view, p)
        if p.won is not None:  # the round is over: its score (31! beside it) and whether it won
            score = r.tr(p.score_text)
            lines = [(f"{score}  31!" if p.knocked else score, "white")]
            if p.won:
                lines.append((r._("Won ({back} back)", back=r.num(p.returned)) if p.seat is not None else r._("Wins"), "gold"))
        ly = float(cy)
        for text, color in lines[:3]:
            big = text == "31!" or color == "white"
            r.text(surf, text, int((18 if big else 14) * s), colors[color], topleft=(int(sx), int(ly)),
                   width=box.right - sx - 4 * s)
            ly += (20 if big else 17) * s
        x += pw + gap


def _narrow_panel(r: Renderer, surf, view: TableView, p: PlaceShown, box: pygame.Rect, cy: float, now: float,
                  s: float) -> None:
    """A place's cards and, on one line below them, its words (31!, passed, swaps; at the end
    its score and whether it won), to fit a narrow tile's panel."""
    scale = s * NARROW_PANEL_SCALE
    cw, ch = r.card_size(scale)
    step = min(cw + 3 * s, (box.width - 16 * s - cw) / max(1, len(p.cards) - 1))
    for j, c in enumerate(p.cards):
        r._card(surf, c, box.left + 8 * s + j * step, cy, scale, ("place", p.place, j, c), now)
    if p.won is not None:
        score = r.tr(p.score_text)
        words = [f"{score}  31!" if p.knocked else score]
        if p.won:
            words.append(r._("Won ({back} back)", back=r.num(p.returned)) if p.seat is not None else r._("Wins"))
        colour = GOLD if p.won else WHITE
    else:
        status = _status(r, view, p)
        words = [text for text, _ in status]
        colour = GOLD if p.knocked else DIM
    r.text(surf, "  ".join(words), int(12 * s), colour, center=(box.centerx, int(cy + ch + 9 * s)),
           width=box.width - 10 * s, smallest=8)


def _own_hand(r: Renderer, surf, view: TableView, seat: SeatView, mine: PlaceShown | None, now: float, s: float,
              offset, spots: Spots) -> None:
    W = surf.get_width()
    hand = seat.hands[0]
    hand_y = spots.hand_y
    cs = s * spots.own_scale
    cw, ch = r.card_size(cs)
    gap = 10 * s
    n = len(hand.cards)
    x0 = W / 2 - (n * cw + (n - 1) * gap) / 2
    picked = seat.picks.get("hand")
    for j, c in enumerate(hand.cards):
        x, y = x0 + j * (cw + gap), hand_y * s - (LIFT * s if picked == j + 1 else 0)
        r._card(surf, c, x, y, cs, ("own", seat.number, j, c), now)
        rect = pygame.Rect(int(x), int(y), cw, ch)
        if picked == j + 1:
            _frame(surf, rect, s)
        r.card_rects[(seat.number, f"hand:{j + 1}")] = rect.move(offset)
    y = hand_y * s + ch
    parts = [r._("Place {place}", place=mine.place) if mine is not None else "",
             r._("Bet {bet}", bet=r.num(hand.stake)) if hand.stake else "", r.tr(hand.total_text)]
    label = "  \u00b7  ".join(x for x in parts if x)
    if spots is WIDE:
        r.text(surf, label, int(17 * s), WHITE, center=(W / 2, y + 14 * s))
    else:  # a narrow tile: just below the cards, within the tile
        r.text(surf, label, int(16 * s), WHITE, center=(W / 2, y + 11 * s), width=W - 20 * s)
    lx, ly = x0 + n * (cw + gap) + 8 * s, hand_y * s + 6 * s  # beside the hand: 31!, passed, swaps; the result
    status = _status(r, view, mine) if mine is not None and not hand.result else []
    if mine is not None and mine.knocked and hand.result:
        status = [("31!", "gold")]
    if hand.result:
        status.append((r.outcome(hand), "win" if hand.result == "win" else "lose"))
    for text, color in status:
        big = color != "dim"
        r.text(surf, text, int((22 if big else 15) * s), {"dim": DIM, "lose": RED}.get(color, GOLD), topleft=(int(lx), int(ly)),
               width=W - lx - 60 * s)
        ly += (26 if big else 19) * s
