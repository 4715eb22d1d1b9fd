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

import pygame

from machine.display import narrow, places, tournament
from machine.display.cards import CardsPainter
from machine.display.notes import NotesPainter
from machine.display.painter import FONT
from machine.display.palette import GOLD, WHITE
from machine.display.view import TableView
from machine.i18n import N_

__all__ = ["FONT", "GOLD", "WHITE", "Renderer", "tile_rects"]

STARTING = N_("One moment: the cabinet is starting")  # the start-up screen before Auto's tables report
PREPARING = N_("Preparing the game")  # a game whose tables come in one step
PREPARING_PART = N_("Preparing the game: {done} of {total}")  # blackjack: per up card
GAME_TITLES = (  # the shipped profiles' titles (config/games): each language's name for its game, where it has one
    N_("Random Blackjack"), N_("Casino Blackjack"), N_("European Blackjack"), N_("Swedish Pub Blackjack"),
    N_("Spanish 21"), N_("Ochko"), N_("Eenentwintig"), N_("Eenendertigen"), N_("Eenendertigen modern"),
)
SWEEP_SECONDS = 1.6  # the start-up bar's light runs along it once in this time


class Renderer(CardsPainter, NotesPainter):
    """Fonts, the deal animation's memory and the drawing of whole screens, each seat's screen
    in that seat's language (``SeatView.language``; ``language`` for the screens' other words).
    The parts come from its bases: the tools (painter.py), the cards and hands (cards.py), the
    meters, buttons, banners and notes (notes.py); a narrow tile's layout and parts from
    narrow.py (``layouts``: each seat's last drawn, None on a wide screen)."""

    def __init__(self, key_hints: dict[str, str] | None = None, language: str = "en"):
        super().__init__(key_hints, language)
        self.layouts: dict[int, narrow.Layout | None] = {}

    # -- whole screens ----------------------------------------------------------------------------

    def draw_table(self, surf: pygame.Surface, view: TableView, now: float, tiles: tuple[int, int] | None = None) -> None:
        """Every seat's screen as tiles of one surface (columns, rows chosen for the count)."""
        for seat, r in zip(view.seats, tile_rects(surf, len(view.seats), tiles), strict=True):
            sub = surf.subsurface(r)
            self.draw_seat(sub, view, seat.number, now, offset=r.topleft)
            pygame.draw.rect(surf, (0, 0, 0), r, width=2)

    def draw_starting_table(self, surf: pygame.Surface, seats: int, title: str, language: str,
                            done: int | None = None, total: int | None = None, now: float | None = None) -> None:
        """The start-up screen on every seat's tile of one surface (``draw_starting``)."""
        for r in tile_rects(surf, seats):
            self.draw_starting(surf.subsurface(r), title, language, done, total, now=now)
            pygame.draw.rect(surf, (0, 0, 0), r, width=2)

    def draw_starting(self, surf: pygame.Surface, title: str, language: str, done: int | None = None,
                      total: int | None = None, now: float | None = None) -> None:
        """The whole of a seat's screen while the cabinet starts: the game's title and how far
        Auto's tables are, ``done`` of ``total`` in words and as a bar (None: nothing reported
        yet, or the tables came from the cache; a total of 1, a game prepared in one step: the
        bar without the count), in ``language``. ``now`` (seconds, any clock): a light sweeps
        the bar's part still to come, so the bar moves while the engine works on towards its
        next report (a cold start spends most of its time before the first: the compiled
        kernels are built then)."""
        W, H = surf.get_size()
        s = min(W / 960, H / 540)
        self.w = self.words(language)
        self._felt(surf, s)
        y = H * 0.52  # the words' line; the title above it, the bar below, together on a tall screen too
        self.text(surf, self._(title).upper(), int(44 * s), GOLD, center=(W / 2, y - 119 * s), width=W - 40 * s)
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
        if now is not None and done < total:
            self._sweep(surf, bar, round(bar.width * done / total), now, s)
        pygame.draw.rect(surf, GOLD, bar, width=max(1, int(2 * s)), border_radius=int(6 * s))

    @staticmethod
    def _sweep(surf: pygame.Surface, bar: pygame.Rect, filled: int, now: float, s: float) -> None:
        """A soft light running along the bar's unfilled part, once every ``SWEEP_SECONDS``."""
        rest = pygame.Rect(bar.left + filled, bar.top, bar.width - filled, bar.height)
        if rest.width <= 0:
            return
        glow = max(12, int(90 * s))
        x = rest.left - glow + ((now % SWEEP_SECONDS) / SWEEP_SECONDS) * (rest.width + glow)
        clip = surf.get_clip()
        surf.set_clip(rest.inflate(0, -2 * max(1, int(2 * s))))
        for i in range(glow):
            k = 1 - abs(i - glow / 2) / (glow / 2)  # brightest in its middle
            c = tuple(int(v * 0.85 * k) for v in GOLD)
            pygame.draw.line(surf, c, (int(x + i), rest.top), (int(x + i), rest.bottom))
        surf.set_clip(clip)

    def draw_seat(self, surf: pygame.Surface, view: TableView, number: int, now: float, offset=(0, 0)) -> None:
        """One player screen, in its seat's language."""
        W, H = surf.get_size()
        s = H / 540
        seat = next(x for x in view.seats if x.number == number)
        self.w = self.words(seat.language)
        for key in [k for k in self.card_rects if k[0] == number]:  # only the cards drawn this frame take a touch
            del self.card_rects[key]
        for key in [k for k in self.drawn if k[0] == number]:  # and only this frame's parts are kept
            del self.drawn[key]
        self._felt(surf, s)
        lay = narrow.layout(W, H, with_places=bool(view.places))  # a narrow tile's rectangles, else None
        self.layouts[number] = lay
        if view.tournament is not None and tournament.takes_screen(view, seat):
            tournament.draw_screen(self, surf, view, seat, now, s, offset)
            if view.banner:
                self._banner(surf, view.banner, s)
            return
        if view.attract and seat.state == "idle" and not seat.paid:  # a payout's end is said on the table
            self._attract(surf, view, seat, now, s, narrow=lay is not None)
            self._meters(surf, view, seat, s)  # each seat's credit, also while it is idle
            self._buttons(surf, seat, s, offset)
            self._game_change(surf, view, s)
            if view.banner:
                self._banner(surf, view.banner, s)
            return
        if lay is not None:  # a narrow tile: each part in its own rectangle (machine/display/narrow.py)
            narrow.draw_header(self, surf, view, seat, lay)
            if view.places:
                places.draw_places(self, surf, view, seat, now, s, offset, narrow.places_spots(lay))
            else:
                narrow.draw_table(self, surf, view, seat, now, lay)
            self._message(surf, view, seat, now, s, lay=lay)
        elif view.places:  # a game of places (eenendertigen): machine/display/places.py lays the table out
            places.draw_places(self, surf, view, seat, now, s, offset)
            self._minmax(surf, view, seat, s)
            self._header(surf, view, seat, s, now)
            self._message(surf, view, seat, now, s, y=places.MESSAGE_Y * s, countdown_y=places.COUNTDOWN_Y * s)
        else:  # the wide layout; its parts' drawings kept as on a narrow tile (``drawn``), the list with the header
            with self.part(number, "house"):
                self._dealer(surf, view, now, s)
            with self.part(number, "minmax"):
                self._minmax(surf, view, seat, s)
            with self.part(number, "title"):
                self._header(surf, view, seat, s, now)
            with self.part(number, "hands"):
                self._hands(surf, seat, now, s)
            with self.part(number, "side"):
                self._watching(surf, view, seat, now, s)
            self._message(surf, view, seat, now, s)
        self._meters(surf, view, seat, s)
        self._buttons(surf, seat, s, offset)
        tournament.draw_progress(self, surf, view, seat, s)
        self._game_change(surf, view, s)
        if seat.state in ("handpay", "tilt", "memory_error"):
            self._lock_screen(surf, view, seat, now, s, narrow=lay is not None)
        if view.banner:
            self._banner(surf, view.banner, s)


def tile_rects(surf: pygame.Surface, n: int, tiles: tuple[int, int] | None = None) -> list[pygame.Rect]:
    """Where each of ``n`` seats' screens goes on one surface: (columns, rows) ``tiles``, or
    chosen for the count (one, side by side, 2 x 2, 4 x 2)."""
    cols, rows = tiles or ((1, 1) if n == 1 else (2, 1) if n == 2 else (2, 2) if n <= 4 else (4, 2))
    w, h = surf.get_width() // cols, surf.get_height() // rows
    return [pygame.Rect((i % cols) * w, (i // cols) * h, w, h) for i in range(n)]

