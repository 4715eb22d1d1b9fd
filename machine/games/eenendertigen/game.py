"""Eenendertigen as a ``Game``: what the cabinet needs to host an eenendertigen profile.

Owns: the deck of the variant in force, starting a round (the seats that pressed Start take
places 1.. in seat order, computer players fill the rest; each seat's bet was taken before the
deal) and restoring one, the table between rounds, the panel map and the attract lines. The
computer players play Auto's strategy: the injected ``auto`` answers for the place whose turn it
is, seat or computer, so the strategy stays in ``machine.gamemath``. Pure.

The panel, as far as one button can stand for one action: Stand is ``pass``, Draw the modern
draw from the closed stack (the discard is then a ``discard`` decision), Double classic's
``swap_all``. The moves that choose a card (``swap:H:T``, ``take_open:D``, ``discard:D``) have no
button of their own: choosing a hand card, then a table card or stack, with the panel or a touch
is the cabinet side's part (issue 12, item 3) and needs a way to select cards before acting.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from machine.games.cards import deck
from machine.games.eenendertigen.round import EenendertigenRound
from machine.games.eenendertigen.rules import PLACES, EenendertigenRules
from machine.games.hosted import HostedGame
from machine.games.interface import Button, RoundError, TableShown
from machine.games.rules import Profile

ACTIONS: dict[Button, str] = {Button.STAND: "pass", Button.DRAW: "draw", Button.DOUBLE: "swap_all"}
LABELS: dict[str, str] = {"pass": "Pass", "draw": "Draw from the stack", "swap_all": "Swap all three", "auto": "Auto"}


class EenendertigenGame(HostedGame):
    """One eenendertigen profile with its rules in force, as the cabinet hosts it."""

    bets_after_deal = False
    ACTIONS = {"play": ACTIONS}
    LABELS = LABELS

    def __init__(self, profile: Profile, auto: Callable[[Any], str]):
        super().__init__(profile, auto)
        self.rules: EenendertigenRules = profile.rules

    def computer(self, rnd: EenendertigenRound, place: int) -> str:
        """A computer player's move: Auto's choice for the place whose turn it is (``place``)."""
        return self._auto(rnd)

    def new_shoe(self) -> list[str]:
        return deck(self.rules.ranks)

    def start(
        self, shoe: list[str], bets: Sequence[int], funds: Sequence[int], seat_numbers: Sequence[int],
        carry: Mapping[str, Any] | None = None,
    ) -> EenendertigenRound:
        if len(seat_numbers) > PLACES:  # the cabinet must not deal in more seats than places
            raise RoundError(f"eenendertigen has {PLACES} places: {len(seat_numbers)} seats cannot all play")
        seats = sorted(seat_numbers)
        by_seat = dict(zip(seat_numbers, bets, strict=True))
        places: list[int | None] = [*seats, *[None] * (PLACES - len(seats))]
        stakes = [by_seat[s] if s is not None else 0 for s in places]
        return EenendertigenRound.start(self.rules, shoe, places, stakes, self.computer)

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        return TableShown(dealer_title="TABLE")

    def restore(self, data: Mapping[str, Any]) -> EenendertigenRound:
        return EenendertigenRound.from_dict(data, self.computer)

    def attract_lines(self) -> list[str]:
        r = self.rules
        pays = float(r.win_pays)
        deckname = "32 cards, 7 to ace" if r.variant == "classic" else "52 cards"
        return [
            f"Eenendertigen ({r.variant}, {deckname}): the best hand of four wins",
            f"A win pays {pays:g} x the bet, shared between tied winners",
            "31 knocks: everyone else has one more turn",
        ]
