"""The simulators as a backend of the link registry (``sim``, ``sim://`` in a configuration).

Owns: what opening a simulated link means on its own. A simulator's link is a real pty or
socket that exists only while the simulator runs; the harness that starts the simulators
(``cabinet run``, the tests, the bench) opens the link each one announces, through the real
backends. Opened without one, ``sim`` is a clear error, never a silent stand-in device. Knows
no protocol and starts nothing.
"""

from __future__ import annotations

from hardware.transport import TransportError


class SimulatorLink:
    """The ``sim`` backend: refuses to open outside a harness that runs the simulators."""

    def __init__(self, target: str, *, baudrate: int = 9600) -> None:
        raise TransportError(
            "sim: a simulator's link exists only while its simulator runs: `cabinet run` starts the "
            "simulators for the links set to sim and opens the links they make"
        )
