"""The cabinet loop: the frame loop that joins the panel, the bus worker, the core and the screens.

Owns: ``CabinetApp`` — start-up from the configuration (simulators for links set to ``sim``,
the journal, the panel host, the ccTalk bus worker), the frame loop (panel events to the core,
the clock to the core, lamps to the panel, the view to the screens), pauses for the door, the
panel link and the operator key, the attendant key, and the keyboard and mouse of the
``tools/run`` window (which drive the *simulated* panel and acceptors, never the core
directly). The clock is passed in; nothing here decides a rule of the game or of the money.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.panel import ButtonPressed, Door, KeySwitch, LinkDown, LinkUp, PanelHost

from machine.core.cabinet import Cabinet, CabinetLocked, open_cabinet, random_shuffle, stacked_shuffle
from machine.games.blackjack import BlackjackGame
from machine.operator.config import MachineConfig
from machine.loop.devices import BusDevices, BusWorker
from machine.operator.identity import check_manifest, software_id
from machine.operator.menu import OperatorMenu
from machine.games.rules import load_profile

KEYS = {  # keyboard -> panel button of the selected seat
    "1": "+2", "2": "+10", "3": "x2", "4": "repeat", "5": "max", "space": "start",
    "d": "draw", "s": "stand", "b": "double", "p": "split", "i": "insurance", "a": "auto", "c": "collect",
}
COIN_KEYS = {"q": "EU050A", "w": "EU100A", "e": "EU200A"}
KEY_HINTS = {b: ("Space" if k == "space" else k.upper()) for k, b in KEYS.items()}


def default_auto():
    from machine.gamemath.auto import auto_action

    return auto_action


class Simulators:
    """The bus simulator process and the embedded panel simulator, for links set to ``sim``."""

    def __init__(self, cfg: MachineConfig):
        self.bus = None
        self.panel = None
        if cfg.devices.bus == "sim":
            from hardware.sim.launcher import SimProcess

            coins = "+".join(cfg.coins)
            args = []
            for _seat, addr in sorted(cfg.devices.acceptors.items()):
                args += ["--acceptor", f"{addr}:coins={coins}"]
            for h in cfg.devices.hoppers:
                args += ["--hopper", f"{h.address}:level=500,speed=8,security={h.security}"]
            if cfg.devices.bus_echo:
                args.append("--echo")
            if cfg.devices.bus_checksum == "crc16":
                args += ["--checksum", "crc16"]
            self.bus = SimProcess.start(args)
        if cfg.devices.panel == "sim":
            from hardware.sim.panel import PanelSimulator

            self.panel = PanelSimulator(seats=cfg.seats).start()

    def stop(self) -> None:
        if self.panel:
            self.panel.stop()
        if self.bus:
            self.bus.stop()


class CabinetApp:
    def __init__(
        self,
        cfg: MachineConfig,
        base: Path,
        *,
        headless: bool = False,
        clock: Callable[[], float] = time.monotonic,
        auto: Callable[[Any], str] | None = None,
        shoes: Callable[[int], list[str]] | None = None,
    ):
        self.cfg = cfg
        self.clock = clock
        self.headless = headless
        self.lock = threading.Lock()
        self.sims = Simulators(cfg)
        profile = load_profile(cfg.game)
        if auto is None:
            from machine.gamemath.auto import prepare

            prepare(profile.rules)  # Auto's tables, once (a few seconds), so no decision waits
        data = cfg.data_path(base)
        play_auto = auto or default_auto()
        self.cab: Cabinet = open_cabinet(
            data / "journal.sqlite",
            profile,
            cfg.cabinet_settings(),
            lambda p: BlackjackGame(p, play_auto),
            random_shuffle(secrets.SystemRandom()) if shoes is None else stacked_shuffle(shoes),
        )
        panel_url = self.sims.panel.link_url if self.sims.panel else cfg.devices.panel
        bus_url = self.sims.bus.link if self.sims.bus else cfg.devices.bus
        self.software_id = software_id()
        manifest = check_manifest()
        with self.lock:
            self.cab.operator_event("software identity", clock(), id=self.software_id, manifest="match" if not manifest else manifest[0])
        if manifest and cfg.require_manifest:
            self.sims.stop()
            raise CabinetLocked(f"software identity: the program files do not match the release manifest: {manifest[0]}")
        self.menu: OperatorMenu | None = None
        self.panel = PanelHost(panel_url, clock=clock)
        self.devices = BusDevices.open(cfg, bus_url, dict(self.cab.acceptor_counters))
        self.worker = BusWorker(self.cab, self.lock, self.devices, clock)
        self.attendant_key = False
        self.selected_seat = 1
        self.running = True
        self.screen = None
        self.renderer = None
        self.windows: list[Any] = []
        if not headless:
            self._open_screens()
        self.worker.start()

    # -- the screens --------------------------------------------------------------------------

    def _open_screens(self) -> None:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        from machine.display.draw import Renderer

        pygame.display.init()
        pygame.font.init()
        d = self.cfg.display
        self.renderer = Renderer(KEY_HINTS, self.cfg.language)
        if d.layout == "windows":
            w, h = d.width // 2, d.height // 2
            self.windows = [pygame.Window(f"Seat {n}", (w, h)) for n in range(1, self.cfg.seats + 1)]
        else:
            flags = pygame.FULLSCREEN if d.fullscreen else 0
            self.screen = pygame.display.set_mode((d.width, d.height), flags)
            pygame.display.set_caption(f"{self.cab.profile.title} - cabinet")

    def close(self) -> None:
        self.worker.stop()
        self.devices.close()
        self.panel.close()
        self.cab.journal.close()
        self.sims.stop()

    # -- one frame ----------------------------------------------------------------------------

    def banner(self) -> str:
        parts = []
        if "door" in self.cab.pauses:
            parts.append("Door open")
        if "panel" in self.cab.pauses:
            parts.append("Panel offline")
        if "operator" in self.cab.pauses:
            parts.append("Operator menu")
        parts += [f"{name}: no reply" for name in self.worker.faults]
        if self.attendant_key:
            parts.append("Attendant key: Collect clears, Auto hand-pays the rest, Max Bet records a refill")
        return " | ".join(parts)

    def frame(self) -> None:
        if self.worker.error is not None:
            raise RuntimeError(f"the ccTalk bus worker stopped: {self.worker.error}") from self.worker.error
        now = self.clock()
        self.panel.poll(now)
        for ev in self.panel.events():
            self._panel_event(ev, now)
        with self.lock:
            self.cab.tick(now)
            if self.menu is not None:
                lit = self.menu.lamps()
                lamps = {n: {b: ("on" if b in lit else "off") for b in ALL} for n in self.cab.seats}
            else:
                lamps = {n: {b: ("on" if b in live else "off") for b in ALL} for n, live in ((n, set(self.cab.live(n))) for n in self.cab.seats)}
        for n, states in lamps.items():
            self.panel.set_lamps(n, states)
        if not self.headless:
            self._draw(now)

    def _panel_event(self, ev: Any, now: float) -> None:
        with self.lock:
            cab = self.cab
            if isinstance(ev, ButtonPressed):
                if ev.seat not in cab.seats:
                    return
                if self.menu is not None:  # with the operator key on, every button is the menu's
                    self.menu.press(ev.seat, ev.button, now)
                    while self.menu.requests:
                        self.worker.requests.append(self.menu.requests.pop(0))
                elif self.attendant_key and ev.button == "collect":
                    cab.attendant_clear(ev.seat)
                elif self.attendant_key and ev.button == "auto":
                    cab.attendant_handpay_rest(ev.seat)
                elif self.attendant_key and ev.button == "max":
                    cab.attendant_refill(ev.seat, now)
                else:
                    cab.press(ev.seat, ev.button, now)
            elif isinstance(ev, KeySwitch):
                if ev.name == "attendant":
                    self.attendant_key = ev.on
                elif ev.name == "operator":
                    if ev.on and self.menu is None:
                        cab.pause("operator", now)
                        cab.operator_event("menu opened", now)
                        self.menu = OperatorMenu(cab, self.cfg.operator_pin_sha256, self.software_id)
                    elif not ev.on and self.menu is not None:
                        self.menu = None
                        cab.operator_event("menu closed", now)
                        cab.resume("operator", now)
            elif isinstance(ev, Door):
                (cab.pause if ev.open else cab.resume)("door", now)
            elif isinstance(ev, LinkDown):
                cab.pause("panel", now)
            elif isinstance(ev, LinkUp):
                cab.resume("panel", now)

    def _draw(self, now: float) -> None:
        import pygame

        from machine.display.view import build_view

        with self.lock:
            view = build_view(self.cab, now, self.banner())
            menu = self.menu.view() if self.menu is not None else None
        assert self.renderer is not None
        if menu is not None:
            from machine.display.menu import draw_menu

            target = self.windows[0].get_surface() if self.windows else self.screen
            draw_menu(target, menu, self.renderer)
            for win in self.windows:
                win.flip()
            if not self.windows:
                pygame.display.flip()
            return
        if self.windows:
            for n, win in enumerate(self.windows, start=1):
                surf = win.get_surface()
                self.renderer.draw_seat(surf, view, n, now)
                win.flip()
        else:
            assert self.screen is not None
            help_h = 26 if self.sims.panel else 0
            area = self.screen.subsurface((0, 0, self.screen.get_width(), self.screen.get_height() - help_h))
            self.renderer.draw_table(area, view, now)
            self._draw_help(self.screen, help_h)
            pygame.display.flip()

    def _draw_help(self, surf, height: int) -> None:
        if not height:
            return
        import pygame

        assert self.renderer is not None
        bar = pygame.Rect(0, surf.get_height() - height, surf.get_width(), height)
        surf.fill((0, 0, 0), bar)
        text = (f"Simulated panel - keys: F1-F{self.cfg.seats} choose seat (now seat {self.selected_seat}), "
                "buttons as marked (or click them), Q/W/E insert 0.50/1/2 EUR, "
                "O operator key, T attendant key, R door, Esc quit")
        self.renderer.text(surf, text, 17, (255, 230, 150), topleft=(10, bar.top + 4))

    # -- the keyboard and mouse drive the simulators -----------------------------------------------

    def handle_input(self) -> None:
        import pygame

        sim = self.sims.panel
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.WINDOWCLOSE):
                self.running = False
            elif event.type in (pygame.KEYDOWN, pygame.KEYUP):
                name = pygame.key.name(event.key)
                down = event.type == pygame.KEYDOWN
                if down and name == "escape":
                    self.running = False
                elif down and name.startswith("f") and name[1:].isdigit() and 1 <= int(name[1:]) <= self.cfg.seats:
                    self.selected_seat = int(name[1:])
                elif sim and name in KEYS:
                    (sim.press if down else sim.release)(self.selected_seat, KEYS[name])
                elif down and name in COIN_KEYS and self.sims.bus:
                    addr = self.cfg.devices.acceptors.get(self.selected_seat)
                    if addr is not None:
                        self.sims.bus.control.coin(addr, COIN_KEYS[name])
                elif down and sim and name == "o":
                    sim.set_key("operator", not bool(self.panel.keys.get("operator")))
                elif down and sim and name == "t":
                    sim.set_key("attendant", not self.attendant_key)
                elif down and sim and name == "r":
                    sim.set_door(not bool(self.panel.door_open))
            elif event.type == pygame.MOUSEBUTTONDOWN and sim and self.renderer:
                # in the windows layout each seat's buttons sit in its own window
                only = self.windows.index(event.window) + 1 if self.windows and getattr(event, "window", None) in self.windows else None
                for (seat, button), rect in self.renderer.button_rects.items():
                    if (only is None or seat == only) and rect.collidepoint(event.pos):
                        sim.tap(seat, button)
                        self.selected_seat = seat

    def run(self) -> None:
        import pygame

        clock = pygame.time.Clock()
        while self.running:
            self.handle_input()
            self.frame()
            clock.tick(self.cfg.display.fps)


ALL = ("+2", "+10", "x2", "repeat", "max", "start", "draw", "stand", "double", "split", "insurance", "auto", "collect")
