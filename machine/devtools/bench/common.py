"""What every benchmark shares: the registry of benches, the environment of their children.

Owns: ``BENCHES`` and ``bench(name)`` (the registration of a benchmark under the name
``cabinet bench NAME`` runs), ``percentile``, ``env`` (an environment variable for a while),
``child_env`` and ``CABINET`` (a child process of this checkout), ``last_line``,
``shipped_profiles`` and ``ANCHOR_RULES``. Times nothing itself.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

BENCHES: dict[str, Callable[..., None]] = {}


def bench(name: str):
    def register(fn):
        BENCHES[name] = fn
        return fn

    return register


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


@contextlib.contextmanager
def set_env(name: str, value: str) -> Iterator[None]:
    """The environment variable ``name`` set to ``value`` for a while, then as it was."""
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


CABINET = [sys.executable, "-m", "machine"]
"""The ``cabinet`` command as a new process of this interpreter (``machine/__main__.py``)."""


def last_line(text: str, default: str = "?") -> str:
    """The last line of a child's output (its one-line error), or ``default``."""
    return (text.strip().splitlines() or [default])[-1]


def shipped_profiles() -> list[Any]:
    """Every game profile in ``config/games``, by name."""
    from machine.profiles import config_dir, load_profile

    return [load_profile(p.stem) for p in sorted((config_dir() / "games").glob("*.yaml"))]


def child_env() -> dict[str, str]:
    """The environment of a benchmark's child process: this checkout first on its path."""

    here = str(Path(__file__).resolve().parents[3])
    return dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))


ANCHOR_RULES: dict[str, Any] = {
    "hole_card": True, "double_hard": "any", "double_soft": "any", "double_makes_aces_hard": False,
    "max_splits_and_doubles": None, "resplit_aces": False, "three_sevens_bonus": 0}
"""The anchor rule set (6 decks, S17, DOA, DAS, resplit to 4 hands, no resplit aces, peek, no
surrender, 3:2) as overrides of Random Blackjack's profile (docs/house-edge-sources.md §1)."""
