"""Where the hardware-in-the-loop tests find their devices: the simulators, or real ones.

By default every HIL test starts the simulators and talks to them over a real pty. Setting an
environment variable points the tests that can run against real devices at them instead (as
python-can's tests take their interface from the environment), and skips the tests that drive
the simulator's control channel (inserting coins, injecting faults, pressing buttons):

=================================  ============================================================
``CABINET_TEST_BUS``               the ccTalk bus: a port or URL (``/dev/ttyUSB0``, ...)
``CABINET_TEST_BUS_ECHO``          ``1``: the bus echoes the host's bytes (a real single-wire
                                   bus does; default ``1`` with ``CABINET_TEST_BUS``)
``CABINET_TEST_BUS_CHECKSUM``      ``sum8`` (default) or ``crc16``
``CABINET_TEST_ACCEPTOR``          the coin acceptor's address (default 2)
``CABINET_TEST_HOPPER``            the hopper's address (default 3)
``CABINET_TEST_HOPPER_SECURITY``   ``serial`` (default) or ``none``
``CABINET_TEST_PAYOUT``            coins the payout test pays (default 3; ``0`` skips it)
``CABINET_TEST_PANEL``             the button panel's port or URL
=================================  ============================================================
"""

from __future__ import annotations

import os

import pytest

REAL_BUS = os.environ.get("CABINET_TEST_BUS") or None
REAL_PANEL = os.environ.get("CABINET_TEST_PANEL") or None
BUS_ECHO = os.environ.get("CABINET_TEST_BUS_ECHO", "1" if REAL_BUS else "0") == "1"
BUS_CHECKSUM = os.environ.get("CABINET_TEST_BUS_CHECKSUM", "sum8")
ACCEPTOR = int(os.environ.get("CABINET_TEST_ACCEPTOR", "2"))
HOPPER = int(os.environ.get("CABINET_TEST_HOPPER", "3"))
HOPPER_SECURITY = os.environ.get("CABINET_TEST_HOPPER_SECURITY", "serial")
PAYOUT = int(os.environ.get("CABINET_TEST_PAYOUT", "3"))

# Marks for tests that need a simulator's control channel: skipped against real devices.
needs_bus_simulator = pytest.mark.skipif(
    REAL_BUS is not None, reason="drives the ccTalk simulator's control channel (CABINET_TEST_BUS is set)"
)
needs_panel_simulator = pytest.mark.skipif(
    REAL_PANEL is not None, reason="drives the panel simulator's control channel (CABINET_TEST_PANEL is set)"
)
