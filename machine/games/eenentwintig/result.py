"""An eenentwintig round as data: how a hand reads, the round-script result, the settlement.

Owns: the words a screen writes for a hand's total ("17", "soft 17", "20.5", "three sevens",
"bust 24"), a finished round in the round-script format (round-script.md with the keys of
other-games.md: the bank as ``dealer``, ``20.5`` as a total, each hand's ``washed`` cards) and
each seat's settlement for the meters. Pure: reads the round's seats, changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from machine.games.blackjack.scoring import is_natural
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.eenentwintig.scoring import BUST, THREE_SEVENS, TWENTY_AND_A_HALF, score_cards, value
from machine.games.interface import SeatSettlement
from machine.games.text import Text

if TYPE_CHECKING:
    from machine.games.eenentwintig.round import Seat


def _score(cards: Sequence[str], unsplit: bool, rules: EenentwintigRules):
    return score_cards(cards, unsplit, rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21)


def natural(cards: Sequence[str], unsplit: bool) -> bool:
    """An ace and a ten (rank T) as an unsplit hand's two cards: 21 that ends the turn at once."""
    values = [value(c) for c in cards]
    return unsplit and is_natural(len(values), sum(values), 1 in values)


def hand_text(cards: Sequence[str], unsplit: bool, rules: EenentwintigRules) -> str:
    """A hand's total as the screen writes it ("" for no cards)."""
    if not cards:
        return ""
    s = _score(cards, unsplit, rules)
    if s.key == TWENTY_AND_A_HALF:
        return "20.5"
    if s.key == THREE_SEVENS:
        return "three sevens"
    if s.key == BUST:
        return Text("bust {total}", total=s.total)
    return Text("soft {total}", total=s.total) if s.soft and s.total < 21 else str(s.total)


def _total(cards: Sequence[str], unsplit: bool, rules: EenentwintigRules) -> int | float:
    s = _score(cards, unsplit, rules)
    return 20.5 if s.key == TWENTY_AND_A_HALF else s.total


def _hand_facts(cards: Sequence[str], unsplit: bool, rules: EenentwintigRules) -> dict[str, Any]:
    s = _score(cards, unsplit, rules)
    return {
        "cards": list(cards),
        "total": _total(cards, unsplit, rules),
        "soft": s.soft,
        "blackjack": natural(cards, unsplit),
        "three_sevens": s.key == THREE_SEVENS,
        "bust": s.key == BUST,
    }


def round_result(
    bank: list[str], seats: list[Seat], cards_used: int, game: str, rules: EenentwintigRules
) -> dict[str, Any]:
    """A finished round in the format of round-script.md (``blackjack`` marks a natural, A + T)."""
    out_seats = []
    for s in seats:
        hands = []
        for h in s.hands:
            facts = _hand_facts(h.cards, not h.from_split, rules)
            hands.append({
                "cards": facts.pop("cards"), "stake": h.stake, **facts, "doubled": False, "from_split": h.from_split,
                "washed": list(h.washed), "result": h.result, "returned": h.returned,
            })
        out_seats.append({
            "seat": s.number, "bet": s.bet, "insurance": 0, "insurance_returned": 0, "bonus": 0, "hands": hands,
            "staked": s.staked, "returned": s.returned, "net": s.returned - s.staked,
        })
    return {"game": game, "dealer": _hand_facts(bank, True, rules), "seats": out_seats, "cards_used": cards_used}


def seat_settlements(seats: list[Seat], rules: EenentwintigRules) -> list[SeatSettlement]:
    """Each seat's stakes and returns, and its hands of three sevens for the meter of that name."""
    return [
        SeatSettlement(
            seat=s.number,
            staked=s.staked,
            returned=s.returned,
            counters={"three_sevens": sum(1 for h in s.hands if _score(h.cards, not h.from_split, rules).key == THREE_SEVENS)},
        )
        for s in seats
    ]
