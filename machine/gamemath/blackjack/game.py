"""The first decision of a hand, and the exact return of the whole game with Auto's play.

Owns: ``Analysis`` (all the tables of one rule set, built lazily per up card and cached), the
values of every choice on a seat's first two cards (stand, hit, double, split, surrender,
insurance), and ``game_rtp``: the return to player of one seat playing Auto's strategy,
averaged exactly over every first deal (two cards and the up card from the fresh shoe).

Auto's strategy, as priced here: every decision takes the highest expected value given the
seat's own cards and the up card (composition-dependent); a split hand plays the choice that
is best for its own cards, the other split hands' cards put back (CDZ-, as E. Farmer's engine
prices splits), and splits a pair card again whenever splitting was the first choice. Where
the settlement treats the seat's first hand apart from its other split hands
(``no_hole_card_loses: original``), each split hand takes the choice best for its own place.
The figures are exact for that strategy (floating point aside), except for the tiny
approximation of the joint limit on splits and doubles documented in ``split``.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from queue import SimpleQueue
from typing import TYPE_CHECKING, TypeVar, cast

from machine.gamemath import tablecache
from machine.gamemath.blackjack.choices import ACTION_ORDER, best_of_values
from machine.gamemath.blackjack.dealer import BLACKJACK
from machine.gamemath.blackjack.shoe import ZERO, Comp, Shoe, is_natural, plus, shoe_of, unit
from machine.gamemath.blackjack.split import split_values
from machine.gamemath.blackjack.table import BestOf, Play, Policy, UpTable, compiled, natural_pays, release
from machine.gamemath.tablecache import Table
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.rules import Rules

if TYPE_CHECKING:
    from machine.gamemath.blackjack.exact_fast import FastPlay


class Analysis:
    """Every table of one rule set, computed per up card when first needed."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.shoe = shoe_of(rules)
        self.natural_pays = natural_pays(rules)
        self._tables: dict[int, UpTable] = {}
        self._splits: dict[int, dict[int, float | None]] = {}
        self._policies: dict[tuple[int, bool], Policy] = {}
        # One up card's tables are made by one thread at a time: a thread preparing them (at
        # start-up, or the other games' in the background) and an Auto decision may both ask.
        self._locks = {up: threading.RLock() for up in range(1, 11)}

    def table(self, up: int) -> UpTable:
        t = self._tables.get(up)
        if t is None:
            with self._locks[up]:
                t = self._tables.get(up)
                if t is None:
                    t = self._tables[up] = UpTable(self.rules, up)
        return t

    def shoe_table(self, up: int) -> UpTable:
        """This analysis's table of ``up`` if it has one, else one that knows the shoe's draw
        chances only (no dealer outcome computed), kept as its table: for a caller whose
        values against ``up`` were computed elsewhere (``chart``'s forked child) and that asks
        the chances of the next card only. Never on the cached ``analysis``: another caller
        would compute that table's plays in pure Python, hand by hand."""
        with self._locks[up]:
            t = self._tables.get(up)
            if t is None:
                t = self._tables[up] = UpTable(self.rules, up, {})
        return t

    def play(self, up: int, first: bool = True) -> Play | FastPlay:
        """Optimal play of a hand from its own cards (no other removal); ``first``: the seat's
        first hand, else another split hand (see ``table``)."""
        return self.table(up).play(first=first)

    def policy(self, up: int, first: bool = True) -> Policy:
        """Auto's choice for a hand from its own cards: the best of the allowed options."""
        pol = self._policies.get((up, first))
        if pol is None:
            with self._locks[up]:
                pol = self._policies.get((up, first))
                if pol is None:
                    pol = self._policies[(up, first)] = BestOf(self.table(up), first)
        return pol

    def splits(self, up: int) -> dict[int, float | None]:
        """W-value of splitting each pair card against ``up`` (None: not allowed)."""
        s = self._splits.get(up)
        if s is None:
            with self._locks[up]:
                s = self._splits.get(up)
                if s is None:
                    other = (self.policy(up, first=False), "auto-other")
                    s = self._splits[up] = split_values(self.table(up), self.policy(up), "auto", other)
        return s

    def compute_all(self, workers: int | None = None, progress: Callable[[int, int], None] | None = None) -> bool:
        """Every up card's tables and split values not known yet (False: all were). When the
        tables are compiled (``table.compiled``) the up cards go to ``workers`` threads
        (default: one per core), as the kernels run without Python's lock; each up card is
        computed alone, so the figures are the same bits whatever the number of threads.
        ``progress(done, of)`` is called before the first up card and after each one."""
        ups = [up for up in range(1, 11) if not self.has_splits(up) and self.shoe.holds(unit(up, 2))]
        if not ups:
            return False
        report = progress or (lambda done, of: None)
        report(0, len(ups))
        if workers is None:
            workers = os.cpu_count() or 1
        workers = min(workers, len(ups))
        with collector_paused():
            if workers > 1 and compiled():
                on_threads(self.splits, ups, workers, lambda done: report(done, len(ups)))
            else:
                for done, up in enumerate(ups, 1):
                    self.splits(up)
                    report(done, len(ups))
        release()
        return True

    def split(self, up: int, p: int) -> float | None:
        return self.splits(up)[p]

    def has_splits(self, up: int) -> bool:
        """Whether the split values against ``up`` are known (computed or read)."""
        return up in self._splits

    # -- the tables kept on disk (tablecache) -------------------------------------------------

    def tables(self) -> dict[str, Table]:
        """What has been computed that takes time, as plain tables: per up card the dealer's
        outcomes for each composition (``dealer<up>``), and the split values (``splits``:
        (up, pair card) -> value, NaN where splitting is not allowed)."""
        out: dict[str, Table] = {f"dealer{up}": dict(t.dists()) for up, t in self._tables.items()}
        out["splits"] = self._split_table()
        return out

    def packed(self) -> dict[str, Table | tablecache.Packed]:
        """``tables`` as ``tablecache.save`` takes them: a compiled table's dealer outcomes
        straight from its arrays (the same bytes in the file, without a dict of every hand)."""
        out: dict[str, Table | tablecache.Packed] = {}
        for up, t in self._tables.items():
            rows = t.dist_rows()
            if rows is None:
                out[f"dealer{up}"] = dict(t.dists())
            else:
                hands, dists = rows
                out[f"dealer{up}"] = tablecache.Packed(
                    len(hands), hands.shape[1], dists.shape[1], hands.astype("<i2").tobytes(), dists.astype("<f8").tobytes()
                )
        out["splits"] = self._split_table()
        return out

    def _split_table(self) -> Table:
        return {(up, p): (math.nan if v is None else v,) for up, s in self._splits.items() for p, v in s.items()}

    def restore(self, tables: dict[str, Table]) -> bool:
        """Take tables made by ``tables`` (of these rules, by this program) instead of computing
        them; False (and nothing taken) when they are not of that shape."""
        ups = {name: int(name[6:]) for name in tables if name.startswith("dealer") and name[6:].isdigit()}
        splits = tables.get("splits")
        if splits is None or len(ups) + 1 != len(tables) or not all(1 <= up <= 10 for up in ups.values()):
            return False
        for name in ups:
            if any(len(c) != 10 or len(d) != BLACKJACK + 1 for c, d in tables[name].items()):
                return False
        if any(len(k) != 2 or not (1 <= k[0] <= 10 and 1 <= k[1] <= 10) or len(v) != 1 for k, v in splits.items()):
            return False
        for name, up in ups.items():
            self._tables[up] = UpTable(self.rules, up, tables[name])
        for (up, p), (v,) in splits.items():
            self._splits.setdefault(up, {})[p] = None if math.isnan(v) else v
        return True

    # -- the first two cards -------------------------------------------------------------------

    def p_blackjack(self, hand: Comp, up: int) -> float:
        return self.table(up).p_blackjack(hand)

    def natural_value(self, hand: Comp, up: int) -> float:
        """Plain value of a seat's blackjack: paid, or what a dealer blackjack leaves it."""
        q = self.p_blackjack(hand, up)
        other, dealer_bj = self.natural_pays
        return (1.0 - q) * other + q * dealer_bj

    def insurance(self, hand: Comp, up: int) -> float:
        """Net value of insuring (half a bet, paying ``insurance_pays`` to 1), per original bet."""
        if up != 1:
            return 0.0
        q = self.p_blackjack(hand, up)
        return 0.5 * (float(self.rules.insurance_pays) * q - (1.0 - q))

    def early_surrender_first(self, up: int) -> bool:
        """Whether surrender is decided before the peek, outside the play (hole card, A or ten up)."""
        return self.rules.surrender == "early" and bj.dealer_peeks(self.rules.hole_card, up)

    def first_values(self, hand: Comp, up: int) -> dict[str, float]:
        """W-values of the choices the engine offers on a seat's first two cards (not a natural).

        Unlimited funds assumed. Surrender is included when it is a play choice (late, or early
        when there is no peek for it to precede).
        """
        r = self.rules
        t = self.table(up)
        play = t.play()
        limit = r.max_splits_and_doubles
        may = limit is None or limit >= 1
        out: dict[str, float] = {}
        for a in t.options(hand, False, may):
            out[a] = play.value(hand, False, a)
        if 2 in hand:
            p = hand.index(2) + 1
            v = self.split(up, p)
            if v is not None:
                out["split"] = v
        if r.surrender != "none" and not self.early_surrender_first(up):
            out["surrender"] = self.surrender_value(hand, up)
        return out

    def surrender_value(self, hand: Comp, up: int) -> float:
        """W-value of surrendering: half back; a late surrender loses all to a dealer blackjack."""
        t = self.table(up)
        if self.rules.surrender == "early":
            return -0.5
        q = t.p_blackjack(hand)
        return -0.5 * (1.0 - q) if self.rules.hole_card else -0.5 * (1.0 - q) - q

    def unconditional(self, hand: Comp, up: int, w: float) -> float:
        """From a W-value of a non-natural hand to its plain expectation (the peek's lost bet)."""
        return w - self.p_blackjack(hand, up) if self.rules.hole_card else w

    def first_decision(self, hand: Comp, up: int) -> tuple[str, float]:
        """Auto's choice on the first two cards and its plain (unconditional) value, insurance apart."""
        if is_natural(hand):
            return "stand", self.natural_value(hand, up)
        values = self.first_values(hand, up)
        action = best_of(values)
        u = self.unconditional(hand, up, values[action])
        if self.early_surrender_first(up) and u < -0.5:
            return "surrender", -0.5
        return action, u


_T = TypeVar("_T")
_R = TypeVar("_R")


def on_threads(
    work: Callable[[_T], _R], items: Sequence[_T], workers: int, done: Callable[[int], None] | None = None
) -> list[_R]:
    """``[work(x) for x in items]`` on ``workers`` threads, each taking the next item no thread
    has taken, in the order of ``items`` (the longest first makes the shortest tail); ``done(k)``
    is called on the caller's thread once k items are finished. Plain threads: no import of
    ``concurrent.futures`` (and ``logging``) for a pool. The first exception of ``work`` is
    raised here, once every thread has stopped (none takes an item after it)."""
    results: list[_R | None] = [None] * len(items)
    order = iter(range(len(items)))
    lock = threading.Lock()
    finished: SimpleQueue[int] = SimpleQueue()
    failed: list[BaseException] = []

    def run() -> None:
        while True:
            with lock:
                i = -1 if failed else next(order, -1)
            if i < 0:
                finished.put(-1)
                return
            try:
                results[i] = work(items[i])
            except BaseException as exc:  # noqa: BLE001 - raised again on the caller's thread
                with lock:
                    failed.append(exc)
            finished.put(i)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(min(workers, len(items)))]
    for th in threads:
        th.start()
    running, count = len(threads), 0
    while running:
        if finished.get() < 0:
            running -= 1
        elif not failed:
            count += 1
            if done is not None:
                done(count)
    for th in threads:
        th.join()
    if failed:
        raise failed[0]
    return cast("list[_R]", results)  # (every item's result is in)


_PAUSES = {"held": 0, "was": False}
_PAUSES_LOCK = threading.Lock()


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while the tables are computed (and enabled
    again after, if it was, once the last of several threads computing leaves): the tables
    are tens of thousands of small tuples that reference counting frees, and the collector's
    passes over them took about a tenth of ``compute_all``'s time (nearly 100 of them)."""
    with _PAUSES_LOCK:
        if not _PAUSES["held"]:
            _PAUSES["was"] = gc.isenabled()
            gc.disable()
        _PAUSES["held"] += 1
    try:
        yield
    finally:
        with _PAUSES_LOCK:
            _PAUSES["held"] -= 1
            if not _PAUSES["held"] and _PAUSES["was"]:
                gc.enable()


def best_of(values: dict[str, float]) -> str:
    """The action with the highest value; ties go to the earlier of ACTION_ORDER."""
    return best_of_values(values.__getitem__, tuple(values))[0]


@lru_cache(maxsize=8)
def analysis(rules: Rules) -> Analysis:
    """The (cached) analysis of a rule set: with the tables ``prepare`` left on disk for these
    rules and this program (``tablecache``) when there are any."""
    an = Analysis(rules)
    cached = tablecache.load(TABLES, tables_key(rules))
    if cached is not None:
        an.restore(cached)
    return an


TABLES = "auto-blackjack"  # the tables' kind in tablecache


def tables_key(rules: Rules) -> str:
    return tablecache.rules_key("blackjack", rules.to_dict())


# -- the whole game ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameReturn:
    """The return to player of one seat with Auto's play, per original bet.

    ``breakdown`` splits the expected net result (rtp - 1) by the first decision of the hand
    (``blackjack`` for the seat's naturals, then ``stand``, ``hit``, ``double``, ``split``,
    ``surrender``), with the three-sevens bonus and insurance as their own lines; ``frequency``
    is how often each first decision is taken (and how often insurance is).
    """

    rtp: float
    house_edge: float
    breakdown: dict[str, float] = field(default_factory=dict)
    frequency: dict[str, float] = field(default_factory=dict)
    by_up_card: dict[int, float] = field(default_factory=dict)


def first_deals(shoe: Shoe, up: int) -> list[tuple[Comp, float]]:
    """Every pair of first cards against ``up`` with its probability given that up card."""
    out = []
    if shoe.infinite:
        q = shoe.next_probs(ZERO)
        for a in range(1, 11):
            for b in range(a, 11):
                out.append((plus(unit(a), b), q[a - 1] * q[b - 1] * (1 if a == b else 2)))
        return out
    left = list(shoe.full)
    left[up - 1] -= 1
    n = sum(left)
    for a in range(1, 11):
        for b in range(a, 11):
            if a == b:
                w = left[a - 1] * (left[a - 1] - 1)
            else:
                w = 2 * left[a - 1] * left[b - 1]
            if w > 0:
                out.append((plus(unit(a), b), w / (n * (n - 1))))
    return out


def up_probs(shoe: Shoe) -> list[tuple[int, float]]:
    probs = shoe.next_probs(ZERO)
    return [(up, probs[up - 1]) for up in range(1, 11)]


FirstChoice = Callable[[Comp], tuple[str, float]]
"""A strategy's first decision on a two-card hand against one up card, and its plain value."""


def game_rtp(rules: Rules) -> GameReturn:
    """The exact RTP of the game for one seat with Auto's (composition-dependent) strategy."""
    an = analysis(rules)
    an.compute_all()
    return strategy_return(an, lambda up: lambda hand: an.first_decision(hand, up), lambda value: value > 0)


def strategy_return(
    an: Analysis, first_choice: Callable[[int], FirstChoice], insures: Callable[[float], bool]
) -> GameReturn:
    """The exact return of a strategy, averaged over every first deal of the fresh shoe.

    ``first_choice(up)`` answers the first decision of every two-card hand against ``up`` (a
    natural stands); ``insures(value)`` says whether a hand that is no natural takes insurance
    against an ace, given insurance's value for it. The three-sevens bonus a hit or a double
    on two sevens can earn is booked on its own line.
    """
    bonus = float(an.rules.three_sevens_bonus)
    parts = dict.fromkeys(("blackjack", *ACTION_ORDER, "three_sevens", "insurance"), 0.0)
    freq = dict.fromkeys(("blackjack", *ACTION_ORDER, "insurance"), 0.0)
    by_up: dict[int, float] = {}
    for up, pu in up_probs(an.shoe):
        if not pu:
            continue
        choose = first_choice(up)
        ev_up = 0.0
        for hand, ph in first_deals(an.shoe, up):
            action, u = choose(hand)
            natural = is_natural(hand)
            kind = "blackjack" if natural else action
            if bonus and hand[6] == 2 and action in ("hit", "double"):
                t = an.table(up)
                b = t.probs(hand)[6] * bonus * t.mass(plus(hand, 7))
                parts["three_sevens"] += pu * ph * b
                u -= b
                ev_up += ph * b
            parts[kind] += pu * ph * u
            freq[kind] += pu * ph
            ev_up += ph * u
            if up == 1 and not natural:
                ins = an.insurance(hand, up)
                if insures(ins):
                    parts["insurance"] += pu * ph * ins
                    freq["insurance"] += pu * ph
                    ev_up += ph * ins
        by_up[up] = ev_up
    net = sum(parts.values())
    return GameReturn(rtp=1.0 + net, house_edge=-net, breakdown=parts, frequency=freq, by_up_card=by_up)
