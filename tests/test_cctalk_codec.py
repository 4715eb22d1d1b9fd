"""ccTalk framing against the specification's own worked examples, and the parser's rules."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.cctalk.codec import (
    Checksum,
    Discarded,
    Frame,
    FrameError,
    FrameParser,
    Received,
    checksum8,
    crc16,
    decode,
    encode,
)


def b(text: str) -> bytes:
    return bytes(int(x) for x in text.split())


# --- checksum and CRC: part 1 sections 7.10-7.12, part 3 appendix 9, part 4 FAQ 1.1.30/31 -----


def test_request_serial_number_example_encodes_as_in_part_1_section_7_12():
    assert encode(Frame(dest=2, header=242)) == b("2 0 1 242 11")


def test_serial_number_reply_example_decodes_to_12345678():
    frame = decode(b("1 3 2 0 78 97 188 143"))
    assert frame == Frame(dest=1, header=0, data=b("78 97 188"), src=2)
    assert int.from_bytes(frame.data, "little") == 12_345_678


def test_simple_checksum_example_1_0_2_0_gives_253():
    assert checksum8(b("1 0 2 0")) == 253


def test_faq_inhibit_example_checksum_is_22():
    assert encode(Frame(dest=2, header=231, data=b("255 255"))) == b("2 2 1 231 255 255 22")


def test_expansion_header_examples_of_section_15_are_valid_packets():
    assert decode(b("2 1 1 100 255 153")).data == b"\xff"
    assert decode(b("1 8 2 0 49 50 51 52 53 54 55 56 81")).data == b"12345678"


def test_crc_reset_device_vector_of_appendix_9():
    assert crc16(b("40 0 1")) == 0x3F46
    assert crc16(b("1 0 0")) == 0x3730
    assert encode(Frame(dest=40, header=1), Checksum.CRC16) == b("40 0 70 1 63")
    assert encode(Frame(dest=1, header=0, src=None), Checksum.CRC16) == b("1 0 48 0 55")
    assert decode(b("1 0 48 0 55"), Checksum.CRC16) == Frame(dest=1, header=0, src=None)


def test_crc_simple_poll_vector_of_faq_1_1_31():
    assert encode(Frame(dest=40, header=254), Checksum.CRC16) == b("40 0 182 254 33")


@pytest.mark.parametrize(
    "data, crc",
    [
        ("49 D5 F2", 0xA6B3),
        ("2F BD 9D", 0x90B2),
        ("D9 53 D1", 0x7BB5),
        ("70 B8 D9 64 04 15", 0xFB00),
        ("72 61 B9 4E D0 78", 0x93E3),
        ("63 FA D1 9F E6 19", 0x5BB3),
    ],
)
def test_crc_verification_data_of_appendix_9(data, crc):
    assert crc16(bytes.fromhex(data)) == crc


# Part 3, appendix 11: a whole coin acceptor session, every line a valid packet.
APPENDIX_11 = [
    ("2 0 1 254 255", "1 0 2 0 253"),
    ("2 0 1 245 8", "1 13 2 0 67 111 105 110 32 65 99 99 101 112 116 111 114 22"),
    ("2 0 1 244 9", "1 4 2 0 83 82 53 105 182"),
    ("2 0 1 192 61", "1 8 2 0 83 84 68 48 49 32 32 32 73"),
    ("2 0 1 246 7", "1 14 2 0 77 111 110 101 121 32 67 111 110 116 114 111 108 115 115"),
    ("2 0 1 242 11", "1 3 2 0 78 97 188 143"),
    ("2 0 1 241 12", "1 12 2 0 67 82 83 45 70 49 45 86 49 46 48 57 26"),
    ("2 0 1 4 249", "1 3 2 0 1 4 2 243"),
    ("2 1 1 184 1 67", "1 6 2 0 71 66 50 48 48 65 155"),
    ("2 1 1 184 5 63", "1 6 2 0 84 111 107 101 110 32 214"),
    ("2 1 1 184 7 61", "1 6 2 0 46 46 46 46 46 46 227"),
    ("2 2 1 231 255 255 22", "1 0 2 0 253"),
    ("2 0 1 229 24", "1 11 2 0 1 1 5 0 0 0 0 0 0 0 0 235"),
    ("2 0 1 229 24", "1 11 2 0 4 0 1 5 5 1 5 1 5 0 0 215"),
]


@pytest.mark.parametrize("tx, rx", APPENDIX_11)
def test_appendix_11_session_packets_decode_and_reencode(tx, rx):
    for raw in (b(tx), b(rx)):
        frame = decode(raw)
        assert encode(frame) == raw
    assert decode(b(rx)).src == 2 and decode(b(tx)).dest == 2


def test_category_reply_of_appendix_11_reads_coin_acceptor():
    assert decode(b(APPENDIX_11[1][1])).data == b"Coin Acceptor"


def test_decode_rejects_bad_checksum_and_wrong_length():
    with pytest.raises(FrameError):
        decode(b("2 0 1 242 12"))
    with pytest.raises(FrameError):
        decode(b("2 1 1 242 11"))
    with pytest.raises(FrameError):
        decode(b("1 0 48 0 56"), Checksum.CRC16)


# --- the parser -----------------------------------------------------------------------------


def frames_of(events):
    return [e.frame for e in events if isinstance(e, Received)]


def test_parser_assembles_a_packet_delivered_byte_by_byte():
    parser = FrameParser()
    out = []
    for i, byte in enumerate(b("1 3 2 0 78 97 188 143")):
        out += parser.feed(bytes((byte,)), now=i * 0.001)
    assert frames_of(out) == [decode(b("1 3 2 0 78 97 188 143"))]


def test_parser_skips_garbage_before_a_packet():
    events = FrameParser().feed(b("7 1 1") + b("1 0 2 0 253"), now=0)
    assert frames_of(events) == [Frame(dest=1, header=0, src=2)]
    assert events[0] == Discarded(b("7 1 1"), "checksum")


def test_garbage_announcing_a_long_packet_hides_what_follows_until_the_pause():
    """Byte counting (part 4, FAQ 1.1.33): only the 50 ms pause resynchronises."""
    parser = FrameParser()
    assert parser.feed(b("7 200 9") + b("1 0 2 0 253"), now=0) == []
    assert frames_of(parser.feed(b("1 0 2 0 253"), now=0.1)) == [Frame(dest=1, header=0, src=2)]


def test_a_receiver_that_knows_the_longest_packet_skips_such_garbage_at_once():
    events = FrameParser(max_data=16).feed(b("7 200 200") + b("1 0 2 0 253"), now=0)
    assert frames_of(events) == [Frame(dest=1, header=0, src=2)]
    assert events[0].reason == "length"


def test_parser_resyncs_after_a_corrupted_packet_followed_by_a_good_one():
    bad = bytearray(b("1 3 2 0 78 97 188 143"))
    bad[5] ^= 0x40
    parser = FrameParser()
    assert frames_of(parser.feed(bytes(bad), 0.0)) == []
    later = parser.feed(b("1 0 2 0 253"), 0.1)  # after a pause: the stale bytes go
    assert frames_of(later) == [Frame(dest=1, header=0, src=2)]
    assert Discarded in {type(e) for e in later}


def test_parser_resets_after_more_than_50_ms_between_bytes():
    parser = FrameParser()
    assert parser.feed(b("1 3 2 0 78"), now=1.000) == []
    events = parser.feed(b("1 0 2 0 253"), now=1.051)
    assert events[0] == Discarded(b("1 3 2 0 78"), "gap")
    assert frames_of(events) == [Frame(dest=1, header=0, src=2)]


def test_parser_keeps_a_packet_whose_bytes_are_50_ms_apart_or_less():
    parser = FrameParser()
    parser.feed(b("1 0"), now=0.0)
    assert frames_of(parser.feed(b("2 0 253"), now=0.050)) == [Frame(dest=1, header=0, src=2)]


def test_the_short_229_reply_misprinted_in_appendix_11_is_dropped_at_the_next_pause():
    """Appendix 11 prints one 229 reply a byte short; a receiver must not hang on it."""
    parser = FrameParser()
    assert frames_of(parser.feed(b("1 11 2 0 0 0 0 0 0 0 0 0 0 0 242"), 0.0)) == []
    good = b("1 11 2 0 0 0 0 0 0 0 0 0 0 0 0 242")
    events = parser.feed(good, 0.2)
    assert frames_of(events) == [decode(good)]


def test_parser_drops_the_senders_own_echo():
    parser = FrameParser()
    parser.expect_echo(b("2 0 1 242 11"))
    events = parser.feed(b("2 0 1 242 11") + b("1 3 2 0 78 97 188 143"), 0.0)
    assert frames_of(events) == [decode(b("1 3 2 0 78 97 188 143"))]
    assert not any(isinstance(e, Discarded) for e in events)


def test_parser_expecting_an_echo_that_never_comes_still_sees_the_reply():
    parser = FrameParser()
    parser.expect_echo(b("2 0 1 242 11"))
    assert frames_of(parser.feed(b("1 0 2 0 253"), 0.0)) == [Frame(dest=1, header=0, src=2)]


def test_parser_reports_a_damaged_echo():
    parser = FrameParser()
    parser.expect_echo(b("2 0 1 242 11"))
    events = parser.feed(b("2 0 9 242 11"), 0.0)
    assert Discarded(b("2 0"), "echo") in events
    assert frames_of(events) == []


def test_crc_parser_finds_crc_packets_and_ignores_sum8_ones():
    parser = FrameParser(Checksum.CRC16, max_data=16)
    events = parser.feed(b("1 0 2 0 253") + b("1 0 48 0 55"), 0.0)
    assert frames_of(events) == [Frame(dest=1, header=0, src=None)]


frames = st.builds(
    Frame,
    dest=st.integers(0, 255),
    header=st.integers(0, 255),
    data=st.binary(max_size=20),
    src=st.integers(0, 255),
)


@settings(max_examples=200, deadline=None)
@given(frame=frames, checksum=st.sampled_from(list(Checksum)))
def test_encode_then_decode_is_the_identity(frame, checksum):
    raw = encode(frame, checksum)
    crc_frame = Frame(frame.dest, frame.header, frame.data, None)
    expected = frame if checksum is Checksum.SUM8 else crc_frame
    assert decode(raw, checksum) == expected
    assert len(raw) == len(frame.data) + 5


@settings(max_examples=200, deadline=None)
@given(packets=st.lists(frames, min_size=1, max_size=6), cuts=st.lists(st.integers(0, 200)))
def test_how_the_stream_is_cut_into_reads_does_not_change_the_packets(packets, cuts):
    stream = b"".join(encode(f) for f in packets)
    points = sorted({c % (len(stream) + 1) for c in cuts} | {0, len(stream)})
    parser = FrameParser()
    out = []
    for lo, hi in itertools.pairwise(points):
        out += parser.feed(stream[lo:hi], now=0.0)
    assert frames_of(out) == packets


@settings(max_examples=200, deadline=None)
@given(frame=frames, index=st.integers(0, 1000), flip=st.integers(1, 255))
def test_any_single_byte_error_is_caught_by_both_checksums(frame, index, flip):
    for checksum in Checksum:
        raw = bytearray(encode(frame, checksum))
        raw[index % len(raw)] ^= flip
        with pytest.raises(FrameError):
            decode(bytes(raw), checksum)
