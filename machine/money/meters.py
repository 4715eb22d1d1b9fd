"""Accounting meters and event codes, in the names an auditor expects.

Owns: the meter names, lifetime and period counters per seat and for the cabinet, and the
codes of the event log. Pure data with plain-dict persistence; the cabinet core decides when
a meter moves and journals it in the same transaction as the money it counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

# Per seat (the cabinet's figure is their sum) ------------------------------------------------
SEAT_METERS = (
    "total_in",  # coins and notes, points
    "note_in_count",  # banknotes stacked (machine/core/notes.py)
    "note_in_value",  # their points
    "hopper_out",  # points paid by the hopper
    "handpay_out",  # points paid by an attendant
    "total_out",  # hopper_out + handpay_out
    "games_played",
    "games_won",
    "games_lost",
    "games_pushed",
    "total_bet",  # turnover: every stake taken (bets, splits, doubles, insurance)
    "total_won",  # everything settlements returned, stakes included
    "blackjacks",
    "three_sevens",
    "insurance_taken",  # insurance stakes, points
    "insurance_paid",  # insurance returns, points
    "handpays",  # count
    "voucher_out",  # points paid by printed vouchers (machine/core/vouchers.py)
    "vouchers_out",  # vouchers printed (count)
)
# Per coin type: coin_in_count:<id> and coin_in_value:<id>; per note: note_in_count:<id>, note_in_value:<id>
# Per game (GLI-11 asks a multi-game machine to meter each game): <meter>:<game> for these
GAME_METERS = ("games_played", "total_bet", "total_won")
# Cabinet only -------------------------------------------------------------------------------
CABINET_METERS = (
    "power_ups", "door_openings", "ram_clears", "period_resets", "hopper_test_coins", "hopper_refills",
    "hopper_out_unexplained",  # points: coins out of a hopper that no payout or test explains
    "tournaments",  # eenendertigen tournaments opened (count)
    "tournament_entries",  # entries taken from participants' credit meters, points (in total_bet too)
    "tournament_prizes",  # prizes put on participants' credit meters as handpays, points (in total_won too)
)

# Event log codes ------------------------------------------------------------------------------
EVENT_CODES = {
    "power_up": 100,
    "power_down_detected": 101,
    "ram_clear": 102,
    "period_reset": 103,
    "door_open": 110,
    "door_closed": 111,
    "tilt": 120,
    "tilt_cleared": 121,
    "memory_error": 130,
    "coin_error": 140,
    "coin_events_lost": 141,
    "coin_fraud": 142,
    "coin_events_while_down": 143,  # an acceptor counted events while the cabinet was down
    "coin_counter_fault": 144,  # an acceptor's counter went back or jumped past its buffer: nothing credited
    "hopper_fault": 150,
    "hopper_extra_coin": 151,
    "hopper_runaway": 152,
    "payout_resumed": 153,
    "hopper_refill": 154,
    "hopper_out_unexplained": 155,  # the hopper's count moved with no payout to explain it
    "hopper_count_behind": 156,  # the hopper's count is behind the journal's
    "hopper_count_unexplained": 157,  # a pending payout's hopper count explains nothing: the attendant's
    "handpay": 160,
    "handpay_cleared": 161,
    "operator": 170,
    "settings_changed": 171,
    "play_paused": 172,  # the operator key turned on: play waits (not a tilt)
    "play_resumed": 173,
    "pin_wrong": 174,  # a wrong operator PIN (machine/core/pinlock.py)
    "pin_locked": 175,  # the PIN entry locked after wrong PINs
    "host_disabled": 176,  # the casino's host shut a seat down (SAS long poll 01)
    "host_enabled": 177,  # and started it up again (02)
    "software_identity": 180,
    "round_void": 190,
    "tournament_opened": 200,
    "tournament_started": 201,  # its start time came: the cabinet plays only the tournament
    "tournament_entry": 202,
    "tournament_closed": 203,
    "tournament_prize": 204,
    "note_returned": 210,  # a note went back to the player from escrow (refused, or not routed in time)
    "note_rejected": 211,  # the validator rejected a note (not valid, or a transport problem)
    "note_fraud": 212,  # pulled back, tamper, opto or string fraud: the seat tilts
    "note_fault": 213,  # a jam, the stacker full, removed or faulty: the seat tilts
    "note_counter_fault": 214,  # the validator's counter moved in a way its buffer cannot show
    "note_stacked_unasked": 215,  # a note stacked that the journal had not accepted (credited: it is in the box)
    "note_status": 216,  # the validator's information (stacker inserted, stacker OK, inhibited note...)
    "voucher_issued": 220,  # a voucher's number journaled, before it is printed
    "voucher_printed": 221,  # printed whole: the credit left the seat
    "voucher_to_handpay": 222,  # the printer failed before the voucher was whole: void, the amount a handpay
    "voucher_reprint": 223,  # printed again after a cut, as a duplicate of the same number
    "sas_validation_read": 224,  # the SAS host took a voucher's validation record (4D 00): no money moves
    "aft_in": 230, "aft_out": 231,  # cashless transfers (SAS AFT) to and from a seat (machine/core/aft.py)
}


@dataclass
class Meters:
    """Lifetime and period counters of one scope (a seat, or the cabinet's own)."""

    lifetime: dict[str, int] = field(default_factory=dict)
    period: dict[str, int] = field(default_factory=dict)

    def add(self, name: str, amount: int = 1) -> None:
        if amount:
            self.lifetime[name] = self.lifetime.get(name, 0) + amount
            self.period[name] = self.period.get(name, 0) + amount

    def get(self, name: str, period: bool = False) -> int:
        return (self.period if period else self.lifetime).get(name, 0)

    def reset_period(self) -> None:
        self.period = {}

    def to_dict(self) -> dict[str, dict[str, int]]:
        return {"lifetime": dict(self.lifetime), "period": dict(self.period)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Mapping[str, int]] | None) -> Meters:
        d = d or {}
        return cls(dict(d.get("lifetime", {})), dict(d.get("period", {})))


def total(meters: Iterable[Meters], period: bool = False) -> dict[str, int]:
    """The sum of several scopes' meters, name by name."""
    out: dict[str, int] = {}
    for m in meters:
        for k, v in (m.period if period else m.lifetime).items():
            out[k] = out.get(k, 0) + v
    return out


def per_game(meters: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """The per-game meters (``games_played:<game>``...) of a scope, game by game."""
    out: dict[str, dict[str, int]] = {}
    for key, amount in meters.items():
        name, sep, game = key.partition(":")
        if sep and name in GAME_METERS:
            out.setdefault(game, dict.fromkeys(GAME_METERS, 0))[name] = amount
    return dict(sorted(out.items()))
