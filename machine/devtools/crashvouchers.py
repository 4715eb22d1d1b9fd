"""The crash test's ticket printer: its paper survives a kill, as paper does.

Owns: ``FilePrinter``, which prints the vouchers the journal issued through the same inputs as
the cabinet's printer worker (machine/loop/vouchers.py: the attempt journaled, the ticket, the
outcome journaled), keeping every ticket that came out in a file written atomically with a kill
point before and after each; every fourth voucher (by the cabinet's count, the same in every run
of a scenario) meets an empty paper roll and becomes a handpay. And the check of the paper
against the journal: each voucher paid once, every ticket of a voucher the journal paid, none of
one it turned into a handpay. Never decides anything about a voucher.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.core.cabinet import Cabinet

FAIL_EVERY = 4  # the voucher count at which the paper runs out (count % FAIL_EVERY == 0)


class FilePrinter:
    def __init__(self, folder: Path, hook: Callable[[str], None]):
        self.path = folder / "paper.json"
        self.hook = hook
        self.tickets: list[dict[str, Any]] = json.loads(self.path.read_text()) if self.path.exists() else []

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump(self.tickets, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def print(self, seat: int, v: dict[str, Any]) -> str | None:
        if v["count"] % FAIL_EVERY == 0:
            return "paper out"
        self.hook("printer_before_ticket")
        self.tickets.append({"seat": seat, "count": v["count"], "number": v["number"], "amount": v["amount"],
                             "duplicate": bool(v.get("duplicate"))})
        self._save()
        self.hook("printer_after_ticket")
        return None

    def drive(self, cab: Cabinet) -> None:
        """Every voucher waiting, printed or turned into a handpay (the worker's steps)."""
        while (seat := cab.voucher_to_print()) is not None:
            v = cab.voucher_printing(seat, 0.0)
            fault = self.print(seat, v)
            if fault is None:
                cab.voucher_printed(seat)
            else:
                cab.voucher_failed(seat, fault)


def paper_problems(tickets: list[dict[str, Any]], events: list[dict[str, Any]]) -> list[str]:
    """The paper against the journal's events (voucher_printed, voucher_to_handpay)."""
    printed = {e["number"]: e["amount"] for e in events if e["event"] == "voucher_printed"}
    handpaid = {e["number"] for e in events if e["event"] == "voucher_to_handpay"}
    out = []
    if len(printed) != len([e for e in events if e["event"] == "voucher_printed"]):
        out.append("a voucher paid twice")
    on_paper = {t["number"] for t in tickets}
    if on_paper - set(printed):
        out.append(f"tickets the journal did not pay: {sorted(on_paper - set(printed))}")
    if set(printed) - on_paper:
        out.append(f"vouchers paid but never printed: {sorted(set(printed) - on_paper)}")
    if on_paper & handpaid:
        out.append(f"vouchers both printed and hand-paid: {sorted(on_paper & handpaid)}")
    return out
