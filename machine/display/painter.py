"""The painter's tools under every player screen: fonts, the words of a seat's language, text
shrunk to a width, the felt and the cards with their deal animation.

Owns: the fonts (machine/display/fonts), the rendered texts' cache, the deal animation's memory
and the rectangles a click or a touch finds (filled by the parts that draw buttons and cards).
Never changes the cabinet; never waits on anything; knows no layout of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import pygame

from machine.display.cardart import card_surface
from machine.display.gamewords import say
from machine.display.palette import FELT, FELT_DARK, GOLD
from machine.games.interface import FACE_DOWN
from machine.i18n import Words

DEAL_SECONDS = 0.25
# DejaVu Sans Bold, shipped in the package (machine/display/fonts, its LICENSE beside it) and loaded by
# path: Latin, Cyrillic, \u20ac and \u00e6\u00f8\u00e5 (tests/test_player_words.py renders every catalog and
# finds no missing glyph), and it stays legible small, where pygame's own font runs its letters together
FONT = Path(__file__).parent / "fonts" / "DejaVuSans-Bold.ttf"
FELT_SHAPE = (-0.15, -0.55, 1.3, 1.45)  # the felt's ellipse (left, top, width, height) in parts of the screen's size
METERS_TOP = 116  # the meters' strip begins this far above the screen's bottom (at s = 1), the buttons below it
METERS_HEIGHT = 45


def felt_rect(w: float, h: float) -> pygame.Rect:
    """The felt's ellipse on a ``w`` x ``h`` screen (its gold arc is this ellipse's edge)."""
    return pygame.Rect(int(FELT_SHAPE[0] * w), int(FELT_SHAPE[1] * h), int(FELT_SHAPE[2] * w), int(FELT_SHAPE[3] * h))


def felt_room(w: float, h: float, top: float, bottom: float) -> float:
    """How wide a line of text between heights ``top`` and ``bottom`` centred on the screen may
    be and stay inside the felt's arc (the narrower of its two edges; the whole width where the
    arc runs off the screen at both)."""
    r = felt_rect(w, h)
    rx, ry, cy = r.width / 2, r.height / 2, r.centery
    widths = []
    for at in (top, bottom):
        t = (at - cy) / ry
        widths.append(0.0 if abs(t) >= 1 else 2 * rx * (1 - t * t) ** 0.5)
    return min(w, *widths)


class Painter:
    """Fonts, words, texts and cards: what every part of a player screen draws with."""

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
        self.note_rects: dict[int, pygame.Rect] = {}  # where each seat's notes line was drawn last (notes.py)
        self.drawn: dict[tuple[int, str], pygame.Rect] = {}  # (seat, part) -> what a part drew this frame
        self._part: list[pygame.Rect] | None = None  # the rectangles of the part being drawn now

    @contextmanager
    def part(self, number: int, name: str) -> Iterator[None]:
        """Draw one part of seat ``number``'s screen: ``drawn[(number, name)]`` keeps the union of
        every text and card it drew (in the screen's own coordinates; none drawn: no entry)."""
        self.drawn.pop((number, name), None)
        self._part = []
        try:
            yield
        finally:
            rects, self._part = self._part, None
            if rects:
                self.drawn[(number, name)] = rects[0].unionall(rects[1:])

    def mark(self, rect: pygame.Rect) -> None:
        """A rectangle drawn by other means (a box's frame) counted in the part being drawn."""
        if self._part is not None:
            self._part.append(pygame.Rect(rect))

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
        below ``smallest`` pixels; what is still wider at that size is narrowed to ``width``, so
        a long word of a language never runs past its button or its box)."""
        key = (msg, size, color, None if width is None else int(width), smallest)
        img = self._texts.get(key)
        if img is None:  # rendered once: most of a screen's words stay the same frame after frame
            if width is not None:
                while size > smallest and self.font(size).size(msg)[0] > width:
                    size -= 1
            img = self.font(size).render(msg, True, color)
            if width is not None and img.get_width() > width >= 1:
                img = pygame.transform.smoothscale(img, (int(width), img.get_height()))
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
        self.mark(r)
        return r

    def wrapped(self, text: str, size: int, width: float, smallest: int = 9) -> list[str]:
        """``text`` in lines no wider than ``width`` at ``size`` (never below ``smallest``), broken at spaces."""
        font = self.font(max(size, smallest))
        lines: list[str] = []
        for word in text.split():
            trial = f"{lines[-1]} {word}" if lines else word
            if lines and font.size(trial)[0] <= width:
                lines[-1] = trial
            else:
                lines.append(word)
        return lines

    def _arrival(self, key: tuple, now: float) -> float:
        """0..1: how far a card's deal animation has come."""
        t0 = self._seen.setdefault(key, now)
        return min(1.0, (now - t0) / DEAL_SECONDS) if DEAL_SECONDS else 1.0

    def _felt(self, surf, s) -> None:
        W, H = surf.get_size()
        surf.fill(FELT_DARK)
        pygame.draw.ellipse(surf, FELT, felt_rect(W, H))
        pygame.draw.ellipse(surf, GOLD, felt_rect(W, H), width=max(1, int(2 * s)))

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
        self.mark(pygame.Rect(int(x), int(y), cw, ch))
