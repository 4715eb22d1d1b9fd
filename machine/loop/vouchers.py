"""The ticket printer's worker: each voucher the journal issued, composed, printed once, reported.

Owns: ``voucher_ticket`` (a voucher as ESC/POS: the word for voucher, the amount as money, the
cabinet and seat, date and time, the validation number and its ITF barcode, DUPLICATE on a
reprint, and the warning against gambling addiction, in the cabinet's language from the
catalogs' ``voucher.po``), and ``PrinterWorker``, the thread that prints: for the seat whose
voucher waits, the attempt journaled first (with the wall clock's date and time), the ticket
sent only to a printer whose status shows no fault, and the outcome journaled: printed (the
credit leaves the seat) or the fault (the voucher void, a handpay). A voucher a cut left
"printing" is printed again as a duplicate of its number (one number is redeemed once). Never
decides what is owed; never draws.
"""

from __future__ import annotations

import textwrap
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from hardware.links import open_transport
from hardware.printer.escpos import CENTRE, Ticket
from hardware.printer.printer import TicketPrinter
from hardware.transport import TransportError

from machine.core.cabinet import Cabinet
from machine.i18n import N_, Words

POLL = 0.2  # seconds between two looks for a voucher to print
WIDTH = 42  # characters of a normal line on 80 mm paper (the warning is wrapped to it)
WARNING = N_("Gambling can be addictive. Play for fun, set yourself a limit and stop in time. "
             "Worried about your gambling? Ask the staff, or call the national helpline.")


def voucher_ticket(v: dict[str, Any], seat: int, *, language: str, cents_per_point: int, cabinet: int) -> bytes:
    """The ESC/POS bytes of voucher ``v`` (number, amount, time, duplicate) of ``seat``."""
    _ = Words(language)
    when = datetime.fromtimestamp(v["time"] or 0, UTC)
    money = " ".join(_.money(v["amount"], cents_per_point).replace("€", " EUR ").split())
    t = Ticket(language)
    t.line(_("VOUCHER"), align=CENTRE, bold=True, size=2)
    if v.get("duplicate"):
        t.line(_("DUPLICATE - valid once, as the first"), align=CENTRE, bold=True)
    t.feed(1)
    t.line(_("Amount: {money}", money=money), align=CENTRE, bold=True, size=2)
    t.feed(1)
    t.line(_("Cabinet {cabinet}, seat {seat}", cabinet=cabinet, seat=seat))
    t.line(_("Date {date}, time {time} UTC", date=when.strftime("%Y-%m-%d"), time=when.strftime("%H:%M:%S")))
    t.line(_("Validation number {number}", number=_spaced(v["number"])))
    t.feed(1)
    t.barcode(v["number"])
    t.feed(1)
    for part in textwrap.wrap(_(WARNING), WIDTH):
        t.line(part, align=CENTRE)
    t.feed(2)
    return t.cut().data


def _spaced(number: str) -> str:
    return " ".join(number[i:i + 4] for i in range(0, len(number), 4))


class PrinterWorker:
    """The thread that prints the journal's vouchers (see the docstring)."""

    def __init__(self, cab: Cabinet, lock: threading.Lock, url: str, *, language: str, cents_per_point: int,
                 wall: Callable[[], float] = time.time, opener: Callable[[str], Any] = open_transport) -> None:
        self.cab, self.lock, self.url = cab, lock, url
        self.language, self.cents = language, cents_per_point
        self.wall = wall
        self.opener = opener
        self.printer: TicketPrinter | None = None
        self.fault: str | None = None  # the last printer fault, for the screens
        self.printed = 0
        self.error: BaseException | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ticket printer", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        if self.printer is not None:
            self.printer.close()

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                self.step()
                self._stop.wait(POLL)
        except BaseException as exc:  # a journal failure: the frame loop stops the machine
            self.error = exc

    def _open(self) -> TicketPrinter | None:
        if self.printer is None:
            try:
                self.printer = TicketPrinter(self.opener(self.url))
            except (TransportError, OSError) as exc:
                self.fault = f"offline ({exc})"
        return self.printer

    def step(self) -> None:
        """Print the voucher that waits, if one does: attempt journaled, ticket, outcome journaled."""
        with self.lock:
            seat = self.cab.voucher_to_print()
            if seat is None:
                return
            voucher = self.cab.voucher_printing(seat, self.wall())
        printer = self._open()
        try:
            data = voucher_ticket(voucher, seat, language=self.language, cents_per_point=self.cents,
                                  cabinet=self.cab.settings.cabinet_id)
            fault = "offline" if printer is None else printer.print(data)
        except (TransportError, OSError) as exc:
            fault = f"offline ({exc})"
            self.printer = None
        with self.lock:
            if fault is None:
                self.cab.voucher_printed(seat)
                self.printed += 1
            else:
                self.cab.voucher_failed(seat, fault)
        self.fault = fault
