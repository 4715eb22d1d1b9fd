"""The bill validators' part of the machine configuration: which notes a seat takes, at what points.

Owns: the default notes (EUR 5 to EUR 50, at the configured denomination), a bill id's face value
(``EU0020A``: 2000 cents) and the checks across fields of ``devices.validators``, ``notes`` and
``note_max`` (each note's points times ``denomination_cents`` its face value; validators only
for the cabinet's seats, each at its own address, none at an acceptor's or hopper's). Never
loads a file (``config.py`` does) and never starts a device.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hardware.cctalk.bills import bill_face_units

DEFAULT_NOTES_EUR = (5, 10, 20, 50)


def note_face_cents(bill_id: str) -> int | None:
    """A ccTalk bill id's face value in cents (its value in whole units, ``EU0020A``: 2000)."""
    units = bill_face_units(bill_id)
    return None if units is None else units * 100


def default_notes(denomination_cents: int) -> dict[str, int]:
    """EUR 5 to EUR 50 in points (a note no whole number of points is left out)."""
    return {f"EU{eur:04d}A": eur * 100 // denomination_cents for eur in DEFAULT_NOTES_EUR
            if eur * 100 % denomination_cents == 0}


def note_problems(notes: Mapping[str, int] | None, cents: int, validators: Mapping[int, int], seats: int,
                  note_max: Mapping[int, int], taken: Mapping[int, str]) -> list[tuple[tuple[Any, ...], str]]:
    """Problems with the notes and validators; ``taken``: addresses the other devices use -> which."""
    out: list[tuple[tuple[Any, ...], str]] = []
    for bill, points in (notes or {}).items():
        face = note_face_cents(bill)
        if face is None:
            out.append((("notes", bill), "not a ccTalk bill id (country, four digits of value, issue: EU0020A)"))
        elif points * cents != face:
            should = f"{face // cents} points" if face % cents == 0 else "no whole number of points"
            out.append((("notes", bill), f"{points} points x denomination_cents {cents} = {points * cents} cents, "
                        f"but {bill} is a {face} cent note: {should} at this denomination"))
    seen: dict[int, int] = {}
    for seat, addr in validators.items():
        if not 1 <= seat <= seats:
            out.append((("devices", "validators", seat), f"names seat {seat}, but the cabinet has {seats} seats"))
        if addr in seen:
            out.append((("devices", "validators", seat), f"seats {seen[addr]} and {seat} both use validator address {addr}"))
        elif addr in taken:
            out.append((("devices", "validators", seat), f"address {addr} is the {taken[addr]}'s"))
        seen.setdefault(addr, seat)
    for seat in note_max:
        if seat not in validators:
            out.append((("note_max", seat), f"seat {seat} has no bill validator"))
    return out
