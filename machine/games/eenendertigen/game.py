"""Eenendertigen as a ``Game``: what the cabinet needs to host an eenendertigen profile.

Owns: the deck of the variant in force, starting a round (the seats that pressed Start take
places 1.. in seat order, computer players fill the rest; each seat's bet was taken before the
deal) and restoring one, the table between rounds, the panel map and the attract lines. The
computer players play Auto's strategy: the injected ``auto`` answers for the place whose turn it
is, seat or computer, so the strategy stays in ``machine.gamemath``. Pure.

The panel (written on screen beside each button): classic — Draw moves the frame to the next
hand card, Split to the next table card, Double swaps the two framed cards, Insurance swaps all
three, Stand passes; modern — Draw draws from the closed stack, Split takes the open card, Stand
passes, and then (the discard) Draw moves the frame over the four cards, Double discards the
framed one; Auto everywhere. A touch: classic, a hand card and a table card (either first) swap;
modern, the open card takes it, the stack draws, then a hand card is the discard. A card
chosen with a button counts as chosen for a touch too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from machine.games.cards import deck
from machine.games.eenendertigen.round import EenendertigenRound
from machine.games.eenendertigen.rules import PLACES, EenendertigenRules
from machine.games.hosted import HostedGame
from machine.games.interface import Button, Decision, RoundError, TableShown
from machine.games.rules import Profile
from machine.games.text import Text

ACTIONS: dict[str, dict[str, dict[Button, str]]] = {  # variant -> decision kind -> button -> action
    "classic": {"play": {Button.DRAW: "pick:hand", Button.SPLIT: "pick:table", Button.DOUBLE: "swap:{hand}:{table}",
                         Button.INSURANCE: "swap_all", Button.STAND: "pass"}},
    "modern": {"play": {Button.DRAW: "draw", Button.SPLIT: "take_open", Button.STAND: "pass"},
               "discard": {Button.DRAW: "pick:hand", Button.DOUBLE: "discard:{hand}"}},
}
LABELS: dict[str, str] = {
    "pick:hand": "Hand card", "pick:table": "Table card", "swap:{hand}:{table}": "Swap", "swap_all": "Swap all three",
    "pass": "Pass", "draw": "Draw from the stack", "take_open": "Take the open card", "discard:{hand}": "Discard",
    "auto": "Auto",
}


class EenendertigenGame(HostedGame):
    """One eenendertigen profile with its rules in force, as the cabinet hosts it."""

    max_seats: int | None = PLACES
    hidden_hands = True  # every place's hand is hidden from the others until the round ends
    LABELS = LABELS

    def __init__(self, profile: Profile, auto: Callable[[Any], str]):
        super().__init__(profile, auto)
        self.rules: EenendertigenRules = profile.rules
        self.ACTIONS = ACTIONS[self.rules.variant]

    def touch(self, decision: Decision, picks: Mapping[str, int], target: str) -> tuple[dict[str, int], str | None]:
        kind, _, number = target.partition(":")
        picks = dict(picks)
        if decision.kind == "discard":
            action = f"discard:{number}" if kind == "hand" else None
        elif self.rules.variant == "modern":
            action = {"table": "take_open", "stack": "draw"}.get(kind)
        elif kind in ("hand", "table") and number.isdigit():  # a swap once both cards are chosen
            picks[kind] = int(number)
            action = "swap:{hand}:{table}".format(**picks) if "hand" in picks and "table" in picks else None
        else:
            action = None
        if action is not None and action not in decision.options:
            return picks, None
        return picks, action

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

    def pay_rule(self) -> str:
        return Text("A win pays {pays} x the bet", pays=format(float(self.rules.win_pays), "g"))

    def attract_lines(self) -> list[str]:
        r = self.rules
        pays = float(r.win_pays)
        deckname = "32 cards, 7 to ace" if r.variant == "classic" else "52 cards"
        return [
            Text("Eenendertigen ({variant}, {deck}): the best hand of four wins", variant=r.variant, deck=deckname),
            Text("A win pays {pays} x the bet, shared between tied winners", pays=format(pays, "g")),
            "31 knocks: everyone else has one more turn",
        ]
