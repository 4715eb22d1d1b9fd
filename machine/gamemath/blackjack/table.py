"""Expected values of standing, drawing and doubling, for one rule set and one up card.

Owns: ``UpTable`` (the dealer's probabilities for every composition the player can hold against
one up card, computed in batches) and ``Play`` (the value of a hand played on from a given
removal, either optimally or by a fixed policy). Splits, the first decision, the whole game,
Auto and the chart are built on these (``split``, ``game``, ``auto``, ``chart``). Never sees
a ``Round``.

Conventions
-----------
* A hand is a composition (``shoe.Comp``); what has left the shoe is the hand plus ``extra``
  (other split hands' pair cards), plus the up card.
* Values are net, in units of the original bet, and are "W-values": in a hole-card game, the
  worlds where the dealer has blackjack count 0 (the round ended at the peek, before any
  decision; the caller adds the lost bet), so every W-value is the unconditional expectation of
  the hand's result times [no dealer blackjack]. Comparing W-values is comparing expectations
  conditioned on no dealer blackjack, which is what a seat knows after the peek. Without a hole
  card the dealer's blackjack is just another outcome that takes every stake, and W-values are
  plain expectations.
* ``mass(removed)`` is the probability that the worlds counted are there at all: 1 without a
  hole card, else P(no dealer blackjack | removed). A bust, a five-card charlie and the
  three-sevens bonus are worth -1, +1 and the bonus times that mass.
* What a standing hand wins against each dealer outcome is read from the settlement rule
  (``blackjack_rules.settle_hand``, through ``pay_rows``), so the table variants (the dealer
  winning ties, the player's 21 winning, a dealer blackjack taking the original bet only) are
  priced by the rule the engine settles with. Under ``no_hole_card_loses: original`` a dealer
  blackjack treats the seat's first hand (its only hand, or the leftmost after splits) apart
  from the other split hands, so a ``Play`` is for a first hand or for another split hand
  (``first``); under every other rule the two are the same.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from machine.gamemath.blackjack import dealer
from machine.gamemath.blackjack.choices import (
    best_of_values,
    doubles_to_sevens_bonus,
    sevens_pending,
)
from machine.gamemath.blackjack.dealer import BLACKJACK, Dist
from machine.gamemath.blackjack.shoe import ZERO, Comp, hands_up_to, merge, plus, score, shoe_of, size, unit
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.rules import Rules, totals_mask

if TYPE_CHECKING:
    import numpy as np

    from machine.gamemath.blackjack.exact_fast import FastPlay, FastTable

Policy = Callable[[Comp, bool, tuple[str, ...]], str]
"""A playing policy: (hand, is a split hand, allowed actions among stand/hit/double) -> action.

It may tell a split hand apart only where the three-sevens bonus does (``sevens_pending``):
``Play`` keeps one value per hand for both otherwise, where the compiled plays keep two."""

# The dealer's outcomes (dealer.OUTCOMES) as the settlement rule reads them: (total, natural).
_DEALER_HANDS = ((17, False), (18, False), (19, False), (20, False), (21, False), (22, False), (21, True))
Row = tuple[float, ...]  # a payoff against each dealer outcome


def _settle(rules: Rules, stake: int, bet: int, total: int, natural: bool, first: bool, d_total: int, d_natural: bool) -> int:
    """What ``blackjack_rules.settle_hand`` returns for a hand that stood (not surrendered, no charlie)."""
    pays = rules.blackjack_pays
    return bj.settle_hand(
        stake, bet, total, natural, False, False, first, d_total, d_natural, rules.surrender == "late",
        rules.no_hole_card_loses == "original", totals_mask(rules.dealer_wins_ties), rules.player_21_wins,
        pays.numerator, pays.denominator,
    )[1]


@lru_cache(maxsize=64)
def pay_rows(rules: Rules, doubled: bool, first: bool) -> tuple[Row, ...]:
    """Net result per original bet of a hand (no natural) standing on each total 0..21 against
    each dealer outcome (17..21, bust, blackjack), doubled or not, the seat's first hand or not."""
    stake = 2 if doubled else 1
    return tuple(
        tuple(float(_settle(rules, stake, 1, total, False, first, d, nat) - stake) for d, nat in _DEALER_HANDS)
        for total in range(22)
    )


def natural_pays(rules: Rules) -> tuple[float, float]:
    """Net result per bet of a seat's blackjack against a dealer hand that is no blackjack, and
    against a dealer blackjack (the settlement rule's, without the rounding of a whole bet)."""
    den = rules.blackjack_pays.denominator
    other, dealer_bj = ((_settle(rules, den, den, 21, True, True, 21, nat) - den) / den for nat in (False, True))
    return other, dealer_bj


def first_hand_apart(rules: Rules) -> bool:
    """Whether the settlement pays the seat's first hand otherwise than its other split hands
    (``no_hole_card_loses: original`` without a hole card), so that each is valued apart. With
    a hole card no dealer blackjack is left after the peek, so that column does not count."""
    counted = 6 if rules.hole_card else 7
    return any(
        [row[:counted] for row in pay_rows(rules, d, True)] != [row[:counted] for row in pay_rows(rules, d, False)]
        for d in (False, True)
    )


def compiled() -> bool:
    """Whether the tables are compiled (``UpTable.fast``): not without the kernels (neither the
    ahead-of-time module nor numba), nor when ``CABINET_EXACT=python``."""
    if os.environ.get("CABINET_EXACT") == "python":
        return False
    try:
        from machine.gamemath.blackjack import exact_fast  # noqa: F401 - whether it imports
    except ImportError:
        return False
    return True


def release() -> None:
    """Free what the compiled tables keep for the next table's split plays (``exact_fast.release``)."""
    if compiled():
        from machine.gamemath.blackjack.exact_fast import release as release_spares

        release_spares()


def _fast_table(table: UpTable) -> FastTable | None:
    """The compiled arrays of ``table``, or None (see ``compiled``)."""
    if not compiled():
        return None
    from machine.gamemath.blackjack.exact_fast import FastTable

    return FastTable(table)


class UpTable:
    """What the analysis knows for one rule set against one up card."""

    def __init__(self, rules: Rules, up: int, known: dict[Comp, Dist] | None = None):
        """``known``: the dealer's outcomes already computed for this rule set and up card (read
        from ``tablecache``); without it, every hand's are computed now, in one batch."""
        self.rules = rules
        self.up = up
        self.shoe = shoe_of(rules)
        self.hole = rules.hole_card
        self.pays = {(d, f): pay_rows(rules, d, f) for d in (False, True) for f in (False, True)}
        self.first_apart = first_hand_apart(rules)
        self.upc = unit(up)
        self.bonus = float(rules.three_sevens_bonus)
        self._dist: dict[Comp, Dist] = dict(known or {})
        self._probs: dict[Comp, tuple[float, ...]] = {}
        self._plays: dict[tuple[Comp, object, bool], Play | FastPlay] = {}
        # Held while a compiled play fills this table's arrays: its dealer outcomes pass through
        # a "requested" state that another thread must not read (a thread preparing the tables
        # and an Auto decision of the same game may meet here).
        self.lock = threading.RLock()
        self.fast: FastTable | None = None
        if known is None:
            self.fast = _fast_table(self)
            if self.fast is None:
                self.compute(hands_up_to(self.left_after_up()))

    # -- the shoe and the dealer ---------------------------------------------------------------

    def left_after_up(self) -> Comp | None:
        """The cards of each value left once the up card is out (None: an infinite deck)."""
        return None if self.shoe.infinite else self.shoe.left(self.upc)

    def fits(self, removed: Comp) -> bool:
        return self.shoe.holds(merge(removed, self.upc))

    def probs(self, removed: Comp) -> tuple[float, ...]:
        """Probability of each value 1..10 as the next card, ``removed`` and the up card out."""
        p = self._probs.get(removed)
        if p is None:
            p = self._probs[removed] = self.shoe.next_probs(merge(removed, self.upc))
        return p

    def blackjack_value(self) -> int | None:
        """The value whose card after the up card makes the dealer a blackjack (None: none does)."""
        return 10 if self.up == 1 else 1 if self.up == 10 else None

    def p_blackjack(self, removed: Comp) -> float:
        """Probability that the dealer's next card (hole or second card) makes a blackjack."""
        v = self.blackjack_value()
        return 0.0 if v is None else self.probs(removed)[v - 1]

    def mass(self, removed: Comp) -> float:
        return 1.0 - self.p_blackjack(removed) if self.hole else 1.0

    def compute(self, comps: Iterable[Comp]) -> None:
        """Compute (in one batch) the dealer's probabilities for every composition not yet known."""
        known = self.dists()
        todo = [c for c in dict.fromkeys(comps) if c not in known]
        if not todo:
            return
        if self.fast is not None:
            self._dist.update(zip(todo, map(tuple, self.fast.dealer(todo).tolist())))
            return
        rows = dealer.probs_batch(self.shoe, self.up, self.rules.dealer_hits_soft_17, todo)
        for c, d in zip(todo, rows):
            if self.hole:
                d = d[:BLACKJACK] + (0.0,)
            self._dist[c] = d

    def dists(self) -> dict[Comp, Dist]:
        """Every dealer outcome known, by removal (a compiled table's hands' own, made a dict
        when first asked for: only the pure-Python plays and the cache folder read it)."""
        if self.fast is not None and not self._dist:
            ft = self.fast
            self._dist = dict(zip(ft.hands, map(tuple, ft.dist0.tolist())))
        return self._dist

    def dist_rows(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``dists`` as two arrays, the compiled table's hands (rows of ten counts) and their
        dealer outcomes (rows of seven), when they are all it knows; else None."""
        if self.fast is not None and not self._dist:
            return self.fast.C, self.fast.dist0
        return None

    def dist(self, removed: Comp) -> Dist:
        d = self.dists().get(removed)
        if d is None:
            self.compute([removed])
            d = self._dist[removed]
        return d

    def stand_value(self, removed: Comp, pay: Row) -> float:
        """A hand (no blackjack) standing with the payoffs ``pay`` (a row of ``pay_rows``).

        Added term by term, left to right, as the compiled plays add (``exact_fast``): Python's
        ``sum`` of floats compensates its rounding from 3.12 on, which would part the two."""
        v = 0.0
        for d, p in zip(self.dist(removed), pay, strict=True):
            v += d * p
        return v

    # -- plays ------------------------------------------------------------------------------------

    def play(
        self, extra: Comp = ZERO, policy: Policy | None = None, key: object = None, first: bool = True
    ) -> Play | FastPlay:
        """The hand values with ``extra`` also out of the shoe; ``policy`` None plays optimally.

        ``first``: the seat's first hand (a hand not split, or the leftmost split hand), else
        another split hand; only rules with ``first_apart`` tell them apart. Every play is
        compiled when the table is (``fast``).
        """
        if self.shoe.infinite:
            extra = ZERO
        first = first or not self.first_apart
        k = (extra, key if policy is not None else None, first)
        p = self._plays.get(k)
        if p is None:
            if self.fast is not None:
                from machine.gamemath.blackjack.exact_fast import FastPlay

                rule: FastPlay | Policy | None = policy
                if isinstance(policy, BestOf) and policy.table is self:
                    optimal = self.play(first=policy.first)
                    assert isinstance(optimal, FastPlay)
                    rule = optimal
                p = FastPlay(self.fast, extra, rule, first)
            else:
                p = Play(self, extra, policy, first)
            self._plays[k] = p
        return p

    def trim(self) -> None:
        """Forget the plays from extra removals (split hands) and the cached draw chances."""
        self._plays = {k: v for k, v in self._plays.items() if k[0] == ZERO}
        self._probs = {}
        if self.fast is not None:
            self.fast.trim()

    # -- what the plays share ----------------------------------------------------------------------

    def charlie_cards(self) -> int:
        """How many cards make a five-card charlie (0: no charlie under these rules)."""
        return 5 if self.rules.five_card_charlie else 0


    # -- what a hand may do ------------------------------------------------------------------------

    def options(self, hand: Comp, split: bool, may_double: bool, one_card_ace: bool = False) -> tuple[str, ...]:
        """Stand, hit and double as the engine allows them on a hand of two cards."""
        total, soft = score(hand)
        out = ["stand"]
        if not one_card_ace:
            if total < 21:
                out.append("hit")
            r = self.rules
            if (
                may_double
                and size(hand) == 2
                and (not split or r.double_after_split)
                and r.may_double_total(total, soft)
            ):
                out.append("double")
        return tuple(out)


_STAND_HIT = ("stand", "hit")


class BestOf:
    """Auto's policy on a table: the choice its optimal play finds best for the hand's own
    cards, as the seat's first hand or not (``UpTable.play``: compiled with the table)."""

    def __init__(self, table: UpTable, first: bool):
        self.table = table
        self.first = first
        self._chosen: dict[tuple[Comp, bool, tuple[str, ...]], str] = {}

    def __call__(self, hand: Comp, split: bool, options: tuple[str, ...]) -> str:
        key = (hand, split, options)
        a = self._chosen.get(key)
        if a is None:
            a = self._chosen[key] = self.table.play(first=self.first).best(hand, split, options)[0]
        return a


@lru_cache(maxsize=1 << 17)
def children(hand: Comp) -> tuple[Comp, ...]:
    """The hand after drawing each value 1..10."""
    return tuple(plus(hand, v) for v in range(1, 11))


class Play:
    """Values of playing a hand on, from a removal ``extra`` beyond the hand's own cards.

    With ``policy`` None every choice maximises the value; otherwise the policy chooses, and
    the values are those of following it (used for split hands, which follow the choices made
    for their own cards alone, and for the total-dependent chart).
    """

    def __init__(self, table: UpTable, extra: Comp, policy: Policy | None, first: bool = True):
        self.t = table
        self.extra = extra
        self.plain = extra == ZERO
        self.policy = policy
        self.first = first
        self.pay = table.pays[(False, first)]
        self.pay_doubled = table.pays[(True, first)]
        self.bonus = table.bonus
        self.charlie = table.charlie_cards()
        # Memo keys are the hand, or (hand, True) for an all-sevens hand that can earn the bonus.
        self._after: dict[object, float] = {}
        self._hit: dict[object, float] = {}
        self._double: dict[object, float] = {}

    def removed(self, hand: Comp) -> Comp:
        return hand if self.plain else merge(hand, self.extra)

    def _key(self, hand: Comp, split: bool) -> object:
        # Only an all-sevens hand of at most three cards can still earn the three-sevens bonus.
        if self.bonus and sevens_pending(hand, split):
            return (hand, True)
        return hand

    def stand(self, hand: Comp) -> float:
        total = score(hand)[0]
        if total > 21:
            return -self.t.mass(self.removed(hand))
        return self.t.stand_value(self.removed(hand), self.pay[total])

    def hit(self, hand: Comp, split: bool) -> float:
        key = self._key(hand, split)
        v = self._hit.get(key)
        if v is None:
            v = 0.0
            # The memo is keyed by the bare hand unless the bonus could tell hands apart.
            memo = self._after if (split or not self.bonus) else {}
            after = self.after
            for p, child in zip(self.t.probs(self.removed(hand)), children(hand)):
                if p:
                    w = memo.get(child)
                    v += p * (w if w is not None else after(child, split))
            self._hit[key] = v
        return v

    def double(self, hand: Comp, split: bool) -> float:
        key = self._key(hand, split)
        v = self._double.get(key)
        if v is None:
            t = self.t
            hard_aces = t.rules.double_makes_aces_hard
            v = 0.0
            for p, child in zip(t.probs(self.removed(hand)), children(hand)):
                if p:
                    removed = self.removed(child)
                    total = score(child, hard_aces)[0]
                    w = -2.0 * t.mass(removed) if total > 21 else t.stand_value(removed, self.pay_doubled[total])
                    if doubles_to_sevens_bonus(self.bonus, child, split):
                        w += self.bonus * t.mass(removed)
                    v += p * w
            self._double[key] = v
        return v

    def after(self, hand: Comp, split: bool) -> float:
        """A hand that has just drawn (three or more cards), played on; not doubled."""
        key = self._key(hand, split)
        v = self._after.get(key)
        if v is not None:
            return v
        t = self.t
        total = score(hand)[0]
        if total > 21:
            v = -t.mass(self.removed(hand))
        elif self.charlie and sum(hand) >= self.charlie:
            v = t.mass(self.removed(hand))
        elif total == 21:
            removed = self.removed(hand)
            v = t.stand_value(removed, self.pay[21])
            if key is not hand:
                v += self.bonus * t.mass(removed)
        elif self.policy is None:
            v = max(t.stand_value(self.removed(hand), self.pay[total]), self.hit(hand, split))
        elif self.policy(hand, split, _STAND_HIT) == "hit":
            v = self.hit(hand, split)
        else:
            v = t.stand_value(self.removed(hand), self.pay[total])
        self._after[key] = v
        return v

    def needs(self, starts: Iterable[tuple[Comp, tuple[str, ...]]], split: bool) -> set[Comp]:
        """The hands whose dealer probabilities the policy asks for, from these two-card starts.

        Each start is a two-card hand and the actions it may choose from. The hands are given
        without ``extra``: the policy does not look at it, so one walk serves every removal.
        """
        t = self.t
        policy = self.policy
        assert policy is not None
        hard_aces = t.rules.double_makes_aces_hard
        out: set[Comp] = set()
        seen: set[object] = set()
        todo: list[tuple[Comp, tuple[str, ...] | None]] = list(starts)
        while todo:
            h, opts = todo.pop()
            if (h, opts) in seen:
                continue
            seen.add((h, opts))
            if opts is None:
                total = score(h)[0]
                if total > 21 or (self.charlie and sum(h) >= self.charlie):
                    continue
                if total == 21:
                    out.add(h)
                    continue
                opts = _STAND_HIT
            a = policy(h, split, opts)
            if a == "stand":
                out.add(h)
                continue
            for p, child in zip(t.probs(self.removed(h)), children(h)):
                if p:
                    if a == "hit":
                        todo.append((child, None))
                    elif score(child, hard_aces)[0] <= 21:
                        out.add(child)
        return out

    def value(self, hand: Comp, split: bool, action: str) -> float:
        if action == "stand":
            return self.stand(hand)
        if action == "hit":
            return self.hit(hand, split)
        if action == "double":
            return self.double(hand, split)
        raise ValueError(f"no value for {action!r} here")

    def best(self, hand: Comp, split: bool, options: tuple[str, ...]) -> tuple[str, float]:
        """The best of ``options`` (stand/hit/double) and its value; ties go to the earlier action."""
        return best_of_values(lambda a: self.value(hand, split, a), options)

    def two_card(self, hand: Comp, split: bool, options: tuple[str, ...]) -> float:
        """A two-card hand (not a blackjack) played from ``options`` by this play's rule."""
        if self.policy is None:
            return self.best(hand, split, options)[1]
        return self.value(hand, split, self.policy(hand, split, options))

    def two_cards(self, hands: list[tuple[Comp, tuple[str, ...]]], split: bool) -> list[float]:
        """``two_card`` of each (hand, options)."""
        return [self.two_card(hand, split, options) for hand, options in hands]
