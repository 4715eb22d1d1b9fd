"""The seat table: the states a seat can be in, and the moves one input may make between them.

Owns: ``SEAT_STATES`` (a seat's state is derived, never stored: the first row whose condition
holds names it; the row says which groups of buttons may light and whether the acceptor may take
coins, for machine/core/lamps.py), ``SEAT_TRANSITIONS`` (the states one input may lead to from
each state) and ``check_moves``, which every input's transaction runs on the seats' states
before and after it (``Core.tx``): a move the table does not allow is a bug, and the input is
refused whole (rolled back) rather than leave a seat where no rule put it. Pure: never changes
the state, never journals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from machine.core.state import CabinetState, SeatState


class SeatMoveError(RuntimeError):
    """An input moved a seat along no row of ``SEAT_TRANSITIONS`` (a bug: the input is undone)."""


@dataclass(frozen=True)
class SeatStateRow:
    name: str
    holds: Callable[[SeatState, bool], bool]  # (seat, seat is in the round in play) -> bool
    lamps: frozenset[str]
    coins: bool


def _row(name: str, holds: Callable[[SeatState, bool], bool], lamps: tuple[str, ...], coins: bool) -> SeatStateRow:
    return SeatStateRow(name, holds, frozenset(lamps), coins)


#   state           holds when (the first row that holds wins)                 lamps may light           coins
SEAT_STATES: tuple[SeatStateRow, ...] = (
    _row("memory_error", lambda s, r: s.lock == "memory_error",                 (),                       False),
    _row("tilt",         lambda s, r: s.lock == "tilt",                         (),                       False),
    _row("handpay",      lambda s, r: s.lock == "handpay",                      (),                       False),
    _row("in_round",     lambda s, r: r,                                        ("play",),                True),
    _row("paying",       lambda s, r: s.money.payout_owed > 0,                  (),                       True),
    _row("betting",      lambda s, r: s.money.bet > 0,                          ("bet", "collect"),       True),
    _row("ready",        lambda s, r: s.money.credit > 0 or s.money.club > 0,   ("bet", "collect", "game"), True),
    _row("idle",         lambda s, r: True,                                     ("bet", "collect", "game"), True),
)
STATES = {row.name: row for row in SEAT_STATES}

# The states one input may lead to from each state. Besides these, a failed self-audit leads
# from any state to memory_error, and a RAM clear from any state to idle. A tournament's round is
# dealt unstaked (idle or ready -> in_round: no bet), and its prizes become handpays at idle
# seats too, and at the seat whose round just closed it.
SEAT_TRANSITIONS: dict[str, frozenset[str]] = {
    "idle":         frozenset({"idle", "ready", "tilt", "in_round", "handpay"}),
    "ready":        frozenset({"ready", "idle", "betting", "paying", "handpay", "tilt", "in_round"}),
    "betting":      frozenset({"betting", "ready", "in_round", "tilt"}),
    "in_round":     frozenset({"in_round", "idle", "ready", "tilt", "handpay"}),
    "paying":       frozenset({"paying", "idle", "ready", "tilt"}),
    "handpay":      frozenset({"handpay", "idle", "ready"}),
    "tilt":         frozenset({"tilt", "idle", "ready", "paying", "handpay", "in_round"}),
    "memory_error": frozenset({"memory_error"}),
}


def transition_allowed(before: str, after: str) -> bool:
    """Whether one input may take a seat from state ``before`` to state ``after``."""
    if after in ("memory_error", "idle"):  # a failed self-audit; a RAM clear
        return True
    return after in SEAT_TRANSITIONS[before]


def seat_state(state: CabinetState, n: int) -> str:
    seat = state.seats[n]
    in_round = state.in_round(n)
    return next(row.name for row in SEAT_STATES if row.holds(seat, in_round))


def seat_states(state: CabinetState) -> dict[int, str]:
    """Every seat's state now."""
    return {n: seat_state(state, n) for n in state.seats}


def check_moves(before: Mapping[int, str], state: CabinetState) -> None:
    """Raise ``SeatMoveError`` when a seat went from its state ``before`` to one the table does
    not allow (seats added or gone, as at a RAM clear, are not moves)."""
    for n in state.seats:
        if n in before:
            after = seat_state(state, n)
            if not transition_allowed(before[n], after):
                raise SeatMoveError(f"seat {n}: {before[n]} -> {after} is no move of the seat table")
