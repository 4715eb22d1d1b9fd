"""The pure panel parser under random and mutated bytes: no crash, no spurious frame or event."""

from __future__ import annotations

import random

import pytest

from hardware.panel.codec import Frame, FrameDecoder, encode
from hardware.panel.connection import HostConnection, LinkDown, LinkUp, PanelConnection
from hardware.panel.messages import (
    BUTTONS,
    ButtonPressed,
    ButtonReleased,
    Door,
    KeySwitch,
    LampState,
    Message,
    MessageError,
    SetLamp,
    SetSeatLamps,
    decode_message,
    encode_message,
)
from hardware.panel.testing import ConnectionPair

FRAMES = 50_000


def _random_frame(rng: random.Random) -> Frame:
    seat, button = rng.randint(1, 8), rng.choice(BUTTONS)
    options: list[Message] = [
        ButtonPressed(seat, button),
        ButtonReleased(seat, button),
        KeySwitch(rng.choice(["operator", "attendant"]), rng.random() < 0.5),
        Door(rng.random() < 0.5),
        SetLamp(seat, button, rng.choice(list(LampState))),
        SetSeatLamps(seat, tuple(rng.choice(list(LampState)) for _ in BUTTONS)),
    ]
    msg = rng.choice(options)
    kind, payload = encode_message(msg)
    return Frame(kind, rng.randint(1, 255), payload)


def _mutate(wire: bytes, rng: random.Random) -> bytes:
    data = bytearray(wire)
    kind = rng.randrange(7)
    if kind == 0:  # one to three flipped bits
        for _ in range(rng.randint(1, 3)):
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
    elif kind == 1:  # a byte lost
        del data[rng.randrange(len(data))]
    elif kind == 2:  # a byte too many
        data.insert(rng.randrange(len(data) + 1), rng.randrange(256))
    elif kind == 3:  # cut short
        data = data[: rng.randrange(len(data))]
    elif kind == 4:  # a burst of noise inside
        at = rng.randrange(len(data))
        data[at : at + 2] = rng.randbytes(rng.randint(1, 2))
    elif kind == 5:  # garbage before it
        data[0:0] = rng.randbytes(rng.randint(1, 30))
    else:  # one byte replaced by anything
        data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def _is_subsequence(small: list[Frame], big: list[Frame]) -> bool:
    it = iter(big)
    return all(any(f == g for g in it) for f in small)


@pytest.mark.timeout(60)
def test_fifty_thousand_mutated_frames_give_no_frame_that_was_not_sent() -> None:
    rng = random.Random(20240601)
    sent: list[Frame] = []
    intact = 0
    stream = bytearray()
    mutated = 0
    for _ in range(FRAMES):
        frame = _random_frame(rng)
        wire = encode(frame)
        if rng.random() < 0.5:
            wire = _mutate(wire, rng)
            mutated += 1
        else:
            intact += 1
        sent.append(frame)
        stream += wire
    decoder = FrameDecoder()
    got: list[Frame] = []
    pos = 0
    while pos < len(stream):
        step = rng.randint(1, 200)
        got += decoder.feed(stream[pos : pos + step])
        pos += step
    for frame in got:  # the message layer takes whatever the frame layer lets through
        try:
            decode_message(frame.type, frame.payload)
        except MessageError:
            pytest.fail(f"a frame that passed the CRC carries a bad message: {frame}")
    # Every frame out is the frame sent at that place: a mutation either left the frame itself
    # alone (garbage before it, its closing flag lost) or the frame is dropped; never changed.
    assert _is_subsequence(got, sent), "a frame came out that was never sent"
    # a mutation costs at most its own frame and the intact one after it (a lost flag)
    assert len(got) >= intact - mutated
    assert decoder.corrupt >= mutated // 2


@pytest.mark.timeout(60)
def test_a_megabyte_of_random_bytes_gives_no_frame() -> None:
    rng = random.Random(7)
    decoder = FrameDecoder()
    for _ in range(256):
        assert decoder.feed(rng.randbytes(4096)) == []
    assert decoder.corrupt > 0


@pytest.mark.timeout(60)
def test_random_bytes_into_an_established_host_give_no_event_and_do_not_break_it() -> None:
    rng = random.Random(11)
    host, panel = HostConnection(session=5), PanelConnection(seats=4)
    pair = ConnectionPair(host, panel)
    pair.run_until(lambda: host.link_up, 1.0)
    assert [type(e) for e in host.events()] == [LinkUp]
    for _ in range(2000):
        host.receive_data(rng.randbytes(rng.randint(1, 64)), pair.now)
    assert [e for e in host.events() if not isinstance(e, (LinkUp, LinkDown))] == []
    assert host.stats["corrupt_frames"] > 0
    host.receive_data(b"\x7e", pair.now)  # end whatever partial chunk the noise left
    panel.send(ButtonPressed(2, "draw"), pair.now)
    pair.run(0.5)
    assert [e for e in host.events() if not isinstance(e, (LinkUp, LinkDown))] == [
        ButtonPressed(2, "draw")
    ]
