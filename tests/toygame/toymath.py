"""The toy game's math (the interface of ``machine/gamemath/engines.py``): Auto swaps a card
below an eight and stands otherwise; the return is not computed exactly."""

from __future__ import annotations

from typing import Any

from .rules import rank

HAS_EXACT_RTP = False


def auto_action(rnd: Any) -> str:
    d = rnd.pending
    seat = next(s for s in rnd.seats if s.number == d.seat)
    return "swap" if "swap" in d.options and rank(seat.card) < rank("8S") else "stand"


def prepare(rules: Any) -> None:
    """Auto needs no tables."""


def precompile() -> None:
    """No compiled kernels."""
