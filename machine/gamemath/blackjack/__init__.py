"""Blackjack's game math: the exact analysis of the blackjack family's rules, Auto and the chart.

Owns nothing itself; it offers what ``machine.gamemath.engines`` asks of every game's math, by
name: ``auto_action``, ``prepare`` (with a progress per up card and threads:
``PREPARE_PROGRESS``), ``exact_rtp``, ``rtp_report`` / ``rtp_lines`` / ``strategy_lines``
(``report``, imported when first called), ``simulate`` (``simulate``: the engine, Auto
deciding), ``fast_simulate`` (``fast``: the compiled path, numba; imported only when asked for),
``HAS_EXACT_RTP``, ``precompile`` (its two steps: ``PRECOMPILE_STEPS``, the cabinet's
``CABINET_STEPS``) and ``forget``; beside
them the analysis's own API:

* ``game_rtp(rules) -> GameReturn``: exact RTP and house edge of one seat playing Auto's
  strategy, with a breakdown (``game``);
* ``action_values`` / ``best_action`` / ``insurance_value`` / ``first_choice``: the expected
  value of every choice on a hand and the best one (``auto``);
* ``basic_strategy(rules) -> Chart`` / ``chart_rtp``: the total-dependent chart and the exact
  return of playing it (``chart``).

Inside: ``shoe`` (compositions and the shoe), ``dealer`` (the dealer's outcomes for thousands
of compositions in one batch), ``table`` (stand, hit and double values per up card), ``split``
(splits, resplits and the joint limit), ``exact_fast`` (the same tables and plays compiled,
when numba is installed: what ``table`` uses then), ``fast`` and ``fastkernel`` (the compiled
simulator). Never changes a round and never writes a rule (``machine.games.blackjack.scoring``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from machine.gamemath.blackjack.auto import action_values, auto_action, best_action, first_choice, insurance_value, prepare
from machine.gamemath.blackjack.chart import Chart, basic_strategy, chart_rtp
from machine.gamemath.blackjack.game import Analysis, GameReturn, analysis, game_rtp
from machine.gamemath.blackjack.simulate import simulate
from machine.games.blackjack.rules import Rules

if TYPE_CHECKING:
    from machine.gamemath.cluster import Cluster
    from machine.gamemath.simulate import Tally

__all__ = [
    "HAS_EXACT_RTP",
    "CABINET_STEPS",
    "PRECOMPILE_STEPS",
    "PREPARE_PROGRESS",
    "Analysis",
    "Chart",
    "GameReturn",
    "action_values",
    "analysis",
    "auto_action",
    "basic_strategy",
    "best_action",
    "chart_rtp",
    "exact_rtp",
    "fast_simulate",
    "first_choice",
    "forget",
    "game_rtp",
    "insurance_value",
    "precompile",
    "prepare",
    "rtp_lines",
    "rtp_report",
    "simulate",
    "strategy_lines",
]

HAS_EXACT_RTP = True
PREPARE_PROGRESS = True  # prepare(rules, progress, workers) follows its up cards and uses threads
FAST_PATH_TABLES = True  # the fast path keeps Auto's answers of its own: simulate --fast prepares no tables first
BENCH_WARM_UP = {"decks": 1}  # rules of no profile: cabinet bench exact's warm-up


def exact_rtp(rules: Rules) -> float:
    """The exact return at a flat bet with Auto's play."""
    return game_rtp(rules).rtp


def _report() -> Any:
    """Blackjack's report module (``cabinet rtp`` and ``cabinet strategy``), imported now."""
    return importlib.import_module("machine.gamemath.blackjack.report")


def rtp_report(profile: Any) -> dict[str, Any]:
    """``cabinet rtp --json`` (``report``)."""
    out: dict[str, Any] = _report().rtp_report(profile)
    return out


def rtp_lines(profile: Any) -> list[str]:
    """``cabinet rtp`` as text (``report``)."""
    out: list[str] = _report().rtp_lines(profile)
    return out


def strategy_lines(profile: Any) -> list[str]:
    """``cabinet strategy``: the basic-strategy chart and its return (``report``)."""
    out: list[str] = _report().strategy_lines(profile)
    return out


def fast_simulate(
    rules: Rules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None, cluster: Cluster | None = None,
) -> Tally:
    """``simulate`` on the compiled fast path (``fast``, numba): the same Tally, Auto's play."""
    from machine.gamemath.blackjack import fast

    return fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress, cluster=cluster)


def precompile_exact() -> None:
    """Compile (or load) the exact analysis's kernels: one analysis of the casino profile (numba's
    jit, cached), then their ahead-of-time module unless it is built from the current source
    (``exact_aot``: what a process such as ``cabinet rtp`` loads without importing numba)."""
    import sys

    from machine.gamemath.blackjack import exact_aot
    from machine.profiles import load_profile

    Analysis(load_profile("casino-blackjack").rules).compute_all(1)
    exact_aot.build(lambda line: print(f"  {line}", file=sys.stderr, flush=True))


def precompile_fast() -> None:
    """Compile (or load) the simulator's, the check's and the table walk's kernels."""
    from machine.gamemath.blackjack import fast

    fast.ensure_compiled()


PRECOMPILE_STEPS: dict[str, Callable[[], None]] = {"blackjack exact": precompile_exact, "blackjack": precompile_fast}
"""``precompile``'s steps by the name ``python -m machine.gamemath.precompile`` prints."""

CABINET_STEPS = ("blackjack exact",)
"""The steps the cabinet's own start needs (Auto's tables: the exact analysis), compiled by the
set-up before the first window; the simulator's compile on first use (or in the background)."""


def precompile() -> None:
    """Compile (or load from numba's cache) every kernel of blackjack's math."""
    for step in PRECOMPILE_STEPS.values():
        step()


def forget() -> None:
    """Clear what this process remembers of the exact analysis (the tables on disk are the
    caller's: an empty ``CABINET_CACHE_DIR``), for a benchmark that times from nothing."""
    from machine.gamemath.blackjack import dealer, game, shoe, table

    for cached in (game.analysis, dealer.terminals, dealer.trie, table.pay_rows, table.children, shoe.score):
        cached.cache_clear()
    try:
        from machine.gamemath.blackjack import exact_fast
    except ImportError:
        return
    exact_fast.forget()
