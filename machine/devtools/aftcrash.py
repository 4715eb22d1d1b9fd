"""Cashless transfers in the crash test: the host's AFT transfers among the scripted inputs.

Owns: where transfers go into a script (``with_aft``: after about one step in twelve, to or from
a seat, some of them a host's repeat of an earlier transaction id, which must change nothing),
how one is applied (``apply_aft``: the core's ``aft_transfer`` with fixed limits and date, so an
interrupted run and an uninterrupted one do the same) and the start's ``resume`` (a transfer a
kill left journaled as pending is finished). Its own random stream: the rest of the script is
what it was without transfers. Never compares results: the crash test does.
"""

from __future__ import annotations

import random
from typing import Any

from machine.core.aft import AftLimits

LIMITS = AftLimits(transfer_in=500, daily_in=100_000, transfer_out=500)
WHEN = "2026-01-01T12:00:00"  # the cabinet's date of every transfer (the same in every run)


def with_aft(script: list[tuple[Any, ...]], seed: int, seats: int) -> list[tuple[Any, ...]]:
    """``script`` with AFT steps ``("aft", seat, (id, to_seat, points, partial), time)`` added."""
    rng = random.Random(seed * 31 + 0xAF7)
    out: list[tuple[Any, ...]] = []
    done: list[tuple[int, tuple[str, bool, int, bool]]] = []
    for i, step in enumerate(script):
        out.append(step)
        if rng.random() >= 1 / 12:
            continue
        if done and rng.random() < 0.25:
            seat, arg = rng.choice(done)  # the host repeats an earlier transfer: its first result
        else:
            to_seat = rng.random() < 0.6
            seat, arg = rng.randint(1, seats), (f"T{seed % 10000}-{i}", to_seat, rng.choice((10, 30, 120)),
                                               not to_seat and rng.random() < 0.5)
            done.append((seat, arg))
        out.append(("aft", seat, arg, step[3]))
    return out


def apply_aft(cab: Any, seat: int, arg: tuple[str, bool, int, bool], now: float) -> None:
    tid, to_seat, points, partial = arg
    cab.aft_transfer(seat, tid, to_seat, points, partial, LIMITS, now, WHEN)


def resume(cab: Any) -> None:
    """At start: each seat's transfer a kill left pending, finished."""
    for n in cab.seats:
        cab.aft_resume(n, 0.0)
