"""A player screen too narrow for the wide layout (the other seats' strip, the dealer and the
deciding seat's box side by side): a tile of the tiles layout with five to eight seats (480 x
540 of a 1920 x 1080 window), two seats side by side, a 4:3 monitor.

Owns: ``layout``, the named rectangles of such a screen, computed once per screen and used by
the painter for every part, so no two parts overlap: the header (``title``: "SEAT N" and the
game; ``minmax``; ``rule``: the pay rule and why the MAX is lower), the house (the dealer's or
the banker's title, bank, cards and total) at the left and beside it ``side``: the box of the
seat deciding, or of a seat whose hand was just shown to every seat, else the other seats' list
(a line each, with their totals as this seat may see them, no cards), then the table's notice,
the message with the countdown at its right, the seat's own hands, and below ``bottom`` the
notes, meters and buttons (notes.py's, as on every screen); a game of places has its own
rows: its table's cards in ``house``, the other places' panels in ``side`` (places.py draws
them there: ``places_spots``). And the parts of a game with a house drawn into those rectangles.
A screen at least ``NARROW_UNITS`` wide (at s = 1, 540 high) keeps the wide layout: no layout.
Never changes the cabinet; never decides what a seat may see (the view does).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygame

from machine.display import others, places
from machine.display.cards import MAX_NOTES
from machine.display.palette import DIM, FELT_DARK, GOLD, RED, WHITE
from machine.display.view import SeatView, TableView

if TYPE_CHECKING:
    from machine.display.draw import Renderer

NARROW_UNITS = 800  # narrower than this at s = 1 (16:10 and 16:9 screens are wider): the narrow layout
HOUSE_SCALE = 0.55  # the house's cards
WATCH_SCALE = 0.45  # the deciding seat's cards in the side box
OWN_SCALE = 0.8  # the seat's own cards at most (smaller where its hands need the room)
PLACES_TABLE_SCALE = 0.55
PLACES_OWN_SCALE = 0.62
# the rows at s = 1, from the top of a 540-high screen
HEADER_END, RULE_END, HOUSE_END, NOTICE_END, MESSAGE_END, HANDS_END = 62, 80, 194, 213, 247, 404
PLACES_TABLE_END, PLACES_NOTICE_END, PLACES_MESSAGE_END = 156, 174, 290


@dataclass(frozen=True)
class Layout:
    """The named rectangles of one narrow screen (in its own pixels) and its scale ``s``."""

    s: float
    rects: dict[str, pygame.Rect]

    def __getitem__(self, name: str) -> pygame.Rect:
        return self.rects[name]


def layout(width: int, height: int, with_places: bool = False) -> Layout | None:
    """The narrow layout of a ``width`` x ``height`` screen (a game of places' own with
    ``with_places``), or None for a screen wide enough for the wide one."""
    s = height / 540
    if width / s >= NARROW_UNITS:
        return None
    W = width / s

    def rect(left: float, top: float, right: float, bottom: float) -> pygame.Rect:
        return pygame.Rect(round(left * s), round(top * s), round((right - left) * s), round((bottom - top) * s))

    box_w, box_h = 100, 48
    rects = {
        "title": rect(8, 4, W - 8 - box_w - 8, HEADER_END),
        "minmax": rect(W - 8 - box_w, 8, W - 8, 8 + box_h),
        "rule": rect(8, HEADER_END, W - 8, RULE_END),
        "bottom": rect(0, HANDS_END, W, 540),
    }
    if with_places:
        rects |= {
            "house": rect(8, RULE_END + 2, W - 8, PLACES_TABLE_END),
            "notice": rect(8, PLACES_TABLE_END, W - 8, PLACES_NOTICE_END),
            "side": rect(8, PLACES_NOTICE_END + 1, W - 8, PLACES_NOTICE_END + 1 + places.PANEL_H),
            "message": rect(56, PLACES_NOTICE_END + 1 + places.PANEL_H, W - 56, PLACES_MESSAGE_END),
            "countdown": rect(W - 44, PLACES_NOTICE_END + 2 + places.PANEL_H, W - 12, PLACES_MESSAGE_END),
            "hands": rect(8, PLACES_MESSAGE_END, W - 8, HANDS_END),
        }
    else:
        rects |= {
            "house": rect(8, RULE_END + 1, W / 2 - 4, HOUSE_END),
            "side": rect(W / 2 + 4, RULE_END + 1, W - 8, HOUSE_END),
            "notice": rect(8, HOUSE_END, W - 8, NOTICE_END),
            "message": rect(56, NOTICE_END + 1, W - 56, MESSAGE_END),
            "countdown": rect(W - 48, NOTICE_END + 1, W - 12, MESSAGE_END - 2),
            "hands": rect(8, MESSAGE_END, W - 8, HANDS_END),
        }
    return Layout(s, rects)


def places_spots(lay: Layout) -> places.Spots:
    """Where places.py draws a table of places in ``lay`` (its heights at s = 1)."""
    s = lay.s
    return places.Spots(table_y=lay["house"].top / s + 1, notice_y=lay["notice"].centery / s,
                        panels_y=lay["side"].top / s, hand_y=lay["hands"].top / s + places.LIFT,
                        table_scale=PLACES_TABLE_SCALE, own_scale=PLACES_OWN_SCALE, narrow=True)


def draw_header(r: Renderer, surf, view: TableView, seat: SeatView, lay: Layout) -> None:
    """"SEAT N" and the game's title below it, the min/max card at the right, the pay rule and
    why the MAX is lower on the row below them."""
    s = lay.s
    title, box, rule = lay["title"], lay["minmax"], lay["rule"]
    with r.part(seat.number, "title"):
        left = title.left + int(4 * s)
        r.text(surf, r._("SEAT {seat}", seat=seat.number), int(30 * s), GOLD, topleft=(left, title.top + int(2 * s)),
               width=title.width - 4 * s)
        r.text(surf, r.tr(view.game_title), int(16 * s), GOLD, topleft=(left, title.bottom - int(20 * s)),
               width=title.width - 4 * s)
    with r.part(seat.number, "minmax"):
        pygame.draw.rect(surf, WHITE, box, border_radius=int(6 * s))
        pygame.draw.rect(surf, GOLD, box, width=max(1, int(2 * s)), border_radius=int(6 * s))
        r.mark(box)
        ink = (30, 30, 30)
        top = r.num(seat.max_bet)
        r.text(surf, r._("MIN {bet}", bet=r.num(seat.min_bet)), int(16 * s), ink,
               center=(box.centerx, box.top + box.height * 0.29), width=box.width - 8 * s)
        r.text(surf, r._("MAX {bet}", bet=top), int(16 * s), ink, center=(box.centerx, box.top + box.height * 0.72),
               width=box.width - 8 * s)
    with r.part(seat.number, "rule"):
        why = seat.max_why or ("club" if seat.max_note else "")
        pay = r.text(surf, r.tr(view.pay_rule), int(13 * s), WHITE, topleft=(rule.left + int(4 * s), rule.top + int(1 * s)),
                     width=rule.width / 2 - 8 * s if why in MAX_NOTES else rule.width - 4 * s)
        if why in MAX_NOTES:  # why the most is below the table's maximum: the rest of the row
            r.text(surf, r._(MAX_NOTES[why], bet=top), int(13 * s), GOLD,
                   topright=(rule.right, rule.top + int(1 * s)), width=rule.right - pay.right - 10 * s)


def draw_table(r: Renderer, surf, view: TableView, seat: SeatView, now: float, lay: Layout) -> None:
    """A game with a house on a narrow screen: the house, the side box or list, the notice,
    the seat's hands (the header and the message are drawn by their own calls)."""
    with r.part(seat.number, "house"):
        _house(r, surf, view, now, lay)
    with r.part(seat.number, "side"):
        _side(r, surf, view, seat, now, lay)
    notice = [r.tr(view.notice)] if view.notice else []
    if seat.insurance:  # the seat's insurance on the notice's row: beside the hands it has no room
        bet = r.num(seat.insurance)
        net, back = r.num(seat.insurance_returned - seat.insurance), r.num(seat.insurance_returned)
        notice.append(r._("Insurance {bet}: win {net} ({back} back)", bet=bet, net=net, back=back)
                      if seat.insurance_returned else r._("Insurance {bet}", bet=bet))
    if notice:
        with r.part(seat.number, "notice"):
            box = lay["notice"]
            r.text(surf, "  \u00b7  ".join(notice), int(15 * lay.s), GOLD, center=box.center, width=box.width)
    with r.part(seat.number, "hands"):
        _hands(r, surf, seat, now, lay)


def _house(r: Renderer, surf, view: TableView, now: float, lay: Layout) -> None:
    s, box = lay.s, lay["house"]
    cw, ch = r.card_size(s * HOUSE_SCALE)
    title = r.text(surf, r.tr(view.dealer_title), int(16 * s), DIM, topleft=(box.left + int(4 * s), box.top),
                   width=box.width * (0.5 if view.bank is not None else 1.0) - 4 * s)
    if view.bank is not None:
        r.text(surf, r._("BANK {bank}", bank=r.num(view.bank)), int(17 * s), GOLD, topright=(box.right, box.top),
               width=box.right - title.right - 8 * s)
    cards = list(view.dealer_cards)
    step = min(cw * 0.62, (box.width - cw) / max(1, len(cards) - 1))
    x0 = box.centerx - (cw + step * (len(cards) - 1)) / 2
    top = box.top + 20 * s
    for i, c in enumerate(cards):
        r._card(surf, c, x0 + i * step, top, s * HOUSE_SCALE, ("dealer", i, c), now)
    if view.dealer_text:
        r.text(surf, r.tr(view.dealer_text), int(17 * s), WHITE, center=(box.centerx, top + ch + 10 * s), width=box.width)


def _side(r: Renderer, surf, view: TableView, seat: SeatView, now: float, lay: Layout) -> None:
    """The deciding seat's hands in a box (random-blackjack.md section 8), else those of a seat
    just shown to every seat, else the list of the other seats."""
    shown = next((o for o in view.seats if o.number in view.revealing and o.number != seat.number
                  and seat.others.get(o.number)), None)
    if shown is not None:  # play holds for it: the message speaks of it
        _box(r, surf, others.line(r, view, shown)[0], seat.others[shown.number], ("other", shown.number), True, now, lay)
    elif seat.watching and view.turn is not None:
        _box(r, surf, r._("Seat {seat} plays", seat=view.turn), seat.watching, ("watch", view.turn), False, now, lay)
    else:
        _list(r, surf, view, seat, lay)


def _box(r: Renderer, surf, title: str, hands, key: tuple, lit: bool, now: float, lay: Layout) -> None:
    s, area = lay.s, lay["side"]
    scale = s * WATCH_SCALE
    cw, ch = r.card_size(scale)
    widths = [cw + cw * 0.45 * (len(h.cards) - 1) for h in hands]
    room = area.width - 16 * s - 12 * s * (len(hands) - 1)
    if sum(widths) > room:  # many split hands: smaller cards
        scale *= room / sum(widths)
        cw, ch = r.card_size(scale)
    box = pygame.Rect(area.left, area.top, area.width, min(area.height, int(ch + 44 * s)))
    pygame.draw.rect(surf, FELT_DARK, box, border_radius=int(8 * s))
    pygame.draw.rect(surf, GOLD, box, width=max(1, int((2 if lit else 1) * s)), border_radius=int(8 * s))
    r.mark(box)
    r.text(surf, title, int(14 * s), GOLD, topleft=(box.left + int(8 * s), box.top + int(4 * s)), width=box.width - 16 * s)
    x, y = box.left + 8 * s, box.top + 22 * s
    slot = (box.width - 16 * s) / len(hands)  # each hand's share of the box, its words below its cards
    for i, hand in enumerate(hands):
        wdt = cw + cw * 0.45 * (len(hand.cards) - 1)
        for j, c in enumerate(hand.cards):
            r._card(surf, c, x + j * cw * 0.45, y, scale, (*key, i, j, c), now)
        words = [w for w in (r.tr(hand.total_text), r.outcome(hand) if hand.result else "") if w]
        if words:
            r.text(surf, "  ".join(words), int(13 * s), others.RESULT_COLOURS.get(hand.result or "", WHITE),
                   topleft=(int(x), int(y + ch + 2 * s)), width=max(wdt, slot) - 4 * s, smallest=8)
        x += max(wdt + 12 * s, slot)


def _list(r: Renderer, surf, view: TableView, seat: SeatView, lay: Layout) -> None:
    """A line per other seat, its totals after it (as this seat may see them), smaller the more
    seats there are (seven in the rectangle at 14 pixels at s = 1)."""
    s, area = lay.s, lay["side"]
    rows = [o for o in view.seats if o.number != seat.number]
    if not rows:
        return
    step = min(17 * s, area.height / len(rows))
    size = int(min(14 * s, step - 2 * s))
    y = float(area.top)
    for other in rows:
        words, lit = others.line(r, view, other)
        hands = () if view.places else seat.others.get(other.number, ())
        totals = " / ".join(t for t in (r.tr(h.total_text) for h in hands) if t)
        colour = GOLD if lit else RED if any(h.result == "lose" for h in hands) else DIM
        r.text(surf, f"{words}  {totals}" if totals else words, size, colour, topleft=(area.left, int(y)),
               width=area.width, smallest=8)
        y += step


def _hands(r: Renderer, surf, seat: SeatView, now: float, lay: Layout) -> None:
    """The seat's own hands centred in their rectangle, as large as fits up to ``OWN_SCALE``,
    each with its stake and total below and, once settled, its outcome (its insurance: on the
    notice's row)."""
    if not seat.hands:
        return
    s, area = lay.s, lay["hands"]
    gap = 30 * s
    base = [92 + 92 * 0.42 * (len(h.cards) - 1) for h in seat.hands]  # at scale 1, s = 1
    fit = (area.width - 16 * s - gap * (len(base) - 1)) / (sum(base) * s)
    scale = s * min(OWN_SCALE, fit)
    cw, ch = r.card_size(scale)
    widths = [cw + cw * 0.42 * (len(h.cards) - 1) for h in seat.hands]
    total = sum(widths) + gap * (len(widths) - 1)
    x = area.centerx - total / 2
    y = area.top + 6 * s
    room = [wdt + gap - 6 * s for wdt in widths] if len(widths) > 1 else [area.width - 20 * s]
    for i, (hand, wdt) in enumerate(zip(seat.hands, widths, strict=True)):
        if hand.active:
            frame = pygame.Rect(x - 5 * s, y - 5 * s, wdt + 10 * s, ch + 10 * s)
            pygame.draw.rect(surf, GOLD, frame, width=max(2, int(3 * s)), border_radius=int(8 * s))
            r.mark(frame)
        for j, c in enumerate(hand.cards):
            r._card(surf, c, x + j * cw * 0.42, y, scale, ("seat", seat.number, i, j, c), now)
        r.text(surf, r.hand_label(hand), int(16 * s), WHITE, center=(x + wdt / 2, y + ch + 13 * s), width=room[i])
        if hand.result:
            colour = GOLD if hand.result in ("win", "blackjack") else DIM if hand.result in ("push", "surrender") else RED
            r.text(surf, r.outcome(hand), int(17 * s), colour, center=(x + wdt / 2, y + ch + 32 * s), width=room[i])
        x += wdt + gap
