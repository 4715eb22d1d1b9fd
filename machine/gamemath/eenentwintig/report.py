"""Eenentwintig's reports: the best bet rule, ``cabinet rtp`` and ``cabinet strategy``.

Owns: ``bet_rule`` (what a seat that has seen only its open card should bet, and its return),
``bet_rule_rtp``, ``first_decisions``, ``rtp_report`` / ``rtp_lines`` (``cabinet rtp``) and
``strategy_lines`` (``cabinet strategy``: Auto's choices by the seat's own cards). Reads the
values of ``eenentwintig.auto``; computes no value of its own and never writes a rule.
"""

from __future__ import annotations

from typing import Any

from machine.gamemath.eenentwintig.auto import ORDER, RANK_OF, analysis, best_of, exact_rtp
from machine.gamemath.eenentwintig.exact import ZERO, Exact, comp_of, facts, plus
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.rules import EenentwintigRules

NAMES = {"stand": "pass", "hit": "buy", "split": "split", "wash": "wash"}


def bet_rule(rules: EenentwintigRules) -> dict[str, Any]:
    """The best bet rule: the seat has seen only its open card when it bets, so it bets the
    maximum exactly where that card's expected net per point is positive, else the minimum.
    Its return is 1 + expected net / expected bet (the basis of ``rtp``: the bets placed)."""
    rows: list[dict[str, Any]] = []
    high: list[str] = []
    bet_sum = net_sum = 0.0
    for v, p, e in analysis(rules).open_cards():
        bet = rules.max_bet if e > 0 else rules.min_bet
        rows.append({"open_card": RANK_OF[v], "chance": p, "net_per_point": e, "bet": bet})
        if e > 0:
            high.append(RANK_OF[v])
        bet_sum += p * bet
        net_sum += p * bet * e
    text = (
        f"bet {rules.max_bet} when the open card is {_ranks_text(high)}, else {rules.min_bet}"
        if high else f"bet {rules.min_bet} whatever the open card"
    )
    return {"text": text, "table": rows, "rtp": 1 + net_sum / bet_sum, "average_bet": bet_sum}


def bet_rule_rtp(rules: EenentwintigRules) -> float:
    """The return of the best bet rule (``bet_rule``)."""
    return float(bet_rule(rules)["rtp"])


def _ranks_text(ranks: list[str]) -> str:
    names = {"A": "an ace", "T": "a ten", "7": "a 7", "8": "an 8", "9": "a 9", "J": "a jack", "Q": "a queen", "K": "a king"}
    words = [names[r] for r in ranks]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def first_decisions(rules: EenentwintigRules) -> dict[str, dict[str, float]]:
    """Per first choice of Auto: how often it is taken and what it adds to the net per bet."""
    e = analysis(rules)
    out = {a: {"frequency": 0.0, "net": 0.0} for a in ORDER}
    for i, p in e.draws(ZERO):
        for j, q in e.draws(plus(ZERO, i)):
            values = e.choices(plus(plus(ZERO, i), j))
            a = best_of(values)
            out[a]["frequency"] += p * q
            out[a]["net"] += p * q * values[a]
    return out


def rtp_report(profile: Any) -> dict[str, Any]:
    """``cabinet rtp --json``: the flat-bet return and the best bet rule with its return."""
    r: EenentwintigRules = profile.rules
    rtp = exact_rtp(r)
    rule = bet_rule(r)
    return {
        "game": profile.game,
        "rules": r.to_dict(),
        "rtp": rtp,
        "house_edge": 1 - rtp,
        "bet_rule": rule["text"],
        "bet_rule_rtp": rule["rtp"],
        "bet_rule_average_bet": rule["average_bet"],
        "bet_rule_table": rule["table"],
        "first_decisions": first_decisions(r),
    }


def _pct(x: float) -> str:
    return f"{x * 100:.5f} %"


def _decks(r: EenentwintigRules) -> str:
    return "infinite deck" if r.decks == 0 else f"{r.decks} deck{'s' if r.decks != 1 else ''} of 32 cards"


def rtp_lines(profile: Any) -> list[str]:
    """``cabinet rtp``: the report as text."""
    rep = rtp_report(profile)
    r = profile.rules
    lines = [
        f"{profile.title} ({profile.game}), {_decks(r)}: exact, Auto's composition-dependent play",
        f"flat bet: RTP {_pct(rep['rtp'])}   house edge {_pct(rep['house_edge'])}",
        f"best bet rule: {rep['bet_rule']}: RTP {_pct(rep['bet_rule_rtp'])} "
        f"(returns / bets placed; average bet {rep['bet_rule_average_bet']:.3f})",
        "expected net per point by the open card (all the seat has seen when it bets):",
    ]
    for row in rep["bet_rule_table"]:
        lines.append(f"  {row['open_card']}  {row['net_per_point'] * 100:+9.4f} %   bet {row['bet']}")
    lines.append("expected net per bet by Auto's first choice:")
    for a, f in rep["first_decisions"].items():
        if f["frequency"]:
            lines.append(f"  {NAMES[a]:<6}{f['net'] * 100:+10.5f} %   (taken in {f['frequency'] * 100:.3f} % of rounds)")
    return lines


# -- the chart ---------------------------------------------------------------------------------

_LETTER = {"stand": "S", "hit": "B", "split": "P", "wash": "W"}
_CHART_RANKS = "A789TJQK"


def strategy_lines(profile: Any) -> list[str]:
    """``cabinet strategy``: Auto's choices by the seat's own cards (it sees nothing of the bank)."""
    r: EenentwintigRules = profile.rules
    e = analysis(r)
    lines = [
        f"Auto's play for {profile.title}, {_decks(r)} (composition-dependent, exact): "
        "S pass, B buy, P split, W wash",
        "First two cards (closed card down, open card across):",
        "      " + "  ".join(_CHART_RANKS),
    ]
    for a in _CHART_RANKS:
        row = []
        for b in _CHART_RANKS:
            hand = comp_of([sc.RANK_VALUE[a], sc.RANK_VALUE[b]])
            row.append(_LETTER[best_of(e.choices(hand))])
        lines.append(f"   {a}  " + "  ".join(row))
    lines.append("Later, an unsplit hand by its total and cards (lower case: most hands of that kind, not all):")
    lines += _later_lines(e, from_split=False)
    lines.append("A split hand, the same way:")
    lines += _later_lines(e, from_split=True)
    rule = bet_rule(r)
    lines.append(f"Bet: {rule['text']}.")
    lines.append(f"RTP with Auto's play {_pct(exact_rtp(r))} at a flat bet, {_pct(rule['rtp'])} with the bet rule")
    return lines


def _later_lines(e: Exact, from_split: bool) -> list[str]:
    """Buy or pass per (soft or hard total, cards held) over every hand Auto meets."""
    tally: dict[tuple[bool, int, int], list[int]] = {}
    for hand, extra, fs in e.hands():
        total, n, _aces, _sevens = facts(hand)
        if fs != from_split or n < (2 if from_split else 3) or (extra != ZERO and not from_split):
            continue
        if sc.hand_stops(total, n) or total < 12:
            continue
        buy = int(e.buy(hand, extra, fs) > e.stand(hand, extra, fs))
        hard = sum(c * v for c, v in zip(hand, sc.VALUES))
        tally.setdefault((total != hard, total, n), [0, 0])[buy] += 1
    lines = ["  total   " + "  ".join(f"{n} cards" for n in range(2, 7))]
    for soft in (False, True):
        for total in range(12, 21):
            cells = []
            for n in range(2, 7):
                stand, buy = tally.get((soft, total, n), [0, 0])
                cell = "." if not stand + buy else ("B" if not stand else "S" if not buy else "b" if buy > stand else "s")
                cells.append(f"{cell:^7}")
            if any(c.strip() != "." for c in cells):
                lines.append(f"  {'soft' if soft else 'hard'} {total:<3}" + "  ".join(cells))
    return lines
