"""The coin acceptor driver: inhibits, and credits polled from the 229 event buffer.

Owns: start-up of an acceptor (identification, reading the coin id of each position),
per-position and master inhibits, and turning successive 229 readings into events that are
each reported exactly once: credits (wrap 255 -> 1), errors with their Table 2 name and whether
the specification calls them possible fraud, counter faults, and device resets (counter back to
0: inhibits re-applied). Never knows what a coin is worth to the game beyond the id -> points
map it is given, never touches a meter.

Exactly once
------------
``CreditTracker`` (pure) keeps the last event counter: new events are the counter's difference
(modulo 255, 0 meaning reset), read from the newest end of the buffer. A reading that shows
anything new is confirmed by a second identical reading before it is believed, so a damaged
reply that happens to pass the checksum cannot invent a coin.

A counter that goes back (13 after 7 is not 250 new events but an old reply played again, or a
device that lost its count), or that moved by more than the five events the buffer holds, can
show no event the host can trust: it credits nothing and is a ``CounterFault`` naming both
counters (the cabinet tilts the seat; the attendant sees them). The new counter is the
baseline from then on, so the fault is reported once and no later reading credits its events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from hardware.cctalk.headers import (
    BUFFER_EVENTS,
    CATEGORY_COIN_ACCEPTOR,
    FRAUD_CODES,
    BufferedCredit,
    CoinEvent,
    Header,
    coin_error_name,
    decode_coin_id,
    encode_inhibits,
    encode_master_inhibit,
    new_event_count,
)
from hardware.cctalk.host import CctalkBus, DeviceInfo

POSITIONS = range(1, 17)


@dataclass(frozen=True)
class CoinCredit:
    """A coin was accepted. ``value`` is its points, None if the configuration has no price."""

    address: int
    position: int
    coin_id: str | None
    value: int | None
    sorter: int


@dataclass(frozen=True)
class CoinError:
    """An error event (result A = 0): Table 2 code and name; ``fraud`` should tilt the seat."""

    address: int
    code: int
    name: str
    fraud: bool


@dataclass(frozen=True)
class CounterFault:
    """The event counter went from ``last`` to ``now``: back, or by more than the buffer's five
    events (``events``: what the move would mean, modulo 255). Nothing of it is credited."""

    address: int
    last: int
    now: int
    events: int


@dataclass(frozen=True)
class AcceptorReset:
    """The event counter went back to 0: the device reset and its inhibits were re-applied."""

    address: int


AcceptorEvent = CoinCredit | CoinError | CounterFault | AcceptorReset


@dataclass(frozen=True)
class TrackerUpdate:
    events: tuple[CoinEvent, ...]  # new events, oldest first
    reset: bool
    fault: tuple[int, int, int] | None = None  # (last, now, events): a move no buffer can show


class CreditTracker:
    """Successive 229 readings in, each new event out once. Pure."""

    def __init__(self, counter: int | None = None) -> None:
        self.counter = counter  # None until the first reading, which is the baseline

    def is_news(self, reading: BufferedCredit) -> bool:
        return self.counter is not None and reading.counter != self.counter

    def update(self, reading: BufferedCredit) -> TrackerUpdate:
        last, self.counter = self.counter, reading.counter
        if last is None or reading.counter == last:
            return TrackerUpdate((), False)
        if reading.counter == 0:
            return TrackerUpdate((), True)
        n = new_event_count(last, reading.counter)
        if n > BUFFER_EVENTS:  # back, or more than the buffer holds: no event of it is known
            return TrackerUpdate((), False, (last, reading.counter, n))
        events = tuple(ev for ev in reversed(reading.events[:n]) if not ev.is_null)
        return TrackerUpdate(events, False)


def confirmed_reading(read: Callable[[], BufferedCredit], tracker: CreditTracker, tries: int) -> BufferedCredit | None:
    """A buffered-events reading to act on: read once; when it holds news, read again until two
    readings agree (at most ``tries`` more), so a reply corrupted on the wire is never taken for
    events. None when they never agreed (nothing is acted on; the next poll reads anew)."""
    reading = read()
    if not tracker.is_news(reading):
        return reading
    for _ in range(tries):
        again = read()
        if again == reading:
            return reading
        reading = again
    return None


class CoinAcceptor:
    """One coin acceptor on a ccTalk bus."""

    def __init__(
        self,
        bus: CctalkBus,
        address: int = 2,
        *,
        values: Mapping[str, int] | None = None,
        confirm_reads: int = 3,
    ) -> None:
        self.bus = bus
        self.address = address
        self.values = dict(values) if values is not None else None
        self.confirm_reads = confirm_reads
        self.coin_ids: dict[int, str] = {}
        self.tracker = CreditTracker()
        self.accepting = False
        self.unconfirmed = 0  # polls whose news did not repeat (damaged replies, fast coins)
        self.info: DeviceInfo | None = None

    def start(self) -> DeviceInfo:
        """Identify the device, read its coin ids, take the event counter as baseline, inhibit."""
        self.info = self.bus.identify(self.address, CATEGORY_COIN_ACCEPTOR)
        self.coin_ids = {}
        for pos in POSITIONS:
            coin = decode_coin_id(self.bus.data(self.address, Header.COIN_ID, bytes((pos,))))
            if coin is not None:
                self.coin_ids[pos] = coin
        self.tracker = CreditTracker()
        self.tracker.update(self._read())
        self._apply_inhibits()
        return self.info

    @property
    def enabled_positions(self) -> frozenset[int]:
        """Positions whose coin the configuration prices (every known coin without a map)."""
        return frozenset(
            pos for pos, cid in self.coin_ids.items() if self.values is None or cid in self.values
        )

    def set_accepting(self, accepting: bool) -> None:
        """Accept coins (priced ones) or none: per-position mask and master inhibit."""
        self.accepting = accepting
        self._apply_inhibits()

    def _apply_inhibits(self) -> None:
        mask = encode_inhibits(self.enabled_positions)
        self.bus.command(self.address, Header.MODIFY_INHIBIT, mask)
        self.bus.command(
            self.address, Header.MODIFY_MASTER_INHIBIT, encode_master_inhibit(self.accepting)
        )

    def _read(self) -> BufferedCredit:
        return BufferedCredit.decode(self.bus.data(self.address, Header.READ_BUFFERED_CREDIT))

    def poll(self) -> tuple[AcceptorEvent, ...]:
        """Read 229 once (twice when there is news) and report what is new, oldest first."""
        reading = confirmed_reading(self._read, self.tracker, self.confirm_reads)
        if reading is None:
            self.unconfirmed += 1
            return ()
        update = self.tracker.update(reading)
        out: list[AcceptorEvent] = []
        if update.reset:
            out.append(AcceptorReset(self.address))
            self._apply_inhibits()
        if update.fault is not None:
            out.append(CounterFault(self.address, *update.fault))
        out.extend(self._event(ev) for ev in update.events)
        if self.accepting and any(ev == CoinEvent(0, 2) for ev in update.events):
            # "Inhibited coin" while accepting: the device may have reset before its first
            # event (counter still 0, part 2 section 3.27.1). Re-apply the inhibits.
            self._apply_inhibits()
        return tuple(out)

    def _event(self, ev: CoinEvent) -> AcceptorEvent:
        if ev.is_credit:
            coin = self.coin_ids.get(ev.position)
            value = None if coin is None or self.values is None else self.values.get(coin)
            return CoinCredit(self.address, ev.position, coin, value, ev.sorter)
        code = ev.error_code
        return CoinError(self.address, code, coin_error_name(code), code in FRAUD_CODES)
