"""The game commands: ``round``, ``session``, ``rtp``, ``strategy``, ``simulate``.

Owns: reading their scripts, choosing Auto for the script's game, and printing what the game
and its math answer. The playing lives in ``machine/scripts``, the figures and the reports in
the game math. Never computes a figure itself.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
from typing import Any

from machine.cli.common import CommandError, left_to_exit, pct, read_script
from machine.progress import working


def round_command(args: argparse.Namespace) -> int:
    from machine.scripts.roundscript import run_round_script

    script = read_script(args.script)
    result = run_round_script(script, auto=auto_strategy(script))
    print(json.dumps(result, indent=2))
    return 0


def session_command(args: argparse.Namespace) -> int:
    from machine.scripts.session import run_session_script

    script = read_script(args.script)
    result = run_session_script(script, auto=auto_strategy(script))
    print(json.dumps(result, indent=2))
    return 0


def auto_strategy(script: Any) -> Any:
    """Auto for the script's game: the decision with the highest expected return (gamemath).
    None when the script's game cannot be loaded: its own error is reported when it is played,
    before any decision."""
    from machine.gamemath.engines import auto_for
    from machine.scripts.roundscript import ScriptError, load_game

    try:
        engine = load_game(script).engine
    except ScriptError:
        return None
    return auto_for(engine)


def engine_math(name: str) -> Any:
    """The math module of game engine ``name``, as the registry names it (``Engine.math``): it
    offers the interface of ``machine/gamemath/engines.py`` (the reports, the simulators)."""
    from machine.games.catalog import engine

    return engine(name).module("math")



ROUND_SCRIPT_KEYS = ("game", "rules", "shoe", "seats", "bank", "players")  # every game's round-script keys


def priced_game(path: str):
    from machine.scripts.roundscript import ScriptError, load_game

    script = read_script(path)
    profile = load_game(script)
    extra = sorted(str(k) for k in script if k not in ROUND_SCRIPT_KEYS)
    if extra:  # a round script of any game prices its game and rules (the README's examples); the rest is not read
        raise ScriptError(f"unknown key {extra[0]!r} (known: game, rules)")
    return profile


def rtp_command(args: argparse.Namespace) -> int:
    profile = priced_game(args.script)
    math = engine_math(profile.engine)
    with working(f"cabinet rtp: pricing {profile.game}"), left_to_exit(args):
        out = json.dumps(math.rtp_report(profile), indent=2) if args.json else "\n".join(math.rtp_lines(profile))
    print(out)
    return 0


def strategy_command(args: argparse.Namespace) -> int:
    profile = priced_game(args.script)
    with working(f"cabinet strategy: {profile.game}"), left_to_exit(args):
        lines = engine_math(profile.engine).strategy_lines(profile)
    print("\n".join(lines))
    return 0


def simulate_command(args: argparse.Namespace) -> int:
    from machine.gamemath import engines
    from machine.progress import RateProgress

    profile = priced_game(args.script)
    if profile.rules.decks == 0:
        raise CommandError("an infinite deck can be priced (cabinet rtp) but not dealt")
    if args.rounds < 2:  # --seats is checked by its argparse type
        raise CommandError("--rounds must be at least 2 and --seats 1 to 7")
    most = min(4 * (os.cpu_count() or 1), args.rounds)
    if args.cluster is None and args.workers is not None and args.workers > most:
        raise CommandError(f"--workers {args.workers}: at most {most} here (4 per core, and no more than --rounds)")
    math = engine_math(profile.engine)
    if args.cluster is not None and args.fast and "cluster" not in inspect.signature(math.fast_simulate).parameters:
        raise CommandError(f"--cluster with --fast plays the blackjack family's fast path only, not {profile.engine}'s")
    exact_known = engines.has_exact_rtp(profile.engine)
    # Auto's tables from the cache folder (computed and left there when absent), before the first
    # round (unless the fast path keeps answers of its own there: FAST_PATH_TABLES, blackjack's
    # fastsim.tables); the exact figure from the cache too, computed only with --exact.
    if not (args.fast and getattr(math, "FAST_PATH_TABLES", False)):
        with working(f"cabinet simulate: Auto's tables of {profile.game}"):
            engines.prepare(profile)
    exact: float | None = None
    if exact_known:
        if args.exact:
            with working(f"cabinet simulate: the exact RTP of {profile.game}"):
                exact = engines.returns(profile)[0]
        elif (cached := engines.cached_returns(profile)) is not None:
            exact = cached[0]
    if args.fast:  # a first use compiles the fast path's kernels here, with a line saying so
        from machine.gamemath.precompile import first_use

        first_use(profile.engine)
    progress = RateProgress("cabinet simulate")
    if args.cluster is None:
        t = _simulated(math, profile, args, None, progress)
    else:
        from machine.gamemath.cluster import ClusterError, open_cluster

        try:
            with open_cluster(args.cluster, args.workers) as cluster:
                t = _simulated(math, profile, args, cluster, progress)
        except ClusterError as exc:
            raise CommandError(str(exc)) from None
    if not exact_known:  # eenendertigen: the return depends on the computer players' play
        print(f"simulated RTP {pct(t.rtp)} +/- {t.half_width * 100:.5f} % (95 %) over {t.rounds} rounds: "
              f"{math.SIMULATED_AS}")
        return 0
    print(f"simulated RTP {pct(t.rtp)} +/- {t.half_width * 100:.5f} % (95 %) over {t.rounds} rounds x {args.seats} seat(s)")
    if exact is None:
        print("exact RTP     not computed: add --exact to compute it (once: later runs read it from the cache)")
        return 0
    lo, hi = t.rtp - t.half_width, t.rtp + t.half_width
    inside = "inside" if lo <= exact <= hi else "OUTSIDE"
    print(f"exact RTP     {pct(exact)}: {inside} the interval")
    return 0


def _simulated(math: Any, profile: Any, args: argparse.Namespace, cluster: Any, progress: Any) -> Any:
    """The Tally of ``cabinet simulate``: the engine or the fast path, here or on ``cluster``."""
    workers = None if cluster is not None else args.workers
    if args.fast:
        on = {} if cluster is None else {"cluster": cluster}  # only a fast path that takes one gets here with one
        return math.fast_simulate(profile.rules, args.rounds, args.seed, workers, seats=args.seats, progress=progress, **on)
    return math.simulate(profile.rules, args.rounds, args.seats, args.seed, workers, progress=progress, cluster=cluster)
