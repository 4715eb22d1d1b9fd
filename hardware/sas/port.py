"""One SAS link served: the bytes of a transport fed to the machine side(s) on it, and back.

Owns: ``SasPort``, which reads what the link has (with the wakeup flags where the transport
reports them: a transport with ``read_marked``), hands it to each ``SasMachine`` on the link
with the time, runs their chirp and writes their replies. ``pump(timeout)`` is one step, for a
thread or loop of the caller's. A link that fails to read or write (a host that went away)
is counted and the port keeps serving. Never interprets a poll (the machine does), never
knows a cabinet.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from hardware.sas.machine import SasMachine


class ByteLink(Protocol):
    def write(self, data: bytes) -> None: ...

    def read(self, size: int, timeout: float) -> bytes: ...


class SasPort:
    """The machines of one link and the link."""

    def __init__(self, link: ByteLink, machines: Sequence[SasMachine], *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.link = link
        self.machines = tuple(machines)
        self.clock = clock
        self.errors = 0

    def pump(self, timeout: float = 0.01) -> int:
        """Read once (up to ``timeout`` s), answer what was asked; the bytes written."""
        wakeup: list[bool] | None = None
        try:
            read_marked = getattr(self.link, "read_marked", None)
            if read_marked is not None:
                data, wakeup = read_marked(256, timeout)
            else:
                data = self.link.read(256, timeout)
        except OSError:
            self.errors += 1
            data = b""
        now = self.clock()
        out = bytearray()
        for machine in self.machines:
            if data:
                machine.receive_data(data, now, wakeup)
            machine.tick(now)
            out += machine.data_to_send()
        if out:
            try:
                self.link.write(bytes(out))
            except OSError:
                self.errors += 1
        return len(out)
