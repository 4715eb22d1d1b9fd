"""The SAS bridge: every configured seat an EGM on its host, stepped by the app loop.

Owns: ``SasBridge`` — built from the configuration's ``sas.links`` and the cabinet: the ports
served by a child process (``server.py``: a ``SasMachine`` per link whose source is that seat's
snapshot, a port thread per port), and ``step(now)``, which the loop calls each frame holding
the cabinet's lock, between inputs: it applies what the host asked as inputs of the core (01 / 02
``host_control``, 94 the attendant's handpay reset, 7F a journaled clock setting), and when the
journal moved it sends the seats' new snapshots (``source.seat_meters``: the journal's meters,
never a count of ours) and the exceptions of the new records (``exceptions.py``); a record the
host took with 4D 00 it journals (``host_validation_read``, machine/sas/tickets.py). At start it
queues 18 (power lost: the cabinet was down) before 17 (power applied), and 7A when a RAM clear
came since the last start, and gives the child the clock offset of the last journaled 7F
(``host_clock_offset``). Never blocks a frame on a port, never counts money of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from machine.core.operator_inputs import CLOCK_SET, HOST_CLOCK
from machine.sas import exceptions as ex
from machine.sas.aft import CabinetAft
from machine.sas.server import ServerProcess, snapshot_data
from machine.sas.source import seat_meters
from machine.sas.tickets import VoucherBook

LOOK_BACK = 64  # operator records read at a time, newest first, for the last clock setting


def host_clock_offset(journal: Any) -> float:
    """The offset to the wall clock that the host's last 7F put in force (0.0: none journaled): the
    date and time it set less the journal's time of the record, which was written one frame after
    the child took the 7F (the offset comes back that much short: a few hundredths of a second)."""
    row = journal.get(HOST_CLOCK)
    if row is not None:  # kept since the host's 7F became a state row (checked on this read)
        return datetime.fromisoformat(str(row["clock"])).timestamp() - float(row["at"])
    before = None  # a journal from before: its last record of the setting, while it is there
    while True:
        records = journal.records("operator", last=LOOK_BACK, before=before)
        for record in reversed(records):
            if record.data.get("what") != CLOCK_SET:
                continue
            try:
                when = datetime.fromisoformat(str(record.data.get("clock")))
            except ValueError:
                return 0.0
            return 0.0 if record.at is None else when.timestamp() - record.at
        if len(records) < LOOK_BACK:
            return 0.0
        before = records[0].seq


def link_spec(link: Any, serial: str) -> dict[str, Any]:
    """One configured link as the child's spec names it (its serial: ``<serial>-<seat>``)."""
    return {"port": link.port, "address": link.address, "seat": link.seat, "implied_nack": link.implied_nack,
            "serial": f"{serial}-{link.seat}" if serial else str(link.seat)}


def base_percents(profiles: Mapping[str, Any], names: Mapping[int, str]) -> dict[int, int]:
    """Each game number's return with Auto's play at a flat bet, in hundredths of a percent (1F,
    53): exact where the game math has it (computed once, then its cache), the cached simulated
    figure otherwise; a game with neither is left out (0000 on the wire), never simulated here."""
    from machine.gamemath import engines

    out = {}
    for number, name in names.items():
        profile = profiles.get(name)
        if profile is None:
            continue
        got = engines.returns(profile) if engines.has_exact_rtp(profile.engine) else engines.cached_returns(profile)
        if got is not None:
            out[number] = min(9999, round(got[0] * 10000))
    return out


class SasBridge:
    """The cabinet's SAS links (see the module's docstring)."""

    def __init__(self, cab: Any, links: list[Any], games: list[str], *, serial: str = "",
                 denomination_cents: int = 10, aft: CabinetAft | None = None) -> None:
        self.cab = cab
        self.links = links
        self.names = {i + 1: g for i, g in enumerate(games)}  # game number -> game
        self.serial = serial
        self.cents = denomination_cents
        self.seats = [link.seat for link in links]
        played = {n: cab.seats[n].meters.get("games_played") for n in self.seats}
        self.power_up_games = dict(played)
        self.door_games = dict(played)
        self.seen = cab.journal.last_seq
        self.server: ServerProcess | None = None
        self._down_said = False
        self.aft = aft or CabinetAft(cab, {}, on=False)  # cashless transfers (machine/sas/aft.py); off
        self.tickets = VoucherBook(cab, self.seats)  # the vouchers the host validates (machine/sas/tickets.py)

    @classmethod
    def from_config(cls, cfg: Any, cab: Any) -> SasBridge | None:
        """The bridge of ``cfg.sas`` (None when no link is configured); not yet started."""
        if not cfg.sas.links:
            return None
        aft = CabinetAft(cab, dict(cfg.aft.assets))  # on and its limits: the cabinet's settings in force
        return cls(cab, list(cfg.sas.links), list(cfg.games_enabled), serial=cab.journal.journal_id[:8],
                   denomination_cents=cfg.denomination_cents, aft=aft)

    def start(self, now: float = 0.0) -> None:
        """The child started with the links, the snapshots and the start-up exceptions (a transfer
        a power cut left pending finished first)."""
        self.aft.resume(now)
        self.seen = self.cab.journal.last_seq
        j = self.cab.journal
        ups = j.records("power_up", last=2)
        codes = [ex.POWER_LOST] if len(ups) > 1 else []  # it was down since the last start: the loss, told now
        if j.last_of("ram_clear") > (ups[0].seq if len(ups) > 1 else 0):
            codes.append(ex.RAM_CLEARED)
        codes.append(ex.POWER_APPLIED)
        self.server = ServerProcess({
            "links": [link_spec(x, self.serial) for x in self.links],
            "games": list(self.names), "cents": self.cents, "exceptions": codes,
            "max_bets": {str(k): self.cab.core.profiles[g].rules.max_bet for k, g in self.names.items()
                         if g in self.cab.core.profiles},
            "base_percents": {str(k): v for k, v in base_percents(self.cab.core.profiles, self.names).items()},
            "snapshots": {str(n): snapshot_data(s) for n, s in self._snapshots().items()},
            "aft": {str(n): self.aft.spec(n) for n in self.seats},
            "clock_offset": host_clock_offset(j),
        })

    def close(self) -> None:
        if self.server is not None:
            self.server.close()

    def sync(self) -> None:
        """Wait until the ports serve everything sent so far (tests); what the host asked meanwhile
        is applied at the next ``step``."""
        if self.server is not None:
            self._pending = self.server.sync()

    # -- each frame, holding the cabinet's lock ----------------------------------------------------

    _pending: list[dict[str, Any]] = []

    def step(self, now: float) -> None:
        server = self.server
        if server is None:
            return
        if not server.alive and not self._down_said:
            print("sas: the process serving the SAS ports stopped; the cabinet plays on without its host",
                  file=sys.stderr)
            self._down_said = True
            self.aft.release()  # no host left to end a lock: the seats play on
        server.flush()
        asked, self._pending = [*self._pending, *server.received()], []
        for message in asked:
            self._asked(message["asked"], message["event"], message, now)
        last = self.cab.journal.last_seq
        if last != self.seen:
            records = self.cab.journal.records(since=self.seen)
            for record in records:
                self.tickets.record(record.kind, record.seat, record.data, record.at)
                self._counts(record.kind, record.data)
            self.seen = last
            for n, snap in self._snapshots().items():  # first: an exception's poll reads what it tells of
                server.send({"snap": n, "s": snapshot_data(snap)})
            for record in records:
                self._record(record.kind, record.seat, record.data)

    def _asked(self, seat: int, event: str, message: dict[str, Any], now: float) -> None:
        cab = self.cab
        if event in ("shutdown", "startup"):
            cab.host_control(seat, event == "startup", now)
        elif event == "handpay_reset":
            if cab.seats[seat].lock == "handpay" and not cab.is_paying(seat):
                cab.attendant_clear(seat)
        elif event == "set_clock":
            when = datetime.fromisoformat(message["when"])
            cab.host_clock_set(seat, when.isoformat(), now)
        elif event == "validation_read":  # 4D 00: the host took a record; journaled so a restart knows
            entry = self.tickets.taken(seat, int(message["ordinal"]))
            if entry is not None and entry["number"] == str(message["number"]):
                cab.host_validation_read(seat, entry["ordinal"], entry["number"], now)
        elif (reply := self.aft.asked(seat, event, message, now)) is not None:
            assert self.server is not None
            self.server.send(reply)  # only now that the journal holds the transfer

    def _counts(self, kind: str, data: Any) -> None:
        """The games since the door and since power-up start again (before the snapshots)."""
        if kind == "event" and data.get("event") == "door_closed":
            self.door_games = {n: self.cab.seats[n].meters.get("games_played") for n in self.seats}
        if kind == "event" and data.get("event") == "ram_clear":  # the meters start again from zero
            self.power_up_games = dict.fromkeys(self.seats, 0)
            self.door_games = dict.fromkeys(self.seats, 0)

    def _record(self, kind: str, seat: int | None, data: Any) -> None:
        coin_in = lambda n: self.cab.seats[n].meters.get("total_bet")  # noqa: E731 - the seat's, as 11 reads it
        for n, code, extra in ex.exceptions_of(kind, seat, data, coin_in):
            for target in (self.seats if n is None else [n] if n in self.seats else []):
                assert self.server is not None
                self.server.send({"exc": target, "code": code, "data": extra.hex()})

    def _snapshots(self) -> dict[int, Any]:
        cab = self.cab
        return {n: replace(seat_meters(cab.seats[n], self.names, cab.profile.game, self.power_up_games[n],
                                       self.door_games[n], printing=int((cab.voucher_of(n) or {}).get("amount", 0))),
                           aft=self.aft.availability(n), **self.tickets.of(n))
                for n in self.seats}
