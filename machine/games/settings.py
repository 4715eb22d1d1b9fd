"""The parsers of rule settings, shared by every game's settings class.

Owns: turning a setting as a profile or a script writes it (YAML/JSON plain data) into its typed
value, or refusing it with the reason: true/false, a whole number in a range, an optional value,
a payout ratio (1.5 or odds 3:2) and how a profile writes one back, one of a list of words; and
the parsers of the table limits every game has (``TABLE_PARSERS``). Each parser returns the
typed value or raises ``ValueError`` with the reason; ``TableRules.with_overrides`` names the
setting. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any


def boolean(v: object) -> bool:
    """true or false, nothing else (YAML's ``yes`` is refused by the loader already)."""
    if not isinstance(v, bool):
        raise ValueError(f"must be true or false, not {v!r}")
    return v


def int_range(lo: int, hi: int | None) -> Callable[[object], int]:
    """A parser of a whole number from ``lo`` to ``hi`` (None: no upper bound)."""

    def parse(v: object) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ValueError(f"must be a whole number, not {v!r}")
        if v < lo or (hi is not None and v > hi):
            raise ValueError(f"must be {lo} to {hi}, not {v}" if hi is not None else f"must be at least {lo}, not {v}")
        return v

    return parse


def optional(parse: Callable[[object], Any]) -> Callable[[object], Any]:
    """``parse``, with null standing for None (no limit)."""

    def inner(v: object) -> Any:
        return None if v is None else parse(v)

    return inner


def ratio(v: object) -> Fraction:
    """A payout written as a number (1.5) or as odds ("3:2", "6:5")."""
    if isinstance(v, bool):
        raise ValueError(f"must be a number like 1.5 or odds like 3:2, not {v!r}")
    try:
        if isinstance(v, str) and ":" in v:
            a, b = v.split(":")
            r = Fraction(int(a), int(b))
        elif isinstance(v, (int, float, str)):
            r = Fraction(str(v))
        else:
            raise ValueError
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"must be a number like 1.5 or odds like 3:2, not {v!r}") from None
    if r < 0:
        raise ValueError(f"must not be negative, not {v!r}")
    return r


def ratio_text(r: Fraction) -> int | float | str:
    """A payout as a profile writes it: 2, 1.5, or "1:3" when no short decimal is exact."""
    if r.denominator == 1:
        return int(r)
    if Fraction(str(float(r))) == r:
        return float(r)
    return f"{r.numerator}:{r.denominator}"


def choice(options: tuple[str, ...]) -> Callable[[object], str]:
    """A parser of one of ``options``."""

    def parse(v: object) -> str:
        if v not in options:
            raise ValueError(f"must be one of {', '.join(options)}, not {v!r}")
        return str(v)

    return parse


# the settings every game shares, for each game's parser table
TABLE_PARSERS: dict[str, Callable[[object], Any]] = {
    "min_bet": int_range(1, None),
    "max_bet": int_range(1, None),
    "bet_step": int_range(1, None),
}
