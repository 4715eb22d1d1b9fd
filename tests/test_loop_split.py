"""The loop's split: the product's frame loop knows no simulator and no development harness."""

from __future__ import annotations

import subprocess
import sys

import pytest

from machine.loop.app import CabinetApp
from machine.operator.config import parse_config
from machine.operator.firststart import temporary

from .helpers import two_seats

CONFIG = two_seats()


def test_the_product_loop_never_imports_the_development_harness():
    code = (
        "import sys, machine.loop.app, machine.loop.router, machine.loop.wiring, machine.display.screens\n"
        "bad = sorted(m for m in sys.modules if m.startswith(('machine.devtools', 'hardware.sim')))\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_product_loop_refuses_a_simulated_link_without_the_harness(tmp_path):
    cfg = temporary(parse_config(CONFIG, "t.yaml"), tmp_path)
    with pytest.raises(ValueError, match="devices.panel: sim needs the simulators"):
        CabinetApp(cfg, tmp_path, headless=True, auto=lambda rnd: "stand")
