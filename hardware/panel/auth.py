"""The panel link's authentication: a MAC on every frame under the key paired at installation.

Owns: what docs/panel-protocol.md, "Authenticated frames", says about the MAC: the key (32
bytes), the bytes it covers, the direction and session they are bound to, and the frame counter
that refuses a replay; ``LinkAuth``, one end's state (the session's domain, the counter it sends
and the last it accepted, the domain before, so that frames still in flight across a session
change are told from forgeries). Pure: no I/O, no clock; the standard library's HMAC-SHA256.
Never decides what a frame means: ``connection.py`` asks ``seal`` and ``check`` and acts.

Theory
------
An authenticated frame (version 2) carries, after its payload, ``CTR`` (4 bytes, big-endian)
and ``MAC`` (8 bytes): the first 8 bytes of HMAC-SHA256(key, DIR SESSION NONCE CTR LEN VER TYPE
SEQ PAYLOAD), where DIR is ``H`` for a frame the host sends and ``P`` for one the panel sends,
SESSION the host's session (4 bytes) and NONCE the number the panel drew when it adopted it (4
bytes): a frame cannot be reflected back, nor carried into another session. CTR counts the
frames an end sent in the session (1, 2, ...); a receiver takes a frame only if its CTR is above
the last it took, so a frame replayed in its own session is refused too — also after the 8-bit
sequence number has wrapped. The hellos, which start sessions, are bound to the session and
nonce their own payload names (HOST_HELLO: the session and the panel nonce it echoes) and are
not counter-checked: that a replayed hello starts and ends no session is the handshake's rule
(``connection.py``: the panel adopts only a HOST_HELLO echoing its latest nonce).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

KEY_BYTES = 32
MAC_BYTES = 8  # 64 bits: a forger's chance is 2**-64 a frame
COUNTER_BYTES = 4
TRAILER = COUNTER_BYTES + MAC_BYTES
HOST, PANEL = b"H", b"P"  # the direction: who sent the frame
OK, STALE, FORGED, UNSYNCED = "ok", "stale", "forged", "unsynchronised"


def check_key(key: bytes) -> bytes:
    """``key`` if it is a link key (32 bytes); ``ValueError`` otherwise."""
    if not isinstance(key, (bytes, bytearray)) or len(key) != KEY_BYTES:
        raise ValueError(f"a panel link key is {KEY_BYTES} bytes")
    return bytes(key)


def frame_mac(key: bytes, sender: bytes, session: int, nonce: int, counter: int, covered: bytes) -> bytes:
    """The MAC of one frame: ``covered`` is ``LEN VER TYPE SEQ PAYLOAD``."""
    domain = sender + session.to_bytes(4, "big") + nonce.to_bytes(4, "big") + counter.to_bytes(4, "big")
    return hmac.new(key, domain + covered, hashlib.sha256).digest()[:MAC_BYTES]


@dataclass(frozen=True)
class Domain:
    """What a session's frames are bound to: the host's session and the panel's nonce."""

    session: int
    nonce: int


class LinkAuth:
    """One end's authentication state. ``sender`` is ``HOST`` or ``PANEL`` (this end)."""

    def __init__(self, key: bytes, sender: bytes) -> None:
        self.key = check_key(key)
        self.sender = sender
        self.peer = PANEL if sender == HOST else HOST
        self.domain: Domain | None = None  # the session's, once both ends know it
        self.previous: Domain | None = None
        self._sent = 0
        self._taken = 0

    def enter(self, domain: Domain | None) -> None:
        """A new session (or none yet): counters start again; the old domain is remembered."""
        if domain != self.domain:
            if self.domain is not None:
                self.previous = self.domain
            self.domain = domain
            self._sent = self._taken = 0

    def seal(self, covered: bytes, hello: Domain | None = None) -> tuple[int, bytes]:
        """The counter and MAC for a frame this end sends (a hello: bound to ``hello``)."""
        domain = hello or self.domain or Domain(0, 0)
        self._sent = self._sent % 0xFFFFFFFF + 1
        return self._sent, frame_mac(self.key, self.sender, domain.session, domain.nonce, self._sent, covered)

    def check(self, covered: bytes, counter: int, mac: bytes, hello: Domain | None = None) -> str:
        """``OK`` (take it), ``STALE`` (authentic, but of an earlier session or already
        taken: a replay, or a frame still in flight across a session change), ``UNSYNCED``
        (this end is in no session yet, so nothing but a hello can be checked: dropped as every
        frame is before a session starts) or ``FORGED``."""
        def valid(domain: Domain) -> bool:
            want = frame_mac(self.key, self.peer, domain.session, domain.nonce, counter, covered)
            return hmac.compare_digest(want, mac)

        if hello is not None:
            return OK if valid(hello) else FORGED
        if self.domain is not None and valid(self.domain):
            if counter <= self._taken:
                return STALE
            self._taken = counter
            return OK
        if self.previous is not None and valid(self.previous):
            return STALE
        return FORGED if self.domain is not None else UNSYNCED
