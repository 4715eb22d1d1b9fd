"""Starting the simulator process and talking to its control channel.

Owns: ``SimProcess`` (start ``python -m hardware.sim`` with arguments, tied to this process so
that it never outlives it, wait for its ``LINK`` and ``CONTROL`` lines, stop it) and
``SimControl`` (a client of the line protocol in README.md). Used by hardware-in-the-loop
tests, the bench and ``tools/run``. Real time and real processes live here; nothing here knows
ccTalk.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from typing import IO, NoReturn, Self


class SimError(RuntimeError):
    """The simulator did not start, or refused a control command (``ERR ...``)."""


class SimControl:
    """A connection to the simulator's control channel. Thread-safe."""

    def __init__(self, address: str, *, timeout: float = 5.0) -> None:
        self.address = address
        if address.startswith("unix:"):
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            self._sock.settimeout(timeout)
            self._sock.connect(address[5:])
        else:
            host, _, port = address.rpartition(":")
            self._sock = socket.create_connection((host, int(port)), timeout=timeout)
        self._buf = b""
        self._lock = threading.Lock()

    def command(self, line: str) -> str:
        """Send one command; return what follows ``OK``, raise ``SimError`` on ``ERR``."""
        with self._lock:
            self._sock.sendall(line.strip().encode() + b"\n")
            while b"\n" not in self._buf:
                chunk = self._sock.recv(4096)
                if not chunk:
                    raise SimError(f"simulator closed the control channel after {line!r}")
                self._buf += chunk
            raw, _, self._buf = self._buf.partition(b"\n")
        reply = raw.decode()
        if not reply.startswith("OK"):
            raise SimError(f"{line!r}: {reply}")
        return reply[2:].strip()

    def coin(self, address: int, coin_id: str, count: int = 1) -> str:
        return self.command(f"coin {address} {coin_id} {count}")

    def coin_error(self, address: int, code: int, count: int = 1) -> str:
        return self.command(f"coin_error {address} {code} {count}")

    def refill(self, address: int, coins: int) -> str:
        return self.command(f"refill {address} {coins}")

    def spill(self, address: int, coins: int) -> str:
        return self.command(f"spill {address} {coins}")

    def fault(self, address: int, kind: str, arg: object = None) -> str:
        return self.command(f"fault {address} {kind}" + ("" if arg is None else f" {arg}"))

    def note(self, address: int, bill_id: str) -> str:
        return self.command(f"note {address} {bill_id}")

    def note_pull(self, address: int) -> str:
        return self.command(f"note_pull {address}")

    def note_jam(self, address: int) -> str:
        return self.command(f"note_jam {address}")

    def stacker(self, address: int, what: str) -> str:
        return self.command(f"stacker {address} {what}")

    def clear(self, address: int) -> str:
        return self.command(f"clear {address}")

    def power(self, address: int, on: bool) -> str:
        return self.command(f"power {address} {'on' if on else 'off'}")

    def reset(self, address: int) -> str:
        return self.command(f"reset {address}")

    def speed(self, address: int, coins_per_second: float) -> str:
        return self.command(f"speed {address} {coins_per_second}")

    def status(self, address: int) -> dict[str, str]:
        """A device's state as ``key -> value`` (numbers as text; see ``count``)."""
        return dict(item.split("=", 1) for item in self.command(f"status {address}").split())

    def count(self, address: int, key: str) -> int:
        return int(self.status(address)[key])

    def quit(self) -> None:
        self.command("quit")

    def close(self) -> None:
        self._sock.close()


class SimProcess:
    """A running simulator: ``link`` for the host, ``control`` for the test or the tool."""

    def __init__(
        self, proc: subprocess.Popen[bytes], link: str, control: str, log: IO[bytes]
    ) -> None:
        self.proc = proc
        self.link = link
        self.control_address = control
        self._log = log
        self.control = SimControl(control)

    @classmethod
    def start(cls, args: Sequence[str] = (), *, timeout: float = 10.0) -> SimProcess:
        """Start ``python -m hardware.sim ARGS`` and wait for its LINK and CONTROL lines. The
        simulator quits by itself when this process ends (``--parent-pid``), however it ends."""
        log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the process
        proc = subprocess.Popen(
            [sys.executable, "-m", "hardware.sim", "--parent-pid", str(os.getpid()), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=log,
        )
        assert proc.stdout is not None
        lines: dict[str, str] = {}
        buf = b""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            while not {"LINK", "CONTROL"} <= lines.keys():
                left = deadline - time.monotonic()
                ready = left > 0 and sel.select(left)
                chunk = os.read(proc.stdout.fileno(), 4096) if ready else b""
                if not chunk:
                    cls._fail(proc, log, "did not announce LINK and CONTROL")
                buf += chunk
                while b"\n" in buf:
                    raw, _, buf = buf.partition(b"\n")
                    key, _, value = raw.decode().strip().partition(" ")
                    lines[key] = value
        proc.stdout.close()
        try:
            return cls(proc, lines["LINK"], lines["CONTROL"], log)
        except OSError as exc:
            cls._fail(proc, log, f"control channel: {exc}")

    @staticmethod
    def _fail(proc: subprocess.Popen[bytes], log: IO[bytes], why: str) -> NoReturn:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        log.seek(0)
        err = log.read().decode(errors="replace").strip()
        log.close()
        raise SimError(f"simulator {why} (exit {proc.returncode}): {err}")

    def stderr(self) -> str:
        """What the simulator wrote on standard error so far."""
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def stop(self, timeout: float = 5.0) -> int:
        """Ask the simulator to quit; kill it if it does not. Returns its exit status."""
        if self.proc.poll() is None:
            with contextlib.suppress(OSError, SimError):
                self.control.quit()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.control.close()
        self._log.close()
        return self.proc.returncode

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
