"""``PanelHost``: the cabinet's driver for the button panel, over a serial transport.

Owns: moving bytes between a ``Transport`` (``hardware.transport``: a pty path,
``socket://``, a real port) and a ``HostConnection``; the queue of events the cabinet reads;
the lamps the cabinet wants and the lamps the panel has been told (only changes are sent, and
everything again whenever the link comes up); the last known key and door positions (only
changes become events); reopening a link that failed; the panel's non-volatile memory for the
journal's head (``store_head`` / ``read_head``: the only calls that block, up to about a
second), and pairing (``pair``: the panel keeps a new link key, the link goes on under it).
Non-blocking otherwise: the cabinet loop calls ``poll()`` every frame, or ``start()``
runs it in a thread. Given a ``key``, it speaks only authenticated frames and drops every frame
without a valid MAC (``stats["unauthenticated"]``). Never decides what a button means, and never
reads the clock or sleeps except through the injected ``clock`` (when ``now`` is omitted) and ``sleep``.
"""

from __future__ import annotations

import contextlib
import math
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping

from hardware.clock import Clock
from hardware.links import open_transport
from hardware.panel.connection import HostConnection, HostEvent, LinkDown, LinkUp
from hardware.panel.messages import (
    BUTTONS,
    KEYS,
    MAX_SEATS,
    Door,
    KeySwitch,
    LampState,
    NvRead,
    NvReply,
    NvStatus,
    NvStore,
    Pair,
    RequestState,
    SetLamp,
    SetSeatLamps,
    all_off,
    button_name,
    check_seat,
    lamp_state,
)
from hardware.transport import Transport, TransportError

BAUDRATE = 115200
READ_CHUNK = 4096
MAX_READ = 65536  # bytes taken per poll, so a flooding link cannot stall the cabinet loop
REOPEN_INTERVAL = 1.0  # seconds between attempts to reopen a failed link
NV_RETRY = 0.3  # seconds between sends of an unanswered NV request
NV_TRIES = 4  # sends before a panel whose link is up counts as not knowing the NV messages


class PanelNvError(RuntimeError):
    """The panel's non-volatile memory could not be used (``store_head`` / ``read_head``)."""


class NvNotSupported(PanelNvError):
    """The panel does not know the NV messages (its link is up, it never answers them)."""


class PanelOffline(PanelNvError):
    """The panel's link is down: nothing can be stored or read now."""


class PairingRefused(PanelNvError):
    """The panel refuses a new link key: its main door is closed or its operator key off."""


class PanelHost:
    """The button panel as the cabinet sees it: events out, lamps in."""

    def __init__(
        self,
        url: str | None = None,
        *,
        transport: Transport | None = None,
        clock: Clock = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        session: int | None = None,
        baudrate: int = BAUDRATE,
        reopen_interval: float = REOPEN_INTERVAL,
        key: bytes | None = None,
        **timing: float,
    ) -> None:
        """``key``: the link key paired at installation (32 bytes): every frame authenticated
        (docs/panel-protocol.md, "Authenticated frames"); None: plain frames, for a panel that
        was never paired (``cabinet panel pair`` talks to it so)."""
        if (url is None) == (transport is None):
            raise ValueError("give the panel link as a URL or as a transport, not both")
        self.url = url
        self.clock = clock
        self.sleep = sleep  # the NV exchange's pause between polls without the thread (a test's clock)
        self.baudrate = baudrate
        self.reopen_interval = reopen_interval
        self.conn = HostConnection(
            session if session is not None else secrets.randbelow(0xFFFFFFFF) + 1, key=key, **timing
        )
        self.keys: dict[str, bool | None] = {name: None for name in KEYS}
        self.door_open: bool | None = None
        self.panel: LinkUp | None = None
        self.transport_errors = 0
        self.nv_supported: bool | None = None  # unknown until an NV request is answered or not
        self._nv_request = 0
        self._nv_replies: dict[int, NvReply] = {}
        self._transport = transport
        self._events: deque[HostEvent] = deque()
        self._wanted = {seat: all_off() for seat in range(1, MAX_SEATS + 1)}
        self._told: dict[int, dict[str, LampState]] = {}
        self._lock = threading.RLock()
        self._replied = threading.Condition(self._lock)
        self._nv_lock = threading.Lock()  # one NV exchange at a time
        self._last_open = -math.inf
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        if url is not None:
            self._transport = open_transport(url, baudrate=baudrate)  # a bad URL fails here
            self._last_open = clock()

    # -- what the cabinet calls --------------------------------------------------------------

    @property
    def link_up(self) -> bool:
        return self.conn.link_up

    def get_event(self) -> HostEvent | None:
        """The oldest event not yet taken, or None: ButtonPressed, ButtonReleased, KeySwitch,
        Door, LinkUp, LinkDown."""
        try:
            return self._events.popleft()
        except IndexError:
            return None

    def events(self) -> list[HostEvent]:
        """Every event not yet taken, oldest first."""
        out = []
        while (event := self.get_event()) is not None:
            out.append(event)
        return out

    def set_lamp(
        self, seat: int, button: str, state: LampState | str | bool, now: float | None = None
    ) -> None:
        """Want one lamp off, on or blinking; sent only if that changes what the panel shows."""
        self.set_lamps(seat, {button: state}, now)

    def set_lamps(
        self, seat: int, states: Mapping[str, LampState | str | bool], now: float | None = None
    ) -> None:
        """Want several lamps of a seat; buttons not named keep their state. One change goes
        as a LAMP message, more as one SEAT_LAMPS message, none as nothing."""
        seat = check_seat(seat)
        wanted = {button_name(b): lamp_state(s) for b, s in states.items()}
        with self._lock:
            self._wanted[seat].update(wanted)
            if self.conn.link_up and seat in self._told:
                self._send_seat(seat, self._now(now), full=False)
                self._flush()

    def lamps(self, seat: int) -> dict[str, LampState]:
        """The lamps the cabinet wants for ``seat`` (what the panel shows when the link is up)."""
        return dict(self._wanted[check_seat(seat)])

    def request_state(self, now: float | None = None) -> None:
        """Ask the panel to report every key and door position again."""
        with self._lock:
            self.conn.send(RequestState(), self._now(now))
            self._flush()

    def store_head(self, blob: bytes, timeout: float = NV_RETRY * NV_TRIES) -> None:
        """Keep ``blob`` (at most 64 bytes) in the panel's non-volatile memory, replacing what
        was there; returns once the panel says it is written. ``NvNotSupported`` when the panel
        does not know the message, ``PanelOffline`` when its link is down, ``PanelNvError``
        when its memory could not be written."""
        reply = self._nv_exchange(lambda request: NvStore(request, bytes(blob)), timeout)
        if reply.status is not NvStatus.STORED:
            raise PanelNvError("the panel could not write its non-volatile memory")

    def read_head(self, timeout: float = NV_RETRY * NV_TRIES) -> bytes | None:
        """The blob kept in the panel's non-volatile memory, or None if none was ever stored.
        Raises as ``store_head`` does."""
        reply = self._nv_exchange(NvRead, timeout)
        if reply.status is NvStatus.FAILED:
            raise PanelNvError("the panel could not read its non-volatile memory")
        return reply.blob if reply.status is NvStatus.BLOB else None

    def pair(self, key: bytes, timeout: float = NV_RETRY * NV_TRIES) -> None:
        """Give the panel ``key`` as its link key; once it says it keeps it, the link restarts
        under it (a new session: ``link_up`` again once the panel speaks it). The panel takes it
        only with its main door open and its operator key on: ``PairingRefused`` otherwise;
        ``PanelNvError`` when it could not keep it; ``NvNotSupported`` for a panel that cannot
        be paired, or when no answer came (which is also how a lost answer looks: the panel may
        have the key, and the caller tries it)."""
        reply = self._nv_exchange(lambda request: Pair(request, bytes(key)), timeout)
        if reply.status is NvStatus.REFUSED:
            raise PairingRefused("the panel refuses to pair: its main door must be open and its operator key on")
        if reply.status is not NvStatus.STORED:
            raise PanelNvError("the panel could not keep the link key in its non-volatile memory")
        with self._lock:
            self.conn.rekey(bytes(key))
            self._take_events(self.clock())
            self._flush()

    @property
    def authenticated(self) -> bool:
        """Whether the link speaks authenticated frames (a key was given, or paired)."""
        return self.conn.authenticated

    @property
    def stats(self) -> dict[str, int]:
        """The link's counters (``corrupt_frames``, ``retransmissions``, ``duplicates``, ...)."""
        out = self.conn.stats
        out["transport_errors"] = self.transport_errors
        return out

    def poll(self, now: float | None = None) -> None:
        """Read what arrived, run the timers, write what is due. Never blocks."""
        with self._lock:
            now = self._now(now)
            if self._transport is None:
                self._reopen(now)
            taken = 0
            while self._transport is not None and taken < MAX_READ:
                try:
                    data = self._transport.read(READ_CHUNK, 0)
                except (TransportError, OSError):
                    self._lost_transport(now)
                    break
                if not data:
                    break
                taken += len(data)
                self.conn.receive_data(data, now)
            self.conn.tick(now)
            self._take_events(now)
            self._flush()

    def close(self) -> None:
        """Stop the thread (if any) and close the link."""
        self.stop()
        with self._lock:
            if self._transport is not None:
                self._transport.close()
                self._transport = None

    def __enter__(self) -> PanelHost:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- optional background thread ----------------------------------------------------------

    def start(self, interval: float = 0.005) -> None:
        """Poll every ``interval`` seconds in a daemon thread until ``stop()``."""
        if self._thread is not None:
            return
        self._stop.clear()

        def run() -> None:
            while not self._stop.wait(interval):
                self.poll()

        self._thread = threading.Thread(target=run, name="panel-host", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the background thread started by ``start()``."""
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None

    # -- inside ------------------------------------------------------------------------------

    def _nv_exchange(self, make: Callable[[int], NvStore | NvRead | Pair], timeout: float) -> NvReply:
        """Send an NV request every ``NV_RETRY`` s until its reply comes; blocks the caller.

        No reply within ``timeout`` while the link stayed up means the panel does not know
        the message (a panel that predates it drops it unanswered): remembered until the panel
        starts a new session, so later calls fail at once.
        """
        make(1)  # validates the blob before anything is sent
        with self._nv_lock:
            return self._nv_wait(make, timeout)

    def _nv_wait(self, make: Callable[[int], NvStore | NvRead | Pair], timeout: float) -> NvReply:
        with self._lock:
            if self.nv_supported is False:
                raise NvNotSupported("the panel has no non-volatile memory for the host")
            if not self.conn.link_up:
                raise PanelOffline("panel offline: its non-volatile memory cannot be used now")
            self._nv_request = self._nv_request % 255 + 1
            request = self._nv_request
            request_msg = make(request)
        deadline = self.clock() + timeout
        next_send = -math.inf
        while True:
            with self._lock:
                now = self.clock()
                reply = self._nv_replies.pop(request, None)
                if reply is not None:
                    self.nv_supported = True
                    return reply
                if not self.conn.link_up:
                    raise PanelOffline("panel offline: its non-volatile memory cannot be used now")
                if now >= deadline:
                    self.nv_supported = False
                    raise NvNotSupported("the panel does not answer NV_STORE / NV_READ")
                if now >= next_send:
                    self.conn.send_now(request_msg, now)
                    self._flush()
                    next_send = now + NV_RETRY
                if self._thread is not None:  # the poll thread reads the reply
                    self._replied.wait(min(0.02, max(0.0, deadline - now)))
                    continue
            self.poll()
            self.sleep(0.002)

    def _now(self, now: float | None) -> float:
        return self.clock() if now is None else now

    def _take_events(self, now: float) -> None:
        while (event := self.conn.next_event()) is not None:
            if isinstance(event, KeySwitch):
                if self.keys[event.name] == event.on:
                    continue
                self.keys[event.name] = event.on
            elif isinstance(event, Door):
                if self.door_open == event.open:
                    continue
                self.door_open = event.open
            elif isinstance(event, LinkUp):
                self.panel = event
                self._events.append(event)
                self._link_came_up(event, now)
                continue
            elif isinstance(event, NvReply):
                if event.request == self._nv_request:  # not a late answer to an older request
                    self._nv_replies[event.request] = event
                    self._replied.notify_all()
                continue
            elif isinstance(event, LinkDown):
                self._told.clear()
            self._events.append(event)  # type: ignore[arg-type]

    def _link_came_up(self, event: LinkUp, now: float) -> None:
        if event.new_session:
            self.nv_supported = None  # perhaps another panel: ask again
            self.keys = {name: None for name in KEYS}
            self.door_open = None  # the panel reports them on its own
        else:
            self.conn.send(RequestState(), now)
        self._told.clear()
        for seat in range(1, min(event.seats, MAX_SEATS) + 1):
            self._send_seat(seat, now, full=True)

    def _send_seat(self, seat: int, now: float, *, full: bool) -> None:
        wanted = self._wanted[seat]
        told = self._told.get(seat, {})
        changed = [b for b in BUTTONS if told.get(b) != wanted[b]]
        if full or len(changed) > 1:
            self.conn.send(SetSeatLamps(seat, tuple(wanted[b] for b in BUTTONS)), now)
        elif changed:
            self.conn.send(SetLamp(seat, changed[0], wanted[changed[0]]), now)
        self._told[seat] = dict(wanted)

    def _flush(self) -> None:
        data = self.conn.data_to_send()
        if data and self._transport is not None:
            try:
                self._transport.write(data)
            except (TransportError, OSError):
                self._lost_transport(self.clock())

    def _lost_transport(self, now: float) -> None:
        self.transport_errors += 1
        if self.url is None:
            return  # a transport handed to us is the caller's to replace
        if self._transport is not None:
            with contextlib.suppress(OSError):
                self._transport.close()
        self._transport = None
        self._last_open = now

    def _reopen(self, now: float) -> None:
        if self.url is None or now - self._last_open < self.reopen_interval:
            return
        self._last_open = now
        try:
            self._transport = open_transport(self.url, baudrate=self.baudrate)
        except TransportError:
            self.transport_errors += 1
