"""Panel framing and messages: the CRC, the documented test vectors, stuffing, resynchronisation."""

from __future__ import annotations

import binascii
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.panel.codec import (
    MAX_PAYLOAD,
    Frame,
    FrameDecoder,
    FrameError,
    body_of,
    crc16_ccitt_false,
    decode,
    encode,
    stuff,
    unstuff,
)
from hardware.panel.messages import (
    BUTTON_IDS,
    BUTTONS,
    Ack,
    ButtonPressed,
    ButtonReleased,
    Door,
    Heartbeat,
    Hello,
    HostHello,
    KeySwitch,
    LampState,
    MessageError,
    MsgType,
    RequestState,
    SetLamp,
    SetSeatLamps,
    decode_message,
    encode_message,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "panel-protocol.md"


def _bitwise_crc(data: bytes) -> int:
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def _hex(text: str) -> bytes:
    return bytes.fromhex(text)


# (message, seq, body before stuffing, bytes on the wire): the table in docs/panel-protocol.md
VECTORS = [
    (ButtonPressed(1, "start"), 5, "02 01 10 05 01 06 8C A1", "7E 02 01 10 05 01 06 8C A1 7E"),
    (ButtonReleased(1, "start"), 6, "02 01 11 06 01 06 A3 45", "7E 02 01 11 06 01 06 A3 45 7E"),
    (KeySwitch("operator", True), 1, "02 01 12 01 01 01 CD EE", "7E 02 01 12 01 01 01 CD EE 7E"),
    (Door(True), 2, "02 01 13 02 01 01 E2 0A", "7E 02 01 13 02 01 01 E2 0A 7E"),
    (
        SetLamp(3, "collect", LampState.BLINK), 126,
        "03 01 20 7E 03 0D 02 8B 39", "7E 03 01 20 7D 5E 03 0D 02 8B 39 7E",
    ),
    (RequestState(), 125, "00 01 22 7D 7C 4E", "7E 00 01 22 7D 5D 7C 4E 7E"),
    (Ack(5), 0, "01 01 04 00 05 41 8C", "7E 01 01 04 00 05 41 8C 7E"),
    (Heartbeat(0), 0, "01 01 03 00 00 94 B9", "7E 01 01 03 00 00 94 B9 7E"),
    (
        Hello(1, 4, 0), 0,
        "08 01 01 00 01 00 01 04 00 00 00 00 A3 28",
        "7E 08 01 01 00 01 00 01 04 00 00 00 00 A3 28 7E",
    ),
    (
        HostHello(0x12345678), 0,
        "05 01 02 00 01 12 34 56 78 56 F3", "7E 05 01 02 00 01 12 34 56 78 56 F3 7E",
    ),
]


def test_crc_is_ccitt_false_with_its_check_value() -> None:
    assert crc16_ccitt_false(b"123456789") == 0x29B1
    assert crc16_ccitt_false(b"") == 0xFFFF
    for data in (b"\x00", b"\x7e\x7d", bytes(range(256))):
        assert crc16_ccitt_false(data) == _bitwise_crc(data) == binascii.crc_hqx(data, 0xFFFF)


@pytest.mark.parametrize(("msg", "seq", "body", "wire"), VECTORS, ids=lambda v: str(v)[:30])
def test_documented_vectors_encode_and_decode(msg: object, seq: int, body: str, wire: str) -> None:
    kind, payload = encode_message(msg)  # type: ignore[arg-type]
    frame = Frame(kind, seq, payload)
    assert body_of(frame) == _hex(body)
    assert crc16_ccitt_false(_hex(body)[:-2]) == int.from_bytes(_hex(body)[-2:], "big")
    assert encode(frame) == _hex(wire)
    assert decode(_hex(wire)) == frame
    assert decode_message(frame.type, frame.payload) == msg
    assert FrameDecoder().feed(_hex(wire)) == [frame]


def test_the_document_shows_every_vector() -> None:
    text = DOC.read_text()
    assert "0x29B1" in text
    for _msg, _seq, body, wire in VECTORS:
        assert f"`{body}`" in text
        assert f"`{wire}`" in text


def test_document_button_table_matches_the_ids() -> None:
    text = DOC.read_text()
    for name, ident in BUTTON_IDS.items():
        assert f"| {ident} | `{name}`" in text


def test_button_names_and_ids() -> None:
    assert BUTTONS == (
        "+2", "+10", "x2", "repeat", "max", "start", "draw", "stand", "double", "split",
        "insurance", "auto", "collect",
    )
    assert [BUTTON_IDS[b] for b in BUTTONS] == list(range(1, 14))


def test_stuffing_escapes_flag_and_escape_and_nothing_else() -> None:
    assert stuff(b"\x01\x7e\x02\x7d\x03") == b"\x01\x7d\x5e\x02\x7d\x5d\x03"
    assert unstuff(b"\x01\x7d\x5e\x02\x7d\x5d\x03") == b"\x01\x7e\x02\x7d\x03"
    assert stuff(bytes(range(256))).count(b"\x7e") == 0
    with pytest.raises(FrameError) as err:
        unstuff(b"\x01\x7d\x41")
    assert err.value.reason == "escape"
    with pytest.raises(FrameError):
        unstuff(b"\x01\x7d")


ALL_MESSAGES = st.one_of(
    st.builds(Hello, st.integers(0, 0xFFFF), st.integers(1, 8), st.integers(0, 0xFFFFFFFF)),
    st.builds(HostHello, st.integers(1, 0xFFFFFFFF)),
    st.builds(Heartbeat, st.integers(0, 255)),
    st.builds(Ack, st.integers(0, 255)),
    st.builds(ButtonPressed, st.integers(1, 8), st.sampled_from(BUTTONS)),
    st.builds(ButtonReleased, st.integers(1, 8), st.sampled_from(BUTTONS)),
    st.builds(KeySwitch, st.sampled_from(["operator", "attendant"]), st.booleans()),
    st.builds(Door, st.booleans()),
    st.builds(SetLamp, st.integers(1, 8), st.sampled_from(BUTTONS), st.sampled_from(LampState)),
    st.builds(
        SetSeatLamps, st.integers(1, 8),
        st.lists(st.sampled_from(LampState), min_size=13, max_size=13).map(tuple),
    ),
    st.just(RequestState()),
)


@given(ALL_MESSAGES, st.integers(0, 255))
def test_every_message_round_trips_through_the_wire(msg: object, seq: int) -> None:
    kind, payload = encode_message(msg)  # type: ignore[arg-type]
    wire = encode(Frame(kind, seq, payload))
    assert wire[0] == wire[-1] == 0x7E and 0x7E not in wire[1:-1]
    (frame,) = FrameDecoder().feed(wire)
    assert frame.seq == seq
    assert decode_message(frame.type, frame.payload) == msg


@given(st.lists(st.binary(max_size=MAX_PAYLOAD), max_size=5), st.data())
def test_frames_survive_any_split_into_reads(payloads: list[bytes], data: st.DataObject) -> None:
    frames = [Frame(0x10, i % 256, p) for i, p in enumerate(payloads)]
    wire = b"".join(encode(f) for f in frames)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    decoder = FrameDecoder()
    got = []
    for a, b in zip([0, *cuts], [*cuts, len(wire)], strict=True):
        got += decoder.feed(wire[a:b])
    assert got == frames
    assert decoder.corrupt == 0


def test_garbage_and_a_partial_frame_cost_only_themselves() -> None:
    good = encode(Frame(MsgType.BUTTON_DOWN, 7, bytes((2, 6))))
    partial = good[:5]
    decoder = FrameDecoder()
    assert decoder.feed(b"\x00\xff\x13garbage" + partial + good + good[1:]) == [
        Frame(MsgType.BUTTON_DOWN, 7, bytes((2, 6))),
        Frame(MsgType.BUTTON_DOWN, 7, bytes((2, 6))),
    ]
    assert dict(decoder.dropped) == {"length": 1, "short": 1}  # the garbage; the partial frame


@pytest.mark.parametrize(
    ("wire", "reason"),
    [
        (b"\x7e\x01\x02\x7e", "short"),
        (b"\x7e" + stuff(body_of(Frame(0x10, 1, b"\x01\x01")))[:-3] + b"\x00\x7e", "length"),
        (b"\x7e\x01\x01\x04\x00\x05\x41\x8d\x7e", "crc"),
        (b"\x7e\x01\x01\x7d\x41\x00\x05\x41\x8c\x7e", "escape"),
        (b"\x7e" + bytes(200) + b"\x7e", "overlong"),
    ],
)
def test_each_kind_of_corrupt_chunk_is_dropped_and_counted(wire: bytes, reason: str) -> None:
    decoder = FrameDecoder()
    good = encode(Frame(MsgType.ACK, 0, b"\x05"))
    assert decoder.feed(wire + good) == [Frame(MsgType.ACK, 0, b"\x05")]
    assert decoder.dropped[reason] == 1
    assert decoder.corrupt == 1


def test_another_version_is_dropped() -> None:
    decoder = FrameDecoder()
    assert decoder.feed(encode(Frame(MsgType.ACK, 0, b"\x05", version=3))) == []
    assert decoder.dropped["version"] == 1


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        (0x55, b""),  # unknown type
        (MsgType.ACK, b""),  # wrong size
        (MsgType.BUTTON_DOWN, b"\x09\x01"),  # seat 9
        (MsgType.BUTTON_DOWN, b"\x01\x0e"),  # button 14
        (MsgType.LAMP, b"\x01\x01\x03"),  # lamp state 3
        (MsgType.KEY, b"\x03\x01"),  # key 3
        (MsgType.DOOR, b"\x01\x02"),  # door state 2
        (MsgType.HOST_HELLO, b"\x01\x00\x00\x00\x00"),  # session 0
        (MsgType.HELLO, b"\x01\x00\x01\x00\x00\x00\x00\x00"),  # 0 seats
    ],
)
def test_bad_messages_are_refused(kind: int, payload: bytes) -> None:
    with pytest.raises(MessageError):
        decode_message(kind, payload)


def test_messages_check_their_fields() -> None:
    with pytest.raises(ValueError):
        ButtonPressed(0, "start")
    with pytest.raises(ValueError):
        ButtonPressed(1, "hit")
    with pytest.raises(ValueError):
        KeySwitch("manager", True)
    with pytest.raises(ValueError):
        SetSeatLamps(1, (LampState.ON,))
    with pytest.raises(ValueError):
        Frame(0x10, 1, bytes(MAX_PAYLOAD + 1))
