"""Reading the journal for people and programs: meters, game recall, the event log, tournaments.

Owns: what ``cabinet audit`` reports, as plain data (``gather``: meters per seat, cabinet and
game, the recall records, the event log; ``verify_result``; ``tournament_rows``: the
tournaments' close records and the open one's row). Opens the journal read-only (SQLite WAL lets
it read beside a running cabinet without disturbing it) and never writes; never formats text
for people (``machine/operator/reports.py`` does).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from machine.money.journal import Journal
from machine.money.meters import GAME_METERS, Meters, per_game, total


def gather(journal_path: Path, key: bytes, seat: int | None = None, games: int = 100) -> dict[str, Any]:
    j = Journal(journal_path, key, readonly=True)
    try:
        cab = j.get("cabinet")
        if cab is None:
            return {"seats": {}, "cabinet": {}, "games": {}, "recall": {}, "events": [], "problems": j.verify()}
        seats = {n: j.get(f"seat/{n}") for n in range(1, cab["seats"] + 1)}
        if seat is not None and seat not in seats:
            raise ValueError(f"--seat {seat}: no such seat (the cabinet has seats 1 to {cab['seats']})")
        meters = {n: Meters.from_dict(s["meters"]) for n, s in seats.items()}
        cabinet_meters = Meters.from_dict(cab["meters"])
        chosen = [seat] if seat else list(seats)
        since = j.last_of("ram_clear")  # recall and events from the last RAM clear on
        return {
            "seats": {
                str(n): {
                    "credit": seats[n]["money"]["credit"],
                    "club": seats[n]["money"]["club"],
                    "lock": seats[n]["lock"],
                    "meters": meters[n].to_dict(),
                }
                for n in chosen
            },
            "cabinet": {
                "lifetime": {**total(meters.values()), **cabinet_meters.lifetime},
                "period": {**total(meters.values(), period=True), **cabinet_meters.period},
            },
            "games": _games(meters.values()),
            "recall": {
                str(n): [r.data | {"seq": r.seq} for r in j.records("game", seat=n, last=games, since=since)] for n in chosen
            },
            "events": [
                {"seq": r.seq, "seat": r.seat, **r.data}
                for r in j.records("event", since=since)
                if seat is None or r.seat in (seat, None)
            ],
            "problems": j.verify(),
        }
    finally:
        j.close()


def _games(meters: Any) -> dict[str, dict[str, dict[str, int]]]:
    """Each game's own meters, summed over the seats: ``{game: {"lifetime": ..., "period": ...}}``."""
    meters = list(meters)
    life, per = per_game(total(meters)), per_game(total(meters, period=True))
    zero = dict.fromkeys(GAME_METERS, 0)
    return {g: {"lifetime": life.get(g, zero), "period": per.get(g, zero)} for g in sorted(set(life) | set(per))}


def verify_result(journal_path: Path, key: bytes) -> dict[str, Any]:
    """``cabinet audit verify --json``: ``{"ok": ..., "records": ..., "problems": [...]}``."""
    j = Journal(journal_path, key, readonly=True)
    try:
        problems = j.verify()
        n = j.last_seq
    finally:
        j.close()
    return {"ok": not problems, "records": n, "problems": problems}



def tournament_rows(journal_path: Path, key: bytes) -> tuple[list[dict[str, Any]], dict[str, Any] | None, list[str]]:
    """The tournaments since the last RAM clear as the journal holds them: the close records'
    data, the open one from the cabinet row (None: none is open), and the journal's problems."""
    j = Journal(journal_path, key, readonly=True)
    try:
        since = j.last_of("ram_clear")
        closed = [r.data for r in j.records("tournament_close", since=since)]
        cab = j.get("cabinet") or {}
        return closed, (cab.get("tournaments") or {}).get("open") or None, j.verify()
    finally:
        j.close()
