"""Wires that lie (issue 24, findings 4 and 6): the cabinet's bus worker on simulated devices
over an in-memory link, with a man in the middle who replays old replies, in manual time.

The cabinet, its journal and the bus worker are the product's; the devices are the simulators
behind ``VirtualTransport``; ``Tamper`` sits on the wire between them.
"""

from __future__ import annotations

import threading

import pytest

from hardware.cctalk.acceptor import CoinAcceptor
from hardware.cctalk.headers import Header
from hardware.cctalk.hopper import Hopper
from hardware.sim.virtual import VirtualTransport

from machine.core.cabinet import Cabinet
from machine.loop.devices import BusDevices, BusWorker
from tests.cabinet_helpers import boot
from tests.test_cctalk_host import Rig

pytestmark = pytest.mark.timeout(60)

COIN = {"EU100A": 10, "EU200A": 20}  # points, as the cabinet's settings price them


class Tamper(VirtualTransport):
    """The wire with a man in the middle: he keeps every reply to 229 (the acceptor's event
    buffer) and, while ``replay`` holds one, answers every 229 with it instead of the device."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.replies_229: list[bytes] = []
        self.replay: bytes | None = None
        self._header: int | None = None

    def write(self, data: bytes) -> None:
        self._header = data[3] if len(data) > 3 else None
        if self._header == Header.READ_BUFFERED_CREDIT:
            self.replies_229.append(b"")
            if self.replay is not None:
                self.written += data
                self.inject(self.replay, 0.01)  # the device never hears the request
                return
        super().write(data)

    def read(self, size: int, timeout: float) -> bytes:
        out = super().read(size, timeout)
        if self._header == Header.READ_BUFFERED_CREDIT and self.replay is None:
            self.replies_229[-1] += out
        return out


class Wired:
    """Two seats, an acceptor at 2 for seat 1 and a hopper at 3 for both, on a tampered wire."""

    def __init__(self, tmp_path) -> None:
        self.rig = Rig()
        self.rig.reboot(Tamper)
        self.wire: Tamper = self.rig.transport  # type: ignore[assignment]
        self.cab: Cabinet = boot(tmp_path)
        acceptor = CoinAcceptor(self.rig.bus, 2, values=COIN)
        acceptor.start()
        hopper = Hopper(self.rig.bus, 3)
        hopper.start()
        self.devices = BusDevices(self.rig.bus, {1: acceptor}, [(hopper, [1, 2])])
        self.worker = BusWorker(self.cab, threading.Lock(), self.devices)
        self.worker.check_at_start()

    def coins(self, coin_id: str, count: int) -> None:
        """``count`` coins into the acceptor, polled at most five at a time (as a player feeds them)."""
        while count:
            n = min(count, 5)
            for _ in range(n):
                self.rig.acc.insert(coin_id)
            self.worker.poll_once()
            count -= n

    def events(self, name: str) -> list[dict]:
        return [r.data for r in self.cab.journal.records("event") if r.data["event"] == name]


@pytest.fixture
def wired(tmp_path):
    w = Wired(tmp_path)
    yield w
    w.cab.journal.close()


def test_a_replayed_old_acceptor_reply_credits_nothing_and_is_a_device_fault(wired):
    """Finding 4: the 229 reply of counter 7, played again after the counter reached 13."""
    wired.worker.poll_once()  # accepting from now on
    wired.coins("EU200A", 7)
    assert wired.rig.acc.counter == 7
    old = wired.wire.replies_229[-1]  # a valid reply: counter 7 and its five events
    wired.coins("EU200A", 6)
    assert wired.rig.acc.counter == 13 and wired.cab.seats[1].money.credit == 13 * 20
    wired.wire.replay = old
    wired.worker.poll_once()
    wired.worker.poll_once()
    assert wired.cab.seats[1].money.credit == 13 * 20  # not one point for the replay
    [ev] = wired.events("coin_counter_fault")
    assert (ev["address"], ev["journal"], ev["device"]) == (2, 13, 7)
    assert wired.cab.lock_of(1) == "tilt"
    assert wired.cab.seats[1].lock_detail == (
        "coin acceptor 2: event counter 13 -> 7, not a move its buffer can show: nothing credited")
    wired.wire.replay = None  # the real device again: 7 -> 13 is six events, more than the buffer
    wired.worker.poll_once()
    wired.worker.poll_once()
    assert wired.cab.seats[1].money.credit == 13 * 20
    assert [(e["journal"], e["device"]) for e in wired.events("coin_counter_fault")] == [(13, 7), (7, 13)]
    assert wired.cab.acceptor_counter(2) == 13
    assert wired.cab.seats[1].meters.get("total_in") == 13 * 20 == wired.rig.acc.credits * 20
