"""What the SAS machine side asks of the cabinet, and a base with the defaults the document allows.

Owns: ``MeterSource`` (the protocol the machine is written against), ``GameInfo`` (what 1F and 53
report of a game), ``Handpay`` (what 1B reports of the handpay pending), ``BaseMeterSource``
(every method but the meters with a documented default, for the cabinet's bridge to subclass),
``TicketValidation`` (the extension point of the voucher work: a source without one answers the
ticket polls as a machine with validation not configured), and the table of SAS denomination
codes. Never reads a journal, a clock or a port: the cabinet's subclass does, and answers from
the journal's meters only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from hardware.sas.aft import AftRecord

# the document's denomination codes (Appendix C), keyed by the credit's value in cents
DENOMINATION_CODES: dict[int, int] = {
    1: 0x01, 5: 0x02, 10: 0x03, 25: 0x04, 50: 0x05, 100: 0x06, 500: 0x07, 1000: 0x08, 2000: 0x09,
    10000: 0x0A, 20: 0x0B, 200: 0x0C, 250: 0x0D, 2500: 0x0E, 5000: 0x0F, 20000: 0x10, 25000: 0x11,
    50000: 0x12, 100000: 0x13, 200000: 0x14, 250000: 0x15, 500000: 0x16, 2: 0x17, 3: 0x18, 15: 0x19,
    40: 0x1A,
}


def denomination_code(cents: int) -> int:
    """The code of a credit worth ``cents`` (0: none in the table)."""
    return DENOMINATION_CODES.get(cents, 0)


@dataclass(frozen=True)
class GameInfo:
    """A game as 1F (the machine: game 0) and 53 (game N) describe it. ``base_percent`` is the
    return at best play in hundredths of a percent (9950 = 99.50 %); ``max_bet`` in credits."""

    game_id: str = "BJ"
    additional_id: str = "000"
    max_bet: int = 0
    progressive_group: int = 0
    options: int = 0
    paytable_id: str = "000000"
    base_percent: int = 0


# 1B's level: the handpay is the credit meter paid by hand (the document's "cancelled credits"),
# not a progressive level (01-20) nor a non-progressive win (40)
HANDPAY_CANCELLED_CREDITS = 0x80
# 1B's reset id: the reset methods available; 00 the standard one only (the attendant's key, or
# 94), 01 also a reset to the credit meter (which long poll A8 turns on)
RESET_STANDARD_ONLY = 0x00


@dataclass(frozen=True)
class Handpay:
    """The handpay pending as 1B reports it: ``amount`` and ``partial_pay`` in the SAS accounting
    denomination's units (credits, as the meters), ``level`` and ``reset_id`` the document's codes."""

    amount: int
    level: int = HANDPAY_CANCELLED_CREDITS
    progressive_group: int = 0
    partial_pay: int = 0
    reset_id: int = RESET_STANDARD_ONLY


@dataclass(frozen=True)
class Validation:
    """One validation record (4D): a voucher printed, a handpay validated, a ticket redeemed."""

    validation_type: int
    index: int
    when: datetime
    number: int  # the validation number, 16 BCD digits
    amount_cents: int
    ticket_number: int = 0xFFFF
    system_id: int = 0
    expiration: int = 0
    pool_id: int = 0


class TicketValidation(Protocol):
    """Tickets and validation, for the voucher work (issue 26). Without one the machine answers
    3D, 4C, 4D, 50 and 7B as a machine with validation not configured (docs/sas.md)."""

    def cashout_ticket(self) -> tuple[int, int]:
        """3D: the last cash-out ticket's validation number (8 BCD digits) and amount in cents."""
        ...

    def set_validation_id(self, machine_id: int, sequence: int) -> tuple[int, int] | None:
        """4C: set (machine_id > 0) or read (0) the secure enhanced validation id and sequence;
        None when secure enhanced validation is not this machine's (the poll is ignored)."""
        ...

    def validation(self, function: int) -> Validation | None:
        """4D: 00 the current record (and it is taken), 01-1F the buffer's record n, FF a look
        at the current one; None when there is none (an answer of zeros)."""
        ...

    def validation_meters(self, validation_type: int) -> tuple[int, int]:
        """50: how many validations of the type and their amount in cents."""
        ...

    def status(self, mask: int, states: int, cashable_days: int, restricted_days: int) -> tuple[int, int, int]:
        """7B: apply the control bits the mask names and the expirations (0 = unchanged); the
        status bits and both expirations now in force."""
        ...


class MeterSource(Protocol):
    """What the machine side asks of the cabinet, for one seat.

    ``meter(name, game)``: meters by name, per game number (0 = the whole seat): ``coin_in``,
    ``coin_out``, ``drop``, ``jackpot``, ``cancelled``, ``games_played``, ``games_won``,
    ``games_lost``, ``credits``, ``true_coin_in``, ``true_coin_out``, ``bills_value``,
    ``bills_credits``, ``games_since_power_up``, ``games_since_door``, ``bills_<dollars>``,
    ``aft_in`` and ``aft_out`` (points moved by AFT to and from the seat), ``aft_in_count`` and
    ``aft_out_count`` (how many transfers), ``vouchers_out`` and ``vouchers_out_count`` (cash-out
    vouchers printed: points, how many). A name the cabinet does not keep is 0. The other
    methods are described with ``BaseMeterSource``'s defaults."""

    def meter(self, name: str, game: int = 0) -> int: ...

    def games(self) -> tuple[int, ...]: ...

    def selected_game(self) -> int: ...

    def serial_number(self) -> str: ...

    def clock(self) -> datetime: ...

    def handpay_pending(self) -> bool: ...

    def handpay(self) -> Handpay | None:
        """1B: the handpay the seat is locked in, or None when there is none (an answer of zeros)."""
        ...

    def rom_signature(self, seed: int) -> int | None:
        """The program's CRC under ``seed``, or None while it is still being computed."""
        ...

    def game_info(self, game: int) -> GameInfo: ...

    def denomination_cents(self) -> int: ...

    def last_bill(self) -> tuple[int, int, int]: ...

    def asset_number(self) -> int: ...

    def tickets(self) -> TicketValidation | None: ...

    def aft_enabled(self) -> bool: ...

    def aft_limit_points(self) -> int: ...

    def aft_available(self) -> tuple[bool, bool]: ...

    def lockable(self) -> bool: ...

    def aft_transaction(self, transaction_id: str) -> AftRecord | None: ...


class BaseMeterSource:
    """The defaults a cabinet's source starts from; it overrides ``meter`` and what it has.

    Defaults: one game (number 1) selected; serial ``""``; the clock is the epoch (override it);
    no handpay pending (1B answers zeros); the ROM signature 0 (override with the program's);
    game info ``BJ`` with nothing else known; €0.10 credits (10 cents, the shipped
    configuration); no bill accepted yet (country 00, denomination 00, count 0); asset number 0;
    no ticket validation; AFT off, a limit of 0, neither direction available; the seat lockable
    (no game in progress); no AFT transaction known beyond those the machine keeps."""

    def meter(self, name: str, game: int = 0) -> int:
        return 0

    def games(self) -> tuple[int, ...]:
        return (1,)

    def selected_game(self) -> int:
        return self.games()[0]

    def serial_number(self) -> str:
        return ""

    def clock(self) -> datetime:
        return datetime(1970, 1, 1)

    def handpay_pending(self) -> bool:
        return False

    def handpay(self) -> Handpay | None:
        return None

    def rom_signature(self, seed: int) -> int | None:
        return 0

    def game_info(self, game: int) -> GameInfo:
        return GameInfo()

    def denomination_cents(self) -> int:
        return 10

    def last_bill(self) -> tuple[int, int, int]:
        """48: the last accepted note's country code, denomination code and count of its kind."""
        return (0, 0, 0)

    def asset_number(self) -> int:
        return 0

    def tickets(self) -> TicketValidation | None:
        return None

    def aft_enabled(self) -> bool:
        return False

    def aft_limit_points(self) -> int:
        """The most points one AFT transfer may put on the seat's credit meter."""
        return 0

    def aft_available(self) -> tuple[bool, bool]:
        """Whether a transfer to the seat, and one from it, may happen now (no tilt, no game,
        not disabled by the host, no handpay pending)."""
        return (False, False)

    def lockable(self) -> bool:
        """Whether the seat can be locked for AFT now (no round in progress)."""
        return True

    def aft_transaction(self, transaction_id: str) -> AftRecord | None:
        """The journal's record of an AFT transaction the machine no longer keeps in memory
        (older than the last 127): a replay of it is answered, never done again. None: unknown."""
        return None
