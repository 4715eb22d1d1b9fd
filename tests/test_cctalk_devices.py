"""The simulated devices and bus, driven with raw packets as a host would send them."""

from __future__ import annotations

import pytest

from hardware.cctalk.codec import Checksum, Frame, decode, encode
from hardware.cctalk.headers import (
    BufferedCredit,
    CoinEvent,
    Header,
    HopperFlags,
    HopperStatus,
)
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimHopper


def b(text: str) -> bytes:
    return bytes(int(x) for x in text.split())


class Wire:
    """Send packets to a simulated bus and read back the decoded replies."""

    def __init__(self, *devices, checksum=Checksum.SUM8, echo=False):
        self.bus = SimulatedBus(devices, checksum=checksum, echo=echo)
        self.checksum = checksum
        self.now = 0.0

    def raw(self, data: bytes, at: float | None = None):
        self.now = self.now + 1.0 if at is None else at
        return self.bus.receive(data, self.now)

    def ask(self, dest, header, data=b"", at=None):
        out = self.raw(encode(Frame(dest, header, bytes(data)), self.checksum), at)
        if not out:
            return None
        assert len(out) == 1
        return decode(out[0].data, self.checksum)


@pytest.fixture
def acceptor():
    return SimCoinAcceptor(2, serial=12_345_678, coins={1: "GB200A", 2: "GB100A"})


@pytest.fixture
def hopper():
    return SimHopper(3, serial=0x0A0B0C, level=50, speed=10.0)


def test_serial_number_request_gets_the_reply_of_part_1_section_7_12(acceptor):
    out = Wire(acceptor).raw(b("2 0 1 242 11"))
    assert out[0].data == b("1 3 2 0 78 97 188 143")


def test_simple_poll_and_category_as_in_appendix_11(acceptor):
    wire = Wire(acceptor)
    assert wire.raw(b("2 0 1 254 255"))[0].data == b("1 0 2 0 253")
    reply = wire.raw(b("2 0 1 245 8"))[0].data
    assert reply == b("1 13 2 0 67 111 105 110 32 65 99 99 101 112 116 111 114 22")


def test_no_reply_to_a_bad_checksum_an_unknown_header_or_a_wrong_length(acceptor):
    wire = Wire(acceptor)
    assert wire.raw(b("2 0 1 242 12")) == []
    assert wire.ask(2, 150) is None  # bill validator header
    assert wire.ask(2, Header.SERIAL_NUMBER, b"\x00") is None
    assert wire.ask(2, Header.DISPENSE, b("1 2 3 4")) is None  # an acceptor cannot pay
    assert wire.ask(7, Header.SIMPLE_POLL) is None  # nobody there


def test_replies_in_crc_mode_go_to_address_1_with_the_crc(hopper):
    wire = Wire(hopper, checksum=Checksum.CRC16)
    out = wire.raw(encode(Frame(3, Header.SIMPLE_POLL), Checksum.CRC16))
    assert decode(out[0].data, Checksum.CRC16) == Frame(1, 0, b"", None)
    assert wire.raw(b("3 0 1 254 254")) == []  # a sum8 packet means nothing on a CRC bus


def test_echo_returns_the_hosts_bytes_before_the_reply(acceptor):
    out = Wire(acceptor, echo=True).raw(b("2 0 1 242 11"))
    assert [t.data for t in out] == [b("2 0 1 242 11"), b("1 3 2 0 78 97 188 143")]


def test_a_request_split_by_a_pause_over_50_ms_is_dropped(acceptor):
    wire = Wire(acceptor)
    assert wire.raw(b("2 0 1"), at=1.0) == []
    assert wire.raw(b("242 11"), at=1.06) == []
    assert wire.raw(b("2 0 1 242 11"), at=2.0) != []


# --- coin acceptor ------------------------------------------------------------------------------


def read229(wire):
    return BufferedCredit.decode(wire.ask(2, Header.READ_BUFFERED_CREDIT).data)


def test_acceptor_powers_up_inhibited_with_counter_0(acceptor):
    wire = Wire(acceptor)
    assert read229(wire) == BufferedCredit(0, (CoinEvent(0, 0),) * 5)
    assert acceptor.insert("GB200A") == CoinEvent(0, 2)  # inhibited coin
    assert read229(wire).counter == 1


def test_acceptor_credits_enabled_coins_and_rejects_unknown_ones(acceptor):
    wire = Wire(acceptor)
    assert wire.ask(2, Header.MODIFY_INHIBIT, b("255 255")).data == b""
    assert wire.ask(2, Header.MODIFY_MASTER_INHIBIT, b"\x01").data == b""
    acceptor.insert("GB100A")
    acceptor.insert("XX999A")
    reading = read229(wire)
    assert reading.counter == 2
    assert reading.events[:2] == (CoinEvent(0, 1), CoinEvent(2, 0))
    assert decode_coin(wire, 1) == "GB200A" and decode_coin(wire, 3) == "......"


def decode_coin(wire, pos):
    return wire.ask(2, Header.COIN_ID, bytes((pos,))).data.decode()


def test_acceptor_buffer_keeps_five_events_and_counter_wraps_to_1(acceptor):
    wire = Wire(acceptor)
    for code in range(1, 261):
        acceptor.error(code % 250 + 1)
    reading = read229(wire)
    assert reading.counter == 260 - 255  # 255 -> 1, never 0
    assert len(reading.events) == 5 and reading.events[0] == CoinEvent(0, 260 % 250 + 1)


def test_acceptor_reset_sets_counter_to_0_and_inhibits_everything(acceptor):
    wire = Wire(acceptor)
    wire.ask(2, Header.MODIFY_MASTER_INHIBIT, b"\x01")
    acceptor.error(14)
    assert wire.ask(2, Header.RESET_DEVICE).data == b""
    assert read229(wire).counter == 0
    assert wire.ask(2, Header.REQUEST_MASTER_INHIBIT).data == b"\x00"


# --- hopper -------------------------------------------------------------------------------------

SERIAL = b("12 11 10")


def status(wire, at=None):
    return HopperStatus.decode(wire.ask(3, Header.HOPPER_STATUS, at=at).data)


def test_hopper_refuses_to_dispense_until_enabled(hopper):
    wire = Wire(hopper)
    assert wire.ask(3, Header.DISPENSE, SERIAL + b"\x05").header == Header.NAK
    assert HopperFlags.decode(wire.ask(3, Header.TEST_HOPPER).data).is_set(1, 7)
    assert wire.ask(3, Header.ENABLE_HOPPER, b"\xa5").data == b""
    assert wire.ask(3, Header.DISPENSE, SERIAL + b"\x05").data == b"\x01"


def test_hopper_pays_at_its_dispense_speed(hopper):
    wire = Wire(hopper)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5", at=10.0)
    assert wire.ask(3, Header.DISPENSE, SERIAL + b"\x05", at=10.0).data == b"\x01"
    assert status(wire, at=10.25) == HopperStatus(1, 3, 2, 0)  # 10 coins/s: 2 out
    assert status(wire, at=10.5) == HopperStatus(1, 0, 5, 0)
    assert wire.ask(3, Header.DISPENSE_COUNT, at=11).data == b("5 0 0")
    assert hopper.level == 45 and hopper.left == 5


def test_hopper_wrong_serial_is_nak_and_sets_the_cipher_flag(hopper):
    wire = Wire(hopper)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5")
    assert wire.ask(3, Header.DISPENSE, b("12 11 11 5")).header == Header.NAK
    flags = HopperFlags.decode(wire.ask(3, Header.TEST_HOPPER).data)
    assert "incorrect cipher key" in flags.active and flags.blocking
    assert hopper.left == 0


def test_hopper_without_encryption_needs_a_cipher_key_request_first():
    hopper = SimHopper(3, security="none")
    wire = Wire(hopper)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5")
    key = wire.ask(3, Header.CIPHER_KEY).data
    assert len(key) == 8
    assert wire.ask(3, Header.DISPENSE, bytes(8) + b"\x02").data == b"\x01"
    wire.raw(b"", at=100)
    hopper.advance(100)
    assert wire.ask(3, Header.DISPENSE, bytes(8) + b"\x02").header == Header.NAK  # key used up


def test_emergency_stop_reports_unpaid_coins(hopper):
    wire = Wire(hopper)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5", at=0)
    wire.ask(3, Header.DISPENSE, SERIAL + b"\x0a", at=0)
    assert wire.ask(3, Header.EMERGENCY_STOP, at=0.35).data == b"\x07"
    assert status(wire, at=5) == HopperStatus(1, 0, 3, 7)


def test_power_cut_mid_payout_keeps_paid_and_unpaid_and_sets_the_flag(hopper):
    wire = Wire(hopper)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5", at=0)
    wire.ask(3, Header.DISPENSE, SERIAL + b"\x0a", at=0)
    hopper.power_off(0.45)
    assert wire.ask(3, Header.HOPPER_STATUS, at=1) is None
    hopper.power_on(2.0)
    assert status(wire, at=2.1) == HopperStatus(0, 0, 4, 6)
    flags = HopperFlags.decode(wire.ask(3, Header.TEST_HOPPER, at=2.2).data)
    assert flags.power_down_during_payout and flags.is_set(1, 6) and flags.is_set(1, 7)
    assert wire.ask(3, Header.DISPENSE_COUNT, at=2.3).data == b("4 0 0")


@pytest.mark.parametrize(
    "kind, after, paid, flag",
    [("jam", 3, 3, (2, 4)), ("opto", 2, 2, (1, 5)), ("empty", 4, 4, (1, 1))],
)
def test_mechanical_faults_stop_the_payout_with_their_flag(hopper, kind, after, paid, flag):
    wire = Wire(hopper)
    hopper.inject(kind, after, 0)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5", at=0)
    wire.ask(3, Header.DISPENSE, SERIAL + b"\x0a", at=0)
    assert status(wire, at=5) == HopperStatus(1, 0, paid, 10 - paid)
    assert HopperFlags.decode(wire.ask(3, Header.TEST_HOPPER, at=5).data).is_set(*flag)
    assert hopper.left == paid


def test_extra_coin_is_counted_and_runaway_is_not(hopper):
    wire = Wire(hopper)
    hopper.inject("extra", None, 0)
    wire.ask(3, Header.ENABLE_HOPPER, b"\xa5", at=0)
    wire.ask(3, Header.DISPENSE, SERIAL + b"\x03", at=0)
    assert status(wire, at=1) == HopperStatus(1, 0, 4, 0)
    hopper.inject("runaway", None, 1)
    wire.ask(3, Header.DISPENSE, SERIAL + b"\x03", at=1)
    assert status(wire, at=1.95) == HopperStatus(2, 0, 3, 0)
    assert hopper.left == 4 + 3 + 6  # the motor ran on for 0.6 s
    assert wire.ask(3, Header.EMERGENCY_STOP, at=2.05).data == b"\x00"
    assert hopper.left == 4 + 3 + 7
    wire.raw(b"", at=9)
    hopper.advance(9)
    assert hopper.left == 14


# --- the minimum command set of part 3, Appendix 13 -----------------------------------------

ACCEPTOR_MINIMUM = (254, 246, 245, 244, 242, 241, 232, 231, 230, 229, 228, 227, 216, 197, 192, 184, 4, 1)
HOPPER_MINIMUM = (254, 246, 245, 244, 242, 241, 217, 216, 192, 172, 171, 168, 167, 166, 164, 163, 4, 1)
REQUEST_DATA = {231: b"\xff\xff", 228: b"\x01", 184: b"\x01", 164: b"\xa5", 167: b("12 11 10 1")}


@pytest.mark.parametrize("header", ACCEPTOR_MINIMUM)
def test_the_acceptor_answers_every_header_of_its_minimum_set(acceptor, header):
    reply = Wire(acceptor).ask(2, header, REQUEST_DATA.get(header, b""))
    assert reply is not None and reply.header == Header.REPLY


@pytest.mark.parametrize("header", HOPPER_MINIMUM)
def test_the_hopper_answers_every_header_of_its_minimum_set(hopper, header):
    wire = Wire(hopper)
    if header == Header.DISPENSE:
        wire.ask(3, Header.ENABLE_HOPPER, b"\xa5")
    reply = wire.ask(3, header, REQUEST_DATA.get(header, b""))
    assert reply is not None and reply.header == Header.REPLY


def test_232_self_check_reports_the_fault_code_and_its_extra_byte(acceptor):
    wire = Wire(acceptor)
    assert wire.ask(2, Header.SELF_CHECK).data == b"\x00"  # Table 3: 0, no fault
    acceptor.fault = 3  # fault on credit sensor
    assert wire.ask(2, Header.SELF_CHECK).data == b"\x03"
    acceptor.fault, acceptor.fault_info = 2, 4  # fault on inductive coil 4
    assert wire.ask(2, Header.SELF_CHECK).data == b"\x02\x04"


def test_216_says_no_data_storage_is_offered(acceptor, hopper):
    wire = Wire(acceptor, hopper)
    for address in (2, 3):
        # memory type 0, and 0 bytes per read and per write block: no service
        assert wire.ask(address, Header.DATA_STORAGE).data == bytes(5)


def test_197_rom_checksum_is_four_bytes_lsb_first(acceptor):
    acceptor.rom_checksum = 0x12345678
    assert Wire(acceptor).ask(2, Header.ROM_CHECKSUM).data == b("120 86 52 18")


def test_192_build_code_is_ascii(acceptor, hopper):
    hopper.build = "HOP-B7"
    wire = Wire(acceptor, hopper)
    assert wire.ask(2, Header.BUILD_CODE).data == b"SIM00001"
    assert wire.ask(3, Header.BUILD_CODE).data == b"HOP-B7"


def test_217_level_status_follows_the_coins_in_the_hopper(hopper):
    wire = Wire(hopper)
    hopper.low_level, hopper.high_level = 20, 100
    hopper.level = 50  # between the two: both sensors fitted (bits 4, 5), neither tripped
    assert wire.ask(3, Header.PAYOUT_LEVEL_STATUS).data == bytes((0x30,))
    hopper.level = 19
    assert wire.ask(3, Header.PAYOUT_LEVEL_STATUS).data == bytes((0x31,))
    hopper.level = 100
    assert wire.ask(3, Header.PAYOUT_LEVEL_STATUS, b"\x01").data == bytes((0x32,))  # format (b)
    hopper.low_level = hopper.high_level = None
    assert wire.ask(3, Header.PAYOUT_LEVEL_STATUS).data == b"\x00"  # no sensors fitted
