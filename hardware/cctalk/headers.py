"""ccTalk headers and the data formats of the ones this cabinet uses.

Owns: header numbers, the reply codes (ACK 0, NAK 5, BUSY 6), the data lengths of Table 8 (part
3) for the headers used here, and encoding/decoding of their data: 229 buffered credit, 184
coin id, 166 hopper status, 163 test hopper flags, 167 dispense (serial-number and
"no encryption" security), the bill validators' 159..152 (numbers and lengths; their data in
bills.py), 168 dispense count, 242 serial number, 245/246 strings, 231/228
inhibits, 232 self-check, 217 payout level status, 216 data storage availability, 197 ROM
checksum, plus the coin acceptor error codes of Table 2. Pure functions and frozen dataclasses;
never does I/O, never keeps state between calls.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Header(enum.IntEnum):
    REPLY = 0  # ACK when there is no data
    RESET_DEVICE = 1
    COMMS_REVISION = 4
    NAK = 5
    BUSY = 6
    SIMPLE_POLL = 254
    ADDRESS_POLL = 253
    MANUFACTURER_ID = 246
    EQUIPMENT_CATEGORY = 245
    PRODUCT_CODE = 244
    SERIAL_NUMBER = 242
    SOFTWARE_REVISION = 241
    SELF_CHECK = 232
    MODIFY_INHIBIT = 231
    REQUEST_INHIBIT = 230
    READ_BUFFERED_CREDIT = 229
    MODIFY_MASTER_INHIBIT = 228
    REQUEST_MASTER_INHIBIT = 227
    PAYOUT_LEVEL_STATUS = 217
    DATA_STORAGE = 216
    ROM_CHECKSUM = 197
    BUILD_CODE = 192
    COIN_ID = 184
    EMERGENCY_STOP = 172
    HOPPER_COIN = 171
    DISPENSE_COUNT = 168
    DISPENSE = 167
    HOPPER_STATUS = 166
    ENABLE_HOPPER = 164
    TEST_HOPPER = 163
    CIPHER_KEY = 160
    READ_BUFFERED_BILL = 159  # bill validators (hardware/cctalk/bills.py has their data formats)
    REQUEST_BILL_ID = 157
    SCALING_FACTOR = 156
    ROUTE_BILL = 154
    MODIFY_BILL_MODE = 153
    REQUEST_BILL_MODE = 152


ACK = Header.REPLY
NAK = Header.NAK
BUSY = Header.BUSY
ENABLE_CODE = 165  # data of 164 that enables a hopper; anything else disables it

CATEGORY_COIN_ACCEPTOR = "Coin Acceptor"
CATEGORY_PAYOUT = "Payout"
CATEGORY_BILL_VALIDATOR = "Bill Validator"

# Table 8 (part 3): (min, max) data bytes sent with each header, and in its reply.
REQUEST_LENGTHS: dict[int, tuple[int, int]] = {
    Header.RESET_DEVICE: (0, 0),
    Header.COMMS_REVISION: (0, 0),
    Header.SIMPLE_POLL: (0, 0),
    Header.MANUFACTURER_ID: (0, 0),
    Header.EQUIPMENT_CATEGORY: (0, 0),
    Header.PRODUCT_CODE: (0, 0),
    Header.SERIAL_NUMBER: (0, 0),
    Header.SOFTWARE_REVISION: (0, 0),
    Header.SELF_CHECK: (0, 0),
    Header.MODIFY_INHIBIT: (1, 16),
    Header.REQUEST_INHIBIT: (0, 0),
    Header.READ_BUFFERED_CREDIT: (0, 0),
    Header.MODIFY_MASTER_INHIBIT: (1, 1),
    Header.REQUEST_MASTER_INHIBIT: (0, 0),
    Header.PAYOUT_LEVEL_STATUS: (0, 1),
    Header.DATA_STORAGE: (0, 0),
    Header.ROM_CHECKSUM: (0, 0),
    Header.BUILD_CODE: (0, 0),
    Header.COIN_ID: (1, 1),
    Header.EMERGENCY_STOP: (0, 0),
    Header.HOPPER_COIN: (0, 0),
    Header.DISPENSE_COUNT: (0, 0),
    Header.DISPENSE: (4, 9),
    Header.HOPPER_STATUS: (0, 0),
    Header.ENABLE_HOPPER: (1, 1),
    Header.TEST_HOPPER: (0, 0),
    Header.CIPHER_KEY: (0, 0),
    Header.READ_BUFFERED_BILL: (0, 0),
    Header.REQUEST_BILL_ID: (1, 1),
    Header.SCALING_FACTOR: (2, 2),
    Header.ROUTE_BILL: (1, 1),
    Header.MODIFY_BILL_MODE: (1, 1),
    Header.REQUEST_BILL_MODE: (0, 0),
}
REPLY_LENGTHS: dict[int, tuple[int, int]] = {
    Header.RESET_DEVICE: (0, 0),
    Header.COMMS_REVISION: (3, 3),
    Header.SIMPLE_POLL: (0, 0),
    Header.MANUFACTURER_ID: (3, 32),
    Header.EQUIPMENT_CATEGORY: (3, 16),
    Header.PRODUCT_CODE: (3, 16),
    Header.SERIAL_NUMBER: (3, 4),
    Header.SOFTWARE_REVISION: (3, 32),
    Header.SELF_CHECK: (1, 2),
    Header.MODIFY_INHIBIT: (0, 0),
    Header.REQUEST_INHIBIT: (1, 16),
    Header.READ_BUFFERED_CREDIT: (11, 11),
    Header.MODIFY_MASTER_INHIBIT: (0, 0),
    Header.REQUEST_MASTER_INHIBIT: (1, 1),
    Header.PAYOUT_LEVEL_STATUS: (1, 1),
    Header.DATA_STORAGE: (5, 5),
    Header.ROM_CHECKSUM: (4, 4),
    Header.BUILD_CODE: (3, 32),
    Header.COIN_ID: (6, 6),
    Header.EMERGENCY_STOP: (1, 1),
    Header.HOPPER_COIN: (6, 6),
    Header.DISPENSE_COUNT: (3, 3),
    Header.DISPENSE: (0, 1),  # SCH1: ACK; SCH2: the event counter
    Header.HOPPER_STATUS: (4, 4),
    Header.ENABLE_HOPPER: (0, 0),
    Header.TEST_HOPPER: (1, 3),
    Header.CIPHER_KEY: (8, 8),
    Header.READ_BUFFERED_BILL: (11, 11),
    Header.REQUEST_BILL_ID: (7, 7),
    Header.SCALING_FACTOR: (3, 3),
    Header.ROUTE_BILL: (0, 1),  # ACK, or an error code (254 escrow empty, 255 failed to route)
    Header.MODIFY_BILL_MODE: (0, 0),
    Header.REQUEST_BILL_MODE: (1, 1),
}


# --- numbers and strings ---------------------------------------------------------------


def encode_uint(value: int, width: int = 3) -> bytes:
    """Little-endian unsigned (ccTalk counters and serial numbers: LSB first)."""
    if not 0 <= value < 1 << (8 * width):
        raise ValueError(f"{value} does not fit in {width} bytes")
    return value.to_bytes(width, "little")


def decode_uint(data: bytes) -> int:
    return int.from_bytes(data, "little")


def encode_ascii(text: str) -> bytes:
    """An ASCII string as ccTalk sends it: in reading order, no terminator."""
    return text.encode("ascii")


def decode_ascii(data: bytes) -> str:
    return data.decode("ascii", errors="replace")


COIN_ID_WIDTH = 6


def encode_coin_id(coin_id: str | None) -> bytes:
    """184 reply: six characters, dots for an empty position (padding with dots)."""
    text = (coin_id or "").ljust(COIN_ID_WIDTH, ".")
    if len(text) != COIN_ID_WIDTH:
        raise ValueError(f"coin id {coin_id!r} is longer than {COIN_ID_WIDTH} characters")
    return encode_ascii(text)


def decode_coin_id(data: bytes) -> str | None:
    """The coin id, or None for an empty position (all dots)."""
    text = decode_ascii(data).rstrip(".").strip()
    return text or None


# --- 231 / 228: inhibits ------------------------------------------------------------------


def encode_inhibits(accepted: set[int] | frozenset[int], width: int = 2) -> bytes:
    """231 data: bit (position - 1) set = that coin position accepted."""
    mask = 0
    for pos in accepted:
        if not 1 <= pos <= 8 * width:
            raise ValueError(f"coin position {pos} outside 1..{8 * width}")
        mask |= 1 << (pos - 1)
    return encode_uint(mask, width)


def decode_inhibits(data: bytes) -> frozenset[int]:
    mask = decode_uint(data)
    return frozenset(i + 1 for i in range(8 * len(data)) if mask >> i & 1)


def encode_master_inhibit(accepting: bool) -> bytes:
    """228 data: bit 0 = 1 for normal operation, 0 for master inhibit active."""
    return bytes((1 if accepting else 0,))


# --- 229: buffered credit or error codes ---------------------------------------------------

BUFFER_EVENTS = 5


@dataclass(frozen=True)
class CoinEvent:
    """One event of the 229 buffer: result A then result B."""

    a: int
    b: int

    @property
    def is_credit(self) -> bool:
        return self.a != 0

    @property
    def is_null(self) -> bool:
        return self.a == 0 and self.b == 0

    @property
    def position(self) -> int:
        """Coin position (1..16) of a credit."""
        return self.a

    @property
    def sorter(self) -> int:
        return self.b

    @property
    def error_code(self) -> int:
        """Table 2 code of an error event (result A = 0)."""
        return self.b


@dataclass(frozen=True)
class BufferedCredit:
    """229 reply: the event counter and the last five events, newest first."""

    counter: int
    events: tuple[CoinEvent, ...]

    def encode(self) -> bytes:
        if len(self.events) != BUFFER_EVENTS:
            raise ValueError("the buffer holds exactly five events")
        out = bytearray((self.counter,))
        for ev in self.events:
            out += bytes((ev.a, ev.b))
        return bytes(out)

    @classmethod
    def decode(cls, data: bytes) -> BufferedCredit:
        if len(data) != 1 + 2 * BUFFER_EVENTS:
            raise ValueError(f"229 reply has 11 data bytes, got {len(data)}")
        events = tuple(CoinEvent(data[1 + 2 * i], data[2 + 2 * i]) for i in range(BUFFER_EVENTS))
        return cls(data[0], events)


def next_counter(counter: int) -> int:
    """The event counter after one more event: 1..255, wrapping 255 -> 1 (0 only at reset)."""
    return 1 if counter >= 255 else counter + 1


def new_event_count(last: int, now: int) -> int:
    """How many events happened between two readings of an event counter (last != 0 or 0).

    ``now == 0`` means a reset and is the caller's business; this answers 0 for it.
    """
    if now == 0:
        return 0
    if last == 0:
        return now
    return (now - last) % 255


# Table 2 (part 3): coin acceptor error codes.
COIN_ERRORS: dict[int, str] = {
    0: "null event",
    1: "reject coin",
    2: "inhibited coin",
    3: "multiple window",
    4: "wake-up timeout",
    5: "validation timeout",
    6: "credit sensor timeout",
    7: "sorter opto timeout",
    8: "2nd close coin error",
    9: "accept gate not ready",
    10: "credit sensor not ready",
    11: "sorter not ready",
    12: "reject coin not cleared",
    13: "validation sensor not ready",
    14: "credit sensor blocked",
    15: "sorter opto blocked",
    16: "credit sequence error",
    17: "coin going backwards",
    18: "coin too fast (over credit sensor)",
    19: "coin too slow (over credit sensor)",
    20: "coin on string mechanism activated",
    21: "DCE opto timeout",
    22: "DCE opto not seen",
    23: "credit sensor reached too early",
    24: "reject coin (repeated sequential trip)",
    25: "reject slug",
    26: "reject sensor blocked",
    27: "games overload",
    28: "max. coin meter pulses exceeded",
    29: "accept gate open not closed",
    30: "accept gate closed not open",
    31: "manifold opto timeout",
    32: "manifold opto blocked",
    33: "manifold not ready",
    34: "security status changed",
    35: "motor exception",
    36: "swallowed coin",
    37: "coin too fast (over validation sensor)",
    38: "coin too slow (over validation sensor)",
    39: "coin incorrectly sorted",
    40: "external light attack",
    253: "data block request",
    254: "coin return mechanism activated",
    255: "unspecified alarm code",
}
# Codes Table 2's descriptions call a possible fraud attempt (or fraud material).
FRAUD_CODES = frozenset({16, 17, 18, 19, 20, 22, 23, 24, 25, 34, 36, 38, 40})


def coin_error_name(code: int) -> str:
    if code in COIN_ERRORS:
        return COIN_ERRORS[code]
    if 128 <= code <= 159:
        return f"inhibited coin (type {code - 127})"
    return f"error code {code}"


# --- the rest of Appendix 13's minimum set ----------------------------------------------------

SELF_CHECK_OK = 0  # Table 3: fault code 0, no fault detected


def encode_self_check(fault: int, extra: int | None = None) -> bytes:
    """232 reply: the Table 3 fault code, and for some codes one byte of extra information."""
    return bytes((fault,)) if extra is None else bytes((fault, extra))


# 217 level status bits: 0 below the low level, 1 at or above the high level; 4 and 5 say
# whether the low and the high level sensor is fitted.
LEVEL_LOW, LEVEL_HIGH, LEVEL_LOW_FITTED, LEVEL_HIGH_FITTED = 0x01, 0x02, 0x10, 0x20


def encode_level_status(low: bool | None, high: bool | None) -> bytes:
    """217 reply: each sensor's reading, None for a sensor that is not fitted."""
    bits = 0
    if low is not None:
        bits |= LEVEL_LOW_FITTED | (LEVEL_LOW if low else 0)
    if high is not None:
        bits |= LEVEL_HIGH_FITTED | (LEVEL_HIGH if high else 0)
    return bytes((bits,))


NO_DATA_STORAGE = bytes(5)  # 216 reply: volatile, and 0 bytes per block: no read or write service


# --- hoppers -------------------------------------------------------------------------------


@dataclass(frozen=True)
class HopperStatus:
    """166 reply."""

    counter: int
    remaining: int
    paid: int
    unpaid: int

    def encode(self) -> bytes:
        return bytes((self.counter, self.remaining, min(self.paid, 255), min(self.unpaid, 255)))

    @classmethod
    def decode(cls, data: bytes) -> HopperStatus:
        if len(data) != 4:
            raise ValueError(f"166 reply has 4 data bytes, got {len(data)}")
        return cls(*data)


# 163 flag registers: (register, bit) -> name. Register numbers are 1-based as in the spec.
HOPPER_FLAG_NAMES: dict[tuple[int, int], str] = {
    (1, 0): "absolute maximum current exceeded",
    (1, 1): "payout timeout occurred",
    (1, 2): "motor reversed during last payout to clear a jam",
    (1, 3): "opto fraud attempt, path blocked during idle",
    (1, 4): "opto fraud attempt, short-circuit during idle",
    (1, 5): "opto blocked permanently during payout",
    (1, 6): "power-up detected",
    (1, 7): "payout disabled",
    (2, 0): "opto fraud attempt, short-circuit during payout",
    (2, 1): "single coin payout mode",
    (2, 2): "use other hopper for change",
    (2, 3): "opto fraud attempt, finger / slider mis-match",
    (2, 4): "motor reverse limit reached",
    (2, 5): "inductive coil fault",
    (2, 6): "NV memory checksum error",
    (2, 7): "PIN number mechanism",
    (3, 0): "power-down during payout",
    (3, 1): "unknown coin type paid",
    (3, 2): "PIN number incorrect",
    (3, 3): "incorrect cipher key",
    (3, 4): "encryption enabled",
}
# Flags that must be cleared (software reset) before the next payout, per section 3.90.1.
BLOCKING_FLAGS = frozenset(
    {(1, 0), (1, 3), (1, 4), (1, 5), (2, 0), (2, 3), (2, 4), (2, 5), (3, 0), (3, 1), (3, 2), (3, 3)}
)
_FAULT_OF_FLAG: tuple[tuple[tuple[int, int], str], ...] = (
    ((3, 0), "power cut"),
    ((1, 3), "fraud"),
    ((1, 4), "fraud"),
    ((1, 5), "fraud"),
    ((2, 0), "fraud"),
    ((2, 3), "fraud"),
    ((1, 0), "jam"),
    ((2, 4), "jam"),
    ((1, 2), "jam"),
    ((1, 1), "empty"),
    ((3, 3), "security"),
    ((3, 2), "security"),
    ((2, 5), "hopper fault"),
    ((2, 6), "hopper fault"),
    ((3, 1), "hopper fault"),
)


@dataclass(frozen=True)
class HopperFlags:
    """163 reply: up to three flag registers (SCH1 sends one, SCH2 two, SCH3 three)."""

    reg1: int = 0
    reg2: int = 0
    reg3: int = 0

    def encode(self, registers: int = 3) -> bytes:
        return bytes((self.reg1, self.reg2, self.reg3)[:registers])

    @classmethod
    def decode(cls, data: bytes) -> HopperFlags:
        if not 1 <= len(data) <= 3:
            raise ValueError(f"163 reply has 1 to 3 data bytes, got {len(data)}")
        regs = tuple(data) + (0,) * (3 - len(data))
        return cls(*regs)

    def is_set(self, register: int, bit: int) -> bool:
        return bool((self.reg1, self.reg2, self.reg3)[register - 1] >> bit & 1)

    @property
    def active(self) -> tuple[str, ...]:
        """The names of every flag that is on."""
        return tuple(name for (r, b), name in HOPPER_FLAG_NAMES.items() if self.is_set(r, b))

    @property
    def blocking(self) -> tuple[str, ...]:
        """The flags that forbid a payout until the hopper is reset."""
        return tuple(HOPPER_FLAG_NAMES[rb] for rb in sorted(BLOCKING_FLAGS) if self.is_set(*rb))

    @property
    def power_down_during_payout(self) -> bool:
        return self.is_set(3, 0)

    def fault_name(self) -> str | None:
        """The fault these flags name, most serious first: power cut, fraud, jam, empty, ..."""
        for rb, name in _FAULT_OF_FLAG:
            if self.is_set(*rb):
                return name
        return None


SERIAL_SECURITY_BYTES = 3
PLAIN_SECURITY_BYTES = 8


def dispense_with_serial(serial: int, coins: int) -> bytes:
    """167 data in serial-number mode: the hopper's serial (3 bytes, LSB first) then n."""
    _check_coins(coins)
    return encode_uint(serial & 0xFFFFFF, SERIAL_SECURITY_BYTES) + bytes((coins,))


def dispense_without_encryption(filler: bytes, coins: int) -> bytes:
    """167 data in "no encryption" mode (after 160): 8 arbitrary bytes then n."""
    _check_coins(coins)
    if len(filler) != PLAIN_SECURITY_BYTES:
        raise ValueError(f"{PLAIN_SECURITY_BYTES} security bytes, not {len(filler)}")
    return bytes(filler) + bytes((coins,))


def split_dispense(data: bytes) -> tuple[bytes, int]:
    """167 data as the hopper reads it: (security bytes, number of coins)."""
    if len(data) < 2:
        raise ValueError("167 data is security bytes then the number of coins")
    return bytes(data[:-1]), data[-1]


def _check_coins(coins: int) -> None:
    if not 1 <= coins <= 255:
        raise ValueError(f"a dispense is 1 to 255 coins, not {coins}")
