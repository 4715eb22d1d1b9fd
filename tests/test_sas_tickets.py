"""The host validates the seat's vouchers (issue 26): the machine's own enhanced validation.

A printed voucher raises 3D; 4D reads its record (validation type 00, the ring index, the date
and time it was printed, the 18-digit number as system id and validation number, the amount in
cents, the ticket number), 50 the validation meters, 3D the last ticket, 7B the printer as a
cash-out device; a voucher the printer failed and that became a handpay is no ticket. Every
figure from the journal (the bridge's ``VoucherBook``, the seat's meters), byte for byte.
"""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime

from hardware.sas.codec import bcd, with_crc
from hardware.sas.machine import SasMachine

from machine.core.cabinet import CabinetSettings
from machine.money.seatmoney import MoneySettings
from machine.sas import exceptions as ex
from machine.sas.rom import RomSignature
from machine.sas.source import HostClock, SeatSource, seat_meters
from machine.sas.tickets import VoucherBook

from .cabinet_helpers import boot

SETTINGS = CabinetSettings(seats=2, money=MoneySettings(payout="voucher"), vouchers=True, cabinet_id=7,
                           note_values={"EU0020A": 200})
WALL = 1_796_000_000.0


def voucher(cab, n: int, counter: int, *, fail: bool = False) -> str:
    cab.validator_report(n, 40 + n, counter, [("stacked", 3, "EU0020A")])  # 200 points in a note
    cab.press(n, "collect", 0)
    number = cab.voucher_printing(n, WALL)["number"]
    if fail:
        cab.voucher_failed(n, "paper out")
    else:
        cab.voucher_printed(n)
    return str(number)


def machine_of(cab, book: VoucherBook, n: int) -> SasMachine:
    src = SeatSource(n, (1,), "0001", RomSignature(lambda: b""), HostClock(lambda: 0.0), 10)
    src.snapshot = dataclasses.replace(seat_meters(cab.seats[n], {1: cab.profile.game}, cab.profile.game, 0, 0),
                                       **book.of(n))
    return SasMachine(1, src)


def poll(m: SasMachine, *data: int) -> bytes:
    m.receive_data(bytes([1, *data]) if len(data) == 1 else with_crc(bytes([1, *data])), 0.0)
    return m.data_to_send()


def record(kind: int, index: int, when: datetime, number: str, cents: int, ticket: int) -> bytes:
    return (bytes((kind, index)) + bcd(int(when.strftime("%m%d%Y")), 4) + bcd(int(when.strftime("%H%M%S")), 3)
            + bcd(int(number[2:]), 8) + bcd(cents, 5) + ticket.to_bytes(2, "little") + bcd(int(number[:2]), 1)
            + bcd(0, 4) + bytes(2))


def test_a_printed_voucher_is_4d_50_and_3d_and_a_voucher_become_handpay_is_no_ticket(tmp_path):
    cab = boot(tmp_path, settings=SETTINGS)
    book = VoucherBook(cab, [1, 2])
    seen = cab.journal.last_seq
    first = voucher(cab, 1, 1)
    voucher(cab, 1, 2, fail=True)  # the printer failed: void, a handpay
    assert cab.attendant_clear(1)
    second = voucher(cab, 1, 3)
    records = cab.journal.records(since=seen)
    for r in records:
        book.record(r.kind, r.seat, r.data, r.at)
    exc = [code for r in records for n, code, _ in ex.exceptions_of(r.kind, r.seat, r.data) if n == 1]
    assert exc.count(0x3D) == 2  # one per voucher printed, none for the void one
    printed = [r for r in cab.journal.records("event", seat=1) if r.data["event"] == "voucher_printed"]
    assert [r.data["number"] for r in printed] == [first, second]
    first_when, second_when = (datetime.fromtimestamp(r.at or 0.0) for r in printed)
    m = machine_of(cab, book, 1)
    assert len(first) == 18 and first[:5] == "00071"
    current = with_crc(bytes([1, 0x4D]) + record(0x00, 1, first_when, first, 2000, 1))
    assert poll(m, 0x4D, 0xFF) == current  # a look at the current record: the first voucher, not taken
    assert poll(m, 0x4D, 0x00) == current  # now taken
    assert poll(m, 0x4D, 0x00) == with_crc(bytes([1, 0x4D]) + record(0x00, 2, second_when, second, 2000, 2))
    assert poll(m, 0x4D, 0x00) == with_crc(bytes([1, 0x4D]) + bytes(31))  # none unread
    assert poll(m, 0x4D, 0x02) == with_crc(bytes([1, 0x4D]) + record(0x00, 2, second_when, second, 2000, 2))
    assert poll(m, 0x4D, 0x05) == with_crc(bytes([1, 0x4D]) + bytes(31))  # an empty slot of the buffer
    assert poll(m, 0x50, 0x00) == with_crc(bytes([1, 0x50, 0x00]) + bcd(2, 4) + bcd(4000, 5))  # two, €40.00
    assert poll(m, 0x50, 0x10) == with_crc(bytes([1, 0x50, 0x10]) + bcd(0, 4) + bcd(0, 5))  # no handpay validated
    assert poll(m, 0x3D) == with_crc(bytes([1, 0x3D]) + bcd(int(second[-8:]), 4) + bcd(2000, 5))
    asked = with_crc(bytes([1, 0x7B, 8, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x30, 0x00, 0x00]))
    m.receive_data(asked, 0.0)
    assert m.data_to_send() == with_crc(bytes([1, 0x7B, 10, 0, 0, 0, 0, 0x01, 0x00, 0, 0, 0, 0]))
    m.receive_data(with_crc(bytes([1, 0x4C, 1, 0, 0, 1, 0, 0])), 0.0)
    assert m.data_to_send() == b""  # secure enhanced validation is not this machine's: ignored
    assert cab.seats[1].meters.get("vouchers_out") == 2 and cab.seats[1].meters.get("handpay_out") == 200


def test_after_a_restart_the_book_reads_the_vouchers_from_the_journal_and_a_seat_without_printer_has_none(tmp_path):
    cab = boot(tmp_path, settings=SETTINGS)
    numbers = [voucher(cab, 2, c) for c in (1, 2, 3)]
    cab.journal.close()
    again = boot(tmp_path, settings=SETTINGS)
    book = VoucherBook(again, [1, 2])
    held = book.of(2)["vouchers"]
    assert [(v["number"], v["amount"], v["ordinal"]) for v in held] == [(x, 200, i + 1) for i, x in enumerate(numbers)]
    assert book.of(1) == {"printer": True, "vouchers": (), "read": 0}
    m = machine_of(again, book, 2)
    m.source.tickets().start(book.of(2)["read"])  # as the child does at start: none was read
    assert poll(m, 0x4D, 0x00)[2:4] == bytes((0x00, 0x01))  # the journal says none read: all given
    assert poll(m, 0x4D, 0x03)[2:4] == bytes((0x00, 0x03))
    plain = boot(tmp_path / "b", settings=CabinetSettings(seats=2))
    m = machine_of(plain, VoucherBook(plain, [1]), 1)
    assert m.source.tickets() is None and poll(m, 0x4D, 0x00) == with_crc(bytes([1, 0x4D]) + bytes(31))


def test_through_the_cabinet_a_printed_voucher_raises_3d_and_4d_reads_it_from_the_journal(tmp_path):
    from hardware.sas.codec import crc_ok

    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary
    from tests.e2e_helpers import press, run_until
    from tests.helpers import pin_setting
    from tests.sas_helpers import PtyHost

    host = PtyHost()
    text = "\n".join(["seats: 2", "coins: {EU050A: 5, EU100A: 10, EU200A: 20}", "payout: voucher", "cabinet_id: 7",
                      "devices: {panel: sim, bus: sim, printer: sim, acceptors: {1: 2, 2: 11}, validators: {1: 40, 2: 41}, "
                      "hoppers: [{address: 3, seats: [1, 2]}]}",
                      f"sas:\n  links:\n    - {{port: {host.path}, address: 1, seat: 1}}"]) + "\n" + pin_setting()
    app = SimulatedCabinet(temporary(parse_config(text, "v.yaml"), tmp_path), tmp_path, headless=True)
    try:
        control = app.sims.bus.control
        run_until(app, lambda: app.panel.link_up and control.status(40)["master"] == "1", what="validator 40")
        control.note(40, "EU0020A")
        run_until(app, lambda: app.cab.seats[1].money.credit == 200, what="the note")
        printer = app.sims.printer
        press(app, 1, "collect", lambda: app.cab.seats[1].lock is None and printer.printed(), what="the voucher")
        run_until(app, lambda: True)
        assert app.sas is not None
        app.sas.sync()
        codes = []
        end = time.monotonic() + 60  # bounds a hang only
        while (code := host.general(1)) != 0 and time.monotonic() < end:
            if code is not None:
                codes.append(code)
        assert 0x3D in codes  # cash out ticket printed
        [ticket] = printer.printed()
        [event] = [r for r in app.cab.journal.records("event", seat=1) if r.data["event"] == "voucher_printed"]
        number = event.data["number"]
        assert ticket.barcodes[0].data == number
        expected = with_crc(bytes([1, 0x4D]) + record(0x00, 1, datetime.fromtimestamp(event.at or 0.0), number, 2000, 1))
        assert host.long(1, 0x4D, bytes([0x00]), crc=True) == expected
        got = host.long(1, 0x50, bytes([0x00]), crc=True)
        assert crc_ok(got) and got == with_crc(bytes([1, 0x50, 0x00]) + bcd(1, 4) + bcd(2000, 5))
    finally:
        app.close()
        host.close()


def test_which_records_the_host_read_is_journaled_and_a_restart_gives_only_the_unread(tmp_path):
    cab = boot(tmp_path, settings=SETTINGS)
    numbers = [voucher(cab, 1, c) for c in (1, 2, 3)]
    book = VoucherBook(cab, [1])
    m = machine_of(cab, book, 1)
    told: list[dict] = []
    m.source.tickets().start(book.of(1)["read"])
    m.source.tickets().on_read = told.append
    assert poll(m, 0x4D, 0x00)[2:4] == bytes((0x00, 0x01))
    assert poll(m, 0x4D, 0xFF)[2:4] == bytes((0x00, 0x02))  # a look: not taken, nothing told
    assert [(t["ordinal"], t["number"]) for t in told] == [(1, numbers[0])]
    seen = cab.journal.last_seq
    cab.host_validation_read(1, 1, numbers[0], 0.0)
    [event] = [r for r in cab.journal.records("event", seat=1, since=seen)]
    assert (event.data["event"], event.data["code"], event.data["ordinal"], event.data["number"]) == (
        "sas_validation_read", 224, 1, numbers[0])
    for r in cab.journal.records(since=seen):
        book.record(r.kind, r.seat, r.data, r.at)
    assert book.taken(1, 1) is None and (book.taken(1, 2) or {}).get("number") == numbers[1]  # read once: not journaled again
    cab.journal.close()
    again = boot(tmp_path, settings=SETTINGS)
    book = VoucherBook(again, [1])
    assert book.of(1)["read"] == 1
    m = machine_of(again, book, 1)
    m.source.tickets().start(book.of(1)["read"])
    assert m.source.tickets().unread()
    assert poll(m, 0x4D, 0x00)[2:4] == bytes((0x00, 0x02))  # the one read before the restart is not given
    assert poll(m, 0x4D, 0x00)[2:4] == bytes((0x00, 0x03))
    assert poll(m, 0x4D, 0x00) == with_crc(bytes([1, 0x4D]) + bytes(31))
    assert not m.source.tickets().unread()


def _cabinet(tmp_path, host):
    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary
    from tests.helpers import pin_setting

    text = "\n".join(["seats: 2", "coins: {EU050A: 5, EU100A: 10, EU200A: 20}", "payout: voucher", "cabinet_id: 7",
                      "devices: {panel: sim, bus: sim, printer: sim, acceptors: {1: 2, 2: 11}, validators: {1: 40, 2: 41}, "
                      "hoppers: [{address: 3, seats: [1, 2]}]}",
                      f"sas:\n  links:\n    - {{port: {host.path}, address: 1, seat: 1}}"]) + "\n" + pin_setting()
    return SimulatedCabinet(temporary(parse_config(text, "v.yaml"), tmp_path), tmp_path, headless=True)


def _codes(host, app):
    from tests.e2e_helpers import run_until

    run_until(app, lambda: True)
    app.sas.sync()
    codes, end = [], time.monotonic() + 60  # bounds a hang only
    while (code := host.general(1)) != 0 and time.monotonic() < end:
        if code is not None:
            codes.append(code)
    return codes


def test_a_voucher_the_host_had_not_read_when_the_cabinet_stopped_is_given_after_the_restart(tmp_path):
    from tests.e2e_helpers import press, run_until
    from tests.sas_helpers import PtyHost

    host = PtyHost()
    empty = with_crc(bytes([1, 0x4D]) + bytes(31))
    app = _cabinet(tmp_path, host)
    try:
        control = app.sims.bus.control
        run_until(app, lambda: app.panel.link_up and control.status(40)["master"] == "1", what="validator 40")
        for count in (1, 2):
            run_until(app, lambda: control.status(40)["master"] == "1", what="validator 40 ready")
            control.note(40, "EU0020A")
            run_until(app, lambda: app.cab.seats[1].money.credit == 200, what=f"note {count}")
            press(app, 1, "collect", lambda c=count: app.cab.seats[1].lock is None
                  and len(app.sims.printer.printed()) == c, what=f"voucher {count}")
        assert _codes(host, app).count(0x3D) == 2
        first = host.long(1, 0x4D, bytes([0x00]), crc=True)  # the host reads the first voucher only
        assert first[2:4] == bytes((0x00, 0x01))
        host.send(bytes([1, 0x4D, 0x00]) + b"\x00\x00")  # garbled: a bad CRC
        host.send(with_crc(bytes([2, 0x4D, 0x00])))  # another machine's address
        host.drain()
        run_until(app, lambda: True)
        app.sas.sync()
        run_until(app, lambda: True)
        reads = [r.data for r in app.cab.journal.records("event", seat=1) if r.data["event"] == "sas_validation_read"]
        assert [d["ordinal"] for d in reads] == [1]  # the forged polls marked nothing read
    finally:
        app.close()
    again = _cabinet(tmp_path, host)
    try:
        assert 0x3D in _codes(host, again)  # the unread voucher's 3D, raised again at start
        printed = [r for r in again.cab.journal.records("event", seat=1) if r.data["event"] == "voucher_printed"]
        second = printed[1]
        assert host.long(1, 0x4D, bytes([0x00]), crc=True) == with_crc(bytes([1, 0x4D]) + record(
            0x00, 2, datetime.fromtimestamp(second.at or 0.0), second.data["number"], 2000, 2))  # not the first again
        assert host.long(1, 0x4D, bytes([0x00]), crc=True) == empty
    finally:
        again.close()
        host.close()


def test_a_voucher_waiting_for_the_printer_is_no_handpay_on_1b_but_one_the_printer_failed_is(tmp_path):
    from types import SimpleNamespace

    from machine.sas.bridge import SasBridge

    cab = boot(tmp_path, settings=SETTINGS)
    bridge = SasBridge(cab, [SimpleNamespace(seat=1)], [cab.profile.game])

    def handpay_1b() -> bytes:
        src = SeatSource(1, (1,), "0001", RomSignature(lambda: b""), HostClock(lambda: 0.0), 10)
        src.snapshot = bridge._snapshots()[1]
        return poll(SasMachine(1, src), 0x1B)

    cab.validator_report(1, 41, 1, [("stacked", 3, "EU0020A")])  # 200 points in a note
    cab.press(1, "collect", 0)
    assert cab.seats[1].lock == "handpay" and cab.seats[1].handpay_owed == 200  # the lock that waits for the printer
    assert handpay_1b() == with_crc(bytes([1, 0x1B]) + bytes(20))  # a ticket on its way: no handpay
    cab.voucher_printing(1, WALL)
    cab.voucher_failed(1, "paper out")  # void: the same amount is a handpay
    assert handpay_1b() == with_crc(bytes([1, 0x1B, 0x00, 0x80]) + bcd(200, 5) + bcd(0, 2) + bytes(11))
    assert cab.attendant_clear(1)
    assert handpay_1b() == with_crc(bytes([1, 0x1B]) + bytes(20))
