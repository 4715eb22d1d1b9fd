"""Benchmarks, printed as figures (never asserted in the test suite).

Owns: ``cabinet bench NAME`` and ``tools/bench`` (all of them). Each benchmark works in a
temporary folder and prints a few lines of results.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

BENCHES: dict[str, Callable[..., None]] = {}


def bench(name: str):
    def register(fn):
        BENCHES[name] = fn
        return fn

    return register


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


@bench("journal")
def journal_bench(rounds: int = 300) -> None:
    """Commit latency of one money event, and whole rounds per second, with full durability."""
    from .cabinet import CabinetSettings, open_cabinet
    from .crashtest import shoes_for, simple_player
    from .rules import load_profile

    with tempfile.TemporaryDirectory() as tmp:
        cab = open_cabinet(Path(tmp) / "journal.sqlite", load_profile("random-blackjack"), CabinetSettings(seats=4),
                           shoes_for(1), simple_player)
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
                cab.press(d.seat, rng.choice(["stand", "draw", "auto"]), now)
        dt = time.perf_counter() - t0
        print(f"durable 4-seat rounds: {rounds / dt:.1f} rounds/s ({(cab.inputs - txs) / dt:.0f} transactions/s)")


@bench("frames")
def frames_bench(frames: int = 300) -> None:
    """Frame time of the four player screens at 1920x1080 (headless), mid-round."""
    import os

    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from .display.draw import Renderer
    from .display.scenes import SCENE_TIME, SCENES
    from .display.view import build_view

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


def run(names: list[str]) -> int:
    for name in names or list(BENCHES):
        print(f"== {name}")
        BENCHES[name]()
    return 0
