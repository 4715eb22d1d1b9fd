"""The SAS bridge: every configured seat an EGM on its host, stepped by the app loop.

Owns: ``SasBridge`` — built from the configuration's ``sas.links`` and the cabinet, a
``SasMachine`` per link whose ``SeatSource`` reads that seat's meters, a ``PortThread`` per port;
and ``step(now)``, which the loop calls each frame holding the cabinet's lock, between inputs:
it refreshes the seats' snapshots when the journal moved, raises the exceptions of the new
journal records (``exceptions.py``), and applies what the host asked as inputs of the core
(01 / 02 ``host_control``, 94 the attendant's handpay reset, 7F a journaled clock setting).
At start it raises 18 (power lost: the cabinet was down) before 17 (power applied), and 7A
when a RAM clear came since the last start. Never blocks a frame on a port (the port threads
do the I/O), never counts money of its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from hardware.sas.machine import HandpayReset, SetClock, Shutdown, Startup

from machine.sas import exceptions as ex
from machine.sas.link import PortThread, PostedMachine
from machine.sas.rom import RomSignature
from machine.sas.source import HostClock, SeatSource, seat_meters


class SasBridge:
    """The cabinet's SAS links (see the module's docstring)."""

    def __init__(self, cab: Any, links: list[Any], games: list[str], *, wall: Callable[[], float] = time.time,
                 clock: Callable[[], float] = time.monotonic, serial: str = "", denomination_cents: int = 10,
                 rom: RomSignature | None = None) -> None:
        self.cab = cab
        self.names = {i + 1: g for i, g in enumerate(games)}  # game number -> game
        self.host_clock = HostClock(wall)
        self.rom = rom or RomSignature()
        self.sources: dict[int, SeatSource] = {}  # seat -> its source
        self.where: dict[int, tuple[PortThread, int]] = {}  # seat -> its port and address
        self.ports: dict[str, PortThread] = {}
        by_port: dict[str, dict[int, PostedMachine]] = {}
        seat_of: dict[tuple[str, int], int] = {}
        for link in links:
            source = SeatSource(link.seat, tuple(self.names), f"{serial}-{link.seat}" if serial else str(link.seat),
                                self.rom, self.host_clock, denomination_cents)
            self.sources[link.seat] = source
            by_port.setdefault(link.port, {})[link.address] = PostedMachine(link.address, source, now=clock())
            seat_of[(link.port, link.address)] = link.seat
        for url, machines in by_port.items():
            self.ports[url] = PortThread(url, machines, clock=clock)
            for address in machines:
                self.where[seat_of[(url, address)]] = (self.ports[url], address)
        self.seat_of = seat_of
        played = {n: cab.seats[n].meters.get("games_played") for n in self.sources}
        self.power_up_games = dict(played)
        self.door_games = dict(played)
        self.seen = cab.journal.last_seq
        self._refresh()

    @classmethod
    def from_config(cls, cfg: Any, cab: Any, wall: Callable[[], float], clock: Callable[[], float]) -> SasBridge | None:
        """The bridge of ``cfg.sas`` (None when no link is configured); the ports not yet open."""
        if not cfg.sas.links:
            return None
        return cls(cab, list(cfg.sas.links), list(cfg.games_enabled), wall=wall, clock=clock,
                   serial=cab.journal.journal_id[:8], denomination_cents=cfg.denomination_cents)

    def start(self) -> None:
        """The start-up exceptions queued, then the ports opened and served."""
        j = self.cab.journal
        ups = j.records("power_up", last=2)
        if len(ups) > 1:
            self._everywhere(ex.POWER_LOST)  # it was down since the last start: the loss, told now
        if j.last_of("ram_clear") > (ups[0].seq if len(ups) > 1 else 0):
            self._everywhere(ex.RAM_CLEARED)
        self._everywhere(ex.POWER_APPLIED)
        for port in self.ports.values():
            port.start()

    def close(self) -> None:
        for port in self.ports.values():
            port.stop()
        self.rom.close()

    # -- each frame, holding the cabinet's lock ----------------------------------------------------

    def step(self, now: float) -> None:
        for port in self.ports.values():
            while not port.asked.empty():
                address, event = port.asked.get()
                self._asked(self.seat_of[(port.url, address)], event, now)
        last = self.cab.journal.last_seq
        if last != self.seen:
            for record in self.cab.journal.records(since=self.seen):
                self._record(record.kind, record.seat, record.data)
            self.seen = last
            self._refresh()

    def _asked(self, seat: int, event: Any, now: float) -> None:
        cab = self.cab
        if isinstance(event, (Shutdown, Startup)):
            cab.host_control(seat, isinstance(event, Startup), now)
        elif isinstance(event, HandpayReset):
            if cab.seats[seat].lock == "handpay" and not cab.is_paying(seat):
                cab.attendant_clear(seat)
        elif isinstance(event, SetClock):
            self.host_clock.set(event.when)
            cab.operator_event("clock set by the host", now, seat=seat, clock=event.when.isoformat())

    def _record(self, kind: str, seat: int | None, data: Any) -> None:
        if kind == "event" and data.get("event") == "door_closed":
            self.door_games = {n: self.cab.seats[n].meters.get("games_played") for n in self.sources}
        if kind == "event" and data.get("event") == "ram_clear":  # the meters start again from zero
            self.power_up_games = dict.fromkeys(self.sources, 0)
            self.door_games = dict.fromkeys(self.sources, 0)
        for n, code in ex.exceptions_of(kind, seat, data):
            if n is None:
                self._everywhere(code)
            elif n in self.where:
                port, address = self.where[n]
                port.post(address, code)

    def _everywhere(self, code: int) -> None:
        for port, address in self.where.values():
            port.post(address, code)

    def _refresh(self) -> None:
        cab = self.cab
        for n, source in self.sources.items():
            source.snapshot = seat_meters(cab.seats[n], self.names, cab.profile.game, self.power_up_games[n],
                                          self.door_games[n])
