"""The game commands: ``round``, ``session``, ``rtp``, ``strategy``, ``simulate``.

Owns: reading their scripts, choosing Auto for the script's game, and printing what the game
and its math answer. The playing lives in ``machine/scripts``, the figures and the reports in
the game math. Never computes a figure itself.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from machine.cli.common import CommandError, pct, read_script
from machine.devtools.progress import working


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


def auto_strategy(script: Any):
    """Auto for the script's game: the decision with the highest expected return (gamemath)."""
    from machine.gamemath.engines import auto_for
    from machine.scripts.roundscript import ScriptError, load_game

    try:
        engine = load_game(script).engine
    except ScriptError:
        engine = "blackjack"  # the script's own error is reported when it is played
    return auto_for(engine)


def priced_game(path: str):
    from machine.scripts.roundscript import ScriptError, load_game

    script = read_script(path)
    profile = load_game(script)
    extra = sorted(str(k) for k in script if k not in ("game", "rules", "shoe", "seats"))
    if extra:
        raise ScriptError(f"unknown key {extra[0]!r} (known: game, rules)")
    return profile


def rtp_command(args: argparse.Namespace) -> int:
    from machine.gamemath import game_rtp, prepare

    profile = priced_game(args.script)
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        math = math_of(profile.engine)
        with working(f"cabinet rtp: pricing {profile.game}"):
            out = json.dumps(math.rtp_report(profile), indent=2) if args.json else "\n".join(math.rtp_lines(profile))
        print(out)
        return 0
    r = profile.rules
    with working(f"cabinet rtp: pricing {profile.game}"):
        prepare(r)  # Auto's tables computed and left in the cache folder, or read from it
        res = game_rtp(r)
    if args.json:
        print(json.dumps({"game": profile.game, "rules": r.to_dict(), "rtp": res.rtp, "house_edge": res.house_edge,
                          "breakdown": res.breakdown, "frequency": res.frequency}, indent=2))
        return 0
    decks = "infinite deck" if r.decks == 0 else f"{r.decks} deck{'s' if r.decks != 1 else ''}"
    print(f"{profile.title} ({profile.game}), {decks}: exact, Auto's composition-dependent play")
    print(f"RTP {pct(res.rtp)}   house edge {pct(res.house_edge)}")
    print("expected net per original bet, by the hand's first decision:")
    for k, v in res.breakdown.items():
        freq = res.frequency.get(k)
        if v == 0 and not freq:
            continue  # a choice this game never offers or Auto never takes
        print(f"  {k:<14}{v * 100:+.5f} %" + (f"   (taken in {freq * 100:.3f} % of rounds)" if freq is not None else ""))
    return 0


def strategy_command(args: argparse.Namespace) -> int:
    from machine.gamemath.chart import basic_strategy, chart_rtp

    profile = priced_game(args.script)
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        with working(f"cabinet strategy: {profile.game}"):
            lines = math_of(profile.engine).strategy_lines(profile)
        print("\n".join(lines))
        return 0
    with working(f"cabinet strategy: {profile.game}"):
        chart = basic_strategy(profile.rules)
        res = chart_rtp(profile.rules, chart)
    print(f"Basic strategy (total-dependent) for {profile.title}: H hit, S stand, D double (else hit), "
          "Ds double (else stand), P split, R surrender")
    print(chart.text())
    print(f"RTP with this chart {pct(res.rtp)}   house edge {pct(res.house_edge)}")
    return 0


def simulate_command(args: argparse.Namespace) -> int:
    from machine.devtools.progress import RateProgress
    from machine.gamemath import engines

    profile = priced_game(args.script)
    if profile.rules.decks == 0:
        raise CommandError("an infinite deck can be priced (cabinet rtp) but not dealt")
    if args.rounds < 2:  # --seats is checked by its argparse type
        raise CommandError("--rounds must be at least 2 and --seats 1 to 7")
    blackjack = profile.engine == "blackjack"
    if args.cluster is not None and args.fast and not blackjack:
        raise CommandError(f"--cluster with --fast plays the blackjack family's fast path only, not {profile.engine}'s")
    math: Any = None if blackjack else engines.math_of(profile.engine)
    exact_known = blackjack or engines.has_exact_rtp(profile.engine)
    # Auto's tables from the cache folder (computed and left there when absent), before the first
    # round (blackjack's fast path keeps its own answers there: fastsim.tables); the exact figure
    # from the cache too, computed only with --exact.
    if not (blackjack and args.fast):
        with working(f"cabinet simulate: Auto's tables of {profile.game}"):
            engines.prepare(profile)
    exact: float | None = None
    if exact_known:
        if args.exact:
            with working(f"cabinet simulate: the exact RTP of {profile.game}"):
                exact = engines.returns(profile)[0]
        elif (cached := engines.cached_returns(profile)) is not None:
            exact = cached[0]
    progress = RateProgress("cabinet simulate")
    if args.cluster is None:
        t = _simulated(profile, args, None, progress)
    else:
        from machine.gamemath.cluster import ClusterError, open_cluster

        try:
            with open_cluster(args.cluster, args.workers) as cluster:
                t = _simulated(profile, args, cluster, progress)
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


def _simulated(profile: Any, args: argparse.Namespace, cluster: Any, progress: Any) -> Any:
    """The Tally of ``cabinet simulate``: the engine or the fast path, here or on ``cluster``."""
    workers = None if cluster is not None else args.workers
    if profile.engine != "blackjack":
        from machine.gamemath.engines import math_of

        math = math_of(profile.engine)
        if args.fast:
            return math.fast_simulate(profile.rules, args.rounds, args.seed, workers, seats=args.seats, progress=progress)
        return math.simulate(profile.rules, args.rounds, args.seats, args.seed, workers, progress=progress, cluster=cluster)
    if args.fast:
        from machine.gamemath.fastsim import fast_simulate

        return fast_simulate(profile.rules, args.rounds, args.seed, workers, seats=args.seats, progress=progress,
                             cluster=cluster)
    from machine.gamemath.simulate import simulate

    return simulate(profile.rules, args.rounds, args.seats, args.seed, workers, progress=progress, cluster=cluster)
