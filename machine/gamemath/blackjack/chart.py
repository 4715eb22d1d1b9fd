"""The total-dependent basic strategy chart of a rule set, and the exact return of playing it.

Owns: ``basic_strategy`` (one action code per hard total 4-21, soft total 12-21 and pair,
against each up card), its text form, the playing policy it defines, and ``chart_rtp``.

How a cell is chosen: for a two-card row, each action's value is averaged over the two-card
hands of that total (pairs excluded; the pair rows are their own), weighted by the chance of
being dealt each against that up card, with the best (composition-dependent) play after the
first decision; the best average wins. A hand of three or more cards follows a separate
stand-or-hit choice per total, averaged the same way over every composition of three or more
cards of that total, weighted by its chance of being dealt. With an infinite deck the averages
are exact per total. Codes: ``H`` hit, ``S`` stand, ``D`` double (else hit), ``Ds`` double
(else stand), ``P`` split, ``R`` surrender (else hit), ``Rs`` surrender (else stand).

``chart_rtp`` prices that chart exactly: the first decision and every later one follow the
chart (a split hand too, reading its own total; a pair card on a split hand is split again when
the pair's cell says ``P``), through the same split walk as Auto's RTP. Insurance is taken
when the chart's insurance line says so (an average over hands, like the cells).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from machine.gamemath.blackjack.game import Analysis, FirstChoice, GameReturn, analysis, best_of, first_deals, strategy_return
from machine.gamemath.blackjack.shoe import ZERO, Comp, hands_up_to, is_natural, score, size, unit
from machine.gamemath.blackjack.split import split_values
from machine.gamemath.blackjack.table import Policy
from machine.games.blackjack.rules import Rules

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
HARD_ROWS = tuple(range(4, 22))
SOFT_ROWS = tuple(range(12, 22))
PAIR_ROWS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)


@dataclass(frozen=True)
class Chart:
    """A basic strategy chart: ``hard[total][up]``, ``soft[total][up]``, ``pairs[card][up]``.

    ``multi_hard`` / ``multi_soft`` hold the stand-or-hit choice for hands of three or more cards.
    """

    rules: Rules
    hard: dict[int, dict[int, str]]
    soft: dict[int, dict[int, str]]
    pairs: dict[int, dict[int, str]]
    multi_hard: dict[int, dict[int, str]]
    multi_soft: dict[int, dict[int, str]]
    insurance: bool

    def text(self) -> str:
        """The chart as a player reads it: hard 5-21, soft 13-21, pairs, against 2..A."""
        head = "        " + " ".join(f"{_up_name(u):>3}" for u in UPS)
        lines = ["Hard", head]
        for t in range(5, 22):
            lines.append(f"  {t:>4}  " + " ".join(f"{self.hard[t][u]:>3}" for u in UPS))
        lines += ["Soft", head]
        for t in range(13, 22):
            lines.append(f"  A,{t - 11:<3} " + " ".join(f"{self.soft[t][u]:>3}" for u in UPS))
        lines += ["Pairs", head]
        for c in (1, 10, 9, 8, 7, 6, 5, 4, 3, 2):
            name = "A" if c == 1 else "T" if c == 10 else str(c)
            lines.append(f"  {name},{name:<3} " + " ".join(f"{self.pairs[c][u]:>3}" for u in UPS))
        changed = [
            f"{kind} {t} v {_up_name(u)}: {multi[t][u]}"
            for kind, multi, rows in (
                ("hard", self.multi_hard, self.hard),
                ("soft", self.multi_soft, self.soft),
            )
            for t in range(12, 21)
            for u in UPS
            if multi[t][u] != _IMPLIED.get(rows[t][u], rows[t][u])
        ]
        lines.append("Three or more cards: as the two-card row, except " + (", ".join(changed) or "nothing"))
        lines.append(
            "Codes: H hit, S stand, D double else hit, Ds double else stand, P split,"
            " R surrender else hit, Rs surrender else stand"
        )
        lines.append(f"Insurance: {'take it' if self.insurance else 'never'}")
        return "\n".join(lines)

    def tables(self) -> tuple[dict[int, dict[int, str]], ...]:
        return (self.hard, self.soft, self.pairs, self.multi_hard, self.multi_soft)

    # -- the chart as a policy ------------------------------------------------------------------

    def code(self, hand: Comp, up: int, pair_row: bool) -> str:
        if pair_row and size(hand) == 2 and 2 in hand:
            return self.pairs[hand.index(2) + 1][up]
        total, soft = score(hand)
        if size(hand) >= 3:
            return (self.multi_soft if soft else self.multi_hard)[total][up]
        return (self.soft if soft else self.hard)[total][up]

    def policy(self, up: int) -> Policy:
        """The chart as a playing policy for stand/hit/double (splits handled by the walk)."""

        def choose(hand: Comp, split: bool, options: tuple[str, ...]) -> str:
            return resolve(self.code(hand, up, False), options)

        return choose


def resolve(code: str, options: tuple[str, ...]) -> str:
    """The action a chart code asks for, given what is allowed."""
    order = {
        "H": ("hit", "stand"),
        "S": ("stand",),
        "D": ("double", "hit", "stand"),
        "Ds": ("double", "stand"),
        "P": ("split", "hit", "stand"),
        "R": ("surrender", "hit", "stand"),
        "Rs": ("surrender", "stand"),
    }[code]
    for a in order:
        if a in options:
            return a
    return "stand"


# What a two-card code implies for a hand of three or more cards of the same total.
_IMPLIED = {"H": "H", "S": "S", "D": "H", "Ds": "S", "R": "H", "Rs": "S", "P": "H"}


def _up_name(u: int) -> str:
    return "A" if u == 1 else "T" if u == 10 else str(u)


def _code(values: dict[str, float]) -> str:
    """A chart code from averaged values of stand/hit/double/split/surrender."""
    best = best_of(values)
    stand_or_hit = "S" if values.get("stand", float("-inf")) >= values.get("hit", float("-inf")) else "H"
    if best == "double":
        return "D" if stand_or_hit == "H" else "Ds"
    if best == "surrender":
        return "R" if stand_or_hit == "H" else "Rs"
    if best == "split":
        return "P"
    return "S" if best == "stand" else "H"


def _deal_weight(an: Analysis, hand: Comp, up: int) -> float:
    """Chance of being dealt the multiset ``hand`` against ``up`` (any order)."""
    shoe = an.shoe
    n = size(hand)
    if shoe.infinite:
        q = shoe.next_probs(ZERO)
        w = float(_multinomial(hand))
        for i, c in enumerate(hand):
            w *= q[i] ** c
        return w
    left = list(shoe.full)
    left[up - 1] -= 1
    total = sum(left)
    w = 1
    for i, c in enumerate(hand):
        w *= comb(left[i], c)
    return w / comb(total, n)


def _multinomial(hand: Comp) -> int:
    out, n = 1, 0
    for c in hand:
        for k in range(1, c + 1):
            n += 1
            out = out * n // k
    return out


def basic_strategy(rules: Rules) -> Chart:
    """The total-dependent chart of ``rules`` (see the module doc for how cells are chosen)."""
    an = analysis(rules)
    hard: dict[int, dict[int, str]] = {t: {} for t in HARD_ROWS}
    soft: dict[int, dict[int, str]] = {t: {} for t in SOFT_ROWS}
    pairs: dict[int, dict[int, str]] = {c: {} for c in PAIR_ROWS}
    mhard: dict[int, dict[int, str]] = {t: {} for t in HARD_ROWS}
    msoft: dict[int, dict[int, str]] = {t: {} for t in SOFT_ROWS}
    insure = 0.0
    for up in UPS:
        t = an.table(up)
        if not t.fits(unit(up)):
            continue
        play = t.play()
        two: dict[tuple[int, bool], dict[str, float]] = {}
        for hand, w in first_deals(an.shoe, up):
            if is_natural(hand):
                continue
            values = an.first_values(hand, up)
            if an.early_surrender_first(up):
                # Decided before the peek: -0.5 against the play's W-value less P(blackjack).
                values["surrender"] = -0.5 + an.p_blackjack(hand, up)
            if up == 1:
                insure += w * an.insurance(hand, up)
            if 2 in hand:
                pairs[hand.index(2) + 1][up] = _code(values)
                continue
            acc = two.setdefault(score(hand), {})
            for a, v in values.items():
                acc[a] = acc.get(a, 0.0) + w * v
        multi: dict[tuple[int, bool], dict[str, float]] = {}
        for hand in hands_up_to(an.table(up).left_after_up(), min_cards=3):
            total, is_soft = score(hand)
            if total >= 21:
                continue
            w = _deal_weight(an, hand, up)
            acc = multi.setdefault((total, is_soft), {})
            acc["stand"] = acc.get("stand", 0.0) + w * play.stand(hand)
            acc["hit"] = acc.get("hit", 0.0) + w * play.hit(hand, True)
        for rows, mrows, is_soft in ((hard, mhard, False), (soft, msoft, True)):
            for total in rows:
                m = multi.get((total, is_soft))
                mrows[total][up] = "S" if total >= 21 or (m and m["stand"] >= m["hit"]) else ("H" if m else "")
                vals = two.get((total, is_soft))
                rows[total][up] = _code(vals) if vals else mrows[total][up] or ("S" if total >= 17 else "H")
                if not mrows[total][up]:
                    mrows[total][up] = "S" if rows[total][up] in ("S", "Ds", "Rs") else "H"
        for c in PAIR_ROWS:
            pairs[c].setdefault(up, "H")
    return Chart(rules, hard, soft, pairs, mhard, msoft, insure > 0)


def chart_rtp(rules: Rules, chart: Chart | None = None) -> GameReturn:
    """The exact RTP of playing ``chart`` (default: ``basic_strategy(rules)``)."""
    an = analysis(rules)
    chart = chart or basic_strategy(rules)
    # Plays are memoised per policy: the key is the chart's content.
    key = ("chart", tuple(tuple(sorted(rows[t].items())) for rows in chart.tables() for t in sorted(rows)))
    limit = rules.max_splits_and_doubles

    def first_choice(up: int) -> FirstChoice:
        t = an.table(up)
        policy = chart.policy(up)
        play = t.play(ZERO, policy, key)
        splits = split_values(t, policy, key)

        def choose(hand: Comp) -> tuple[str, float]:
            if is_natural(hand):
                return "stand", an.natural_value(hand, up)
            opts = list(t.options(hand, False, limit is None or limit >= 1))
            p = hand.index(2) + 1 if 2 in hand else 0
            if p and splits[p] is not None and chart.pairs[p][up] == "P":
                opts.append("split")
            if rules.surrender != "none":
                opts.append("surrender")
            action = resolve(chart.code(hand, up, True), tuple(opts))
            if action == "split":
                w = splits[p]
            elif action == "surrender":
                w = an.surrender_value(hand, up)
            else:
                w = play.value(hand, False, action)
            assert w is not None
            if action == "surrender" and an.early_surrender_first(up):
                return action, -0.5
            return action, an.unconditional(hand, up, w)

        return choose

    return strategy_return(an, first_choice, lambda value: chart.insurance)
