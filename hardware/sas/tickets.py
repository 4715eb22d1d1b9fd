"""The SAS ticket and validation long polls: 3D, 4C, 4D, 50 and 7B, byte for byte.

Owns: ``answer(address, command, data, source)`` for those polls. A source without ticket
validation (``source.tickets()`` is None, the cabinet until vouchers exist) is answered as a
machine with validation not configured: 3D a validation number and amount of zero; 4C ignored
(silence: secure enhanced validation is not this machine's); 4D a record of zeros (no
validation information); 50 zero validations of zero cents for each validation type; 7B the
asset number with no function enabled and expirations 0000. With a ``TicketValidation`` the
answers are its. An unknown validation type (50) or function code (4D), or data that is not
BCD, is NACKed. Pure: keeps no state.
"""

from __future__ import annotations

from hardware.sas.codec import bcd, from_bcd, with_crc
from hardware.sas.source import MeterSource, Validation

COMMANDS = frozenset({0x3D, 0x4C, 0x4D, 0x50, 0x7B})
# the document's validation types (50, 4D)
VALIDATION_TYPES = frozenset({0x00, 0x01, 0x02, 0x03, 0x04, 0x10, 0x20, 0x40, 0x60, 0x80, 0x81, 0x82})
RECORD_SIZE = 31  # 4D's body after the command


def _nack(address: int) -> bytes:
    return bytes((address | 0x80,))


def answer(address: int, command: int, data: bytes, source: MeterSource) -> bytes | None:
    head = bytes((address, command))
    tickets = source.tickets()
    if command == 0x3D:
        number, cents = tickets.cashout_ticket() if tickets is not None else (0, 0)
        return with_crc(head + bcd(number, 4) + bcd(cents, 5))
    if command == 0x4C:
        if tickets is None:
            return None
        ids = tickets.set_validation_id(int.from_bytes(data[0:3], "little"), int.from_bytes(data[3:6], "little"))
        if ids is None:
            return None
        return with_crc(head + ids[0].to_bytes(3, "little") + ids[1].to_bytes(3, "little"))
    if command == 0x4D:
        function = data[0]
        if 0x1F < function < 0xFF:
            return _nack(address)
        record = tickets.validation(function) if tickets is not None else None
        return with_crc(head + (_record(record) if record is not None else bytes(RECORD_SIZE)))
    if command == 0x50:
        kind = data[0]
        if kind not in VALIDATION_TYPES:
            return _nack(address)
        count, cents = tickets.validation_meters(kind) if tickets is not None else (0, 0)
        return with_crc(head + bytes((kind,)) + bcd(count, 4) + bcd(cents, 5))
    if command == 0x7B:
        return _status(head, data, source)
    return None


def _record(v: Validation) -> bytes:
    return (
        bytes((v.validation_type, v.index & 0xFF))
        + bcd(int(v.when.strftime("%m%d%Y")), 4) + bcd(int(v.when.strftime("%H%M%S")), 3)
        + bcd(v.number, 8) + bcd(v.amount_cents, 5) + (v.ticket_number & 0xFFFF).to_bytes(2, "little")
        + bcd(v.system_id, 1) + bcd(v.expiration, 4) + (v.pool_id & 0xFFFF).to_bytes(2, "little")
    )


def _status(head: bytes, data: bytes, source: MeterSource) -> bytes:
    # data: length (08), control mask (2), control states (2), cashable and restricted
    # expirations (2 BCD each); the answer: length (0A), asset number (4), status bits (2),
    # both expirations
    if len(data) != 9 or data[0] != 8:
        return _nack(head[0])
    mask = int.from_bytes(data[1:3], "little")
    states = int.from_bytes(data[3:5], "little")
    try:
        cashable, restricted = from_bcd(data[5:7]), from_bcd(data[7:9])
    except ValueError:
        return _nack(head[0])
    tickets = source.tickets()
    status, cashable, restricted = (
        tickets.status(mask, states, cashable, restricted) if tickets is not None else (0, 0, 0))
    body = (source.asset_number() & 0xFFFFFFFF).to_bytes(4, "little") + (status & 0xFFFF).to_bytes(2, "little")
    body += bcd(cashable, 2) + bcd(restricted, 2)
    return with_crc(head + bytes((len(body),)) + body)
