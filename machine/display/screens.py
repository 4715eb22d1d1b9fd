"""The cabinet's screens: opening them and painting one frame of the mode they are given.

Owns: ``Screens`` — the pygame display (one window with every seat's screen as a tile, or one
window per seat), and each frame: the operator menu when one is given, else the table with the
banner of the modes in force; an optional strip at the bottom for a development harness's help;
``banner_text``, the words for the modes; and which card a touch of the screen hit (``card_at``).
Knows the modes only as the names the loop gives it. Never changes the cabinet, never routes an
input, never talks to a device.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from machine.display.view import TableView

if TYPE_CHECKING:
    from machine.operator.config import MachineConfig

BANNERS = {  # mode name -> the banner's words, in the order they are written
    "door open": "Door open",
    "offline": "Panel offline",
    "operator menu": "Operator menu",
}
ATTENDANT_BANNER = "Attendant key: Collect clears, Auto hand-pays the rest, Max Bet records a refill"


def banner_text(modes: Iterable[str], faults: Iterable[str] = ()) -> str:
    """The cabinet-wide banner: the modes that pause play, the devices that do not answer, and
    the attendant key's help."""
    shown = set(modes)
    parts = [words for mode, words in BANNERS.items() if mode in shown]
    parts += [f"{name}: no reply" for name in faults]
    if "attendant" in shown:
        parts.append(ATTENDANT_BANNER)
    return " | ".join(parts)


class Screens:
    """The player screens of one cabinet, drawn with pygame."""

    def __init__(self, cfg: MachineConfig, title: str, key_hints: dict[str, str] | None = None, help_height: int = 0):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from machine.display.draw import Renderer

        pygame.display.init()
        pygame.font.init()
        d = cfg.display
        self.help_height = help_height  # a strip at the bottom of the single window, for help
        self.renderer = Renderer(key_hints, cfg.language)
        self.screen: Any = None
        self.windows: list[Any] = []
        if d.layout == "windows":
            w, h = d.width // 2, d.height // 2
            self.windows = [pygame.Window(f"Seat {n}", (w, h)) for n in range(1, cfg.seats + 1)]
        else:
            flags = pygame.FULLSCREEN if d.fullscreen else 0
            self.screen = pygame.display.set_mode((d.width, d.height), flags)
            pygame.display.set_caption(f"{title} - cabinet")

    def draw(self, view: TableView, now: float, *, attract: bool, banner: str, menu: Any = None, help_text: str = "") -> None:
        """One frame: ``menu`` (a MenuView) while the operator menu is open, else the table in the
        given mode (``attract``: the idle seats show attract mode; ``banner``: the modes' words)."""
        import pygame

        r = self.renderer
        if menu is not None:
            from machine.display.menu import draw_menu

            draw_menu(self.windows[0].get_surface() if self.windows else self.screen, menu, r)
            self._flip()
            return
        view = dataclasses.replace(view, attract=attract, banner=banner)
        if self.windows:
            for n, win in enumerate(self.windows, start=1):
                r.draw_seat(win.get_surface(), view, n, now)
        else:
            h = self.help_height
            area = self.screen.subsurface((0, 0, self.screen.get_width(), self.screen.get_height() - h))
            r.draw_table(area, view, now)
            if h:
                bar = pygame.Rect(0, self.screen.get_height() - h, self.screen.get_width(), h)
                self.screen.fill((0, 0, 0), bar)
                r.text(self.screen, help_text, 17, (255, 230, 150), topleft=(10, bar.top + 4))
        self._flip()

    def card_at(self, pos: tuple[float, float], window: Any = None) -> tuple[int, str] | None:
        """The card drawn at ``pos`` (a point of ``window`` in the windows layout, else of the one
        window): ``(seat, "hand:2")``, ``(seat, "table:1")`` or ``(seat, "stack")``; None elsewhere.
        A hit test only: the loop routes the touch."""
        only = self.window_seat(window)
        if self.windows and only is None:
            return None
        for (seat, target), rect in self.renderer.card_rects.items():
            if (only is None or seat == only) and rect.collidepoint(pos):
                return seat, target
        return None

    def touch_point(self, event: Any) -> tuple[tuple[float, float], Any]:
        """A mouse or finger event's point in pixels and its window (a finger's is 0..1 of it)."""
        window = getattr(event, "window", None)
        if hasattr(event, "pos"):
            return event.pos, window
        surface = window.get_surface() if window is not None and window in self.windows else self.screen
        w, h = surface.get_size() if surface is not None else (0, 0)
        return (event.x * w, event.y * h), window

    def window_seat(self, window: Any) -> int | None:
        """The seat whose window ``window`` is (the windows layout), else None."""
        return self.windows.index(window) + 1 if window is not None and window in self.windows else None

    def _flip(self) -> None:
        import pygame

        for win in self.windows:
            win.flip()
        if not self.windows:
            pygame.display.flip()
