"""The toy game as a ``Game``: its shoe, its round, the buttons (Draw swaps, Stand stands)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from machine.games.cards import new_shoe
from machine.games.hosted import HostedGame
from machine.games.interface import Button, TableShown

from .round import ToyRound


class ToyGame(HostedGame):
    ACTIONS = {"play": {Button.DRAW: "swap", Button.STAND: "stand"}}
    LABELS = {"swap": "Draw", "stand": "Stand", "auto": "Auto"}  # words the catalogs translate already

    def new_shoe(self) -> list[str]:
        return new_shoe(self.rules.decks)

    def start(self, shoe: list[str], bets: Sequence[int], funds: Sequence[int], seat_numbers: Sequence[int],
              carry: Mapping[str, Any] | None = None) -> ToyRound:
        return ToyRound.start(self.rules, shoe, list(bets), list(seat_numbers))

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        return TableShown(dealer_title="HOUSE")

    def restore(self, data: Mapping[str, Any]) -> ToyRound:
        return ToyRound.from_dict(data)

    def attract_lines(self) -> list[str]:
        return []
