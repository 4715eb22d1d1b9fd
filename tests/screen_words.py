"""A renderer that remembers what it drew (each text and where, each card's rectangle), for the
tests of what a seat's screen says and where."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.display.draw import Renderer  # noqa: E402
from machine.display.view import build_view  # noqa: E402


class Seen(Renderer):
    """Draws as the cabinet does and keeps ``texts`` [(text, rect)] and ``cards`` [rect] of the last screen."""

    def __init__(self, language: str = "en"):
        super().__init__(language=language)
        self.texts: list[tuple[str, pygame.Rect]] = []
        self.cards: list[pygame.Rect] = []

    def text(self, surf, msg, size, color, *args, **kw) -> pygame.Rect:
        r = super().text(surf, msg, size, color, *args, **kw)
        self.texts.append((msg, r))
        return r

    def _card(self, surf, code, x, y, s, key, now) -> None:
        super()._card(surf, code, x, y, s, key, now)
        cw, ch = self.card_size(s)
        self.cards.append(pygame.Rect(int(x), int(y), cw, ch))


def screen(cab, n: int, now: float, size=(960, 540), view=None, language: str = "en") -> Seen:
    """Seat ``n``'s screen at ``now`` (``view``: a view to draw instead of the cabinet's)."""
    r = Seen(language)
    surf = pygame.Surface(size)
    view = view or build_view(cab, now, languages={n: language})
    r.draw_seat(surf, view, n, now)
    r.texts.clear()
    r.cards.clear()
    r.draw_seat(surf, view, n, now + 1)  # the deal animation over: every card where it stays
    return r


def words(cab, n: int, now: float, **kw) -> list[str]:
    """Every text on seat ``n``'s screen at ``now``, in drawing order."""
    return [t for t, _ in screen(cab, n, now, **kw).texts]


def notes(cab, n: int, now: float, **kw) -> list[str]:
    """The notes on seat ``n``'s screen (one line, its parts between dots)."""
    r = screen(cab, n, now, **kw)
    line = next((t for t, rect in r.texts if rect == r.note_rects.get(n)), "")
    return line.split("   \u00b7   ") if line else []
