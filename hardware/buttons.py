"""The buttons of one seat of the panel: their names, in wire-id order (id = position + 1).

Owns: the one list of a seat's buttons, used by the panel protocol, the cabinet, the games
(each maps these buttons to its choices), the screens and the robots. Pure data: no I/O, no
meaning — what a button does is the cabinet's and the game's business. A module of its own at the
top of ``hardware`` that imports nothing but ``enum``, so naming a button loads no driver or
protocol (``hardware/panel/buttons.py`` re-exports it for the panel's modules).
"""

from __future__ import annotations

import enum


class Button(enum.StrEnum):
    """A seat's button, by its protocol name (docs/panel-protocol.md)."""

    PLUS_2 = "+2"
    PLUS_10 = "+10"
    TIMES_2 = "x2"
    REPEAT = "repeat"
    MAX = "max"
    START = "start"
    DRAW = "draw"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    INSURANCE = "insurance"
    AUTO = "auto"
    COLLECT = "collect"


BET_BUTTONS: tuple[Button, ...] = (Button.PLUS_2, Button.PLUS_10, Button.TIMES_2, Button.REPEAT, Button.MAX)
MONEY_BUTTONS: tuple[Button, ...] = BET_BUTTONS + (Button.START, Button.COLLECT)
PLAY_BUTTONS: tuple[Button, ...] = (Button.DRAW, Button.STAND, Button.DOUBLE, Button.SPLIT, Button.INSURANCE, Button.AUTO)
