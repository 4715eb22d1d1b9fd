"""Eenendertigen's reports: ``cabinet strategy`` in words; no exact return.

Owns: ``exact_rtp``, ``rtp_report`` and ``rtp_lines``, which refuse with one line (the return
depends on the three computer players' play: ``cabinet simulate`` gives it), and
``strategy_lines``. Computes no value of its own.
"""

from __future__ import annotations

from typing import Any

from machine.gamemath.eenendertigen.strategy import PASS_AT, Q
from machine.games.eenendertigen.rules import EenendertigenRules


def exact_rtp(rules: EenendertigenRules) -> float:
    raise ValueError("eenendertigen has no exact return: it depends on the computer players' play "
                     "(cabinet simulate gives Auto's return against them)")


def rtp_report(profile: Any) -> dict[str, Any]:
    return {"rtp": exact_rtp(profile.rules)}


def rtp_lines(profile: Any) -> list[str]:
    exact_rtp(profile.rules)
    return []


def strategy_lines(profile: Any) -> list[str]:
    """``cabinet strategy``: the strategy in words (there is no chart by visible total)."""
    r: EenendertigenRules = profile.rules
    return [
        f"{profile.title} ({r.variant}): Auto and the computer players play the same strategy.",
        "- A move that makes 31 is taken at once: it knocks.",
        f"- Pass on {PASS_AT[r.variant] / 2:g} or more when no move scores more now.",
        f"- Else take the move of best value: its score plus {Q:g} x the expected gain of one more card.",
        "- On the last turn (after a knock, or all others passed) only the score counts.",
    ] + (["- Modern: draw when the mean value of the best discard beats every take of the open card."]
         if r.variant == "modern" else [])
