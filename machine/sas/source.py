"""What a seat shows its SAS host: the journal's meters of that seat, read from a snapshot.

Owns: the meaning of each SAS meter for a seat (``seat_meters``: current credits = credit plus
club; coin in = total bet; coin out = total won; cancelled credits = everything paid out, hopper
and handpay; jackpot = the handpays; drop = the points taken in as coins; games played, won,
lost; per game number the game's own played, bet and won meters), the game numbers (each
enabled game, in ``games_enabled``'s order, from 1), and ``SeatSource``, the ``MeterSource`` a
``SasMachine`` reads. The loop thread builds a ``SeatSnapshot`` from the core's state between
inputs (every figure the journal's own, never a count of ours) and swaps it in whole; the port
thread only reads the snapshot in force. Never changes the cabinet, never reads a port.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from hardware.cctalk.bills import bill_face_units
from hardware.sas.source import BaseMeterSource, GameInfo, Handpay

from machine.sas.rom import RomSignature
from machine.sas.tickets import SeatTickets

# SAS meter name -> the seat's meter in the journal (machine/money/meters.py)
SEAT_METERS: dict[str, str] = {
    "coin_in": "total_bet", "coin_out": "total_won", "cancelled": "total_out", "jackpot": "handpay_out",
    "drop": "total_in", "true_coin_in": "total_in", "true_coin_out": "hopper_out",
    "games_played": "games_played", "games_won": "games_won", "games_lost": "games_lost",
    "aft_in": "aft_in", "aft_in_count": "aft_in_count", "aft_out": "aft_out", "aft_out_count": "aft_out_count",
    "bills_credits": "note_in_value", "vouchers_out": "voucher_out", "vouchers_out_count": "vouchers_out",
}
# what the journal's total in and out hold besides coins and hopper or hand payouts: AFT, which SAS
# meters on its own (17/18, A0/A1, B8/B9), never as drop, true coin in or cancelled credits
NOT_CASH = {"drop": "aft_in", "true_coin_in": "aft_in", "cancelled": "aft_out"}
NOTES_COUNT = "note_in_count:"  # the seat's notes stacked of one bill id (``note_in_count:EU0020A``)
# SAS meter name -> the per-game meter (``<name>:<game>``) of a game number
GAME_METERS: dict[str, str] = {"coin_in": "total_bet", "coin_out": "total_won", "games_played": "games_played"}


@dataclass(frozen=True)
class SeatSnapshot:
    """A seat's figures between two inputs: machine meters, per game number, the game in force."""

    meters: Mapping[str, int] = field(default_factory=dict)
    per_game: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    selected: int = 0
    handpay: bool = False
    aft: Mapping[str, Any] = field(default_factory=dict)  # machine/sas/aft.py's availability: to, from, limit, lockable
    printer: bool = False  # the seat pays by voucher: its host validates them (machine/sas/tickets.py)
    vouchers: tuple[Mapping[str, Any], ...] = ()  # its last printed vouchers, oldest first (tickets.voucher_entry)
    read: int = 0  # the ordinal of the last voucher the host took with 4D 00, as journaled (0: none)
    handpay_points: int = 0  # the handpay the seat is locked in, in points (SAS credits): 1B (0: none)


def seat_meters(seat: Any, names: Mapping[int, str], in_force: str, power_up_games: int, door_games: int,
                printing: int = 0) -> SeatSnapshot:
    """The snapshot of ``seat`` (a core ``SeatState``); ``names``: game number -> game;
    ``power_up_games`` / ``door_games``: its games played when the cabinet started / when the door
    last closed (18's games since power-up and since the door); ``printing``: the points of its
    voucher waiting for the printer, which its handpay lock holds too but is no handpay."""
    m = seat.meters.get
    played = m("games_played")
    meters = {sas: m(ours) for sas, ours in SEAT_METERS.items()}
    meters |= {sas: meters[sas] - m(aft) for sas, aft in NOT_CASH.items()}
    meters["true_coin_in"] -= m("note_in_value")  # coins only: notes are bills (20, 46, 31-37), all are drop
    meters |= notes_by_value(seat.meters.lifetime)
    meters |= {
        "credits": seat.money.credit + seat.money.club,
        "games_since_power_up": max(0, played - power_up_games),
        "games_since_door": max(0, played - door_games),
    }
    per_game = {number: {sas: m(f"{ours}:{game}") for sas, ours in GAME_METERS.items()} for number, game in names.items()}
    selected = next((number for number, game in names.items() if game == in_force), 0)
    handpay = max(0, seat.handpay_owed - printing) if seat.lock == "handpay" else 0
    return SeatSnapshot(meters, per_game, selected, seat.lock == "handpay", handpay_points=handpay)


def notes_by_value(lifetime: Mapping[str, int]) -> dict[str, int]:
    """The seat's stacked notes as SAS counts them: ``bills_<value>`` (how many of each face value,
    in the currency's whole units) and ``bills_value`` (their whole value, in those units)."""
    out: dict[str, int] = {"bills_value": 0}
    for key, count in lifetime.items():
        units = bill_face_units(key[len(NOTES_COUNT):]) if key.startswith(NOTES_COUNT) else None
        if units is not None:
            out[f"bills_{units}"] = out.get(f"bills_{units}", 0) + count
            out["bills_value"] += units * count
    return out


class HostClock:
    """The date and time the host reads (7E) and sets (7F): the wall clock plus the host's
    offset. Setting it moves only this offset, never a round's timer (those run on the loop's
    monotonic clock)."""

    def __init__(self, wall: Callable[[], float]) -> None:
        self.wall = wall
        self.offset = 0.0

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.wall() + self.offset)

    def set(self, when: datetime) -> None:
        self.offset = when.timestamp() - self.wall()


class SeatSource(BaseMeterSource):
    """The ``MeterSource`` (hardware/sas/source.py) of one seat: reads the snapshot in force;
    what it does not override is ``BaseMeterSource``'s default (no notes, no tickets, AFT off)."""

    def __init__(self, seat: int, games: tuple[int, ...], serial: str, rom: RomSignature, clock: HostClock,
                 denomination_cents: int, max_bets: Mapping[int, int] | None = None,
                 base_percents: Mapping[int, int] | None = None) -> None:
        self.seat = seat
        self._games = games
        self._max_bets = dict(max_bets or {})
        self._base_percents = dict(base_percents or {})  # game number -> return in hundredths of a percent
        self._serial = serial
        self._rom = rom
        self._clock = clock
        self._cents = denomination_cents
        self.snapshot = SeatSnapshot()  # swapped whole by the loop thread
        self.aft_on = False
        self.asset = 0
        self.aft_done: dict[str, Any] = {}  # transaction id -> its AftRecord (the journal's, given at start)
        self.validation = SeatTickets(lambda: self.snapshot.vouchers, self.meter, denomination_cents)

    def meter(self, name: str, game: int = 0) -> int:
        snap = self.snapshot
        if game:
            return snap.per_game.get(game, {}).get(name, 0)
        return snap.meters.get(name, 0)

    def games(self) -> tuple[int, ...]:
        return self._games

    def selected_game(self) -> int:
        return self.snapshot.selected

    def serial_number(self) -> str:
        return self._serial

    def clock(self) -> datetime:
        return self._clock.now()

    def handpay_pending(self) -> bool:
        return self.snapshot.handpay

    def handpay(self) -> Handpay | None:
        """1B: the seat's handpay in points (one SAS credit is one point, as every meter here). Each
        is the credit meter paid by hand (the part of a Collect the hopper cannot pay, a voucher the
        printer failed, a tournament prize put on the credit meter): "cancelled credits", with only
        the standard reset (the attendant's key, 94)."""
        points = self.snapshot.handpay_points
        return Handpay(points) if points > 0 else None

    def rom_signature(self, seed: int) -> int | None:
        return self._rom.get(seed)

    def denomination_cents(self) -> int:
        """A credit's worth in cents (one SAS credit is one point): 1F's denomination."""
        return self._cents

    def game_info(self, game: int) -> GameInfo:
        """1F (game 0: the game in force) and 53: a card game (``BJ``), its number as the
        additional id, its table's maximum bet in credits, its return (0000 where none is known)."""
        number = game or self.snapshot.selected
        return GameInfo(game_id="BJ", additional_id=f"{number:03d}", max_bet=self._max_bets.get(number, 0),
                        base_percent=self._base_percents.get(number, 0))

    def tickets(self) -> SeatTickets | None:
        """The machine's own validation of its vouchers where the seat has a ticket printer."""
        return self.validation if self.snapshot.printer else None

    # -- AFT: what the snapshot says; the cabinet checks each transfer again when it journals it --

    def asset_number(self) -> int:
        return self.asset

    def aft_enabled(self) -> bool:
        return self.aft_on

    def aft_limit_points(self) -> int:
        return int(self.snapshot.aft.get("limit", 0))

    def aft_available(self) -> tuple[bool, bool]:
        a = self.snapshot.aft
        return bool(a.get("to")), bool(a.get("from"))

    def lockable(self) -> bool:
        return bool(self.snapshot.aft.get("lockable", True))

    def aft_transaction(self, transaction_id: str) -> Any:
        return self.aft_done.get(transaction_id)
