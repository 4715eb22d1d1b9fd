"""Eenentwintig's Auto: the analysis of a rule set, Auto's answer to a round, the exact return.

Owns: ``analysis`` (the values of a rule set, kept in the cache folder: ``tablecache``),
``prepare``, ``auto_action`` (Auto's answer to the decision a round waits on: at a bet the
minimum, in play the choice of highest exact value), ``option_values``, ``best_of`` and
``exact_rtp``. The values themselves come from ``eenentwintig.exact``; this module reads a
round's state into the analysis's terms. Never changes a round (it only reads one) and never
writes a rule.

Auto's information (``eenentwintig.exact`` says why its values are exact for it): the seat's
own hand, the 7 and 8 it washed, and on a split hand the other hand's pair card; not the
other seats' open cards, nor what the other split hand drew.
"""

from __future__ import annotations

from functools import lru_cache

from machine.gamemath import tablecache
from machine.gamemath.eenentwintig.exact import Comp, Exact, comp_of
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import bet_action

ORDER = ("stand", "hit", "split", "wash")  # ties go to the earlier
RANK_OF = {v: r for r, v in sc.RANK_VALUE.items()}

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
