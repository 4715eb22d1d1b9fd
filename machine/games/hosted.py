"""What every game's ``Game`` shares: the profile in force, Auto injected, and the panel map.

Owns: ``HostedGame``, the base of each game's ``Game`` class — holding the profile and its rules,
the table minimum, Auto (a function of the round, injected so the analysis stays out of the
games), and turning the game's own table of which button stands for which action at each kind
of decision (``ACTIONS``) and the words beside it (``LABELS``) into ``action_for`` and
``button_labels``. Auto is live at every decision. Pure: no I/O.

Card choices ("picks"): where an action names cards (eenendertigen's ``swap:2:3``), the game's
table holds a template (``swap:{hand}:{table}``) and the seat's picks fill it; a button whose
action is ``pick:hand`` moves the seat's ``hand`` pick to the next card the options allow. The
cabinet keeps each seat's picks (chosen with buttons or by touching a card) and clears them
when the seat acts; a pick not chosen is the first the options allow.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from machine.games.interface import PICK, Button, Decision
from machine.games.rules import Profile


class HostedGame:
    """A game profile with its rules in force, as the cabinet hosts it (see ``Game``)."""

    bets_after_deal: bool = False  # True: the bets are decisions of the round, after the deal
    hidden_hands: bool = False  # True: a seat's cards are hidden from the other seats during a round
    max_seats: int | None = None  # the most seats one round deals in (a game of places); None: every seat
    # decision kind -> button -> the round's action (live only when the action is an option)
    ACTIONS: Mapping[str, Mapping[Button, str]] = {}  # per class, or per instance where the rules choose
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

    def attract_lines(self) -> list[str]:
        return []

    def pay_rule(self) -> str:
        """The first of the attract screen's lines, where a game says no more."""
        lines = self.attract_lines()
        return lines[0] if lines else ""

    def _template(self, decision: Decision, button: Button) -> str | None:
        return "auto" if button == Button.AUTO else self.ACTIONS.get(decision.kind, {}).get(button)

    def action_for(self, decision: Decision, button: Button, picks: Mapping[str, int] | None = None) -> str | None:
        template = self._template(decision, button)
        if template is None or template == "auto":
            return template
        if template.startswith(PICK):  # live when there is another card to move to
            return template if len(self.choices(decision).get(template[len(PICK):], ())) > 1 else None
        action = template.format(**self.picked(decision, picks or {}))
        return action if action in decision.options else None

    def button_labels(self, decision: Decision, picks: Mapping[str, int] | None = None) -> dict[Button, str]:
        out = {}
        for button in Button:
            if self.action_for(decision, button, picks) is not None:
                out[button] = self.LABELS[str(self._template(decision, button))]
        return out

    def choices(self, decision: Decision) -> dict[str, tuple[int, ...]]:
        """The cards each pick may name at ``decision``: ``{"hand": (1, 2, 3), "table": (1, 2, 3)}``,
        read from the options that fill the game's templates."""
        found: dict[str, set[int]] = {}
        for template in self.ACTIONS.get(decision.kind, {}).values():
            pattern = _pattern(template)
            if pattern is None:
                continue
            for option in decision.options:
                m = pattern.fullmatch(option)
                for name, number in (m.groupdict() if m else {}).items():
                    found.setdefault(name, set()).add(int(number))
        return {name: tuple(sorted(v)) for name, v in found.items()}

    def picked(self, decision: Decision, picks: Mapping[str, int]) -> dict[str, int]:
        """The picks in force at ``decision``: the seat's own where the options allow, else the first."""
        return {name: picks[name] if picks.get(name) in allowed else allowed[0]
                for name, allowed in self.choices(decision).items()}

    def next_pick(self, decision: Decision, picks: Mapping[str, int], action: str) -> dict[str, int]:
        """The seat's picks after a ``pick:NAME`` button: NAME moves on to the next card allowed."""
        name = action[len(PICK):]
        allowed = self.choices(decision)[name]
        now = self.picked(decision, picks)[name]
        return {**picks, name: allowed[(allowed.index(now) + 1) % len(allowed)]}

    def touch(self, decision: Decision, picks: Mapping[str, int], target: str) -> tuple[dict[str, int], str | None]:
        """A touch on a card (``hand:2``, ``table:1``, ``stack``) at ``decision``: the seat's picks
        after it and the action it takes (None: it only chose a card, or it does nothing)."""
        return dict(picks), None

    def auto(self, rnd: Any) -> str:
        return self._auto(rnd)


def _pattern(template: str) -> re.Pattern[str] | None:
    """``swap:{hand}:{table}`` as a pattern with a number group per pick; None without picks."""
    if "{" not in template:
        return None
    return re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>\\d+)", re.escape(template)))
