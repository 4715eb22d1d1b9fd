"""An eenendertigen tournament's ranking list and how its prizes fall on the ranks.

Owns: the standings of a tournament from its participants as plain data (``ranking``: rank,
name, score, rounds played; tied scores share a rank, 1, 2, 2, 4; sorted by score, highest
first, then by who finished first, then by who entered first) and the prize each ranked
participant gets (``prizes_by_rank``: tied participants share the prizes of the places they
hold together, rounded down). Scores are kept in half points (``score2``, as ``rules.score2``)
so every comparison is exact. Pure: never reads a clock, a journal or a seat.

A participant, as the cabinet keeps it: ``{"number": 3, "name": "ANNA", "seat": 2,
"scores2": [62, 61, ...] (one per round played), "finished": 1 (the order they finished in,
or None while playing)}``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from machine.games.eenendertigen.rules import score_value
from machine.games.text import Text


def display_name(p: Mapping[str, Any]) -> str:
    """The name on the list: the one entered, else "Player N"."""
    return str(p["name"]) if p.get("name") else Text("Player {number}", number=p["number"])


def score2(p: Mapping[str, Any]) -> int:
    """A participant's score in half points: the sum of their final hand scores."""
    return sum(int(s) for s in p.get("scores2", ()))


def ranking(participants: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ranking list, best first: ``{"rank", "number", "name", "seat", "score", "rounds",
    "finished"}`` per participant; equal scores share the rank of the first of them."""

    def order(p: Mapping[str, Any]) -> tuple[int, int, int]:
        finished = p.get("finished")
        return (-score2(p), finished if finished is not None else 1_000_000, int(p["number"]))

    rows: list[dict[str, Any]] = []
    for i, p in enumerate(sorted(participants, key=order)):
        rank = rows[-1]["rank"] if rows and score2(p) == rows[-1]["score2"] else i + 1
        rows.append({
            "rank": rank, "number": p["number"], "name": display_name(p), "seat": p.get("seat"),
            "score": score_value(score2(p)), "score2": score2(p), "rounds": len(p.get("scores2", ())),
            "finished": p.get("finished"),
        })
    return rows


def prizes_by_rank(rows: Sequence[Mapping[str, Any]], prizes: Sequence[int]) -> list[int]:
    """The prize of each row of ``rows`` (a ``ranking``): place k (1-based) pays ``prizes[k-1]``;
    participants tied on a rank share the prizes of the places they take together equally,
    rounded down to whole points (1 and 2 tied for first with prizes 100, 50: 75 each)."""
    out = []
    for row in rows:
        tied = sum(1 for r in rows if r["rank"] == row["rank"])
        first = int(row["rank"]) - 1
        pool = sum(prizes[first:first + tied])
        out.append(pool // tied)
    return out
