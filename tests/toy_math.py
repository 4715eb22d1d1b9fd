"""A game-math module for tests/test_cli_commands.py: the reports of an engine the command line
has never heard of, with words no real engine says."""

from __future__ import annotations

from typing import Any


def rtp_report(profile: Any) -> dict[str, Any]:
    return {"game": profile.game, "rtp": 0.5, "said by": "the toy math"}


def rtp_lines(profile: Any) -> list[str]:
    return [f"{profile.game}: the toy math prices it at 50 %", "a second line"]


def strategy_lines(profile: Any) -> list[str]:
    return [f"{profile.game}: the toy math's chart"]
