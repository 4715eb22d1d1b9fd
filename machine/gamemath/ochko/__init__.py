"""Ochko's game math: Auto, the exact return and bet rule, the chart, the simulators.

Owns nothing itself; it offers what ``machine.gamemath.engines`` asks of every game's math, by
name: ``auto_action``, ``prepare``, ``exact_rtp`` (``exact``: the composition-dependent
recursion), ``rtp_report``, ``rtp_lines``, ``strategy_lines``, ``bet_rule_rtp`` (``report``: the
bet rule and the chart), ``simulate`` (``sim``: the engine, Auto deciding), ``fast_simulate``
(``fast``: the compiled path, numba; imported only when asked for, one clear line when numba is
missing), ``HAS_EXACT_RTP``, ``precompile`` and ``forget``.
"""

from __future__ import annotations

from collections.abc import Callable

from machine.gamemath.ochko.exact import auto_action, exact_rtp, prepare
from machine.gamemath.ochko.report import bet_rule_rtp, rtp_lines, rtp_report, strategy_lines
from machine.gamemath.ochko.sim import simulate
from machine.gamemath.simulate import Tally
from machine.games.ochko.rules import OchkoRules

__all__ = [
    "HAS_EXACT_RTP", "auto_action", "bet_rule_rtp", "exact_rtp", "fast_simulate", "forget", "precompile", "prepare",
    "rtp_lines", "rtp_report", "simulate", "strategy_lines",
]

HAS_EXACT_RTP = True
BENCH_WARM_UP = {"decks": 2}  # rules of no profile: cabinet bench exact's warm-up


class FastPathMissing(ValueError):
    """The compiled path was asked for without numba installed (one line for the command)."""


def fast_simulate(
    rules: OchkoRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``simulate`` on the compiled fast path (numba): the same Tally, Auto's play, minimum stakes."""
    try:
        from machine.gamemath.ochko import fast
    except ImportError as exc:
        raise FastPathMissing(f"--fast needs numba: pip install 'cabinet[fast]' ({exc})") from None
    return fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress)


def precompile() -> None:
    """Compile (or load from numba's cache) the fast path's kernels: two rounds and a shoe."""
    from machine.gamemath.ochko import fast

    rules = OchkoRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_shoes(rules, fast.shuffled_shoes(rules, 1, 1), 1, rules.min_bet * 100)


def forget() -> None:
    """Clear what this process remembers of the exact analysis (for a benchmark from nothing)."""
    from machine.gamemath.ochko import exact

    exact.analysis.cache_clear()
