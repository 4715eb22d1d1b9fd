"""Painting the player screens with pygame from a ``TableView``.

Owns: the layout of one player screen (dealer at the top, the min/max card at the top right,
the seat's hands in the middle, messages, the countdown, meters and lamps at the bottom, the
other seats' state, the tilt and handpay screens, attract mode), the start-up screen (the game's
title and how far Auto's tables are) and the short deal animation.
Each seat's screen speaks that seat's language (``SeatView.language``; a ``Words`` per language,
kept): its own messages through the catalogs (machine/locale/*/LC_MESSAGES/player.po), the
games' English through machine/display/gamewords.py, money and numbers by locale from the
configured denomination. Draws onto any ``Surface`` it is given, so the same code serves a
window, a tile of one window and a headless screenshot, with the font shipped in
machine/display/fonts. Never changes the cabinet; never waits on anything.
"""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path

import pygame

from machine.display import places, tournament
from machine.display.cardart import card_surface
from machine.display.gamewords import BAR, say
from machine.display.palette import DIM, FELT, FELT_DARK, GOLD, LAMP_OFF, LAMP_ON, RED, WHITE
from machine.display.view import BUTTON_ORDER, SeatView, TableView
from machine.games.interface import FACE_DOWN
from machine.i18n import LANGUAGE_NAMES, N_, Words

DEAL_SECONDS = 0.25
# the layout's heights at s = 1 (a 960x540 screen); everything scales with s
DEALER_SCALE = 0.8  # the dealer's cards beside the seat's own (full size)
MESSAGE_Y = 196  # the seat's message, between the dealer's cards and its own
HANDS_Y = 222
WATCH_Y = 100  # the deciding seat's hand, at the right below the min/max card
W_HEADER = 300  # the other seats' lines at the top left

# DejaVu Sans Bold, shipped in the package (machine/display/fonts, its LICENSE beside it) and loaded by
# path: Latin, Cyrillic, \u20ac and \u00e6\u00f8\u00e5 (tests/test_player_words.py renders every catalog and
# finds no missing glyph), and it stays legible small, where pygame's own font runs its letters together
FONT = Path(__file__).parent / "fonts" / "DejaVuSans-Bold.ttf"
BUTTON_LABELS = {  # a button's name where the game says nothing for it now (Dutch: the manual's names)
    "+2": "+2", "+10": "+10", "x2": "x2", "repeat": N_("Repeat Bet"), "max": N_("Max Bet"), "start": N_("Start"),
    "draw": N_("Draw"), "stand": N_("Stand"), "double": N_("Double"), "split": N_("Split"), "insurance": N_("Insurance"),
    "auto": N_("Auto"), "collect": N_("Collect"),
}
OUTCOMES = {"win": N_("Win {amount}"), "blackjack": N_("Blackjack: win {amount}"), "push": N_("Push: {amount} back"),
            "lose": N_("Lost {amount}"), "surrender": N_("Surrendered: {amount} back")}
BIG_MESSAGES = ("Blackjack!", "Bust", "Insurance?", "Your turn", "You win", "Discard a card")
LOCK_TITLES = {"handpay": N_("HANDPAY"), "tilt": N_("TILT"), "memory_error": N_("MEMORY ERROR")}
STARTING = N_("One moment: the cabinet is starting")  # the start-up screen before Auto's tables report
PREPARING = N_("Preparing the game")  # a game whose tables come in one step
PREPARING_PART = N_("Preparing the game: {done} of {total}")  # blackjack: per up card
STATES = {"idle": N_("free"), "ready": N_("ready"), "betting": N_("betting"), "in_round": N_("playing"),
          "paying": N_("paying out"), "handpay": N_("handpay"), "tilt": N_("tilt"), "memory_error": N_("memory error")}


class Renderer:
    """Fonts, the deal animation's memory and the drawing of whole screens, each seat's screen
    in that seat's language (``SeatView.language``; ``language`` for the screens' other words)."""

    def __init__(self, key_hints: dict[str, str] | None = None, language: str = "en"):
        if not pygame.font.get_init():
            pygame.font.init()
        self.font_path = str(FONT)
        self._fonts: dict[int, pygame.font.Font] = {}
        self._words: dict[str, Words] = {}
        self._texts: dict[tuple, pygame.Surface] = {}  # (text, size, colour, width, smallest) -> its image
        self.w = self.words(language)  # the words of the screen being drawn now
        self.key_hints = key_hints or {}
        self._seen: dict[tuple, float] = {}  # card slot -> when it first appeared (animation)
        self.button_rects: dict[tuple[int, str], pygame.Rect] = {}  # for clicks: (seat, button)
        self.card_rects: dict[tuple[int, str], pygame.Rect] = {}  # for touches: (seat, "hand:2" / "table:1" / "stack")

    def words(self, language: str) -> Words:
        w = self._words.get(language)
        if w is None:
            w = self._words[language] = Words(language)
        return w

    def font(self, size: int) -> pygame.font.Font:
        size = max(8, size)
        f = self._fonts.get(size)
        if f is None:
            f = self._fonts[size] = pygame.font.Font(self.font_path, size)
        return f

    def _(self, message: str, **fields: object) -> str:
        """A message of the catalogs in the language of the screen being drawn."""
        return self.w(message, **fields)

    def tr(self, text: str) -> str:
        """A game's or the core's English text (machine/display/gamewords.py) in that language."""
        return say(self.w, text)

    def money(self, points: int, cents: int) -> str:
        return self.w.money(points, cents)

    def num(self, value: object) -> str:
        """A count or a score as the language writes it."""
        return self.w.number(Decimal(str(value)))

    def text(self, surf, msg, size, color, center=None, topleft=None, topright=None, width: float | None = None,
             smallest: int = 9) -> pygame.Rect:
        """Draw ``msg`` as given (translated by the caller); shrunk to ``width`` where given (not
        below ``smallest`` pixels)."""
        key = (msg, size, color, None if width is None else int(width), smallest)
        img = self._texts.get(key)
        if img is None:  # rendered once: most of a screen's words stay the same frame after frame
            if width is not None:
                while size > smallest and self.font(size).size(msg)[0] > width:
                    size -= 1
            img = self.font(size).render(msg, True, color)
            if len(self._texts) > 4000:
                self._texts.clear()
            self._texts[key] = img
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

    # -- whole screens ----------------------------------------------------------------------------

    def draw_table(self, surf: pygame.Surface, view: TableView, now: float, tiles: tuple[int, int] | None = None) -> None:
        """Every seat's screen as tiles of one surface (columns, rows chosen for the count)."""
        for seat, r in zip(view.seats, tile_rects(surf, len(view.seats), tiles), strict=True):
            sub = surf.subsurface(r)
            self.draw_seat(sub, view, seat.number, now, offset=r.topleft)
            pygame.draw.rect(surf, (0, 0, 0), r, width=2)

    def draw_starting_table(self, surf: pygame.Surface, seats: int, title: str, language: str,
                            done: int | None = None, total: int | None = None) -> None:
        """The start-up screen on every seat's tile of one surface (``draw_starting``)."""
        for r in tile_rects(surf, seats):
            self.draw_starting(surf.subsurface(r), title, language, done, total)
            pygame.draw.rect(surf, (0, 0, 0), r, width=2)

    def draw_starting(self, surf: pygame.Surface, title: str, language: str, done: int | None = None,
                      total: int | None = None) -> None:
        """The whole of a seat's screen while the cabinet starts: the game's title and how far
        Auto's tables are, ``done`` of ``total`` in words and as a bar (None: nothing reported
        yet, or the tables came from the cache; a total of 1, a game prepared in one step: the
        bar without the count), in ``language``."""
        W, H = surf.get_size()
        s = min(W / 960, H / 540)
        self.w = self.words(language)
        self._felt(surf, s)
        y = H * 0.52  # the words' line; the title above it, the bar below, together on a tall screen too
        self.text(surf, title.upper(), int(44 * s), GOLD, center=(W / 2, y - 119 * s), width=W - 40 * s)
        if done is None or not total:
            self.text(surf, self._(STARTING), int(26 * s), WHITE, center=(W / 2, y), width=W - 40 * s)
            return
        done = max(0, min(done, total))
        line = self._(PREPARING) if total == 1 else self._(PREPARING_PART, done=self.num(done), total=self.num(total))
        self.text(surf, line, int(26 * s), WHITE, center=(W / 2, y), width=W - 40 * s)
        bar = pygame.Rect(0, 0, int(W * 0.6), max(6, int(22 * s)))
        bar.center = (W // 2, int(y + 54 * s))
        pygame.draw.rect(surf, (0, 0, 0), bar, border_radius=int(6 * s))
        if done:
            filled = bar.copy()
            filled.width = max(1, round(bar.width * done / total))
            pygame.draw.rect(surf, GOLD, filled, border_radius=int(6 * s))
        pygame.draw.rect(surf, GOLD, bar, width=max(1, int(2 * s)), border_radius=int(6 * s))

    def draw_seat(self, surf: pygame.Surface, view: TableView, number: int, now: float, offset=(0, 0)) -> None:
        """One player screen, in its seat's language."""
        W, H = surf.get_size()
        s = H / 540
        seat = next(x for x in view.seats if x.number == number)
        self.w = self.words(seat.language)
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
            if view.banner:
                self._banner(surf, view.banner, s)
            return
        if view.places:  # a game of places (eenendertigen): machine/display/places.py lays the table out
            places.draw_places(self, surf, view, seat, now, s, offset)
            self._minmax(surf, view, seat, s)
            self._header(surf, view, seat, s)
            self._message(surf, view, seat, now, s, y=places.MESSAGE_Y * s, countdown_y=places.COUNTDOWN_Y * s)
        else:
            self._dealer(surf, view, now, s)
            self._minmax(surf, view, seat, s)
            self._header(surf, view, seat, s)
            self._hands(surf, seat, now, s)
            self._watching(surf, view, seat, now, s)
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
        return int(92 * s), int(132 * s)

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
        cw, ch = self.card_size(s * DEALER_SCALE)
        cards = list(view.dealer_cards)
        step = cw * 0.62
        x0 = W / 2 - (cw + step * (len(cards) - 1)) / 2
        top = 34 * s
        self.text(surf, self.tr(view.dealer_title), int(18 * s), DIM, center=(W / 2, 16 * s))
        if view.bank is not None:
            self.text(surf, self._("BANK {bank}", bank=self.num(view.bank)), int(22 * s), GOLD,
                      topright=(W - int(134 * s), int(12 * s)))
        if view.notice:
            self.text(surf, self.tr(view.notice), int(17 * s), GOLD, center=(W / 2, top + ch + 34 * s), width=W - 20 * s)
        for i, c in enumerate(cards):
            self._card(surf, c, x0 + i * step, top, s * DEALER_SCALE, ("dealer", i, c), now)
        if view.dealer_text:
            self.text(surf, self.tr(view.dealer_text), int(20 * s), WHITE, center=(W / 2, top + ch + 13 * s))

    def _minmax(self, surf, view: TableView, seat: SeatView, s) -> None:
        W = surf.get_width()
        r = pygame.Rect(0, 0, int(110 * s), int(56 * s))
        r.topright = (W - int(10 * s), int(10 * s))
        pygame.draw.rect(surf, WHITE, r, border_radius=int(6 * s))
        pygame.draw.rect(surf, GOLD, r, width=max(1, int(2 * s)), border_radius=int(6 * s))
        ink = (30, 30, 30)
        self.text(surf, self._("MIN {bet}", bet=self.num(seat.min_bet)), int(17 * s), ink,
                  center=(r.centerx, r.top + r.height * 0.3), width=r.width - 8 * s)
        top = self.num(seat.max_bet) if seat.max_bet else "-"
        self.text(surf, self._("MAX {bet}", bet=top), int(17 * s), ink, center=(r.centerx, r.top + r.height * 0.72),
                  width=r.width - 8 * s)
        if seat.max_note:  # why the most is below the table's maximum
            self.text(surf, self._("Max {bet}: a quarter of your club meter", bet=top), int(14 * s), GOLD,
                      topright=(r.right, r.bottom + int(4 * s)), width=W * 0.45)

    def _header(self, surf, view: TableView, seat: SeatView, s) -> None:
        self.text(surf, self._("SEAT {seat}", seat=seat.number), int(30 * s), GOLD, topleft=(int(12 * s), int(6 * s)))
        y = int(40 * s)
        for other in view.seats:
            if other.number == seat.number:
                continue
            mark = "> " if view.turn == other.number else ""
            state = self._(STATES.get(other.state, other.state))
            if other.bet and other.state in ("betting", "in_round"):
                line = self._("Seat {seat}: {state}, bet {bet}", seat=other.number, state=state, bet=self.num(other.bet))
            else:
                line = self._("Seat {seat}: {state}", seat=other.number, state=state)
            self.text(surf, mark + line, int(17 * s), GOLD if mark else DIM, topleft=(int(12 * s), y), width=W_HEADER * s)
            y += int(20 * s)

    def hand_label(self, hand) -> str:
        """"Bet 2 · 11": the hand's stake and total, plainly."""
        total = self.tr(hand.total_text)
        if not hand.stake:
            return total
        bet = self._("Bet {bet}, doubled", bet=self.num(hand.stake)) if hand.doubled else self._(
            "Bet {bet}", bet=self.num(hand.stake))
        return f"{bet}  \u00b7  {total}" if total else bet

    def outcome(self, hand) -> str:
        """"Lost 10", "Push: 10 back", "Win 20": what the hand brought (``returned`` is paid back)."""
        amount = hand.stake if hand.result == "lose" else hand.returned
        return self._(OUTCOMES[hand.result], amount=self.num(amount))

    def _hands(self, surf, seat: SeatView, now, s) -> None:
        if not seat.hands:
            return
        W, H = surf.get_size()
        cw, ch = self.card_size(s)
        step = cw * 0.42
        widths = [cw + step * (len(h.cards) - 1) for h in seat.hands]
        gap = 40 * s
        total = sum(widths) + gap * (len(widths) - 1)
        x = W / 2 - total / 2
        y = HANDS_Y * s
        room = [wdt + gap - 8 * s for wdt in widths]  # a label as wide as its hand and the gap
        for i, (hand, wdt) in enumerate(zip(seat.hands, widths, strict=True)):
            if hand.active:
                frame = pygame.Rect(x - 6 * s, y - 6 * s, wdt + 12 * s, ch + 12 * s)
                pygame.draw.rect(surf, GOLD, frame, width=max(2, int(3 * s)), border_radius=int(8 * s))
            for j, c in enumerate(hand.cards):
                self._card(surf, c, x + j * step, y, s, ("seat", seat.number, i, j, c), now)
            self.text(surf, self.hand_label(hand), int(17 * s), WHITE, center=(x + wdt / 2, y + ch + 14 * s), width=room[i])
            if hand.result:
                color = GOLD if hand.result in ("win", "blackjack") else DIM if hand.result in ("push", "surrender") else RED
                self.text(surf, self.outcome(hand), int(19 * s), color, center=(x + wdt / 2, y + ch + 35 * s), width=room[i])
            x += wdt + gap
        if seat.insurance:
            bet, paid = self.num(seat.insurance), self.num(seat.insurance_returned)
            line = (self._("Insurance {bet} pays {amount}", bet=bet, amount=paid) if seat.insurance_returned
                    else self._("Insurance {bet}", bet=bet))
            self.text(surf, line, int(16 * s), GOLD, topleft=(int(12 * s), int(y + ch * 0.5)), width=W * 0.5 - total / 2 - 20 * s)

    def _watching(self, surf, view: TableView, seat: SeatView, now, s) -> None:
        """The deciding seat's hand, small, for every other seat to see (random-blackjack.md section 8)."""
        if not seat.watching or view.turn is None:
            return
        W = surf.get_width()
        ss = s * 0.45
        cw, ch = self.card_size(ss)
        box = pygame.Rect(0, 0, int(250 * s), int(ch + 44 * s))
        box.topright = (W - int(10 * s), int(WATCH_Y * s))
        pygame.draw.rect(surf, FELT_DARK, box, border_radius=int(8 * s))
        pygame.draw.rect(surf, GOLD, box, width=max(1, int(1 * s)), border_radius=int(8 * s))
        self.text(surf, self._("Seat {seat} plays", seat=view.turn), int(14 * s), GOLD,
                  topleft=(box.left + int(8 * s), box.top + int(4 * s)), width=box.width - 16 * s)
        x = box.left + 8 * s
        y = box.top + 22 * s
        for i, hand in enumerate(seat.watching):  # each hand's cards, its total below them
            wdt = cw + cw * 0.45 * (len(hand.cards) - 1)
            for j, c in enumerate(hand.cards):
                self._card(surf, c, x + j * cw * 0.45, y, ss, ("watch", view.turn, i, j, c), now)
            self.text(surf, self.tr(hand.total_text), int(13 * s), WHITE, center=(x + wdt / 2, y + ch + 9 * s),
                      width=wdt + 8 * s)
            x += wdt + 12 * s

    def _message(
        self, surf, view: TableView, seat: SeatView, now, s, y: float | None = None, countdown_y: float | None = None
    ) -> None:
        W, H = surf.get_size()
        y = MESSAGE_Y * s if y is None else y
        if seat.message:
            big = seat.message in BIG_MESSAGES
            color = GOLD if big else WHITE
            self.text(surf, self._(seat.message, **seat.fields), int((30 if big else 24) * s), color, center=(W / 2, y),
                      width=W * 0.6)
        sub = ""
        if seat.leftover:  # below the smallest coin: Collect cannot pay it, it stays to play
            sub = self._("{money} is below the smallest coin: it stays on your credit to play",
                         money=self.money(seat.leftover, view.denomination_cents))
        elif view.betting_left is not None and _waits_for_round(seat):
            sub = self._("The round starts in {seconds} s", seconds=math.ceil(view.betting_left))
        if sub:
            self.text(surf, sub, int(17 * s), DIM, center=(W / 2, y + 26 * s), width=W * 0.8)
        left, full = view.countdown, view.decision_time
        if left is None and view.betting_left is not None and _waits_for_round(seat):
            left, full = view.betting_left, view.betting_time
        if left is not None:
            cx, cy, r = W - 40 * s, H * 0.45 if countdown_y is None else countdown_y, 24 * s
            pygame.draw.circle(surf, (0, 0, 0), (cx, cy), r)
            frac = min(1.0, left / full) if full > 0 else 0.0
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
            (self._("CREDIT"), f"{self.num(seat.credit)}  ({self.money(seat.credit, c)})"),
            (self._("CLUB"), f"{self.num(seat.club)}  ({self.money(seat.club, c)})"),
            (self._("BET"), self.num(seat.bet)),
        ]
        cw = W / len(cells)
        for i, (label, value) in enumerate(cells):
            self.text(surf, label, int(12 * s), DIM, topleft=(int(i * cw + 10 * s), int(y + 3 * s)))
            self.text(surf, value, int(20 * s), WHITE, topleft=(int(i * cw + 10 * s), int(y + 17 * s)), width=cw - 16 * s)

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
            label = self.tr(seat.labels[b]) if b in seat.labels else self._(BUTTON_LABELS[b])
            hint = self.key_hints.get(b)
            color = (30, 20, 0) if lit else (130, 140, 134)
            self.text(surf, label, int(14 * s), color, center=(r.centerx, r.centery - (5 * s if hint else 0)),
                      width=r.width - 6 * s, smallest=7)
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
        self.text(surf, self._(LOCK_TITLES[seat.state]), int(40 * s), color, center=(r.centerx, r.top + 40 * s),
                  width=r.width - 20 * s)
        if seat.state == "handpay":
            line = self._("{points} points ({money})", points=self.num(seat.handpay),
                          money=self.money(seat.handpay, view.denomination_cents))
        else:
            line = self.tr(seat.lock_detail)
        self.text(surf, line, int(18 * s), WHITE, center=(r.centerx, r.centery + 4 * s), width=r.width - 20 * s)
        call = self._("Call the attendant") if seat.state != "memory_error" else self._("Call the operator")
        self.text(surf, call, int(18 * s), DIM, center=(r.centerx, r.bottom - 28 * s), width=r.width - 20 * s)

    def draw_memory_error(self, surf, detail: str) -> None:
        """The whole of a seat's screen when the cabinet cannot trust its memory and will not start:
        the title, what was found (the operator's technical words, wrapped), whom to call."""
        W, H = surf.get_size()
        s = min(W / 960, H / 540)
        surf.fill((25, 10, 12))
        r = pygame.Rect(0, 0, int(W * 0.9), int(H * 0.8))
        r.center = (W // 2, H // 2)
        pygame.draw.rect(surf, RED, r, width=max(3, int(5 * s)), border_radius=int(12 * s))
        self.text(surf, self._(LOCK_TITLES["memory_error"]), int(44 * s), RED, center=(r.centerx, r.top + 50 * s),
                  width=r.width - 20 * s)
        words, lines, size = detail.removeprefix("memory error: ").split(), [""], int(16 * s)
        for w in words:  # wrapped to the frame
            trial = f"{lines[-1]} {w}".strip()
            if self.font(size).size(trial)[0] > r.width - 40 * s and lines[-1]:
                lines.append(w)
            else:
                lines[-1] = trial
        for i, line in enumerate(lines[:12]):
            self.text(surf, line, size, WHITE, topleft=(r.left + 20 * s, r.top + (100 + 24 * i) * s))
        self.text(surf, self._("Call the operator"), int(20 * s), DIM, center=(r.centerx, r.bottom - 30 * s),
                  width=r.width - 20 * s)

    def _banner(self, surf, text: str, s) -> None:
        """The cabinet-wide banner: each of its parts (" | ") on a line of its own, shrunk to the
        tile's width, so a long one (the attendant key's help) is never cut at the edges."""
        W, H = surf.get_size()
        lines = self.tr(text).split(BAR)
        step = 30 * s if len(lines) == 1 else 22 * s
        r = pygame.Rect(0, 0, W, int(10 * s + step * len(lines)))
        r.bottom = int(H * 0.665 + 40 * s)
        pygame.draw.rect(surf, (150, 20, 20), r)
        for i, line in enumerate(lines):
            size = int((26 if len(lines) == 1 else 18) * s)
            self.text(surf, line, size, WHITE, center=(W / 2, r.top + 5 * s + step * (i + 0.5)), width=W - 20 * s)

    def _attract(self, surf, view: TableView, seat: SeatView, now, s) -> None:
        W, H = surf.get_size()
        cw, ch = self.card_size(s)
        for i, c in enumerate(("AS", "KH", "7D", "7C", "7S")):
            ang = (i - 2) * 12 + 4 * math.sin(now * 1.5 + i)
            img = pygame.transform.rotate(card_surface(c, cw, ch, self.font_path), -ang)
            surf.blit(img, img.get_rect(center=(W / 2 + (i - 2) * cw * 0.55, H * 0.40)))
        self.text(surf, view.game_title.upper(), int(40 * s), GOLD, center=(W / 2, H * 0.11), width=W - 20 * s)
        self.text(surf, self._("SEAT {seat}", seat=seat.number), int(20 * s), DIM, center=(W / 2, H * 0.19))
        if int(now * 2) % 2 == 0:
            self.text(surf, self._("INSERT COINS"), int(30 * s), WHITE, center=(W / 2, H * 0.63), width=W - 20 * s)
        y = H * 0.69
        for line in view.attract_lines:
            self.text(surf, self.tr(line), int(15 * s), DIM, center=(W / 2, y), width=W - 20 * s)
            y += 18 * s
        if seat.number in view.game_choice:
            self.text(surf, self._("Draw / Stand: choose the game"), int(15 * s), GOLD, center=(W / 2, y + 2 * s))
        # the seat's language, and how to change it (Insurance cycles it on an idle seat)
        lang = LANGUAGE_NAMES[seat.language]
        self.text(surf, self._("Language: {language}", language=lang), int(18 * s), WHITE,
                  topleft=(int(12 * s), int(10 * s)))
        self.text(surf, self._("Insurance: language"), int(15 * s), DIM, topleft=(int(12 * s), int(34 * s)))


def tile_rects(surf: pygame.Surface, n: int, tiles: tuple[int, int] | None = None) -> list[pygame.Rect]:
    """Where each of ``n`` seats' screens goes on one surface: (columns, rows) ``tiles``, or
    chosen for the count (one, side by side, 2 x 2, 4 x 2)."""
    cols, rows = tiles or ((1, 1) if n == 1 else (2, 1) if n == 2 else (2, 2) if n <= 4 else (4, 2))
    w, h = surf.get_width() // cols, surf.get_height() // rows
    return [pygame.Rect((i % cols) * w, (i // cols) * h, w, h) for i in range(n)]


def _waits_for_round(seat: SeatView) -> bool:
    """Whether the betting time's countdown concerns the seat (it bet, or could)."""
    return seat.state in ("betting", "ready") or (seat.state == "idle" and bool(seat.credit or seat.club))
