"""The simulated ccTalk bus: one wire, any number of simulated devices on it.

Owns: parsing what the host sends (the device-side receiver: 50 ms reset, resync), routing each
packet to the device at its destination address, the rules every device shares (no reply to
a bad checksum, an unknown header or a wrong data length; replies go to the sender, or to
address 1 with CRC-16), the address poll (253 broadcast: each device answers with its address
byte alone, later the higher its address), the optional echo of the host's own bytes, and the communication
faults a device can be given (lost replies, late replies, garbled replies). Pure: bytes and
``now`` in, timed transmissions out; never does I/O, never reads a clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from hardware.cctalk.codec import (
    HOST_ADDRESS,
    INTER_BYTE_GAP,
    Checksum,
    Frame,
    FrameParser,
    Received,
    encode,
)
from hardware.cctalk.headers import REQUEST_LENGTHS, Header
from hardware.sim.cctalk_devices import SimDevice

BROADCAST = 0  # the destination address every device listens to
ADDRESS_POLL_STEP = 0.004  # seconds per address before a device answers the address poll


@dataclass
class CommsFaults:
    """How a device's replies go wrong: lost (all, or those to some headers), late, garbled."""

    noreply: bool = False
    noreply_headers: set[int] = field(default_factory=set)  # empty: every header
    late: float = 0.0  # seconds added before each reply
    garble: float = 0.0  # probability that a reply has one byte corrupted

    def loses(self, header: int) -> bool:
        return self.noreply and (not self.noreply_headers or header in self.noreply_headers)


@dataclass(frozen=True)
class Transmission:
    """Bytes the bus puts on the wire at time ``due``."""

    due: float
    data: bytes


class SimulatedBus:
    """Devices on one link. Feed it the host's bytes; it answers with timed transmissions."""

    def __init__(
        self,
        devices: Iterable[SimDevice],
        *,
        checksum: Checksum = Checksum.SUM8,
        echo: bool = False,
        rng: random.Random | None = None,
        gap: float = INTER_BYTE_GAP,
    ) -> None:
        self.devices: dict[int, SimDevice] = {}
        for dev in devices:
            if dev.address in self.devices or not 2 <= dev.address <= 255:
                raise ValueError(f"address {dev.address} is taken or not a device address")
            self.devices[dev.address] = dev
        self.checksum = checksum
        self.echo = echo
        self.rng = rng or random.Random(0)
        self.faults: dict[int, CommsFaults] = {a: CommsFaults() for a in self.devices}
        self._parser = FrameParser(checksum, gap=gap)
        self.requests = 0  # packets addressed to one of our devices
        self.discarded = 0  # bytes the receiver threw away

    def device(self, address: int) -> SimDevice:
        try:
            return self.devices[address]
        except KeyError:
            raise KeyError(f"no simulated device at address {address}") from None

    def receive(self, data: bytes, now: float) -> list[Transmission]:
        """Bytes from the host, arrived at ``now``: what goes back on the wire, and when."""
        out: list[Transmission] = []
        if self.echo and data:
            out.append(Transmission(now, bytes(data)))
        for event in self._parser.feed(data, now):
            if isinstance(event, Received) and event.frame.dest == BROADCAST:
                out += self._address_poll(event.frame, now)
            elif isinstance(event, Received):
                reply = self._dispatch(event.frame, now)
                if reply is not None:
                    out.append(reply)
            else:
                self.discarded += len(event.raw)
        return out

    def _address_poll(self, frame: Frame, now: float) -> list[Transmission]:
        """253 to the broadcast address: every powered device sends its address byte alone,
        ``ADDRESS_POLL_STEP`` x address after the request (part 1, MDCES). Anything else
        broadcast gets no reply."""
        if frame.header != Header.ADDRESS_POLL or frame.data:
            return []
        out = []
        for address, dev in sorted(self.devices.items()):
            if dev.powered and not self.faults[address].loses(frame.header):
                out.append(Transmission(now + ADDRESS_POLL_STEP * address, bytes((address,))))
        return out

    def _dispatch(self, frame: Frame, now: float) -> Transmission | None:
        dev = self.devices.get(frame.dest)
        if dev is None:
            return None
        self.requests += 1
        limits = REQUEST_LENGTHS.get(frame.header)
        if limits is None or not limits[0] <= len(frame.data) <= limits[1]:
            return None
        response = dev.handle(frame.header, frame.data, now)
        faults = self.faults[dev.address]
        if response is None or faults.loses(frame.header):
            return None
        header, data = response
        dest = HOST_ADDRESS if frame.src is None else frame.src
        raw = encode(Frame(dest=dest, header=header, data=data, src=dev.address), self.checksum)
        if faults.garble and self.rng.random() < faults.garble:
            raw = self._garbled(raw)
        return Transmission(now + faults.late, raw)

    def _garbled(self, raw: bytes) -> bytes:
        """One byte changed: every checksum in ccTalk catches a single-byte error."""
        out = bytearray(raw)
        i = self.rng.randrange(len(out))
        out[i] ^= self.rng.randrange(1, 256)
        return bytes(out)
