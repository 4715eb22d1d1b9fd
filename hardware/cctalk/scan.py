"""Finding the devices on a ccTalk bus: the address poll, a simple poll sweep, identification.

Owns: ``scan``, which learns which addresses answer on one link and who answers there: first
the address poll (253 to the broadcast address 0: every device that supports it sends its
address byte alone, 4 ms x its address after the request, part 1 section 20.2.1), confirmed
with a simple poll (254); then, if that found nothing (253 belongs to the optional multi-drop
set), a simple poll of every address 1..255 with a short timeout and no resend. Each device
found is asked 245 (category), 246 (manufacturer), 244 (product code) and 242 (serial
number); a question it does not answer leaves that field empty, the device is still listed.
Knows nothing of what the cabinet does with a device; never opens a link itself (the caller's
``CctalkBus`` does).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from hardware.cctalk.codec import Frame, encode
from hardware.cctalk.headers import Header, decode_ascii, decode_uint
from hardware.cctalk.host import CctalkBus, CctalkError

BROADCAST = 0
ADDRESS_POLL_WAIT = 1.5  # seconds: every device has answered 253 within 1.2 s (part 1, 20.2.1)
SWEEP_TIMEOUT = 0.05  # seconds a simple poll of the sweep waits for its ACK
METHODS = ("auto", "address", "simple")


@dataclass(frozen=True)
class FoundDevice:
    """One device that answered, and what it said about itself (None: did not say)."""

    address: int
    category: str | None
    manufacturer: str | None
    product: str | None
    serial: int | None

    def line(self) -> str:
        def said(value: object) -> str:
            return "?" if value is None else str(value)

        return (
            f"address {self.address}: {said(self.category)}, manufacturer"
            f" {said(self.manufacturer)}, product {said(self.product)}, serial {said(self.serial)}"
        )

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def address_poll(bus: CctalkBus, wait: float = ADDRESS_POLL_WAIT) -> list[int]:
    """Broadcast 253 and collect the address bytes that come back within ``wait`` seconds."""
    raw = encode(Frame(BROADCAST, Header.ADDRESS_POLL, b"", bus.protocol.address), bus.protocol.checksum)
    bus.transport.write(raw)
    heard = bytearray()
    deadline = bus.clock() + wait
    while (left := deadline - bus.clock()) > 0:
        heard += bus.transport.read(256, left)
    if bus.protocol.echo and heard[: len(raw)] == raw:
        del heard[: len(raw)]
    return sorted({b for b in heard if b != bus.protocol.address and b != BROADCAST})


def answers(bus: CctalkBus, address: int, timeout: float) -> bool:
    """Does ``address`` ACK a simple poll within ``timeout`` (one try)?"""
    try:
        bus.command(address, Header.SIMPLE_POLL, timeout=timeout, retries=0)
    except CctalkError:
        return False
    return True


def identify(bus: CctalkBus, address: int) -> FoundDevice:
    """Ask a device who it is; each question it does not answer leaves its field None."""

    def text(header: int) -> str | None:
        try:
            return decode_ascii(bus.data(address, header))
        except CctalkError:
            return None

    try:
        serial: int | None = decode_uint(bus.data(address, Header.SERIAL_NUMBER))
    except CctalkError:
        serial = None
    return FoundDevice(
        address,
        text(Header.EQUIPMENT_CATEGORY),
        text(Header.MANUFACTURER_ID),
        text(Header.PRODUCT_CODE),
        serial,
    )


def scan(
    bus: CctalkBus,
    *,
    method: str = "auto",
    addresses: range = range(1, 256),
    timeout: float = SWEEP_TIMEOUT,
    wait: float = ADDRESS_POLL_WAIT,
) -> list[FoundDevice]:
    """Every device that answers on ``bus``, by address. ``method``: ``address`` (253 only),
    ``simple`` (254 to every address in ``addresses``), ``auto`` (253, and the sweep if
    nothing answered it)."""
    if method not in METHODS:
        raise ValueError(f"the scan method is one of {', '.join(METHODS)}, not {method!r}")
    found: list[int] = []
    if method in ("auto", "address"):
        polled = address_poll(bus, wait)
        found = [a for a in polled if a in addresses and answers(bus, a, max(timeout, bus.timeout))]
    if method == "simple" or (method == "auto" and not found):
        found = [a for a in addresses if answers(bus, a, timeout)]
    return [identify(bus, a) for a in found]
