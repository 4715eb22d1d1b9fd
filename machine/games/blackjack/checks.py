"""Why a play action is refused: the checks behind ``Round.why_not`` in the play phase.

Owns: the conditions on hit, stand, double, split and surrender under the rules in force, the
joint limit on doubles and splits with the seat's funding, and the words that say why. Pure:
reads a seat and a hand, changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from machine.games.blackjack.rules import Rules
from machine.games.cards import value

if TYPE_CHECKING:
    from machine.games.blackjack.round import Hand, Seat

PLAY_ACTIONS = ("hit", "stand", "double", "split", "surrender")


def play_problem(r: Rules, seat: Seat, hand: Hand, action: str, dealer_may_peek: bool) -> str | None:
    """Why ``action`` is refused on ``hand`` of ``seat`` now, or None when it is allowed."""
    n = len(hand.cards)
    total = hand.total
    one_card_aces = hand.split_aces and r.split_aces_one_card
    if action in ("hit", "double") and one_card_aces:
        return "split aces take one card only"
    if action == "hit":
        if total >= 21:
            return f"the hand totals {total}"
        return None
    if action == "stand":
        return None
    if action == "double":
        if n != 2:
            return "only on a hand of exactly two cards"
        if hand.from_split and not r.double_after_split:
            return "doubling after a split is not allowed"
        soft = hand.soft
        if total == 21 and not r.may_double_total(total, soft):
            return "a hand of 21 stands"
        if not r.may_double_total(total, soft):
            return f"{'soft' if soft else 'hard'} {total} may not be doubled ({double_rule_text(r)})"
        return extra_stake_problem(r, seat, "double")
    if action == "split":
        if n != 2:
            return "only on a hand of exactly two cards"
        if value(hand.cards[0]) != value(hand.cards[1]):
            return "the two cards are not of equal value"
        if hand.split_aces and not r.resplit_aces:
            return "split aces may not be split again"
        if len(seat.hands) >= r.max_hands:
            return f"a seat may hold at most {r.max_hands} hands"
        return extra_stake_problem(r, seat, "split")
    if action == "surrender":
        if r.surrender == "none":
            return "surrender is not offered in this game"
        if r.surrender == "early" and dealer_may_peek:
            return "early surrender was decided before the peek"
        if hand.from_split or n != 2 or len(seat.hands) != 1:
            return "only as the first decision on the first two cards"
        return None
    return f"unknown action (one of {', '.join(PLAY_ACTIONS)})"

def extra_stake_problem(r: Rules, seat: Seat, what: str) -> str | None:
    """The joint limit and the funding, shared by doubles and splits."""
    limit = r.max_splits_and_doubles
    if limit is not None and seat.splits_and_doubles >= limit:
        return f"the seat has used its {limit} doubles and splits"
    if not seat.can_fund(seat.bet):
        return f"the club meter cannot pay the {what}'s stake"
    return None

def double_rule_text(r: Rules) -> str:
    parts = []
    for name, allowed in (("hard", r.double_hard), ("soft", r.double_soft)):
        if allowed is None:
            parts.append(f"any {name} total")
        elif allowed:
            parts.append(f"{name} {', '.join(map(str, sorted(allowed)))}")
    return "doubles on " + " or ".join(parts) if parts else "no doubles"
