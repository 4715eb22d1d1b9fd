"""The button panel simulator: a ``PanelDevice`` on a real link, in-process or its own process.

Owns: the simulator's I/O: reading and writing the panel's end of a pty pair (the host opens
the slave path) or of a ``socket://`` connection, never blocking and losing what the link does
not take; answering the control channel (TCP loopback or a Unix socket, the language is
``control.py``); the thread that runs it; the process's monotonic clock; the simulated link loss
(``disconnect``: nothing in, nothing out) and power cycle (``reboot``); the panel's non-volatile
memory for the host and its link key, in a file (``--nv-file``, surviving a restart) or in
memory; installing it paired (``link_key=``, what ``cabinet panel pair`` leaves in a real one)
and the pairing reset on its board (``unpair``). Opening the link and the control listener is
``hardware.sim.link``'s, shared with the ccTalk simulator. Everything it
knows about the protocol comes from ``PanelDevice``. Never speaks to the host through anything
but the link, and never lets a control command bypass the protocol.

Embedding (``tools/run``)::

    sim = PanelSimulator(seats=4, link_key=KEY).start()      # a pty and a thread, paired
    host = PanelHost(sim.link_url, key=KEY)
    sim.press(1, "start"); sim.release(1, "start"); sim.lamps()
    sim.stop()

As a process: ``python -m hardware.sim.panel [--seats N] [--link pty|socket://HOST:PORT]
[--control HOST:PORT|unix:PATH] [--nv-file PATH | --no-nv]`` prints ``LINK <path or url>`` and ``CONTROL <address>``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from hardware.clock import Clock
from hardware.sim.link import ControlListener, LinkEnd
from hardware.sim.panel_control import Controller
from hardware.sim.panel_device import NvMemory, PanelDevice, RamNv
from hardware.sim.state import StateError, read_json, write_atomic

TICK = 0.02  # seconds: the longest the loop sleeps


class _Link(LinkEnd):
    """The panel's end of its link, never blocking: what the link does not take is lost."""

    def __init__(self, spec: str) -> None:
        super().__init__(spec)
        self.dropped = 0  # bytes that could not be written (nobody reading)
        if self.master is not None:
            os.set_blocking(self.master, False)

    def readable(self) -> list[Any]:
        if self.master is not None:
            return [self.master]
        assert self.listener is not None
        return [self.listener] + ([self.conn] if self.conn is not None else [])

    def ready(self, fileobj: Any) -> bytes:
        """Bytes from the host after ``fileobj`` was readable (accepts a socket:// host)."""
        if fileobj is self.listener:
            self.accept().setblocking(False)
            return b""
        try:
            if self.master is not None:
                return os.read(self.master, 4096)
            assert self.conn is not None
            data = self.conn.recv(4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            data = b""
        if not data:  # the host went away
            self.hang_up()
        return data

    def write(self, data: bytes) -> None:
        """Write what the link takes; the rest is lost, as on a wire nobody listens to."""
        try:
            if self.master is not None:
                sent = os.write(self.master, data)
            elif self.conn is not None:
                sent = self.conn.send(data)
            else:
                sent = 0
        except (BlockingIOError, InterruptedError):
            sent = 0
        except OSError:
            sent = 0
        self.dropped += len(data) - sent


class FileNv:
    """The panel's non-volatile memory in a file, so it survives a restart of the simulator: a
    JSON mapping, ``{"head": HEX or null, "link_key": HEX or null}`` (``hardware/sim/state.py``,
    ``panel-memory.json`` in a state folder); no file means nothing stored and never paired.
    Written to a temporary file, flushed to disk and renamed over the old one, so a kill never
    leaves half of it."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)

    def _read(self) -> dict[str, Any]:
        try:
            return read_json(self.path) or {}
        except StateError as exc:
            raise OSError(str(exc)) from None  # the memory could not be read: NV_REPLY failed

    def load(self) -> bytes | None:
        head = self._read().get("head")
        if head is None:
            return None
        try:
            return bytes.fromhex(str(head))
        except ValueError:
            raise OSError(f"{self.path}: the head is not hex") from None

    def save(self, blob: bytes) -> None:
        self._write("head", bytes(blob).hex())

    def load_key(self) -> bytes | None:
        key = self._read().get("link_key")
        try:
            return None if key is None else bytes.fromhex(str(key))
        except ValueError:
            raise OSError(f"{self.path}: the link key is not hex") from None

    def save_key(self, key: bytes | None) -> None:
        self._write("link_key", None if key is None else bytes(key).hex())

    def _write(self, name: str, value: str | None) -> None:
        kept = self._read()
        kept[name] = value
        write_atomic(self.path, json.dumps(kept, sort_keys=True).encode())


class _ControlServer(ControlListener):
    """The control listener and its clients; lines in, ``Controller`` replies out."""

    def __init__(self, spec: str, controller: Controller) -> None:
        super().__init__(spec)
        self.controller = controller

    def ready(self, sock: socket.socket) -> None:
        if sock is self.listener:
            self.accept()
            return
        if not self.receive(sock):
            return
        for line in self.lines(sock):
            if self.controller.quit:
                return
            reply = self.controller.handle(line)
            try:
                sock.sendall(reply.encode() + b"\n")
            except OSError:
                self.drop(sock)
                return


class PanelSimulator:
    """A simulated button panel on a real link. Every public method is thread-safe."""

    def __init__(
        self,
        *,
        seats: int = 4,
        panel_id: int = 1,
        link: str = "pty",
        control: str | None = None,
        clock: Clock = time.monotonic,
        log: Callable[[str], None] | None = None,
        timing: Mapping[str, float] | None = None,
        nv: bool = True,
        nv_file: str | None = None,
        link_key: bytes | None = None,
    ) -> None:
        """``nv_file``: where the panel's non-volatile memory lives (None: in this process's
        memory); ``nv=False``: a panel without it, which does not know the NV messages and
        cannot be paired. ``link_key``: the panel comes paired with it (kept in its memory, as
        an installer's ``cabinet panel pair`` would leave it); otherwise it keeps what its
        memory holds (a panel never paired speaks plain frames)."""
        self.seats = seats
        self.panel_id = panel_id
        self.clock = clock
        self.log = log
        self._timing = timing
        self.nv: NvMemory | None = None
        if nv:
            self.nv = FileNv(nv_file) if nv_file is not None else RamNv()
            if link_key is not None and self.nv.load_key() != link_key:
                self.nv.save_key(link_key)
        elif link_key is not None:
            raise ValueError("a panel without non-volatile memory cannot be paired")
        self.device = PanelDevice(panel_id, seats, timing=timing, nv=self.nv)
        self.controller = Controller(self)
        self._lock = threading.RLock()
        self._silent = False
        self._silent_until: float | None = None
        self._thread: threading.Thread | None = None
        self._link = _Link(link)
        self._control: _ControlServer | None = None
        try:
            if control is not None:
                self._control = _ControlServer(control, self.controller)
        except BaseException:
            self._link.close()
            raise
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)

    @property
    def link_url(self) -> str:
        """What the host opens: the pty slave path, or ``socket://HOST:PORT``."""
        return self._link.name

    @property
    def control_address(self) -> str | None:
        """``HOST:PORT`` or ``unix:PATH`` of the control channel, if there is one."""
        return self._control.name if self._control else None

    # -- the panel, for tests, the control channel and tools/run -----------------------------

    def press(self, seat: int, button: str) -> None:
        self._act(lambda now: self.device.press(seat, button, now))

    def release(self, seat: int, button: str) -> None:
        self._act(lambda now: self.device.release(seat, button, now))

    def tap(self, seat: int, button: str) -> None:
        self._act(lambda now: self.device.tap(seat, button, now))

    def set_key(self, name: str, on: bool) -> None:
        self._act(lambda now: self.device.set_key(name, on, now))

    def set_door(self, is_open: bool) -> None:
        self._act(lambda now: self.device.set_door(is_open, now))

    def lamps(self) -> dict[str, dict[str, str]]:
        """What the lamps show, per seat (``{"1": {"+2": "off", ...}, ...}``)."""
        with self._lock:
            shown = self.device.shown_lamps()
        return {str(seat): {b: str(s) for b, s in lamps.items()} for seat, lamps in shown.items()}

    def state(self) -> dict[str, Any]:
        """Link, switches, held buttons and counters, as plain data."""
        with self._lock:
            dev = self.device
            return {
                "link": "up" if dev.link_up else "down",
                "paired": dev.conn.authenticated,
                "silent": self._silent,
                "host_session": dev.conn.host_session,
                "keys": dict(dev.keys),
                "door": "open" if dev.door_open else "closed",
                "pressed": sorted(f"{seat} {button}" for seat, button in dev.pressed),
                "lamp_commands": dev.lamp_commands,
                "state_reports": dev.state_reports,
                "stats": dev.conn.stats,
            }

    def disconnect(self, seconds: float | None = None) -> None:
        """Go silent: drop every byte both ways, until ``reconnect`` (or ``seconds`` pass)."""
        with self._lock:
            self._silent = True
            self._silent_until = None if seconds is None else self.clock() + seconds
        self._log("disconnect")

    def reconnect(self) -> None:
        """Talk again after ``disconnect``."""
        with self._lock:
            self._silent = False
            self._silent_until = None
        self._log("reconnect")
        self._wake()

    def unpair(self) -> None:
        """The pairing reset on the panel's board: the key forgotten, plain frames again."""
        with self._lock:
            self.device.unpair()
        self._log("unpair")
        self._wake()

    def reboot(self) -> None:
        """A power cycle: lamps, held buttons and the session are forgotten; switches stay."""
        with self._lock:
            old = self.device
            self.device = PanelDevice(
                self.panel_id, self.seats, keys=old.keys, door_open=old.door_open,
                timing=self._timing, nv=self.nv,
            )
        self._log("reboot")
        self._wake()

    # -- running -----------------------------------------------------------------------------

    def start(self) -> PanelSimulator:
        """Run in a daemon thread; returns self."""
        if self._thread is None:
            self._thread = threading.Thread(target=self.run, name="panel-sim", daemon=True)
            self._thread.start()
        return self

    def stop_soon(self) -> None:
        """Ask the loop to end (safe from a signal handler); ``run`` returns shortly."""
        self.controller.quit = True
        self._wake()

    def stop(self) -> None:
        """Stop the thread (if any) and close everything."""
        self.stop_soon()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
            self._thread = None
        self.close()

    def __enter__(self) -> PanelSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def run(self) -> None:
        """The I/O loop, in the calling thread, until ``quit`` (or ``stop``)."""
        while not self.controller.quit:
            sources: list[Any] = [self._wake_r, *self._link.readable()]
            if self._control is not None:
                sources += self._control.readable()
            ready, _, _ = select.select(sources, [], [], TICK)
            for src in ready:
                self._ready(src)
            with self._lock:
                now = self.clock()
                if self._silent_until is not None and now >= self._silent_until:
                    self._silent, self._silent_until = False, None
                self.device.tick(now)
                self._flush()

    def close(self) -> None:
        """Close the link, the control channel and the wake-up pipe (after ``run`` ended)."""
        with self._lock:
            if self._wake_r < 0:
                return
            self._link.close()
            if self._control is not None:
                self._control.close()
            os.close(self._wake_r)
            os.close(self._wake_w)
            self._wake_r = self._wake_w = -1

    # -- inside ------------------------------------------------------------------------------

    def _ready(self, fileobj: Any) -> None:
        if fileobj == self._wake_r:
            os.read(self._wake_r, 4096)
        elif self._control is not None and fileobj in self._control.readable():
            self._control.ready(fileobj)
        else:
            with self._lock:
                data = self._link.ready(fileobj)
                if data and not self._silent:
                    self.device.receive_data(data, self.clock())
                    self._flush()

    def _act(self, action: Callable[[float], None]) -> None:
        with self._lock:
            action(self.clock())
            self._flush()

    def _flush(self) -> None:
        data = self.device.data_to_send()
        if data and not self._silent:
            self._link.write(data)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _log(self, message: str) -> None:
        if self.log is not None:
            self.log(message)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m hardware.sim.panel", description=__doc__)
    p.add_argument("--seats", type=int, default=4, help="seats on the panel, 1..8 (default 4)")
    p.add_argument("--panel-id", type=int, default=1, help="the id in HELLO (default 1)")
    p.add_argument("--link", default="pty", help="pty (default) or socket://HOST:PORT to listen")
    p.add_argument(
        "--control", default="127.0.0.1:0", help="HOST:PORT (default 127.0.0.1:0) or unix:PATH"
    )
    p.add_argument(
        "--nv-file", help="keep the panel's non-volatile memory in this file (default: in memory)"
    )
    p.add_argument(
        "--no-nv", action="store_true", help="a panel without non-volatile memory for the host"
    )
    p.add_argument("--verbose", action="store_true", help="log disconnects and reboots on stderr")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hardware.sim.panel``: print LINK and CONTROL, serve until ``quit``."""
    args = _parser().parse_args(argv)

    def log(message: str) -> None:
        print(f"panel-sim: {message}", file=sys.stderr, flush=True)

    try:
        sim = PanelSimulator(
            seats=args.seats, panel_id=args.panel_id, link=args.link, control=args.control,
            log=log if args.verbose else None, nv=not args.no_nv, nv_file=args.nv_file,
        )
    except (ValueError, OSError) as exc:
        print(f"hardware.sim.panel: {exc}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sim.stop_soon())
    print(f"LINK {sim.link_url}", flush=True)
    print(f"CONTROL {sim.control_address}", flush=True)
    try:
        sim.run()
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
