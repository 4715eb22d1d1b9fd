"""The cabinet's modes: a state machine written as tables.

Owns: which mode the cabinet is in — attract, playing, operator menu, attendant, door open,
offline (the panel link is down) —, the events that move between them, what each transition
asks of the cabinet (pause, resume, open or close the operator menu), and where each mode sends
a button press (to the seat, to the menu, to an attendant action). Pure: no I/O, no Cabinet, no
clock read (time comes in as ``now``); the loop (``machine/loop/router.py``) carries out the
effects and the routes, and the screens draw the mode they are given.

Theory of operation
-------------------
The modes are not exclusive — the door can be open while the panel is offline and the attendant
key is turned — so a ``ModeState`` has two regions, as a statechart has:

- the *base*: ``ATTRACT`` or ``PLAYING``. A seat's activity (a bet, credit, a round) moves it to
  ``PLAYING``; once every seat has been idle for ``attract_after`` seconds (0: at once) it goes
  back to ``ATTRACT``. ``BASE_TRANSITIONS`` is its table.
- the *overlays*: ``OPERATOR``, ``ATTENDANT``, ``DOOR_OPEN`` and ``OFFLINE``, each entered and
  left by its own pair of events. ``OVERLAY_TRANSITIONS`` is their table: the event, the mode it
  enters or leaves, and the effects, in order.

A transition fires only when it changes something: a second "door open" or "operator key on" is
no event at all (no effect runs twice). The mode *in charge* — the one that routes the buttons —
is the first overlay present in ``PRIORITY``, else the base. ``ROUTES`` says, for each mode in
charge, where each button goes; a button a mode does not list goes nowhere.

Door open and offline route the buttons to the seats on purpose: the cabinet is paused then,
refuses every press and journals it as ignored, as it always has.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from hardware.buttons import Button


class Mode(enum.StrEnum):
    ATTRACT = "attract"
    PLAYING = "playing"
    OPERATOR = "operator menu"
    ATTENDANT = "attendant"
    DOOR_OPEN = "door open"
    OFFLINE = "offline"


class ModeEvent(enum.StrEnum):
    OPERATOR_KEY_ON = "operator key on"
    OPERATOR_KEY_OFF = "operator key off"
    ATTENDANT_KEY_ON = "attendant key on"
    ATTENDANT_KEY_OFF = "attendant key off"
    DOOR_OPENED = "door opened"
    DOOR_CLOSED = "door closed"
    LINK_DOWN = "panel link down"
    LINK_UP = "panel link up"
    ACTIVITY = "seat activity"
    IDLE_TIMEOUT = "idle timeout"


class Action(enum.StrEnum):
    """What a transition asks of the cabinet (carried out by the router, in order)."""

    PAUSE = "pause"  # Cabinet.pause(reason)
    RESUME = "resume"  # Cabinet.resume(reason)
    OPEN_MENU = "open menu"  # journal "menu opened", then build the operator menu
    CLOSE_MENU = "close menu"  # drop the operator menu, then journal "menu closed"


@dataclass(frozen=True)
class Effect:
    action: Action
    reason: str = ""  # the cabinet's pause reason: "operator", "door", "panel"


class Route(enum.StrEnum):
    """Where a button press goes."""

    SEAT = "seat"  # Cabinet.press: bets, Start, decisions, Collect
    MENU = "menu"  # the operator menu
    ATTENDANT_CLEAR = "attendant clear"  # pay a handpay / clear a tilt
    ATTENDANT_HANDPAY = "attendant handpay rest"  # what the hopper still owes becomes a handpay
    ATTENDANT_REFILL = "attendant refill"  # record a hopper refill
    NOWHERE = "nowhere"


@dataclass(frozen=True)
class OverlayTransition:
    mode: Mode
    enter: bool  # True: the event enters ``mode``; False: it leaves it
    effects: tuple[Effect, ...] = ()


# -- the tables ---------------------------------------------------------------------------------

OVERLAY_TRANSITIONS: Mapping[ModeEvent, OverlayTransition] = {
    ModeEvent.OPERATOR_KEY_ON: OverlayTransition(
        Mode.OPERATOR, True, (Effect(Action.PAUSE, "operator"), Effect(Action.OPEN_MENU))),
    ModeEvent.OPERATOR_KEY_OFF: OverlayTransition(
        Mode.OPERATOR, False, (Effect(Action.CLOSE_MENU), Effect(Action.RESUME, "operator"))),
    ModeEvent.ATTENDANT_KEY_ON: OverlayTransition(Mode.ATTENDANT, True),
    ModeEvent.ATTENDANT_KEY_OFF: OverlayTransition(Mode.ATTENDANT, False),
    ModeEvent.DOOR_OPENED: OverlayTransition(Mode.DOOR_OPEN, True, (Effect(Action.PAUSE, "door"),)),
    ModeEvent.DOOR_CLOSED: OverlayTransition(Mode.DOOR_OPEN, False, (Effect(Action.RESUME, "door"),)),
    ModeEvent.LINK_DOWN: OverlayTransition(Mode.OFFLINE, True, (Effect(Action.PAUSE, "panel"),)),
    ModeEvent.LINK_UP: OverlayTransition(Mode.OFFLINE, False, (Effect(Action.RESUME, "panel"),)),
}

BASE_TRANSITIONS: Mapping[tuple[Mode, ModeEvent], Mode] = {
    (Mode.ATTRACT, ModeEvent.ACTIVITY): Mode.PLAYING,
    (Mode.PLAYING, ModeEvent.IDLE_TIMEOUT): Mode.ATTRACT,
}

# the overlay in charge when several are present, first wins
PRIORITY: tuple[Mode, ...] = (Mode.OPERATOR, Mode.ATTENDANT, Mode.DOOR_OPEN, Mode.OFFLINE)

# the cabinet's pause reasons that stand for an overlay (restored from the journal at start-up)
PAUSE_MODES: Mapping[str, Mode] = {"operator": Mode.OPERATOR, "door": Mode.DOOR_OPEN, "panel": Mode.OFFLINE}

_TO_SEATS: Mapping[Button, Route] = {b: Route.SEAT for b in Button}

ROUTES: Mapping[Mode, Mapping[Button, Route]] = {
    Mode.ATTRACT: _TO_SEATS,
    Mode.PLAYING: _TO_SEATS,
    Mode.OPERATOR: {b: Route.MENU for b in Button},  # the key gives every button to the menu
    Mode.ATTENDANT: {
        **_TO_SEATS,
        Button.COLLECT: Route.ATTENDANT_CLEAR,
        Button.AUTO: Route.ATTENDANT_HANDPAY,
        Button.MAX: Route.ATTENDANT_REFILL,
    },
    Mode.DOOR_OPEN: _TO_SEATS,  # paused: the cabinet refuses and journals each press as ignored
    Mode.OFFLINE: _TO_SEATS,
}


# -- the state ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModeState:
    base: Mode = Mode.ATTRACT
    overlays: frozenset[Mode] = frozenset()
    idle_since: float | None = None  # when every seat last became idle (the attract timer)

    @classmethod
    def from_pauses(cls, pauses: Iterable[str]) -> ModeState:
        """The state that matches the pauses the cabinet restored from its journal."""
        return cls(overlays=frozenset(PAUSE_MODES[p] for p in pauses if p in PAUSE_MODES))

    @property
    def mode(self) -> Mode:
        """The mode in charge: it routes the buttons."""
        return next((m for m in PRIORITY if m in self.overlays), self.base)

    @property
    def attract(self) -> bool:
        return self.base is Mode.ATTRACT

    def shown(self) -> tuple[Mode, ...]:
        """The overlays present, in ``PRIORITY`` order (for the screens' banner)."""
        return tuple(m for m in PRIORITY if m in self.overlays)


def fire(state: ModeState, event: ModeEvent) -> tuple[ModeState, tuple[Effect, ...]]:
    """The state after ``event`` and the effects to carry out; unchanged and none when the event
    moves nothing from this state."""
    t = OVERLAY_TRANSITIONS.get(event)
    if t is not None:
        if (t.mode in state.overlays) == t.enter:
            return state, ()
        overlays = state.overlays | {t.mode} if t.enter else state.overlays - {t.mode}
        return replace(state, overlays=overlays), t.effects
    target = BASE_TRANSITIONS.get((state.base, event))
    if target is None:
        return state, ()
    return replace(state, base=target), ()


def observe(state: ModeState, active: bool, now: float, attract_after: float = 0.0) -> ModeState:
    """The base region's clock: whether any seat is active at ``now`` moves attract and playing."""
    if active:
        return replace(fire(state, ModeEvent.ACTIVITY)[0], idle_since=None)
    since = now if state.idle_since is None else state.idle_since
    state = replace(state, idle_since=since)
    if now - since >= attract_after:
        state = fire(state, ModeEvent.IDLE_TIMEOUT)[0]
    return state


def route(state: ModeState, button: str) -> Route:
    """Where a press of ``button`` goes in the mode in charge."""
    try:
        b = Button(button)
    except ValueError:
        return Route.NOWHERE
    return ROUTES[state.mode].get(b, Route.NOWHERE)
