"""What ``cabinet rtp`` and ``cabinet strategy`` say of a blackjack-family profile.

Owns: the text and JSON of both commands for blackjack's games: the exact return with Auto's
composition-dependent play and its breakdown by the hand's first decision, and the
total-dependent basic strategy chart with the exact return of playing it. The numbers come
from ``game.py`` and ``chart.py`` beside it; Auto's tables are computed (or read from
the cache folder) by ``auto.prepare`` first. Never prints: the command line does.
"""

from __future__ import annotations

from typing import Any

from machine.gamemath.blackjack.auto import prepare
from machine.gamemath.blackjack.chart import chart_and_rtp
from machine.gamemath.blackjack.game import game_rtp


def pct(x: float) -> str:
    return f"{x * 100:.5f} %"


def decks_text(decks: int) -> str:
    return "infinite deck" if decks == 0 else f"{decks} deck{'s' if decks != 1 else ''}"


def rtp_report(profile: Any) -> dict[str, Any]:
    """``cabinet rtp --json``: the return at a flat bet with Auto's play, and by the hand's first
    decision the expected net per original bet and how often Auto takes it."""
    r = profile.rules
    prepare(r)  # Auto's tables computed and left in the cache folder, or read from it
    res = game_rtp(r)
    return {"game": profile.game, "rules": r.to_dict(), "rtp": res.rtp, "house_edge": res.house_edge,
            "breakdown": res.breakdown, "frequency": res.frequency}


def rtp_lines(profile: Any) -> list[str]:
    rep = rtp_report(profile)
    lines = [
        f"{profile.title} ({profile.game}), {decks_text(profile.rules.decks)}: exact, Auto's composition-dependent play",
        f"RTP {pct(rep['rtp'])}   house edge {pct(rep['house_edge'])}",
        "expected net per original bet, by the hand's first decision:",
    ]
    for k, v in rep["breakdown"].items():
        freq = rep["frequency"].get(k)
        if v == 0 and not freq:
            continue  # a choice this game never offers or Auto never takes
        lines.append(f"  {k:<14}{v * 100:+.5f} %" + (f"   (taken in {freq * 100:.3f} % of rounds)" if freq is not None else ""))
    return lines


def strategy_lines(profile: Any) -> list[str]:
    chart, res = chart_and_rtp(profile.rules)
    return [
        f"Basic strategy (total-dependent) for {profile.title}: H hit, S stand, D double (else hit), "
        "Ds double (else stand), P split, R surrender",
        chart.text(),
        f"RTP with this chart {pct(res.rtp)}   house edge {pct(res.house_edge)}",
    ]
