"""The cabinet's state as typed values, each turning to and from the journal's plain data.

Owns: the shape of everything the core keeps between inputs — each seat (money, meters, the
Start flag, its lock), each payout the hopper still owes (with the chunk a cut may have
interrupted), the cabinet row (meters, round number, timers, pauses, settings, the devices'
counters the journal accounts for, a hopper test in progress) — and their
plain-data forms, which are EXACTLY the rows the journal holds (``seat/<n>``, ``payouts``,
``cabinet``, ``round``), so journals written before this module existed restore unchanged.

Never journals, decides or validates anything: the other core modules change these values and
the store writes them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from machine.games.interface import GameRound
from machine.money.meters import Meters
from machine.money.seatmoney import SeatMoney


@dataclass
class SeatState:
    """One seat: its money and meters, whether Start is pressed, and its lock if any."""

    number: int
    money: SeatMoney
    meters: Meters = field(default_factory=Meters)
    ready: bool = False  # start pressed for the coming round
    lock: str | None = None  # "handpay", "tilt", "memory_error"
    lock_detail: str = ""
    handpay_owed: int = 0
    proposal: int = 0  # at a bet decision (games that bet after the deal): the bet the buttons set
    picks: dict[str, int] = field(default_factory=dict)  # the cards it chose for its next action (eenendertigen)
    host_disabled: bool = False  # the casino's host shut the seat down (SAS 01): no new bet or coin until 02
    # locked by the host for a cashless transfer (SAS 74): no new bet or round until the lock ends;
    # the machine's, held in memory only (never in to_dict: it moves no money, a restart ends it)
    aft_locked: bool = field(default=False, compare=False)

    paid: int = 0  # points its last Collect paid out (hopper and handpay), shown until its next action


    def to_dict(self) -> dict[str, Any]:
        return {
            "money": self.money.to_dict(),
            "meters": self.meters.to_dict(),
            "ready": self.ready,
            "lock": self.lock,
            "lock_detail": self.lock_detail,
            "handpay_owed": self.handpay_owed,
            "proposal": self.proposal,
            **({"picks": dict(self.picks)} if self.picks else {}),
            **({"host_disabled": True} if self.host_disabled else {}),

            **({"paid": self.paid} if self.paid else {}),  # an old row has none: nothing paid to show
        }

    @classmethod
    def from_dict(cls, number: int, d: Mapping[str, Any]) -> SeatState:
        return cls(
            number=number,
            money=SeatMoney.from_dict(dict(d["money"])),
            meters=Meters.from_dict(d["meters"]),
            ready=d["ready"],
            lock=d["lock"],
            lock_detail=d["lock_detail"],
            handpay_owed=d["handpay_owed"],
            proposal=d.get("proposal", 0),
            picks=dict(d.get("picks", {})),
            host_disabled=bool(d.get("host_disabled", False)),

            paid=int(d.get("paid", 0)),
        )


@dataclass
class Chunk:
    """One request to the hopper (at most 255 coins) and the coins the hopper reported for it.

    ``credited`` counts every coin reported (an extra coin too), as the driver's ledger
    protocol counts them, so a reconcile after a cut never reports one twice.
    """

    requested: int
    credited: int = 0
    lifetime_before: int | None = None
    counter_before: int | None = None
    hopper: int | None = None  # the paying hopper's ccTalk address (None: not known to the ledger)
    serial: int | None = None  # the serial number of the hopper the baseline was read from

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "requested": self.requested,
            "credited": self.credited,
            "lifetime_before": self.lifetime_before,
            "counter_before": self.counter_before,
        }
        if self.hopper is not None:  # old rows stay as they were
            d["hopper"] = self.hopper
        if self.serial is not None:
            d["serial"] = self.serial
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Chunk:
        return cls(d["requested"], d["credited"], d["lifetime_before"], d["counter_before"], d.get("hopper"),
                   d.get("serial"))


@dataclass
class Payout:
    """Coins a seat's Collect asked of the hopper: how many, how many paid, the chunk in hand.

    ``chunked`` remembers whether the row has ever held a chunk, so the plain data keeps the
    journal's form exactly (no ``chunk`` key until the first chunk begins).
    """

    asked: int
    paid: int = 0
    coin_value: int = 0
    chunk: Chunk | None = None
    chunked: bool = False

    @property
    def owed(self) -> int:
        """Coins still owed by the hopper."""
        return self.asked - self.paid

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"asked": self.asked, "paid": self.paid, "coin_value": self.coin_value}
        if self.chunked:
            d["chunk"] = None if self.chunk is None else self.chunk.to_dict()
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Payout:
        chunk = d.get("chunk")
        return cls(d["asked"], d["paid"], d["coin_value"], None if chunk is None else Chunk.from_dict(chunk), "chunk" in d)


@dataclass
class CabinetRow:
    """The cabinet's own row: its meters, the round count, the timers, pauses and settings."""

    meters: Meters = field(default_factory=Meters)
    round_no: int = 0
    inputs: int = 0  # transactions written
    cursor: int = 0  # the caller's input position (a script's), saved with each input
    betting_since: float | None = None
    decision_since: float | None = None
    pauses: dict[str, float] = field(default_factory=dict)  # why play is paused -> since when
    overrides: dict[str, Any] = field(default_factory=dict)  # machine settings changed in the menu
    rule_overrides: dict[str, Any] = field(default_factory=dict)  # game settings in force
    pending_rules: dict[str, Any] = field(default_factory=dict)  # game settings for the next RAM clear
    acceptor_counters: dict[str, int] = field(default_factory=dict)  # ccTalk address -> last counter
    # ccTalk address -> the hopper's lifetime count (168) every coin up to which is accounted for
    hopper_counters: dict[str, int] = field(default_factory=dict)
    # the operator's hopper test in progress (machine/core/admin.py): hopper, requested, credited,
    # lifetime_before, counter_before; empty when none is
    hopper_test: dict[str, Any] = field(default_factory=dict)
    game: str | None = None  # the game in force (None: the configured game)
    pending_game: str | None = None  # chosen while a seat had a bet or a hand: in force when none has
    game_rules: dict[str, dict[str, Any]] = field(default_factory=dict)  # other games' rule settings
    carry: dict[str, dict[str, Any]] = field(default_factory=dict)  # game -> what its next round starts from
    # eenendertigen tournaments (machine/core/tournament.py): "open" (the open one), "count"
    # (tournaments opened so far), "last" (the last closed one's list), "prizes_owed"; plain data
    tournaments: dict[str, Any] = field(default_factory=dict)
    # wrong operator PINs in a row and the lock they earned (machine/core/pinlock.py); plain data
    pin_lock: dict[str, Any] = field(default_factory=dict)
    # bill validators (machine/core/notes.py): "counters" (address -> last event counter journaled),
    # "escrow" (address -> the note held and what the cabinet decided); plain data
    notes: dict[str, Any] = field(default_factory=dict)
    # vouchers (machine/core/vouchers.py): "count" issued, "pending" (seat -> the voucher to print)
    vouchers: dict[str, Any] = field(default_factory=dict)

    def to_dict(self, seats: int) -> dict[str, Any]:
        extra: dict[str, Any] = {}  # what an old row did not have stays out of it until it is used
        if self.tournaments:
            extra["tournaments"] = copy.deepcopy(self.tournaments)
        if self.hopper_counters:
            extra["hopper_counters"] = dict(self.hopper_counters)
        if self.hopper_test:
            extra["hopper_test"] = dict(self.hopper_test)
        if self.pin_lock:
            extra["pin_lock"] = dict(self.pin_lock)
        if self.notes:
            extra["notes"] = copy.deepcopy(self.notes)
        if self.vouchers:
            extra["vouchers"] = copy.deepcopy(self.vouchers)
        return {
            "seats": seats,
            "meters": self.meters.to_dict(),
            "round_no": self.round_no,
            "inputs": self.inputs,
            "cursor": self.cursor,
            "betting_since": self.betting_since,
            "decision_since": self.decision_since,
            "pauses": dict(self.pauses),
            "overrides": dict(self.overrides),
            "rule_overrides": dict(self.rule_overrides),
            "pending_rules": dict(self.pending_rules),
            "acceptor_counters": dict(self.acceptor_counters),
            "game": self.game,
            "pending_game": self.pending_game,
            "game_rules": {k: dict(v) for k, v in self.game_rules.items()},
            "carry": {k: dict(v) for k, v in self.carry.items()},
            **extra,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CabinetRow:
        return cls(
            meters=Meters.from_dict(d["meters"]),
            round_no=d["round_no"],
            inputs=d["inputs"],
            cursor=d["cursor"],
            betting_since=d["betting_since"],
            decision_since=d["decision_since"],
            pauses=dict(d.get("pauses", {})),
            overrides=dict(d.get("overrides", {})),
            rule_overrides=dict(d.get("rule_overrides", {})),
            pending_rules=dict(d.get("pending_rules", {})),
            acceptor_counters=dict(d.get("acceptor_counters", {})),
            hopper_counters=dict(d.get("hopper_counters", {})),
            hopper_test=dict(d.get("hopper_test", {})),
            game=d.get("game"),
            pending_game=d.get("pending_game"),
            game_rules={k: dict(v) for k, v in d.get("game_rules", {}).items()},
            carry={k: dict(v) for k, v in d.get("carry", {}).items()},
            tournaments=copy.deepcopy(dict(d.get("tournaments", {}))),
            pin_lock=dict(d.get("pin_lock", {})),
            notes=copy.deepcopy(dict(d.get("notes", {}))),
            vouchers=copy.deepcopy(dict(d.get("vouchers", {}))),
        )


@dataclass(frozen=True)
class Hold:
    """A reveal's hold (machine/core/reveal.py): the seats whose hands were just shown to every
    seat, and until when play waits for the screens. In memory only, never journaled."""

    seats: frozenset[int]
    until: float


@dataclass
class CabinetState:
    """Everything the core keeps: the seats, the cabinet row, the round in play, the payouts.

    ``round_meta`` is the cabinet's own record of the round (its number, the seats' meters
    before it, the decisions and who made them); ``round_shoe`` the shoe it was dealt from.
    """

    seats: dict[int, SeatState]
    row: CabinetRow = field(default_factory=CabinetRow)
    round: GameRound | None = None
    round_meta: dict[str, Any] = field(default_factory=dict)
    round_shoe: list[str] = field(default_factory=list)
    payouts: dict[int, Payout] = field(default_factory=dict)
    hold: Hold | None = None  # a reveal's hold: the screens' time, not a row of the journal

    def in_round(self, n: int) -> bool:
        return self.round is not None and n in self.round.seat_numbers

    # -- the journal's rows -----------------------------------------------------------------

    def cabinet_row(self) -> dict[str, Any]:
        return self.row.to_dict(len(self.seats))

    def round_row(self) -> dict[str, Any] | None:
        return None if self.round is None else {"round": self.round.to_dict(), "meta": self.round_meta}

    def payouts_row(self) -> dict[str, Any]:
        return {str(k): p.to_dict() for k, p in self.payouts.items()}

    # -- a snapshot, to put back when a transaction fails --------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "seats": {n: s.to_dict() for n, s in self.seats.items()},
            "cabinet": self.cabinet_row(),
            "round": self.round.to_dict() if self.round else None,
            "meta": copy.deepcopy(self.round_meta),
            "shoe": list(self.round_shoe),
            "payouts": self.payouts_row(),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any], restore_round: Callable[[Mapping[str, Any]], GameRound]) -> CabinetState:
        return cls(
            seats={n: SeatState.from_dict(n, d) for n, d in data["seats"].items()},
            row=CabinetRow.from_dict(data["cabinet"]),
            round=restore_round(data["round"]) if data["round"] else None,
            round_meta=data["meta"],
            round_shoe=list(data["shoe"]),
            payouts={int(k): Payout.from_dict(v) for k, v in data["payouts"].items()},
        )
