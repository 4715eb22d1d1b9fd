"""The device side of the cabinet: the ccTalk bus worker, and the simulators for ``tools/run``.

Owns: ``BusWorker``, the thread that talks to the coin acceptors and hoppers (blocking serial
request/response, so never in the frame loop): it polls every acceptor every 150 ms and credits
what it reports, keeps each acceptor's inhibits following ``Cabinet.may_take_coins``, carries
out the payouts the cabinet owes through the hopper driver, and looks for a runaway hopper
between payouts. Every call into the cabinet holds the cabinet lock. Also ``Simulators``:
starting the bus simulator process and the embedded panel simulator on real ptys when the
configuration says ``sim``. Never draws and never decides what is owed.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field

from hardware.cctalk.acceptor import CoinAcceptor, CoinCredit, CoinError, CreditTracker, EventsLost
from hardware.cctalk.codec import Checksum
from hardware.cctalk.hopper import Hopper
from hardware.cctalk.host import CctalkBus, CctalkError

from machine.core.cabinet import Cabinet
from machine.loop.payout import SeatLedger, run_payouts
from machine.operator.config import MachineConfig

POLL_INTERVAL = 0.15


@dataclass
class BusDevices:
    bus: CctalkBus
    acceptors: dict[int, CoinAcceptor]  # seat -> acceptor
    hoppers: list[tuple[Hopper, list[int]]]  # hopper, the seats it pays

    @classmethod
    def open(cls, cfg: MachineConfig, url: str, counters: dict[str, int] | None = None) -> BusDevices:
        """Open the bus and identify every configured device (a clear error names any missing).

        ``counters``: each acceptor's last event counter the journal credited; the driver
        resumes from it, so events that came in while the cabinet was down are credited now.
        """
        d = cfg.devices
        checksum = Checksum.CRC16 if d.bus_checksum == "crc16" else Checksum.SUM8
        bus = CctalkBus.open(url, link="ccTalk bus", checksum=checksum, echo=d.bus_echo)
        try:
            acceptors = {}
            for seat, addr in sorted(d.acceptors.items()):
                acc = CoinAcceptor(bus, addr, values=dict(cfg.coins))
                acc.start()
                saved = (counters or {}).get(str(addr))
                if saved is not None:
                    acc.tracker = CreditTracker(saved)
                acceptors[seat] = acc
            hoppers = []
            for h in d.hoppers:
                hopper = Hopper(bus, h.address, security=h.security)
                hopper.start()
                hoppers.append((hopper, list(h.seats)))
        except BaseException:
            bus.close()
            raise
        return cls(bus, acceptors, hoppers)

    def close(self) -> None:
        self.bus.close()


@dataclass
class BusWorker:
    cab: Cabinet
    lock: threading.Lock
    devices: BusDevices
    clock: object = time.monotonic
    faults: dict[str, str] = field(default_factory=dict)  # device -> what is wrong, for the screen
    credited: int = 0  # coins credited since start (for soak checks)
    error: BaseException | None = None  # what stopped the worker; the frame loop re-raises it
    requests: list[str] = field(default_factory=list)  # from the operator menu: "hopper_test"

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ccTalk bus", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.poll_once()
                self._stop.wait(POLL_INTERVAL)
        except BaseException as exc:  # a journal failure is fatal: the frame loop stops the machine
            self.error = exc

    def poll_once(self) -> None:
        """One pass: acceptors, then payouts, then the idle hoppers."""
        for seat, acc in self.devices.acceptors.items():
            name = f"coin acceptor {acc.address} (seat {seat})"
            try:
                with self.lock:
                    accept = self.cab.may_take_coins(seat) and not self.cab.is_paying()
                if accept != acc.accepting:
                    acc.set_accepting(accept)
                events = acc.poll()
            except CctalkError as exc:
                self._fault(name, str(exc))
                continue
            self._clear(name)
            self._report(seat, acc, events)
        while self.requests:
            if self.requests.pop(0) == "hopper_test" and self.devices.hoppers:
                self._hopper_test(self.devices.hoppers[0][0])
        for hopper, seats in self.devices.hoppers:
            name = f"hopper {hopper.address}"
            try:
                with self.lock:
                    owed = any(self.cab.is_paying(n) for n in seats)
                if owed:
                    for acc in self.devices.acceptors.values():
                        if acc.accepting:  # no coin may wait in an acceptor while we pay
                            acc.set_accepting(False)
                    run_payouts(self.cab, hopper, self.lock, seats)
                else:
                    hopper.check_idle(SeatLedger(self.cab, seats[0], self.lock))
            except CctalkError as exc:
                self._fault(name, str(exc))
                continue
            self._clear(name)

    def _hopper_test(self, hopper: Hopper) -> None:
        """One coin from the operator menu's hardware test, metered as a test coin."""
        worker = self

        class TestLedger:
            def begin_payout(self, requested: int) -> None: ...

            def payout_baseline(self, lifetime: int, counter: int) -> None: ...

            def coins_paid(self, count: int) -> None: ...

            def end_payout(self, paid: int, unpaid: int, fault) -> None:
                with worker.lock:
                    worker.cab.hopper_test_paid(paid, None if fault is None else str(fault))

            def stray_coins(self, count: int, fault) -> None:
                with worker.lock:
                    worker.cab.hopper_test_paid(count, str(fault))

        try:
            hopper.payout(1, TestLedger())
        except CctalkError as exc:
            self._fault(f"hopper {hopper.address}", str(exc))

    def _report(self, seat: int, acc: CoinAcceptor, events) -> None:
        """Hand one poll to the cabinet in one transaction, with the acceptor's event counter."""
        counter = acc.tracker.counter
        with self.lock:
            if counter is None or (not events and self.cab.acceptor_counter(acc.address) == counter):
                return
            coins = [ev.coin_id for ev in events if isinstance(ev, CoinCredit) and ev.coin_id is not None]
            errors = [(ev.code, ev.name, ev.fraud) for ev in events if isinstance(ev, CoinError)]
            lost = sum(ev.count for ev in events if isinstance(ev, EventsLost))
            self.cab.acceptor_report(seat, acc.address, counter, coins, errors, lost)
            self.credited += len(coins)

    def _fault(self, name: str, why: str) -> None:
        if self.faults.get(name) != why:
            self.faults[name] = why

    def _clear(self, name: str) -> None:
        self.faults.pop(name, None)
