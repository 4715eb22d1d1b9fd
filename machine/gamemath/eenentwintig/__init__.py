"""Eenentwintig's game math: Auto, the exact return and the bet rule, the chart, the simulators.

Owns nothing itself; it offers what ``machine.gamemath.engines`` asks of every game's math, by
name: ``auto_action``, ``prepare``, ``exact_rtp`` (``auto``: Auto's values of ``exact``, the
exact analysis, vectorised by ``vectors`` where numpy is installed), ``rtp_report``,
``rtp_lines``, ``strategy_lines``, ``bet_rule_rtp`` (``report``), ``simulate`` (``sim``: the
engine, Auto deciding), ``fast_simulate`` (``fast``: the compiled path, numba; imported only when
asked for, one clear line when numba is missing), ``HAS_EXACT_RTP``, ``precompile`` and
``forget``.
"""

from __future__ import annotations

from collections.abc import Callable

from machine.gamemath.eenentwintig.auto import (
    ORDER,
    analysis,
    auto_action,
    best_of,
    exact_rtp,
    option_values,
    prepare,
    seen_by,
)
from machine.gamemath.eenentwintig.report import bet_rule, bet_rule_rtp, first_decisions, rtp_lines, rtp_report, strategy_lines
from machine.gamemath.eenentwintig.sim import play_chunk, simulate
from machine.gamemath.simulate import Tally
from machine.games.eenentwintig.rules import EenentwintigRules

__all__ = [
    "HAS_EXACT_RTP", "ORDER", "analysis", "auto_action", "best_of", "bet_rule", "bet_rule_rtp", "exact_rtp",
    "fast_simulate", "first_decisions", "forget", "option_values", "play_chunk", "precompile", "prepare", "rtp_lines",
    "rtp_report", "seen_by", "simulate", "strategy_lines",
]

HAS_EXACT_RTP = True
BENCH_WARM_UP = {"decks": 1}  # rules of no profile: cabinet bench exact's warm-up


def fast_simulate(
    rules: EenentwintigRules, rounds: int, seed: int = 1, workers: int | None = None, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``cabinet simulate --fast``: the compiled fast path (numba), the same Tally."""
    try:
        from machine.gamemath.eenentwintig import fast
    except ImportError as exc:
        raise ValueError(f"the fast simulator needs numba: pip install 'cabinet[fast]' ({exc})") from None
    return fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress)


def precompile() -> None:
    """Compile (or load from numba's cache) the fast path's kernels: two rounds and a shoe."""
    from machine.gamemath.eenentwintig import fast

    rules = EenentwintigRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_shoes(rules, fast.shuffled_shoes(rules, 1, 1))


def forget() -> None:
    """Clear what this process remembers of the exact analysis (for a benchmark from nothing)."""
    from machine.gamemath.eenentwintig import auto, exact

    for cached in (auto.analysis, exact.exact, exact.bank_tree, exact.bank_plan, exact.facts):
        cached.cache_clear()
