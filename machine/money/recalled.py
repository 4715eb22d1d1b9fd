"""A seat's last games as the journal holds them, each with the events of its round, for recall.

Owns: ``recalled`` (a seat's recall records, oldest first, each with its record number, its
time and its round's own events) and ``with_events`` (one such record): the events in the order
they happened, the ``round_event`` records between the round's ``round_start`` and the recall
record; none when they were archived away or the round has no start of its own in the journal.
Reads the journal only; never writes, never formats anything for people
(``machine/operator/recall.py`` does).
"""

from __future__ import annotations

from typing import Any

from machine.money.journal import Journal, Record


def recalled(journal: Journal, seat: int, games: int, since: int = 0) -> list[dict[str, Any]]:
    """The seat's last ``games`` recall records after record ``since``, with their rounds' events."""
    return [with_events(journal, r) for r in journal.records("game", seat=seat, last=games, since=since)]


def with_events(journal: Journal, r: Record) -> dict[str, Any]:
    """Recall record ``r``'s data with ``seq``, ``at`` (its wall-clock time, or None) and
    ``events`` (its round's events)."""
    start = journal.db.execute("SELECT MAX(seq) FROM journal WHERE kind = 'round_start' AND seq < ?",
                               (r.seq,)).fetchone()[0]
    events: list[dict[str, Any]] = []
    if start:
        first = journal.records(since=start - 1, before=start + 1)  # the round_start itself
        if first and first[0].data.get("round_no") == r.data.get("round_no"):
            events = [e.data for e in journal.records("round_event", since=start, before=r.seq)]
    return r.data | {"seq": r.seq, "at": r.at, "events": events}
