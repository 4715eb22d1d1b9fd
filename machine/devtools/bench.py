"""Benchmarks, printed as figures (never asserted in the test suite).

Owns: ``cabinet bench NAME`` and ``tools/bench`` (all of them). Each benchmark works in a
temporary folder and prints a few lines of results.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from machine.devtools.journal_keeping import journal_keeping_bench

BENCHES: dict[str, Callable[..., None]] = {}


def bench(name: str):
    def register(fn):
        BENCHES[name] = fn
        return fn

    return register


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


bench("journal-keeping")(journal_keeping_bench)  # (issue 24: the journal's bytes per game and the archive's pause)


@bench("journal")
def journal_bench(rounds: int = 300) -> None:
    """Commit latency of one money event, and whole rounds per second, with full durability."""
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.devtools.crashtest import memory_of, shoes_for, simple_player
    from machine.games.blackjack import BlackjackGame
    from machine.games.rules import load_profile

    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "journal.sqlite"
        memory = memory_of(Path(tmp))  # the head written to a file after every commit, as on a cabinet
        cab = open_cabinet(journal, load_profile("random-blackjack"), CabinetSettings(seats=4),
                           lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory, create=True)
        lat = []
        for i in range(500):
            t = time.perf_counter()
            cab.coin(1 + i % 4, "EU100A", now=0)
            lat.append(time.perf_counter() - t)
        print(f"journal commit (one coin, WAL, synchronous=FULL): median {statistics.median(lat) * 1e3:.2f} ms, "
              f"p99 {percentile(lat, 99) * 1e3:.2f} ms")
        rng = random.Random(1)
        t0 = time.perf_counter()
        txs = cab.inputs
        for r in range(rounds):
            now = float(r)
            for n in range(1, 5):
                cab.press(n, "+2", now)
            for n in range(1, 5):
                cab.press(n, "start", now)
            while cab.round is not None:
                d = cab.round.pending
                assert d is not None, "a round with no seat to decide has ended"
                cab.press(d.seat, rng.choice(["stand", "draw", "auto"]), now)
        dt = time.perf_counter() - t0
        print(f"durable 4-seat rounds: {rounds / dt:.1f} rounds/s ({(cab.inputs - txs) / dt:.0f} transactions/s)")


@bench("boot")
def boot_bench(records: int = 10_000_000) -> None:
    """Start-up on a journal of ``records`` records (years of play): it checks the last window from
    a checkpoint, so its time does not grow with the journal's age."""
    import sqlite3

    from machine.core.cabinet import Cabinet, CabinetSettings, open_cabinet
    from machine.devtools.crashtest import memory_of, shoes_for, simple_player
    from machine.games.blackjack import BlackjackGame
    from machine.games.rules import load_profile
    from machine.money import journal as jm
    from machine.money.memory import Head

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite"
        memory = memory_of(Path(tmp))

        def boot() -> tuple[float, Cabinet]:
            t = time.perf_counter()
            cab = open_cabinet(path, load_profile("random-blackjack"), CabinetSettings(seats=4),
                               lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory, create=True)
            return time.perf_counter() - t, cab

        _, cab = boot()
        for n in range(1, 5):
            cab.coin(n, "EU200A", now=0)
        cab.journal.close()
        small, cab = boot()
        journal_id = cab.journal.journal_id
        cab.journal.close()
        # years of play, written straight into the file as the journal would have: each record
        # chained under the key, a checkpoint every CHECKPOINT_EVERY records
        t = time.perf_counter()
        db = sqlite3.connect(path, isolation_level=None)
        seq, prev = db.execute("SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        index = {k: [s, jm.digest(v)] for k, s, v in db.execute("SELECT key, seq, value FROM state")}
        text_of = jm.record_text  # (looked up once: the loop is hot)
        mac = jm.Keyed(memory.key)
        end = seq + records
        while seq < end:
            batch = []
            for _ in range(min(100_000, end - seq)):
                seq += 1
                if seq % jm.CHECKPOINT_EVERY == 0:
                    kind, seat, text = jm.CHECKPOINT, None, jm.canon({"rows": index})
                else:
                    kind, seat, text = "round_event", 1 + seq % 4, f'{{"card":"TS","event":"hit","hand":0,"n":{seq}}}'
                prev = mac(text_of(prev, seq, kind, seat, text))
                batch.append((seq, kind, seat, text, prev))
            db.execute("BEGIN")
            db.executemany("INSERT INTO journal (seq, kind, seat, data, mac) VALUES (?, ?, ?, ?, ?)", batch)
            db.execute("COMMIT")
        db.close()
        for store in memory.heads:
            store.write(Head(journal_id, seq, prev), memory.key)
        built = time.perf_counter() - t
        size = sum(f.stat().st_size for f in Path(tmp).glob("journal.sqlite*")) / 2**30
        big, cab = boot()
        assert cab.seats[1].money.credit == 20
        cab.journal.close()
        print(f"start-up (journal check from a checkpoint, every meter restored, power-up journaled): "
              f"{small * 1e3:.0f} ms on a new journal, {big * 1e3:.0f} ms on {records:,} records ({size:.1f} GiB; "
              f"written in {built:.0f} s)")


@bench("crash")
def crash_bench(kills: int = 10_000) -> None:
    """The crash test at the issue's size: ``kills`` SIGKILLs at journal, head, hopper and
    device-counter writes and during start-up, each run compared with an uninterrupted one."""
    from machine.devtools.crashtest import main as crash_main

    crash_main(kills, seed=7)


@bench("rtp")
def rtp_bench() -> None:
    """Time to compute the exact RTP from nothing (every in-process cache forgotten, an empty
    cache folder: ``run`` gives each bench one): Random Blackjack with 6 decks, 1 and an
    infinite deck, and the anchor rule set; with the compiled tables on one thread and on every
    core, and the pure-Python tables (``CABINET_EXACT=python``), best of three."""

    from machine.gamemath import game
    from machine.gamemath.game import game_rtp
    from machine.games.rules import load_profile

    try:
        import machine.gamemath.exact_fast  # noqa: F401

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
            with _env("CABINET_EXACT", env):
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
    from machine.gamemath.auto import auto_action, prepare
    from machine.games.cards import new_shoe, shuffle
    from machine.games.round import Round
    from machine.games.rules import load_profile

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

    from machine.gamemath.auto import prepare
    from machine.gamemath.simulate import play_chunk, simulate
    from machine.games.rules import load_profile

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
        from machine.gamemath.fastsim import fast_run
    except ImportError as exc:
        print(f"fast path not installed: {exc}")
        return
    from machine.games.rules import load_profile

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
        from machine.gamemath.fastsim import fast_run, prepare_worker
    except ImportError as exc:
        print(f"fast path not installed: {exc}")
        return
    from machine.devtools.progress import RateProgress
    from machine.gamemath import game_rtp
    from machine.gamemath.auto import prepare
    from machine.gamemath.cluster import ClusterError, open_cluster
    from machine.games.rules import load_profile

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
    from machine.games.rules import load_profile

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
    from machine.gamemath import game_rtp
    from machine.gamemath.chart import chart_rtp
    from machine.gamemath.simulate import simulate
    try:
        from machine.gamemath.fastsim import fast_run
    except ImportError as exc:
        fast_run = None  # type: ignore[assignment]
        print(f"fast path not installed: {exc}")
    for profile in shipped_profiles():
        if profile.engine != "blackjack":
            continue
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


@bench("frames")
def frames_bench(frames: int = 300) -> None:
    """Frame time of the four player screens at 1920x1080 (headless), mid-round."""

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from machine.devtools.scenes import SCENE_TIME, SCENES
    from machine.display.draw import Renderer
    from machine.display.view import build_view

    pygame.display.init()
    pygame.font.init()
    surf = pygame.display.set_mode((1920, 1080))
    with tempfile.TemporaryDirectory() as tmp:
        cab = SCENES["split"](Path(tmp))
        r = Renderer()
        times = []
        for i in range(frames):
            now = SCENE_TIME + i / 60
            t = time.perf_counter()
            r.draw_table(surf, build_view(cab, now), now)
            pygame.display.flip()
            times.append(time.perf_counter() - t)
        cab.journal.close()
    print(f"frame at 1920x1080, 4 seats: median {statistics.median(times) * 1e3:.2f} ms, "
          f"p99 {percentile(times, 99) * 1e3:.2f} ms (budget 16.7 ms for 60 frames/s)")


@bench("payout")
def payout_bench(coins: int = 50) -> None:
    """The real hopper driver against the simulator process: is the host adding any delay?"""
    from machine.devtools.hopper_bench import main

    main(coins)


@bench("press")
def press_bench(presses: int = 200) -> None:
    """Latency from a button press on the simulated panel to the frame that shows it."""

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.config import load_config
    from machine.operator.firststart import temporary

    with tempfile.TemporaryDirectory() as tmp:
        cfg = temporary(load_config(), Path(tmp))
        app = SimulatedCabinet(cfg, Path(tmp), headless=False)
        try:
            end = time.monotonic() + 10
            while not app.panel.link_up and time.monotonic() < end:
                app.frame()
            bus, panel = app.sims.bus, app.sims.panel
            assert bus is not None and panel is not None, "the default configuration simulates every device"
            bus.control.coin(cfg.devices.acceptors[1], "EU200A", 5)
            while app.cab.seats[1].money.credit < 100 and time.monotonic() < end:
                app.frame()
            lat = []
            for i in range(presses):
                button = "+2" if i % 2 == 0 else "collect"  # place a bet, then drop it
                before = app.cab.journal.last_seq
                t0 = time.perf_counter()
                panel.tap(1, button)
                while app.cab.journal.last_seq == before:
                    app.frame()  # the frame that handles the press also draws it
                lat.append(time.perf_counter() - t0)
                if button == "collect":
                    while app.cab.seats[1].money.club:
                        app.frame()
        finally:
            app.close()
    print(f"button press on the simulated panel to the frame that shows it: median {statistics.median(lat) * 1e3:.1f} ms, "
          f"p99 {percentile(lat, 99) * 1e3:.1f} ms ({presses} presses over a real pty)")


@bench("pin")
def pin_bench(checks: int = 10) -> None:
    """One operator PIN check at the stored cost, and what guessing all 10 000 four-digit PINs costs."""
    from machine.core import pinlock
    from machine.operator import pin

    stored = pin.hash_pin("1234")
    times = []
    for i in range(checks):
        t = time.perf_counter()
        pin.check(f"{i:04d}", stored)
        times.append(time.perf_counter() - t)
    each = statistics.median(times)
    wait = sum(pinlock.lock_seconds(n) for n in range(1, 10_001))
    print(f"operator PIN check (scrypt N={pin.SCRYPT_N} r={pin.SCRYPT_R} p={pin.SCRYPT_P}): median {each * 1e3:.0f} ms; "
          f"10 000 PINs offline from a copied configuration: {10_000 * each / 60:.0f} min of one core; "
          f"at the panel through the lockout: {wait / 86400:.0f} days")


@bench("eenentwintig")
def eenentwintig_bench(rounds: int = 10_000_000) -> None:
    """Eenentwintig: the exact analysis, Auto's decision, the engine and the fast path against the exact return."""
    from machine.gamemath import eenentwintig as een
    from machine.gamemath.eenentwintig_exact import Exact
    from machine.games.cards import new_shoe
    from machine.games.eenentwintig.round import EenentwintigRound
    from machine.games.eenentwintig.scoring import RANKS
    from machine.games.rules import load_profile

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
    from machine.games.rules import load_profile

    try:
        from machine.gamemath import eenendertigen_fast as fast
    except ImportError as exc:
        fast = None  # type: ignore[assignment]
        print(f"the million-round figures need the fast extra (pip install 'cabinet[fast]': {exc}); "
              f"the engine alone, {engine_rounds:,} rounds per variant")

    def engine(rules, n: int, seed: int) -> tuple[Tally, list[int], float]:
        rng = random.Random(f"bench/{rules.variant}/{seed}")
        base = list(een._deck(rules.variant))
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
    code = ("import sys, time; t = time.perf_counter(); from machine.games.rules import load_profile; "
            "from machine.gamemath.engines import prepare; prepare(load_profile(sys.argv[1])); "
            "print(time.perf_counter() - t)")
    env = _child_env()
    for game in games:
        times = []
        for _ in ("cold", "warm"):
            done = subprocess.run([sys.executable, "-c", code, game], capture_output=True, text=True, env=env, check=True)
            times.append(float(done.stdout))
        print(f"Auto's tables of {game}: cold {times[0]:.2f} s, warm {times[1]:.2f} s (a new process each, imports included)")


def _child_env() -> dict[str, str]:
    """The environment of a benchmark's child process: this checkout first on its path."""

    here = str(Path(__file__).resolve().parents[2])
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))


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
    env = _child_env()
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


ONE_CORE = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def one_core_child() -> None:
    """The child process of ``hhoppe`` that times our compiled paths on one thread: a JSON line
    per request read from standard input ({"game", "over", "rounds", "seed"}), each a first
    untimed run (numba's compile or cache load, Auto's tables) the first time a rule set comes,
    then the timed run, its wall time around the whole call. Runs under ``ONE_CORE``."""
    import json

    from machine.games.rules import load_profile

    warmed: set[str] = set()
    for line in sys.stdin:
        ask = json.loads(line)
        profile = load_profile(ask["game"], ask.get("over") or {})
        rules, n, seed = profile.rules, int(ask["rounds"]), int(ask.get("seed", 1))
        if profile.engine == "blackjack":
            from machine.gamemath.fastsim import fast_simulate as play
        else:
            from machine.gamemath.engines import math_of

            play = math_of(profile.engine).fast_simulate
        key = json.dumps([ask["game"], ask.get("over")], sort_keys=True)
        warm = 0.0
        if key not in warmed:
            t = time.perf_counter()
            play(rules, 100_000, 99, 1)
            warm = time.perf_counter() - t
            warmed.add(key)
        t = time.perf_counter()
        tally = play(rules, n, seed, 1)
        print(json.dumps({"rounds": n, "seconds": time.perf_counter() - t, "warm_seconds": warm, "rtp": tally.rtp}),
              flush=True)


class _Child:
    """A benchmark child process asked for runs one JSON line at a time (``one_core_child``,
    ``hhoppe_driver``): each answer is one JSON line."""

    def __init__(self, argv: list[str], env: dict[str, str]):
        import subprocess

        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, env=env)

    def ask(self, line: str | None) -> dict[str, Any]:
        import json

        assert self.proc.stdin is not None and self.proc.stdout is not None
        if line is not None:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            err = (self.proc.stderr.read() if self.proc.stderr else "").strip().splitlines()
            raise RuntimeError(err[-1] if err else f"exited with status {self.proc.wait()}")
        return json.loads(answer)

    def close(self) -> None:
        import subprocess

        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:  # a child that hangs is ended
            self.proc.kill()
            self.proc.wait()


def _rates(runs: list[tuple[int, float]]) -> tuple[float, float]:
    """The best and the median of runs' (rounds, seconds), in rounds per second."""
    rates = [n / s for n, s in runs]
    return max(rates), statistics.median(rates)


@bench("hhoppe")
def hhoppe_bench(rounds: int = 5_000_000, repeats: int = 3) -> None:
    """Our compiled simulator against Hugues Hoppe's (github hhoppe/blackjack) on one core, on
    the anchor rule set; then our compiled path of every 21-family profile and of 31 on one core.

    Each side is a child process under ``ONE_CORE`` (numba on one thread), warmed by a first
    untimed run (compile, tables), then timed ``repeats`` times on ``rounds`` rounds, the two
    sides' runs alternating so a busy machine weighs on both alike; the wall time of the whole
    call, shoes and all. Ours: ``fastsim.fast_simulate`` (Auto's composition-dependent play, a
    fresh shoe shuffled for every round). Theirs (``hhoppe_driver``, run under
    ``$HHOPPE_PYTHON`` on the checkout at ``$HHOPPE_BLACKJACK``): ``monte_carlo_house_edge_cpu``
    on one process (their total-dependent basic strategy, 36 hands a shuffled shoe). Without
    ``$HHOPPE_BLACKJACK``: one line saying how to set it, and ours alone."""
    import json

    env = {**os.environ, **ONE_CORE}
    here = _child_env()
    ours = _Child([sys.executable, "-c", "from machine.devtools.bench import one_core_child; one_core_child()"],
                  {**here, **ONE_CORE})
    theirs: _Child | None = None
    folder = os.environ.get("HHOPPE_BLACKJACK")
    python = os.environ.get("HHOPPE_PYTHON") or sys.executable
    if not folder:
        print("hhoppe/blackjack not measured: set HHOPPE_BLACKJACK to an extracted checkout of github.com/hhoppe/"
              "blackjack and HHOPPE_PYTHON to a Python that has its dependencies (numba, numpy, hhoppe-tools, "
              "matplotlib, more-itertools, tqdm, ipython); ours alone")
    else:
        theirs = _Child([python, str(Path(__file__).with_name("hhoppe_driver.py")), folder], env)
    print(f"anchor rules (6 decks, S17, 3:2, peek, DOA, DAS, 4 hands, aces once to one card, no surrender), one core "
          f"(NUMBA_NUM_THREADS=1), {rounds:,} rounds a run, {repeats} runs a side alternating, compile and tables "
          "excluded (a warm-up run first)")
    try:
        warm_theirs = 0.0
        if theirs is not None:
            try:
                warm_theirs = theirs.ask(None)["warm_seconds"]
            except (RuntimeError, ValueError) as exc:
                print(f"hhoppe/blackjack did not start: {exc}")
                theirs.close()
                theirs = None

        def side_by_side(
            ask: dict[str, Any], alongside: bool = True
        ) -> tuple[list[tuple[int, float]], list[tuple[int, float]], float]:
            """``repeats`` runs of ours on ``ask``, each followed (``alongside``) by one of theirs
            (the anchor, ``rounds`` hands): (ours, theirs, our warm-up seconds)."""
            nonlocal theirs
            mine: list[tuple[int, float]] = []
            yours: list[tuple[int, float]] = []
            warm = 0.0
            for k in range(repeats):
                got = ours.ask(json.dumps({**ask, "seed": k + 1}))
                warm = max(warm, got["warm_seconds"])
                mine.append((got["rounds"], got["seconds"]))
                if theirs is not None and alongside:
                    try:
                        got = theirs.ask(str(rounds))
                    except (RuntimeError, ValueError) as exc:
                        print(f"hhoppe/blackjack stopped: {exc}")
                        theirs.close()
                        theirs = None
                        yours = []
                        continue
                    yours.append((got["hands"], got["seconds"]))
            return mine, yours, warm

        mine, yours, warm_ours = side_by_side({"game": "random-blackjack", "over": ANCHOR_RULES, "rounds": rounds})
        best, median = _rates(mine)
        print(f"ours, fastsim (Auto, composition-dependent; a fresh shoe every round): best {best / 1e6:.2f} M, "
              f"median {median / 1e6:.2f} M rounds/s (warm-up {warm_ours:.1f} s)")
        if yours:
            tbest, tmedian = _rates(yours)
            print(f"hhoppe/blackjack, monte_carlo_house_edge_cpu (total-dependent chart; 36 hands a shoe): best "
                  f"{tbest / 1e6:.2f} M, median {tmedian / 1e6:.2f} M hands/s (warm-up {warm_theirs:.1f} s)")
            print(f"ours / theirs: best x {best / tbest:.2f}, median x {median / tmedian:.2f}")
        profile_rounds = max(1, rounds // 2)
        print(f"our compiled path of each 21-family profile, one core, {profile_rounds:,} rounds a run, best and "
              f"median of {repeats}" + (", each run followed by one of theirs on the anchor (their median "
                                        "beside)" if theirs is not None else "") + ":")
        for profile in shipped_profiles():
            if profile.engine == "eenendertigen":
                continue  # 31, below, per variant
            mine, yours, _warm = side_by_side({"game": profile.game, "rounds": profile_rounds})
            best, median = _rates(mine)
            beside = ""
            if yours:
                tmedian = _rates(yours)[1]
                beside = f"; theirs {tmedian / 1e6:.2f} M hands/s: x {median / tmedian:.2f}"
            print(f"  {profile.game}: best {best / 1e6:.2f} M, median {median / 1e6:.2f} M rounds/s{beside}")
        thirty_one = max(1, rounds // 10)
        for variant in ("classic", "modern"):
            runs = side_by_side({"game": "eenendertigen", "over": {"variant": variant}, "rounds": thirty_one},
                                alongside=False)[0]
            best, median = _rates(runs)
            print(f"31 (eenendertigen), {variant}, Auto against three computer players, one core, {thirty_one:,} rounds "
                  f"a run: best {best:,.0f}, median {median:,.0f} rounds/s (the goal: 100 000)")
    finally:
        ours.close()
        if theirs is not None:
            theirs.close()


def run(names: list[str], **options: Any) -> int:
    """Each benchmark with a cache folder of its own, empty (what it times is computed, not read
    from an earlier run's tables; ``startup`` times both). An option given (not None) goes to
    the benchmarks that take a parameter of its name (``rounds``, ``coins``, ``cluster``)."""
    import inspect

    for name in names or list(BENCHES):
        print(f"== {name}")
        with tempfile.TemporaryDirectory() as folder, _env("CABINET_CACHE_DIR", folder):
            takes = inspect.signature(BENCHES[name]).parameters
            BENCHES[name](**{k: v for k, v in options.items() if v is not None and k in takes})
    return 0


@contextlib.contextmanager
def _env(name: str, value: str) -> Iterator[None]:
    """The environment variable ``name`` set to ``value`` for a while, then as it was."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


CABINET = [sys.executable, "-m", "machine"]
"""The ``cabinet`` command as a new process of this interpreter (``machine/__main__.py``)."""


def last_line(text: str, default: str = "?") -> str:
    """The last line of a child's output (its one-line error), or ``default``."""
    return (text.strip().splitlines() or [default])[-1]


def shipped_profiles() -> list[Any]:
    """Every game profile in ``config/games``, by name."""
    from machine.games.rules import config_dir, load_profile

    return [load_profile(p.stem) for p in sorted((config_dir() / "games").glob("*.yaml"))]


# -- Eric Farmer's exact engine beside ours (cabinet bench farmer) ------------------------------

ANCHOR_RULES: dict[str, Any] = {
    "hole_card": True, "double_hard": "any", "double_soft": "any", "double_makes_aces_hard": False,
    "max_splits_and_doubles": None, "resplit_aces": False, "three_sevens_bonus": 0}
"""The anchor rule set (6 decks, S17, DOA, DAS, resplit to 4 hands, no resplit aces, peek, no
surrender, 3:2) as overrides of Random Blackjack's profile (docs/house-edge-sources.md §1)."""

FARMER_VARIABLE = "FARMER_BLACKJACK"  # the path of a checkout of github.com/possibly-wrong/blackjack
# what strategy.cpp links against (its main, the engine, and the two it calls for the pdf of a round)
FARMER_SOURCES = ("src/strategy.cpp", "src/blackjack.cpp", "src/indices.cpp", "src/pdf/blackjack_pdf.cpp")
FARMER_FLAGS = ("-O2", "-Isrc", "-Isrc/pdf")
# strategy's prompts, in order: decks; dealer hits soft 17; double on any total; double on soft
# hands; double after a hit; double after a split; resplit; resplit aces; CDZ- post-split
# strategy; late surrender; blackjack payoff; the output file; then "0 0" ends the hand prompt
FARMER_ANSWERS = "6\nn\ny\ny\nn\ny\ny\nn\ny\nn\n1.5\nout.txt\n0 0\n"


class FarmerUnavailable(Exception):
    """Farmer's engine cannot be built or run here (one line for the report)."""


def farmer_build(checkout: Path) -> Path:
    """Farmer's ``strategy`` program built with ``g++ -O2`` from ``checkout``, in a folder of the
    user's cache folder (outside the repository) named by a digest of the sources, the flags and
    the compiler: built once, then found again while none of them changes."""
    import contextlib
    import hashlib
    import shutil
    import subprocess

    src = checkout / "src"
    if not all((checkout / f).is_file() for f in FARMER_SOURCES):
        raise FarmerUnavailable(f"{checkout} is not a checkout of possibly-wrong/blackjack (no {FARMER_SOURCES[0]})")
    gxx = shutil.which("g++")
    if gxx is None:
        raise FarmerUnavailable("no g++ on the PATH to build Farmer's engine")
    version = subprocess.run([gxx, "--version"], capture_output=True, text=True).stdout.splitlines()[:1]
    h = hashlib.sha256(repr((FARMER_SOURCES, FARMER_FLAGS, version)).encode())
    for f in sorted(p for p in src.rglob("*") if p.suffix in (".cpp", ".h", ".hpp")):
        h.update(f.relative_to(checkout).as_posix().encode() + b"\0" + f.read_bytes())
    home = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "cabinet"
    folder = home / f"farmer-strategy-{h.hexdigest()[:16]}"
    binary = folder / "strategy"
    if binary.is_file():
        return binary
    print(f"building Farmer's engine from {checkout} (g++ {' '.join(FARMER_FLAGS)}; about a minute, once) into {folder}",
          flush=True)
    home.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="farmer-build-", dir=home))
    try:
        objects = [work / (Path(source).stem + ".o") for source in FARMER_SOURCES]
        for source, obj in zip(FARMER_SOURCES, objects, strict=True):
            _compile([gxx, *FARMER_FLAGS, "-c", source, "-o", str(obj)], checkout)
        _compile([gxx, "-O2", *map(str, objects), "-o", str(work / "strategy")], checkout)
        for obj in objects:
            obj.unlink()
        with contextlib.suppress(OSError):  # whole or not at all (another run may have won the race)
            work.rename(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not binary.is_file():
        raise FarmerUnavailable(f"the build left no {binary}")
    return binary


def _compile(cmd: list[str], cwd: Path) -> None:
    import subprocess

    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        last = last_line(done.stderr, "(no message)")
        raise FarmerUnavailable(f"g++ failed ({' '.join(cmd[1:])}): {last}")


def farmer_run(binary: Path) -> tuple[float, float]:
    """One run of Farmer's ``strategy`` on the anchor rules: (seconds, overall EV in %), the EV
    read from the ``Total |`` row of the file it writes."""
    import re
    import subprocess

    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        done = subprocess.run([str(binary)], input=FARMER_ANSWERS, cwd=tmp, capture_output=True, text=True, timeout=900)
        seconds = time.perf_counter() - t
        out = Path(tmp) / "out.txt"
        text = out.read_text() if out.is_file() else ""
    found = re.search(r"^\s*Total \|\s*(-?\d+\.\d+)\s*(?:\+/-.*)?$", text, re.MULTILINE)
    if done.returncode != 0 or found is None:
        raise FarmerUnavailable(f"Farmer's strategy ended with code {done.returncode} and no overall EV in its file")
    return seconds, float(found.group(1))


def _times(label: str, times: list[float]) -> str:
    return f"{label}: best {min(times):.2f} s, median {statistics.median(times):.2f} s ({len(times)} runs)"


def _ratio(ours: float, theirs: float) -> str:
    """Best against best, as a factor of the faster side."""
    if ours < theirs:
        return f"{theirs / ours:.2f}x faster than Farmer's"
    return f"{ours / theirs:.2f}x slower than Farmer's"


@bench("farmer")
def farmer_bench(repeats: int = 3) -> None:
    """The anchor rule set's exact house edge, ours beside Eric Farmer's C++ engine
    (``strategy``, CDZ-) in one run: both figures and their difference (they agree to 1e-9 %),
    and each side's time (``repeats`` runs, best and median). Farmer's engine is built from the
    checkout named by ``FARMER_BLACKJACK`` (never part of this repository); without it, ours
    alone. Ours: ``game_rtp`` in this process with every cache cleared (after one call on other
    rules, so compiled kernels are loaded), and ``cabinet rtp`` as a new process each time."""
    import json
    import subprocess

    from machine.gamemath.game import game_rtp
    from machine.games.rules import load_profile

    farmer: tuple[list[float], float] | None = None
    checkout = os.environ.get(FARMER_VARIABLE)
    if not checkout:
        print(f"{FARMER_VARIABLE} is not set: export {FARMER_VARIABLE}=/path/to/a/checkout/of/github.com/possibly-wrong/"
              "blackjack to time Eric Farmer's engine beside ours; ours alone")
    else:
        try:
            binary = farmer_build(Path(checkout).expanduser())
            runs = [farmer_run(binary) for _ in range(repeats)]
            farmer = [s for s, _ in runs], runs[0][1]
        except (FarmerUnavailable, OSError, subprocess.SubprocessError) as exc:
            print(f"Farmer's engine not timed: {exc}; ours alone")

    rules = load_profile("random-blackjack", ANCHOR_RULES).rules
    game_rtp(load_profile("random-blackjack", WARM_UP["blackjack"]).rules)  # warm-up: imports and kernels loaded
    ours: list[float] = []
    edge = 0.0
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder, _env("CABINET_CACHE_DIR", folder):
            forget_exact("blackjack")
            t = time.perf_counter()
            edge = game_rtp(rules).house_edge
            ours.append(time.perf_counter() - t)
    command: list[float] = []
    script = "game: random-blackjack\nrules: " + json.dumps(ANCHOR_RULES) + "\n"
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as folder:
            env = dict(_child_env(), CABINET_CACHE_DIR=folder)
            t = time.perf_counter()
            done = subprocess.run([*CABINET, "rtp", "-", "--json"], input=script, capture_output=True, text=True, env=env)
            command.append(time.perf_counter() - t)
        if done.returncode != 0:
            print(f"cabinet rtp failed: {last_line(done.stderr)}")
            command = []
            break
        if abs(other := json.loads(done.stdout)["house_edge"] - edge) > 1e-12:
            print(f"cabinet rtp's house edge differs from game_rtp's by {other * 100:+.1e} %")

    line = f"ours {edge * 100:.9f} %"
    if farmer:
        gap = edge * 100 + farmer[1]  # Farmer prints the player's EV: minus the house edge
        line += (f", Farmer's {-farmer[1]:.9f} % (CDZ-): difference {gap:+.1e} % "
                 f"({'agree' if abs(gap) <= 1e-9 else 'DIFFER'} to 1e-9 %)")
    print(f"anchor rules (6 decks, S17, DOA, DAS, resplit to 4 hands, no RSA, peek, no surrender, 3:2): house edge {line}")
    if farmer:
        print(_times("Farmer's strategy (g++ -O2, a new process; its output file included)", farmer[0]))
    print(_times("ours, game_rtp in this process, every cache cleared", ours)
          + (f": {_ratio(min(ours), min(farmer[0]))}" if farmer else ""))
    if command:
        print(_times("ours, cabinet rtp --json as a new process (imports included), an empty cache folder", command)
              + (f": {_ratio(min(command), min(farmer[0]))}" if farmer else ""))


# -- every 21-family profile's exact RTP from nothing (cabinet bench exact) ---------------------

EXACT_GOAL = 2.0  # seconds: issue 15 wants every 21-family profile's exact RTP under two seconds
WARM_UP = {"blackjack": {"decks": 1}, "eenentwintig": {"decks": 1}, "ochko": {"decks": 2}}
"""Per engine, rules other than any profile's: one exact RTP of them first loads the imports and
any compiled kernels, so a profile's time is its own computation."""


def forget_exact(engine: str) -> None:
    """Clear what a process remembers of an engine's exact analysis (the tables on disk are
    the caller's: an empty ``CABINET_CACHE_DIR``)."""
    if engine == "blackjack":
        from machine.gamemath import dealer, game, shoe, table

        caches: list[Any] = [game.analysis, dealer.terminals, dealer.trie, table.pay_rows, table.children, shoe.score]
        for cached in caches:
            cached.cache_clear()
        try:
            from machine.gamemath import exact_fast
        except ImportError:
            return
        exact_fast.forget()
    elif engine == "eenentwintig":
        from machine.gamemath import eenentwintig, eenentwintig_exact

        caches = [eenentwintig.analysis, eenentwintig_exact.exact, eenentwintig_exact.bank_tree,
                  eenentwintig_exact.bank_plan, eenentwintig_exact.facts]
        for cached in caches:
            cached.cache_clear()
    elif engine == "ochko":
        from machine.gamemath.ochko import exact

        exact.analysis.cache_clear()


@bench("exact")
def exact_bench() -> None:
    """The exact RTP of every shipped 21-family profile (``config/games``; eenendertigen's
    return is simulated: not here), each from nothing: an empty cache folder and the analysis
    forgotten, after one exact RTP of other rules per engine (imports and compiled kernels
    loaded). One line each with the RTP and whether it took under two seconds; beside it, the
    whole ``cabinet rtp`` of the profile as a new process (imports included, an empty cache
    folder), what a user waits."""
    import subprocess

    from machine.gamemath.engines import exact_returns
    from machine.games.rules import load_profile

    profiles = [p for p in shipped_profiles() if p.engine != "eenendertigen"]
    t = time.perf_counter()
    for engine in dict.fromkeys(p.engine for p in profiles):
        with tempfile.TemporaryDirectory() as folder, _env("CABINET_CACHE_DIR", folder):
            first = next(p for p in profiles if p.engine == engine)
            exact_returns(load_profile(first.game, WARM_UP.get(engine, {})))
    print(f"warm-up (imports and compiled kernels, one exact RTP of other rules per engine): "
          f"{time.perf_counter() - t:.1f} s")
    over = []
    for profile in profiles:
        with tempfile.TemporaryDirectory() as folder, _env("CABINET_CACHE_DIR", folder):
            forget_exact(profile.engine)
            t = time.perf_counter()
            rtp = exact_returns(profile)[0]
            seconds = time.perf_counter() - t
        with tempfile.TemporaryDirectory() as folder:
            t = time.perf_counter()
            done = subprocess.run([*CABINET, "rtp", "-"], input=f"game: {profile.game}\n", capture_output=True,
                                  text=True, env=dict(_child_env(), CABINET_CACHE_DIR=folder))
            command = time.perf_counter() - t
        if seconds >= EXACT_GOAL:
            over.append(profile.game)
        print(f"{profile.game} ({profile.engine}): exact RTP {rtp * 100:.5f} % in {seconds:.2f} s; "
              f"under {EXACT_GOAL:g} s: {'no' if seconds >= EXACT_GOAL else 'yes'} "
              + (f"(cabinet rtp as a new process: {command:.2f} s)" if done.returncode == 0 else
                 f"(cabinet rtp failed: {last_line(done.stderr)})"))
    print(f"every profile under {EXACT_GOAL:g} s: " + ("yes" if not over else f"no ({len(over)} of {len(profiles)} over: "
                                                      f"{', '.join(over)})"))
