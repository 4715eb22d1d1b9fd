"""The payout bench runs the real driver against the simulator and reports T, H, R and load."""

from __future__ import annotations

import re

import pytest

from hardware.bench import bench_payout


@pytest.mark.timeout(30)
def test_bench_pays_n_coins_and_reports_the_ratio_line():
    result = bench_payout(12, speed=16.0)
    assert result.paid == 12 and result.fault is None
    assert result.hopper_seconds == pytest.approx(0.75)
    assert 1.0 <= result.ratio < 1.5  # the goal R <= 1.05 is for longer payouts on an idle box
    first, second = result.lines()
    assert re.fullmatch(
        r"payout of 12 coins: \d+\.\d\d s, hopper-limited time 0\.75 s, ratio \d\.\d{3}", first
    )
    assert second.startswith("bus load: ") and result.polls_per_second > 5
