"""The ``tools/run`` window's coin keys: a burst of presses is queued and fed to the simulated
acceptor at a real acceptor's pace, so every coin typed is credited and nothing tilts."""

from __future__ import annotations

import pytest

from machine.devtools.harness import COIN_PACE, CoinFeeder, SimulatedCabinet
from machine.loop import wiring
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from tests.e2e_helpers import ready, run_until
from tests.helpers import two_seats

CONFIG = two_seats()


def test_coins_wait_their_turn_per_acceptor_one_every_pace():
    fed: list[tuple[float, int, str]] = []
    now = 0.0
    feeder = CoinFeeder(lambda addr, coin: fed.append((now, addr, coin)), pace=0.3)
    for coin in ("EU100A", "EU200A", "EU050A"):
        feeder.add(2, coin, now)  # three presses at once on seat 1's acceptor
    feeder.add(11, "EU100A", now)  # another acceptor does not wait for it
    assert fed == [(0.0, 2, "EU100A"), (0.0, 11, "EU100A")] and feeder.waiting == 2
    for now in (0.1, 0.29, 0.3, 0.45, 0.6, 0.9):
        feeder.feed(now)
    assert fed[2:] == [(0.3, 2, "EU200A"), (0.6, 2, "EU050A")] and feeder.waiting == 0  # in the order typed


@pytest.mark.timeout(60)
def test_ten_quick_presses_credit_ten_coins_and_nothing_tilts(tmp_path, monkeypatch):
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    import pygame

    cfg = temporary(parse_config(CONFIG, "t.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda *args: "stand")
    try:
        ready(app)
        for _ in range(10):  # faster than any acceptor: all within one frame
            app.on_input(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_w))  # W: a 1 euro coin, seat 1
        seat = app.cab.seats[1]
        run_until(app, lambda: seat.money.credit == 100 or seat.lock is not None, timeout=10 * COIN_PACE + 10,
                  what="ten coins")
        run_until(app, lambda: True)
        with app.lock:
            assert seat.lock is None and seat.money.credit == 100
            assert seat.meters.get("coin_in_count:EU100A") == 10
        assert app.sims.bus.control.count(2, "credits") == 10  # every coin the acceptor took
        assert not app.worker.faults
    finally:
        app.close()
