"""The button panel: its protocol (docs/panel-protocol.md), the host driver and the simulator.

``messages`` (names, ids, payloads), ``codec`` (frames, CRC, stuffing), ``connection`` (the
pure state machines of both ends), ``host`` (``PanelHost``, the cabinet's driver), ``device``
(the panel as a pure model), ``sim`` and ``control`` (the simulator and its control channel).
The simulator is not imported here, so ``python -m hardware.panel.sim`` runs cleanly.
"""

from .connection import HostConnection, LinkDown, LinkUp, PanelConnection
from .host import PanelHost
from .messages import (
    BUTTONS,
    DOORS,
    KEYS,
    MAX_SEATS,
    ButtonPressed,
    ButtonReleased,
    Door,
    KeySwitch,
    LampState,
)

__all__ = [
    "BUTTONS", "DOORS", "KEYS", "MAX_SEATS", "ButtonPressed", "ButtonReleased", "Door",
    "HostConnection", "KeySwitch", "LampState", "LinkDown", "LinkUp", "PanelConnection",
    "PanelHost",
]
