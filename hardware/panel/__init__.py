"""The button panel: its protocol (docs/panel-protocol.md), the host driver and the simulator.

``messages`` (names, ids, payloads), ``codec`` (frames, CRC, stuffing), ``connection`` (the
pure state machines of both ends), ``host`` (``PanelHost``, the cabinet's driver), ``device``
(the panel as a pure model), ``sim`` and ``control`` (the simulator and its control channel).
The simulator is not imported here, so ``python -m hardware.sim.panel`` runs cleanly.
"""

from hardware.panel.connection import HostConnection, LinkDown, LinkUp, PanelConnection
from hardware.panel.host import PanelHost
from hardware.panel.messages import (
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
