"""A seat's vouchers as its SAS host validates them: the machine's own enhanced validation.

Owns, on the cabinet's side: the seat's printed vouchers read from the JOURNAL
(``printed_vouchers`` at start, ``voucher_entry`` for each new ``voucher_printed`` event), the
last ``BUFFER`` of them, each with its ordinal (the seat's ``vouchers_out`` meter when it was
printed), for the snapshot. On the child's side: ``SeatTickets``, the ``TicketValidation``
(hardware/sas/source.py) the ticket polls answer from — 4D the validation records (type 00,
a cashable ticket from a cash-out; the 18-digit number split as the validation system id,
its first two digits, and the validation number, its other sixteen), 50 the validation meters
from the journal's voucher meters, 3D the last ticket's low eight digits and amount, 4C ignored
(the numbers are the machine's, not secure enhanced ones), 7B the printer as cash-out device.
Which record the host took with 4D 00 survives a restart: the child tells the cabinet
(``on_read``), the cabinet journals it (``sas_validation_read``, the voucher's ordinal and
number), and at start ``VoucherBook`` hands the last one in the snapshot (``read``) for
``SeatTickets.start``. A record taken and not yet journaled when the power goes is given again
after the restart (the host gets a repeat: the safe side); a journal without any such event
(none read yet, or written before this) gives every buffered record again. A voucher that
failed and became a handpay is no ticket: it is not here. Never counts money, never writes the
journal.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from hardware.sas.source import Validation

from machine.core import vouchers

BUFFER = 31  # the validation records a machine keeps (4D's indexes 01-1F)
CASHABLE_FROM_CASHOUT = 0x00  # the document's validation type of a cash-out ticket
PRINTER_AS_CASHOUT = 0x0001  # 7B's status bit: the printer is a cash-out device
PRINTED = "voucher_printed"
READ = "sas_validation_read"  # the journal's event: the host took a record with 4D 00
READ_INPUT = "host_validation_read"  # the core's input that journals it (machine/core/operator_inputs.py)


def voucher_entry(data: Mapping[str, Any], ordinal: int, at: float | None) -> dict[str, Any]:
    """One printed voucher as the snapshot carries it (``data``: the journal event's)."""
    return {"number": str(data["number"]), "amount": int(data["amount"]), "ordinal": ordinal, "at": at or 0.0}


def printed_vouchers(journal: Any, seat: int, printed_count: int) -> list[dict[str, Any]]:
    """The seat's last ``BUFFER`` printed vouchers, oldest first, read from the journal's events
    since the oldest of its last ``BUFFER`` issued vouchers (``printed_count``: its
    ``vouchers_out`` meter, the ordinal of the newest)."""
    issued = journal.records("voucher_issued", seat=seat, last=BUFFER)
    if not issued or printed_count <= 0:
        return []
    events = [r for r in journal.records("event", seat=seat, since=issued[0].seq - 1) if r.data.get("event") == PRINTED]
    events = events[-min(BUFFER, printed_count):]
    first = printed_count - len(events) + 1
    return [voucher_entry(r.data, first + i, r.at) for i, r in enumerate(events)]


def last_read(journal: Any, seat: int) -> int:
    """The ordinal of the last record the journal says the seat's host took (0: none): the input
    that journaled its ``sas_validation_read`` event, in the same transaction."""
    got = journal.records(READ_INPUT, seat=seat, last=1)
    return int(got[-1].data["ordinal"]) if got else 0


def record_of(entry: Mapping[str, Any], cents: int) -> Validation:
    """A printed voucher as 4D's record: its ring index, the date and time it was printed."""
    number = f"{entry['number']:0>18}"
    ordinal = int(entry["ordinal"])
    return Validation(CASHABLE_FROM_CASHOUT, (ordinal - 1) % BUFFER + 1, datetime.fromtimestamp(float(entry["at"])),
                      int(number[2:]), int(entry["amount"]) * cents, ordinal & 0xFFFF, int(number[:2]))


class SeatTickets:
    """The ``TicketValidation`` of a seat with a ticket printer, over its snapshot in force."""

    def __init__(self, vouchers: Callable[[], Sequence[Mapping[str, Any]]], meter: Callable[[str], int],
                 cents: int) -> None:
        self._vouchers = vouchers
        self._meter = meter
        self._cents = cents
        self.taken = 0  # the ordinal of the last record the host took with 4D 00
        self.on_read: Callable[[Mapping[str, Any]], None] | None = None  # the child tells the cabinet

    def start(self, read: int) -> None:
        """At start: ``read``, the ordinal of the last record the journal says the host took (0:
        none): the records after it are given by 4D 00."""
        self.taken = read

    def unread(self) -> bool:
        """A buffered record the host has not taken yet."""
        return any(int(v["ordinal"]) > self.taken for v in self._vouchers())

    def cashout_ticket(self) -> tuple[int, int]:
        held = self._vouchers()
        if not held:
            return (0, 0)
        last = held[-1]
        return (int(str(last["number"])[-8:]), int(last["amount"]) * self._cents)

    def set_validation_id(self, machine_id: int, sequence: int) -> tuple[int, int] | None:
        return None

    def validation(self, function: int) -> Validation | None:
        held = self._vouchers()
        if function in (0x00, 0xFF):
            entry = next((v for v in held if int(v["ordinal"]) > self.taken), None)
            if entry is not None and function == 0x00:
                self.taken = int(entry["ordinal"])
                if self.on_read is not None:
                    self.on_read(entry)
        else:
            entry = next((v for v in held if (int(v["ordinal"]) - 1) % BUFFER + 1 == function), None)
        return None if entry is None else record_of(entry, self._cents)

    def validation_meters(self, validation_type: int) -> tuple[int, int]:
        if validation_type != CASHABLE_FROM_CASHOUT:
            return (0, 0)
        return (self._meter("vouchers_out_count"), self._meter("vouchers_out") * self._cents)

    def status(self, mask: int, states: int, cashable_days: int, restricted_days: int) -> tuple[int, int, int]:
        return (PRINTER_AS_CASHOUT, 0, 0)


class VoucherBook:
    """The bridge's printed vouchers per linked seat, from the journal: read once at start, then
    each new ``voucher_printed`` event added as the bridge reads the new records."""

    def __init__(self, cab: Any, seats: Sequence[int]) -> None:
        self.printer = vouchers.wanted(cab.core)  # a printer, and the configuration pays by voucher
        self.held: dict[int, list[dict[str, Any]]] = {}
        self.newest: dict[int, int] = {}
        self.read: dict[int, int] = {}  # the ordinal of the last record the host took, as journaled
        for n in seats:
            count = cab.seats[n].meters.get("vouchers_out")
            self.held[n] = printed_vouchers(cab.journal, n, count) if self.printer else []
            self.newest[n] = count
            self.read[n] = last_read(cab.journal, n)

    def record(self, kind: str, seat: int | None, data: Mapping[str, Any], at: float | None) -> None:
        if kind == "event" and data.get("event") == READ and seat in self.read:
            self.read[seat] = int(data["ordinal"])
        if kind != "event" or data.get("event") != PRINTED or seat not in self.held:
            return
        self.newest[seat] += 1
        self.held[seat] = [*self.held[seat], voucher_entry(data, self.newest[seat], at)][-BUFFER:]

    def taken(self, seat: int, ordinal: int) -> dict[str, Any] | None:
        """The held voucher the host took (4D 00) by its ordinal, when it is one not read yet
        (None: nothing to journal — unknown, or already read)."""
        if ordinal <= self.read.get(seat, 0):
            return None
        return next((v for v in self.held.get(seat, ()) if v["ordinal"] == ordinal), None)

    def of(self, seat: int) -> dict[str, Any]:
        """What the seat's snapshot carries of its vouchers."""
        return {"printer": self.printer, "vouchers": tuple(self.held.get(seat, ())), "read": self.read.get(seat, 0)}
