"""Which SAS exception each of the cabinet's own journal records raises, and for which seat.

Owns: the table from the journal's events (``machine/money/meters.py`` EVENT_CODES) to the
exception codes of the SAS document's public list, and ``exceptions_of``: a record's
exceptions as ``(seat, code)`` (seat None: every seat on the host, as for the cabinet's one
door). A round's start raises 7E for each seat dealt in, a seat's game record (its recall, one
per game it played) 7F. The start-up ones (17 power applied, 18 power lost, 7A RAM cleared)
are the bridge's, at start. Pure: reads nothing, sends nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from hardware.sas.machine import game_ended_data, game_started_data

POWER_LOST = 0x18
POWER_APPLIED = 0x17
RAM_CLEARED = 0x7A  # the document's "soft (lifetime-to-date) meters reset to zero"
GAME_STARTED = 0x7E
GAME_ENDED = 0x7F
GENERAL_TILT = 0x20
HOPPER_EMPTY = 0x23
COIN_OUT_TILT = 0x22  # a jam, or any other hopper fault that left coins owed

# event -> exception; the seat is the record's (None: the cabinet's, for every seat)
EVENT_EXCEPTIONS: Mapping[str, int] = {
    "door_open": 0x11,  # slot door opened
    "door_closed": 0x12,  # slot door closed
    "handpay": 0x51,  # handpay is pending
    "handpay_cleared": 0x52,  # handpay was reset
    "settings_changed": 0x3C,  # operator changed options
    "ram_clear": RAM_CLEARED,
    "memory_error": 0x32,  # CMOS RAM error (no data recovered)
    "coin_error": 0x21,  # coin-in tilt
    "coin_counter_fault": 0x21,
    "coin_events_lost": 0x21,
    "coin_events_while_down": 0x21,
    "coin_fraud": 0x2D,  # reverse coin-in detected (a coin on a string)
    "hopper_runaway": 0x24,  # extra coin paid: the hopper paid unasked
    "hopper_extra_coin": 0x24,
    "play_paused": 0x84,  # self test or operator menu entered (the operator's key)
    "play_resumed": 0x85,  # exited
    "voucher_printed": 0x3D,  # cash out ticket printed (its record: 4D, machine/sas/tickets.py)
}


def exceptions_of(kind: str, seat: int | None, data: Mapping[str, Any],
                  coin_in: Callable[[int], int] = lambda n: 0) -> list[tuple[int | None, int, bytes]]:
    """The exceptions one journal record raises (none for most records), each with what its
    real-time form carries (7E: the seat's stake and its coin in meter, ``coin_in(seat)``; 7F:
    what the game returned to it)."""
    if kind == "round_start":
        bets = data.get("bets", {})
        return [(int(n), GAME_STARTED, game_started_data(bets[n], coin_in(int(n)))) for n in sorted(bets, key=int)]
    if kind == "game" and seat is not None:
        return [(seat, GAME_ENDED, game_ended_data(int((data.get("seat") or {}).get("returned", 0))))]
    return [(n, code, b"") for n, code in _event(kind, seat, data)]


def _event(kind: str, seat: int | None, data: Mapping[str, Any]) -> list[tuple[int | None, int]]:
    if kind != "event":
        return []
    event = data.get("event", "")
    if event == "hopper_fault":
        return [(seat, HOPPER_EMPTY if data.get("fault") == "empty" else COIN_OUT_TILT)]
    if event == "tilt":  # a seat's tilt comes after its cause's own event (above); the cabinet's: the panel link
        return [] if seat is not None else [(None, GENERAL_TILT)]
    if event == "play_paused" and data.get("reason") != "operator":
        return []
    if event == "play_resumed" and data.get("reason") != "operator":
        return []
    code = EVENT_EXCEPTIONS.get(event)
    return [] if code is None else [(seat, code)]
