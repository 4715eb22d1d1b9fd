"""The journal's head in the panel's own non-volatile memory, where the panel supports it.

Owns: one of the head stores of ``machine/money/memory.py``, kept by the button panel (the
NV_STORE / NV_READ messages of docs/panel-protocol.md): read once at start-up (after waiting a
moment for the panel's link), written after every commit by a thread of its own that sends only
the newest head (a commit never waits for the panel). A panel without the messages, or one
whose link is down, holds nothing: the file head stores still stand. A blob that is not a head
of this machine's key (a panel moved from another cabinet, or garbage) counts as none and is
overwritten by the next commit.

Never decides what a head means: ``memory.py`` compares it with the journal.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from hardware.clock import Clock
from hardware.panel.host import PanelHost, PanelNvError

from machine.money.memory import Head

LINK_WAIT = 2.0  # seconds start-up waits for the panel's link before reading
LINK_STEP = 0.01  # seconds between looks at the link while it waits
_TAG = 16  # bytes of the head's tag kept (the blob: journal id 8, sequence number 8, mac 16, tag 16)


def encode(head: Head, key: bytes) -> bytes:
    """The head in 48 bytes: its mac cut to 16 bytes (128 bits: enough to tell histories apart),
    and the tag, over what is kept, cut to 16."""
    short = Head(head.journal_id, head.seq, head.mac[:32])
    return (bytes.fromhex(short.journal_id) + short.seq.to_bytes(8, "big") + bytes.fromhex(short.mac)
            + bytes.fromhex(short.tag(key))[:_TAG])


def decode(blob: bytes, key: bytes) -> Head | None:
    """The head in ``blob``, or None when it is not one of this key's (its tag does not match)."""
    if len(blob) != 8 + 8 + 16 + _TAG:
        return None
    head = Head(blob[:8].hex(), int.from_bytes(blob[8:16], "big"), blob[16:32].hex())
    return head if bytes.fromhex(head.tag(key))[:_TAG] == blob[32:] else None


class PanelHeadStore:
    """A head store in the panel (see the module's docstring).

    ``pump``: whether this store polls the panel's link itself while it waits for it at start-up
    (True until someone else runs the panel's poll thread: ``PanelHost.start``). ``clock`` (the
    panel's own by default) and ``wait`` (sleep this many seconds, or less: by default until
    ``close``) are the time the start-up wait counts on, injected so a test takes no real time.
    """

    name = "the panel's memory"

    def __init__(self, panel: PanelHost, *, pump: bool = True, clock: Clock | None = None,
                 wait: Callable[[float], object] | None = None):
        self.panel = panel
        self.pump = pump
        self.clock: Clock = panel.clock if clock is None else clock
        self._stop = threading.Event()
        self.wait: Callable[[float], object] = self._stop.wait if wait is None else wait
        self._next: bytes | None = None
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        self._closed = False
        self.failures = 0  # writes the panel did not take (link down, no memory)

    def read(self, key: bytes) -> Head | None:
        end = self.clock() + LINK_WAIT
        while not self.panel.link_up and self.clock() < end and not self._stop.is_set():
            if self.pump:  # nobody else pumps the link yet
                self.panel.poll()
            self.wait(LINK_STEP)
        try:
            blob = self.panel.read_head()
        except PanelNvError:  # no such memory, or the link is down: this store holds nothing
            return None
        return None if blob is None else decode(blob, key)

    def write(self, head: Head, key: bytes) -> None:
        if self.panel.nv_supported is False or self._closed:
            return
        with self._wake:
            self._next = encode(head, key)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="panel-head", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while self._next is None and not self._closed:
                    self._wake.wait()
                blob = self._next
                if self._closed or blob is None:
                    return
                self._next = None
            try:
                self.panel.store_head(blob)
            except PanelNvError:
                self.failures += 1

    def close(self) -> None:
        self._stop.set()  # a start-up wait ends now
        with self._wake:
            self._closed = True
            self._wake.notify()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
