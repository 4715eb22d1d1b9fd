"""Ochko as a ``Game``: what the cabinet needs to host an ochko profile.

Owns: the 36-card shoe under the rules in force, starting a round from the previous round's
``carry`` (the bank) and restoring one, the table between rounds (the bank the next round
opens with, and a line when it is a stuk round or a new bank), which panel button stands for
which choice (Draw: draw, Stand: enough, Double: the dark card, where the table plays it) and
the words beside each, Auto's choice (injected: the analysis stays out of the game) and the
attract lines. The stake is the round's ``bet`` decision: the cabinet's bet buttons and Start
answer it, so no play button does. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from machine.games.cards import new_shoe
from machine.games.hosted import HostedGame
from machine.games.interface import Button, TableShown
from machine.games.ochko.round import BANKER, OchkoRound, next_bank
from machine.games.ochko.rules import RANKS, OchkoRules, is_stuk
from machine.games.rules import Profile
from machine.games.text import Text

AutoStrategy = Callable[[OchkoRound], str]

# button -> the round's action at a ``play`` decision (live only when the action is offered)
ACTIONS: dict[Button, str] = {Button.DRAW: "hit", Button.STAND: "stand", Button.DOUBLE: "dark"}

# the round's action -> what the screen writes beside its button (English; the display translates)
LABELS: dict[str, str] = {"hit": "Draw", "stand": "Enough", "dark": "Dark card", "auto": "Auto"}


class OchkoGame(HostedGame):
    """One ochko profile with its rules in force, as the cabinet hosts it."""

    bets_after_deal = True
    hidden_hands = True  # each seat's closed cards are its own until a 21, a bust or the settlement

    ACTIONS = {"play": ACTIONS}  # at a bet decision the bet buttons and Start are the core's
    LABELS = LABELS

    def __init__(self, profile: Profile, auto: AutoStrategy):
        super().__init__(profile, auto)
        self.rules: OchkoRules = profile.rules

    def new_shoe(self) -> list[str]:
        return new_shoe(self.rules.decks, RANKS)

    def start(
        self,
        shoe: list[str],
        bets: Sequence[int],
        funds: Sequence[int],
        seat_numbers: Sequence[int],
        carry: Mapping[str, Any] | None = None,
    ) -> OchkoRound:
        """Deal a round; ``bets`` are ignored (each seat stakes at its ``bet`` decision)."""
        return OchkoRound.start(self.rules, shoe, list(seat_numbers), funds=list(funds), carry=carry)

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        bank, opened = next_bank(self.rules, carry)
        if is_stuk(bank, self.rules.opening_bank):
            notice = "Stuk: the next round is the last of this bank"
        elif opened and carry is not None:
            notice = Text("The bank closed: a new bank of {bank} opens", bank=bank)
        else:
            notice = ""
        return TableShown(bank=bank, notice=notice, dealer_title=BANKER)

    def restore(self, data: Mapping[str, Any]) -> OchkoRound:
        return OchkoRound.from_dict(data)

    def pay_rule(self) -> str:
        return "Beat the banker: 1 to 1"

    def attract_lines(self) -> list[str]:
        r = self.rules
        lines = ["An open 21 is paid at once: 1 to 1" if r.dark_draw else "Exactly 21 is paid at once: 1 to 1",
                 "Beat the banker: 1 to 1"]
        if r.two_aces_21:
            lines.append("Two aces make 21!")
        if r.max_bet >= r.opening_bank:
            lines.append(Text("Stake up to the bank: it opens at {bank}", bank=r.opening_bank))
        else:
            lines.append(Text("Stakes {low} to {high}, up to the bank: it opens at {bank}", low=r.min_bet, high=r.max_bet,
                              bank=r.opening_bank))
        return lines
