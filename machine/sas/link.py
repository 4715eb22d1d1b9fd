"""One SAS port served by a thread of its own: bytes between the port and its machines.

Owns: ``PortThread`` — the port opened as the SAS links open it (``hardware/sas/link.py``
``open_sas_link``: a real UART with space parity reading the wakeup bit, a pty or socket framed
by content), every ``SasMachine`` on it (one per configured address) served by a ``SasPort``
(each byte fed as it comes, the replies written at once: the port is read with a short timeout,
so a reply leaves within a millisecond or two of the poll's last byte, whatever the frames and
the screens do), exceptions the loop posted handed to the machines, and what the host asked
(``Shutdown``, ``Startup``, ``HandpayReset``, ``SetClock``) passed back to the loop through a
queue. A port that fails or goes away is reopened every half second (a host that closes and
reopens its end). Never touches the cabinet: the loop applies what the queue brings.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from hardware.sas.link import open_sas_link
from hardware.sas.machine import SasMachine
from hardware.sas.port import SasPort
from hardware.transport import Transport, TransportError

from machine.sas.aft import record_of
from machine.sas.source import SeatSource

READ_TIMEOUT = 0.01  # s: the longest a posted exception or a chirp waits for the port thread
REOPEN_AFTER = 0.5


class PostedMachine(SasMachine):
    """A ``SasMachine`` whose exceptions come from another thread: queued, and taken into its
    exception queue just before it reads the host's bytes (so an exception posted before a
    general poll arrives is the one that poll reports)."""

    def __init__(self, address: int, source: Any, *, now: float = 0.0, implied_nack: bool = False) -> None:
        super().__init__(address, source, now=now, implied_nack=implied_nack)
        self.posted: queue.SimpleQueue[tuple[int, bytes]] = queue.SimpleQueue()  # (code, real-time data)
        self.aft_results: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()  # the cabinet's, once journaled

    def receive_data(self, data: bytes, now: float, wakeup: list[bool] | None = None) -> None:
        while not self.posted.empty():
            self.post_exception(*self.posted.get())
        while not self.aft_results.empty():
            aft_result(self, self.aft_results.get())
        super().receive_data(data, now, wakeup)


def aft_result(machine: SasMachine, message: dict[str, Any]) -> None:
    """The cabinet journaled a transfer (``aft_done``: the machine answers it completed from now,
    and remembers it past its history) or refused it (``aft_refuse``: nothing moved)."""
    if "aft_done" in message:
        record = record_of(message["result"])
        if isinstance(machine.source, SeatSource):
            machine.source.aft_done[record.transaction_id] = record
        try:
            machine.aft.confirm(record.transaction_id, record.points, record.when or datetime.now())
        except (KeyError, ValueError):
            machine.aft.restore([record])  # not the one the machine holds: the journal's result stands
    else:
        machine.aft.refuse(message["id"], int(message["status"]))


class PortThread:
    """A port and the machines (addresses) on it, served until ``stop``."""

    def __init__(self, url: str, machines: dict[int, PostedMachine], *, clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str], Transport] = open_sas_link,
                 on_asked: Callable[[int, Any], None] | None = None) -> None:
        self.url = url
        self.machines = machines  # address -> its machine
        self.clock = clock
        self.opener = opener
        self.asked: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()  # (address, event) for the loop
        self.on_asked = on_asked or (lambda address, event: self.asked.put((address, event)))
        self.error: str | None = None  # the port's last failure, while it is down
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"sas {url}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def post(self, address: int, code: int, data: bytes = b"") -> None:
        """An exception for the machine at ``address`` (from another thread)."""
        self.machines[address].posted.put((code, data))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def _serve(self) -> None:
        link: Transport | None = None
        try:
            while not self._stop.is_set():
                if link is None:
                    link = self._open()
                    if link is None:
                        self._stop.wait(REOPEN_AFTER)
                        continue
                    port = SasPort(link, list(self.machines.values()), clock=self.clock)
                if not self._step(port):
                    self._down(f"{self.url}: the link failed")
                    link.close()
                    link = None
        finally:
            if link is not None:
                link.close()

    def _open(self) -> Transport | None:
        try:
            port = self.opener(self.url)
        except TransportError as exc:
            self._down(str(exc))
            return None
        self.error = None
        return port

    def _down(self, why: str) -> None:
        if self.error is None:
            print(f"sas: {why} (trying again every {REOPEN_AFTER} s)", file=sys.stderr)
        self.error = why

    def _step(self, port: SasPort) -> bool:
        """One read and its answers; False when the link failed (it is opened again)."""
        errors = port.errors
        port.pump(READ_TIMEOUT)
        for address, machine in self.machines.items():
            while (event := machine.next_event()) is not None:
                self.on_asked(address, event)
        return port.errors == errors
