"""Eenentwintig's exact analysis, its hot loop compiled: the bank's outcomes for many shoes.

Owns: the numba kernel of ``eenentwintig_exact.bank_batch`` (the same sums, in the same order,
as ``bank_batch_python``: the tests compare them) and the flat arrays it reads, made once per
bank tree. Imported only by ``eenentwintig_exact`` when it needs the bank's outcomes, and only
when numba (the ``fast`` extra) is installed: importing it without numba raises ImportError, and
the pure-Python pass is used. Never decides a value of the game: ``eenentwintig_exact`` does.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
from numba import njit

from machine.gamemath.eenentwintig_exact import Comp, Plan, Tree


@lru_cache(maxsize=4)
def arrays(tree: Tree, plan: Plan) -> tuple[Any, ...]:
    """The tree and its plan as int64 arrays: per node its level, its edges (value index,
    child, cards of that value it holds) and the groups it feeds; per group its outcome, level
    and draws (value index, cards of it held)."""
    groups, feeds = plan
    level = np.array([n for n, _e, _d in tree], dtype=np.int64)
    edge_start = np.cumsum([0] + [len(e) for _n, e, _d in tree]).astype(np.int64)
    edges = np.array([x for _n, e, _d in tree for x in e] or [(0, 0, 0)], dtype=np.int64).reshape(-1, 3)
    feed_start = np.cumsum([0] + [len(f) for f in feeds]).astype(np.int64)
    feed = np.array([g for f in feeds for g in f] or [0], dtype=np.int64)
    group = np.array([(o, n) for o, n, _d in groups] or [(0, 0)], dtype=np.int64).reshape(-1, 2)
    draw_start = np.cumsum([0] + [len(d) for _o, _n, d in groups]).astype(np.int64)
    draws = np.array([x for _o, _n, d in groups for x in d] or [(0, 0)], dtype=np.int64).reshape(-1, 2)
    return level, edge_start, edges, feed_start, feed, group, draw_start, draws


@njit(cache=True)
def _bank(shoes, infinite, outcomes, level, edge_start, edges, feed_start, feed, group, draw_start, draws):  # pragma: no cover
    k = shoes.shape[0]
    nodes = level.shape[0]
    ngroups = draw_start.shape[0] - 1
    levels = 0
    for g in range(ngroups):
        if group[g, 1] + 1 > levels:
            levels = group[g, 1] + 1
    out = np.zeros((k, outcomes))
    weight = np.zeros(nodes)
    acc = np.zeros(ngroups)
    den = np.zeros(max(levels, 1))
    for s in range(k):
        weight[:] = 0.0
        acc[:] = 0.0
        weight[0] = 1.0
        total = 0.0
        for i in range(shoes.shape[1]):
            total += shoes[s, i]
        for node in range(nodes):
            w = weight[node]
            if w == 0.0:
                continue
            for e in range(edge_start[node], edge_start[node + 1]):
                c = shoes[s, edges[e, 0]]
                if not infinite:
                    c = c - edges[e, 2] if c > edges[e, 2] else 0
                weight[edges[e, 1]] += w * c
            for f in range(feed_start[node], feed_start[node + 1]):
                acc[feed[f]] += w
        d = total
        for n in range(levels):
            if n > 0:
                d = d * (total if infinite else total - n)
            den[n] = d
        for n in range(levels):
            if not den[n] > 0:
                den[n] = 1.0
        for g in range(ngroups):
            a = acc[g]
            if a == 0.0:
                continue
            left = 0
            for x in range(draw_start[g], draw_start[g + 1]):
                c = shoes[s, draws[x, 0]]
                if not infinite:
                    c = c - draws[x, 1] if c > draws[x, 1] else 0
                left += c
            out[s, group[g, 0]] += a * left / den[group[g, 1]]
    return out


def bank_batch(tree: Tree, plan: Plan, decks: list[Comp], infinite: bool, outcomes: int) -> list[tuple[float, ...]]:
    """``eenentwintig_exact.bank_batch``, compiled: one row of ``outcomes`` probabilities per shoe."""
    shoes = np.array(decks, dtype=np.int64).reshape(len(decks), -1)
    out = _bank(shoes, infinite, outcomes, *arrays(tree, plan))
    return [tuple(row) for row in out.tolist()]
