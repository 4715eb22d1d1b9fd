"""The seat's notice of a cashless transfer (SAS AFT): "€5.00 transferred in" for a few seconds.

Owns: the message ids of the notice and its field (the amount as ``Money``: each screen
writes it as its language writes money). Reads the core's ``aft_notice`` only; never journals, never draws.
"""

from __future__ import annotations

from typing import Any

from machine.i18n import N_, Money

IN, OUT = N_("{amount} transferred in"), N_("{amount} transferred out")


def notice(cab: Any, n: int, now: float, cents_per_point: int) -> tuple[str, dict[str, object]] | None:
    """The message and fields of seat ``n``'s transfer of the last seconds, or None (also while
    the host holds the seat locked for the next one: its screen says to wait)."""
    if cab.seats[n].aft_locked:
        return None
    shown = cab.aft_notice(n, now)
    if shown is None:
        return None
    to_seat, points = shown
    return (IN if to_seat else OUT), {"amount": Money(points, cents_per_point)}
