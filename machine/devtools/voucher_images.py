"""The reference pictures of a voucher in every language: ``python -m machine.devtools.voucher_images DIR``.

Owns: one fixed voucher (amount, cabinet, seat, date and time, validation number) composed as
the cabinet composes it (machine/loop/vouchers.py), printed on paper the simulated printer's way
(``hardware.sim.printer.paper_of``, ``hardware.sim.ticket_png``) into ``DIR/voucher-<lang>.png``
(tests/comparison_images holds them; tests/test_vouchers.py compares). Look at them after a
deliberate change of the voucher, before committing them.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hardware.sim.printer import paper_of
from hardware.sim.ticket_png import render

from machine.i18n import LANGUAGES
from machine.loop.vouchers import voucher_ticket

SAMPLE = {"number": "000710000000173956", "amount": 1250, "time": 1_796_000_000.0, "duplicate": False}
SAMPLE_SEAT, SAMPLE_CABINET, SAMPLE_CENTS = 2, 7, 10


def voucher_png(language: str, path: Path, duplicate: bool = False) -> Path:
    data = voucher_ticket({**SAMPLE, "duplicate": duplicate}, SAMPLE_SEAT, language=language,
                          cents_per_point=SAMPLE_CENTS, cabinet=SAMPLE_CABINET)
    paper = paper_of(data)
    return render(paper.lines, paper.barcodes, path)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m machine.devtools.voucher_images DIR", file=sys.stderr)
        return 2
    for lang in LANGUAGES:
        print(voucher_png(lang, Path(argv[0]) / f"voucher-{lang}.png"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
