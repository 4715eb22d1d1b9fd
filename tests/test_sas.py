"""The SAS machine side as a host sees it: CRC, BCD, framing, the general poll, the chirp and the
meter long polls, byte for byte."""

from __future__ import annotations

from datetime import datetime

import pytest

from hardware.sas.codec import bcd, crc16_kermit, crc_ok, from_bcd, with_crc
from hardware.sas.machine import (
    OVERFLOW,
    QUEUE_SIZE,
    BadCrc,
    HandpayReset,
    SasMachine,
    SetClock,
    Shutdown,
    Startup,
)
from hardware.sas.source import BaseMeterSource, Handpay


class Meters(BaseMeterSource):
    def __init__(self) -> None:
        self.pending = False
        self.owed: Handpay | None = None
        self.computing = False
        self.values = {"coin_in": 12345678, "coin_out": 2500, "drop": 400, "cancelled": 90,
                       "games_played": 77, "games_won": 30, "games_lost": 47, "credits": 1234,
                       "jackpot": 0, "games_since_power_up": 5, "games_since_door": 3,
                       "true_coin_in": 350, "true_coin_out": 41}

    def meter(self, name: str, game: int = 0) -> int:
        return self.values.get(name, 0) + (1000 * game if game else 0)

    def games(self) -> tuple[int, ...]:
        return (1, 2)

    def selected_game(self) -> int:
        return 2

    def serial_number(self) -> str:
        return "AB12"

    def clock(self) -> datetime:
        return datetime(2026, 12, 1, 23, 7, 5)

    def handpay_pending(self) -> bool:
        return self.pending

    def handpay(self) -> Handpay | None:
        return self.owed

    def rom_signature(self, seed: int) -> int | None:
        return None if self.computing else crc16_kermit(seed.to_bytes(2, "little") + b"program")


def _bitwise_kermit(data: bytes) -> int:  # an independent, table-free computation
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


def test_crc_matches_the_issue_vector_and_a_bitwise_computation() -> None:
    assert with_crc(bytes.fromhex("01210000")) == bytes.fromhex("012100005c45")
    assert crc16_kermit(b"123456789") == 0x2189  # the catalogue check value of CRC-16/KERMIT
    for sample in (b"\x01\x1a", b"\x05\x2f\x05\x00\x01\x00\x0c", bytes(range(256))):
        assert crc16_kermit(sample) == _bitwise_kermit(sample)
    assert crc_ok(bytes.fromhex("012100005c45"))
    assert not crc_ok(bytes.fromhex("012100005c46"))


def test_bcd_packs_eight_and_ten_digits() -> None:
    assert bcd(12345678, 4) == bytes.fromhex("12345678")
    assert bcd(9876543210, 5) == bytes.fromhex("9876543210")
    assert bcd(7, 4) == bytes.fromhex("00000007")
    assert bcd(123456789, 4) == bytes.fromhex("23456789")  # rolls over as a meter does
    assert from_bcd(bytes.fromhex("00012345")) == 12345
    with pytest.raises(ValueError):
        from_bcd(b"\x1a")


def machine(address: int = 1) -> SasMachine:
    return SasMachine(address, Meters())


def test_general_poll_answers_priority_first_then_fifo_then_zero() -> None:
    m = machine()
    for code in (0x11, 0x12, 0x51):
        m.post_exception(code)
    answers = []
    for _ in range(4):
        m.receive_data(b"\x80\x81", 1.0)  # the global poll first: the last answer arrived
        answers.append(m.data_to_send())
    assert answers == [b"\x51", b"\x11", b"\x12", b"\x00"]


def test_a_full_queue_reports_the_overflow() -> None:
    m = machine()
    for _ in range(QUEUE_SIZE + 3):
        m.post_exception(0x7E)
    m.receive_data(b"\x81", 1.0)
    assert m.data_to_send() == bytes((OVERFLOW,))


def test_meter_polls_answer_in_bcd_with_crc() -> None:
    m = machine()
    m.receive_data(b"\x01\x1a", 1.0)
    assert m.data_to_send() == with_crc(bytes.fromhex("011a00001234"))
    m.receive_data(b"\x01\x11", 1.1)
    assert m.data_to_send() == with_crc(bytes.fromhex("011112345678"))
    m.receive_data(b"\x01\x0f", 1.2)
    assert m.data_to_send() == with_crc(bytes.fromhex("010f" "00000090" "12345678" "00002500"
                                                      "00000400" "00000000" "00000077"))
    m.receive_data(b"\x01\x18", 1.3)
    assert m.data_to_send() == with_crc(bytes.fromhex("011800050003"))
    m.receive_data(b"\x01\x33", 1.4)  # $5 bills: zero until there are notes
    assert m.data_to_send() == with_crc(bytes.fromhex("013300000000"))


def test_games_and_per_game_meters() -> None:
    m = machine()
    m.receive_data(b"\x01\x51", 1.0)
    assert m.data_to_send() == with_crc(bytes.fromhex("01510002"))
    m.receive_data(b"\x01\x56", 1.1)
    assert m.data_to_send() == with_crc(bytes.fromhex("0156050200010002"))
    m.receive_data(b"\x01\x55", 1.2)
    assert m.data_to_send() == with_crc(bytes.fromhex("01550002"))
    m.receive_data(with_crc(bytes.fromhex("01520002")), 1.3)
    assert m.data_to_send() == with_crc(bytes.fromhex("01520002" "12347678" "00004500" "00002000"
                                                      "00002077"))
    m.receive_data(with_crc(bytes.fromhex("01520009")), 1.4)  # no game 9: NACK
    assert m.data_to_send() == b"\x81"


def test_selected_meters_2f_skips_codes_it_does_not_keep() -> None:
    m = machine()
    m.receive_data(with_crc(bytes.fromhex("012f05" "0000" "0c" "99" "00")), 1.0)
    assert m.data_to_send() == with_crc(bytes.fromhex("012f0c" "0000" "0c00001234" "0012345678"))


def test_bad_crc_gets_silence_and_changes_nothing() -> None:
    m = machine()
    m.receive_data(bytes.fromhex("01010000"), 1.0)
    assert m.data_to_send() == b""
    assert isinstance(m.next_event(), BadCrc)
    assert m.next_event() is None
    m.receive_data(with_crc(b"\x01\x01"), 1.5)
    assert m.data_to_send() == b"\x01"
    assert m.next_event() == Shutdown()
    m.receive_data(with_crc(b"\x01\x02"), 1.6)
    assert m.data_to_send() == b"\x01" and m.next_event() == Startup()


def test_noise_global_polls_and_other_addresses_are_passed_over() -> None:
    m = machine(address=5)
    # a global poll before ours, another machine's poll, another address's long poll whose
    # bytes hold our general poll and our address, then ours
    m.receive_data(b"\x80\x83" + with_crc(bytes.fromhex("0352" "0085")) + b"\x85", 1.0)
    assert m.data_to_send() == b"\x00"
    m.receive_data(b"\x05\xee\x05\x1a", 1.1)  # noise: an unknown command, then a gap
    assert m.data_to_send() == b""
    m.receive_data(b"\x05\x1a", 1.5)
    assert m.data_to_send() == with_crc(bytes.fromhex("051a00001234"))


def test_a_gap_inside_a_frame_drops_it() -> None:
    m = machine()
    m.receive_data(b"\x01\x52\x00", 1.0)
    m.receive_data(b"\x81", 2.0)  # the host gave up on the frame and polls again
    assert m.data_to_send() == b"\x00"


def test_wakeup_bit_frames_where_the_link_reports_it() -> None:
    m = machine()
    # a data byte 0x81 in idle without wakeup is not a poll; with wakeup it is
    m.receive_data(b"\x81", 1.0, wakeup=[False])
    assert m.data_to_send() == b""
    # a wakeup byte in the middle of a frame starts a new one
    m.receive_data(b"\x01\x52\x01\x1a", 1.0, wakeup=[True, False, True, False])
    assert m.data_to_send() == with_crc(bytes.fromhex("011a00001234"))


def test_chirps_after_five_seconds_without_a_poll() -> None:
    m = machine(address=7)
    m.tick(4.9)
    assert m.data_to_send() == b""
    m.tick(5.0)
    m.tick(5.1)  # not yet 200 ms
    m.tick(5.2)
    assert m.data_to_send() == b"\x07\x07"
    assert not m.host_present
    m.receive_data(b"\x87", 5.3)
    assert m.data_to_send() == b"\x00" and m.host_present
    m.tick(6.0)
    assert m.data_to_send() == b""


def test_date_time_version_and_handpay_reset() -> None:
    source = Meters()
    m = SasMachine(1, source)
    m.receive_data(b"\x01\x7e", 1.0)
    assert m.data_to_send() == with_crc(bytes.fromhex("017e" "12012026" "230705"))
    m.receive_data(with_crc(bytes.fromhex("017f" "01312027" "085900")), 1.1)
    assert m.data_to_send() == b"\x01"
    assert m.next_event() == SetClock(datetime(2027, 1, 31, 8, 59, 0))
    m.receive_data(with_crc(bytes.fromhex("017f" "13312027" "085900")), 1.2)  # month 13
    assert m.data_to_send() == b"\x81" and m.next_event() is None
    m.receive_data(b"\x01\x54", 1.3)
    assert m.data_to_send() == with_crc(b"\x01\x54\x07602AB12")
    m.receive_data(with_crc(b"\x01\x94"), 1.4)  # no handpay pending
    assert m.data_to_send() == with_crc(b"\x01\x94\x02") and m.next_event() is None
    source.pending = True
    m.receive_data(b"\x81" + with_crc(b"\x01\x94"), 1.5)  # a general poll between: a new 94
    assert m.data_to_send() == b"\x00" + with_crc(b"\x01\x94\x00") and m.next_event() == HandpayReset()


def test_1b_reports_the_pending_handpay_and_zeros_without_one() -> None:
    source = Meters()
    m = SasMachine(1, source)
    m.receive_data(b"\x01\x1b", 1.0)  # type R: no CRC from the host
    assert m.data_to_send() == with_crc(b"\x01\x1b" + bytes(20))  # no handpay: all zeros
    source.owed = Handpay(1234567)
    m.receive_data(b"\x01\x1b", 1.1)
    # group 00, level 80 (cancelled credits), amount 5 BCD, partial pay 2 BCD, reset id 00, 10 unused
    assert m.data_to_send() == with_crc(bytes.fromhex("011b" "00" "80" "0001234567" "0000" "00") + bytes(10))
    source.owed = Handpay(250, level=0x40, progressive_group=3, partial_pay=12, reset_id=1)
    m.receive_data(b"\x01\x1b", 1.2)
    assert m.data_to_send() == with_crc(bytes.fromhex("011b" "03" "40" "0000000250" "0012" "01") + bytes(10))
    m.receive_data(b"\x02\x1b", 1.3)  # another machine's
    m.receive_data(b"\x01", 1.5)
    m.receive_data(b"\x1b", 1.7)  # its two bytes a gap apart: noise, not a poll
    assert m.data_to_send() == b"" and m.next_event() is None


def test_rom_signature_answered_at_once_or_acknowledged_and_delivered_later() -> None:
    source = Meters()
    m = SasMachine(1, source)
    m.receive_data(with_crc(bytes.fromhex("01213412")), 1.0)  # seed 0x1234, low byte first
    expected = crc16_kermit(b"\x34\x12program").to_bytes(2, "little")
    assert m.data_to_send() == with_crc(b"\x01\x21" + expected)
    source.computing = True
    m.receive_data(with_crc(bytes.fromhex("01213412")), 1.1)
    assert m.data_to_send() == b"\x01"  # acknowledged
    m.post_exception(0x11)
    m.receive_data(b"\x81", 1.2)
    assert m.data_to_send() == b"\x11"  # still computing: the queue as usual
    source.computing = False
    m.receive_data(b"\x80\x81\x80\x81", 1.3)
    assert m.data_to_send() == with_crc(b"\x01\x21" + expected) + b"\x00"
    m.receive_data(b"\x01\x20", 1.4)  # bills' value: zero until notes exist
    assert m.data_to_send() == with_crc(bytes.fromhex("012000000000"))


@pytest.mark.parametrize(("command", "data"), [
    (0x10, "00000090"), (0x12, "00002500"), (0x13, "00000400"), (0x14, "00000000"),
    (0x15, "00000077"), (0x16, "00000030"), (0x17, "00000047"),
    (0x19, "12345678" "00002500" "00000400" "00000000" "00000077"),
    (0x1E, "00000000" * 6), (0x31, "00000000"), (0x32, "00000000"), (0x34, "00000000"),
    (0x35, "00000000"), (0x36, "00000000"), (0x37, "00000000"),
    (0x2A, "00000350"), (0x2B, "00000041"),
])
def test_each_single_meter_poll(command: int, data: str) -> None:
    m = machine()
    m.receive_data(bytes((1, command)), 1.0)
    assert m.data_to_send() == with_crc(bytes((1, command)) + bytes.fromhex(data))


def test_an_implied_nack_gets_the_same_exception_and_an_implied_ack_the_next() -> None:
    m = SasMachine(2, Meters(), implied_nack=True)
    for code in (0x11, 0x12, 0x13, 0x14):
        m.post_exception(code)
    m.receive_data(b"\x82", 1.0)
    assert m.data_to_send() == b"\x11"
    m.receive_data(b"\x82", 1.1)  # the host polls again, nothing between: it did not get 11
    assert m.data_to_send() == b"\x11"
    m.receive_data(b"\x80\x82", 1.2)  # the global poll acknowledges
    assert m.data_to_send() == b"\x12"
    m.receive_data(b"\x02\x1a\x82", 1.3)  # so does a long poll
    assert m.data_to_send()[-1:] == b"\x13"
    m.receive_data(b"\x83\x82", 1.4)  # and a poll to another machine
    assert m.data_to_send() == b"\x14"
    for _ in range(3):  # a host that never acknowledges: the same answer three times at most
        m.receive_data(b"\x82", 1.5)
    m.post_exception(0x15)
    m.receive_data(b"\x82", 1.6)
    assert m.data_to_send() == b"\x14\x14\x00\x15"


def test_a_repeated_control_poll_is_answered_again_but_done_once() -> None:
    m = SasMachine(1, Meters(), implied_nack=True)
    shutdown = with_crc(b"\x01\x01")
    m.receive_data(shutdown + shutdown + shutdown, 1.0)  # sent, then repeated twice (NACKs)
    assert m.data_to_send() == b"\x01\x01\x01"
    assert m.next_event() == Shutdown() and m.next_event() is None
    m.receive_data(b"\x81" + shutdown, 1.1)  # after a general poll: a new 01
    assert m.data_to_send() == b"\x00\x01" and m.next_event() == Shutdown()
    m.receive_data(b"\x01\x1a\x01\x1a", 1.2)  # read polls are answered afresh each time
    assert m.data_to_send() == with_crc(bytes.fromhex("011a00001234")) * 2


def test_without_implied_nack_every_poll_is_answered_afresh() -> None:
    m = SasMachine(1, Meters())  # the default: a host that never acknowledges is served
    for code in (0x11, 0x12):
        m.post_exception(code)
    m.receive_data(b"\x81\x81\x81" + with_crc(b"\x01\x01") * 2, 1.0)
    assert m.data_to_send() == b"\x11\x12\x00\x01\x01"
    assert [m.next_event(), m.next_event(), m.next_event()] == [Shutdown(), Shutdown(), None]
