"""Our compiled simulators on one core beside Hugues Hoppe's (``cabinet bench hhoppe``).

Owns: the child process that times our fast paths on one thread (``one_core_child``), the
child driving theirs (``hhoppe_driver``, a file of its own run under their interpreter) and the
side-by-side runs. Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.devtools.bench.common import ANCHOR_RULES, bench, child_env, shipped_profiles

ONE_CORE = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def one_core_child() -> None:
    """The child process of ``hhoppe`` that times our compiled paths on one thread: a JSON line
    per request read from standard input ({"game", "over", "rounds", "seed"}), each a first
    untimed run (numba's compile or cache load, Auto's tables) the first time a rule set comes,
    then the timed run, its wall time around the whole call. Runs under ``ONE_CORE``."""
    import json

    from machine.gamemath.engines import math_of
    from machine.profiles import load_profile

    warmed: set[str] = set()
    for line in sys.stdin:
        ask = json.loads(line)
        profile = load_profile(ask["game"], ask.get("over") or {})
        rules, n, seed = profile.rules, int(ask["rounds"]), int(ask.get("seed", 1))
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
    call, shoes and all. Ours: ``blackjack.fast.fast_simulate`` (Auto's composition-dependent play, a
    fresh shoe shuffled for every round). Theirs (``hhoppe_driver``, run under
    ``$HHOPPE_PYTHON`` on the checkout at ``$HHOPPE_BLACKJACK``): ``monte_carlo_house_edge_cpu``
    on one process (their total-dependent basic strategy, 36 hands a shuffled shoe). Without
    ``$HHOPPE_BLACKJACK``: one line saying how to set it, and ours alone."""
    import json


    env = {**os.environ, **ONE_CORE}
    here = child_env()
    ours = _Child([sys.executable, "-c", "from machine.devtools.bench.hhoppe import one_core_child; one_core_child()"],
                  {**here, **ONE_CORE})
    theirs: _Child | None = None
    folder = os.environ.get("HHOPPE_BLACKJACK")
    python = os.environ.get("HHOPPE_PYTHON") or sys.executable
    if not folder:
        print("hhoppe/blackjack not measured: set HHOPPE_BLACKJACK to an extracted checkout of github.com/hhoppe/"
              "blackjack and HHOPPE_PYTHON to a Python that has its dependencies (numba, numpy, hhoppe-tools, "
              "matplotlib, more-itertools, tqdm, ipython); ours alone")
    else:
        theirs = _Child([python, str(Path(__file__).parent.with_name("hhoppe_driver.py")), folder], env)
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
        _every_profile(side_by_side, rounds, repeats, theirs is not None)
    finally:
        ours.close()
        if theirs is not None:
            theirs.close()


def _every_profile(side_by_side: Callable[..., Any], rounds: int, repeats: int, with_theirs: bool) -> None:
    """``hhoppe``'s second part: our compiled path of every 21-family profile on one core (each
    run followed by one of theirs when ``with_theirs``), then 31's per variant."""
    from machine.gamemath.engines import has_exact_rtp

    profile_rounds = max(1, rounds // 2)
    print(f"our compiled path of each 21-family profile, one core, {profile_rounds:,} rounds a run, best and "
          f"median of {repeats}" + (", each run followed by one of theirs on the anchor (their median "
                                    "beside)" if with_theirs else "") + ":")
    for profile in shipped_profiles():
        if not has_exact_rtp(profile.engine):
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
