"""The total-dependent basic strategy chart of a rule set, and the exact return of playing it.

Owns: ``basic_strategy`` (one action code per hard total 4-21, soft total 12-21 and pair,
against each up card), its text form, the playing policy it defines, ``chart_rtp``, and
``chart_and_rtp`` (both at once, for ``cabinet strategy``).

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

How it is computed: every up card's column, and its priced first decisions, alone: with the
tables compiled, ``chart_and_rtp`` shares the up cards with a forked child (``forked``: the
Python between kernel calls holds Python's lock, so two threads took nearly as long as one),
and ``chart_rtp`` / ``basic_strategy`` put them on one thread per core (the kernels run without
the lock); with a compiled table the sums over hands of three cards or more and the chart's
hit-or-stand for every hand come from its arrays at once (``chartarrays``, the same bits as the
loop over hands kept here for the pure-Python tables). A column's policy reads the totals' rows only, so
``chart_and_rtp`` prices the chart's split hands before Auto's split values (for the pair rows),
which then find the dealer's outcomes with pair cards out already made.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, TypeVar

from machine.gamemath.blackjack.forked import can_fork, on_two_processes
from machine.gamemath.blackjack.game import (
    Analysis,
    GameReturn,
    analysis,
    best_of,
    collector_paused,
    first_deals,
    on_threads,
    strategy_return,
    up_probs,
)
from machine.gamemath.blackjack.shoe import ZERO, Comp, hands_up_to, is_natural, score, size, unit
from machine.gamemath.blackjack.split import PairSplits, split_values
from machine.gamemath.blackjack.table import Play, Policy, compiled
from machine.games.blackjack.rules import Rules

if TYPE_CHECKING:
    from machine.gamemath.blackjack.exact_fast import FastPlay

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
HARD_ROWS = tuple(range(4, 22))
SOFT_ROWS = tuple(range(12, 22))
PAIR_ROWS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
# The up cards by the time their column takes, the longest first (measured on six decks): the
# threads of ``each_up`` take them in this order, so that the last one started is a short one.
LONGEST_FIRST = (1, 2, 9, 8, 10, 7, 3, 4, 5, 6)


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
        """The chart as a playing policy for stand/hit/double (splits handled by the walk);
        its answers are remembered (a split walk asks the same hand again and again)."""
        chosen: dict[tuple[Comp, tuple[str, ...]], str] = {}

        def choose(hand: Comp, split: bool, options: tuple[str, ...]) -> str:
            a = chosen.get((hand, options))
            if a is None:
                a = chosen[(hand, options)] = resolve(self.code(hand, up, False), options)
            return a

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


_STAND_HIT = ("stand", "hit")
_T = TypeVar("_T")

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


@dataclass(frozen=True)
class _Column:
    """One up card's cells of every row (by total, or pair card) and its insurance sum."""

    hard: dict[int, str]
    soft: dict[int, str]
    pairs: dict[int, str]
    multi_hard: dict[int, str]
    multi_soft: dict[int, str]
    insure: float


def basic_strategy(rules: Rules) -> Chart:
    """The total-dependent chart of ``rules`` (see the module doc for how cells are chosen)."""
    an = analysis(rules)
    return _chart(rules, each_up(an, lambda up: _column(an, up), UPS))


def chart_and_rtp(rules: Rules) -> tuple[Chart, GameReturn]:
    """``basic_strategy(rules)`` and ``chart_rtp`` of it (the same figures), the work shared per
    up card: the chart's split hands are priced first, and Auto's split values (for the pair
    rows) then find the dealer's outcomes with pair cards out already made."""
    with collector_paused():  # (as compute_all: the tables' small tuples are freed by reference counting)
        an, done = _priced_columns(rules)
    chart = _chart(rules, [col for col, _ in done])
    found = {up: choices for up, (_, choices) in zip(UPS, done, strict=True) if choices is not None}
    return chart, strategy_return(an, lambda up: found[up].__getitem__, lambda value: chart.insurance)


def _priced_columns(
    rules: Rules,
) -> tuple[Analysis, list[tuple[_Column | None, dict[Comp, tuple[str, float]] | None]]]:
    """The analysis and ``_priced_column`` of each up card (in ``UPS`` order): shared with a
    forked child (``forked``) when the tables are compiled, there are cores for two and the
    cached analysis has computed no up card's tables yet (read from the cache folder, they
    would be played in pure Python: see ``_computing_analysis``); else on ``each_up``'s threads. The forked way
    computes in an analysis of its own, of which this process keeps the tables of its up cards
    and, for the child's, the shoe's draw chances only (``Analysis.shoe_table``: all that
    ``strategy_return`` asks of them): the cached analysis is not left half known."""
    an = analysis(rules)
    known = any(an.has_splits(up) and an.table(up).fast is not None for up in UPS)  # (not read from the cache folder)
    if compiled() and can_fork() and (os.cpu_count() or 1) > 1 and not known:
        an = Analysis(rules)
        order = sorted(UPS, key=LONGEST_FIRST.index)
        found = dict(zip(order, on_two_processes(lambda up: _priced_column(an, up), order), strict=True))
        for up in UPS:
            an.shoe_table(up)
        return an, [found[up] for up in UPS]
    an = _computing_analysis(rules)
    return an, each_up(an, lambda up: _priced_column(an, up), UPS)


def _computing_analysis(rules: Rules) -> Analysis:
    """``analysis(rules)``, unless its tables were read from the cache folder (played by the
    pure-Python plays: seconds for six decks) while the kernels are compiled: then a fresh
    analysis computed with them (well under a second). Either gives the same figures to the bit
    (``tests/test_exact_fast.py``)."""
    an = analysis(rules)
    return Analysis(rules) if compiled() and _read_back(an, UPS[0]) else an


def _read_back(an: Analysis, up: int) -> bool:
    """Whether ``an``'s tables of ``up`` were read from the cache folder (played by the pure-Python
    plays) rather than computed with the kernels."""
    return an.has_splits(up) and an.table(up).fast is None


def _chart(rules: Rules, columns: Sequence[_Column | None]) -> Chart:
    """The chart of the columns against 2..A (in ``UPS`` order; None: no such up card)."""
    hard: dict[int, dict[int, str]] = {t: {} for t in HARD_ROWS}
    soft: dict[int, dict[int, str]] = {t: {} for t in SOFT_ROWS}
    pairs: dict[int, dict[int, str]] = {c: {} for c in PAIR_ROWS}
    mhard: dict[int, dict[int, str]] = {t: {} for t in HARD_ROWS}
    msoft: dict[int, dict[int, str]] = {t: {} for t in SOFT_ROWS}
    insure = 0.0
    for up, col in zip(UPS, columns, strict=True):
        if col is None:
            continue
        for rows, cells in ((hard, col.hard), (soft, col.soft), (pairs, col.pairs), (mhard, col.multi_hard),
                            (msoft, col.multi_soft)):
            for k, code in cells.items():
                rows[k][up] = code
        insure += col.insure
    return Chart(rules, hard, soft, pairs, mhard, msoft, insure > 0)


def each_up(an: Analysis, work: Callable[[int], _T], ups: Sequence[int]) -> list[_T]:
    """``work(up)`` for each of ``ups``, in order: on one thread per core when the tables are
    compiled (the kernels run without Python's lock, as in ``Analysis.compute_all``), the up
    cards started longest first (``LONGEST_FIRST``); each up card's work reads and fills its
    own tables only, so the figures are the same bits. Whether they are compiled is asked of
    ``table.compiled``, not of a table made here on the calling thread."""
    workers = min(os.cpu_count() or 1, len(ups))
    if workers > 1 and compiled() and not _read_back(an, ups[0]):  # (read back: Python's plays, on one thread)
        order = sorted(ups, key=LONGEST_FIRST.index)
        with _quick_switches():
            found = dict(zip(order, on_threads(work, order, workers), strict=True))
        return [found[up] for up in ups]
    return [work(up) for up in ups]


# Python's switch interval while each_up's threads run: a thread back from a kernel waits for the
# one running Python to let go of the lock, at most this long (Python's default: 5 ms).
SWITCH_INTERVAL = 0.001
_SWITCHES = {"held": 0, "was": 0.0}
_SWITCHES_LOCK = threading.Lock()


@contextlib.contextmanager
def _quick_switches() -> Iterator[None]:
    """Python's switch interval at most ``SWITCH_INTERVAL`` meanwhile (restored once the last of
    several callers leaves): the columns' Python between kernel calls is short, and a thread
    that returned from one otherwise waited for the lock up to 5 ms while its core sat idle."""
    with _SWITCHES_LOCK:
        if not _SWITCHES["held"]:
            _SWITCHES["was"] = sys.getswitchinterval()
            sys.setswitchinterval(min(_SWITCHES["was"], SWITCH_INTERVAL))
        _SWITCHES["held"] += 1
    try:
        yield
    finally:
        with _SWITCHES_LOCK:
            _SWITCHES["held"] -= 1
            if not _SWITCHES["held"]:
                sys.setswitchinterval(_SWITCHES["was"])


def _column(an: Analysis, up: int) -> _Column | None:
    """The chart's cells against ``up`` (None: the shoe holds no such up card)."""
    col = _cells(an, up)
    if col is not None:
        _pair_cells(an, up, col)
    return col


def _priced_column(an: Analysis, up: int) -> tuple[_Column | None, dict[Comp, tuple[str, float]] | None]:
    """``_column`` and the chart's first decisions against ``up`` (``_choices``): the column's
    policy is known before the pair rows (it reads the totals' rows only), so its split hands
    are priced before Auto's, which forget the dealer's outcomes with pair cards out."""
    col = _cells(an, up)
    if col is None:
        return None, None
    cells = (col.hard, col.soft, col.multi_hard, col.multi_soft)
    rows = tuple({k: {up: code} for k, code in c.items()} for c in cells)
    chart = Chart(an.rules, rows[0], rows[1], {c: {} for c in PAIR_ROWS}, rows[2], rows[3], False)
    key = ("chart column", up, tuple(tuple(sorted(c.items())) for c in cells))
    play, splits = _chart_plays(an, chart, key, up, keep=True)
    _pair_cells(an, up, col)
    for c, code in col.pairs.items():
        chart.pairs[c][up] = code
    return col, _choices(an, chart, up, play, splits)


def _cells(an: Analysis, up: int) -> _Column | None:
    """The column's rows by total and its insurance sum, the pair rows left empty (None: the
    shoe holds no such up card)."""
    t = an.table(up)
    if not t.fits(unit(up)):
        return None
    two: dict[tuple[int, bool], dict[str, float]] = {}
    insure = 0.0
    for hand, w in first_deals(an.shoe, up):
        if is_natural(hand):
            continue
        if up == 1:
            insure += w * an.insurance(hand, up)
        if 2 in hand:
            continue  # a pair is its own row (_pair_cells)
        acc = two.setdefault(score(hand), {})
        for a, v in _first_values(an, hand, up).items():
            acc[a] = acc.get(a, 0.0) + w * v
    multi = _multi_sums(an, up)
    hard: dict[int, str] = {}
    soft: dict[int, str] = {}
    mhard: dict[int, str] = {}
    msoft: dict[int, str] = {}
    for rows, mrows, is_soft, totals in ((hard, mhard, False, HARD_ROWS), (soft, msoft, True, SOFT_ROWS)):
        for total in totals:
            m = multi.get((total, is_soft))
            mrows[total] = "S" if total >= 21 or (m and m["stand"] >= m["hit"]) else ("H" if m else "")
            vals = two.get((total, is_soft))
            rows[total] = _code(vals) if vals else mrows[total] or ("S" if total >= 17 else "H")
            if not mrows[total]:
                mrows[total] = "S" if rows[total] in ("S", "Ds", "Rs") else "H"
    return _Column(hard, soft, {}, mhard, msoft, insure)


def _pair_cells(an: Analysis, up: int, col: _Column) -> None:
    """Fill the column's pair rows (Auto's split values are computed here when not yet known)."""
    for hand, _ in first_deals(an.shoe, up):
        if 2 in hand and not is_natural(hand):
            col.pairs[hand.index(2) + 1] = _code(_first_values(an, hand, up))
    for c in PAIR_ROWS:
        col.pairs.setdefault(c, "H")


def _first_values(an: Analysis, hand: Comp, up: int) -> dict[str, float]:
    values = an.first_values(hand, up)
    if an.early_surrender_first(up):
        # Decided before the peek: -0.5 against the play's W-value less P(blackjack).
        values["surrender"] = -0.5 + an.p_blackjack(hand, up)
    return values


def _multi_sums(an: Analysis, up: int) -> dict[tuple[int, bool], dict[str, float]]:
    """By (total, soft), the deal-weighted sums of standing and of hitting (as a split hand)
    over every hand of three cards or more below 21, with the optimal play: from a compiled
    play's arrays all at once (``chartarrays``), else hand by hand (the same bits)."""
    t = an.table(up)
    play = t.play()
    if t.fast is not None:
        from machine.gamemath.blackjack.chartarrays import multi_sums
        from machine.gamemath.blackjack.exact_fast import FastPlay

        assert isinstance(play, FastPlay)
        return multi_sums(an.shoe, up, play)
    multi: dict[tuple[int, bool], dict[str, float]] = {}
    for hand in hands_up_to(t.left_after_up(), min_cards=3):
        total, is_soft = score(hand)
        if total >= 21:
            continue
        w = _deal_weight(an, hand, up)
        acc = multi.setdefault((total, is_soft), {})
        acc["stand"] = acc.get("stand", 0.0) + w * play.stand(hand)
        acc["hit"] = acc.get("hit", 0.0) + w * play.hit(hand, True)
    return multi


def chart_rtp(rules: Rules, chart: Chart | None = None) -> GameReturn:
    """The exact RTP of playing ``chart`` (default: ``basic_strategy(rules)``)."""
    an = analysis(rules)
    chart = chart or basic_strategy(rules)
    # Plays are memoised per policy: the key is the chart's content.
    key = ("chart", tuple(tuple(sorted(rows[t].items())) for rows in chart.tables() for t in sorted(rows)))
    ups = [up for up, pu in up_probs(an.shoe) if pu]

    def first_choices(up: int) -> dict[Comp, tuple[str, float]]:
        return _choices(an, chart, up, *_chart_plays(an, chart, key, up))

    found = dict(zip(ups, each_up(an, first_choices, ups), strict=True))
    return strategy_return(an, lambda up: found[up].__getitem__, lambda value: chart.insurance)


def _chart_plays(
    an: Analysis, chart: Chart, key: object, up: int, keep: bool = False
) -> tuple[Play | FastPlay, dict[int, float | None]]:
    """The play of ``chart``'s column against ``up`` (memoised under ``key``) and its split
    values; ``keep``: the dealer's outcomes with pair cards out stay for the next split values
    of this table (compiled tables), which forget them."""
    t = an.table(up)
    policy = chart.policy(up)
    if t.fast is not None:
        from machine.gamemath.blackjack.chartarrays import chart_hits

        rows = tuple({total: row[up] for total, row in table.items()}
                     for table in (chart.hard, chart.soft, chart.multi_hard, chart.multi_soft))
        t.fast.know_hits(policy, chart_hits(t.fast, rows, lambda code: resolve(code, _STAND_HIT) == "hit"))
    play = t.play(ZERO, policy, key)
    if keep and t.fast is not None:  # split_values less its trim (compiled plays list their own needs)
        return play, {p: PairSplits(t, p, policy, key).value() for p in range(1, 11)}
    return play, split_values(t, policy, key)


def _choices(
    an: Analysis, chart: Chart, up: int, play: Play | FastPlay, splits: dict[int, float | None]
) -> dict[Comp, tuple[str, float]]:
    """The chart's first decision on every first deal against ``up`` and its plain value (the
    play's values of a compiled table asked in one call)."""
    rules = an.rules
    limit = rules.max_splits_and_doubles
    t = an.table(up)
    actions: dict[Comp, str] = {}
    for hand, _ in first_deals(an.shoe, up):
        if is_natural(hand):
            continue
        opts = list(t.options(hand, False, limit is None or limit >= 1))
        p = hand.index(2) + 1 if 2 in hand else 0
        if p and splits[p] is not None and chart.pairs[p][up] == "P":
            opts.append("split")
        if rules.surrender != "none":
            opts.append("surrender")
        actions[hand] = resolve(chart.code(hand, up, True), tuple(opts))
    played = [(hand, a) for hand, a in actions.items() if a not in ("split", "surrender")]
    if isinstance(play, Play):
        values = [play.value(hand, False, a) for hand, a in played]
    else:
        values = play.values(played, False)
    known = dict(zip((hand for hand, _ in played), values, strict=True))
    out: dict[Comp, tuple[str, float]] = {}
    for hand, _ in first_deals(an.shoe, up):
        action = actions.get(hand)
        if action is None:
            out[hand] = "stand", an.natural_value(hand, up)
            continue
        if action == "split":
            w = splits[hand.index(2) + 1]
        elif action == "surrender":
            w = an.surrender_value(hand, up)
        else:
            w = known[hand]
        assert w is not None
        if action == "surrender" and an.early_surrender_first(up):
            out[hand] = action, -0.5
        else:
            out[hand] = action, an.unconditional(hand, up, w)
    return out
