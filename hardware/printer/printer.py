"""The ticket printer driver: its real-time status, and a ticket sent only to a printer that can print it.

Owns: ``TicketPrinter`` on a ``Transport``: the four DLE EOT answers read into a
``PrinterStatus`` (a printer that does not answer within ``timeout`` is offline), and ``print``,
which sends a ticket's bytes only when the status shows no fault and reads the status again
after them: the ticket is printed only when that second look shows none either (paper that ran
out, a cutter jam, a printer gone part way, are the fault it returns). Never composes a ticket
(the cabinet does, in its language), never decides what a fault means for the money.
"""

from __future__ import annotations

from hardware.printer.escpos import STATUS_REQUESTS, EscPosError, PrinterStatus, status_request
from hardware.transport import Transport

OFFLINE = PrinterStatus(offline=True)


class TicketPrinter:
    """An ESC/POS ticket printer on one link."""

    def __init__(self, transport: Transport, *, timeout: float = 0.5, settle: float = 0.05) -> None:
        self.transport = transport
        self.timeout = timeout
        self.settle = settle  # seconds the printer may take over a ticket before its status is read again

    def status(self) -> PrinterStatus:
        """The printer's status now; offline when it does not answer (or answers nonsense)."""
        while self.transport.read(256, 0):
            pass  # anything left on the line belongs to no question of ours
        answers = bytearray()
        for n in STATUS_REQUESTS:
            self.transport.write(status_request(n))
            got = self.transport.read(1, self.timeout)
            if not got:
                return OFFLINE
            answers += got
        try:
            return PrinterStatus.decode(bytes(answers))
        except EscPosError:
            return OFFLINE

    def print(self, ticket: bytes) -> str | None:
        """Print ``ticket``: None when it is printed whole, else the fault (nothing sent, or the
        printer stopped part way)."""
        before = self.status().fault
        if before is not None:
            return before
        self.transport.write(ticket)
        self.transport.read(1, self.settle)  # (a printer sends nothing unasked: this only waits)
        return self.status().fault

    def close(self) -> None:
        self.transport.close()
