"""The ccTalk host: one request and its reply, without I/O and then over a transport.

Owns: ``HostProtocol``, the sans-I/O exchange (a request's bytes out, received bytes in, the
reply out; echo removal; which packets count as the reply), and ``CctalkBus``, the blocking
master of one link on top of a ``Transport``: reply timeouts, up to ``retries`` resends, BUSY,
stale late replies, identification of devices at start-up, errors that name the link and the
address. Knows no device semantics beyond identification (``acceptor.py`` and ``hopper.py``),
and never reads the clock except through the one it is given.

Which packets are the reply
---------------------------
Only one request is outstanding on a link. A packet is its reply if it is addressed to the host
(1), comes from the addressed device (with the 8-bit checksum: CRC-16 packets carry no source),
has header 0 (data), 5 (NAK) or 6 (BUSY), and for header 0 a data length Table 8 allows for the
request's header. Anything else on the line (the host's own echo, a late reply to an earlier
request of another kind) is ignored. A packet for the host with a bad checksum ends the
attempt at once (``Corrupt``) so the resend does not wait for the timeout. A good packet from
the device whose data length Table 8 does not allow is not the reply either, but it is
remembered: if no proper reply comes, the error says "reply of N bytes, expected M"
(``WrongLength``), not "no reply".
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Self, TypedDict, Unpack

from hardware.cctalk.codec import (
    HOST_ADDRESS,
    INTER_BYTE_GAP,
    MAX_DATA,
    Checksum,
    Discarded,
    Frame,
    FrameError,
    FrameParser,
    decode,
    encode,
)
from hardware.cctalk.headers import REPLY_LENGTHS, Header, decode_ascii, decode_uint
from hardware.clock import Clock
from hardware.links import open_transport
from hardware.transport import Transport


class CctalkError(Exception):
    """A ccTalk failure, always naming the link and the device address."""

    def __init__(self, link: str, address: int, message: str) -> None:
        super().__init__(f"{link}: address {address}: {message}")
        self.link = link
        self.address = address
        self.message = message


class NoReply(CctalkError):
    """The device did not answer (after every resend)."""


class WrongLength(NoReply):
    """The device answered, but always with a reply of a length the request does not allow.

    A ``NoReply`` still (no usable reply came: a caller resends or reconciles the same way),
    whose message says what the device did send.
    """


class Refused(CctalkError):
    """The device answered NAK, or a reply that makes no sense for the request."""


class IdentificationError(CctalkError):
    """At start-up: nothing answers at a configured address, or the wrong kind of device."""


@dataclass(frozen=True)
class Reply:
    """A device's reply: header 0 (data or ACK), 5 (NAK) or 6 (BUSY)."""

    source: int
    header: int
    data: bytes = b""

    @property
    def is_ack(self) -> bool:
        return self.header == Header.REPLY and not self.data

    @property
    def is_nak(self) -> bool:
        return self.header == Header.NAK

    @property
    def is_busy(self) -> bool:
        return self.header == Header.BUSY


@dataclass(frozen=True)
class Corrupt:
    """A packet for the host arrived damaged (bad checksum)."""

    raw: bytes


class HostProtocol:
    """Sans-I/O: ``send_request`` gives the bytes to write, ``receive_data`` finds the reply."""

    def __init__(
        self,
        *,
        checksum: Checksum = Checksum.SUM8,
        echo: bool = False,
        address: int = HOST_ADDRESS,
        gap: float = INTER_BYTE_GAP,
    ) -> None:
        self.checksum = checksum
        self.echo = echo
        self.address = address
        self._parser = FrameParser(checksum, gap=gap)
        self._dest: int | None = None
        self._header: int | None = None
        self._since_request = bytearray()  # bytes after the request, to find over-long replies
        self._skipped_long = False  # the parser skipped a packet announcing too much data
        self.wrong_length: int | None = None  # data bytes of a well-formed reply of a bad length

    def send_request(self, dest: int, header: int, data: bytes = b"") -> bytes:
        """Start an exchange: the bytes to put on the wire. Forgets any earlier exchange."""
        frame = Frame(dest=dest, header=header, data=bytes(data), src=self.address)
        raw = encode(frame, self.checksum)
        self._parser.reset()
        # Only a reply this long can be ours: garbage announcing more is skipped at once.
        self._parser.max_data = REPLY_LENGTHS.get(header, (0, MAX_DATA))[1]
        if self.echo:
            self._parser.expect_echo(raw)
        self._dest, self._header = dest, header
        self._since_request.clear()
        self._skipped_long = False
        self.wrong_length = None
        return raw

    def receive_data(self, data: bytes, now: float) -> Reply | Corrupt | None:
        """Bytes from the line: the reply, a damaged reply, or None (keep waiting)."""
        corrupt: Corrupt | None = None
        self._since_request += data
        for event in self._parser.feed(data, now):
            if isinstance(event, Discarded):
                if event.reason == "checksum" and event.raw[:1] == bytes((self.address,)):
                    corrupt = Corrupt(event.raw)
                elif event.reason == "length":
                    self._skipped_long = True
                continue
            reply = self._as_reply(event.frame)
            if reply is not None:
                self._dest = self._header = None
                return reply
        if self._skipped_long and self.wrong_length is None:
            self._find_over_long_reply()
        return corrupt

    def _as_reply(self, frame: Frame) -> Reply | None:
        if self._dest is None or self._header is None or frame.dest != self.address:
            return None
        if frame.src is not None and frame.src != self._dest:
            return None
        if frame.header in (Header.NAK, Header.BUSY):
            return Reply(self._dest, frame.header) if not frame.data else None
        if frame.header != Header.REPLY:
            return None
        lo, hi = REPLY_LENGTHS.get(self._header, (0, 255))
        if not lo <= len(frame.data) <= hi:
            self.wrong_length = len(frame.data)
            return None
        return Reply(self._dest, frame.header, frame.data)

    def _find_over_long_reply(self) -> None:
        """The parser skipped a packet announcing more data than the reply may have: was it a
        whole, well-formed reply from the device (then say so), or just noise?"""
        raw = bytes(self._since_request)
        for i in range(len(raw) - 4):
            if raw[i] != self.address or raw[i + 1] + 5 > len(raw) - i:
                continue
            try:
                frame = decode(raw[i : i + raw[i + 1] + 5], self.checksum)
            except FrameError:
                continue
            ours = frame.src is None or frame.src == self._dest
            if ours and frame.header == Header.REPLY:
                self.wrong_length = len(frame.data)


class BusOptions(TypedDict, total=False):
    """``CctalkBus`` settings beyond its transport and link name, for ``CctalkBus.open``."""

    checksum: Checksum
    echo: bool
    timeout: float
    retries: int
    clock: Clock


class RequestOptions(TypedDict, total=False):
    """One request's own reply ``timeout`` and ``retries`` (None: the bus's)."""

    timeout: float | None
    retries: int | None


@dataclass(frozen=True)
class DeviceInfo:
    """What start-up identification learnt about a device."""

    link: str
    address: int
    category: str
    manufacturer: str
    product: str
    serial: int


class CctalkBus:
    """The blocking master of one ccTalk link."""

    def __init__(
        self,
        transport: Transport,
        *,
        link: str = "ccTalk",
        checksum: Checksum = Checksum.SUM8,
        echo: bool = False,
        timeout: float = 0.2,
        retries: int = 3,
        clock: Clock = time.monotonic,
    ) -> None:
        self.transport = transport
        self.link = link
        self.timeout = timeout
        self.retries = retries
        self.clock = clock
        self.protocol = HostProtocol(checksum=checksum, echo=echo)
        self.exchanges = 0  # requests made (each may take several attempts)
        self.attempts = 0  # packets sent
        self.failed_attempts = 0
        self._last_send = 0.0

    @classmethod
    def open(cls, url: str, *, link: str | None = None, **options: Unpack[BusOptions]) -> CctalkBus:
        """Open ``url`` (pyserial URL or device path) and be its master."""
        return cls(open_transport(url), link=link or url, **options)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- exchanges ---------------------------------------------------------------------------

    def request(
        self,
        address: int,
        header: int,
        data: bytes = b"",
        *,
        timeout: float | None = None,
        retries: int | None = None,
    ) -> Reply:
        """Send a request and return its reply (data, ACK, or NAK). ``NoReply`` after resends."""
        timeout = self.timeout if timeout is None else timeout
        attempts = 1 + (self.retries if retries is None else retries)
        self.exchanges += 1
        timed_out = False
        wrong_length: int | None = None
        try:
            for _ in range(attempts):
                result = self._attempt(address, header, data, timeout)
                if self.protocol.wrong_length is not None:
                    wrong_length = self.protocol.wrong_length
                if isinstance(result, Reply) and not result.is_busy:
                    return result
                self.failed_attempts += 1
                if result is None:
                    timed_out = True
                elif isinstance(result, Reply):  # BUSY: give the device a moment
                    self.wait(timeout / 2)
        finally:
            if timed_out:
                self._quiesce(timeout)
        if wrong_length is not None:
            lo, hi = REPLY_LENGTHS.get(header, (0, MAX_DATA))
            expected = f"{lo}" if lo == hi else f"{lo} to {hi}"
            why = (
                f"reply of {wrong_length} bytes to header {int(header)}, expected {expected}"
                f" (after {attempts} tries)"
            )
            raise WrongLength(self.link, address, why)
        why = f"no reply to header {int(header)} after {attempts} tries"
        raise NoReply(self.link, address, why)

    def data(
        self, address: int, header: int, data: bytes = b"", **options: Unpack[RequestOptions]
    ) -> bytes:
        """A request whose reply is data (header 0); ``Refused`` on NAK."""
        reply = self.request(address, header, data, **options)
        if reply.is_nak:
            raise Refused(self.link, address, f"NAK to header {header}")
        return reply.data

    def command(
        self, address: int, header: int, data: bytes = b"", **options: Unpack[RequestOptions]
    ) -> None:
        """A request whose reply must be ACK; ``Refused`` otherwise."""
        reply = self.request(address, header, data, **options)
        if not reply.is_ack:
            what = "NAK" if reply.is_nak else f"data {list(reply.data)}"
            raise Refused(self.link, address, f"{what} to header {header}, expected ACK")

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass, throwing away anything that arrives on the line meanwhile."""
        deadline = self.clock() + seconds
        while (left := deadline - self.clock()) > 0:
            self.transport.read(4096, left)

    def _drain(self) -> None:
        while self.transport.read(4096, 0):
            pass

    def _quiesce(self, timeout: float) -> None:
        """After a timed-out attempt its reply may still come, late: let it come and go.

        Waits until two timeouts after the last packet sent, and while bytes keep coming, so a
        reply up to one timeout late never answers the next request.
        """
        end = self._last_send + 2 * timeout
        give_up = self._last_send + 4 * timeout
        while (left := min(end, give_up) - self.clock()) > 0:
            if self.transport.read(4096, left):
                end = max(end, self.clock() + timeout / 2)

    def _attempt(
        self, address: int, header: int, data: bytes, timeout: float
    ) -> Reply | Corrupt | None:
        self._drain()
        raw = self.protocol.send_request(address, header, data)
        self.transport.write(raw)
        self.attempts += 1
        self._last_send = self.clock()
        deadline = self._last_send + timeout
        while (left := deadline - self.clock()) > 0:
            chunk = self.transport.read(512, left)
            if chunk:
                result = self.protocol.receive_data(chunk, self.clock())
                if result is not None:
                    return result
        return None

    # -- identification ------------------------------------------------------------------------

    def text(self, address: int, header: int) -> str:
        return decode_ascii(self.data(address, header))

    def identify(self, address: int, category: str) -> DeviceInfo:
        """Check that a ``category`` device answers at ``address``; read who it is."""
        try:
            self.command(address, Header.SIMPLE_POLL)
            found = self.text(address, Header.EQUIPMENT_CATEGORY)
        except NoReply:
            raise IdentificationError(
                self.link, address, f"no reply: expected a {category!r} device here"
            ) from None
        except Refused as exc:
            raise IdentificationError(
                self.link, address, f"not a ccTalk {category!r}: {exc.message}"
            ) from None
        if found != category:
            raise IdentificationError(
                self.link, address, f"answers as {found!r}, expected a {category!r} device"
            )
        try:
            manufacturer = self.text(address, Header.MANUFACTURER_ID)
            product = self.text(address, Header.PRODUCT_CODE)
            serial = decode_uint(self.data(address, Header.SERIAL_NUMBER))
        except CctalkError as exc:
            raise IdentificationError(
                self.link, address, f"identification failed: {exc.message}"
            ) from None
        return DeviceInfo(self.link, address, found, manufacturer, product, serial)
