"""Routing the panel's events between play, the operator menu and the attendant actions.

Owns: turning each panel event (a press, a key switch, the door, the link) into a mode event,
carrying out the effects the mode table (``machine/loop/modes.py``) asks for — pause, resume,
open or close the operator menu — and sending each press (and each touch on a card) where the mode in charge routes it;
the operator menu object while the operator key is on; and each seat's language: on a seat
with no bet and no hand (idle or ready), Insurance (its lamp lit then) chooses the next of the
cabinet's languages instead of reaching the core, and the choice holds until the seat is idle
with empty meters again (then the configured language). Calls the cabinet only through its
public methods, with the caller holding the cabinet lock. Never reads a clock (``now`` comes in),
never draws, never talks to a device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hardware.buttons import Button
from hardware.panel import ButtonPressed, Door, KeySwitch, LinkDown, LinkUp

from machine.core.cabinet import Cabinet
from machine.i18n import LANGUAGES
from machine.loop.modes import Action, Effect, Mode, ModeEvent, ModeState, Route, fire, observe, route
from machine.operator.menu import OperatorMenu

LANGUAGE_BUTTON = Button.INSURANCE  # on a seat with no bet and no hand: the next language
CHOOSING_STATES = frozenset({"idle", "ready"})  # the seat states in which a player may choose it
CHOOSING_MODES = frozenset({Mode.ATTRACT, Mode.PLAYING})  # not while a key, the door or the link is in charge

KEY_EVENTS = {
    ("operator", True): ModeEvent.OPERATOR_KEY_ON,
    ("operator", False): ModeEvent.OPERATOR_KEY_OFF,
    ("attendant", True): ModeEvent.ATTENDANT_KEY_ON,
    ("attendant", False): ModeEvent.ATTENDANT_KEY_OFF,
}


def mode_event(ev: Any) -> ModeEvent | None:
    """The mode event a panel event stands for, or None (a press, or a key with no mode)."""
    if isinstance(ev, KeySwitch):
        return KEY_EVENTS.get((ev.name, ev.on))
    if isinstance(ev, Door):
        return ModeEvent.DOOR_OPENED if ev.open else ModeEvent.DOOR_CLOSED
    if isinstance(ev, LinkDown):
        return ModeEvent.LINK_DOWN
    if isinstance(ev, LinkUp):
        return ModeEvent.LINK_UP
    return None


class Router:
    """The modes of one cabinet and the routing of its panel's events."""

    def __init__(
        self,
        cab: Cabinet,
        open_menu: Callable[[], OperatorMenu],
        requests: list[str],
        attract_after: float = 0.0,
        language: str = "en",
    ):
        self.cab = cab
        self.language = language  # the configured language: a seat's until its player chooses
        self.chosen: dict[int, str] = {}  # seat -> the language its player chose
        self._left_idle: set[int] = set()  # seats with a choice that have had money or a bet since
        self.open_menu = open_menu
        self.requests = requests  # the bus worker's queue, for the menu's hopper test
        self.attract_after = attract_after
        self.state = ModeState.from_pauses(cab.pauses)
        self.menu: OperatorMenu | None = None
        if Mode.OPERATOR in self.state.overlays:  # restored mid-menu: the menu is open again
            self.menu = open_menu()

    def panel_event(self, ev: Any, now: float) -> None:
        """One event from the panel host (the caller holds the cabinet lock)."""
        if isinstance(ev, ButtonPressed):
            if ev.seat in self.cab.seats:
                self.press(ev.seat, ev.button, now)
            return
        event = mode_event(ev)
        if event is not None:
            self.fire(event, now)

    def fire(self, event: ModeEvent, now: float) -> None:
        self.state, effects = fire(self.state, event)
        for effect in effects:
            self._apply(effect, now)

    def observe(self, now: float) -> None:
        """Attract or playing, from the seats' activity at ``now`` (the caller holds the lock)."""
        cab = self.cab
        active = cab.round is not None or any(cab.seat_state(n) != "idle" for n in cab.seats)
        self.state = observe(self.state, active, now, self.attract_after)
        if self.menu is not None:
            self.menu.now = now  # the PIN lock's countdown
        tournament = cab.tournament_seat()
        in_tournament = tournament["seat"] if tournament is not None else None
        for n in list(self.chosen):
            if cab.seat_state(n) != "idle" or n == in_tournament:  # an unstaked tournament is play too
                self._left_idle.add(n)
            elif n in self._left_idle:  # idle with empty meters again: the next player's default
                del self.chosen[n]
                self._left_idle.discard(n)

    def may_choose_language(self, seat: int) -> bool:
        """Whether Insurance on ``seat`` chooses its language now: no bet, no hand, no lock and
        no payout (idle or ready), while play is in charge (attract or playing)."""
        return self.state.mode in CHOOSING_MODES and self.cab.seat_state(seat) in CHOOSING_STATES

    def seat_language(self, seat: int) -> str:
        return self.chosen.get(seat, self.language)

    def languages(self) -> dict[int, str]:
        """Every seat's language now: its player's choice, else the configured one."""
        return {n: self.seat_language(n) for n in self.cab.seats}

    def choose_language(self, seat: int) -> None:
        """The next language for ``seat`` (after the last, the first)."""
        now_in = self.seat_language(seat)
        at = LANGUAGES.index(now_in) if now_in in LANGUAGES else -1
        self.chosen[seat] = LANGUAGES[(at + 1) % len(LANGUAGES)]

    def press(self, seat: int, button: str, now: float) -> None:
        r = route(self.state, button)
        cab = self.cab
        if button == LANGUAGE_BUTTON and self.may_choose_language(seat):
            self.choose_language(seat)  # never a play press: the core does not see it
        elif r is Route.SEAT:
            cab.press(seat, button, now)
        elif r is Route.MENU and self.menu is not None:
            self.menu.press(seat, button, now)
            while self.menu.requests:
                self.requests.append(self.menu.requests.pop(0))
        elif r is Route.ATTENDANT_CLEAR:
            cab.attendant_clear(seat)
        elif r is Route.ATTENDANT_HANDPAY:
            cab.attendant_handpay_rest(seat)
        elif r is Route.ATTENDANT_REFILL:
            cab.attendant_refill(seat, now)

    def touch(self, seat: int, target: str, now: float) -> bool:
        """A touch on a card of ``seat``'s screen (``hand:2``, ``table:1``, ``stack``): to the
        cabinet where the mode in charge sends the seat's play buttons, else nowhere (the
        operator menu owns the screen while it is open). Returns whether it did something."""
        if seat not in self.cab.seats or route(self.state, "draw") is not Route.SEAT:
            return False
        return self.cab.touch(seat, target, now)

    def lamps(self) -> dict[int, set[str]]:
        """The buttons to light on each seat: the menu's while it is open, else the live ones and
        Insurance where it chooses the seat's language."""
        if self.menu is not None:
            lit = self.menu.lamps()
            return {n: set(lit) for n in self.cab.seats}
        live: dict[int, set[str]] = {n: set(self.cab.live(n)) for n in self.cab.seats}
        for n, on in live.items():
            if self.may_choose_language(n):
                on.add(LANGUAGE_BUTTON)
        return live

    def _apply(self, effect: Effect, now: float) -> None:
        if effect.action is Action.PAUSE:
            self.cab.pause(effect.reason, now)
        elif effect.action is Action.RESUME:
            self.cab.resume(effect.reason, now)
        elif effect.action is Action.OPEN_MENU:
            self.cab.operator_event("menu opened", now)
            self.menu = self.open_menu()
            self.menu.now = now
        elif effect.action is Action.CLOSE_MENU:
            self.menu = None
            self.cab.operator_event("menu closed", now)
