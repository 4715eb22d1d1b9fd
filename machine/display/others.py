"""The other seats on a player screen: a line per seat at the top left, its cards below it.

Owns: the strip of the other seats on one seat's screen: each other seat's number, state and
bet, and under it that seat's hands exactly as the game lets THIS seat see them
(``SeatView.others``, built from ``TableShown.seen_by``: ochko's closed cards as backs until a
21, a bust or the settlement; eenentwintig's open card from the deal on; blackjack's all open),
each hand's total and, once settled, its outcome; a seat whose hand was just shown to every seat
(``TableView.revealing``) framed in gold while play holds for it. The cards shrink to fit the
room between the header and the seat's own hands, for every seat count and tile size. A game of
places (eenendertigen) draws its places itself (machine/display/places.py): here only its lines.
Never decides what a seat may see (the game does) and never changes the cabinet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from machine.display.palette import DIM, GOLD, RED, WHITE
from machine.display.view import SeatView, TableView
from machine.i18n import N_

if TYPE_CHECKING:
    from machine.display.cards import CardsPainter  # it calls in here and draws with what it is given

# at s = 1 (a 960x540 screen); everything scales with s
TOP = 40  # the first line, below "SEAT N"
BOTTOM = 214  # the strip ends above the seat's own hands (cards.HANDS_Y)
WIDTH = 300  # the strip's width at the left
LINE = 20  # one seat's line
GAP = 5  # below a row of cards
CARD_H = 132  # the painter's card at s = 1 (painter.card_size)
LARGEST, SMALLEST = 0.5, 0.16  # the cards' scale, as the room allows
STEP = 0.5  # a card's step over the one before, in card widths
STATES = {"idle": N_("free"), "ready": N_("ready"), "betting": N_("betting"), "in_round": N_("playing"),
          "paying": N_("paying out"), "handpay": N_("handpay"), "tilt": N_("tilt"), "memory_error": N_("memory error")}
RESULT_COLOURS = {"win": GOLD, "blackjack": GOLD, "lose": RED}


def draw_others(r: CardsPainter, surf: pygame.Surface, view: TableView, seat: SeatView, now: float, s: float,
                right: float | None = None, top: float | None = None) -> None:
    """Every other seat's line and, where this seat may see some, its hands (see the docstring),
    from ``top`` (below the header's lines; else ``TOP``) down; nothing drawn right of ``right``
    (the house's cards on a narrow tile), else of the strip's width."""
    width = WIDTH * s if right is None else max(60 * s, min(WIDTH * s, right - 12 * s))
    rows = [o for o in view.seats if o.number != seat.number]
    dealt = {} if view.places else {n: hands for n, hands in seat.others.items() if hands}
    y = TOP * s if top is None else top
    scale = card_scale(len(rows), sum(1 for o in rows if o.number in dealt), y / s) * s
    for other in rows:
        top = y
        line = _line(r, surf, view, other, y, width, s)
        y += LINE * s
        hands = dealt.get(other.number)
        if hands:
            end = _hands(r, surf, other.number, hands, y, scale, width, now, s)
            y += r.card_size(scale)[1] + GAP * s
            if other.number in view.revealing:  # just shown to every seat: framed while play holds for it
                box = pygame.Rect(int(6 * s), int(top - 2 * s), int(max(end, line.right + 6 * s) - 6 * s), int(y - top))
                pygame.draw.rect(surf, GOLD, box, width=max(2, int(2 * s)), border_radius=int(6 * s))


def card_scale(rows: int, dealt: int, top: float = TOP) -> float:
    """The others' cards' scale at s = 1: what the room from ``top`` down, less ``rows`` lines,
    gives each of the ``dealt`` rows of cards, within ``SMALLEST`` and ``LARGEST``."""
    if not dealt:
        return LARGEST
    room = (BOTTOM - top - LINE * rows) / dealt - GAP
    return max(SMALLEST, min(LARGEST, room / CARD_H))


def line(r: CardsPainter, view: TableView, other: SeatView) -> tuple[str, bool]:
    """Another seat's line ("> Seat 3: playing, bet 2", the mark on the seat to decide) and
    whether it is lit (deciding, or its hand just shown to every seat)."""
    mark = "> " if view.turn == other.number else ""
    state = r._(STATES.get(other.state, other.state))
    if other.bet and other.state in ("betting", "in_round"):
        words = r._("Seat {seat}: {state}, bet {bet}", seat=other.number, state=state, bet=r.num(other.bet))
    else:
        words = r._("Seat {seat}: {state}", seat=other.number, state=state)
    return mark + words, bool(mark) or other.number in view.revealing


def _line(r: CardsPainter, surf, view: TableView, other: SeatView, y: float, width: float, s: float) -> pygame.Rect:
    words, lit = line(r, view, other)
    return r.text(surf, words, int(17 * s), GOLD if lit else DIM, topleft=(int(12 * s), int(y)), width=width)


def _hands(r: CardsPainter, surf, number: int, hands, y: float, scale: float, width: float, now: float, s: float) -> float:
    """One other seat's hands in a row from the left at ``y``; where the row ends at the right."""
    cw, ch = r.card_size(scale)
    x = 12 * s
    right = 12 * s + width
    for i, hand in enumerate(hands):
        wdt = cw + cw * STEP * (len(hand.cards) - 1)
        for j, c in enumerate(hand.cards):
            r._card(surf, c, x + j * cw * STEP, y, scale, ("other", number, i, j, c), now)
        words = [w for w in (r.tr(hand.total_text), r.outcome(hand) if hand.result else "") if w]
        colour = RESULT_COLOURS.get(hand.result or "", WHITE)
        x += wdt + 6 * s
        if words:
            room = max(40 * s, right - x) if len(hands) == 1 else max(40 * s, (right - 12 * s) / len(hands) - wdt)
            shown = r.text(surf, "  ".join(words), int(15 * s), colour, topleft=(int(x), int(y + ch / 2 - 9 * s)),
                           width=room, smallest=8)
            x = shown.right
        x += 12 * s
    return x
