"""The remaining long polls of the Montana list, byte for byte: 0E and the real-time form, 1F,
46, 48, 53, 6F, 7B, A0 and the ticket polls 3D, 4C, 4D, 50 (with validation not configured, and
through a ticket validation as the voucher work will give one)."""

from __future__ import annotations

from datetime import datetime

from hardware.sas.codec import with_crc
from hardware.sas.machine import RealTimeReporting, SasMachine, game_ended_data, game_started_data
from hardware.sas.source import GameInfo, TicketValidation, Validation

from tests.test_sas import Meters


class Floor(Meters):
    """The fake source with the game information, a bill, an asset number."""

    def __init__(self) -> None:
        super().__init__()
        self.values.update({"bills_credits": 2500, "aft_in": 0, "aft_out": 0})
        self.aft = False
        self.ticketing: TicketValidation | None = None

    def game_info(self, game: int) -> GameInfo:
        return GameInfo(game_id="BJ" if game < 2 else "EE", max_bet=100 if game != 2 else 400,
                        paytable_id=f"RB{game:04d}", base_percent=9954)

    def last_bill(self) -> tuple[int, int, int]:
        return (0x01, 0x05, 3)

    def asset_number(self) -> int:
        return 0x01020304

    def tickets(self) -> TicketValidation | None:
        return self.ticketing

    def aft_enabled(self) -> bool:
        return self.aft


def ask(m: SasMachine, frame: bytes, at: float = 1.0) -> bytes:
    m.receive_data(frame, at)
    return m.data_to_send()


def test_real_time_event_reporting_0e() -> None:
    m = SasMachine(1, Floor(), implied_nack=True)
    assert ask(m, with_crc(bytes.fromhex("010e02"))) == b"\x81"  # only 00 and 01
    assert ask(m, with_crc(bytes.fromhex("010e01")), 1.1) == b"\x01"
    assert m.next_event() == RealTimeReporting(True)
    m.post_exception(0x7E, game_started_data(5, 12345678))
    m.post_exception(0x7F, game_ended_data(150))
    m.post_exception(0x11)
    m.post_exception(0x7F)  # no data given: zeros
    assert ask(m, b"\x80\x81", 1.2) == with_crc(bytes.fromhex("01ff7e" "0005" "12345678" "00" "00"))
    assert ask(m, b"\x81", 1.25) == with_crc(bytes.fromhex("01ff7e" "0005" "12345678" "00" "00"))  # NACK
    assert ask(m, b"\x80\x81", 1.3) == with_crc(bytes.fromhex("01ff7f" "00000150"))
    assert ask(m, b"\x80\x81", 1.4) == with_crc(bytes.fromhex("01ff11"))
    assert ask(m, b"\x80\x81", 1.5) == with_crc(bytes.fromhex("01ff7f" "00000000"))
    assert ask(m, b"\x80\x81", 1.6) == b"\x00"  # nothing queued: 00 as ever
    assert ask(m, with_crc(bytes.fromhex("010e00")), 1.7) == b"\x01"
    m.post_exception(0x7E, game_started_data(5, 1))
    assert ask(m, b"\x80\x81", 1.8) == b"\x7e"


def test_1f_gaming_machine_id_and_information() -> None:
    m = SasMachine(1, Floor())
    # game id BJ, additional id 000, denomination code 03 (10 cents), max bet 100, progressive
    # group 0, options 0000, paytable RB0000, base 99.54 %
    assert ask(m, b"\x01\x1f") == with_crc(
        b"\x01\x1f" + b"BJ" + b"000" + bytes((0x03, 100, 0)) + b"\x00\x00" + b"RB0000" + b"9954")


def test_53_game_n_configuration() -> None:
    m = SasMachine(1, Floor())
    assert ask(m, with_crc(bytes.fromhex("01530002"))) == with_crc(
        bytes.fromhex("01530002") + b"EE000" + bytes((0x03, 0xFF, 0)) + b"\x00\x00" + b"RB0002" + b"9954")
    assert ask(m, with_crc(bytes.fromhex("01530009")), 1.1) == b"\x81"  # no game 9
    assert ask(m, with_crc(bytes.fromhex("0153000a")), 1.2) == b"\x81"  # not BCD


def test_46_bill_credits_and_48_last_accepted_bill() -> None:
    m = SasMachine(1, Floor())
    assert ask(m, b"\x01\x46") == with_crc(bytes.fromhex("014600002500"))
    assert ask(m, b"\x01\x48", 1.1) == with_crc(bytes.fromhex("0148" "01" "05" "00000003"))


def test_6f_extended_meters_for_game_n() -> None:
    m = SasMachine(1, Floor())
    # game 1; coin in (0000), current credits (000C), a code this machine does not keep (1234)
    poll = with_crc(bytes.fromhex("016f08" "0001" "0000" "0c00" "3412"))
    assert ask(m, poll) == with_crc(bytes.fromhex(
        "016f15" "0001" "0000" "05" "0012346678" "0c00" "05" "0000002234" "3412" "00"))
    assert ask(m, with_crc(bytes.fromhex("016f05" "0000" "000000")), 1.1) == b"\x81"  # odd code bytes
    assert ask(m, with_crc(bytes.fromhex("016f04" "0009" "0000")), 1.2) == b"\x81"  # no game 9


def test_a0_enabled_features() -> None:
    source = Floor()
    m = SasMachine(1, source)
    # features 1: no validation; 2: meters when won (bit 0), extended meters (bit 3)
    assert ask(m, with_crc(bytes.fromhex("01a00000"))) == with_crc(bytes.fromhex("01a00000" "00090000" "0000"))
    source.aft = True  # and AFT (bit 6)
    assert ask(m, with_crc(bytes.fromhex("01a00001")), 1.1) == with_crc(bytes.fromhex("01a00001" "00490000" "0000"))
    assert ask(m, with_crc(bytes.fromhex("01a00007")), 1.2) == b"\x81"


def test_ticket_polls_with_validation_not_configured() -> None:
    m = SasMachine(1, Floor())
    assert ask(m, b"\x01\x3d") == with_crc(b"\x01\x3d" + bytes(9))
    assert ask(m, with_crc(bytes.fromhex("014c" "010000" "000000")), 1.1) == b""  # ignored
    assert ask(m, with_crc(bytes.fromhex("014d00")), 1.2) == with_crc(b"\x01\x4d" + bytes(31))
    assert ask(m, with_crc(bytes.fromhex("014d20")), 1.3) == b"\x81"  # no function 20
    assert ask(m, with_crc(bytes.fromhex("015000")), 1.4) == with_crc(b"\x01\x50\x00" + bytes(9))
    assert ask(m, with_crc(bytes.fromhex("015005")), 1.5) == b"\x81"  # no validation type 05
    # 7B: the host's controls change nothing; the asset number, nothing enabled, 0000 and 0000
    poll = with_crc(bytes.fromhex("017b08" "ffff" "ffff" "0030" "0000"))
    assert ask(m, poll, 1.6) == with_crc(bytes.fromhex("017b0a" "04030201" "0000" "0000" "0000"))
    assert ask(m, with_crc(bytes.fromhex("017b08" "ffff" "ffff" "00a0" "0000")), 1.7) == b"\x81"


class Vouchers:
    """A ticket validation as issue 26's vouchers will give: what each call received."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    def cashout_ticket(self) -> tuple[int, int]:
        return (12345678, 2550)

    def set_validation_id(self, machine_id: int, sequence: int) -> tuple[int, int] | None:
        self.calls.append(("4C", machine_id, sequence))
        return (machine_id or 0x0A0B0C, 7)

    def validation(self, function: int) -> Validation | None:
        self.calls.append(("4D", function))
        return Validation(0x00, 3, datetime(2026, 12, 1, 23, 7, 5), 1234567890123456, 2550, 0x0102, 0, 9999, 0)

    def validation_meters(self, validation_type: int) -> tuple[int, int]:
        return (4, 10200)

    def status(self, mask: int, states: int, cashable_days: int, restricted_days: int) -> tuple[int, int, int]:
        self.calls.append(("7B", mask, states, cashable_days, restricted_days))
        return (states & mask, cashable_days or 30, 0)


def test_ticket_polls_answer_from_a_ticket_validation() -> None:
    source = Floor()
    source.ticketing = vouchers = Vouchers()
    m = SasMachine(1, source)
    assert ask(m, b"\x01\x3d") == with_crc(bytes.fromhex("013d" "12345678" "0000002550"))
    assert ask(m, with_crc(bytes.fromhex("014c" "030201" "050000")), 1.1) == with_crc(
        bytes.fromhex("014c" "030201" "070000"))
    assert ask(m, with_crc(bytes.fromhex("014dff")), 1.2) == with_crc(bytes.fromhex(
        "014d" "00" "03" "12012026" "230705" "1234567890123456" "0000002550" "0201" "00" "00009999" "0000"))
    assert ask(m, with_crc(bytes.fromhex("015080")), 1.3) == with_crc(bytes.fromhex("015080" "00000004" "0000010200"))
    poll = with_crc(bytes.fromhex("017b08" "0300" "0100" "0000" "0000"))
    assert ask(m, poll, 1.4) == with_crc(bytes.fromhex("017b0a" "04030201" "0100" "0030" "0000"))
    assert vouchers.calls == [("4C", 0x010203, 5), ("4D", 0xFF), ("7B", 3, 1, 0, 0)]


def test_6f_aft_meters_in_cents_and_total_won_as_a_sum() -> None:
    source = Floor()
    source.values.update({"aft_in": 50, "aft_out": 7, "aft_in_count": 2, "jackpot": 11})
    m = SasMachine(1, source)
    poll = with_crc(bytes.fromhex("016f0a" "0000" "a000" "b800" "a100" "2200"))
    assert ask(m, poll) == with_crc(bytes.fromhex(
        "016f22" "0000" "a000" "05" "0000000500" "b800" "05" "0000000070" "a100" "05" "0000000002"
        "2200" "05" "0000002511"))
    # 2F gives the same codes in four BCD bytes
    assert ask(m, with_crc(bytes.fromhex("012f04" "0000" "a0" "22")), 1.1) == with_crc(bytes.fromhex(
        "012f0c" "0000" "a000000500" "2200002511"))


def test_6f_voucher_meters_zero_until_vouchers_then_in_cents_and_credits() -> None:
    source = Floor()
    m = SasMachine(1, source)
    poll = with_crc(bytes.fromhex("016f08" "0000" "8600" "8700" "1600"))
    zero = with_crc(bytes.fromhex("016f1a" "0000" "8600" "05" "0000000000" "8700" "05" "0000000000"
                                  "1600" "05" "0000000000"))
    assert ask(m, poll) == zero
    source.values.update({"vouchers_out": 1250, "vouchers_out_count": 3})
    assert ask(m, poll, 1.1) == with_crc(bytes.fromhex(
        "016f1a" "0000" "8600" "05" "0000012500" "8700" "05" "0000000003" "1600" "05" "0000001250"))


def test_every_poll_with_random_data_gets_silence_an_ack_a_nack_or_a_whole_frame() -> None:
    import random

    from hardware.sas.codec import POLL_LENGTHS, VARIABLE, crc_ok

    from tests.test_sas_aft import Cashless

    rng = random.Random(25)
    source = Cashless()
    m = SasMachine(1, source)
    at = 1.0
    for _ in range(40):
        for command, length in sorted(POLL_LENGTHS.items()):
            if length == 2:
                frame = bytes((1, command))
            else:
                size = rng.randrange(0, 40) if length == VARIABLE else length - 4
                data = bytes(rng.randrange(256) for _ in range(size))
                frame = with_crc(bytes((1, command)) + (bytes((size,)) if length == VARIABLE else b"") + data)
            at += 0.2  # a gap: each frame starts afresh
            answer = ask(m, frame, at)
            assert answer in (b"", b"\x01", b"\x81") or (answer[:2] == bytes((1, command)) and crc_ok(answer)), (
                frame.hex(), answer.hex())
    while m.next_event() is not None:
        pass
