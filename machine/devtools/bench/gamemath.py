"""Benchmarks of the game math: the exact returns, Auto's latency, the simulators and their
compiled fast paths, a Dask cluster, Auto's tables at start-up. Every game is found through the
registry (``machine.gamemath.engines``); prints figures, asserts nothing.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from machine.devtools.bench.common import (
    ANCHOR_RULES,
    CABINET,
    bench,
    child_env,
    last_line,
    percentile,
    set_env,
    shipped_profiles,
)


@bench("rtp")
def rtp_bench() -> None:
    """Time to compute the exact RTP from nothing (every in-process cache forgotten, an empty
    cache folder: ``run`` gives each bench one): Random Blackjack with 6 decks, 1 and an
    infinite deck, and the anchor rule set; with the compiled tables on one thread and on every
    core, and the pure-Python tables (``CABINET_EXACT=python``), best of three."""

    from machine.gamemath.blackjack import game
    from machine.gamemath.blackjack.game import game_rtp
    from machine.profiles import load_profile

    try:
        import machine.gamemath.blackjack.exact_fast  # noqa: F401

        modes = [("compiled, one thread", "", 1), (f"compiled, {os.cpu_count()} threads", "", None)]
    except ImportError:
        modes = []
    modes.append(("pure Python", "python", 1))
    cases = [("Random Blackjack, 6 decks", {}), ("Random Blackjack, 1 deck", {"decks": 1}),
             ("Random Blackjack, infinite deck", {"decks": 0}), ("anchor rules", ANCHOR_RULES)]
    for name, over in cases:
        rules = load_profile("random-blackjack", over).rules
        line = []
        for label, env, workers in modes:
            best = math.inf
            with set_env("CABINET_EXACT", env):
                for _ in range(1 if env == "python" else 3):
                    forget_exact("blackjack")
                    t = time.perf_counter()
                    game.analysis(rules).compute_all(workers)
                    res = game_rtp(rules)
                    best = min(best, time.perf_counter() - t)
            line.append(f"{label} {best:.2f} s")
        print(f"exact RTP of {name}: {res.rtp * 100:.5f} % (house edge {res.house_edge * 100:.9f} %): " + "; ".join(line))


@bench("auto")
def auto_bench(rounds: int = 3000) -> None:
    """Auto's decision latency once the tables are prepared (at start-up), over random rounds."""
    from machine.gamemath.blackjack.auto import auto_action, prepare
    from machine.games.blackjack.round import Round
    from machine.games.cards import new_shoe, shuffle
    from machine.profiles import load_profile

    rules = load_profile("random-blackjack").rules
    t = time.perf_counter()
    prepare(rules)
    print(f"Auto tables prepared in {time.perf_counter() - t:.2f} s (once, at start-up)")
    rng = random.Random(3)
    times = []
    for _ in range(rounds):
        rnd = Round.start(rules, shuffle(new_shoe(rules.decks), rng), [10])
        while (d := rnd.pending) is not None:
            t0 = time.perf_counter()
            a = auto_action(rnd)
            times.append(time.perf_counter() - t0)
            rnd.act(d.seat, a)
    print(f"Auto decision: median {statistics.median(times) * 1e6:.0f} us, p99 {percentile(times, 99) * 1e6:.0f} us "
          f"over {len(times)} decisions (a display frame is 16 700 us)")


@bench("simulate")
def simulate_bench(rounds: int = 40_000) -> None:
    """Rounds per second of the simulator (real engine, Auto decisions), one core and all cores."""

    from machine.gamemath.blackjack.auto import prepare
    from machine.gamemath.blackjack.simulate import play_chunk, simulate
    from machine.profiles import load_profile

    rules = load_profile("random-blackjack").rules
    prepare(rules)
    t = time.perf_counter()
    play_chunk(rules, rounds // 4, 1, 1, 0)
    one = rounds // 4 / (time.perf_counter() - t)
    print(f"simulator, one core: {one:,.0f} rounds/s (one seat; hands/s the same)")
    cores = os.cpu_count() or 1
    t = time.perf_counter()
    simulate(rules, rounds, 1, 1, cores)
    dt = time.perf_counter() - t
    print(f"simulator, {cores} cores: {rounds / dt:,.0f} rounds/s including each worker's table set-up "
          f"({rounds} rounds in {dt:.1f} s)")


@bench("fastsim")
def fastsim_bench(rounds: int = 20_000_000) -> None:
    """The compiled fast path: compile/tables time apart, then rounds/s on one core and on all."""
    try:
        from machine.gamemath.blackjack.fast import fast_run
    except ImportError as exc:
        print(f"fast path not installed: {exc}")
        return
    from machine.profiles import load_profile

    rules = load_profile("random-blackjack").rules
    warm = fast_run(rules, 100_000, 1, 1)
    print(f"fast path: compile {warm.compile_seconds:.2f} s, Auto tables {warm.tables_seconds:.2f} s (once)")
    one = fast_run(rules, rounds // 4, 2, 1)
    print(f"fast path, one core: {one.rounds_per_second / 1e6:.2f} M rounds/s")
    every = fast_run(rules, rounds, 3, None)
    print(f"fast path, {every.threads} cores: {every.rounds_per_second / 1e6:.2f} M rounds/s; "
          f"RTP {every.tally.rtp * 100:.4f} % +/- {every.tally.half_width * 100:.4f} % over {rounds:,} rounds")


@bench("cluster")
def cluster_bench(rounds: int = 10**9, cluster: str = "local") -> None:
    """Random Blackjack on the compiled fast path through a Dask cluster (``local``: one worker
    process per core here; or a scheduler's tcp://host:8786): rounds/s, and the RTP with its 95 %
    interval next to the exact figure. The workers load the kernels and Auto's tables first
    (timed apart), so rounds/s is the play's."""
    try:
        from machine.gamemath.blackjack.fast import fast_run, prepare_worker
    except ImportError as exc:
        print(f"fast path not installed: {exc}")
        return
    from machine.gamemath.blackjack import game_rtp
    from machine.gamemath.blackjack.auto import prepare
    from machine.gamemath.cluster import ClusterError, open_cluster
    from machine.profiles import load_profile
    from machine.progress import RateProgress

    rules = load_profile("random-blackjack").rules
    prepare(rules)  # Auto's tables once, into the cache folder, for the local workers to read
    exact = game_rtp(rules).rtp
    try:
        t = time.perf_counter()
        with open_cluster(cluster) as c:
            started = time.perf_counter() - t
            t = time.perf_counter()
            c.warm(prepare_worker, rules)
            warm = time.perf_counter() - t
            run = fast_run(rules, rounds, 1, cluster=c, progress=RateProgress("cabinet bench cluster"))
    except ClusterError as exc:
        print(f"no cluster: {exc}")
        return
    tally = run.tally
    inside = "inside" if abs(tally.rtp - exact) <= tally.half_width else "OUTSIDE"
    print(f"cluster {cluster}: {c.size} worker(s), started in {started:.1f} s, kernels and tables loaded in {warm:.1f} s")
    print(f"fast path on the cluster: {rounds:,} rounds of Random Blackjack in {run.seconds:.1f} s = "
          f"{run.rounds_per_second / 1e6:.2f} M rounds/s")
    print(f"RTP {tally.rtp * 100:.5f} % +/- {tally.half_width * 100:.5f} % (95 %); exact {exact * 100:.5f} %: "
          f"{inside} the interval")


@bench("ochko")
def ochko_bench(rounds: int = 10_000_000) -> None:
    """Ochko's math: the exact return's time, Auto's latency, the engine simulator and the fast
    path (10 M rounds on one thread) against the exact return."""
    from machine.gamemath import ochko
    from machine.gamemath.ochko.sim import play_chunk
    from machine.profiles import load_profile

    rules = load_profile("ochko").rules
    t = time.perf_counter()
    exact = ochko.exact_rtp(rules)
    print(f"ochko exact RTP {exact * 100:.5f} % in {time.perf_counter() - t:.2f} s (Auto's tables with it)")
    t = time.perf_counter()
    tally = play_chunk(rules, 20_000, 1, 1, 0)
    dt = time.perf_counter() - t
    print(f"ochko simulator, one core: {20_000 / dt:,.0f} rounds/s; RTP {tally.rtp * 100:.2f} % "
          f"+/- {tally.half_width * 100:.2f} % over 20 000 rounds")
    try:
        ochko.fast_simulate(rules, 100_000, 1, 1)  # compile (or load numba's cache) and fill the tables
    except ValueError as exc:
        print(f"fast path not installed: {exc}")
        return
    for seed in (1, 2, 3, 4):  # a 95 % interval misses the true figure in 1 run of 20: show four
        t = time.perf_counter()
        fast = ochko.fast_simulate(rules, rounds, seed, 1)
        dt = time.perf_counter() - t
        lo, hi = fast.rtp - fast.half_width, fast.rtp + fast.half_width
        print(f"ochko fast path, one thread, seed {seed}: {rounds / dt / 1e6:.2f} M rounds/s; RTP {fast.rtp * 100:.5f} % "
              f"+/- {fast.half_width * 100:.5f} % over {rounds:,} rounds: the exact return is "
              f"{'inside' if lo <= exact <= hi else 'OUTSIDE'} the interval")


@bench("variants")
def variants_bench(engine_rounds: int = 100_000, fast_rounds: int = 10_000_000) -> None:
    """Every blackjack profile: the exact RTP, the chart's, and the engine simulator and the fast
    path (one core each) with their 95 % intervals, saying whether the exact figure is inside."""
    from machine.gamemath.blackjack import game_rtp
    from machine.gamemath.blackjack.chart import chart_rtp
    from machine.gamemath.blackjack.simulate import simulate
    try:
        from machine.gamemath.blackjack.fast import fast_run
    except ImportError as exc:
        fast_run = None  # type: ignore[assignment]
        print(f"fast path not installed: {exc}")
    from machine.gamemath import blackjack
    from machine.gamemath.engines import math_of

    for profile in shipped_profiles():
        if math_of(profile.engine) is not blackjack:
            continue  # the blackjack family's profiles only (the chart is blackjack's)
        rules = profile.rules
        t = time.perf_counter()
        exact = game_rtp(rules).rtp
        seconds = time.perf_counter() - t
        chart = chart_rtp(rules).rtp
        print(f"{profile.game}: exact RTP {exact * 100:.5f} % ({seconds:.1f} s), chart {chart * 100:.5f} %")
        runs = [("engine", engine_rounds)] + ([("fast path", fast_rounds)] if fast_run is not None else [])
        for name, n in runs:
            t = time.perf_counter()
            tally = simulate(rules, n, 1, 1, 1) if name == "engine" else fast_run(rules, n, 1, 1).tally
            inside = "inside" if abs(tally.rtp - exact) <= tally.half_width else "OUTSIDE"
            print(f"  {name}: {tally.rtp * 100:.4f} % +/- {tally.half_width * 100:.4f} % over {n:,} rounds "
                  f"({time.perf_counter() - t:.0f} s): exact {inside}")


@bench("eenentwintig")
def eenentwintig_bench(rounds: int = 10_000_000) -> None:
    """Eenentwintig: the exact analysis, Auto's decision, the engine and the fast path against the exact return."""
    from machine.gamemath import eenentwintig as een
    from machine.gamemath.eenentwintig.exact import Exact
    from machine.games.cards import new_shoe
    from machine.games.eenentwintig.round import EenentwintigRound
    from machine.games.eenentwintig.scoring import RANKS
    from machine.profiles import load_profile

    rules = load_profile("eenentwintig").rules
    t = time.perf_counter()
    Exact(rules).prepare()
    print(f"exact analysis (every value, 2 decks): {time.perf_counter() - t:.2f} s")
    exact = een.exact_rtp(rules)
    rng = random.Random(1)
    base = new_shoe(rules.decks, RANKS)
    lat = []
    t = time.perf_counter()
    for _ in range(2000):
        rnd = EenentwintigRound.start(rules, rng.sample(base, len(base)), [1, 2, 3, 4])
        while (d := rnd.pending) is not None:
            t0 = time.perf_counter()
            a = een.auto_action(rnd)
            lat.append(time.perf_counter() - t0)
            rnd.act(d.seat, a)
    print(f"engine with Auto: {2000 / (time.perf_counter() - t):.0f} four-seat rounds/s; Auto's decision median "
          f"{statistics.median(lat) * 1e6:.0f} us, p99 {percentile(lat, 99) * 1e6:.0f} us")
    try:
        een.fast_simulate(rules, 1000, seed=1, workers=1)  # compile (or load) the kernels first
    except ValueError as exc:
        print(f"fast path: {exc}")
        return
    t = time.perf_counter()
    tally = een.fast_simulate(rules, rounds, seed=1, workers=1)
    dt = time.perf_counter() - t
    inside = "inside" if abs(tally.rtp - exact) <= tally.half_width else "OUTSIDE"
    print(f"fast path, 1 thread: {rounds} rounds in {dt:.1f} s ({rounds / dt / 1e6:.2f} M rounds/s): RTP "
          f"{tally.rtp * 100:.5f} % +/- {tally.half_width * 100:.5f} %, exact {exact * 100:.5f} %: {inside}")


@bench("eenendertigen")
def eenendertigen_bench(rounds: int = 1_000_000, workers: int = 2, engine_rounds: int = 2000) -> None:
    """Eenendertigen: Auto in place 1 against three computer players, per variant, on the compiled
    path (``workers`` threads): the share of rounds won (a tie counted as its share), the return at
    the profile's win_pays with its 95 % interval, the win_pays that would return 100 %, and the
    rounds per second beside the engine's (pure Python, one process, its caches warmed first).
    Without numba: one line, then the engine alone on ``engine_rounds`` rounds."""
    from machine.gamemath import eenendertigen as een
    from machine.gamemath.simulate import Tally
    from machine.games.cards import shuffle
    from machine.profiles import load_profile

    try:
        from machine.gamemath.eenendertigen import fast
    except ImportError as exc:
        fast = None  # type: ignore[assignment]
        print(f"the million-round figures need the fast extra (pip install 'cabinet[fast]': {exc}); "
              f"the engine alone, {engine_rounds:,} rounds per variant")

    def engine(rules, n: int, seed: int) -> tuple[Tally, list[int], float]:
        rng = random.Random(f"bench/{rules.variant}/{seed}")
        base = list(een.deck_of(rules.variant))
        tally, wins = Tally(), [0, 0, 0, 0]
        t = time.perf_counter()
        for _ in range(n):
            rnd = een.play_round(rules, shuffle(base, rng))
            tally.record(rnd.places[0].returned - rnd.places[0].bet, rnd.places[0].bet)
            if 1 in rnd.winners:
                wins[len(rnd.winners) - 1] += 1
        return tally, wins, time.perf_counter() - t

    def figures(rules, tally: Tally, wins, path: str) -> None:
        share = sum(w / (k + 1) for k, w in enumerate(wins))
        parts = ", ".join(f"{w / tally.rounds * 100:.2f} % {name}"
                          for w, name in zip(wins, ("alone", "tied by 2", "tied by 3", "tied by 4"), strict=True))
        print(f"  {path}: {tally.rounds:,} rounds: Auto wins {share / tally.rounds * 100:.2f} % ({parts}); returns "
              f"{tally.rtp * 100:.2f} % +/- {tally.half_width * 100:.2f} % at win_pays {float(rules.win_pays):g}; "
              f"break-even win_pays {f'{tally.rounds / share:.3f}' if share else 'none (no win)'} "
              "(staked / (shares of wins x bet))")

    for variant in ("classic", "modern"):
        rules = load_profile("eenendertigen", {"variant": variant}).rules
        print(f"{variant}:")
        if fast is None:
            tally, wins, dt = engine(rules, engine_rounds, 1)
            figures(rules, tally, wins, "engine")
            print(f"  engine: {engine_rounds / dt:,.0f} rounds/s (one process)")
            continue
        t = time.perf_counter()
        fast.fast_run(rules, 1000, 1, workers)  # the tables, and numba's compile or cache load
        warm = time.perf_counter() - t
        run = fast.fast_run(rules, rounds, 1, workers)
        figures(rules, run.tally, run.wins, f"compiled path, {run.threads} threads")
        engine(rules, engine_rounds // 10, 2)  # warm the engine's caches of hand values
        _tally, _wins, dt = engine(rules, engine_rounds, 3)
        print(f"  compiled path {run.rounds_per_second:,.0f} rounds/s ({run.seconds:.1f} s; tables and compile "
              f"{warm:.1f} s once) against the engine's {engine_rounds / dt:,.0f} rounds/s (pure Python, one process, "
              f"{engine_rounds:,} rounds): x {run.rounds_per_second * dt / engine_rounds:,.0f}")


@bench("startup")
def startup_bench() -> None:
    """Auto's tables at start-up, each enabled game of the shipped configuration in a new
    process: cold (an empty cache folder: computed and written) and warm (read back)."""
    import subprocess

    from machine.operator.config import load_config

    cfg = load_config()
    games = list(dict.fromkeys([cfg.game, *cfg.games_enabled]))
    code = ("import sys, time; t = time.perf_counter(); from machine.profiles import load_profile; "
            "from machine.gamemath.engines import prepare; prepare(load_profile(sys.argv[1])); "
            "print(time.perf_counter() - t)")
    env = child_env()
    for game in games:
        times = []
        for _ in ("cold", "warm"):
            done = subprocess.run([sys.executable, "-c", code, game], capture_output=True, text=True, env=env, check=True)
            times.append(float(done.stdout))
        print(f"Auto's tables of {game}: cold {times[0]:.2f} s, warm {times[1]:.2f} s (a new process each, imports included)")


@bench("simstart")
def simulate_start_bench() -> None:
    """``cabinet simulate`` of Random Blackjack in a new process each, imports included: 100
    rounds on the engine cold (an empty cache folder: Auto's tables computed) and warm (read
    back; the exact RTP not computed), then with ``--exact`` once (computed and kept) and again
    (read back); and ``--fast`` twice (its table of Auto's answers computed, then read back), the
    kernels loaded from numba's cache (as after the set-up's ``python -m machine.gamemath.precompile``)."""
    import subprocess

    from machine.gamemath.precompile import compile_all

    compile_all()  # numba's cache filled (a no-op after the set-up)
    script = Path(tempfile.mkdtemp()) / "rb.yaml"
    script.write_text("game: random-blackjack\n")
    env = child_env()
    runs = [("engine, cold", []), ("engine, warm", []), ("engine --exact, first", ["--exact"]),
            ("engine --exact, again", ["--exact"]), ("--fast, first (its answers computed)", ["--fast"]),
            ("--fast, again (read back)", ["--fast"])]
    for label, extra in runs:
        t = time.perf_counter()
        subprocess.run([*CABINET, "simulate", str(script), "--rounds", "100", "--workers", "1", *extra],
                       capture_output=True, text=True, env=env, check=True)
        print(f"cabinet simulate --rounds 100, {label}: {time.perf_counter() - t:.2f} s")
    script.unlink()
    script.parent.rmdir()


# -- every 21-family profile's exact RTP from nothing (cabinet bench exact) ---------------------

EXACT_GOAL = 2.0  # seconds: issue 15 wants every 21-family profile's exact RTP under two seconds
# Per engine, rules other than any profile's (its math package's ``BENCH_WARM_UP``): one exact
# RTP of them first loads the imports and any compiled kernels, so a profile's time is its own.


def forget_exact(engine: str) -> None:
    """Clear what a process remembers of an engine's exact analysis (its math package's
    ``forget``, where it has one; the tables on disk are the caller's: an empty
    ``CABINET_CACHE_DIR``)."""
    from machine.gamemath.engines import math_of

    forget = getattr(math_of(engine), "forget", None)
    if forget is not None:
        forget()


@bench("exact")
def exact_bench() -> None:
    """The exact RTP of every shipped 21-family profile (``config/games``; eenendertigen's
    return is simulated: not here), each from nothing: an empty cache folder and the analysis
    forgotten, after one exact RTP of other rules per engine (imports and compiled kernels
    loaded). One line each with the RTP and whether it took under two seconds; beside it, the
    whole ``cabinet rtp`` of the profile as a new process (imports included, an empty cache
    folder), what a user waits."""
    import subprocess

    from machine.gamemath.engines import exact_returns, has_exact_rtp, math_of
    from machine.profiles import load_profile

    profiles = [p for p in shipped_profiles() if has_exact_rtp(p.engine)]
    t = time.perf_counter()
    for engine in dict.fromkeys(p.engine for p in profiles):
        with tempfile.TemporaryDirectory() as folder, set_env("CABINET_CACHE_DIR", folder):
            first = next(p for p in profiles if p.engine == engine)
            exact_returns(load_profile(first.game, getattr(math_of(engine), "BENCH_WARM_UP", {})))
    print(f"warm-up (imports and compiled kernels, one exact RTP of other rules per engine): "
          f"{time.perf_counter() - t:.1f} s")
    over = []
    for profile in profiles:
        with tempfile.TemporaryDirectory() as folder, set_env("CABINET_CACHE_DIR", folder):
            forget_exact(profile.engine)
            t = time.perf_counter()
            rtp = exact_returns(profile)[0]
            seconds = time.perf_counter() - t
        with tempfile.TemporaryDirectory() as folder:
            t = time.perf_counter()
            done = subprocess.run([*CABINET, "rtp", "-"], input=f"game: {profile.game}\n", capture_output=True,
                                  text=True, env=dict(child_env(), CABINET_CACHE_DIR=folder))
            command = time.perf_counter() - t
        if seconds >= EXACT_GOAL:
            over.append(profile.game)
        print(f"{profile.game} ({profile.engine}): exact RTP {rtp * 100:.5f} % in {seconds:.2f} s; "
              f"under {EXACT_GOAL:g} s: {'no' if seconds >= EXACT_GOAL else 'yes'} "
              + (f"(cabinet rtp as a new process: {command:.2f} s)" if done.returncode == 0 else
                 f"(cabinet rtp failed: {last_line(done.stderr)})"))
    print(f"every profile under {EXACT_GOAL:g} s: " + ("yes" if not over else f"no ({len(over)} of {len(profiles)} over: "
                                                      f"{', '.join(over)})"))
