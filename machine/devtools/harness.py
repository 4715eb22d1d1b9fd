"""The development harness: the simulators started for links set to ``sim``, and the keyboard
and mouse of the ``tools/run`` window.

Owns: ``Simulators`` (the ccTalk bus simulator process and the embedded panel simulator, each on
a real pty, built from the machine configuration, their devices' memory in the state folder
beside the data folder, ``state_folder``); ``SimulatedCabinet``, the cabinet's frame
loop run on those links, with the window's keys (a seat's buttons, coins, the key switches, the
door) and clicks on the drawn buttons driving the *simulated* panel and acceptors — never the
core directly; a click on a card is the product's touchscreen input (``CabinetApp.on_input``) — and
the help strip that lists them; ``CoinFeeder``, which puts the coins typed on the keyboard into
each simulated acceptor no faster than a real one takes them (a burst of key presses is queued,
never more than an acceptor's event buffer between two polls). The product never imports this module; ``cabinet run`` does,
lazily, when the configuration names a simulated device, and so do the soak robots and tests.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.links import is_simulated

from machine.loop.app import CabinetApp
from machine.operator.config import MachineConfig
from machine.operator.panelpair import simulated_panel_key

KEYS = {  # keyboard -> panel button of the selected seat
    "1": "+2", "2": "+10", "3": "x2", "4": "repeat", "5": "max", "space": "start",
    "d": "draw", "s": "stand", "b": "double", "p": "split", "i": "insurance", "a": "auto", "c": "collect",
}
COIN_KEYS = {"q": "EU050A", "w": "EU100A", "e": "EU200A"}
NOTE_KEYS = {"g": "EU0005A", "h": "EU0010A", "j": "EU0020A", "k": "EU0050A"}  # into the seat's bill validator
KEY_HINTS = {b: ("Space" if k == "space" else k.upper()) for k, b in KEYS.items()}
HELP_HEIGHT = 26
# Seconds between two coins into one simulated acceptor: a real acceptor's pace (about three a
# second). The bus worker polls each acceptor every 0.16 s (0.18 s at most, measured with four
# acceptors and a hopper), so at most one event waits in the acceptor's five-event buffer.
COIN_PACE = 0.3
# Seconds between two notes into one validator: a note waits in escrow for the cabinet's decision
# (one poll to see it, one more to see it stacked), and a validator holds one note at a time.
NOTE_PACE = 0.8


class CoinFeeder:
    """Coins typed on the keyboard, queued per acceptor address and fed to the simulator one
    every ``pace`` seconds: ten quick presses are ten coins credited, none lost to an acceptor
    buffer that a burst would overrun (the seat would tilt and a coin be gone)."""

    def __init__(self, insert: Callable[[int, str], object], pace: float = COIN_PACE):
        self.insert = insert
        self.pace = pace
        self.queues: dict[int, deque[str]] = {}
        self.next_at: dict[int, float] = {}

    def add(self, address: int, coin_id: str, now: float) -> None:
        self.queues.setdefault(address, deque()).append(coin_id)
        self.feed(now)

    def feed(self, now: float) -> None:
        """Put the next queued coin into every acceptor whose last coin is ``pace`` seconds old."""
        for address, queue in self.queues.items():
            if queue and now >= self.next_at.get(address, -math.inf):
                self.insert(address, queue.popleft())
                self.next_at[address] = now + self.pace

    @property
    def waiting(self) -> int:
        return sum(len(q) for q in self.queues.values())


def state_folder(cfg: MachineConfig, base: Path) -> Path:
    """Where the simulated devices keep what real ones keep across a restart (the hopper's coins
    and lifetime count, the acceptors' event counters, the panel's non-volatile memory): beside
    the data folder, ``<data_dir>-sim``. Not inside it: a copy of the data folder put back must
    not carry the devices' counters, nor the panel's copy of the journal's head, along with it."""
    data = cfg.data_path(base)
    return data.with_name(data.name + "-sim")


class Simulators:
    """The bus simulator process and the embedded panel simulator, for links set to ``sim``,
    keeping their devices' memory in ``state`` (``state_folder``)."""

    def __init__(self, cfg: MachineConfig, state: Path | None = None, link_key: bytes | None = None):
        """``link_key``: the simulated panel comes paired with it (``simulated_panel_key``)."""
        self.bus: Any = None
        self.panel: Any = None
        self.printer: Any = None
        self.state = state
        try:
            if state is not None:
                try:
                    state.mkdir(parents=True, exist_ok=True)
                except OSError:
                    if state.parent.is_dir():
                        raise
                    state = self.state = None  # no folder for the data folder either: the start says so for it
            if is_simulated(cfg.devices.bus):
                from hardware.sim.launcher import SimProcess

                keep = [] if state is None else ["--state", str(state)]
                self.bus = SimProcess.start([*self.bus_args(cfg), *keep])
            if is_simulated(cfg.devices.panel):
                from hardware.sim.panel import PanelSimulator
                from hardware.sim.state import PANEL_FILE

                nv_file = None if state is None else str(state / PANEL_FILE)
                self.panel = PanelSimulator(seats=cfg.seats, nv_file=nv_file, link_key=link_key).start()
            if cfg.devices.printer is not None and is_simulated(cfg.devices.printer):
                from hardware.sim.printer import PrinterSimulator

                tickets = None if state is None else state / "vouchers"  # each voucher printed, as a PNG
                self.printer = PrinterSimulator(tickets).start()
        except BaseException:
            self.stop()
            raise

    @staticmethod
    def bus_args(cfg: MachineConfig) -> list[str]:
        """The bus simulator's command line for the configured acceptors and hoppers."""
        coins = "+".join(cfg.coins)
        args: list[str] = []
        for _seat, addr in sorted(cfg.devices.acceptors.items()):
            args += ["--acceptor", f"{addr}:coins={coins}"]
        for h in cfg.devices.hoppers:
            args += ["--hopper", f"{h.address}:level=500,speed=8,security={h.security}"]
        for _seat, addr in sorted(cfg.devices.validators.items()):
            args += ["--validator", f"{addr}:bills={'+'.join(cfg.note_values())}"]
        if cfg.devices.bus_echo:
            args.append("--echo")
        if cfg.devices.bus_checksum == "crc16":
            args += ["--checksum", "crc16"]
        return args

    @property
    def panel_url(self) -> str | None:
        return self.panel.link_url if self.panel else None

    @property
    def bus_url(self) -> str | None:
        return self.bus.link if self.bus else None

    @property
    def printer_url(self) -> str | None:
        return self.printer.link_url if self.printer else None

    def stop(self) -> None:
        if self.printer:
            self.printer.stop()
        if self.panel:
            self.panel.stop()
        if self.bus:
            self.bus.stop()


class SimulatedCabinet(CabinetApp):
    """The cabinet on its simulators, with the ``tools/run`` window's keyboard and mouse."""

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
        first_start: bool = False,
    ):
        key = simulated_panel_key(cfg, base) if is_simulated(cfg.devices.panel) else None
        self.sims = Simulators(cfg, state_folder(cfg, base), key)
        self.selected_seat = 1
        self.coins = CoinFeeder(lambda address, coin_id: self.sims.bus.control.coin(address, coin_id))
        self.notes = CoinFeeder(lambda address, bill_id: self.sims.bus.control.note(address, bill_id), NOTE_PACE)
        try:
            super().__init__(
                cfg, base, headless=headless, clock=clock, wall=wall, auto=auto, shoes=shoes,
                panel_url=self.sims.panel_url, bus_url=self.sims.bus_url, printer_url=self.sims.printer_url,
                key_hints=KEY_HINTS, help_height=HELP_HEIGHT if self.sims.panel else 0, first_start=first_start,
            )
        except BaseException:
            self.sims.stop()
            raise

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.sims.stop()

    def frame(self) -> None:
        self.coins.feed(self.clock())
        self.notes.feed(self.clock())
        super().frame()

    def help_text(self) -> str:
        return (f"Simulated panel - keys: F1-F{self.cfg.seats} choose seat (now seat {self.selected_seat}), "
                "buttons as marked (or click them), click a card to touch it, Q/W/E insert 0.50/1/2 EUR, "
                "G/H/J/K notes of 5/10/20/50 EUR, "
                "O operator key, T attendant key, R door, Esc quit")

    def on_input(self, event: Any) -> None:
        """The keyboard and mouse drive the simulators, as a person at the cabinet would."""
        import pygame

        sim = self.sims.panel
        if event.type in (pygame.KEYDOWN, pygame.KEYUP):
            name = pygame.key.name(event.key)
            down = event.type == pygame.KEYDOWN
            if down and name.startswith("f") and name[1:].isdigit() and 1 <= int(name[1:]) <= self.cfg.seats:
                self.selected_seat = int(name[1:])
            elif sim and name in KEYS:
                (sim.press if down else sim.release)(self.selected_seat, KEYS[name])
            elif down and name in COIN_KEYS and self.sims.bus:
                addr = self.cfg.devices.acceptors.get(self.selected_seat)
                if addr is not None:
                    self.coins.add(addr, COIN_KEYS[name], self.clock())
            elif down and name in NOTE_KEYS and self.sims.bus:
                addr = self.cfg.devices.validators.get(self.selected_seat)
                if addr is not None:
                    self.notes.add(addr, NOTE_KEYS[name], self.clock())
            elif down and sim and name == "o":
                sim.set_key("operator", not bool(self.panel.keys.get("operator")))
            elif down and sim and name == "t":
                sim.set_key("attendant", not bool(self.panel.keys.get("attendant")))
            elif down and sim and name == "r":
                sim.set_door(not bool(self.panel.door_open))
        elif event.type == pygame.MOUSEBUTTONDOWN and sim and self.screens is not None and self._tap_button(event):
            pass  # a drawn button: the simulated panel's button
        else:  # a click on a card: the touchscreen, as on the product
            super().on_input(event)

    def _tap_button(self, event: Any) -> bool:
        """A click on a drawn panel button taps it on the simulated panel; False when none was hit."""
        assert self.screens is not None and self.sims.panel is not None
        # in the windows layout each seat's buttons sit in its own window
        only = self.screens.window_seat(getattr(event, "window", None))
        for (seat, button), rect in self.screens.renderer.button_rects.items():
            if (only is None or seat == only) and rect.collidepoint(event.pos):
                self.sims.panel.tap(seat, button)
                self.selected_seat = seat
                return True
        return False

