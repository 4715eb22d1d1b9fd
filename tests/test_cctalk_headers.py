"""Data formats of the headers the cabinet uses, pinned to the specification's text."""

from __future__ import annotations

import pytest

from hardware.cctalk.codec import decode
from hardware.cctalk.headers import (
    BufferedCredit,
    CoinEvent,
    HopperFlags,
    HopperStatus,
    coin_error_name,
    decode_coin_id,
    decode_inhibits,
    decode_uint,
    dispense_with_serial,
    dispense_without_encryption,
    encode_coin_id,
    encode_inhibits,
    encode_master_inhibit,
    encode_uint,
    new_event_count,
    next_counter,
    split_dispense,
)


def b(text: str) -> bytes:
    return bytes(int(x) for x in text.split())


@pytest.mark.parametrize(
    "now, last, new", [(23, 23, 0), (104, 102, 2), (1, 255, 1), (3, 253, 5), (54, 48, 6), (5, 0, 5)]
)
def test_new_event_count_follows_the_examples_of_header_229(now, last, new):
    assert new_event_count(last, now) == new


def test_event_counter_wraps_from_255_to_1_never_0():
    assert next_counter(0) == 1
    assert next_counter(254) == 255
    assert next_counter(255) == 1


def test_229_replies_of_appendix_11_decode_newest_first():
    reply = decode(b("1 11 2 0 4 0 1 5 5 1 5 1 5 0 0 215"))
    credit = BufferedCredit.decode(reply.data)
    assert credit.counter == 4
    assert credit.events[0] == CoinEvent(0, 1)  # newest: reject coin
    assert credit.events[1] == CoinEvent(5, 5)  # coin 5 (token) to sorter path 5
    assert credit.events[3].is_credit and credit.events[3].position == 1
    assert credit.events[4].is_null
    assert credit.encode() == reply.data


def test_hopper_status_is_counter_remaining_paid_unpaid():
    st = HopperStatus.decode(bytes((7, 3, 12, 0)))
    assert (st.counter, st.remaining, st.paid, st.unpaid) == (7, 3, 12, 0)
    assert st.encode() == bytes((7, 3, 12, 0))


def test_hopper_flags_names_blocking_and_fault():
    flags = HopperFlags.decode(bytes((0b1000_0010,)))  # SCH1: one register
    assert flags.active == ("payout timeout occurred", "payout disabled")
    assert flags.blocking == ()
    assert flags.fault_name() == "empty"
    jam = HopperFlags(0, 1 << 4, 0)
    assert jam.blocking == ("motor reverse limit reached",) and jam.fault_name() == "jam"
    assert HopperFlags(1 << 5).fault_name() == "fraud"
    cut = HopperFlags.decode(bytes((0, 0, 1)))
    assert cut.power_down_during_payout and cut.fault_name() == "power cut" and cut.blocking
    assert HopperFlags(0x40 | 0x80).fault_name() is None  # power-up and disabled: no fault


def test_dispense_security_in_serial_number_mode_is_the_serial_lsb_first_then_n():
    assert dispense_with_serial(12_345_678, 10) == b("78 97 188 10")
    assert split_dispense(b("78 97 188 10")) == (b("78 97 188"), 10)


def test_dispense_security_without_encryption_is_eight_bytes_then_n():
    data = dispense_without_encryption(bytes(range(8)), 255)
    assert len(data) == 9 and data[-1] == 255
    with pytest.raises(ValueError):
        dispense_without_encryption(b"short", 1)
    with pytest.raises(ValueError):
        dispense_with_serial(1, 0)
    with pytest.raises(ValueError):
        dispense_with_serial(1, 256)


def test_three_byte_counts_are_lsb_first():
    assert encode_uint(12_345_678) == b("78 97 188")
    assert decode_uint(b("78 97 188")) == 12_345_678
    with pytest.raises(ValueError):
        encode_uint(1 << 24)


def test_coin_ids_are_six_characters_padded_with_dots():
    assert encode_coin_id("EU100A") == b"EU100A"
    assert encode_coin_id(None) == b"......"
    assert decode_coin_id(b("71 66 50 48 48 65")) == "GB200A"  # appendix 11
    assert decode_coin_id(b"......") is None


def test_inhibit_mask_bit_per_position_and_master_bit_0():
    assert encode_inhibits({1, 2, 9}) == bytes((0b11, 0b1))
    assert decode_inhibits(bytes((0b11, 0b1))) == {1, 2, 9}
    assert encode_master_inhibit(True) == b"\x01" and encode_master_inhibit(False) == b"\x00"


def test_coin_error_names_come_from_table_2():
    assert coin_error_name(14) == "credit sensor blocked"
    assert coin_error_name(17) == "coin going backwards"
    assert coin_error_name(20) == "coin on string mechanism activated"
    assert coin_error_name(130) == "inhibited coin (type 3)"
