"""Random and mutated bytes at both parsers: no crash, no credit, no coin.

The pure parsers are fed directly (no pty): the host's ``HostProtocol`` behind the real
``CoinAcceptor`` driver, and the simulator's ``SimulatedBus`` with an acceptor and a hopper.
More than 100 000 fuzzed packets in all, from fixed seeds.
"""

from __future__ import annotations

import random

import pytest

from hardware.cctalk.acceptor import CoinAcceptor, CoinCredit, CreditTracker
from hardware.cctalk.codec import Checksum, Frame, FrameParser, Received, encode
from hardware.cctalk.headers import (
    BufferedCredit,
    CoinEvent,
    Header,
    HopperStatus,
    dispense_with_serial,
)
from hardware.cctalk.host import HostProtocol, NoReply, Reply
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimHopper

DEVICE_FRAMES = 60_000
HOST_FRAMES = 60_000


def mutate(rng: random.Random, raw: bytes, others: list[bytes]) -> bytes:
    """One packet damaged in one of the ways a line damages packets, or pure noise."""
    out = bytearray(raw)
    kind = rng.randrange(10)
    if kind == 0:  # noise
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 40)))
    if kind == 1:  # one byte changed
        out[rng.randrange(len(out))] ^= rng.randrange(1, 256)
    elif kind == 2:  # one bit flipped
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    elif kind == 3:  # cut short
        del out[rng.randrange(1, len(out)) :]
    elif kind == 4:  # a byte lost
        del out[rng.randrange(len(out))]
    elif kind == 5:  # a byte added
        out.insert(rng.randrange(len(out) + 1), rng.randrange(256))
    elif kind == 6:  # two or three bytes changed
        for _ in range(rng.randint(2, 3)):
            out[rng.randrange(len(out))] = rng.randrange(256)
    elif kind == 7:  # noise before it
        out[:0] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 6)))
    elif kind == 8:  # the front of one packet, the back of another
        other = rng.choice(others)
        out = out[: rng.randrange(1, len(out))] + other[rng.randrange(len(other)) :]
    else:  # the packet as it is, or twice
        out = out * rng.randint(1, 2)
    return bytes(out)


# --- the simulator's device parser ---------------------------------------------------------------


def host_corpus(serial: int) -> list[bytes]:
    """Every request the host makes, with the dispense carrying a wrong security code."""
    wrong = serial + 1
    frames = [Frame(a, h) for a in (2, 3) for h in (254, 246, 245, 244, 242, 241, 4, 1)]
    frames += [
        Frame(2, Header.READ_BUFFERED_CREDIT),
        Frame(2, Header.MODIFY_INHIBIT, b"\xff\xff"),
        Frame(2, Header.MODIFY_MASTER_INHIBIT, b"\x01"),
        Frame(2, Header.COIN_ID, b"\x01"),
        Frame(2, Header.REQUEST_INHIBIT),
        Frame(3, Header.ENABLE_HOPPER, b"\xa5"),
        Frame(3, Header.HOPPER_STATUS),
        Frame(3, Header.DISPENSE_COUNT),
        Frame(3, Header.TEST_HOPPER),
        Frame(3, Header.CIPHER_KEY),
        Frame(3, Header.EMERGENCY_STOP),
        Frame(3, Header.DISPENSE, dispense_with_serial(wrong, 5)),
        Frame(3, Header.DISPENSE, dispense_with_serial(wrong, 255)),
        Frame(3, Header.DISPENSE, bytes(8) + b"\x05"),
    ]
    return [encode(f) for f in frames]


@pytest.mark.timeout(120)
def test_fuzzed_requests_never_make_a_device_pay_or_credit():
    rng = random.Random(20260001)
    acceptor = SimCoinAcceptor(2)
    hopper = SimHopper(3, serial=0x123456, level=1000)
    bus = SimulatedBus([acceptor, hopper], rng=random.Random(1))
    corpus = host_corpus(hopper.serial)
    reply_parser = FrameParser()
    now = 0.0
    replies = 0
    for _ in range(DEVICE_FRAMES):
        data = mutate(rng, rng.choice(corpus), corpus)
        now += 0.06 if rng.random() < 0.5 else 0.002  # a pause between requests, or none
        for tx in bus.receive(data, now):
            events = reply_parser.feed(tx.data, tx.due)
            frames = [e.frame for e in events if isinstance(e, Received)]
            # a whole reply from the device addressed (to whichever source the request named)
            assert len(frames) == 1 and frames[0].src in (2, 3) and frames[0].header in (0, 5)
            replies += 1
        if hopper.enabled and rng.random() < 0.01:
            hopper.advance(now + 10)
    hopper.advance(now + 100)
    assert hopper.left == 0 and hopper.lifetime == 0 and hopper.paid == 0  # no coin
    assert acceptor.counter == 0 and acceptor.credits == 0  # no credit (nor any event)
    assert replies > DEVICE_FRAMES // 10  # damaged packets are dropped, whole ones answered


def test_the_correct_security_code_does_pay_so_the_fuzz_above_means_something():
    hopper = SimHopper(3, serial=0x123456, level=10)
    bus = SimulatedBus([hopper])
    bus.receive(encode(Frame(3, Header.ENABLE_HOPPER, b"\xa5")), 0.0)
    bus.receive(encode(Frame(3, Header.DISPENSE, dispense_with_serial(0x123456, 2))), 1.0)
    hopper.advance(10)
    assert hopper.left == 2


# --- the host parser ---------------------------------------------------------------------------


class FuzzedLine:
    """A stand-in for ``CctalkBus``: each request is answered by one fuzzed packet, parsed by
    the real ``HostProtocol``. No reply found means ``NoReply``, as on a real link."""

    def __init__(self, rng: random.Random, genuine: dict[int, bytes]) -> None:
        self.rng = rng
        self.protocol = HostProtocol()
        self.genuine = genuine  # header -> the reply the device would give
        self.others = list(genuine.values())
        self.now = 0.0
        self.frames = 0
        self.accepted: list[Reply] = []

    def data(self, address: int, header: int, data: bytes = b"") -> bytes:
        self.protocol.send_request(address, header, data)
        raw = mutate(self.rng, self.genuine[header], self.others)
        self.frames += 1
        self.now += 0.1
        result = self.protocol.receive_data(raw, self.now)
        if not isinstance(result, Reply):
            raise NoReply("fuzz", address, "no reply")
        self.accepted.append(result)
        return result.data

    def command(self, *args: object, **kw: object) -> None:
        pass


def genuine_replies() -> dict[int, bytes]:
    """What a coin acceptor at 2 with three old credits and counter 17 answers."""
    events = (CoinEvent(1, 0), CoinEvent(2, 0), CoinEvent(1, 0), CoinEvent(0, 0), CoinEvent(0, 0))
    old = BufferedCredit(17, events)
    status = HopperStatus(9, 0, 20, 0)
    return {
        Header.READ_BUFFERED_CREDIT: encode(Frame(1, 0, old.encode(), src=2)),
        Header.HOPPER_STATUS: encode(Frame(1, 0, status.encode(), src=2)),
        Header.SERIAL_NUMBER: encode(Frame(1, 0, b"\x01\x02\x03", src=2)),
        Header.SIMPLE_POLL: encode(Frame(1, 0, b"", src=2)),
    }


@pytest.mark.timeout(120)
def test_fuzzed_replies_never_give_the_host_a_credit():
    rng = random.Random(20260002)
    line = FuzzedLine(rng, genuine_replies())
    values = {"EU100A": 100, "EU200A": 200}
    acceptor = CoinAcceptor(line, 2, values=values)  # type: ignore[arg-type]
    acceptor.coin_ids = {1: "EU100A", 2: "EU200A"}
    acceptor.tracker = CreditTracker(17)
    credits = 0
    while line.frames < HOST_FRAMES:
        try:
            events = acceptor.poll()
        except (NoReply, ValueError):
            continue
        credits += sum(1 for e in events if isinstance(e, CoinCredit))
        if acceptor.tracker.counter != 17:  # a damaged reply was believed: put the truth back
            acceptor.tracker = CreditTracker(17)
    assert credits == 0
    assert len(line.accepted) > HOST_FRAMES // 10  # whole replies do get through


@pytest.mark.timeout(60)
def test_fuzzed_replies_to_other_requests_never_crash_the_host_parser():
    rng = random.Random(20260003)
    genuine = genuine_replies()
    protocol = HostProtocol(checksum=Checksum.SUM8, echo=True)
    headers = list(genuine)
    now = 0.0
    for _ in range(20_000):
        header = rng.choice(headers)
        sent = protocol.send_request(2, header)
        raw = mutate(rng, sent, [sent]) + mutate(rng, genuine[header], list(genuine.values()))
        now += 0.1
        result = protocol.receive_data(raw, now)
        if isinstance(result, Reply) and result.header == 0 and header == Header.HOPPER_STATUS:
            HopperStatus.decode(result.data)  # the length check already guarantees this
