"""Benchmarks of the cabinet's devices and screens: the frame time, the hopper payout over the
bus, a panel press to the frame that shows it. Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from pathlib import Path

from machine.devtools.bench.common import bench, percentile


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
