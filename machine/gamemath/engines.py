"""Which game math serves which game engine: Auto, the exact return, the chart, the simulators.

Owns: the questions every layer asks of a game's math, answered through the one registry of
games (``machine.games.catalog``: ``engine(name).module("math")``); it keeps no list of games
and tests no engine's name. The math package of every engine (``machine.gamemath.<game>``)
offers the same things under the same names:

* ``auto_action(round) -> str`` — Auto's answer to the decision the round waits on;
* ``prepare(rules)`` — compute Auto's tables now, so no decision waits (with
  ``PREPARE_PROGRESS`` true: ``prepare(rules, progress, workers)``, following its own progress);
* ``exact_rtp(rules) -> float`` — the exact return at a flat bet with Auto's play (where
  ``HAS_EXACT_RTP`` is false, a ``ValueError`` saying why: the figure is simulated);
* ``rtp_report(profile) -> dict`` — ``cabinet rtp --json`` (``game``, ``rules``, ``rtp``,
  ``house_edge`` at a flat bet, and the game's own keys); ``rtp_lines(profile)`` its text;
* ``strategy_lines(profile) -> list[str]`` — ``cabinet strategy``;
* ``simulate(rules, rounds, seats, seed, workers, progress, cluster=None)`` (``cluster``: a
  ``machine.gamemath.cluster.Cluster`` whose workers play the chunks) and
  ``fast_simulate(rules, rounds, seed, workers, seats, progress)`` — a ``Tally`` (``rtp``,
  ``half_width``, ``rounds``) from the engine and from the compiled fast path;
* ``HAS_EXACT_RTP`` — whether ``exact_rtp`` is defined;
* ``precompile()`` — compile or load its numba kernels (a no-op where it has none).

And where a game has them: ``bet_rule_rtp(rules)`` (the return of the best bet rule, where the
bet may follow the cards), ``forget()`` (clear what the process remembers of its analysis),
``PRECOMPILE_STEPS`` (``precompile``'s steps by name), ``SIMULATED_AS`` (what the simulated
figure of a game without an exact return plays), ``BENCH_WARM_UP`` (rules of no profile that
``cabinet bench exact`` prices first).

Each module is imported only when its game is asked for (numba and the tables are heavy).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from machine.gamemath import tablecache
from machine.games import catalog


def math_of(engine: str) -> ModuleType:
    """The math package of a game engine (the registry's ``math`` module of that engine); a
    ``ValueError`` for an engine the registry does not know."""
    try:
        found = catalog.engine(engine)
    except catalog.RulesError:
        raise ValueError(f"no game math for engine {engine!r}") from None
    return found.module("math")


def auto_for(engine: str) -> Callable[[Any], str]:
    """Auto's strategy for a game engine."""
    auto: Callable[[Any], str] = math_of(engine).auto_action
    return auto


def prepare(profile: Any, progress: Callable[[int, int], None] | None = None, workers: int | None = None) -> None:
    """Compute Auto's tables for a profile now (a second or two a game; a moment when the cache
    folder has them). ``progress(done, of)`` follows a long computation where the engine can
    tell (``PREPARE_PROGRESS``: blackjack, per up card); an engine that cannot reports (0, 1)
    and (1, 1). ``workers``: the threads it may use (where it can; default one per core)."""
    math = math_of(profile.engine)
    if getattr(math, "PREPARE_PROGRESS", False):
        math.prepare(profile.rules, progress, workers)
        return
    if progress:
        progress(0, 1)
    math.prepare(profile.rules)
    if progress:
        progress(1, 1)


def has_exact_rtp(engine: str) -> bool:
    """Whether ``engine``'s game has an exact return (eenendertigen's depends on the computer
    players: it is simulated)."""
    return bool(getattr(math_of(engine), "HAS_EXACT_RTP", True))


SIMULATED_ROUNDS = 400_000  # a game without an exact return: config check's figure (95 %: +/- 0.5 %)


def returns(profile: Any) -> tuple[float, float | None]:
    """The exact return at a flat bet with Auto's play, and where the bet may follow the cards,
    the return of the best bet rule (None where it may not).

    Remembered in a small file in the cache folder (``tablecache.cache_dir``), keyed by a digest
    of the engine, the rules, the simulated rounds and the games' and the game math's source: a
    changed program or rule computes afresh; a file that cannot be read is ignored.
    ``config check``'s advice and ``cabinet simulate``'s exact figure read it, never play."""
    key = _returns_key(profile)
    cached = _read_returns(key)
    if cached is not None:
        return cached
    if has_exact_rtp(profile.engine):
        got = exact_returns(profile)
    else:  # the return depends on the computer players: simulated, a fixed seed
        from machine.gamemath.precompile import first_use

        first_use(profile.engine)  # a first use compiles the fast path here, saying so
        got = (math_of(profile.engine).fast_simulate(profile.rules, SIMULATED_ROUNDS, seed=1).rtp, None)
    _write_returns(key, got)
    return got


def exact_returns(profile: Any) -> tuple[float, float | None]:
    """``returns`` of a game with an exact return, computed now (nothing read or remembered)."""
    math = math_of(profile.engine)
    bet_rule = getattr(math, "bet_rule_rtp", None)
    return float(math.exact_rtp(profile.rules)), (float(bet_rule(profile.rules)) if bet_rule else None)


def cached_returns(profile: Any) -> tuple[float, float | None] | None:
    """``returns(profile)`` when the cache folder holds it, else None (nothing is computed)."""
    return _read_returns(_returns_key(profile))


def _cache_file() -> Path:
    return tablecache.cache_dir() / "returns.json"


def _returns_key(profile: Any) -> str:
    return tablecache.rules_key(profile.engine, profile.rules.to_dict(), SIMULATED_ROUNDS)


def _read_returns(key: str) -> tuple[float, float | None] | None:
    try:
        entry = json.loads(_cache_file().read_text()).get(key)
        flat, rule = entry
        if isinstance(flat, float) and (rule is None or isinstance(rule, float)):
            return flat, rule
    except (OSError, ValueError, TypeError, AttributeError):
        pass
    return None


def _write_returns(key: str, value: tuple[float, float | None]) -> None:
    path = _cache_file()
    try:
        try:
            data = json.loads(path.read_text())
            data = data if isinstance(data, dict) else {}
        except (OSError, ValueError):
            data = {}
        data[key] = list(value)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only home: the figures are computed again next time
