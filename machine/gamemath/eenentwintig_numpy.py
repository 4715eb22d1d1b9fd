"""Eenentwintig's exact analysis, its hot loop vectorised: the bank's outcomes for many shoes.

Owns: ``bank_batch``, the numpy form of ``eenentwintig_exact.bank_batch_python``: the same
pass down the bank's tree with one array over the shoes per node, doing the same IEEE
operations in the same order, so the same figures to the last bit (the tests compare them) in a
few hundredths of a second instead of one to two seconds. numpy comes with the ``fast`` extra
(numba's dependency); it is a plain import (no compilation, a tenth of a second), which is why
this pass is not a numba kernel: loading one would cost a fresh process more than it saves.
Imported only by ``eenentwintig_exact`` when it needs the bank's outcomes; without numpy that
import fails and the pure-Python pass is used. Never decides a value of the game.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from machine.gamemath.eenentwintig_exact import Comp, Plan, Tree


def bank_batch(tree: Tree, plan: Plan, decks: list[Comp], infinite: bool, outcomes: int) -> list[tuple[float, ...]]:
    """One row of ``outcomes`` probabilities per shoe of ``decks`` (see ``bank_batch_python``
    for the sums: ordered draw counts down the tree, divided once per group)."""
    groups, feeds = plan
    k = len(decks)
    shoes = np.array(decks, dtype=np.float64).reshape(k, -1).T.copy()  # per value index, its count per shoe
    totals = shoes.sum(axis=0)
    avail: dict[tuple[int, int], Any] = {}

    def left(i: int, held: int) -> Any:
        got = avail.get((i, held))
        if got is None:
            got = avail[(i, held)] = shoes[i] if infinite else np.maximum(shoes[i] - held, 0.0)
        return got

    weight: list[Any] = [None] * len(tree)
    weight[0] = np.ones(k)
    acc: list[Any] = [None] * len(groups)
    for node, (_n, edges, _ends) in enumerate(tree):
        w = weight[node]
        if w is None:
            continue
        weight[node] = None
        for i, child, held in edges:
            q = w * left(i, held)
            have = weight[child]
            weight[child] = q if have is None else have + q
        for g in feeds[node]:  # no array is changed in place: sharing w is safe
            have = acc[g]
            acc[g] = w if have is None else have + w
    levels = 1 + max(n for _o, n, _d in groups) if groups else 0
    denominators = [totals]
    for n in range(1, levels):
        denominators.append(denominators[-1] * (totals if infinite else totals - n))
    denominators = [np.where(d > 0, d, 1.0) for d in denominators]
    sums: dict[tuple[tuple[int, int], ...], Any] = {}
    out = np.zeros((outcomes, k))
    for (o, n, draws), a in zip(groups, acc, strict=True):
        if a is None:
            continue
        s = sums.get(draws)
        if s is None:
            s = sums[draws] = sum(left(i, held) for i, held in draws)
        out[o] = out[o] + a * s / denominators[n]
    return [tuple(row) for row in out.T.tolist()]
