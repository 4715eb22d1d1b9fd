"""A simulated ESC/POS ticket printer on a real link (a pty), printing each ticket to a PNG.

Owns: the printer's side of the link (bytes in through ``EscPosParser``, one status byte out for
each DLE EOT n), its paper, cutter and power as faults a test or ``tools/run`` sets
(``fault("paper_out", after=K)``: the paper runs out after K more lines; ``"jam"``: the cutter
jams at the next cut; ``"offline"``: no answer and nothing printed; ``clear()``), and every ticket
it cut: its lines and barcode, and a picture of it (``ticket_png.py``) in ``out_dir`` when one is
given. A ticket the paper ran out on is kept as ``incomplete``. Every public method is
thread-safe. Never knows what a ticket means.
"""

from __future__ import annotations

import os
import select
import threading
from dataclasses import dataclass, field
from pathlib import Path

from hardware.printer.escpos import Barcode, Cut, EscPosError, EscPosParser, Feed, Line, PrinterStatus, StatusRequest
from hardware.sim.link import LinkEnd
from hardware.sim.ticket_png import BARCODE_MARK


@dataclass
class PrintedTicket:
    lines: list[Line] = field(default_factory=list)
    barcodes: list[Barcode] = field(default_factory=list)
    feeds: int = 0
    complete: bool = False
    png: Path | None = None

    @property
    def text(self) -> list[str]:
        return [ln.text for ln in self.lines]

    def add(self, item: Line | Barcode | Feed) -> None:
        """What the print head put on the paper (a barcode takes a line of its own)."""
        if isinstance(item, Barcode):
            self.barcodes.append(item)
            self.lines.append(Line(f"{BARCODE_MARK}{len(self.barcodes) - 1}", 1, False, 1))
        elif isinstance(item, Feed):
            self.feeds += item.lines
            self.lines += [Line("", 0, False, 1)] * item.lines
        else:
            self.lines.append(item)


def paper_of(data: bytes) -> PrintedTicket:
    """The ticket a healthy printer makes of ``data`` (up to its first cut)."""
    ticket = PrintedTicket()
    for item in EscPosParser().feed(data):
        if isinstance(item, Cut):
            ticket.complete = True
            break
        if isinstance(item, Line | Barcode | Feed):
            ticket.add(item)
    return ticket


class PrinterSimulator:
    """See the module docstring; ``link_url`` is what the host opens."""

    def __init__(self, out_dir: str | Path | None = None, *, link: str = "pty") -> None:
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self._link = LinkEnd(link, option="the printer's link")
        self.link_url = self._link.name
        self._lock = threading.RLock()
        self._parser = EscPosParser()
        self._ticket = PrintedTicket()
        self.tickets: list[PrintedTicket] = []
        self.paper_left: int | None = None  # lines before the paper runs out (None: a full roll)
        self.jam_at_cut = False
        self.offline = False
        self.state = PrinterStatus()
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> PrinterSimulator:
        self._thread = threading.Thread(target=self._run, name="printer simulator", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        self._link.close()

    # -- faults ------------------------------------------------------------------------------------

    def fault(self, kind: str, after: int | None = None) -> None:
        with self._lock:
            if kind == "paper_out":
                self.paper_left = after or 0
                if not self.paper_left:
                    self.state = PrinterStatus(paper_out=True)
            elif kind == "jam":
                self.jam_at_cut = True
            elif kind == "offline":
                self.offline = True
            else:
                raise ValueError(f"printer faults: paper_out, jam, offline; not {kind!r}")

    def clear(self) -> None:
        """Paper loaded, cutter freed, power back: a printer that can print."""
        with self._lock:
            self.paper_left, self.jam_at_cut, self.offline = None, False, False
            self.state = PrinterStatus()

    # -- the link --------------------------------------------------------------------------------

    def _run(self) -> None:
        fd = self._link.master
        assert fd is not None
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(fd, 4096)
            except OSError:
                continue
            with self._lock:
                reply = self.receive(data)
            if reply:
                os.write(fd, reply)

    def receive(self, data: bytes) -> bytes:
        """Bytes from the host; the status bytes to send back."""
        if self.offline:
            return b""
        out = bytearray()
        try:
            for item in self._parser.feed(data):
                out += self._do(item)
        except EscPosError as exc:
            self.errors.append(str(exc))
        return bytes(out)

    def _do(self, item: object) -> bytes:
        if isinstance(item, StatusRequest):
            return self.state.encode()[item.n - 1:item.n]
        if self.state.fault is not None:
            return b""  # a printer that stopped prints nothing more
        if isinstance(item, Line | Barcode):
            if self.paper_left is not None:
                if self.paper_left <= 0:
                    self.state = PrinterStatus(paper_out=True)
                    self._finish(complete=False)
                    return b""
                self.paper_left -= 1
            self._ticket.add(item)
        elif isinstance(item, Feed):
            self._ticket.add(item)
        elif isinstance(item, Cut):
            if self.jam_at_cut:
                self.state = PrinterStatus(cutter_error=True)
                self._finish(complete=False)
            else:
                self._finish(complete=True)
        return b""

    def _finish(self, complete: bool) -> None:
        ticket, self._ticket = self._ticket, PrintedTicket()
        ticket.complete = complete
        if not ticket.lines:
            return
        self.tickets.append(ticket)
        if self.out_dir is not None:
            from hardware.sim.ticket_png import render

            name = f"ticket-{len(self.tickets):04d}{'' if complete else '-incomplete'}.png"
            ticket.png = render(ticket.lines, ticket.barcodes, self.out_dir / name)

    def printed(self) -> list[PrintedTicket]:
        with self._lock:
            return list(self.tickets)
