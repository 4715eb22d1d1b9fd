"""SAS AFT on the machine side, byte for byte: transfers to and from a seat by transaction id
(pending until the cabinet confirms, the first result for every repeat), the refusals, the
interrogation, registration (73), lock and status (74), and a restart's restore."""

from __future__ import annotations

from datetime import datetime

import pytest

from hardware.sas.aft import AftLock, AftRecord, AftRegistration, AftTransfer
from hardware.sas.codec import bcd, with_crc
from hardware.sas.machine import SasMachine

from tests.test_sas_polls import Floor

ASSET = bytes.fromhex("04030201")  # 0x01020304, low byte first
KEY = bytes(range(1, 21))
WHEN = datetime(2026, 12, 2, 1, 15, 30)


class Cashless(Floor):
    def __init__(self) -> None:
        super().__init__()
        self.aft = True
        self.available = (True, True)
        self.can_lock = True
        self.values.update({"credits": 1234, "aft_in": 50, "aft_out": 0})

    def aft_limit_points(self) -> int:
        return 10000

    def aft_available(self) -> tuple[bool, bool]:
        return self.available

    def lockable(self) -> bool:
        return self.can_lock


def transfer(tid: bytes, cents: int, *, kind: int = 0x00, code: int = 0x00, flags: int = 0,
             asset: bytes = ASSET, key: bytes = bytes(20), restricted: int = 0) -> bytes:
    body = bytes((code, 0x00, kind)) + bcd(cents, 5) + bcd(restricted, 5) + bcd(0, 5) + bytes((flags,))
    body += asset + key + bytes((len(tid),)) + tid + bcd(0, 4) + b"\x00\x00" + b"\x00" + b"\x00\x00"
    return with_crc(b"\x01\x72" + bytes((len(body),)) + body)


def reply(position: int, status: int, kind: int, cents: int, tid: bytes, *, when: datetime | None = None,
          meter: int | None = None, flags: int = 0) -> bytes:
    body = bytes((position, status, 0xFF, kind)) + bcd(cents, 5) + bytes(10) + bytes((flags,)) + ASSET
    body += bytes((len(tid),)) + tid
    body += bytes.fromhex(when.strftime("%m%d%Y%H%M%S")) if when else bytes(7)
    body += bytes(4) + bytes(2)
    body += (b"\x05" + bcd(meter, 5) if meter is not None else b"\x00") + b"\x00\x00"
    return with_crc(b"\x01\x72" + bytes((len(body),)) + body)


def ask(m: SasMachine, frame: bytes, at: float = 1.0) -> bytes:
    m.receive_data(frame, at)
    return m.data_to_send()


def events(m: SasMachine) -> list[object]:
    out: list[object] = []
    while (event := m.next_event()) is not None:
        out.append(event)
    return out


def test_a_transfer_to_the_seat_is_pending_until_the_cabinet_confirms_it() -> None:
    m = SasMachine(1, Cashless())
    pending = reply(0, 0x40, 0x00, 500, b"T1")  # not in the history yet
    assert ask(m, transfer(b"T1", 500)) == pending
    assert events(m) == [AftTransfer("T1", True, 50, False)]
    assert ask(m, transfer(b"T1", 500), 1.1) == pending  # a repeat: the same answer, no new event
    assert events(m) == []
    assert ask(m, with_crc(bytes.fromhex("017202ff00")), 1.2) == pending  # interrogation
    m.aft.confirm("T1", 50, WHEN)
    assert ask(m, b"\x81", 1.3) == b"\x69"  # AFT transfer complete
    done = reply(1, 0x00, 0x00, 500, b"T1", when=WHEN, meter=500)  # aft_in: 50 points = 500 cents
    assert ask(m, with_crc(bytes.fromhex("017202ff00")), 1.4) == done
    assert ask(m, transfer(b"T1", 500), 1.5) == done  # replayed after completion: the first result
    assert ask(m, transfer(b"T1", 900), 1.6) == done  # the same id, other amounts: still the first
    assert events(m) == []
    m.aft.confirm("T1", 50, WHEN)  # a second confirm changes nothing
    assert ask(m, b"\x81", 1.7) == b"\x00"


def test_a_transfer_from_the_seat_full_or_partial() -> None:
    source = Cashless()
    m = SasMachine(1, source)
    assert ask(m, transfer(b"OUT1", 20000, kind=0x80)) == reply(0, 0x83, 0x80, 20000, b"OUT1")  # more than 1234
    assert events(m) == []
    assert ask(m, transfer(b"OUT2", 20000, kind=0x80, code=0x01), 1.1) == reply(0, 0x40, 0x80, 12340, b"OUT2")
    assert events(m) == [AftTransfer("OUT2", False, 1234, True)]
    source.values["aft_out"] = 1234
    m.aft.confirm("OUT2", 1234, WHEN)
    assert ask(m, with_crc(bytes.fromhex("017202ff00")), 1.2) == reply(
        1, 0x01, 0x80, 12340, b"OUT2", when=WHEN, meter=12340)  # partial: less than asked


@pytest.mark.parametrize(("frame", "status"), [
    (transfer(b"A", 500, asset=bytes(4)), 0x93),  # asset number zero
    (transfer(b"A", 500, asset=bytes.fromhex("05030201")), 0x93),  # another machine's
    (transfer(b"A", 505), 0x85),  # not a multiple of the 10-cent credit
    (transfer(b"A", 100010), 0x84),  # 10001 points over the 10000 limit
    (transfer(b"A", 500, restricted=100), 0x83),  # restricted credit is not this cabinet's
    (transfer(b"A", 0), 0x83),
    (transfer(b"A", 500, key=KEY), 0x88),  # a key, and the machine is not registered
    (transfer(b"A", 500, flags=0x40), 0x94),  # only if locked, and it is not
    (transfer(b"A", 500, kind=0x10), 0x82),  # a bonus: not this cabinet's
    (transfer(b"", 500), 0x95),  # no transaction id
    (transfer(b"A", 500, code=0x05), 0xC1),
])
def test_refused_transfers_move_nothing(frame: bytes, status: int) -> None:
    m = SasMachine(1, Cashless())
    answer = ask(m, frame)
    assert answer[3:5] == bytes((0, status)) and answer == with_crc(answer[:-2])
    assert events(m) == []
    assert ask(m, with_crc(bytes.fromhex("017202ff00")), 1.1)[4] == 0xFF  # no transfer kept


def test_a_refused_or_busy_seat_and_a_second_transfer_while_one_is_pending() -> None:
    source = Cashless()
    m = SasMachine(1, source)
    source.available = (False, True)  # a tilt: no transfer to the seat now
    assert ask(m, transfer(b"B1", 500))[4] == 0x87
    source.available = (True, True)
    assert ask(m, transfer(b"B1", 500), 1.1)[4] == 0x40  # the same id, now accepted
    assert ask(m, transfer(b"B2", 500), 1.2)[4] == 0xC0  # one is pending
    m.aft.refuse("B1", 0x84)  # the cabinet's credit limit
    assert ask(m, with_crc(bytes.fromhex("017202ff00")), 1.3)[4] == 0x84
    assert ask(m, transfer(b"B1", 500), 1.4)[4] == 0x40  # a refused id may be asked again
    assert events(m) == [AftTransfer("B1", True, 50, False), AftTransfer("B1", True, 50, False)]


def test_a_bad_crc_and_a_machine_without_aft_answer_nothing() -> None:
    source = Cashless()
    m = SasMachine(1, source)
    frame = bytearray(transfer(b"C1", 500))
    frame[-1] ^= 0xFF
    assert ask(m, bytes(frame)) == b""
    source.aft = False
    assert ask(m, transfer(b"C1", 500), 1.1) == b""
    assert ask(m, with_crc(bytes.fromhex("017400000500")), 1.2) == b""
    assert [type(e).__name__ for e in events(m)] == ["BadCrc"]


def register(code: int, key: bytes = KEY, asset: bytes = ASSET, pos: bytes = bytes.fromhex("11223344")) -> bytes:
    return with_crc(b"\x01\x73\x1d" + bytes((code,)) + asset + key + pos)


def registration(status: int, key: bytes, pos: bytes) -> bytes:
    return with_crc(b"\x01\x73\x1d" + bytes((status,)) + ASSET + key + pos)


def test_registration_73_then_a_keyed_transfer() -> None:
    m = SasMachine(1, Cashless())
    assert ask(m, with_crc(bytes.fromhex("017301ff"))) == with_crc(b"\x01\x73\x1d\x80" + bytes(28))
    assert ask(m, register(0x01), 1.1) == with_crc(b"\x01\x73\x1d\x80" + bytes(28))  # not initialised
    assert ask(m, with_crc(bytes.fromhex("01730100")), 1.2) == registration(0x00, bytes(20), bytes(4))
    assert ask(m, register(0x01), 1.3) == registration(0x01, KEY, bytes.fromhex("11223344"))
    assert events(m) == [AftRegistration(0x00, 0x01020304, bytes(20), 0),
                         AftRegistration(0x01, 0x01020304, KEY, 0x44332211)]
    assert ask(m, b"\x81", 1.4) == b"\x6d"  # registration acknowledged
    assert ask(m, transfer(b"K1", 500, key=bytes(20)), 1.5)[4] == 0x40  # no key: not required
    m.aft.confirm("K1", 50, WHEN)
    assert ask(m, transfer(b"K2", 500, key=bytes(reversed(KEY))), 1.6)[4] == 0x89
    assert ask(m, transfer(b"K3", 500, key=KEY), 1.7)[4] == 0x40
    assert ask(m, with_crc(bytes.fromhex("01730180")), 1.8) == registration(0x80, bytes(20), bytes(4))
    assert ask(m, with_crc(bytes.fromhex("017302ff00")), 1.9) == b"\x81"  # a length 73 never has


def status(lock: int, *, registered: bool = False) -> bytes:
    body = ASSET + bytes((lock, 0x03, 0x00, 0x92 | (0x08 if registered else 0), 0x7F))
    body += bcd(12340, 5) + bytes(10) + bcd(100000, 5) + bytes(4) + bytes(2)
    return with_crc(b"\x01\x74" + bytes((len(body),)) + body)


def test_lock_74_locks_expires_and_is_released_by_a_transfer() -> None:
    source = Cashless()
    m = SasMachine(1, source)
    assert ask(m, with_crc(bytes.fromhex("0174ff000000"))) == status(0xFF)
    assert ask(m, with_crc(bytes.fromhex("017400030500")), 2.0) == status(0x00)  # 5.00 s
    assert events(m) == [AftLock(True)]
    assert ask(m, b"\x81", 2.1) == b"\x6f"  # game locked
    m.tick(6.9)
    assert events(m) == []
    m.tick(7.0)
    assert events(m) == [AftLock(False)]
    assert ask(m, with_crc(bytes.fromhex("0174ff000000")), 7.1) == status(0xFF)
    # pending while a round is in progress, locked once it ends, released by a transfer
    source.can_lock = False
    assert ask(m, with_crc(bytes.fromhex("017400010500")), 8.0) == status(0x40)
    m.tick(8.5)
    source.can_lock = True
    m.tick(8.6)
    assert events(m) == [AftLock(True)]
    assert ask(m, transfer(b"L1", 500, flags=0x40), 8.7)[4] == 0x40
    m.aft.confirm("L1", 50, WHEN)
    m.tick(8.8)
    assert events(m) == [AftTransfer("L1", True, 50, False), AftLock(False)]
    assert ask(m, with_crc(bytes.fromhex("0174000100aa")), 9.0) == b"\x81"  # timeout not BCD


def test_after_a_restart_the_journal_s_transactions_answer_their_repeats() -> None:
    m = SasMachine(1, Cashless())
    m.aft.restore([AftRecord("R1", 0x00, 50, 0x00, 0, WHEN, False, 50)],
                  AftRegistration(0x01, 0x01020304, KEY, 7))
    assert ask(m, transfer(b"R1", 500, key=KEY)) == reply(1, 0x00, 0x00, 500, b"R1", when=WHEN, meter=500)
    assert events(m) == []
    assert ask(m, with_crc(bytes.fromhex("017202ff81")), 1.1)[3:7] == b"\x01\x00\xff\x00"  # 81: the most recent
    assert ask(m, with_crc(bytes.fromhex("017202ff05")), 1.2)[4] == 0xFF  # no position 5


def test_a_replay_older_than_the_history_is_answered_from_the_journal() -> None:
    class Journaled(Cashless):
        def aft_transaction(self, transaction_id: str) -> AftRecord | None:
            return AftRecord("OLD", 0x00, 50, 0x00, 0, WHEN, False, 50) if transaction_id == "OLD" else None

    m = SasMachine(1, Journaled())
    assert ask(m, transfer(b"OLD", 500)) == reply(0, 0x00, 0x00, 500, b"OLD", when=WHEN, meter=500)
    assert events(m) == []  # never done a second time
