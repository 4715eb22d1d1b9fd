"""The payout bench runs the real driver against the simulator and reports T, H, R and load."""

from __future__ import annotations

import re

import pytest

from machine.devtools.hopper_bench import bench_payout


@pytest.mark.timeout(30)
def test_bench_pays_n_coins_and_reports_the_ratio_line():
    result = bench_payout(12, speed=16.0)
    assert result.paid == 12 and result.fault is None
    assert result.hopper_seconds == pytest.approx(0.75)
    assert result.ratio >= 1.0  # coins cannot leave faster than the hopper pays them
    bus, last = result.lines()  # `cabinet bench payout` ends with the payout line
    assert re.fullmatch(
        r"payout of 12 coins: \d+\.\d\d s, hopper-limited time 0\.75 s, ratio \d\.\d{3}", last
    )
    assert bus.startswith("bus load: ") and result.polls_per_second > 5
