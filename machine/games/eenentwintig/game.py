"""Eenentwintig as a ``Game``: what the cabinet needs to host an eenentwintig profile.

Owns: the 32-card shoe under the rules in force, starting and restoring a round (the bets are
decisions of the round, taken after the deal: ``bets_after_deal``), which panel button stands
for which choice and the words the screen writes beside it, Auto's choice (injected: a function
of the round, so the analysis stays out of the game) and what the attract screen may truthfully
say. Pure: never imports the game math, the cabinet, the money, a screen or a device.

The panel has no Wash button: Double, which this game has no use for, stands for it (the
screen writes "Wash" beside it). Draw buys a card ("Buy"), Stand passes ("Pass").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from machine.games.cards import new_shoe
from machine.games.eenentwintig.round import BANK, EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.eenentwintig.scoring import RANKS
from machine.games.hosted import HostedGame
from machine.games.interface import Button, TableShown
from machine.games.rules import Profile
from machine.games.text import Text

AutoStrategy = Callable[[EenentwintigRound], str]

# button -> the round's action at a play decision (offered only when the action is in the options)
ACTIONS: dict[Button, str] = {Button.DRAW: "hit", Button.STAND: "stand", Button.SPLIT: "split", Button.DOUBLE: "wash"}

# the round's action -> what the screen writes beside its button (English; the display translates)
LABELS: dict[str, str] = {"hit": "Buy", "stand": "Pass", "split": "Split", "wash": "Wash", "auto": "Auto"}


class EenentwintigGame(HostedGame):
    """One eenentwintig profile with its rules in force, as the cabinet hosts it."""

    bets_after_deal = True

    ACTIONS = {"play": ACTIONS}  # at a bet decision the bet buttons and Start are the core's
    LABELS = LABELS

    def __init__(self, profile: Profile, auto: AutoStrategy):
        super().__init__(profile, auto)
        self.rules: EenentwintigRules = profile.rules

    def new_shoe(self) -> list[str]:
        return new_shoe(self.rules.decks, RANKS)

    def start(
        self,
        shoe: list[str],
        bets: Sequence[int],
        funds: Sequence[int],
        seat_numbers: Sequence[int],
        carry: Mapping[str, Any] | None = None,
    ) -> EenentwintigRound:
        """Deal to the seats; ``bets`` (nothing staked before the deal) are not used."""
        return EenentwintigRound.start(self.rules, shoe, list(seat_numbers), funds=list(funds))

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        return TableShown(dealer_title=BANK)

    def restore(self, data: Mapping[str, Any]) -> EenentwintigRound:
        return EenentwintigRound.from_dict(dict(data))

    def pay_rule(self) -> str:
        return "Beat the bank: wins pay 1 to 1"

    def attract_lines(self) -> list[str]:
        r = self.rules
        lines = [Text("Bet {low} to {high} after seeing your open card", low=r.min_bet, high=r.max_bet),
                 "Beat the bank: wins pay 1 to 1"]
        if r.two_aces_twenty_and_a_half:
            lines.append(Text("Two aces count {score}", score="20.5"))
        if r.three_sevens_beat_21:
            lines.append("Three sevens beat every 21")
        lines.append("A 7 and an 8? Wash them for two new cards")
        return lines
