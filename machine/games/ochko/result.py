"""A finished ochko round as data: the round-script result.

Owns: the round-script format of a finished round (round-script.md, with the keys of
other-games.md's ochko section: ``bank_before``, ``bank_after``, ``stuk``, ``bank_closed``; each
hand says whether its last card was dark and whether it was settled at once; a seat that sat
out has ``bet: 0`` and ``sat_out: true``). The keys blackjack's results have and ochko has no
use for (insurance, bonus, soft, blackjack, doubled, from_split) are written as nothing, so
every reader of round results reads these too. Pure: reads the round, changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from machine.games.ochko.round import OchkoRound


def round_result(rnd: OchkoRound, game: str) -> dict[str, Any]:
    banker = rnd.total(rnd.banker)
    seats = []
    for s in rnd.seats:
        total = rnd.total(s.cards)
        hand = {
            "cards": list(s.cards), "stake": s.bet, "total": total, "soft": False, "blackjack": False,
            "bust": total > 21, "doubled": False, "from_split": False, "dark": s.dark, "at_once": s.at_once,
            "result": s.result, "returned": s.returned,
        }
        seats.append({
            "seat": s.number, "bet": s.bet, "sat_out": s.state == "out", "insurance": 0, "insurance_returned": 0,
            "bonus": 0, "hands": [hand], "staked": s.staked, "returned": s.returned, "net": s.returned - s.staked,
        })
    return {
        "game": game,
        "dealer": {"cards": list(rnd.banker), "total": banker, "blackjack": False, "bust": banker > 21},
        "seats": seats,
        "cards_used": rnd.cards_used,
        "bank_before": rnd.bank_before,
        "bank_after": rnd.bank,
        "stuk": rnd.stuk,
        "bank_closed": rnd.bank_closed,
        "bank_opened": rnd.bank_opened,
    }
