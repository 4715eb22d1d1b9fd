"""Painting the player screens with pygame from a ``TableView``.

Owns: the layout of one player screen (dealer at the top, the min/max card at the top right,
the seat's hands in the middle, messages, the countdown, meters and lamps at the bottom, the
other seats' state, the tilt and handpay screens, attract mode) and the short deal animation.
Draws onto any ``Surface`` it is given, so the same code serves a window, a tile of one
window and a headless screenshot. Never changes the cabinet; never waits on anything.
"""

from __future__ import annotations

import math

import pygame

from machine.display import tournament
from machine.display.cardart import card_surface
from machine.display.lang import translate
from machine.display.view import BUTTON_ORDER, SeatView, TableView, money_text
from machine.games.interface import FACE_DOWN

FELT = (12, 92, 52)
FELT_DARK = (6, 60, 34)
GOLD = (236, 196, 80)
WHITE = (245, 245, 240)
DIM = (170, 190, 175)
RED = (210, 40, 40)
LAMP_ON = (255, 214, 90)
LAMP_OFF = (60, 70, 64)
DEAL_SECONDS = 0.25

BUTTON_LABELS = {
    "+2": "+2", "+10": "+10", "x2": "x2", "repeat": "Repeat", "max": "Max Bet", "start": "Start",
    "draw": "Draw", "stand": "Stand", "double": "Double", "split": "Split", "insurance": "Insure",
    "auto": "Auto", "collect": "Collect",
}


class Renderer:
    """Fonts, the deal animation's memory and the drawing of whole screens."""

    def __init__(self, key_hints: dict[str, str] | None = None, language: str = "en"):
        self.language = language
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_path = pygame.font.get_default_font()  # shipped inside pygame-ce, loaded by path
        self._fonts: dict[int, pygame.font.Font] = {}
        self.key_hints = key_hints or {}
        self._seen: dict[tuple, float] = {}  # card slot -> when it first appeared (animation)
        self.button_rects: dict[tuple[int, str], pygame.Rect] = {}  # for clicks: (seat, button)
        self.card_rects: dict[tuple[int, str], pygame.Rect] = {}  # for touches: (seat, "hand:2" / "table:1" / "stack")

    def font(self, size: int) -> pygame.font.Font:
        size = max(8, size)
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(self.font_path, size)
        return f

    def tr(self, msg: str) -> str:
        return translate(msg, self.language)

    def text(self, surf, msg, size, color, center=None, topleft=None, topright=None) -> pygame.Rect:
        img = self.font(size).render(translate(msg, self.language), True, color)
        r = img.get_rect()
        if center:
            r.center = center
        elif topright:
            r.topright = topright
        else:
            r.topleft = topleft or (0, 0)
        surf.blit(img, r)
        return r

    # -- animation --------------------------------------------------------------------------------

    def _arrival(self, key: tuple, now: float) -> float:
        """0..1: how far a card's deal animation has come."""
        t0 = self._seen.setdefault(key, now)
        return min(1.0, (now - t0) / DEAL_SECONDS) if DEAL_SECONDS else 1.0

    def forget_cards(self) -> None:
        self._seen.clear()

    # -- whole screens ----------------------------------------------------------------------------

    def draw_table(self, surf: pygame.Surface, view: TableView, now: float, tiles: tuple[int, int] | None = None) -> None:
        """Every seat's screen as tiles of one surface (columns, rows chosen for the count)."""
        n = len(view.seats)
        cols, rows = tiles or ((1, 1) if n == 1 else (2, 1) if n == 2 else (2, 2) if n <= 4 else (4, 2))
        w, h = surf.get_width() // cols, surf.get_height() // rows
        for i, seat in enumerate(view.seats):
            r = pygame.Rect((i % cols) * w, (i // cols) * h, w, h)
            sub = surf.subsurface(r)
            self.draw_seat(sub, view, seat.number, now, offset=r.topleft)
            pygame.draw.rect(surf, (0, 0, 0), r, width=2)

    def draw_seat(self, surf: pygame.Surface, view: TableView, number: int, now: float, offset=(0, 0)) -> None:
        """One player screen."""
        W, H = surf.get_size()
        s = H / 540
        seat = next(x for x in view.seats if x.number == number)
        for key in [k for k in self.card_rects if k[0] == number]:  # only the cards drawn this frame take a touch
            del self.card_rects[key]
        self._felt(surf, s)
        if view.tournament is not None and tournament.takes_screen(view, seat):
            tournament.draw_screen(self, surf, view, seat, now, s, offset)
            if view.banner:
                self._banner(surf, view.banner, s)
            return
        if view.attract and seat.state == "idle":
            self._attract(surf, view, seat, now, s)
            self._buttons(surf, seat, s, offset)
            return
        if view.places:  # a game of places (eenendertigen): machine/display/places.py lays the table out
            from machine.display.places import COUNTDOWN_Y, MESSAGE_Y, draw_places

            draw_places(self, surf, view, seat, now, s, offset)
            self._minmax(surf, seat, s)
            self._header(surf, view, seat, s)
            self._message(surf, view, seat, now, s, y=MESSAGE_Y * s, countdown_y=COUNTDOWN_Y * s)
        else:
            self._dealer(surf, view, now, s)
            self._minmax(surf, seat, s)
            self._header(surf, view, seat, s)
            self._hands(surf, seat, now, s)
            self._message(surf, view, seat, now, s)
        self._meters(surf, view, seat, s)
        self._buttons(surf, seat, s, offset)
        tournament.draw_progress(self, surf, view, seat, s)
        if seat.state in ("handpay", "tilt", "memory_error"):
            self._lock_screen(surf, view, seat, now, s)
        if view.banner:
            self._banner(surf, view.banner, s)

    # -- parts --------------------------------------------------------------------------------------

    def _felt(self, surf, s) -> None:
        W, H = surf.get_size()
        surf.fill(FELT_DARK)
        pygame.draw.ellipse(surf, FELT, pygame.Rect(-W * 0.15, -H * 0.55, W * 1.3, H * 1.35))
        pygame.draw.ellipse(surf, GOLD, pygame.Rect(-W * 0.15, -H * 0.55, W * 1.3, H * 1.35), width=max(1, int(2 * s)))

    def card_size(self, s: float) -> tuple[int, int]:
        return int(64 * s), int(92 * s)

    def _card(self, surf, code: str | None, x: float, y: float, s: float, key: tuple, now: float) -> None:
        """A card face, or its back for None or a card face down (``FACE_DOWN``)."""
        code = None if code == FACE_DOWN else code
        cw, ch = self.card_size(s)
        k = self._arrival(key, now)
        if k < 1.0:  # slide in from the shoe at the top right and grow
            sx, sy = surf.get_width() * 0.92, -ch
            e = 1 - (1 - k) ** 3
            x, y = sx + (x - sx) * e, sy + (y - sy) * e
        surf.blit(card_surface(code, cw, ch, self.font_path), (int(x), int(y)))

    def _dealer(self, surf, view: TableView, now, s) -> None:
        W = surf.get_width()
        cw, ch = self.card_size(s)
        cards = list(view.dealer_cards)
        step = cw * 0.62
        x0 = W / 2 - (cw + step * (len(cards) - 1)) / 2
        self.text(surf, self.tr(view.dealer_title), int(16 * s), DIM, center=(W / 2, 14 * s))
        if view.bank is not None:
            self.text(surf, f"{self.tr('BANK')} {view.bank}", int(22 * s), GOLD, topright=(W - int(124 * s), int(12 * s)))
        if view.notice:
            self.text(surf, self.tr(view.notice), int(17 * s), GOLD, center=(W / 2, 26 * s + ch + 36 * s))
        for i, c in enumerate(cards):
            self._card(surf, c, x0 + i * step, 26 * s, s, ("dealer", i, c), now)
        if view.dealer_text:
            self.text(surf, view.dealer_text, int(20 * s), WHITE, center=(W / 2, 26 * s + ch + 14 * s))

    def _minmax(self, surf, seat: SeatView, s) -> None:
        W = surf.get_width()
        r = pygame.Rect(0, 0, int(104 * s), int(56 * s))
        r.topright = (W - int(10 * s), int(10 * s))
        pygame.draw.rect(surf, WHITE, r, border_radius=int(6 * s))
        pygame.draw.rect(surf, GOLD, r, width=max(1, int(2 * s)), border_radius=int(6 * s))
        self.text(surf, f"MIN {seat.min_bet}", int(17 * s), (30, 30, 30), center=(r.centerx, r.top + r.height * 0.3))
        self.text(surf, f"MAX {seat.max_bet or '-'}", int(17 * s), (30, 30, 30), center=(r.centerx, r.top + r.height * 0.72))

    def _header(self, surf, view: TableView, seat: SeatView, s) -> None:
        self.text(surf, f"SEAT {seat.number}", int(24 * s), GOLD, topleft=(int(12 * s), int(8 * s)))
        y = int(36 * s)
        for other in view.seats:
            if other.number == seat.number:
                continue
            mark = "> " if view.turn == other.number else ""
            desc = other.state.replace("_", " ")
            if other.bet and other.state in ("betting", "in_round"):
                desc += f", bet {other.bet}"
            self.text(surf, f"{mark}Seat {other.number}: {desc}", int(13 * s), DIM, topleft=(int(12 * s), y))
            y += int(16 * s)

    def _hands(self, surf, seat: SeatView, now, s) -> None:
        if not seat.hands:
            return
        W, H = surf.get_size()
        cw, ch = self.card_size(s)
        step = cw * 0.42
        widths = [cw + step * (len(h.cards) - 1) for h in seat.hands]
        gap = 24 * s
        total = sum(widths) + gap * (len(widths) - 1)
        x = W / 2 - total / 2
        y = H * 0.40
        for i, (hand, wdt) in enumerate(zip(seat.hands, widths, strict=True)):
            if hand.active:
                frame = pygame.Rect(x - 6 * s, y - 6 * s, wdt + 12 * s, ch + 12 * s)
                pygame.draw.rect(surf, GOLD, frame, width=max(2, int(3 * s)), border_radius=int(8 * s))
            for j, c in enumerate(hand.cards):
                self._card(surf, c, x + j * step, y, s, ("seat", seat.number, i, j, c), now)
            stake = f"{hand.stake}{'  x2' if hand.doubled else ''}  \u00b7  " if hand.stake else ""
            info = f"{stake}{hand.total_text}"
            self.text(surf, info, int(15 * s), WHITE, center=(x + wdt / 2, y + ch + 12 * s))
            if hand.result:
                color = GOLD if hand.result in ("win", "blackjack") else DIM if hand.result == "push" else RED
                label = {"win": "WIN", "blackjack": "BLACKJACK", "push": "PUSH", "lose": "LOSE",
                         "surrender": "SURRENDER"}[hand.result]
                self.text(surf, f"{label} {hand.returned}", int(16 * s), color, center=(x + wdt / 2, y + ch + 30 * s))
            x += wdt + gap
        if seat.insurance:
            paid = f"  pays {seat.insurance_returned}" if seat.insurance_returned else ""
            self.text(surf, f"Insurance {seat.insurance}{paid}", int(15 * s), GOLD, center=(W / 2, y - 14 * s))

    def _message(
        self, surf, view: TableView, seat: SeatView, now, s, y: float | None = None, countdown_y: float | None = None
    ) -> None:
        W, H = surf.get_size()
        if seat.message:
            big = seat.message in ("Blackjack!", "Bust", "Insurance?", "Your turn", "You win", "Discard a card")
            color = GOLD if big else WHITE
            self.text(surf, seat.message, int((30 if big else 22) * s), color, center=(W / 2, H * 0.345 if y is None else y))
        if view.countdown is not None:
            left = view.countdown
            cx, cy, r = W - 40 * s, H * 0.45 if countdown_y is None else countdown_y, 24 * s
            pygame.draw.circle(surf, (0, 0, 0), (cx, cy), r)
            frac = left / 15.0 if left < 15 else 1.0
            ring = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
            sweep = math.pi / 2 + 2 * math.pi * frac
            pygame.draw.arc(surf, RED if left < 5 else GOLD, ring, math.pi / 2, sweep, max(2, int(4 * s)))
            self.text(surf, str(math.ceil(left)), int(20 * s), WHITE, center=(cx, cy))

    def _meters(self, surf, view: TableView, seat: SeatView, s) -> None:
        W, H = surf.get_size()
        y = H - 112 * s
        pygame.draw.rect(surf, (0, 0, 0), pygame.Rect(0, y, W, 40 * s))
        c = view.denomination_cents
        cells = [
            ("CREDIT", f"{seat.credit}  ({money_text(seat.credit, c)})"),
            ("CLUB", f"{seat.club}  ({money_text(seat.club, c)})"),
            ("BET", f"{seat.bet}"),
        ]
        cw = W / len(cells)
        for i, (label, value) in enumerate(cells):
            self.text(surf, label, int(12 * s), DIM, topleft=(int(i * cw + 10 * s), int(y + 3 * s)))
            self.text(surf, value, int(20 * s), WHITE, topleft=(int(i * cw + 10 * s), int(y + 17 * s)))

    def _buttons(self, surf, seat: SeatView, s, offset) -> None:
        W, H = surf.get_size()
        per_row = 7
        bw = (W - 16 * s) / per_row
        bh = 30 * s
        for i, b in enumerate(BUTTON_ORDER):
            row, col = divmod(i, per_row)
            r = pygame.Rect(int(8 * s + col * bw + 2 * s), int(H - 70 * s + row * (bh + 4 * s)), int(bw - 4 * s), int(bh))
            lit = b in seat.lamps
            pygame.draw.rect(surf, LAMP_ON if lit else LAMP_OFF, r, border_radius=int(6 * s))
            label = self.tr(seat.labels[b]) if b in seat.labels else BUTTON_LABELS[b]
            hint = self.key_hints.get(b)
            color = (30, 20, 0) if lit else (130, 140, 134)
            size = int(14 * s)
            while size > 9 and self.font(size).size(self.tr(label))[0] > r.width - 6 * s:  # a long label fits its button
                size -= 1
            self.text(surf, label, size, color, center=(r.centerx, r.centery - (5 * s if hint else 0)))
            if hint:
                self.text(surf, hint, int(10 * s), color, center=(r.centerx, r.centery + 8 * s))
            self.button_rects[(seat.number, b)] = r.move(offset)

    def _lock_screen(self, surf, view: TableView, seat: SeatView, now, s) -> None:
        W, H = surf.get_size()
        shade = pygame.Surface((W, H - 112 * s), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surf.blit(shade, (0, 0))
        r = pygame.Rect(0, 0, int(W * 0.8), int(H * 0.42))
        r.center = (W // 2, int(H * 0.38))
        color = {"handpay": GOLD, "tilt": (240, 140, 40), "memory_error": RED}[seat.state]
        pygame.draw.rect(surf, (20, 20, 20), r, border_radius=int(12 * s))
        pygame.draw.rect(surf, color, r, width=max(3, int(5 * s)), border_radius=int(12 * s))
        title = {"handpay": "HANDPAY", "tilt": "TILT", "memory_error": "MEMORY ERROR"}[seat.state]
        self.text(surf, title, int(40 * s), color, center=(r.centerx, r.top + 40 * s))
        if seat.state == "handpay":
            line = f"{seat.handpay} points  ({money_text(seat.handpay, view.denomination_cents)})"
        else:
            line = seat.lock_detail
        self.text(surf, line[:60], int(18 * s), WHITE, center=(r.centerx, r.centery + 4 * s))
        call = "Call the attendant" if seat.state != "memory_error" else "Call the operator"
        self.text(surf, call, int(18 * s), DIM, center=(r.centerx, r.bottom - 28 * s))

    def _banner(self, surf, text: str, s) -> None:
        W, H = surf.get_size()
        r = pygame.Rect(0, int(H * 0.665), W, int(40 * s))
        pygame.draw.rect(surf, (150, 20, 20), r)
        self.text(surf, text, int(26 * s), WHITE, center=r.center)

    def _attract(self, surf, view: TableView, seat: SeatView, now, s) -> None:
        W, H = surf.get_size()
        cw, ch = self.card_size(s * 1.2)
        for i, c in enumerate(("AS", "KH", "7D", "7C", "7S")):
            ang = (i - 2) * 12 + 4 * math.sin(now * 1.5 + i)
            img = pygame.transform.rotate(card_surface(c, cw, ch, self.font_path), -ang)
            surf.blit(img, img.get_rect(center=(W / 2 + (i - 2) * cw * 0.55, H * 0.42)))
        self.text(surf, view.game_title.upper(), int(40 * s), GOLD, center=(W / 2, H * 0.14))
        self.text(surf, f"SEAT {seat.number}", int(20 * s), DIM, center=(W / 2, H * 0.22))
        if int(now * 2) % 2 == 0:
            self.text(surf, "INSERT COINS", int(30 * s), WHITE, center=(W / 2, H * 0.68))
        pays = "  ".join(self.tr(line) for line in view.attract_lines)
        self.text(surf, pays, int(15 * s), DIM, center=(W / 2, H * 0.75))
        if seat.number in view.game_choice:
            self.text(surf, self.tr("Draw / Stand: choose the game"), int(15 * s), GOLD, center=(W / 2, H * 0.80))
