"""The button panel: its protocol (docs/panel-protocol.md) and the host driver.

``messages`` (names, ids, payloads), ``codec`` (frames, CRC, stuffing), ``connection`` (the
pure state machines of both ends), ``host`` (``PanelHost``, the cabinet's driver), ``testing``
(a pair of connections joined in memory), ``buttons`` (the buttons' names, for the games).
The simulated panel lives in ``hardware.sim`` (``panel_device``, the panel as a pure model;
``panel`` and ``panel_control``, the simulator and its control channel). The host driver is
not imported until it is asked for (``PanelHost`` below): it opens serial ports, and what only
names the buttons must not load pyserial.
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
