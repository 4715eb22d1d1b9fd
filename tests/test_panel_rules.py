"""The button panel's rules, written once and run on every transport (as test_device_rules.py
does for the ccTalk devices): in memory (``PanelDevice`` behind ``MemoryTransport``, on a manual
clock), over a real pty (the panel simulator's thread, ``PanelSimulator``), and against a real
panel when ``CABINET_TEST_PANEL`` names one (``tests/hil.py``). A rule that drives the
simulated panel (a tap, a key, reading its lamps back) is skipped against a real one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hardware.clock import ManualClock
from hardware.panel.connection import LinkUp
from hardware.panel.host import PanelHost
from hardware.panel.messages import BUTTONS, KEYS, ButtonPressed, ButtonReleased, Door, KeySwitch
from hardware.panel.testing import MemoryTransport
from hardware.sim.panel import PanelSimulator
from hardware.sim.panel_device import PanelDevice

from tests.hil import REAL_PANEL

pytestmark = pytest.mark.timeout(120)

TRANSPORTS = ["memory", "pty", pytest.param("real", marks=pytest.mark.skipif(
    REAL_PANEL is None, reason="CABINET_TEST_PANEL names no real panel"))]


class PanelLink:
    """A PanelHost on one transport, polled as the cabinet loop polls it, every event kept."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.seen: list[object] = []
        self.device: PanelDevice | None = None
        self.thread: PanelSimulator | None = None
        if kind == "memory":
            self.clock = ManualClock(100.0)
            self.transport = MemoryTransport()
            self.device = PanelDevice(panel_id=3, seats=4)
            self.host = PanelHost(transport=self.transport, clock=self.clock, session=42)
        else:
            if kind == "pty":
                self.thread = PanelSimulator(seats=4).start()
            url = self.thread.link_url if self.thread is not None else REAL_PANEL
            assert url is not None
            self.host = PanelHost(url)

    def _step(self) -> None:
        if self.device is None:
            self.host.poll()
            time.sleep(0.002)
            return
        self.clock.advance(0.005)
        now = self.clock()
        self.host.poll()
        data = self.transport.take_written()
        if data:
            self.device.receive_data(data, now)
        self.device.tick(now)
        self.transport.incoming += self.device.data_to_send()

    def until(self, done: Callable[[], bool], limit: float = 3.0) -> None:
        """Poll (in the memory transport's own time, else the real one) until ``done``: ``limit``
        in the transport's own time; in the real one, 30 s more, as a loaded machine can be slow."""
        limit = limit if self.device is not None else limit + 30
        start, steps = time.monotonic(), 0
        while True:
            self.seen += self.host.events()
            if done():
                return
            elapsed = steps * 0.005 if self.device is not None else time.monotonic() - start
            if elapsed > limit:
                raise AssertionError(f"not done after {limit} s; saw {self.seen}")
            self._step()
            steps += 1

    def take(self) -> list[object]:
        out, self.seen = self.seen, []
        return out

    def panel(self) -> Any:
        """The simulated panel, to act on it or read it back; skipped on a real panel."""
        if self.device is not None:
            return self.device
        if self.thread is None:
            pytest.skip("drives the simulated panel (CABINET_TEST_PANEL names a real one)")
        return self.thread

    def tap(self, seat: int, button: str) -> None:
        sim = self.panel()
        sim.tap(seat, button, self.clock()) if self.device is not None else sim.tap(seat, button)

    def shown_lamps(self, seat: int) -> dict[str, str]:
        sim = self.panel()
        if self.device is not None:
            return {b: str(v) for b, v in sim.shown_lamps()[seat].items()}
        return dict(sim.lamps()[str(seat)])

    def close(self) -> None:
        self.host.close()
        if self.thread is not None:
            self.thread.stop()


@pytest.fixture(params=TRANSPORTS)
def link(request: pytest.FixtureRequest) -> Iterator[PanelLink]:
    made = PanelLink(request.param)
    try:
        yield made
    finally:
        made.close()


def test_the_link_comes_up_new_and_reports_both_keys_and_the_door(link):
    link.until(lambda: any(isinstance(e, Door) for e in link.seen))
    seen = link.take()
    up = seen[0]
    assert isinstance(up, LinkUp) and up.new_session and up.seats >= 1 and link.host.link_up
    assert [e.name for e in seen if isinstance(e, KeySwitch)] == list(KEYS)
    assert link.host.door_open is not None and set(link.host.keys) == set(KEYS)


def test_every_lamp_command_is_acknowledged_and_shown_by_the_panel(link):
    link.until(lambda: link.host.link_up)
    seats = link.host.panel.seats if link.host.panel else 1
    for seat in range(1, seats + 1):
        link.host.set_lamps(seat, {b: "blink" for b in BUTTONS})
        link.host.set_lamps(seat, {b: "off" for b in BUTTONS})
    link.host.set_lamp(1, "double", "on")
    link.until(lambda: link.host.stats["pending"] == 0)
    assert link.host.link_up and link.host.stats["corrupt_frames"] == 0
    shown = link.shown_lamps(1)
    assert shown == {b: "on" if b == "double" else "off" for b in BUTTONS}


def test_a_tap_arrives_as_one_press_and_one_release(link):
    link.until(lambda: any(isinstance(e, Door) for e in link.seen))
    link.take()
    link.tap(2, "double")
    link.until(lambda: any(isinstance(e, ButtonReleased) for e in link.seen))
    assert [e for e in link.take() if isinstance(e, ButtonPressed | ButtonReleased)] == [
        ButtonPressed(2, "double"), ButtonReleased(2, "double")]
