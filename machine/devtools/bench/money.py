"""Benchmarks of the money paths through the simulators: a note from insertion to credit, a
voucher from Collect to the printed ticket. Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.devtools.bench.common import bench, percentile


def _cabinet(tmp: Path) -> Any:
    """The shipped configuration on its simulators, with the ticket printer and payout: voucher."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.config import load_config
    from machine.operator.firststart import temporary

    cfg = temporary(load_config(), tmp)
    cfg = cfg.model_copy(update={"payout": "voucher", "devices": cfg.devices.model_copy(update={"printer": "sim"})})
    app = SimulatedCabinet(cfg, tmp, headless=True)
    end = time.monotonic() + 10
    while not (app.panel.link_up and app.sims.bus.control.status(cfg.devices.validators[1])["master"] == "1"):
        app.frame()
        if time.monotonic() > end:
            raise RuntimeError("the simulated devices did not come up")
    return app


def _until(app: Any, cond: Callable[[], bool], timeout: float = 10.0) -> float:
    t0 = time.perf_counter()
    end = time.monotonic() + timeout
    while not cond():
        app.frame()
        if time.monotonic() > end:
            raise RuntimeError("timed out")
        time.sleep(0.001)
    return time.perf_counter() - t0


def _note(app: Any, bill: str, points: int) -> float:
    """Insert ``bill`` into seat 1's validator until it is credited (a note the seat could not take
    just then comes back: put in again); the seconds from the insertion that was credited."""
    addr, seat = app.cfg.devices.validators[1], app.cab.seats[1]
    control = app.sims.bus.control
    _until(app, lambda: control.status(addr)["master"] == "1")  # the validator takes notes again (after a voucher)
    for _ in range(3):
        want = seat.money.credit + points
        t0 = time.perf_counter()
        app.sims.bus.control.note(addr, bill)
        try:
            _until(app, lambda: seat.money.credit >= want, 3.0)  # noqa: B023 - called at once, in this pass
            return time.perf_counter() - t0
        except RuntimeError:
            refused = [r.data for r in app.cab.journal.records("note_refused")]
            print(f"  a note came back ({refused[-1]['reason'] if refused else 'no refusal recorded'}): again")
    raise RuntimeError("no note was credited")


def _report(what: str, times: list[float]) -> None:
    print(f"{what}: median {statistics.median(times) * 1e3:.0f} ms, p90 {percentile(times, 90) * 1e3:.0f} ms, "
          f"max {max(times) * 1e3:.0f} ms ({len(times)} samples)")


@bench("notes")
def notes_bench(notes: int = 20) -> None:
    """A EUR 5 note from the validator's escrow to the seat's credit (two bus polls and the journal)."""
    with tempfile.TemporaryDirectory() as folder:
        app = _cabinet(Path(folder))
        try:
            times = [_note(app, "EU0005A", 50) for _ in range(notes)]
            _report("note inserted -> credited", times)
        finally:
            app.close()


@bench("vouchers")
def vouchers_bench(vouchers: int = 10) -> None:
    """Collect to the voucher printed whole (the journal's issue, the attempt, the ticket, the result)."""
    with tempfile.TemporaryDirectory() as folder:
        app = _cabinet(Path(folder))
        try:
            seat, printer = app.cab.seats[1], app.sims.printer
            times = []
            for i in range(vouchers):
                _note(app, "EU0010A", 100)
                t0 = time.perf_counter()
                app.sims.panel.tap(1, "collect")
                n = i + 1
                _until(app, lambda: len(printer.printed()) == n and seat.lock is None)  # noqa: B023 - at once
                times.append(time.perf_counter() - t0)
            _report("Collect -> voucher printed", times)
        finally:
            app.close()
