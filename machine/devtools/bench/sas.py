"""The SAS response time: poll to reply, four seats on four links, robots playing, screens drawing.

Owns: ``cabinet bench sas``. The default cabinet (four seats, the simulators) with a SAS link per
seat (``pty://``: the cabinet makes each pty), robots playing every seat through the simulators
and the four screens drawn at 1920x1080 (SDL's dummy driver) each frame; a host in a process of
its own polls the four addresses in turn, a general poll then a 1A meter poll each, and times
from its poll's last byte to the reply's first byte and to the reply's last. Prints the median,
p99 and longest of both, and the longest gap the host saw between two replies. Asserts nothing.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from machine.devtools.bench.common import bench, percentile

POLL_EVERY = 0.02  # s between the host's polls (a busy host's pace)


def _host(paths: list[str], addresses: list[int], seconds: float, out: Any) -> None:
    """The host's process: polls until ``seconds`` pass; puts (first, whole, gaps) lists."""
    import select
    import termios
    import tty

    end = time.monotonic() + 60
    while not all(os.path.exists(p) for p in paths) and time.monotonic() < end:
        time.sleep(0.05)
    fds = []
    for p in paths:
        fd = os.open(p, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        tty.setraw(fd)
        termios.tcflush(fd, termios.TCIOFLUSH)
        fds.append(fd)
    first: list[float] = []
    whole: list[float] = []
    gaps: list[float] = []
    last_reply: float | None = None
    missed = 0
    stop = time.monotonic() + seconds
    i = 0
    while time.monotonic() < stop:
        fd, address = fds[i % len(fds)], addresses[i % len(fds)]
        poll, want = (bytes((0x80 | address,)), 1) if i // len(fds) % 2 == 0 else (bytes((address, 0x1A)), 8)
        i += 1
        os.write(fd, poll)
        sent = time.perf_counter()
        got = bytearray()
        t_first = None
        deadline = sent + 0.2
        while len(got) < want and time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.perf_counter()))
            if ready:
                try:
                    got += os.read(fd, 64)
                except BlockingIOError:
                    continue
                if t_first is None:
                    t_first = time.perf_counter()
        if t_first is None or len(got) < want:
            missed += 1
        else:
            done = time.perf_counter()
            first.append(t_first - sent)
            whole.append(done - sent)
            if last_reply is not None:
                gaps.append(done - last_reply - POLL_EVERY)
            last_reply = done
        time.sleep(POLL_EVERY)
    out.put((first, whole, gaps, missed))


@bench("sas")
def sas_bench(seconds: float = 20.0) -> None:
    """Poll-to-reply latency with robots playing four seats, the screens drawing, then without
    the screens (what the drawing costs the replies)."""
    for screens in (True, False):
        _run(seconds, screens)


def _run(seconds: float, screens: bool) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from machine.devtools.harness import SimulatedCabinet
    from machine.devtools.soak import Robot
    from machine.operator.config import load_config
    from machine.operator.firststart import temporary
    from machine.operator.sasconfig import SasConfig, SasLink

    with tempfile.TemporaryDirectory() as tmp:
        paths = [str(Path(tmp) / f"sas{n}") for n in range(1, 5)]
        links = [SasLink(port=f"pty://{p}", address=n, seat=n) for n, p in enumerate(paths, start=1)]
        cfg = temporary(load_config(), Path(tmp)).model_copy(update={"sas": SasConfig(links=links)})
        app = SimulatedCabinet(cfg, Path(tmp), headless=not screens, auto=lambda rnd: rnd.pending.options[0])
        ctx = multiprocessing.get_context("spawn")
        results = ctx.Queue()
        host = ctx.Process(target=_host, args=(paths, [1, 2, 3, 4], seconds, results), daemon=True)
        try:
            robot = Robot(app, random.Random(1))
            host.start()
            frames: list[float] = []
            games0 = sum(s.meters.get("games_played") for s in app.cab.seats.values())
            while host.is_alive() and results.empty():
                t = time.perf_counter()
                app.frame()
                robot.act(time.monotonic(), False)
                robot.attend(False)
                frames.append(time.perf_counter() - t)
                time.sleep(max(0.0, 1 / 60 - (time.perf_counter() - t)))
            first, whole, gaps, missed = results.get(timeout=30)
            games = sum(s.meters.get("games_played") for s in app.cab.seats.values()) - games0
        finally:
            host.join(timeout=5)
            app.close()
    ms = 1e3
    print(f"sas, {'screens drawing' if screens else 'headless'}: {len(first)} polls answered ({missed} not) on 4 links "
          f"in {seconds:.0f} s, {games} games played, frame median {statistics.median(frames) * ms:.1f} ms, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"poll to first reply byte: median {statistics.median(first) * ms:.2f} ms, p99 {percentile(first, 99) * ms:.2f} ms, "
          f"longest {max(first) * ms:.2f} ms (the document: within 20 ms)")
    print(f"poll to whole reply: median {statistics.median(whole) * ms:.2f} ms, p99 {percentile(whole, 99) * ms:.2f} ms, "
          f"longest {max(whole) * ms:.2f} ms; longest gap between replies beyond the host's {POLL_EVERY * ms:.0f} ms pace: "
          f"{max(gaps) * ms:.2f} ms")
