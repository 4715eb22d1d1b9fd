"""The meters, buttons, banners and notes of a player screen: the seat's message with its
countdown, the notes line, the credit/club/bet meters, the lamp buttons, the handpay/tilt/
memory-error screens, the announcement of a change of game, the cabinet-wide banner and attract
mode.

Owns those parts' layout (``NotesPainter``, one of ``draw.Renderer``'s bases). The notes (a
credit below the smallest coin, the betting time, why the game cannot be chosen) go on their own
line just above the meters, below every card and every hand's label, so they never cover a
card (``note_rects`` keeps where each seat's was drawn). A lock screen says in player words what
happened (the internal reason is the event log's and the operator menu's). Never changes the
cabinet; never waits on anything.
"""

from __future__ import annotations

import math

import pygame

from machine.display.cardart import card_surface
from machine.display.gamewords import BAR
from machine.display.narrow import Layout
from machine.display.painter import METERS_HEIGHT, METERS_TOP, Painter, felt_room
from machine.display.palette import (
    DIM,
    FELT_DARK,
    GOLD,
    LAMP_OFF,
    LAMP_OFF_EDGE,
    LAMP_OFF_INK,
    LAMP_ON,
    LAMP_ON_EDGE,
    LAMP_ON_INK,
    METER_INK,
    RED,
    WHITE,
)
from machine.display.view import BUTTON_ORDER, SeatView, TableView
from machine.games.interface import Button
from machine.i18n import LANGUAGE_NAMES, N_

MESSAGE_Y = 196  # the seat's message, between the dealer's cards and its own (at s = 1)
NOTE_ABOVE_METERS = 11  # the notes line's centre, this far above the meters (at s = 1)
NOTE_INK = (215, 222, 205)  # the notes' colour on their dark strip
LOCK_WORDS = {  # what a locked seat's screen says happened, in player words
    "tilt": N_("This seat has stopped: the attendant will put it right"),
    "memory_error": N_("This seat cannot be played until the operator has checked it"),
}
MEMORY_ERROR_WORDS = N_("The cabinet cannot trust its memory and will not play until the operator has checked it")
CHOSEN_BY_SEAT = N_("Seat {seat} chose {game}")
CHOSEN_BY_OPERATOR = N_("The operator chose {game}")
BUTTON_LABELS = {  # a button's name where the game says nothing for it now (Dutch: the manual's names)
    Button.PLUS_2: "+2", Button.PLUS_10: "+10", Button.TIMES_2: "x2", Button.REPEAT: N_("Repeat Bet"),
    Button.MAX: N_("Max Bet"), Button.START: N_("Start"), Button.DRAW: N_("Draw"), Button.STAND: N_("Stand"),
    Button.DOUBLE: N_("Double"), Button.SPLIT: N_("Split"), Button.INSURANCE: N_("Insurance"), Button.AUTO: N_("Auto"),
    Button.COLLECT: N_("Collect"),
}
BIG_MESSAGES = ("Blackjack!", "Bust", "Insurance?", "Your turn", "You win", "Discard a card")
LOCK_TITLES = {"handpay": N_("HANDPAY"), "tilt": N_("TILT"), "memory_error": N_("MEMORY ERROR")}


class NotesPainter(Painter):
    """The message, meters, buttons, lock screens, banner and attract mode of one seat's screen."""

    def _message(
        self, surf, view: TableView, seat: SeatView, now, s, y: float | None = None, countdown_y: float | None = None,
        lay: Layout | None = None,
    ) -> None:
        """The seat's message and its countdown: at ``y`` and at the right at ``countdown_y``, or
        in a narrow screen's rectangles (``lay``, machine/display/narrow.py), a size smaller."""
        W, H = surf.get_size()
        y = MESSAGE_Y * s if y is None else y
        if seat.message:
            big = seat.message in BIG_MESSAGES
            color = GOLD if big else WHITE
            fields = dict(seat.fields)
            if seat.paid:  # "{money} paid"
                fields["money"] = self.money(seat.paid, view.denomination_cents)
            with self.part(seat.number, "message"):
                if lay is None:
                    self.text(surf, self._(seat.message, **fields), int((30 if big else 24) * s), color, center=(W / 2, y),
                              width=W * 0.6)
                else:
                    self.text(surf, self._(seat.message, **fields), int((26 if big else 21) * s), color,
                              center=lay["message"].center, width=lay["message"].width)
        self._notes(surf, view, seat, s)
        left, full = view.countdown, view.decision_time
        if left is None and view.betting_left is not None and _waits_for_round(seat):
            left, full = view.betting_left, view.betting_time
        if left is not None:
            with self.part(seat.number, "countdown"):
                self._countdown(surf, left, full, s, lay, W - 40 * s, H * 0.45 if countdown_y is None else countdown_y)

    def _countdown(self, surf, left: float, full: float, s, lay: Layout | None, cx: float, cy: float) -> None:
        """The decision's or the betting time's seconds in a ring, at (cx, cy) or in ``lay``'s rectangle."""
        r = 24 * s
        if lay is not None:
            box = lay["countdown"]
            r = min(box.width, box.height) // 2
            cx, cy = box.left + r, box.top + r
        self.mark(pygame.draw.circle(surf, (0, 0, 0), (cx, cy), r))
        frac = min(1.0, left / full) if full > 0 else 0.0
        ring = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
        sweep = math.pi / 2 + 2 * math.pi * frac
        pygame.draw.arc(surf, RED if left < 5 else GOLD, ring, math.pi / 2, sweep, max(2, int(4 * s)))
        self.text(surf, str(math.ceil(left)), int((20 if lay is None else 16) * s), WHITE, center=(cx, cy))

    def notes(self, view: TableView, seat: SeatView) -> list[str]:
        """The seat's notes now, translated: a credit below the smallest coin, the betting time
        left, and whether (or why not) its Draw and Stand choose the game."""
        out = []
        if seat.leftover:  # below the smallest coin: Collect cannot pay it, it stays to play
            out.append(self._("{money} is below the smallest coin: it stays on your credit to play",
                              money=self.money(seat.leftover, view.denomination_cents)))
        if view.betting_left is not None and _waits_for_round(seat):
            out.append(self._("The round starts in {seconds} s", seconds=math.ceil(view.betting_left)))
        if seat.choice_held_by is not None:
            out.append(self._("Seat {seat} holds credit: the game cannot be changed now", seat=seat.choice_held_by))
        elif seat.number in view.game_choice and not view.attract:
            out.append(self._("Draw / Stand: choose the game"))
        return out

    def _notes(self, surf, view: TableView, seat: SeatView, s) -> None:
        """The notes on their line just above the meters, clear of every card."""
        W, H = surf.get_size()
        notes = self.notes(view, seat)
        self.note_rects.pop(seat.number, None)
        if notes:
            y = H - (112 + NOTE_ABOVE_METERS) * s
            line = "   \u00b7   ".join(notes)
            size, width = int(16 * s), W - 24 * s
            strip = pygame.Rect(0, 0, int(min(width, self.font(size).size(line)[0]) + 20 * s), int(21 * s))
            strip.center = (int(W / 2), int(y))
            pygame.draw.rect(surf, FELT_DARK, strip, border_radius=int(6 * s))  # over the felt's edge, never a card
            self.note_rects[seat.number] = self.text(surf, line, size, NOTE_INK, center=(W / 2, y), width=width)

    def _game_change(self, surf, view: TableView, s) -> None:
        """A change of the game in force, for a few seconds on every screen: who chose which
        game, and what it pays."""
        change = view.game_change
        if change is None:
            return
        W, H = surf.get_size()
        r = pygame.Rect(0, 0, int(W * 0.76), int(88 * s))
        r.center = (W // 2, int(H * 0.40))
        pygame.draw.rect(surf, (15, 25, 18), r, border_radius=int(10 * s))
        pygame.draw.rect(surf, GOLD, r, width=max(2, int(3 * s)), border_radius=int(10 * s))
        game = self.tr(change.title)
        who = (self._(CHOSEN_BY_OPERATOR, game=game) if change.seat is None
               else self._(CHOSEN_BY_SEAT, seat=change.seat, game=game))
        self.text(surf, who, int(26 * s), GOLD, center=(r.centerx, r.top + 28 * s), width=r.width - 20 * s)
        self.text(surf, self.tr(change.pay_rule), int(18 * s), WHITE, center=(r.centerx, r.top + 62 * s),
                  width=r.width - 20 * s)

    def _meters(self, surf, view: TableView, seat: SeatView, s) -> None:
        """The credit, club and bet meters in large digits, as a cabinet's meters are read from
        the seat: each meter's name small above, its points large, their money beside them."""
        W, H = surf.get_size()
        y = H - METERS_TOP * s
        pygame.draw.rect(surf, (0, 0, 0), pygame.Rect(0, y, W, METERS_HEIGHT * s))
        c = view.denomination_cents
        cells = [
            (self._("CREDIT"), self.num(seat.credit), self.money(seat.credit, c)),
            (self._("CLUB"), self.num(seat.club), self.money(seat.club, c)),
            (self._("BET"), self.num(seat.bet), ""),
        ]
        cw = W / len(cells)
        for i, (label, points, money) in enumerate(cells):
            x = i * cw + 10 * s
            if i:
                pygame.draw.line(surf, LAMP_OFF_EDGE, (int(i * cw), int(y + 5 * s)), (int(i * cw), int(y + 40 * s)))
            self.text(surf, label, int(13 * s), DIM, topleft=(int(x), int(y + 2 * s)), width=cw - 16 * s)
            room = cw - 20 * s
            r = self.text(surf, points, int(31 * s), METER_INK, topleft=(int(x), int(y + 13 * s)),
                          width=room * (0.62 if money else 1.0), smallest=12)
            if money:
                self.text(surf, money, int(17 * s), DIM, topleft=(int(r.right + 8 * s), int(y + 24 * s)),
                          width=x + room - r.right - 8 * s)

    def _buttons(self, surf, seat: SeatView, s, offset) -> None:
        """The lamp buttons: a lit one bright amber with a near-black legend, an unlit one dark
        with a dim legend, so a glance tells them apart."""
        W, H = surf.get_size()
        per_row = 7
        bw = (W - 16 * s) / per_row
        bh = 30 * s
        for i, b in enumerate(BUTTON_ORDER):
            row, col = divmod(i, per_row)
            r = pygame.Rect(int(8 * s + col * bw + 2 * s), int(H - 70 * s + row * (bh + 4 * s)), int(bw - 4 * s), int(bh))
            lit = b in seat.lamps
            pygame.draw.rect(surf, LAMP_ON if lit else LAMP_OFF, r, border_radius=int(6 * s))
            pygame.draw.rect(surf, LAMP_ON_EDGE if lit else LAMP_OFF_EDGE, r, width=max(1, int(2 * s)),
                             border_radius=int(6 * s))
            label = self.tr(seat.labels[b]) if b in seat.labels else self._(BUTTON_LABELS[b])
            hint = self.key_hints.get(b)
            color = LAMP_ON_INK if lit else LAMP_OFF_INK
            self.text(surf, label, int(15 * s), color, center=(r.centerx, r.centery - (5 * s if hint else 0)),
                      width=r.width - 6 * s, smallest=7)
            if hint:
                self.text(surf, hint, int(10 * s), color, center=(r.centerx, r.centery + 8 * s))
            self.button_rects[(seat.number, b)] = r.move(offset)

    def _lock_screen(self, surf, view: TableView, seat: SeatView, now, s, narrow: bool = False) -> None:
        """The handpay, tilt or memory-error screen over the seat's table (on a ``narrow`` tile
        its words on up to three lines where one is too long)."""
        W, H = surf.get_size()
        shade = pygame.Surface((W, H - METERS_TOP * s), pygame.SRCALPHA)
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
            line = self._(LOCK_WORDS[seat.state])
        size, room = int(18 * s), r.width - 20 * s
        lines = self.wrapped(line, size, room)[:3] if narrow and self.font(size).size(line)[0] > room else [line]
        step = 23 * s
        for i, words in enumerate(lines):
            self.text(surf, words, size, WHITE, center=(r.centerx, r.centery + 4 * s + step * (i - (len(lines) - 1) / 2)),
                      width=room)
        call = self._("Call the attendant") if seat.state != "memory_error" else self._("Call the operator")
        self.text(surf, call, int(18 * s), DIM, center=(r.centerx, r.bottom - 28 * s), width=r.width - 20 * s)

    def draw_memory_error(self, surf, detail: str) -> None:
        """The whole of a seat's screen when the cabinet cannot trust its memory and will not start:
        the title, what that means in player words, whom to call (``detail``, what was found, is
        the operator's: the one-line error the start ends with, never on a player's screen)."""
        W, H = surf.get_size()
        s = min(W / 960, H / 540)
        surf.fill((25, 10, 12))
        r = pygame.Rect(0, 0, int(W * 0.9), int(H * 0.8))
        r.center = (W // 2, H // 2)
        pygame.draw.rect(surf, RED, r, width=max(3, int(5 * s)), border_radius=int(12 * s))
        self.text(surf, self._(LOCK_TITLES["memory_error"]), int(44 * s), RED, center=(r.centerx, r.top + 50 * s),
                  width=r.width - 20 * s)
        words, lines, size = self._(MEMORY_ERROR_WORDS).split(), [""], int(20 * s)
        for w in words:  # wrapped to the frame
            trial = f"{lines[-1]} {w}".strip()
            if self.font(size).size(trial)[0] > r.width - 40 * s and lines[-1]:
                lines.append(w)
            else:
                lines[-1] = trial
        for i, line in enumerate(lines[:6]):
            self.text(surf, line, size, WHITE, center=(r.centerx, r.top + (120 + 30 * i) * s), width=r.width - 40 * s)
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

    def _attract(self, surf, view: TableView, seat: SeatView, now, s, narrow: bool = False) -> None:
        """The game's title, its motif (the cards the game is known by, from the registry), the
        call for coins and what the game pays, every line inside the felt's arc (on a ``narrow``
        tile the title below the language's lines, across the tile)."""
        W, H = surf.get_size()
        # the seat's language, and how to change it (Insurance cycles it on an idle seat)
        lang = LANGUAGE_NAMES[seat.language]
        a = self.text(surf, self._("Language: {language}", language=lang), int(18 * s), WHITE,
                      topleft=(int(12 * s), int(10 * s)))
        b = self.text(surf, self._("Insurance: language"), int(15 * s), DIM, topleft=(int(12 * s), int(34 * s)))
        if narrow:  # the title across the tile below the language's lines, the motif lower
            self._motif(surf, view.motif, now, s, W / 2, 200 * s)
            self.text(surf, self._(view.game_title).upper(), int(34 * s), GOLD, center=(W / 2, b.bottom + 26 * s),
                      width=W - 24 * s)
            self.text(surf, self._("SEAT {seat}", seat=seat.number), int(20 * s), DIM, center=(W / 2, b.bottom + 60 * s))
        else:
            self._motif(surf, view.motif, now, s, W / 2, H * 0.33)
            beside = max(a.right, b.right) + 8 * s  # the title clear of the language's lines at either side
            self.text(surf, self._(view.game_title).upper(), int(40 * s), GOLD, center=(W / 2, H * 0.09),
                      width=W - 2 * beside)
            self.text(surf, self._("SEAT {seat}", seat=seat.number), int(20 * s), DIM, center=(W / 2, H * 0.165))
        if int(now * 2) % 2 == 0:
            y = H * 0.53
            self.text(surf, self._("INSERT COINS"), int(30 * s), WHITE, center=(W / 2, y),
                      width=felt_room(W, H, y - 17 * s, y + 17 * s) - 24 * s)
        lines = [self.tr(line) for line in view.attract_lines]
        if seat.number in view.game_choice:
            lines.append(self._("Draw / Stand: choose the game"))
        top, bottom = H * 0.585, H - (METERS_TOP + 4) * s  # the lines between the call and the meters
        step = min(17 * s, (bottom - top) / max(1, len(lines)))
        y = top + step / 2
        for i, line in enumerate(lines):
            chooser = seat.number in view.game_choice and i == len(lines) - 1
            self.text(surf, line, int(min(15 * s, step - 2 * s)), GOLD if chooser else DIM, center=(W / 2, y),
                      width=felt_room(W, H, y - step / 2, y + step / 2) - 24 * s, smallest=8)
            y += step

    def _motif(self, surf, cards: tuple[str, ...], now, s, cx: float, cy: float) -> None:
        """The game's cards fanned around (cx, cy), swaying gently."""
        cw, ch = self.card_size(s * 0.9)
        n = len(cards)
        for i, c in enumerate(cards):
            k = i - (n - 1) / 2
            ang = k * 14 + 3 * math.sin(now * 1.5 + i)
            img = pygame.transform.rotate(card_surface(c, cw, ch, self.font_path), -ang)
            surf.blit(img, img.get_rect(center=(cx + k * cw * 0.62, cy + abs(k) * 6 * s)))


def _waits_for_round(seat: SeatView) -> bool:
    """Whether the betting time's countdown concerns the seat (it bet, or could: not while the
    casino's host holds it, when the round starts without it)."""
    return not seat.held and (seat.state in ("betting", "ready") or (seat.state == "idle" and bool(seat.credit or seat.club)))
