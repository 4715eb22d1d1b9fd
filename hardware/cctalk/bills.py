"""The data formats of a ccTalk bill validator: Table 7 event codes, bill ids, scaling, routing.

Owns: what a bill event (the two bytes of a 159 reading) means (credit, held in escrow, or a
Table 7 status, reject, fraud attempt or fatal error, with its name), the seven-character bill
id of 157 (country, value in the country's scaling factor, issue), the 156 scaling factor
reply, the 154 route codes and the error codes of its reply, and the 153 operating mode mask.
Pure functions and constants; never does I/O, never keeps state.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hardware.cctalk.headers import CoinEvent, decode_ascii, encode_ascii

# 154: route codes and the error codes its reply may carry
ROUTE_RETURN, ROUTE_STACK, ROUTE_EXTEND = 0, 1, 255
ROUTE_ESCROW_EMPTY, ROUTE_FAILED = 254, 255
# 153: operating mode bits
MODE_STACKER, MODE_ESCROW = 0x01, 0x02

# Table 7 (part 3): result A = 0, result B = the code; its event type and name.
STATUS, REJECT, FRAUD, FATAL = "status", "reject", "fraud", "fatal"
BILL_EVENTS: dict[int, tuple[str, str]] = {
    0: (STATUS, "master inhibit active"),
    1: (STATUS, "bill returned from escrow"),
    2: (REJECT, "invalid bill (validation fail)"),
    3: (REJECT, "invalid bill (transport problem)"),
    4: (STATUS, "inhibited bill (on serial)"),
    5: (STATUS, "inhibited bill (on DIP switches)"),
    6: (FATAL, "bill jammed in transport (unsafe mode)"),
    7: (FATAL, "bill jammed in stacker"),
    8: (FRAUD, "bill pulled backwards"),
    9: (FRAUD, "bill tamper"),
    10: (STATUS, "stacker OK"),
    11: (FATAL, "stacker removed"),  # Table 7 calls it status; a cabinet without its cash box must not take notes
    12: (STATUS, "stacker inserted"),
    13: (FATAL, "stacker faulty"),
    14: (FATAL, "stacker full"),  # status in Table 7; no note can be stacked until it is emptied
    15: (FATAL, "stacker jammed"),
    16: (FATAL, "bill jammed in transport (safe mode)"),
    17: (FRAUD, "opto fraud detected"),
    18: (FRAUD, "string fraud detected"),
    19: (FATAL, "anti-string mechanism faulty"),
    20: (STATUS, "barcode detected"),
    21: (STATUS, "unknown bill type stacked"),
}
RETURNED = 1  # "bill returned from escrow"
PULLED_BACK, JAM_UNSAFE, JAM_SAFE, STACKER_REMOVED, STACKER_INSERTED, STACKER_FULL = 8, 6, 16, 11, 12, 14


def bill_event_kind(code: int) -> tuple[str, str]:
    """(event type, name) of an error/status event; unknown codes are faults."""
    return BILL_EVENTS.get(code, (FATAL, f"bill event code {code}"))


def is_escrow(ev: CoinEvent) -> bool:
    """Bill type ``ev.a`` validated and held in escrow (result B = 1)."""
    return ev.a != 0 and ev.b == 1


def is_stacked(ev: CoinEvent) -> bool:
    """Bill type ``ev.a`` validated and sent to the stacker (result B = 0): a credit."""
    return ev.a != 0 and ev.b == 0


# --- 157: bill id ------------------------------------------------------------------------------

BILL_ID = re.compile(r"^([A-Z]{2})(\d{4})([A-Z])$")  # CC VVVV I
BILL_ID_WIDTH = 7


def encode_bill_id(bill_id: str | None) -> bytes:
    """157 reply: seven characters, dots for a type the validator does not know."""
    text = (bill_id or "").ljust(BILL_ID_WIDTH, ".")
    if len(text) != BILL_ID_WIDTH:
        raise ValueError(f"bill id {bill_id!r} is longer than {BILL_ID_WIDTH} characters")
    return encode_ascii(text)


def decode_bill_id(data: bytes) -> str | None:
    text = decode_ascii(data).rstrip(".").strip()
    return text or None


def bill_face_units(bill_id: str) -> int | None:
    """The VVVV of a bill id: its value in the country's scaling factor (``EU0020A``: 20)."""
    m = BILL_ID.match(bill_id)
    return int(m.group(2)) if m else None


# --- 156: country scaling factor ------------------------------------------------------------


@dataclass(frozen=True)
class Scaling:
    """156 reply: a bill id's VVVV times ``factor`` is its value in units of 10^-``decimals``."""

    factor: int
    decimals: int

    def encode(self) -> bytes:
        return bytes((self.factor & 0xFF, self.factor >> 8, self.decimals))

    @classmethod
    def decode(cls, data: bytes) -> Scaling | None:
        """None: all zero, the country is not supported."""
        if len(data) != 3:
            raise ValueError(f"a scaling factor is 3 bytes, not {len(data)}")
        if not any(data):
            return None
        return cls(data[0] | data[1] << 8, data[2])


EURO_SCALING = Scaling(100, 2)  # VVVV in euros: x 100 in cents
