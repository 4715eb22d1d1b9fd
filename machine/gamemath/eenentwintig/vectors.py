"""Eenentwintig's exact analysis, its hot loop vectorised: the bank's outcomes for many shoes.

Owns: ``ARRAYS``, the vector operations of ``eenentwintig.exact.bank_pass`` on numpy arrays
(one array over the shoes per node): the same IEEE operations in the same order as on Python
lists, so the same figures to the last bit (the tests compare them) in a few hundredths of a
second instead of one to two seconds. numpy comes with the ``fast`` extra (numba's
dependency); it is a plain import (no compilation, a tenth of a second), which is why this pass
is not a numba kernel: loading one would cost a fresh process more than it saves. Imported
only by ``eenentwintig.exact`` when it needs the bank's outcomes; without numpy that import
fails and the lists are used. Never decides a value of the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from machine.gamemath.eenentwintig.lanes import Comp, Vectors


class Arrays(Vectors):
    """``Vectors`` on numpy arrays of floats."""

    def columns(self, decks: list[Comp]) -> list[Any]:
        return list(np.array(decks, dtype=np.float64).reshape(len(decks), -1).T.copy())

    def ones(self, k: int) -> Any:
        return np.ones(k)

    def zeros(self, k: int) -> Any:
        return np.zeros(k)

    def mul(self, a: Any, b: Any) -> Any:
        return a * b

    def add(self, a: Any, b: Any) -> Any:
        return a + b

    def div(self, a: Any, b: Any) -> Any:
        return a / b

    def minus(self, a: Any, n: float) -> Any:
        return np.maximum(a - n, 0.0)

    def shift(self, a: Any, n: float) -> Any:
        return a - n

    def positive_or_one(self, a: Any) -> Any:
        return np.where(a > 0, a, 1.0)

    def total(self, vectors: list[Any]) -> Any:
        return np.sum(vectors, axis=0)

    def rows(self, out: list[Any]) -> list[tuple[float, ...]]:
        return [tuple(row) for row in np.array(out).T.tolist()]


ARRAYS = Arrays()
