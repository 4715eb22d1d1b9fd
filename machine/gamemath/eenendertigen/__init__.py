"""Eenendertigen's game math: the computer players' and Auto's strategy, the simulators.

Owns nothing itself; it offers what ``machine.gamemath.engines`` asks of every game's math, by
name: ``auto_action``, ``prepare`` and ``computer`` (``strategy``: one strategy for Auto and the
computer players), ``exact_rtp``, ``rtp_report``, ``rtp_lines`` (``report``: they refuse with one
line, the return depends on the computer players: ``HAS_EXACT_RTP`` is False and the figure is
simulated, ``SIMULATED_AS``), ``strategy_lines``, ``simulate`` and ``win_rate`` (``sim``: the
engine), ``fast_simulate`` (``fast``: the compiled path, numba; imported only when asked for)
and ``precompile``.
"""

from __future__ import annotations

from collections.abc import Callable

from machine.gamemath.eenendertigen.report import exact_rtp, rtp_lines, rtp_report, strategy_lines
from machine.gamemath.eenendertigen.sim import play_chunk, play_round, simulate, win_rate
from machine.gamemath.eenendertigen.strategy import auto_action, choose, computer, deck_of, draw_sum, prepare, value
from machine.gamemath.simulate import Tally
from machine.games.eenendertigen.rules import EenendertigenRules

__all__ = [
    "HAS_EXACT_RTP", "SIMULATED_AS", "auto_action", "choose", "computer", "deck_of", "draw_sum", "exact_rtp", "fast_simulate",
    "play_chunk", "play_round", "precompile", "prepare", "rtp_lines", "rtp_report", "simulate", "strategy_lines",
    "value", "win_rate",
]

HAS_EXACT_RTP = False  # cabinet simulate prints the simulated figure alone
SIMULATED_AS = "one seat (Auto, the minimum bet) in place 1 against three computer players"


def fast_simulate(
    rules: EenendertigenRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``cabinet simulate --fast``: ``simulate`` on the compiled path (numba, ``fast``): the same
    Tally, one seat as ``simulate`` plays, from numba's seeded decks."""
    try:
        from machine.gamemath.eenendertigen import fast
    except ImportError as exc:
        raise ValueError(f"the fast simulator needs numba: pip install 'cabinet[fast]' ({exc})") from None
    return fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress)


def precompile() -> None:
    """Compile (or load from numba's cache) the fast path's kernels: two rounds and a deck."""
    from machine.gamemath.eenendertigen import fast

    rules = EenendertigenRules()
    fast.fast_simulate(rules, 2, 1, 1)
    fast.play_decks(rules, fast.shuffled_decks(rules.variant, 1, 1))
