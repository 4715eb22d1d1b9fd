"""The clocks are given, never read inline: the loop's wall clock, the RAM clear's stamp, the
panel head store's start-up wait. Each test moves its own clock; none waits real seconds."""

from __future__ import annotations

import pytest

from hardware.clock import ManualClock

from machine.devtools.harness import SimulatedCabinet
from machine.loop.panelhead import LINK_STEP, LINK_WAIT, PanelHeadStore
from machine.money.memory import ram_clear
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from tests.cabinet_helpers import TEST_KEY, memory

from .helpers import two_seats


class LinkDownPanel:
    """A panel whose link comes up after ``up_after`` polls (never: None); it holds no head."""

    def __init__(self, clock: ManualClock, up_after: int | None = None):
        self.clock = clock
        self.polls = 0
        self.up_after = up_after
        self.nv_supported = False

    @property
    def link_up(self) -> bool:
        return self.up_after is not None and self.polls >= self.up_after

    def poll(self, now: float | None = None) -> None:
        self.polls += 1

    def read_head(self) -> bytes | None:
        return None


def test_the_panel_head_store_waits_for_the_link_on_the_clock_it_is_given():
    clock = ManualClock(100.0)
    panel = LinkDownPanel(clock)
    store = PanelHeadStore(panel, wait=clock.advance)  # type: ignore[arg-type]
    assert store.read(TEST_KEY) is None
    assert clock() == pytest.approx(100.0 + LINK_WAIT) and panel.polls == round(LINK_WAIT / LINK_STEP)


def test_the_panel_head_wait_ends_when_the_link_comes_up_and_never_polls_a_panel_pumped_elsewhere():
    clock = ManualClock()
    panel = LinkDownPanel(clock, up_after=3)
    store = PanelHeadStore(panel, wait=clock.advance)  # type: ignore[arg-type]
    store.read(TEST_KEY)
    assert panel.polls == 3 and clock() == pytest.approx(3 * LINK_STEP)
    quiet = LinkDownPanel(ManualClock())
    PanelHeadStore(quiet, pump=False, wait=quiet.clock.advance).read(TEST_KEY)  # type: ignore[arg-type]
    assert quiet.polls == 0 and quiet.clock() == pytest.approx(LINK_WAIT)


def test_a_closed_panel_head_store_stops_waiting_for_the_link():
    panel = LinkDownPanel(ManualClock())
    store = PanelHeadStore(panel)  # type: ignore[arg-type]  # the default wait: until close
    store.close()
    assert store.read(TEST_KEY) is None and panel.polls == 0 and panel.clock() == 0.0


def test_a_ram_clear_stamps_its_records_with_the_clock_it_is_given(tmp_path):
    journal, kept = ram_clear(tmp_path / "journal.sqlite", memory(tmp_path), "the journal was lost", clock=lambda: 1796155200.0)
    try:
        assert kept is None and [r.at for r in journal.records()] == [1796155200.0, 1796155200.0]
    finally:
        journal.close()


def test_a_ram_clear_names_the_untrusted_journal_by_its_clock(tmp_path):
    (tmp_path / "journal.sqlite").write_bytes(b"not a journal")
    journal, kept = ram_clear(tmp_path / "journal.sqlite", memory(tmp_path), "garbage", clock=lambda: 1796155200.0)
    journal.close()
    assert kept is not None and kept.name == "journal.sqlite.untrusted-20261201T200000"


@pytest.mark.timeout(60)
def test_the_frame_loop_gives_the_core_the_wall_clock_it_is_given(tmp_path):
    cfg = temporary(parse_config(two_seats(), "t.yaml"), tmp_path)
    loop = ManualClock(50.0)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, clock=loop, wall=lambda: 1796155200.0,
                           auto=lambda rnd: rnd.pending.options[0])
    try:
        app.frame()
        assert app.cab.core.wall(50.0) == 1796155200.0 and app.cab.core.wall(60.0) == 1796155210.0
    finally:
        app.close()
