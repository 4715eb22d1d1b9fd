"""The one way the cabinet's state changes: one input, one journal transaction, or nothing.

Owns: the transaction around each input (journal the input, let the core change the state,
write every row it dirtied, commit; on any failure put the in-memory state back as it was, so
memory never shows what the journal does not hold), the set of dirty rows, and the records the
core writes inside a transaction (money moves, events of the event log).

Never decides what an input does and never reads the state's meaning: it writes what it is
told is dirty, in the journal's row formats (``machine/core/state.py``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

from machine.core.state import CabinetState, SeatState
from machine.money.journal import Journal, mac
from machine.money.meters import EVENT_CODES
from machine.money.seatmoney import Move

Snapshot = dict[str, Any]


class Store:
    """The journal seen by the core: transactions, dirty rows, move and event records."""

    def __init__(self, journal: Journal):
        self.journal = journal
        self.dirty: set[str] = set()

    @contextlib.contextmanager
    def transaction(
        self, kind: str, data: dict[str, Any], seat: int | None, state: CabinetState, rollback: Callable[[Snapshot], None]
    ) -> Iterator[None]:
        """Journal the input and everything it changes in one transaction, or none of it."""
        snapshot = state.to_data()
        self.dirty = {"cabinet"}
        try:
            with self.journal.transaction():
                state.row.inputs += 1
                self.journal.append(kind, data, seat)
                yield
                self.write_dirty(state)
        except BaseException:
            rollback(snapshot)
            raise

    def keyed_check(self, purpose: str, text: str) -> int:
        """A number made from ``text`` under the machine's key (HMAC-SHA-256, ``purpose`` kept
        apart from the journal's own uses of the key): what the cabinet makes with it, nobody
        without the key can make, or tell in advance (a voucher's validation number)."""
        return int(mac(self.journal.key, f"{purpose}\0{text}"), 16)

    def write_dirty(self, state: CabinetState) -> None:
        j = self.journal
        j.put("cabinet", state.cabinet_row())
        for key in sorted(self.dirty):
            if key.startswith("seat/"):
                j.put(key, state.seats[int(key[5:])].to_dict())
            elif key == "round":
                j.put("round", state.round_row())
            elif key == "payouts":
                j.put("payouts", state.payouts_row())

    # -- what the core writes inside a transaction ---------------------------------------------

    def mark(self, *keys: str) -> None:
        self.dirty.update(keys)

    def seat_dirty(self, seat: SeatState) -> None:
        self.dirty.add(f"seat/{seat.number}")

    def moves(self, seat: SeatState, moves: list[Move]) -> None:
        for mv in moves:
            self.journal.append("move", dataclasses.asdict(mv), seat.number)
        if moves:
            self.seat_dirty(seat)

    def event(self, event: str, seat: int | None = None, /, **detail: Any) -> None:
        self.journal.append("event", {**detail, "code": EVENT_CODES[event], "event": event}, seat)

    def append(self, kind: str, data: dict[str, Any], seat: int | None = None) -> None:
        self.journal.append(kind, data, seat)
