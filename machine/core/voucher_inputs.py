"""The cabinet's inputs from its ticket printer: each step of a voucher, one journal transaction.

Owns: ``VoucherInputs``, the ``Cabinet``'s entry for whoever drives the printer
(machine/loop/vouchers.py): the voucher waiting to be printed, the start of each attempt (its
date and time journaled before a byte is sent), the ticket printed, the printer's fault (the
voucher void and its amount a handpay). Each is durable before it returns
(``vouchers.py`` does the work). Never talks to a printer.
"""

from __future__ import annotations

from typing import Any

from machine.core import payouts, vouchers
from machine.core.queries import CabinetQueries


class VoucherInputs(CabinetQueries):
    """A ticket printer's reports (see the docstring)."""

    def voucher_to_print(self) -> int | None:
        """The seat whose voucher waits for the printer (the lowest), or None."""
        waiting = self.core.state.row.vouchers.get("pending", {})
        return min((int(n) for n in waiting), default=None)

    def voucher_of(self, n: int) -> dict[str, Any] | None:
        v = vouchers.pending(self.core, n)
        return None if v is None else dict(v)

    def voucher_printing(self, n: int, wall: float) -> dict[str, Any]:
        with self.core.tx("voucher_printing", {"wall": wall}, n):
            return vouchers.printing(self.core, n, wall)

    def voucher_printed(self, n: int) -> None:
        with self.core.tx("voucher_printed", {}, n):
            vouchers.printed(self.core, self.seats[n])

    def voucher_failed(self, n: int, fault: str) -> None:
        with self.core.tx("voucher_failed", {"fault": fault}, n):
            payouts.lock_handpay(self.core, self.seats[n], vouchers.failed(self.core, self.seats[n], fault))
