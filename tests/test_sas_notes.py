"""The seat's banknotes and vouchers as the SAS host reads them (issue 25's bill meters, issue 26).

Notes stacked by a seat's validator are drop and bills (20 total value, 46 in credits, 31-37 per
face value), never true coin in; vouchers printed are SAS's voucher meters. Each figure comes
from the journal's meters of the seat (machine/sas/source.py), here after real validator reports.
"""

from __future__ import annotations

from hardware.sas.codec import with_crc
from hardware.sas.machine import SasMachine

from machine.core.cabinet import CabinetSettings
from machine.operator.noteconfig import default_notes
from machine.sas.rom import RomSignature
from machine.sas.source import HostClock, SeatSource, seat_meters

from .cabinet_helpers import boot

SETTINGS = CabinetSettings(seats=2, note_values=default_notes(10), credit_limit=10000)


def stack(cab, seat: int, address: int, counter: int, bill: str) -> int:
    assert cab.validator_report(seat, address, counter, [("escrow", 3, bill)]) is True
    cab.validator_report(seat, address, counter + 1, [("stacked", 3, bill)])
    return counter + 2


def source_of(cab, seat: int) -> SeatSource:
    src = SeatSource(seat, (1,), "0001", RomSignature(lambda: b""), HostClock(lambda: 0.0), 10)
    src.snapshot = seat_meters(cab.seats[seat], {1: cab.profile.game}, cab.profile.game, 0, 0)
    return src


def poll(machine: SasMachine, command: int) -> bytes:
    machine.receive_data(bytes([1, command]), 0.0)
    return machine.data_to_send()


def test_notes_are_drop_and_bills_never_true_coin_in_and_each_value_is_counted(tmp_path):
    cab = boot(tmp_path, settings=SETTINGS)
    assert cab.coin(1, "EU200A", 0)  # 20 points in coins
    c = stack(cab, 1, 40, 1, "EU0020A")
    c = stack(cab, 1, 40, c, "EU0020A")
    stack(cab, 1, 40, c, "EU0005A")  # 400 + 50 points in notes
    snap = seat_meters(cab.seats[1], {1: cab.profile.game}, cab.profile.game, 0, 0).meters
    assert (snap["drop"], snap["true_coin_in"], snap["bills_credits"], snap["bills_value"]) == (470, 20, 450, 45)
    assert (snap["bills_20"], snap["bills_5"], snap.get("bills_10", 0)) == (2, 1, 0)
    machine = SasMachine(1, source_of(cab, 1))
    assert poll(machine, 0x20) == with_crc(bytes([1, 0x20, 0, 0, 0, 0x45]))  # $45 in bills, BCD
    assert poll(machine, 0x35) == with_crc(bytes([1, 0x35, 0, 0, 0, 0x02]))  # two 20s
    assert poll(machine, 0x33) == with_crc(bytes([1, 0x33, 0, 0, 0, 0x01]))  # one 5
    assert poll(machine, 0x34) == with_crc(bytes([1, 0x34, 0, 0, 0, 0x00]))  # no 10
    assert seat_meters(cab.seats[2], {1: cab.profile.game}, cab.profile.game, 0, 0).meters["bills_value"] == 0


def test_vouchers_printed_are_the_hosts_voucher_meters():
    class Seat:  # a seat whose journal meters say two vouchers, 730 points
        class money:
            credit = club = 0

        class meters:
            lifetime = {"voucher_out": 730, "vouchers_out": 2, "total_out": 730}

            @classmethod
            def get(cls, name: str) -> int:
                return cls.lifetime.get(name, 0)

        lock = None

    snap = seat_meters(Seat, {1: "random-blackjack"}, "random-blackjack", 0, 0).meters
    assert (snap["vouchers_out"], snap["vouchers_out_count"], snap["cancelled"]) == (730, 2, 730)
