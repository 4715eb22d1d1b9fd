"""What ``cabinet rtp`` and ``cabinet strategy`` say of an ochko profile.

Owns: the best bet rule (stake the most the table takes exactly when the expected net per
point, after seeing the first card and the banker's up card, is positive; else the minimum)
and its return; the total-dependent chart (one choice per total against each up card) and the
exact return of playing it; and the text and JSON of both commands. The numbers come from
``exact``.

How a chart cell is chosen: for a total, each choice's value is averaged over every hand of two
cards or more of that total, weighted by the chance of holding it against that up card, with
the chart's own cells followed after a draw (totals are filled from 20 down, so every total a
draw reaches is decided already). ``chart_rtp`` plays that chart exactly, with the same
recursion as Auto's return. Auto plays each composition at its best, so it is never worse.

The stake the bet rule calls "the most" is the smaller of ``max_bet`` and ``opening_bank``: what
a fresh bank covers for a lone seat (a grown bank covers more, a shrunk one less).
"""

from __future__ import annotations

from typing import Any

from machine.gamemath.ochko.exact import (
    NV,
    VALUES,
    ZERO,
    Analysis,
    Comp,
    best,
    comp_total,
    exact_rtp,
    of,
    plus,
)
from machine.games.ochko.rules import LOSE_AT_ONCE, WIN_AT_ONCE, OchkoRules, at_once, may_draw_dark

NAMES = {2: "J", 3: "Q", 4: "K", 11: "A"}
ROWS = tuple(range(20, 3, -1))  # totals a seat decides on: 4 (two jacks) to 20
CODES = {"stand": "S", "hit": "D", "dark": "K"}


def name(i: int) -> str:
    """The rank a value index stands for: J, Q, K, 6 ... 10, A."""
    return NAMES.get(VALUES[i], str(VALUES[i]))


# -- the bet rule -------------------------------------------------------------------------------


def top_stake(rules: OchkoRules) -> int:
    return rules.bets(rules.opening_bank)[-1]


def bet_table(rules: OchkoRules) -> dict[tuple[int, int], float]:
    """The expected net per point of a stake on each (first card, up card)."""
    a = of(rules)
    return {(f, u): a.first_card_ev(f, u, rules.dark_draw) for f in range(NV) for u in range(NV)}


def bet_rule_rtp(rules: OchkoRules) -> float:
    """Returned over staked for a lone seat staking the most where its edge is positive."""
    lo, hi = rules.min_bet, top_stake(rules)
    table = bet_table(rules)
    staked = returned = 0.0
    for f, u, p in of(rules).deals():
        e = table[(f, u)]
        bet = hi if e > 0 else lo
        staked += p * bet
        returned += p * bet * (1 + e)
    return returned / staked


def bet_rule_text(rules: OchkoRules) -> str:
    table = bet_table(rules)
    lo, hi = rules.min_bet, top_stake(rules)
    parts = []
    for f in range(NV):
        ups = [name(u) for u in range(NV) if table[(f, u)] > 0]
        if ups:
            parts.append(f"{name(f)} against {' '.join(ups)}")
    if not parts:
        return f"always stake {lo}: no first card gives the seat an edge against any up card"
    return f"stake {hi} when the first card and the banker's up card are {'; '.join(parts)}; else stake {lo}"


# -- the chart ------------------------------------------------------------------------------------


def hands_of_total(a: Analysis, total: int) -> list[Comp]:
    """Every hand of two cards or more with this total (two aces are 21 or 22: never here)."""
    out: list[Comp] = []

    def walk(i: int, left: int, hand: Comp) -> None:
        if i == NV:
            if left == 0 and sum(hand) >= 2 and a.fits(hand):
                out.append(hand)
            return
        k = 0
        while k * VALUES[i] <= left:
            walk(i + 1, left - k * VALUES[i], hand[:i] + (k,) + hand[i + 1 :])
            k += 1

    walk(0, total, ZERO)
    return [h for h in out if comp_total(h, a.two) == total]


class ChartPlay:
    """The values of the chart's play against one up card."""

    def __init__(self, a: Analysis, cells: dict[int, dict[int, str]], up: int, dark_draw: bool):
        self.a, self.cells, self.up, self.dark = a, cells, up, dark_draw
        self._memo: dict[tuple[Comp, str], float] = {}

    def after_card(self, hand: Comp) -> float:
        total = comp_total(hand, self.a.two)
        outcome = at_once(total)
        if outcome == WIN_AT_ONCE:
            return 1.0
        if outcome == LOSE_AT_ONCE:
            return -1.0
        return self.value(hand, self.cells[total][self.up])

    def value(self, hand: Comp, action: str) -> float:
        key = (hand, action)
        got = self._memo.get(key)
        if got is not None:
            return got
        a, up = self.a, self.up
        total = comp_total(hand, a.two)
        removed = a.removed(hand, up)
        if action == "stand":
            got = a.stand(total, up, removed)
        elif action == "hit":
            got = sum(p * self.after_card(plus(hand, i)) for i, p in a.draws(removed))
        else:
            got = sum(p * a.stand(total + VALUES[i], up, plus(removed, i)) for i, p in a.draws(removed))
        self._memo[key] = got
        return got


def chart(rules: OchkoRules) -> dict[int, dict[int, str]]:
    """The total-dependent chart: ``cells[total][up]`` is ``stand``, ``hit`` or ``dark``."""
    a = of(rules)
    cells: dict[int, dict[int, str]] = {t: {} for t in ROWS}
    for up in range(NV):
        play = ChartPlay(a, cells, up, rules.dark_draw)
        for t in ROWS:
            hands = [h for h in hands_of_total(a, t) if a.fits(plus(h, up))]
            options = ("stand", "hit", "dark") if may_draw_dark(t, rules.dark_draw) else ("stand", "hit")
            weights = [a.chance_of(h, up) for h in hands]
            score = {o: sum(w * play.value(h, o) for h, w in zip(hands, weights)) for o in options}
            cells[t][up] = best(score) if hands else "stand"
    return cells


def chart_rtp(rules: OchkoRules, cells: dict[int, dict[int, str]]) -> float:
    """The exact return of a lone seat playing ``cells`` at a flat stake."""
    a = of(rules)
    plays = [ChartPlay(a, cells, up, rules.dark_draw) for up in range(NV)]
    ev = 0.0
    for f, u, p in a.deals():
        hand = plus(ZERO, f)
        ev += p * sum(q * plays[u].after_card(plus(hand, i)) for i, q in a.draws(a.removed(hand, u)))
    return 1.0 + ev


# -- the commands ---------------------------------------------------------------------------------


def _decks(rules: OchkoRules) -> str:
    return "infinite deck" if rules.decks == 0 else f"{rules.decks} deck{'s' if rules.decks != 1 else ''} of 36"


def _pct(x: float) -> str:
    return f"{x * 100:.5f} %"


def rtp_report(profile: Any) -> dict[str, Any]:
    """``cabinet rtp --json``: the flat-stake return with Auto's play, and the best bet rule."""
    r: OchkoRules = profile.rules
    rtp = exact_rtp(r)
    table = bet_table(r)
    return {
        "game": profile.game,
        "rules": r.to_dict(),
        "rtp": rtp,
        "house_edge": 1.0 - rtp,
        "bet_rule": bet_rule_text(r),
        "bet_rule_rtp": bet_rule_rtp(r),
        "bet_rule_stakes": {"min": r.min_bet, "max": top_stake(r)},
        "bet_rule_edge": {name(f): {name(u): table[(f, u)] for u in range(NV)} for f in range(NV)},
    }


def rtp_lines(profile: Any) -> list[str]:
    rep = rtp_report(profile)
    r: OchkoRules = profile.rules
    return [
        f"{profile.title} ({profile.game}), {_decks(r)}: exact, Auto's composition-dependent play",
        f"RTP {_pct(rep['rtp'])}   house edge {_pct(rep['house_edge'])}   (the same stake every round)",
        f"best bet rule: {rep['bet_rule']}",
        f"RTP with the bet rule {_pct(rep['bet_rule_rtp'])}   (returned over staked)",
    ]


def strategy_lines(profile: Any) -> list[str]:
    r: OchkoRules = profile.rules
    cells = chart(r)
    head = "         " + " ".join(f"{name(u):>3}" for u in range(NV))
    dark = ", K dark card" if r.dark_draw else ""
    lines = [
        f"Chart for {profile.title} ({_decks(r)}): by the hand's total (rows) against the banker's up card: "
        f"D draw, S enough{dark}",
        head,
    ]
    for t in sorted(ROWS):
        lines.append(f"  {t:>4}   " + " ".join(f"{CODES[cells[t][u]]:>3}" for u in range(NV)))
    lines.append(f"RTP with this chart {_pct(chart_rtp(r, cells))}   Auto (every composition at its best) "
                 f"{_pct(exact_rtp(r))}")
    table = bet_table(r)
    lines += [
        f"The stake, by the first card (rows) against the up card: expected net per point, "
        f"* where the best bet rule stakes {top_stake(r)} (else {r.min_bet})",
        "       " + "".join(f"{name(u):>7} " for u in range(NV)),
    ]
    for f in range(NV):
        cells_f = (f"{table[(f, u)] * 100:+.1f}{'*' if table[(f, u)] > 0 else ' '}" for u in range(NV))
        lines.append(f"  {name(f):>4} " + "".join(f"{c:>8}" for c in cells_f).rstrip())
    return lines
