"""The panel's buttons, for the panel protocol's modules: ``hardware.buttons`` re-exported.

The one list of a seat's buttons is ``hardware/buttons.py``, a module of its own that loads
nothing else; this name is kept for the protocol's modules, which import it from here.
"""

from hardware.buttons import BET_BUTTONS, MONEY_BUTTONS, PLAY_BUTTONS, Button

__all__ = ["BET_BUTTONS", "MONEY_BUTTONS", "PLAY_BUTTONS", "Button"]
