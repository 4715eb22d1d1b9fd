"""The cabinet's inputs from its bill validators: one poll, one journal transaction.

Owns: ``NoteInputs``, the ``Cabinet``'s entry for a seat's bill validator: each poll's events
with the validator's event counter in ONE transaction (``validator_report``: escrow decisions,
credits of stacked notes, returns and faults, by ``notes.py``), whose answer is how to route the
note in escrow (only after the transaction is durable does the driver route it); the notes a
cut left in escrow, to be routed again at start-up; the counter the journal follows. Never
talks to a device.
"""

from __future__ import annotations

from typing import Any

from machine.core import notes
from machine.core.queries import CabinetQueries

NoteEventData = tuple[Any, ...]  # ("escrow"|"stacked", type, bill id) or ("status", code, kind, name)


class NoteInputs(CabinetQueries):
    """A seat's bill validator (see the docstring)."""

    def validator_counter(self, address: int) -> int | None:
        return self.core.state.row.notes.get("counters", {}).get(str(address))

    def escrow_pending(self, address: int) -> bool | None:
        """The decision on the note a cut may have left in escrow (True: stack), None: none."""
        held = self.core.state.row.notes.get("escrow", {}).get(str(address))
        return None if held is None else bool(held["stack"])

    def validator_counters(self) -> dict[str, int]:
        return dict(self.core.state.row.notes.get("counters", {}))

    def escrow_gone(self, n: int, address: int, answer: str) -> None:
        """The validator holds no note where the journal has one in escrow, and no event says
        what became of it (a reset returned it): closed as returned, nothing credited."""
        with self.core.tx("escrow_gone", {"address": address, "answer": answer}, n):
            notes.status(self.core, self.seats[n], address, notes.RETURNED, "status", answer)

    def validator_report(self, n: int, address: int, counter: int, events: list[NoteEventData]) -> bool | None:
        """One poll of seat ``n``'s validator, whole; returns how to route the note now in escrow
        (True stack, False return, None: no note waits). Durable before it returns."""
        data = {"address": address, "counter": counter, "events": [list(e) for e in events]}
        with self.core.tx("validator", data, n):
            seat = self.seats[n]
            for ev in events:
                if ev[0] == "escrow":
                    notes.escrow(self.core, seat, address, ev[1], ev[2])
                elif ev[0] == "stacked":
                    notes.stacked(self.core, seat, address, ev[1], ev[2])
                else:
                    notes.status(self.core, seat, address, *ev[1:])
            notes.notes_row(self.core)["counters"][str(address)] = counter
        return self.escrow_pending(address)

    def validator_counter_fault(self, n: int, address: int, last: int, now: int, events: int) -> None:
        """The validator's counter moved in a way its buffer cannot show: nothing credited, tilt."""
        data = {"address": address, "journal": last, "device": now, "events": events}
        with self.core.tx("validator_counter_fault", data, n):
            notes.counter_fault(self.core, self.seats[n], address, last, now, events)
            notes.notes_row(self.core)["counters"][str(address)] = now
