"""What every game's ``Game`` shares: the profile in force, Auto injected, and the panel map.

Owns: ``HostedGame``, the base of each game's ``Game`` class — holding the profile and its rules,
the table minimum, Auto (a function of the round, injected so the analysis stays out of the
games), and turning the game's own table of which button stands for which action at each kind
of decision (``ACTIONS``) and the words beside it (``LABELS``) into ``action_for`` and
``button_labels``. Auto is live at every decision. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from machine.games.interface import Button, Decision
from machine.games.rules import Profile


class HostedGame:
    """A game profile with its rules in force, as the cabinet hosts it (see ``Game``)."""

    bets_after_deal: bool = False  # True: the bets are decisions of the round, after the deal
    # decision kind -> button -> the round's action (live only when the action is an option)
    ACTIONS: ClassVar[Mapping[str, Mapping[Button, str]]] = {}
    # the round's action -> what the screen writes beside its button (English; the display translates)
    LABELS: ClassVar[Mapping[str, str]] = {}

    def __init__(self, profile: Profile, auto: Callable[[Any], str]):
        self.profile = profile
        self.rules: Any = profile.rules
        self.name = profile.game
        self.title = profile.title
        self._auto = auto

    @property
    def min_bet(self) -> int:
        return int(self.rules.min_bet)

    def action_for(self, decision: Decision, button: Button) -> str | None:
        if button == Button.AUTO:
            return "auto"
        action = self.ACTIONS.get(decision.kind, {}).get(button)
        return action if action in decision.options else None

    def button_labels(self, decision: Decision) -> dict[Button, str]:
        out = {}
        for button in Button:
            action = self.action_for(decision, button)
            if action is not None:
                out[button] = self.LABELS[action]
        return out

    def auto(self, rnd: Any) -> str:
        return self._auto(rnd)
