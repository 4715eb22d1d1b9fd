"""One SAS port served by a thread of its own: bytes between the port and its machines.

Owns: ``PortThread`` — the port opened through the link registry (``hardware/links.py``, 19 200
baud), every ``SasMachine`` on it (one per configured address) fed each byte as it comes and
its replies written at once (the port is read with a short timeout, so a reply leaves within
a millisecond or two of the poll's last byte, whatever the frames and the screens do), the
chirp ticked, exceptions the loop posted handed to the machines, and what the host asked
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
from typing import Any

from hardware.links import open_link
from hardware.sas.machine import SasMachine
from hardware.transport import Transport, TransportError

BAUD = 19_200
READ_TIMEOUT = 0.01  # s: the longest a posted exception or a chirp waits for the port thread
REOPEN_AFTER = 0.5


class PortThread:
    """A port and the machines (addresses) on it, served until ``stop``."""

    def __init__(self, url: str, machines: dict[int, SasMachine], *, clock: Callable[[], float] = time.monotonic,
                 opener: Callable[[str], Transport] = lambda url: open_link(url, baudrate=BAUD)) -> None:
        self.url = url
        self.machines = machines  # address -> its machine
        self.clock = clock
        self.opener = opener
        self.posted: dict[int, queue.SimpleQueue[int]] = {a: queue.SimpleQueue() for a in machines}
        self.asked: queue.SimpleQueue[tuple[int, Any]] = queue.SimpleQueue()  # (address, event) for the loop
        self.error: str | None = None  # the port's last failure, while it is down
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name=f"sas {url}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def post(self, address: int, code: int) -> None:
        """An exception for the machine at ``address`` (from the loop thread)."""
        self.posted[address].put(code)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def _serve(self) -> None:
        port: Transport | None = None
        try:
            while not self._stop.is_set():
                if port is None:
                    port = self._open()
                    if port is None:
                        self._stop.wait(REOPEN_AFTER)
                        continue
                try:
                    self._step(port)
                except TransportError as exc:
                    self._down(str(exc))
                    port.close()
                    port = None
        finally:
            if port is not None:
                port.close()

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

    def _step(self, port: Transport) -> None:
        data = port.read(256, READ_TIMEOUT)
        now = self.clock()
        out = bytearray()
        for address, machine in self.machines.items():
            posted = self.posted[address]
            while not posted.empty():
                machine.post_exception(posted.get())
            if data:
                machine.receive_data(data, now)
            machine.tick(now)
            out += machine.data_to_send()
            while (event := machine.next_event()) is not None:
                self.asked.put((address, event))
        if out:
            port.write(bytes(out))
