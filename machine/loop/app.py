"""The cabinet's frame loop: panel events in, the clock to the core, lamps and frames out.

Owns: ``CabinetApp`` — each frame polls the panel host, hands its events to the router
(``machine/loop/router.py``: the modes and where each press goes), moves the core's clock on,
lights the lamps the router asks for, and gives the screens the view and the mode to draw; a
touch (or click) on a drawn card, found by the screens, to the router (the screen is a
touchscreen); and
``run``, the loop at the configured frame rate until the window is closed. The wiring (core,
journal, devices) is built by ``machine/loop/wiring.py`` on the links it is given. The clocks
(the loop's monotonic one and the wall clock) are passed in; nothing here decides a rule of the
game or of the money, and nothing here knows the simulators (the development harness,
``machine/devtools/harness.py``, starts them and extends this class with the keyboard and mouse
of the ``tools/run`` window).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.buttons import Button

from machine.core.cabinet import Cabinet, MemoryLocked
from machine.display.gamewords import say
from machine.display.screens import Screens, banner_text
from machine.display.sound import TableSound
from machine.loop.router import Router
from machine.loop.wiring import Wiring
from machine.operator.config import MachineConfig
from machine.operator.menu import OperatorMenu
from machine.operator.panelpair import RefusedFrames
from machine.profiles import load_profile
from machine.sas.bridge import SasBridge


def memory_error_seen() -> bool:
    """Whether the memory error's screen may close by itself (never on a cabinet: the operator
    closes the window or powers the cabinet down; tests set it)."""
    return False


class CabinetApp:
    def __init__(
        self,
        cfg: MachineConfig,
        base: Path,
        *,
        headless: bool = False,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
        auto: Callable[[Any], str] | None = None,
        shoes: Callable[[int], list[str]] | None = None,
        panel_url: str | None = None,
        bus_url: str | None = None,
        printer_url: str | None = None,
        key_hints: dict[str, str] | None = None,
        help_height: int = 0,
        first_start: bool = False,
    ):
        self.cfg = cfg
        self.clock = clock
        self.wall = wall  # the wall clock: the times people set and read (tournaments)
        self.headless = headless
        self.screens: Screens | None = None
        if not headless:  # first, so the start is seen (Auto's tables: seconds on a cold start)
            title = load_profile(cfg.game).title
            self.screens = Screens(cfg, title, key_hints, help_height)  # no display: the one-line error, nothing opened
            self.screens.starting(title)
        try:
            self.wiring = Wiring.build(
                cfg, base, panel_url or cfg.devices.panel, bus_url or cfg.devices.bus, clock, auto, shoes,
                watch=self.screens, first_start=first_start, printer_url=printer_url,
            )
        except BaseException as exc:
            if self.screens is not None:
                if isinstance(exc, MemoryLocked):  # the screens say so before it ends
                    self.screens.memory_error(str(exc), memory_error_seen)
                self.screens.close()  # no window left behind the one-line error
            raise
        w = self.wiring
        self.cab: Cabinet = w.cab
        self.lock = w.lock
        self.software_id = w.software_id
        self.panel = w.panel
        self.devices = w.devices
        self.worker = w.worker
        self.router = Router(self.cab, self._open_menu, self.worker.requests, language=cfg.language)
        self.running = True
        self.refused = RefusedFrames()  # panel frames that failed authentication, to the event log
        self.sound: TableSound | None = None
        if self.screens is not None:
            self.screens.caption(self.cab.profile.title)  # the journal's game in force
            self.sound = TableSound()  # no audio device: silent, one log line
        self.worker.start()
        with self.lock:  # every configured seat an EGM on the casino's SAS host (machine/sas/)
            self.sas = SasBridge.from_config(cfg, self.cab)
        if self.sas is not None:
            self.sas.start()
        self.printer = w.printer
        if self.printer is not None:
            self.printer.start()

    @property
    def menu(self) -> OperatorMenu | None:
        """The operator menu while the operator key is on."""
        return self.router.menu

    def _open_menu(self) -> OperatorMenu:
        return OperatorMenu(self.cab, self.cfg.operator_pin, self.software_id,
                            language=self.cfg.operator_language or self.cfg.language, say=say)

    def close(self) -> None:
        if self.sas is not None:
            self.sas.close()
        self.wiring.close()

    # -- one frame ----------------------------------------------------------------------------

    def banner(self) -> str:
        return banner_text(self.router.state.shown(), list(self.worker.faults))

    def frame(self) -> None:
        if self.worker.error is not None:
            raise RuntimeError(f"the ccTalk bus worker stopped: {self.worker.error}") from self.worker.error
        if self.printer is not None and self.printer.error is not None:
            raise RuntimeError(f"the ticket printer's worker stopped: {self.printer.error}") from self.printer.error
        now = self.clock()
        self.panel.poll(now)
        for ev in self.panel.events():
            with self.lock:
                self.router.panel_event(ev, now)
        with self.lock:
            self.refused.check(self.panel, self.cab, now)
            wall = self.wall()
            self.cab.tick(now, wall)  # the wall clock: tournament times survive a power cut
            if self.sas is not None:  # what the host asked, the new records' exceptions, the meters it reads
                self.sas.step(now)
            if self.wiring.keeper is not None:  # the journal archives itself at idle moments, a chunk a frame
                self.wiring.keeper.step(now, wall)
                if (why := self.wiring.keeper.unreported_failure()) is not None:  # once, in the event log
                    self.cab.operator_event("journal archive failed", now, reason=why)
            self.router.observe(now)
            lit = self.router.lamps()
            if self.sound is not None:  # what the journal just recorded, heard (never waits)
                self.sound.follow(self.cab.journal, self.cab.settings.sound_volume, self.cab.settings.sound_muted)
        for n, on in lit.items():
            self.panel.set_lamps(n, {b.value: ("on" if b in on else "off") for b in Button})
        if self.screens is not None:
            self._draw(now)

    def _draw(self, now: float) -> None:
        from machine.display.view import build_view

        assert self.screens is not None
        with self.lock:
            view = build_view(self.cab, now, languages=self.router.languages(),  # each seat's chosen language
                              language_choice=frozenset(n for n in self.cab.seats if self.router.may_choose_language(n)))
            menu = self.menu.view() if self.menu is not None else None
            attract, banner = self.router.state.attract, self.banner()
        self.screens.draw(view, now, attract=attract, banner=banner, menu=menu, help_text=self.help_text())

    def help_text(self) -> str:
        """The words of the help strip (the development harness has some)."""
        return ""

    # -- the window ---------------------------------------------------------------------------

    def handle_input(self) -> None:
        """The window's events: closing it (or Esc) stops the loop; the rest go to ``on_input``."""
        import pygame

        for event in pygame.event.get():
            escape = event.type == pygame.KEYDOWN and pygame.key.name(event.key) == "escape"
            if event.type in (pygame.QUIT, pygame.WINDOWCLOSE) or escape:
                self.running = False
            else:
                self.on_input(event)

    def on_input(self, event: Any) -> None:
        """A window event other than closing: a touch (or a click) on a card goes to the router;
        the product has no use for the keyboard."""
        import pygame

        if event.type == pygame.FINGERDOWN or (
            event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and not getattr(event, "touch", False)
        ):  # a finger also makes a mouse event marked ``touch``: one touch, one action
            self.touch(event)

    def touch(self, event: Any) -> bool:
        """The card under a touch or click, to its seat's cabinet input; False when none."""
        if self.screens is None:
            return False
        hit = self.screens.card_at(*self.screens.touch_point(event))
        if hit is None:
            return False
        now = self.clock()
        with self.lock:
            return self.router.touch(hit[0], hit[1], now)

    def run(self) -> None:
        import pygame

        clock = pygame.time.Clock()
        while self.running:
            self.handle_input()
            self.frame()
            clock.tick(self.cfg.display.fps)
