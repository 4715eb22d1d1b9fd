"""The cabinet's screens: opening them and painting one frame of the mode they are given.

Owns: ``Screens`` — the pygame display (one window with every seat's screen as a tile, or one
window per seat, each where ``display.windows`` places it: ``window_places``, by default tiled
side by side or in a grid on the first display), refusing with one line (``DisplayError``) when
no display can be opened rather than drawing into SDL's invisible fallback; the start-up screen
while the cabinet starts (``starting``: the game's title and how far Auto's tables are, as
reported to it; ``while_starting`` keeps the window answering meanwhile); and each frame: the
operator menu when one is given, else the table with the banner of the modes in force; an
optional strip at the bottom for a development harness's help; ``banner_text``, the words for
the modes; and which card a touch of the screen hit (``card_at``).
Knows the modes only as the names the loop gives it. Never changes the cabinet, never routes an
input, never talks to a device.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import os
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from machine.display.gamewords import BAR
from machine.display.view import TableView
from machine.games.text import N_, Text

if TYPE_CHECKING:
    from machine.operator.config import DisplayConfig, MachineConfig

NO_DISPLAY = "no display: set DISPLAY or run with --headless"
INVISIBLE_DRIVERS = frozenset({"offscreen", "dummy"})  # SDL's fallbacks: they draw nowhere a person sees
START_PUMP_SECONDS = 0.1  # while Auto's tables are prepared: the window's events pumped this often
SHARED_CAPTION = " - development layout: a shared screen ({seats} seats in one window)"  # the tiles' window
WINDOWPOS_CENTERED_DISPLAY = 0x2FFF0000  # SDL: centred on the display whose index is or-ed in


class DisplayError(ValueError):
    """No display to draw on, or a window placed on a display the desktop does not have."""


class WindowPlace(NamedTuple):
    """Where one seat's window opens: its position (pixels of the desktop, or SDL's centred on
    a display), its size, and whether it fills its display."""

    position: tuple[int, int]
    size: tuple[int, int]
    fullscreen: bool = False


def window_places(d: DisplayConfig, seats: int, desktops: Sequence[tuple[int, int]]) -> list[WindowPlace]:
    """Each seat's window, from ``display.windows`` (an entry per seat: a display index or a
    position) and the sizes of the desktop's displays; a seat without a place gets its cell of a
    grid on the first display (side by side for two, 2 x 2 for four), no bigger than half the
    configured size."""
    if not desktops:
        raise DisplayError(NO_DISPLAY)
    dw, dh = desktops[0]
    cols = math.ceil(math.sqrt(seats))
    rows = math.ceil(seats / cols)
    size = (min(d.width // 2, dw // cols), min(d.height // 2, dh // rows))
    places = []
    for i in range(seats):
        grid = WindowPlace(((i % cols) * (dw // cols), (i // cols) * (dh // rows)), size)
        entry = d.windows[i] if i < len(d.windows) else None
        if entry is None:
            places.append(grid)
        elif entry.display is not None:
            if entry.display >= len(desktops):
                raise DisplayError(f"display.windows.{i}: display {entry.display} does not exist (this desktop has "
                                   f"{len(desktops)} display{'s' if len(desktops) != 1 else ''}, from 0)")
            at = WINDOWPOS_CENTERED_DISPLAY | entry.display
            full = desktops[entry.display]
            places.append(WindowPlace((at, at), full if entry.fullscreen else size, entry.fullscreen))
        elif entry.x is not None and entry.y is not None:
            places.append(WindowPlace((entry.x, entry.y), size, entry.fullscreen))
        else:
            places.append(grid._replace(fullscreen=entry.fullscreen))
    return places


def open_display() -> None:
    """Start pygame's display, or raise ``DisplayError`` when none can be opened: SDL falls back
    to a driver that draws nowhere (offscreen, dummy) unless the user asked for one
    (``SDL_VIDEODRIVER``, as the tests and the screenshots do)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # nothing of pygame's on standard output
    import pygame

    with _held_stderr() as said:  # SDL's probing of the drivers it does not find (wayland, x11)
        try:
            pygame.display.init()
            driver = pygame.display.get_driver()
        except pygame.error:
            driver = None
    if driver is None or (driver in INVISIBLE_DRIVERS and not os.environ.get("SDL_VIDEODRIVER")):
        pygame.display.quit()
        raise DisplayError(NO_DISPLAY)
    if said:  # a display opened: whatever SDL said may matter, so it is said after all
        os.write(2, b"".join(said))


@contextlib.contextmanager
def _held_stderr() -> Iterator[list[bytes]]:
    """File descriptor 2 into a buffer while the block runs (what C code writes there too); the
    list it gives holds it afterwards."""
    held: list[bytes] = []
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to hold
        yield held
        return
    with tempfile.TemporaryFile() as buf:
        os.dup2(buf.fileno(), 2)
        try:
            yield held
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            buf.seek(0)
            held.append(buf.read())
            if not held[0]:
                held.clear()

BANNERS = {  # mode name -> the banner's words, in the order they are written
    "door open": "Door open",
    "offline": "Panel offline",
    "operator menu": "Operator menu",
}
ATTENDANT_BANNER = "Attendant key: Collect clears, Auto hand-pays the rest, Max Bet records a refill"
NO_REPLY = N_("{device}: no reply")  # a device the worker cannot reach, as a message id with its name


def banner_text(modes: Iterable[str], faults: Iterable[str] = ()) -> str:
    """The cabinet-wide banner: the modes that pause play, the devices that do not answer, and
    the attendant key's help, as a ``Text`` of its parts (each translated by its message id)."""
    shown = set(modes)
    parts = [words for mode, words in BANNERS.items() if mode in shown]
    parts += [Text(NO_REPLY, device=name) for name in faults]
    if "attendant" in shown:
        parts.append(ATTENDANT_BANNER)
    return Text.joined(BAR, parts) if parts else ""


class Screens:
    """The player screens of one cabinet, drawn with pygame."""

    def __init__(self, cfg: MachineConfig, title: str, key_hints: dict[str, str] | None = None, help_height: int = 0):
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from machine.display.draw import Renderer

        open_display()
        pygame.font.init()
        d = cfg.display
        self.help_height = help_height  # a strip at the bottom of the single window, for help
        self.seats, self.language = cfg.seats, cfg.language
        self._thread = threading.current_thread()  # the one that draws
        self._start_report: tuple[str, int | None, int | None] = (title, None, None)  # starting's latest
        self.renderer = Renderer(key_hints, cfg.language)
        self.screen: Any = None
        self.windows: list[Any] = []
        self.captioned: str | None = None  # the game title the window's caption names
        if d.layout == "windows":
            places = window_places(d, cfg.seats, pygame.display.get_desktop_sizes())
            self.windows = [
                pygame.Window(f"Seat {n}", p.size, position=p.position, fullscreen_desktop=p.fullscreen)
                for n, p in enumerate(places, start=1)
            ]
        else:
            flags = pygame.FULLSCREEN if d.fullscreen else 0
            self.screen = pygame.display.set_mode((d.width, d.height), flags)
            self.caption(title)

    def draw(self, view: TableView, now: float, *, attract: bool, banner: str, menu: Any = None, help_text: str = "") -> None:
        """One frame: ``menu`` (a MenuView) while the operator menu is open, else the table in the
        given mode (``attract``: the idle seats show attract mode; ``banner``: the modes' words)."""

        r = self.renderer
        if menu is not None:
            from machine.display.menu import draw_menu

            draw_menu(self.windows[0].get_surface() if self.windows else self.screen, menu, r)
            self._flip()
            return
        view = dataclasses.replace(view, attract=attract, banner=banner)
        if self.screen is not None and view.game_title != self.captioned:  # a game changed in play
            self.caption(view.game_title)
        if self.windows:
            for n, win in enumerate(self.windows, start=1):
                r.draw_seat(win.get_surface(), view, n, now)
        else:
            r.draw_table(self._table_area(), view, now)
            if self.help_height:
                r.text(self.screen, help_text, 17, (255, 230, 150),
                       topleft=(10, self.screen.get_height() - self.help_height + 4))
        self._flip()

    def _table_area(self) -> Any:
        """The one window's part the seats are drawn in, the development help strip below it
        blacked out (``help_height``)."""
        import pygame

        w, h = self.screen.get_width(), self.screen.get_height()
        if self.help_height:
            self.screen.fill((0, 0, 0), pygame.Rect(0, h - self.help_height, w, self.help_height))
        return self.screen.subsurface((0, 0, w, h - self.help_height))

    def starting(self, title: str, done: int | None = None, total: int | None = None) -> None:
        """Every seat's screen says the cabinet is starting: ``title`` (the game's) and, once
        reported, ``done`` of ``total`` of Auto's tables, in the cabinet's player language.
        From the thread that opened the screens: drawn now, and the window's events pumped so
        the desktop sees it answer (a close or Esc stays queued for the loop's first frame);
        from another (the work of ``while_starting``): kept, for that thread to draw."""
        self._start_report = (title, done, total)
        if threading.current_thread() is self._thread:
            self._draw_starting()

    def while_starting(self, work: Callable[[], None], every: float = START_PUMP_SECONDS) -> None:
        """Run ``work`` (Auto's tables) in a thread of its own while this one keeps the window
        alive: the events pumped and the latest report (``starting``) drawn every ``every``
        seconds, however long the work goes between two reports; what it raises is raised here."""
        failed: list[BaseException] = []

        def run() -> None:
            try:
                work()
            except BaseException as exc:  # handed to the thread that waits
                failed.append(exc)

        worker = threading.Thread(target=run, name="auto-tables-start", daemon=True)
        worker.start()
        drawn: tuple[str, int | None, int | None] | None = None  # the first tick draws the latest report
        while drawn != self._start_report or worker.is_alive():  # the last report drawn too
            worker.join(every)
            drawn = self._start_report
            self._draw_starting(time.monotonic())  # every tick: the bar's light moves between reports
        if failed:
            raise failed[0]

    def _draw_starting(self, now: float | None = None) -> None:
        """The latest report on every seat's screen; ``now``: the bar's light where it is then."""
        title, done, total = self._start_report
        r = self.renderer
        if self.windows:
            for win in self.windows:
                r.draw_starting(win.get_surface(), title, self.language, done, total, now=now)
        else:
            r.draw_starting_table(self._table_area(), self.seats, title, self.language, done, total, now=now)
        self._flip()
        self._pump()

    @staticmethod
    def _pump() -> None:
        import pygame

        pygame.event.pump()

    def caption(self, title: str) -> None:
        """The one window's caption names the game ``title`` and, when it holds more than one
        seat's tile, says that it is a development layout: every seat sees the others' screens
        (machine/operator/sharedscreen.py; the windows layout: each window names its seat)."""
        import pygame

        if not self.windows:
            shared = SHARED_CAPTION.format(seats=self.seats) if self.seats > 1 else ""
            pygame.display.set_caption(f"{title} - cabinet{shared}")
            self.captioned = title

    def memory_error(self, detail: str, until: Callable[[], bool]) -> None:
        """Every seat's screen says the cabinet cannot trust its memory, until the window is
        closed (Esc, or the window's close) or ``until()``; nothing else runs meanwhile."""
        import pygame

        while not until():
            surfaces = [w.get_surface() for w in self.windows] if self.windows else [self.screen]
            for surf in surfaces:
                self.renderer.draw_memory_error(surf, detail)
            self._flip()
            for event in pygame.event.get():
                if event.type in (pygame.QUIT, pygame.WINDOWCLOSE) or (
                        event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                    return
            pygame.time.wait(100)

    def close(self) -> None:
        """The windows closed (a start that failed: its one line is all that stays)."""
        import pygame

        for win in self.windows:
            win.destroy()
        self.windows.clear()
        pygame.display.quit()

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
