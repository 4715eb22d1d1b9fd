"""The button panel link as two state machines: the host's end and the panel's end.

Owns: sessions, sequence numbers, acknowledgements, retransmission, de-duplication,
heartbeats and the link state (up/down) of docs/panel-protocol.md, "Reliability" and
"Sessions". Pure, in the manner of h11: bytes go in with ``receive_data(data, now)``, events
come out of ``next_event()``; messages go in with ``send(message, now)``, bytes come out of
``data_to_send()``; ``tick(now)`` runs the timers. ``now`` is monotonic seconds supplied by
the caller. Never does I/O, never reads a clock, never sleeps, never decides what a press means.

Theory of operation
-------------------
Each direction is a go-back-N stream. Sequenced messages (button, key and door events one
way; lamp commands and state requests the other) are numbered 1..255, wrapping to 1; at most
``window`` are unacknowledged at a time. The receiver delivers only the sequence number it
expects next and answers every sequenced frame with ``Ack(last delivered)``; anything else is
a duplicate or arrived after a loss and is dropped (the ack tells the sender where it stands).
The sender resends every unacknowledged frame when the oldest has waited ``retransmit``
seconds. Heartbeats carry the same cumulative ack, so a lost ack costs one heartbeat.

A session ties the two streams together; the host owns it:

==========  ===============================  ==============================================
side        receives                         does
==========  ===============================  ==============================================
host        Hello(session = its own)         handshaking -> established, LinkUp(new)
host        Hello(other), handshaking        answers HostHello(session)
host        Hello(other), established        the panel restarted: LinkDown("restart"),
                                             session + 1, both streams restart at 1,
                                             handshaking
panel       HostHello(session = adopted)     answers Hello(session) (its Hello was lost)
panel       HostHello(other)                 the host is new: LinkDown("restart") if up,
                                             adopts it, both streams restart at 1,
                                             answers Hello(session), LinkUp(new)
==========  ===============================  ==============================================

While not established a side sends its hello every ``heartbeat`` seconds instead of
heartbeats, drops sequenced frames without acknowledging them, and keeps what it was asked to
send (renumbered from 1 when the session starts). When established, the link is up while a
valid frame arrived in the last ``link_timeout`` seconds: ``LinkDown("timeout")`` when that
lapses, ``LinkUp(new_session=False)`` when frames flow again; the streams carry on, so nothing
sent in between is lost or doubled. A serial line does not reorder bytes, which is what makes
a session switch safe: every frame of the old session is ahead of the hello of the new one.

The NV messages (NV_STORE, NV_READ, PAIR and their NV_REPLY) are not sequenced: a request goes
once with ``send_now`` and its reply is an event; resending a lost one is the host driver's
business. A panel made with ``nv=False`` does not know them and drops them as unknown
(``bad_message``), as every panel that predates them does.

An end made with ``key=`` (32 bytes, paired at installation) sends only authenticated frames
(version 2: a frame counter and a MAC, ``auth.py``) and takes nothing else: a frame without a
valid MAC is dropped and counted ``unauthenticated`` before anything of it is read, one that is
authentic but already taken or of an earlier session is dropped as ``stale``. The panel draws a
nonce (``nonces``) when it starts and for every session it adopts and sends it in its HELLO; the
session's frames are bound to the host's session and that nonce. On such a link hellos played
again start and end no session: the panel adopts another session only from a HOST_HELLO that
echoes its latest nonce (to any other it answers with its HELLO, which the host echoes), and the
host ends its session only on a HELLO of that session with another nonce (the panel restarted).
An end without a key speaks plain frames (version 1) and drops authenticated ones as
``unauthenticated``: it cannot check them. ``rekey`` (pairing) ends the session and starts a new
one under the new key.
"""

from __future__ import annotations

import math
import secrets
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from hardware.panel.auth import FORGED, HOST, OK, PANEL, STALE, Domain, LinkAuth
from hardware.panel.codec import AUTH_VERSION, DROP_REASONS, Frame, FrameDecoder, encode
from hardware.panel.messages import (
    HOST_COMMANDS,
    NV_REQUESTS,
    PANEL_EVENTS,
    PROTOCOL_VERSION,
    SEQUENCED,
    Ack,
    ButtonPressed,
    ButtonReleased,
    Door,
    Heartbeat,
    Hello,
    HostHello,
    KeySwitch,
    Message,
    MessageError,
    MsgType,
    NvRead,
    NvReply,
    NvStore,
    RequestState,
    SetLamp,
    SetSeatLamps,
    decode_message,
    encode_message,
)

HEARTBEAT_INTERVAL = 0.25  # seconds: send something at least this often
LINK_TIMEOUT = 0.8  # seconds of silence before the link is down (noticed within 1 s)
RETRANSMIT_TIMEOUT = 0.2  # seconds before unacknowledged frames are sent again
WINDOW = 8  # sequenced frames in flight
MAX_PENDING = 4096  # messages waiting to be sent; beyond that new ones are refused
COUNTERS = (
    "frames_out", "delivered", "duplicates", "out_of_order", "unsynchronised", "bad_message",
    "wrong_direction", "version_mismatch", "acked", "retransmissions", "refused",
    "unauthenticated", "stale",
)


def next_seq(seq: int) -> int:
    """The sequence number after ``seq`` (1..255, wrapping to 1; 0 is 'not sequenced')."""
    return seq % 255 + 1


def next_session(session: int) -> int:
    """The host session after ``session`` (1..2**32-1, never 0)."""
    return session % 0xFFFFFFFF + 1


@dataclass(frozen=True)
class LinkUp:
    """The link works. ``new_session``: the far end's state is unknown (it, or we, restarted)."""

    new_session: bool
    panel_id: int = 0
    seats: int = 0
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True)
class LinkDown:
    """The link stopped: ``"timeout"`` (nothing heard for ``link_timeout``) or ``"restart"``."""

    reason: str


HostEvent = ButtonPressed | ButtonReleased | KeySwitch | Door | LinkUp | LinkDown | NvReply
PanelEvent = SetLamp | SetSeatLamps | RequestState | LinkUp | LinkDown | NvStore | NvRead
Event = HostEvent | PanelEvent


class QueueFull(RuntimeError):
    """More than ``MAX_PENDING`` messages wait to be sent."""


@dataclass
class _Pending:
    message: Message
    seq: int = 0
    sent_at: float | None = None


class _Endpoint:
    """What both ends share; ``HostConnection`` and ``PanelConnection`` add the handshake."""

    _receives: tuple[type, ...] = ()
    _sends: tuple[type, ...] = ()
    _hello_in: type = object
    _plain_in: tuple[type, ...] = ()  # unsequenced messages delivered as events (NV)
    _plain_out: tuple[type, ...] = ()  # unsequenced messages sent by ``send_now``
    _plain_unknown: tuple[type, ...] = ()  # messages this end treats as unknown types
    _sender = HOST  # the direction byte of the frames this end sends

    def __init__(
        self,
        *,
        heartbeat: float = HEARTBEAT_INTERVAL,
        link_timeout: float = LINK_TIMEOUT,
        retransmit: float = RETRANSMIT_TIMEOUT,
        window: int = WINDOW,
        max_pending: int = MAX_PENDING,
        key: bytes | None = None,
    ) -> None:
        if not 0 < heartbeat < link_timeout or retransmit <= 0 or not 1 <= window <= 127:
            raise ValueError("need 0 < heartbeat < link_timeout, retransmit > 0, window 1..127")
        self.heartbeat = heartbeat
        self.link_timeout = link_timeout
        self.retransmit = retransmit
        self.window = window
        self.max_pending = max_pending
        self.decoder = FrameDecoder()
        self.counters: Counter[str] = Counter({name: 0 for name in COUNTERS})
        self.established = False
        self.link_up = False
        self._fresh = True
        self._events: deque[Event] = deque()
        self._out = bytearray()
        self._outbox: deque[_Pending] = deque()
        self._next_seq = 1
        self._expected = 1
        self._delivered = 0
        self._ack_due = False
        self._last_rx: float | None = None
        self._last_tx = -math.inf
        self.auth = None if key is None else LinkAuth(key, self._sender)

    @property
    def authenticated(self) -> bool:
        """Whether this end speaks authenticated frames (it was made with, or given, a key)."""
        return self.auth is not None

    # -- the public side ---------------------------------------------------------------------

    def send(self, message: Message, now: float) -> None:
        """Queue a sequenced message; it goes out (and again until acknowledged) when it can."""
        if not isinstance(message, self._sends):
            raise TypeError(f"{type(self).__name__} does not send {message!r}")
        if len(self._outbox) >= self.max_pending:
            self.counters["refused"] += 1
            raise QueueFull(f"{len(self._outbox)} messages already wait to be sent")
        self._outbox.append(_Pending(message))
        self._pump(now)

    def send_now(self, message: Message, now: float) -> bool:
        """Send an unsequenced request or reply (the NV messages) once, now, if the session is
        established; False if it is not (nothing sent). Lost frames are the caller's to resend.
        """
        if not isinstance(message, self._plain_out):
            raise TypeError(f"{type(self).__name__} does not send {message!r} unsequenced")
        if not self.established:
            return False
        self._emit(message, 0, now)
        return True

    def receive_data(self, data: bytes, now: float) -> None:
        """Bytes from the link, received at ``now``.

        The link timeout is checked by ``tick`` only: bytes that waited in a buffer while the
        caller was busy prove the peer alive, so a late caller does not see a false link loss.
        """
        for frame in self.decoder.feed(data):
            self._receive_frame(frame, now)
        self._pump(now)

    def tick(self, now: float) -> None:
        """Run the timers: link timeout, retransmission, heartbeat or hello."""
        self._check_link(now)
        self._pump(now)

    def data_to_send(self) -> bytes:
        """The bytes to write to the link now (and forget)."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def next_event(self) -> Event | None:
        """The oldest event not yet taken, or None."""
        return self._events.popleft() if self._events else None

    def events(self) -> list[Event]:
        """Every event not yet taken, oldest first."""
        out = list(self._events)
        self._events.clear()
        return out

    @property
    def pending(self) -> int:
        """Sequenced messages not yet acknowledged (sent or waiting)."""
        return len(self._outbox)

    @property
    def stats(self) -> dict[str, int]:
        """Counters: frames, corrupt frames by reason, retransmissions, duplicates, ..."""
        out = {
            "frames_in": self.decoder.frames,
            "corrupt_frames": self.decoder.corrupt,
            "pending": len(self._outbox),
        }
        out.update({f"corrupt_{reason}": self.decoder.dropped[reason] for reason in DROP_REASONS})
        out.update(self.counters)
        return out

    # -- receiving ---------------------------------------------------------------------------

    def _authentic(self, frame: Frame) -> bool:
        """Whether to read ``frame`` at all: on a keyed end only a frame with a valid MAC, in
        this session, not taken before; on a plain end only a plain frame."""
        if self.auth is None:
            if frame.version == AUTH_VERSION:
                self.counters["unauthenticated"] += 1
                return False
            return True
        if frame.version != AUTH_VERSION:
            self.counters["unauthenticated"] += 1
            return False
        verdict = self.auth.check(frame.covered, frame.counter, frame.mac, hello_domain(frame))
        if verdict != OK:
            name = {FORGED: "unauthenticated", STALE: "stale"}.get(verdict, "unsynchronised")
            self.counters[name] += 1
            return False
        return True

    def rekey(self, key: bytes | None) -> None:
        """Authenticate from now on under ``key`` (None: plain frames): the session ends."""
        self.auth = None if key is None else LinkAuth(key, self._sender)
        self._drop_link("restart")
        self.established = False
        self._new_session()

    def _receive_frame(self, frame: Frame, now: float) -> None:
        if not self._authentic(frame):
            return
        try:
            msg = decode_message(frame.type, frame.payload)
        except MessageError:
            self.counters["bad_message"] += 1
            return
        sequenced = isinstance(msg, SEQUENCED)
        if sequenced != (frame.seq != 0):
            self.counters["bad_message"] += 1
            return
        if isinstance(msg, self._plain_unknown):
            self.counters["bad_message"] += 1  # an end that predates the message
            return
        if not isinstance(msg, (*self._receives, *self._plain_in, self._hello_in, Ack, Heartbeat)):
            self.counters["wrong_direction"] += 1
            return
        self._last_rx = now
        if isinstance(msg, (Ack, Heartbeat)):
            if self.established:
                self._acked(msg.ack)
        elif isinstance(msg, self._plain_in):
            if self.established:
                self._events.append(msg)  # type: ignore[arg-type]
            else:
                self.counters["unsynchronised"] += 1
        elif sequenced:
            self._receive_sequenced(frame.seq, msg)
        else:
            self._receive_hello(msg, now)
        if self.established and not self.link_up:
            self.link_up = True
            self._events.append(self._link_up(self._fresh))
            self._fresh = False

    def _receive_sequenced(self, seq: int, msg: Message) -> None:
        if not self.established:
            self.counters["unsynchronised"] += 1
            return
        self._ack_due = True
        if seq == self._expected:
            self._events.append(msg)  # type: ignore[arg-type]
            self._delivered = seq
            self._expected = next_seq(seq)
            self.counters["delivered"] += 1
        elif 1 <= (self._expected - seq) % 255 <= 127:
            self.counters["duplicates"] += 1
        else:
            self.counters["out_of_order"] += 1

    def _acked(self, ack: int) -> None:
        in_flight = [p.seq for p in self._outbox if p.sent_at is not None]
        if ack not in in_flight:
            return
        for _ in range(in_flight.index(ack) + 1):
            self._outbox.popleft()
            self.counters["acked"] += 1

    def _receive_hello(self, msg: Message, now: float) -> None:
        raise NotImplementedError

    def _link_up(self, new_session: bool) -> LinkUp:
        return LinkUp(new_session)

    def _hello(self) -> Message:
        raise NotImplementedError

    # -- link state and sessions -------------------------------------------------------------

    def _check_link(self, now: float) -> None:
        if self.link_up and self._last_rx is not None and now - self._last_rx > self.link_timeout:
            self._drop_link("timeout")

    def _drop_link(self, reason: str) -> None:
        if self.link_up:
            self.link_up = False
            self._events.append(LinkDown(reason))

    def _new_session(self) -> None:
        self._next_seq = 1
        self._expected = 1
        self._delivered = 0
        self._ack_due = False
        self._fresh = True
        for pending in self._outbox:
            pending.seq, pending.sent_at = 0, None

    # -- sending -----------------------------------------------------------------------------

    def _emit(self, msg: Message, seq: int, now: float) -> None:
        kind, payload = encode_message(msg)
        if self.auth is None:
            frame = Frame(kind, seq, payload)
        else:
            plain = Frame(kind, seq, payload, version=AUTH_VERSION, mac=bytes(8))
            counter, mac = self.auth.seal(plain.covered, hello_domain(plain))
            frame = Frame(kind, seq, payload, AUTH_VERSION, counter, mac)
        self._out += encode(frame)
        self._last_tx = now
        self.counters["frames_out"] += 1

    def _pump(self, now: float) -> None:
        if not self.established:
            self._ack_due = False
            if now - self._last_tx >= self.heartbeat:
                self._emit(self._hello(), 0, now)
            return
        if self._ack_due:
            self._emit(Ack(self._delivered), 0, now)
            self._ack_due = False
        in_flight = 0
        for pending in self._outbox:
            if pending.sent_at is None:
                break
            in_flight += 1
        if in_flight:
            oldest = self._outbox[0].sent_at
            assert oldest is not None
            if now - oldest >= self.retransmit:
                for i in range(in_flight):
                    pending = self._outbox[i]
                    self._emit(pending.message, pending.seq, now)
                    pending.sent_at = now
                self.counters["retransmissions"] += in_flight
        while in_flight < min(self.window, len(self._outbox)):
            pending = self._outbox[in_flight]
            pending.seq = self._next_seq
            self._next_seq = next_seq(self._next_seq)
            pending.sent_at = now
            self._emit(pending.message, pending.seq, now)
            in_flight += 1
        if now - self._last_tx >= self.heartbeat:
            self._emit(Heartbeat(self._delivered), 0, now)


class HostConnection(_Endpoint):
    """The host's end: receives panel events, sends lamp commands; owns the session."""

    _receives = PANEL_EVENTS
    _sends = HOST_COMMANDS
    _hello_in = Hello
    _plain_in = (NvReply,)
    _plain_out = NV_REQUESTS

    def __init__(self, session: int = 1, *, key: bytes | None = None, **timing: float) -> None:
        super().__init__(key=key, **timing)  # type: ignore[arg-type]
        if not 1 <= session <= 0xFFFFFFFF:
            raise ValueError(f"a host session is 1..2**32-1, not {session}")
        self.session = session
        self.panel: Hello | None = None
        self._echo = 0  # the nonce of the last HELLO answered (authenticated links)
        self.counters["panel_restarts"] = 0

    def _hello(self) -> Message:
        return HostHello(self.session, echo=None if self.auth is None else self._echo)

    def _receive_hello(self, msg: Message, now: float) -> None:
        assert isinstance(msg, Hello)
        if msg.version != PROTOCOL_VERSION:
            self.counters["version_mismatch"] += 1
            return
        if self.auth is not None:
            self._receive_hello_authenticated(msg, now)
            return
        if self.established:
            if msg.session == self.session:
                return  # a copy of the hello that established this session
            self.counters["panel_restarts"] += 1
            self._restart()
        elif msg.session == self.session:
            self.established = True
            self.panel = msg
            return
        self._emit(self._hello(), 0, now)

    def _receive_hello_authenticated(self, msg: Hello, now: float) -> None:
        """On a paired link a HELLO of another session never ends this one: it may be a
        replay. The host answers it with HOST_HELLO echoing its nonce, which only a panel that
        drew that nonce just now takes; a panel that restarted then adopts this session with a
        nonce of its own, and that is the restart (a new session follows)."""
        assert self.auth is not None
        domain = _domain_of(msg)
        if self.established and msg.session == self.session:
            if self.auth.domain == domain:
                return  # a copy of the hello that established this session
            self.counters["panel_restarts"] += 1  # the panel adopted our session again: it restarted
            self._restart()
        elif msg.session == self.session:
            self.established = True
            self.panel = msg
            self.auth.enter(domain)
            return
        self._echo = domain.nonce
        self._emit(self._hello(), 0, now)

    def _restart(self) -> None:
        self._drop_link("restart")
        self.established = False
        self.session = next_session(self.session)
        self._new_session()
        if self.auth is not None:
            self.auth.enter(None)

    def rekey(self, key: bytes | None) -> None:
        """Authenticate under ``key`` from now on, in a new session (after pairing)."""
        super().rekey(key)
        self.session = next_session(self.session)

    def _link_up(self, new_session: bool) -> LinkUp:
        panel = self.panel
        assert panel is not None
        return LinkUp(new_session, panel.panel_id, panel.seats, panel.version)


class PanelConnection(_Endpoint):
    """The panel's end: sends button, key and door events, receives lamp commands."""

    _receives = HOST_COMMANDS
    _sends = PANEL_EVENTS
    _hello_in = HostHello
    _plain_in = NV_REQUESTS
    _plain_out = (NvReply,)

    _sender = PANEL

    def __init__(
        self, panel_id: int = 1, seats: int = 4, *, nv: bool = True, key: bytes | None = None,
        nonces: Callable[[], int] = lambda: secrets.randbits(32), **timing: float
    ) -> None:
        """``nonces``: where the panel draws each session's nonce (a real panel: its random
        number generator; tests: a fixed sequence)."""
        super().__init__(key=key, **timing)  # type: ignore[arg-type]
        Hello(panel_id, seats)  # validates
        self.nonces = nonces
        self.nonce = nonces() & 0xFFFFFFFF if key is not None else 0  # in every HELLO: the session's
        if not nv:  # a panel without non-volatile memory for the host: NV is unknown to it
            self._plain_unknown = (*NV_REQUESTS, NvReply)
        self.panel_id = panel_id
        self.seats = seats
        self.host_session = 0
        self.counters["host_restarts"] = 0

    def _hello(self) -> Message:
        nonce = None if self.auth is None else self.nonce
        return Hello(self.panel_id, self.seats, self.host_session, nonce=nonce)

    def _receive_hello(self, msg: Message, now: float) -> None:
        assert isinstance(msg, HostHello)
        if msg.version != PROTOCOL_VERSION:
            self.counters["version_mismatch"] += 1
            return
        fresh = self.auth is None or msg.echo == self.nonce  # it answers our latest HELLO
        if msg.session != self.host_session and fresh:
            if self.established:
                self.counters["host_restarts"] += 1
            self._drop_link("restart")
            self.host_session = msg.session
            self.established = True
            self._new_session()
            if self.auth is not None:  # a nonce of its own: no old frame fits the new session
                self.nonce = self.nonces() & 0xFFFFFFFF
                self.auth.enter(Domain(self.host_session, self.nonce))
        self._emit(self._hello(), 0, now)  # (another session, not fresh: our HELLO is the challenge)

    def rekey(self, key: bytes | None) -> None:
        """Authenticate under ``key`` from now on (paired): the session ends, a new host
        session starts it again."""
        super().rekey(key)
        self.host_session = 0
        self.nonce = self.nonces() & 0xFFFFFFFF if key is not None else 0

    def _link_up(self, new_session: bool) -> LinkUp:
        return LinkUp(new_session, self.panel_id, self.seats)


def _domain_of(hello: Hello) -> Domain:
    return Domain(hello.session, hello.nonce or 0)


def hello_domain(frame: Frame) -> Domain | None:
    """What a hello frame is bound to (the session and nonce its payload names; HOST_HELLO:
    the session and the nonce it echoes), read from its bytes before they are trusted; None for
    every other frame."""
    p = frame.payload
    if frame.type == MsgType.HELLO and len(p) in (8, 12):
        return Domain(int.from_bytes(p[4:8], "big"), int.from_bytes(p[8:12], "big") if len(p) == 12 else 0)
    if frame.type == MsgType.HOST_HELLO and len(p) in (5, 9):
        return Domain(int.from_bytes(p[1:5], "big"), int.from_bytes(p[5:9], "big") if len(p) == 9 else 0)
    return None
