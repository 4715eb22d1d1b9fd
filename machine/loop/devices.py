"""The device side of the cabinet: the ccTalk bus, its devices, and the worker that drives them.

Owns: ``BusDevices`` (the bus opened on the configured link and every configured acceptor and
hopper identified; reopened and identified again after the link was lost) and ``BusWorker``,
the thread that talks to them (blocking serial request/response, so never in the frame loop):
it polls every acceptor every 150 ms and credits what it reports (a counter fault credits
nothing), keeps each acceptor's inhibits following ``Cabinet.may_take_coins``, carries out the
payouts the cabinet owes through the hopper driver, and looks for a runaway hopper between
payouts; as soon as the bus opens (``check_at_start``, before any payout resumes or a coin is
accepted), after every payout or hopper test and when a lost link comes back, it hands the
devices' counters to the cabinet, which compares them with the journal's. A lost link pauses
play (``step``) until the devices answer again. Every call into the cabinet holds the cabinet
lock. Never draws, never starts a simulator (``machine/devtools/harness.py`` does, for links
set to ``sim``) and never decides what is owed.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from hardware.cctalk.acceptor import CoinAcceptor, CoinCredit, CoinError, CounterFault, CreditTracker
from hardware.cctalk.codec import Checksum
from hardware.cctalk.headers import BUFFER_EVENTS, new_event_count
from hardware.cctalk.hopper import Hopper
from hardware.cctalk.host import CctalkBus, CctalkError
from hardware.cctalk.validator import BillValidator
from hardware.links import open_transport
from hardware.transport import Transport, TransportError

from machine.core.cabinet import Cabinet
from machine.loop import notes
from machine.loop.payout import HopperTestLedger, SeatLedger, check_counter, pending_test, run_payouts
from machine.operator.config import MachineConfig

POLL_INTERVAL = 0.15
BUS = "ccTalk bus"  # the link's name: in its errors, the banner, and the pause it causes ("bus")
BUS_PAUSE = "bus"
REOPEN_FIRST, REOPEN_MAX = 0.5, 8.0  # seconds between attempts to reopen a lost bus: doubling, at most


@dataclass
class BusDevices:
    bus: CctalkBus
    acceptors: dict[int, CoinAcceptor]  # seat -> acceptor
    hoppers: list[tuple[Hopper, list[int]]]  # hopper, the seats it pays
    # seat -> (the event counter the journal last credited, the acceptor's counter at start-up)
    acceptor_start: dict[int, tuple[int, int]] = field(default_factory=dict)
    reopen: Callable[[], Transport] | None = None  # a new transport on the same link (None: cannot)
    validators: dict[int, BillValidator] = field(default_factory=dict)  # seat -> bill validator (loop/notes.py)

    def reconnect(self) -> None:
        """After the link was lost: a new transport, and every device identified again.

        Each acceptor goes on from the event counter it last reported (events while the link
        was down are credited by the next poll, or are a counter fault), each hopper's serial
        number and count are read again (a pending payout's reconcile checks them). Raises
        ``TransportError`` or ``CctalkError`` while the link or a device does not answer.
        """
        if self.reopen is None:
            raise TransportError(f"{BUS}: cannot be reopened")
        with contextlib.suppress(OSError):
            self.bus.transport.close()
        self.bus.transport = self.reopen()
        for acc in self.acceptors.values():
            counter = acc.tracker.counter
            acc.start()
            if counter is not None:
                acc.tracker = CreditTracker(counter)
        for hopper, _seats in self.hoppers:
            hopper.start()
        for val in self.validators.values():
            notes.restart(val)

    @classmethod
    def open(cls, cfg: MachineConfig, url: str, counters: dict[str, int] | None = None,
             note_counters: dict[str, int] | None = None) -> BusDevices:
        """Open the bus and identify every configured device (a clear error names any missing).

        ``counters``: each acceptor's last event counter the journal credited; the driver
        resumes from it, so events that came in while the cabinet was down are credited now.
        """
        d = cfg.devices
        checksum = Checksum.CRC16 if d.bus_checksum == "crc16" else Checksum.SUM8
        bus = CctalkBus.open(url, link="ccTalk bus", checksum=checksum, echo=d.bus_echo)
        try:
            acceptors, start = {}, {}
            for seat, addr in sorted(d.acceptors.items()):
                acc = CoinAcceptor(bus, addr, values=dict(cfg.coins))
                acc.start()
                saved = (counters or {}).get(str(addr))
                if saved is not None:
                    if acc.tracker.counter is not None:
                        start[seat] = (saved, acc.tracker.counter)
                    acc.tracker = CreditTracker(saved)
                acceptors[seat] = acc
            hoppers = []
            for h in d.hoppers:
                hopper = Hopper(bus, h.address, security=h.security)
                hopper.start()
                hoppers.append((hopper, list(h.seats)))
            validators = notes.open_validators(cfg, bus, note_counters or {})
        except BaseException:
            bus.close()
            raise
        return cls(bus, acceptors, hoppers, start, lambda: open_transport(url), validators)

    def close(self) -> None:
        self.bus.close()


@dataclass
class BusWorker:
    cab: Cabinet
    lock: threading.Lock
    devices: BusDevices
    clock: Callable[[], float] = time.monotonic  # the cabinet's clock: a lost link's pause and resume
    faults: dict[str, str] = field(default_factory=dict)  # device -> what is wrong, for the screen
    credited: int = 0  # coins credited since start (for soak checks)
    notes_credited: int = 0  # banknotes credited since start
    error: BaseException | None = None  # what stopped the worker; the frame loop re-raises it
    requests: list[str] = field(default_factory=list)  # from the operator menu: "hopper_test"
    link_lost: str | None = None  # why the bus link is down (None: up)
    passes: int = 0  # passes over every device completed since start

    def __post_init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reopen_in = REOPEN_FIRST
        self._money_in_read = -math.inf  # time.monotonic() of the last pass over the acceptors and validators

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ccTalk bus", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)

    def check_at_start(self) -> None:
        """Before anything else uses the bus: the devices' counters against the journal's.

        Each hopper: a hopper test a cut interrupted is reconciled, then its lifetime count is
        compared (coins out while the cabinet was down are metered and tilt its seats; a cut
        payout chunk is left to its reconcile). Each acceptor whose event counter moved while
        the cabinet was down: logged; a move its five-event buffer can show is credited by the
        first poll; one it cannot (more than five, or back: an old reply played again) credits
        nothing and tilts the seat, both counters in the event.
        """
        for hopper, seats in self.devices.hoppers:
            check_counter(self.cab, hopper, seats, self.lock, "at start-up")
        with self.lock:  # a bus lost before a cut answers again now
            self.cab.resume(BUS_PAUSE, self.clock())
        for seat, (last, now) in self.devices.acceptor_start.items():
            if now == last or now == 0:  # unmoved, or the acceptor itself restarted (counter 0)
                continue
            events = new_event_count(last, now)
            lost = events if events > BUFFER_EVENTS else 0
            acc = self.devices.acceptors[seat]
            with self.lock:
                self.cab.acceptor_moved_while_down(seat, acc.address, last, now, events, lost)
            if lost:  # reported here, and nothing of it is credited: the first poll starts from now
                acc.tracker = CreditTracker(now)

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self._stop.wait(self.step())
        except BaseException as exc:  # a journal failure is fatal: the frame loop stops the machine
            self.error = exc

    def step(self) -> float:
        """One pass: every device polled, or, while the link is lost, one attempt to reopen it.
        Returns the seconds until the next pass.

        A link that closes or errors (``TransportError``: an adapter unplugged, the simulator
        gone) is a device fault, never the end of the cabinet: play pauses with the banner, the
        link is reopened with a back-off, and play resumes once every device answers again. A
        payout cut by it stays pending in the journal and is reconciled from the hopper's count.
        """
        if self.link_lost is None:
            try:
                self.poll_once()
                self.passes += 1
                return POLL_INTERVAL
            except TransportError as exc:
                self._lose_link(str(exc))
                return self._reopen_in
        try:
            self.devices.reconnect()
        except (TransportError, CctalkError) as exc:
            self._fault(BUS, f"link lost: {exc}")
            self._reopen_in = min(REOPEN_MAX, self._reopen_in * 2)
            return self._reopen_in
        self.link_lost, self._reopen_in = None, REOPEN_FIRST
        self._clear(BUS)
        for hopper, seats in self.devices.hoppers:  # coins out while the link was down: nobody's
            check_counter(self.cab, hopper, seats, self.lock, "after the bus came back")
        with self.lock:
            self.cab.resume(BUS_PAUSE, self.clock())
        return 0.0

    def _lose_link(self, why: str) -> None:
        self.link_lost = why
        self._fault(BUS, f"link lost: {why}")
        with self.lock:
            self.cab.pause(BUS_PAUSE, self.clock())

    def poll_once(self) -> None:
        """One pass: acceptors, then payouts, then the idle hoppers."""
        self.poll_money_in()
        while self.requests:
            if self.requests.pop(0) == "hopper_test" and self.devices.hoppers:
                self._hopper_test(*self.devices.hoppers[0])
        for hopper, seats in self.devices.hoppers:
            name = f"hopper {hopper.address}"
            try:
                with self.lock:
                    owed = any(self.cab.is_paying(n) for n in seats)
                if owed:
                    devs: list[CoinAcceptor | BillValidator] = [*self.devices.acceptors.values(),
                                                                *self.devices.validators.values()]
                    for dev in devs:
                        if dev.accepting:  # no coin or note may wait in a device while we pay
                            dev.set_accepting(False)
                    hopper.between_polls = self._money_in_while_paying
                    try:
                        run_payouts(self.cab, hopper, self.lock, seats)
                    finally:
                        hopper.between_polls = None
                    check_counter(self.cab, hopper, seats, self.lock)
                else:
                    hopper.check_idle(SeatLedger(self.cab, seats[0], self.lock, hopper.address))
            except CctalkError as exc:
                self._fault(name, str(exc))
                continue
            self._clear(name)

    def poll_money_in(self) -> None:
        """Every coin acceptor and bill validator read once: its inhibits set to follow the
        cabinet (nothing taken while a seat may not take it, or while a hopper pays), its new
        events handed to the cabinet."""
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
        for seat, val in self.devices.validators.items():
            name = f"bill validator {val.address} (seat {seat})"
            try:
                self.notes_credited += notes.poll_validator(self.cab, self.lock, seat, val)
            except CctalkError as exc:
                self._fault(name, str(exc))
                continue
            self._clear(name)
        self._money_in_read = time.monotonic()

    def _money_in_while_paying(self) -> None:
        """The acceptors and validators read between two of a payout's polls, at most once a
        POLL_INTERVAL: a player may push coins or notes into an inhibited device while the hopper
        pays (each one rejected is an event), and more than its buffer of five unread would be a
        counter fault that tilts the seat."""
        if time.monotonic() - self._money_in_read >= POLL_INTERVAL:
            self.poll_money_in()

    def _hopper_test(self, hopper: Hopper, seats: list[int]) -> None:
        """One coin from the operator menu's hardware test: its intent journaled before the
        hopper is sent anything, its coin metered as a test coin (reconciled after a cut)."""
        ledger = HopperTestLedger(self.cab, hopper.address, seats, self.lock)
        try:
            with self.lock:
                pending = pending_test(self.cab, hopper.address)
            if pending is not None:  # the last test lost the hopper part way: close it first
                hopper.reconcile(pending, ledger)
            hopper.payout(1, ledger)
            check_counter(self.cab, hopper, seats, self.lock, "after the hopper test")
        except CctalkError as exc:
            self._fault(f"hopper {hopper.address}", str(exc))

    def _report(self, seat: int, acc: CoinAcceptor, events) -> None:
        """Hand one poll to the cabinet in one transaction, with the acceptor's event counter.
        A counter fault credits nothing: the cabinet tilts the seat with both counters."""
        counter = acc.tracker.counter
        with self.lock:
            if counter is None or (not events and self.cab.acceptor_counter(acc.address) == counter):
                return
            for ev in events:
                if isinstance(ev, CounterFault):
                    self.cab.acceptor_counter_fault(seat, acc.address, ev.last, ev.now, ev.events)
                    return
            coins = [ev.coin_id for ev in events if isinstance(ev, CoinCredit) and ev.coin_id is not None]
            errors = [(ev.code, ev.name, ev.fraud) for ev in events if isinstance(ev, CoinError)]
            self.cab.acceptor_report(seat, acc.address, counter, coins, errors, 0)
            self.credited += len(coins)

    def _fault(self, name: str, why: str) -> None:
        if self.faults.get(name) != why:
            self.faults[name] = why

    def _clear(self, name: str) -> None:
        self.faults.pop(name, None)

