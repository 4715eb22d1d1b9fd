"""The blackjack family as a ``Game``: Random Blackjack and casino blackjack, by their rules.

Owns: what the cabinet needs to host a blackjack-family profile — the shoe under the rules in
force, starting and restoring a ``Round``, which of the panel's buttons stands for which of
the round's choices at each decision (and what the screen writes beside it), Auto's choice,
and what the attract screen may truthfully say the rules pay. Pure: never imports the game
math, the cabinet, the money, a screen or a device. Auto comes in injected (a function of the
round), so the analysis that computes it stays out of the game.

The panel has no Surrender button: where surrender is offered, Insurance stands for it (the
screen writes "Surrender" beside it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from machine.games.blackjack.round import Round
from machine.games.blackjack.rules import Rules
from machine.games.cards import deck_ranks, new_shoe
from machine.games.hosted import HostedGame
from machine.games.interface import Button, TableShown
from machine.games.rules import Profile
from machine.games.text import SEP, Text

AutoStrategy = Callable[[Round], str]

# decision kind -> button -> the round's action (offered only when the action is in the options)
ACTIONS: dict[str, dict[Button, str]] = {
    "insurance": {Button.INSURANCE: "insure", Button.STAND: "no_insurance"},
    "surrender": {Button.INSURANCE: "surrender", Button.DRAW: "continue", Button.STAND: "continue"},
    "play": {
        Button.DRAW: "hit",
        Button.STAND: "stand",
        Button.DOUBLE: "double",
        Button.SPLIT: "split",
        Button.INSURANCE: "surrender",
    },
}

# the round's action -> what the screen writes beside its button (English; the display translates)
LABELS: dict[str, str] = {
    "insure": "Insure",
    "no_insurance": "No insurance",
    "surrender": "Surrender",
    "continue": "Play on",
    "hit": "Draw",
    "stand": "Stand",
    "double": "Double",
    "split": "Split",
    "auto": "Auto",
}


class BlackjackGame(HostedGame):
    """One blackjack-family profile with its rules in force, as the cabinet hosts it."""

    ACTIONS = ACTIONS
    LABELS = LABELS

    def __init__(self, profile: Profile, auto: AutoStrategy):
        super().__init__(profile, auto)
        self.rules: Rules = profile.rules

    def new_shoe(self) -> list[str]:
        return new_shoe(self.rules.decks, deck_ranks(self.rules.spanish_deck))

    def start(
        self,
        shoe: list[str],
        bets: Sequence[int],
        funds: Sequence[int],
        seat_numbers: Sequence[int],
        carry: Mapping[str, Any] | None = None,
    ) -> Round:
        return Round.start(self.rules, shoe, list(bets), funds=list(funds), seat_numbers=list(seat_numbers))

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        return TableShown()

    def restore(self, data: Mapping[str, Any]) -> Round:
        return Round.from_dict(dict(data))

    def attract_lines(self) -> list[str]:
        r = self.rules
        lines = []
        if r.three_sevens_bonus > 0:
            lines.append("Three sevens pay a bonus!")
        lines.append(Text("Blackjack pays {a} to {b}", a=r.blackjack_pays.numerator, b=r.blackjack_pays.denominator))
        if r.five_card_charlie:
            lines.append("Five cards without busting win")
        return lines

    def pay_rule(self) -> str:
        """What blackjack pays, and the table rule that changes a tie or a 21 (Swedish pub, Spanish 21)."""
        r = self.rules
        parts: list[str] = [Text("Blackjack pays {a} to {b}", a=r.blackjack_pays.numerator, b=r.blackjack_pays.denominator)]
        if r.dealer_wins_ties:
            parts.append(Text("ties on {totals} lose", totals=", ".join(str(t) for t in sorted(r.dealer_wins_ties))))
        if r.player_21_wins:
            parts.append("your 21 always wins")
        return Text.joined(SEP, parts)
