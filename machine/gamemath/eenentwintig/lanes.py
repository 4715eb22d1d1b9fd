"""The lanes of eenentwintig's bank pass: the operations it does on a vector over many shoes.

Owns: ``Comp`` (a composition: counts of the values of ``scoring.VALUES``) and ``Vectors``, the
element-by-element operations ``exact.bank_pass`` does, on Python lists (``LISTS``); the numpy
lanes (``vectors.ARRAYS``) are the same operations on arrays. Knows no rule of the game.
"""

from __future__ import annotations

from operator import add, mul, truediv
from typing import Any

Comp = tuple[int, ...]
"""Counts of the values of ``scoring.VALUES`` (ace, J, Q, K, 7, 8, 9, 10)."""


class Vectors:
    """The operations ``bank_pass`` does on a vector over the shoes, element by element."""

    def columns(self, decks: list[Comp]) -> list[Any]:
        """Per value index, its count in each shoe."""
        return [list(c) for c in zip(*decks)]

    def ones(self, k: int) -> Any:
        return [1.0] * k

    def mul(self, a: Any, b: Any) -> Any:
        return list(map(mul, a, b))

    def add(self, a: Any, b: Any) -> Any:
        return list(map(add, a, b))

    def div(self, a: Any, b: Any) -> Any:
        return list(map(truediv, a, b))

    def minus(self, a: Any, n: float) -> Any:
        """``a - n``, and 0 where that is below 0."""
        return [x - n if x > n else 0 for x in a]

    def shift(self, a: Any, n: float) -> Any:
        """``a - n``."""
        return [x - n for x in a]

    def zeros(self, k: int) -> Any:
        return [0.0] * k

    def positive_or_one(self, a: Any) -> Any:
        return [x if x > 0 else 1.0 for x in a]

    def total(self, vectors: list[Any]) -> Any:
        return [sum(x) for x in zip(*vectors)]

    def rows(self, out: list[Any]) -> list[tuple[float, ...]]:
        return list(zip(*out))


LISTS = Vectors()
