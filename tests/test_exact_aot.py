"""The exact analysis's ahead-of-time module (``machine.gamemath.blackjack.exact_aot``).

The module is ``exact_kernels`` compiled once more by numba's ahead-of-time compiler: on the
same arrays it must give numba's jit's values to the last bit (the house edge and every term of
the breakdown of a few rule sets), it must be refused when it was built from other sources (an
edited kernel is never served by a stale module), and a ``cabinet rtp`` or ``cabinet strategy``
it serves runs in a new process without importing numba. The module is built, when the
checkout's set-up has not built it yet, beside numba's cache (a few seconds to a minute, once).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from machine.gamemath.blackjack import exact_aot, exact_fast, exact_kernels  # noqa: E402
from machine.gamemath.blackjack import forget as forget_exact  # noqa: E402
from machine.gamemath.blackjack.game import game_rtp  # noqa: E402
from machine.gamemath.blackjack.table import UpTable  # noqa: E402
from machine.profiles import load_profile  # noqa: E402

from .newprocess import probe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ANCHOR: dict[str, Any] = {"hole_card": True, "double_hard": "any", "double_soft": "any", "double_makes_aces_hard": False,
          "max_splits_and_doubles": None, "resplit_aces": False, "three_sevens_bonus": 0}
RULE_SETS: list[tuple[str, dict[str, Any]]] = [
    ("random-blackjack", ANCHOR),  # the anchor rules: six decks, peek, resplits
    ("random-blackjack", {"decks": 1}),  # no hole card, the three sevens bonus, the joint limit
    ("spanish-21", {"decks": 2}),  # 48-card decks, the player's 21 wins
    ("european-blackjack", {"decks": 0}),  # the infinite deck
]


@pytest.fixture(scope="module")
def aot():
    """The module of the current sources (built into the checkout's folder when absent)."""
    built = exact_aot.build()
    assert built is not None, "numba and a C compiler are here: the module must build"
    module = exact_aot.load()
    assert module is not None
    return module


def rtp_with(kernels, rules, monkeypatch, tmp_path):
    """``game_rtp(rules)`` from nothing with the kernels ``(dealer_dists, play_values)``."""
    monkeypatch.setattr(exact_fast, "dealer_dists", kernels[0])
    monkeypatch.setattr(exact_fast, "play_values", kernels[1])
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    monkeypatch.setenv("CABINET_CACHE_DIR", str(folder))
    monkeypatch.delenv("CABINET_EXACT", raising=False)
    forget_exact()
    return game_rtp(rules)


@pytest.mark.parametrize(("profile", "over"), RULE_SETS, ids=[f"{p}-{sorted(o)[0]}" for p, o in RULE_SETS])
def test_the_ahead_of_time_module_gives_the_jits_values_to_the_last_bit(aot, profile, over, monkeypatch, tmp_path):
    rules = load_profile(profile, over).rules
    jit = rtp_with((exact_kernels.dealer_dists, exact_kernels.play_values), rules, monkeypatch, tmp_path)
    ahead = rtp_with((aot.dealer_dists, aot.play_values), rules, monkeypatch, tmp_path)
    assert ahead.house_edge == jit.house_edge
    assert ahead.breakdown == jit.breakdown
    assert ahead.frequency == jit.frequency
    # and one up card's dealer outcomes for every hand, array for array
    ft = exact_fast.FastTable(UpTable(rules, 6))
    assert np.array_equal(aot.dealer_dists(ft.C, ft.dl), exact_kernels.dealer_dists(ft.C, ft.dl))


def test_the_anchor_rules_house_edge_from_the_module(aot, monkeypatch, tmp_path):
    edge = rtp_with((aot.dealer_dists, aot.play_values), load_profile("random-blackjack", ANCHOR).rules,
                    monkeypatch, tmp_path).house_edge
    assert edge == pytest.approx(0.004028702361, abs=1e-12)  # Farmer's CDZ- figure (docs/house-edge-sources.md)


def test_a_module_built_from_other_sources_is_refused(aot, monkeypatch, tmp_path):
    assert exact_aot.kernels()[2] == "aot"  # the current module serves
    built = exact_aot.path()
    # an edited kernel: the same sources with one line more
    edited = tmp_path / "src"
    edited.mkdir()
    for name in exact_aot.SOURCES:
        shutil.copy(exact_aot.HERE / name, edited / name)
    with open(edited / "exact_kernels.py", "a") as f:
        f.write("# an edit\n")
    monkeypatch.setenv("CABINET_AOT_DIR", str(built.parent))
    monkeypatch.setattr(exact_aot, "HERE", edited)
    assert exact_aot.path() != built
    assert exact_aot.load() is None  # no module of the edited sources
    assert exact_aot.kernels()[2] == "jit"
    # the stale module under the name the edited sources would have: its own digest gives it away
    stale = exact_aot.path()
    shutil.copy(built, stale)
    try:
        assert exact_aot.load() is None
        dealer_dists, _, which = exact_aot.kernels()
        assert which == "jit" and dealer_dists is exact_kernels.dealer_dists
    finally:
        stale.unlink()


def test_the_module_refuses_an_array_it_would_misread(aot):
    dealer_dists = exact_aot.kernels()[0]
    ft = exact_fast.FastTable(UpTable(load_profile("casino-blackjack").rules, 6))
    assert np.array_equal(dealer_dists(ft.C, ft.dl), ft.dist0)
    # the module itself would read these wrongly (a Fortran or strided array) or crash (int32)
    for wrong in (np.asfortranarray(ft.C), ft.C[::2], ft.C.astype(np.int32)):
        with pytest.raises(TypeError, match="C-contiguous arrays of its signature"):
            dealer_dists(wrong, ft.dl)
    with pytest.raises(TypeError, match="C-contiguous arrays of its signature"):
        dealer_dists(ft.C, ft.dl[:-1])


@pytest.mark.parametrize(("command", "edge"), [("rtp", "house edge 0.40287 %"), ("strategy", "house edge 0.40435 %")])
def test_a_command_the_module_serves_never_imports_numba(aot, command, edge, tmp_path):
    script = tmp_path / "anchor.json"
    script.write_text(json.dumps({"game": "random-blackjack", "rules": ANCHOR}))
    env = {"PYTHONPATH": str(ROOT), "CABINET_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
           "HOME": str(tmp_path)}
    probed = probe([command, str(script)], env, tmp_path)  # what else it must not import: test_command_imports.py
    assert probed.done.returncode == 0, probed.done.stderr
    assert (probed.kernels, probed.loaded("numba", "llvmlite")) == ("aot", [])
    assert edge in probed.done.stdout  # Auto's on the anchor rules, and the total-dependent chart's


def test_the_build_is_not_stopped_by_numbas_notice_that_pycc_will_go(tmp_path):
    """numba warns that ``numba.pycc`` is to be removed (a pending deprecation): a process that
    turns warnings into errors (pytest here, ``python -W error``) failed in the build, not with
    "not built" but with the warning's traceback. Only the digest function is compiled (seconds)."""
    code = ("import sys; from pathlib import Path; from machine.gamemath.blackjack import exact_aot; "
            "exact_aot.SIGNATURES = {}; exact_aot.build(print, Path(sys.argv[1]))")
    done = subprocess.run([sys.executable, "-W", "error", "-c", code, str(tmp_path)], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1])))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "ahead-of-time module" in done.stdout
