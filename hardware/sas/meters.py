"""The SAS long polls that only read: meters, games, configuration and features, byte for byte.

Owns: the tables from poll to meters (``METER_POLLS``), the meter codes of 2F and 6F
(``METER_CODES``), and ``answer(address, command, data, source)`` for 0F-20, 1B, 1E, 1F, 2A, 2B,
2F, 31-37, 46, 48, 51, 52, 53, 55, 56, 6F and A0. A reply is the frame with its CRC, a NACK
(the address with bit 7) for a game the machine does not have or data that is not BCD.
Pure: reads the source, keeps no state, knows no cabinet.
"""

from __future__ import annotations

from hardware.sas.codec import bcd, from_bcd, with_crc
from hardware.sas.source import GameInfo, Handpay, MeterSource, denomination_code

# (command, [(meter name, BCD bytes)]) for the polls that are only meters of the machine
METER_POLLS: dict[int, tuple[tuple[str, int], ...]] = {
    0x0F: (("cancelled", 4), ("coin_in", 4), ("coin_out", 4), ("drop", 4), ("jackpot", 4),
           ("games_played", 4)),
    0x10: (("cancelled", 4),), 0x11: (("coin_in", 4),), 0x12: (("coin_out", 4),),
    0x13: (("drop", 4),), 0x14: (("jackpot", 4),), 0x15: (("games_played", 4),),
    0x16: (("games_won", 4),), 0x17: (("games_lost", 4),),
    0x18: (("games_since_power_up", 2), ("games_since_door", 2)),
    0x19: (("coin_in", 4), ("coin_out", 4), ("drop", 4), ("jackpot", 4), ("games_played", 4)),
    0x1A: (("credits", 4),),
    0x20: (("bills_value", 4),),
    0x2A: (("true_coin_in", 4),), 0x2B: (("true_coin_out", 4),),
    0x46: (("bills_credits", 4),),
    0x1E: tuple((f"bills_{d}", 4) for d in (1, 5, 10, 20, 50, 100)),
    **{0x31 + i: ((f"bills_{d}", 4),) for i, d in enumerate((1, 2, 5, 10, 20, 50, 100))},
}
# meter codes of 2F and 6F (the document's table of meter codes) this machine keeps: the source's
# meter, or a sum of them (0x22 total won), and whether the code counts cents (AFT) or credits
METER_CODES: dict[int, tuple[tuple[str, ...], bool]] = {
    0x00: (("coin_in",), False), 0x01: (("coin_out",), False), 0x02: (("jackpot",), False),
    0x04: (("cancelled",), False), 0x05: (("games_played",), False), 0x06: (("games_won",), False),
    0x07: (("games_lost",), False), 0x08: (("true_coin_in",), False), 0x09: (("true_coin_out",), False),
    0x0B: (("bills_credits",), False), 0x0C: (("credits",), False),
    0x17: (("aft_in",), False), 0x18: (("aft_out",), False),
    0x22: (("coin_out", "jackpot"), False), 0x24: (("drop",), False),
    0x25: (("games_since_power_up",), False), 0x26: (("games_since_door",), False),
    **{0x40 + i: ((f"bills_{d}",), False) for i, d in ((0, 1), (1, 2), (2, 5), (3, 10), (4, 20), (6, 50), (7, 100))},
    0x0E: (("vouchers_out",), True), 0x12: (("vouchers_out_count",), False), 0x16: (("vouchers_out",), False),
    0x86: (("vouchers_out",), True), 0x87: (("vouchers_out_count",), False),
    0xA0: (("aft_in",), True), 0xA1: (("aft_in_count",), False),
    0xB8: (("aft_out",), True), 0xB9: (("aft_out_count",), False),
}
EXTENDED_SIZE = 5  # 6F gives each meter as 10 BCD digits
EXTENDED_MAX_CODES = 10  # 6F asks for at most ten meters
HANDPAY_UNUSED = 10  # 1B's reserved bytes after the reset id, zeros
COMMANDS = frozenset({*METER_POLLS, 0x1B, 0x1F, 0x2F, 0x48, 0x51, 0x52, 0x53, 0x55, 0x56, 0x6F, 0xA0})

# A0's feature bits this machine reports (the document's tables of features 1 to 4)
FEATURE2_METERS_WHEN_WON = 0x01  # meter model: won credits metered when won
FEATURE2_EXTENDED_METERS = 0x08
FEATURE2_AFT = 0x40


def _nack(address: int) -> bytes:
    return bytes((address | 0x80,))


def _game(data: bytes, source: MeterSource) -> int | None:
    """The game number a poll's two BCD bytes name, or None (not BCD, or no such game)."""
    try:
        game = from_bcd(data[:2])
    except ValueError:
        return None
    return game if game == 0 or game in source.games() else None


def answer(address: int, command: int, data: bytes, source: MeterSource) -> bytes | None:
    head = bytes((address, command))
    if command in METER_POLLS:
        return with_crc(head + b"".join(bcd(source.meter(n), s) for n, s in METER_POLLS[command]))
    if command == 0x1B:
        return with_crc(head + handpay_information(source.handpay()))
    if command == 0x48:
        country, denom, count = source.last_bill()
        return with_crc(head + bcd(country, 1) + bcd(denom, 1) + bcd(count, 4))
    if command == 0x51:
        return with_crc(head + bcd(len(source.games()), 2))
    if command == 0x55:
        return with_crc(head + bcd(source.selected_game(), 2))
    if command == 0x56:
        games = source.games()
        body = bytes((len(games),)) + b"".join(bcd(g, 2) for g in games)
        return with_crc(head + bytes((len(body),)) + body)
    if command == 0x1F:
        return with_crc(head + game_configuration(source.game_info(0), source))
    if command == 0x2F:
        return _selected_meters(head, data, source)
    if command == 0x6F:
        return _extended_meters(head, data, source)
    game = _game(data, source)
    if game is None:
        return _nack(address)
    if command == 0x52:
        names = ("coin_in", "coin_out", "jackpot", "games_played")
        return with_crc(head + data[:2] + b"".join(bcd(source.meter(n, game), 4) for n in names))
    if command == 0x53:
        return with_crc(head + data[:2] + game_configuration(source.game_info(game), source))
    if command == 0xA0:
        return with_crc(head + data[:2] + features(source) + b"\x00\x00")
    return None


def handpay_information(handpay: Handpay | None) -> bytes:
    """1B's body: progressive group, level, amount (5 BCD), partial pay (2 BCD), reset id, ten
    unused bytes; all zeros when no handpay is pending (the document's legacy reporting: the
    handpay while the machine is locked in it)."""
    if handpay is None:
        return bytes(2 + 5 + 2 + 1 + HANDPAY_UNUSED)
    return (bytes((handpay.progressive_group & 0xFF, handpay.level & 0xFF)) + bcd(handpay.amount, 5)
            + bcd(handpay.partial_pay, 2) + bytes((handpay.reset_id & 0xFF,)) + bytes(HANDPAY_UNUSED))


def game_configuration(info: GameInfo, source: MeterSource) -> bytes:
    """1F and 53's body after the game number: game id (2 ASCII), additional id (3 ASCII),
    denomination code, max bet (FF above 255), progressive group, options (2 bytes, low byte
    first), paytable id (6 ASCII), base percentage (4 ASCII digits, the decimal point implied)."""
    return (
        _ascii(info.game_id, 2) + _ascii(info.additional_id, 3)
        + bytes((denomination_code(source.denomination_cents()), min(info.max_bet, 0xFF),
                 info.progressive_group & 0xFF))
        + (info.options & 0xFFFF).to_bytes(2, "little")
        + _ascii(info.paytable_id, 6) + f"{info.base_percent % 10000:04d}".encode("ascii")
    )


def _ascii(text: str, size: int) -> bytes:
    raw = text.encode("ascii", "replace")[:size]
    return raw + b"0" * (size - len(raw))


def features(source: MeterSource) -> bytes:
    """A0's four feature bytes: no validation style, the meter model 'when won', extended
    meters (6F), AFT when the source has it enabled."""
    second = FEATURE2_METERS_WHEN_WON | FEATURE2_EXTENDED_METERS
    if source.aft_enabled():
        second |= FEATURE2_AFT
    return bytes((0x00, second, 0x00, 0x00))


def meter_value(code: int, game: int, source: MeterSource) -> int | None:
    """The value of a 2F/6F meter code for ``game`` (cents where the code counts cents), or None
    for a code this machine does not keep."""
    kept = METER_CODES.get(code)
    if kept is None:
        return None
    names, cents = kept
    value = sum(source.meter(name, game) for name in names)
    return value * source.denomination_cents() if cents else value


def _selected_meters(head: bytes, data: bytes, source: MeterSource) -> bytes:
    # data: length, game number (2 BCD), meter codes (one byte each)
    game = _game(data[1:3], source)
    if game is None:
        return _nack(head[0])
    body = bytearray(data[1:3])
    for code in data[3:]:
        value = meter_value(code, game, source)
        if value is not None:
            body += bytes((code,)) + bcd(value, 4)
    return with_crc(head + bytes((len(body),)) + bytes(body))


def _extended_meters(head: bytes, data: bytes, source: MeterSource) -> bytes:
    # data: length, game number (2 BCD), meter codes (two bytes each, low byte first); each
    # answered as code, size, value; a meter this machine does not keep has size 0
    codes = data[3:]
    if len(codes) % 2 or not codes or len(codes) > 2 * EXTENDED_MAX_CODES:
        return _nack(head[0])
    game = _game(data[1:3], source)
    if game is None:
        return _nack(head[0])
    body = bytearray(data[1:3])
    for i in range(0, len(codes), 2):
        value = meter_value(int.from_bytes(codes[i:i + 2], "little"), game, source)
        body += codes[i:i + 2]
        if value is None:
            body.append(0)
        else:
            body += bytes((EXTENDED_SIZE,)) + bcd(value, EXTENDED_SIZE)
    return with_crc(head + bytes((len(body),)) + bytes(body))
