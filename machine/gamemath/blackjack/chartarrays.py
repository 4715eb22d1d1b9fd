"""A chart's sums over every hand at once, from a compiled table's arrays (``exact_fast``).

Owns: the chance of being dealt each hand of a compiled table against its up card
(``deal_weights``), the stand and hit sums of the rows for three cards or more
(``multi_sums``) and whether a chart's column hits each hand (``chart_hits``). Each figure is
made with the arithmetic of ``chart``'s loop over the hands, operation for operation and in the
same order (the weights from exact integers, the sums added hand after hand), so the chart is
the same bits either way. Never imported without numpy: ``chart`` asks only for a compiled
table.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from machine.gamemath.blackjack.exact_layout import CARDS, TOTAL
from machine.gamemath.blackjack.shoe import ZERO, Shoe

if TYPE_CHECKING:
    from machine.gamemath.blackjack.exact_fast import FastPlay, FastTable

VALUES = np.arange(1, 11, dtype=np.int64)


def deal_weights(shoe: Shoe, up: int, C: np.ndarray) -> np.ndarray:
    """The chance of being dealt each composition (row of ``C``) against ``up``, any order:
    ``chart``'s per-hand weight, the integers exact (Python's) and rounded once, as there."""
    n = C.sum(axis=1)
    if shoe.infinite:
        # multinomial(hand) = prod_i comb(c_1 + ... + c_i, c_i), then times q_i ** c_i value by value
        top = int(n.max())
        binom = np.array([[comb(a, b) for b in range(top + 1)] for a in range(top + 1)], dtype=object)
        cum = np.cumsum(C, axis=1)
        mult = np.ones(len(C), dtype=object)
        for i in range(10):
            mult = mult * binom[cum[:, i], C[:, i]]
        w = np.array([float(m) for m in mult], np.float64)
        q = shoe.next_probs(ZERO)
        for i in range(10):
            w = w * np.array([q[i] ** c for c in range(int(C[:, i].max()) + 1)], np.float64)[C[:, i]]
        return w
    left = list(shoe.full)
    left[up - 1] -= 1
    num = np.ones(len(C), dtype=object)
    for i in range(10):
        num = num * np.array([comb(left[i], c) for c in range(int(C[:, i].max()) + 1)], dtype=object)[C[:, i]]
    total = sum(left)
    den = np.array([comb(total, k) for k in range(int(n.max()) + 1)], dtype=object)[n]
    return np.array([a / b for a, b in zip(num.tolist(), den.tolist(), strict=True)], np.float64)


def softness(ft: FastTable) -> np.ndarray:
    """Whether each hand of ``ft`` is soft (an ace counted 11)."""
    return ft.H[:, TOTAL] != ft.C @ VALUES


def multi_sums(shoe: Shoe, up: int, play: FastPlay) -> dict[tuple[int, bool], dict[str, float]]:
    """By (total, soft), the sums over every hand of three cards or more below 21 of its deal
    weight times its value standing, and times its value hitting (as a split hand), with
    ``play`` (the optimal play, every value known)."""
    ft = play.ft
    total = ft.H[:, TOTAL]
    rows = np.flatnonzero((ft.H[:, CARDS] >= 3) & (total < 21))
    if not len(rows):
        return {}
    assert play.stand0 is not None
    stand = play.stand0[rows]
    hit = play.hit_[rows, 1]
    for j in np.flatnonzero(hit != hit):  # not known yet (NaN): asked one by one
        hit[j] = play.hit(ft.hands[rows[j]], True)
    w = deal_weights(shoe, up, ft.C[rows])
    keys = total[rows] * 2 + softness(ft)[rows]
    size = 2 * 22
    # bincount adds its weights in order, each to its own bin: the loop's sums, term by term
    counts = np.bincount(keys, minlength=size)
    stands = np.bincount(keys, weights=w * stand, minlength=size)
    hits = np.bincount(keys, weights=w * hit, minlength=size)
    return {
        (k // 2, bool(k % 2)): {"stand": float(stands[k]), "hit": float(hits[k])}
        for k in np.flatnonzero(counts).tolist()
    }


def chart_hits(ft: FastTable, rows: tuple[dict[int, str], ...], hits: Callable[[str], bool]) -> np.ndarray:
    """Whether a chart's column hits each hand of ``ft``, as a split hand or not (the same):
    ``rows`` is the column's codes by total (hard, soft, then hard and soft for three cards or
    more), ``hits(code)`` whether a code hits when the choice is to stand or hit."""
    table = np.full((2, 2, 22), -1, np.int8)  # [three cards or more][soft][total]
    for (multi, soft), row in zip(((0, 0), (0, 1), (1, 0), (1, 1)), rows, strict=True):
        for t, code in row.items():
            table[multi, soft, t] = hits(code)
    out = table[(ft.H[:, CARDS] >= 3).astype(np.int64), softness(ft).astype(np.int64), ft.H[:, TOTAL]]
    if (out < 0).any():
        raise KeyError(f"a hand of total {int(ft.H[np.argmax(out < 0), TOTAL])} has no row in the chart")
    return np.repeat(out.astype(np.bool_)[:, None], 2, axis=1)
