"""One interface per kind of device (hardware/interfaces.py): each driver serves its kind's
interface, and every link a kind sits on is a field ``devices:`` must name."""

from __future__ import annotations

import importlib

from hardware.cctalk.acceptor import CoinAcceptor
from hardware.cctalk.hopper import Hopper
from hardware.interfaces import KINDS, CoinAcceptorDevice, HopperDevice, PanelDevice, links
from hardware.panel.host import PanelHost
from hardware.panel.testing import MemoryTransport
from hardware.sim.virtual import VirtualSim

from machine.operator.config import DevicesConfig


def test_each_driver_serves_the_interface_of_its_kind():
    sim = VirtualSim()
    bus = sim.bus()
    acceptor: CoinAcceptorDevice = CoinAcceptor(bus, 2)  # mypy checks these three too
    hopper: HopperDevice = Hopper(bus, 3)
    panel: PanelDevice = PanelHost(transport=MemoryTransport())
    made = {"coin acceptor": acceptor, "hopper": hopper, "panel": panel}
    assert set(made) == set(KINDS)
    for name, kind in KINDS.items():
        module, cls = kind.driver.split(":")
        assert type(made[name]) is getattr(importlib.import_module(module), cls)
        assert isinstance(made[name], kind.interface)
    panel.close()


def test_every_link_a_kind_sits_on_must_be_named_in_the_configuration():
    required = {name for name, field in DevicesConfig.model_fields.items() if field.is_required()}
    assert links() == ("bus", "panel") and required == set(links())
