"""The button panel: its protocol (docs/panel-protocol.md), the host driver and the simulator.

``messages`` (names, ids, payloads), ``codec`` (frames, CRC, stuffing), ``connection`` (the
pure state machines of both ends), ``host`` (``PanelHost``, the cabinet's driver), ``device``
(the panel as a pure model), ``sim`` and ``control`` (the simulator and its control channel).
The simulator is not imported here, so ``python -m hardware.sim.panel`` runs cleanly, and
neither is the host driver until it is asked for (``PanelHost`` below): it opens serial ports,
and the games, which only name the buttons (``buttons.py``), must not load pyserial.
"""

from typing import Any

from hardware.panel.connection import HostConnection, LinkDown, LinkUp, PanelConnection
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


def __getattr__(name: str) -> Any:
    if name == "PanelHost":
        from hardware.panel.host import PanelHost

        return PanelHost
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
