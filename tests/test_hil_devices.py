"""Hardware in the loop, against the simulators by default or against real devices.

With no environment set, the ccTalk bus simulator runs as its own process and the panel
simulator in a thread, each on a real pty. ``CABINET_TEST_BUS`` and ``CABINET_TEST_PANEL`` (see
``tests/hil.py`` and ``docs/hardware-setup.md``) point these same tests at real devices. Every
assertion here holds for any compliant device: nothing needs the simulator's control channel.
Identification and the payout (real coins from a real hopper) are device rules, in
``test_device_rules.py`` with the others, run on each transport.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from hardware.cctalk.codec import Checksum
from hardware.cctalk.headers import (
    CATEGORY_COIN_ACCEPTOR,
    CATEGORY_PAYOUT,
    REPLY_LENGTHS,
    Header,
)
from hardware.cctalk.hopper import Hopper
from hardware.cctalk.host import CctalkBus, IdentificationError
from hardware.cctalk.scan import scan
from hardware.panel.host import NvNotSupported, PanelHost
from hardware.sim.launcher import SimProcess
from hardware.sim.panel import PanelSimulator

from tests.hil import (
    ACCEPTOR,
    BUS_CHECKSUM,
    BUS_ECHO,
    HOPPER,
    REAL_BUS,
    REAL_PANEL,
)

pytestmark = pytest.mark.timeout(60)

SIM_ARGS = [
    "--acceptor", f"{ACCEPTOR}:serial=12345678", "--hopper", f"{HOPPER}:speed=40,level=400,serial=424242",
]


@pytest.fixture(scope="module")
def bus_url() -> Iterator[str]:
    if REAL_BUS is not None:
        yield REAL_BUS
        return
    with SimProcess.start(SIM_ARGS) as sim:
        yield sim.link


@pytest.fixture
def bus(bus_url: str) -> Iterator[CctalkBus]:
    with CctalkBus.open(bus_url, link="test bus", echo=BUS_ECHO, checksum=Checksum(BUS_CHECKSUM)) as b:
        yield b


# --- ccTalk ---------------------------------------------------------------------------------


# Appendix 13's minimum sets, less the headers that change the device's state.
ACCEPTOR_QUERIES = (254, 246, 245, 244, 242, 241, 232, 230, 229, 227, 216, 197, 192, 184, 4)
HOPPER_QUERIES = (254, 246, 245, 244, 242, 241, 217, 216, 192, 171, 168, 166, 163, 4)


@pytest.mark.parametrize(
    "address, header",
    [(ACCEPTOR, h) for h in ACCEPTOR_QUERIES] + [(HOPPER, h) for h in HOPPER_QUERIES],
)
def test_every_query_of_the_minimum_command_set_is_answered_with_a_legal_reply(bus, address, header):
    data = b"\x01" if header == Header.COIN_ID else b""
    reply = bus.request(address, header, data)  # WrongLength if Table 8 forbids its length
    assert not reply.is_nak, f"address {address} refused header {header}"
    lo, hi = REPLY_LENGTHS[header]
    assert lo <= len(reply.data) <= hi


def test_the_scan_finds_both_devices(bus):
    # the simulator is given what a real bus is: a loaded machine may run it late (the confirming
    # simple poll is one try, so it gets a second)
    found = {d.address: d.category for d in scan(bus, wait=1.5, timeout=0.05 if REAL_BUS else 1.0)}
    assert found.get(ACCEPTOR) == CATEGORY_COIN_ACCEPTOR and found.get(HOPPER) == CATEGORY_PAYOUT


def test_an_address_where_nothing_answers_is_a_startup_error(bus):
    empty = next(a for a in range(4, 11) if a not in (ACCEPTOR, HOPPER))
    bus.timeout, bus.retries = 0.1, 1
    with pytest.raises(IdentificationError, match=f"^test bus: address {empty}: no reply"):
        Hopper(bus, empty).start()


# --- the button panel ------------------------------------------------------------------------


@pytest.fixture
def panel() -> Iterator[PanelHost]:
    sim = PanelSimulator(seats=4).start() if REAL_PANEL is None else None
    url = REAL_PANEL if sim is None else sim.link_url
    assert url is not None
    try:
        with PanelHost(url) as host:
            yield host
    finally:
        if sim is not None:
            sim.stop()


def poll_until(host: PanelHost, done, limit: float = 30.0) -> list[object]:  # the limit bounds a hang only
    seen: list[object] = []
    deadline = time.monotonic() + limit
    while not done(seen):
        assert time.monotonic() < deadline, f"not done after {limit} s; saw {seen}"
        host.poll()
        seen += host.events()
        time.sleep(0.002)
    return seen


# the link coming up and the lamps: tests/test_panel_rules.py, on every transport


def test_the_journal_head_goes_into_the_panel_and_back(panel):
    poll_until(panel, lambda s: panel.link_up)
    try:
        previous = panel.read_head()
    except NvNotSupported:
        if REAL_PANEL is None:
            raise
        pytest.skip("this panel has no non-volatile memory for the host")
    head = b"hil-test " + time.strftime("%Y%m%d%H%M%S").encode()
    panel.store_head(head)
    assert panel.read_head() == head
    if previous is not None:  # leave a real panel as it was
        panel.store_head(previous)
