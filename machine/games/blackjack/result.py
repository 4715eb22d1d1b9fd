"""A finished blackjack round as data: the round-script result and each seat's settlement.

Owns: the round-script format of a finished round (round-script.md: the dealer, every seat's
hands with stakes, totals and results, insurance and bonus) and the settlement the cabinet's
meters take (``SeatSettlement``). Pure: reads the round's seats, changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from machine.games.blackjack.hand import is_natural, score
from machine.games.interface import SeatSettlement

if TYPE_CHECKING:
    from machine.games.blackjack.round import Seat


def round_result(dealer: list[str], seats: list[Seat], cards_used: int, game: str) -> dict[str, Any]:
    """A finished round in the format of round-script.md."""
    d = score(dealer)
    out_seats = []
    for s in seats:
        hands = []
        for h in s.hands:
            sc = score(h.cards, h.aces_hard)
            hands.append(
                {
                    "cards": list(h.cards),
                    "stake": h.stake,
                    "total": sc.total,
                    "soft": sc.soft,
                    "blackjack": h.blackjack,
                    "bust": sc.total > 21,
                    "doubled": h.doubled,
                    "from_split": h.from_split,
                    "result": h.result,
                    "returned": h.returned,
                }
            )
        out_seats.append(
            {
                "seat": s.number,
                "bet": s.bet,
                "insurance": s.insurance,
                "insurance_returned": s.insurance_returned,
                "bonus": s.bonus,
                "hands": hands,
                "staked": s.staked,
                "returned": s.returned,
                "net": s.returned - s.staked,
            }
        )
    return {
        "game": game,
        "dealer": {"cards": list(dealer), "total": d.total, "blackjack": is_natural(dealer), "bust": d.total > 21},
        "seats": out_seats,
        "cards_used": cards_used,
    }


def seat_settlements(seats: list[Seat]) -> list[SeatSettlement]:
    """Each seat's stakes, returns and counters for the meters (blackjacks, three sevens,
    insurance taken and paid)."""
    return [
        SeatSettlement(
            seat=s.number,
            staked=s.staked,
            returned=s.returned,
            counters={
                "blackjacks": sum(1 for h in s.hands if h.blackjack),
                "three_sevens": 1 if s.bonus else 0,
                "insurance_taken": s.insurance,
                "insurance_paid": s.insurance_returned,
            },
        )
        for s in seats
    ]
