"""Driving the whole cabinet through its simulators in end-to-end tests: run frames until
something holds, wait for the links, read the simulated panel's lamps, press and wait."""

from __future__ import annotations

import time

from machine.devtools.harness import SimulatedCabinet


def run_until(app: SimulatedCabinet, cond, timeout: float = 20.0, what: str = "") -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.frame()
        with app.lock:
            if cond():
                return
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what or cond}")


def ready(app: SimulatedCabinet, bus=None) -> None:
    """The panel link is up and every simulated acceptor has been told to take coins."""
    control = (bus or app.sims.bus).control
    run_until(app, lambda: app.panel.link_up and all(
        control.status(a.address)["master"] == "1" for a in app.devices.acceptors.values()
    ), what="the panel link and the acceptors")


def lamps(app: SimulatedCabinet, seat: int) -> set[str]:
    """The lamps lit on the simulated panel, once they have caught up with the loop's (the
    cabinet's live buttons, and Insurance where it chooses the seat's language)."""

    def lit() -> set[str]:
        return {b for b, s in app.sims.panel.lamps()[str(seat)].items() if s != "off"}

    run_until(app, lambda: lit() == app.router.lamps()[seat], what=f"seat {seat}'s lamps")
    return lit()


def press(app: SimulatedCabinet, seat: int, button: str, then=None, what: str = "") -> None:
    """Press on the simulated panel and run frames until the cabinet shows the effect."""
    before = app.cab.journal.last_seq
    app.sims.panel.tap(seat, button)
    run_until(app, then or (lambda: app.cab.journal.last_seq > before), what=what or f"seat {seat} {button}")
    run_until(app, lambda: True)  # one more frame: lamps follow
