"""Eenentwintig's game math: Auto, the exact return and the bet rule, the chart, the simulators.

Owns: the names ``machine.gamemath.engines`` asks of a game's math — ``auto_action`` (Auto's
answer to the decision a round waits on: at a bet the minimum, in play the choice of highest
exact value), ``prepare``, ``exact_rtp``, ``rtp_report`` / ``rtp_lines`` (``cabinet rtp``),
``strategy_lines`` (``cabinet strategy``), ``simulate`` (the engine's own rounds, Auto's play)
and ``fast_simulate`` (the compiled fast path, ``eenentwintig_fast``). The values themselves
come from ``eenentwintig_exact``; this module reads a round's state into the analysis's terms
and writes the reports. Never changes a round (it only reads one) and never writes a rule.

Auto's information (``eenentwintig_exact`` says why its values are exact for it): the seat's
own hand, the 7 and 8 it washed, and on a split hand the other hand's pair card; not the
other seats' open cards, nor what the other split hand drew.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from machine.gamemath import tablecache
from machine.gamemath.eenentwintig_exact import ZERO, Comp, Exact, comp_of, facts, plus
from machine.gamemath.simulate import CHUNK, Tally
from machine.gamemath.simulate import simulate as simulate_chunks
from machine.games.cards import new_shoe, shuffle
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import bet_action

ORDER = ("stand", "hit", "split", "wash")  # ties go to the earlier
NAMES = {"stand": "pass", "hit": "buy", "split": "split", "wash": "wash"}
RANK_OF = {v: r for r, v in sc.RANK_VALUE.items()}

__all__ = [
    "CHUNK", "analysis", "auto_action", "bet_rule", "exact_rtp", "fast_simulate", "first_decisions", "option_values",
    "prepare", "rtp_lines", "rtp_report", "simulate", "strategy_lines",
]


@lru_cache(maxsize=8)
def analysis(rules: EenentwintigRules) -> Exact:
    """The analysis of a rule set with every value computed (two decks: about 0.6 s with numpy,
    2 s without), or read from the cache folder (``tablecache``), where what was computed is left
    for the next process."""
    e = Exact(rules)
    key = tablecache.rules_key("eenentwintig", rules.to_dict())
    cached = tablecache.load(TABLES, key)
    if cached is None or not e.restore(cached):
        e.prepare()
        tablecache.save(TABLES, key, e.tables())
    return e


TABLES = "auto-eenentwintig"  # the tables' kind in tablecache


def prepare(rules: EenentwintigRules) -> None:
    """Compute Auto's values now, so no decision waits."""
    analysis(rules)


def best_of(values: dict[str, float]) -> str:
    """The choice of highest value; ties go to the earlier of ``ORDER``."""
    best, best_v = "", float("-inf")
    for a in ORDER:
        if a in values and values[a] > best_v:
            best, best_v = a, values[a]
    return best


def seen_by(rnd: EenentwintigRound, seat_number: int, hand_i: int) -> tuple[Comp, Comp, bool]:
    """(the hand, the other cards Auto counts as gone, split or not) of a hand in a round."""
    seat = rnd.seat(seat_number)
    hand = seat.hands[hand_i]
    gone = [sc.value(c) for h in seat.hands for c in h.washed]
    if hand.from_split:
        gone.append(sc.value(seat.hands[1 - hand_i].cards[0]))  # the other hand's pair card
    return comp_of(hand.values), comp_of(gone), hand.from_split


def option_values(rules: EenentwintigRules, hand: Comp, extra: Comp, from_split: bool) -> dict[str, float]:
    """The exact expected net (per bet) of each choice the hand may have now."""
    e = analysis(rules)
    if not from_split and sum(hand) == 2:  # an unsplit hand's first decision (or its first after a wash)
        return dict(e.choices(hand, extra))
    return {"stand": e.stand(hand, extra, from_split), "hit": e.buy(hand, extra, from_split)}


def auto_action(rnd: EenentwintigRound) -> str:
    """Auto's answer to ``rnd.pending``: the minimum bet, or the play of highest value; always
    one of the decision's options."""
    d = rnd.pending
    if d is None:
        raise ValueError("the round is not waiting on a decision")
    if d.kind == "bet":
        minimum = bet_action(rnd.rules.min_bet)
        return minimum if minimum in d.options else d.options[0]
    assert d.hand is not None
    values = option_values(rnd.rules, *seen_by(rnd, d.seat, d.hand))
    choice = best_of({a: v for a, v in values.items() if a in d.options})
    return choice if choice in d.options else d.options[0]


# -- the return --------------------------------------------------------------------------------


def exact_rtp(rules: EenentwintigRules) -> float:
    """The exact return at a flat bet (the same bet every round), Auto's play."""
    return 1 + analysis(rules).net()


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


# -- the simulators ----------------------------------------------------------------------------


def play_chunk(rules: EenentwintigRules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """``rounds`` rounds on the engine, ``seats`` seats, Auto deciding (the minimum bet)."""
    rng = random.Random(f"eenentwintig/{seed}/{chunk}")
    base = new_shoe(rules.decks, sc.RANKS)
    numbers = list(range(1, seats + 1))
    t = Tally()
    for _ in range(rounds):
        rnd = EenentwintigRound.start(rules, shuffle(base, rng), numbers)
        while (d := rnd.pending) is not None:
            rnd.act(d.seat, auto_action(rnd))
        t.record(sum(s.returned - s.staked for s in rnd.seats), rules.min_bet * seats)
    return t


def simulate(
    rules: EenentwintigRules, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, cluster: Any = None,
) -> Tally:
    """``cabinet simulate``: rounds on the engine itself with Auto, in seeded chunks."""
    return simulate_chunks(rules, rounds, seats, seed, workers, progress, play=play_chunk, cluster=cluster)


def fast_simulate(
    rules: EenentwintigRules, rounds: int, seed: int = 1, workers: int | None = None, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``cabinet simulate --fast``: the compiled fast path (numba), the same Tally."""
    try:
        from machine.gamemath import eenentwintig_fast
    except ImportError as exc:
        raise ValueError(f"the fast simulator needs numba: pip install 'cabinet[fast]' ({exc})") from None
    return eenentwintig_fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress)
