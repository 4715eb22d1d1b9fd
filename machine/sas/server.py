"""The SAS ports served in a process of their own, so that no frame the loop draws delays a reply.

Owns: the child's side (``python -m machine.sas.server``: the links, the snapshots and the
exceptions as JSON lines on its standard input, the host's requests as JSON lines on its
standard output; it ends when its input closes, as when the cabinet stops or is killed) and
``ServerProcess``, the cabinet's handle on it (``send`` never blocks a frame for long: a line
of a few hundred bytes into a pipe the child drains at once; ``received`` reads what is there
without waiting; ``sync`` waits until the child applied everything sent, for tests). The
reason for a process: the loop's drawing holds the interpreter's lock for tens of
milliseconds at a time, longer than the 20 ms a reply may take; the child's only work is the
ports. What it serves is the snapshots it is sent: it never reads the journal.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

from hardware.sas.aft import AftLock, AftRegistration, AftTransfer
from hardware.sas.machine import HandpayReset, SetClock, Shutdown, Startup

from machine.sas.aft import HISTORY, record_of, registration_of
from machine.sas.link import PortThread, PostedMachine
from machine.sas.rom import RomSignature
from machine.sas.source import HostClock, SeatSnapshot, SeatSource

EVENTS = {Shutdown: "shutdown", Startup: "startup", HandpayReset: "handpay_reset", SetClock: "set_clock",
          AftTransfer: "aft_transfer", AftRegistration: "aft_registration", AftLock: "aft_lock"}
TICKET_PRINTED = 0x3D  # exceptions.EVENT_EXCEPTIONS' voucher_printed
HANDPAY_PENDING = 0x51  # exceptions.EVENT_EXCEPTIONS' handpay
SWITCH_INTERVAL = 0.001  # the child's threads hand the interpreter's lock on this fast


def snapshot_data(snap: SeatSnapshot) -> dict[str, Any]:
    return {"meters": dict(snap.meters), "per_game": {str(k): dict(v) for k, v in snap.per_game.items()},
            "selected": snap.selected, "handpay": snap.handpay, "aft": dict(snap.aft),
            "printer": snap.printer, "vouchers": [dict(v) for v in snap.vouchers], "read": snap.read,
            "handpay_points": snap.handpay_points}


def snapshot_of(data: dict[str, Any]) -> SeatSnapshot:
    return SeatSnapshot(data["meters"], {int(k): v for k, v in data["per_game"].items()}, data["selected"],
                        data["handpay"], data.get("aft", {}), bool(data.get("printer")),
                        tuple(data.get("vouchers", ())), int(data.get("read", 0)), int(data.get("handpay_points", 0)))


class ServerProcess:
    """The cabinet's end of the child serving the ports."""

    def __init__(self, spec: dict[str, Any]) -> None:
        root = str(Path(__file__).resolve().parents[2])  # the child runs this very program, wherever it is
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen([sys.executable, "-m", "machine.sas.server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path})
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in: IO[bytes] = self.proc.stdin
        os.set_blocking(self._in.fileno(), False)  # a frame never waits on the child: what does not fit waits here
        self._unsent = bytearray()
        self._out = self.proc.stdout.fileno()
        os.set_blocking(self._out, False)
        self._held = b""
        self._pings = 0
        self._pongs: set[int] = set()
        self.send(spec)

    def send(self, message: dict[str, Any]) -> None:
        """One line to the child, or as much of what waits as the pipe takes now (never blocks)."""
        self._unsent += json.dumps(message, separators=(",", ":")).encode() + b"\n"
        self.flush()

    def flush(self) -> None:
        while self._unsent:
            try:
                done = os.write(self._in.fileno(), self._unsent)
            except BlockingIOError:
                return  # the pipe is full: the rest goes at the next send or step
            except (BrokenPipeError, ValueError, OSError):
                self._unsent.clear()  # the child is gone: the cabinet plays on; ``alive`` tells
                return
            del self._unsent[:done]

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def received(self) -> list[dict[str, Any]]:
        """The host's requests the child reported since the last call (never waits)."""
        chunks = []
        while True:
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        data = self._held + b"".join(chunks)
        *lines, self._held = data.split(b"\n")
        out = []
        for line in lines:
            message = json.loads(line)
            if "pong" in message:
                self._pongs.add(message["pong"])
            else:
                out.append(message)
        return out

    def sync(self, timeout: float = 30.0) -> list[dict[str, Any]]:
        """Wait until the child has applied every line sent so far (30 s at most: only a hung child
        takes so long); what it reported meanwhile."""
        self._pings += 1
        ping = self._pings
        self.send({"ping": ping})
        got: list[dict[str, Any]] = []
        end = time.monotonic() + timeout
        while ping not in self._pongs and time.monotonic() < end and self.alive:
            self.flush()
            got += self.received()
            time.sleep(0.001)
        return got

    def close(self) -> None:
        """The child's input closed (it ends, and with it the ports); what was still unsent with it."""
        with contextlib.suppress(OSError, ValueError):
            self._in.close()
        try:
            self.proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


# -- the child --------------------------------------------------------------------------------


def serve(lines: IO[str], out: IO[str]) -> None:
    """The child's life: the spec, then snapshots, exceptions and pings until the input closes."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    spec = json.loads(lines.readline())
    write = threading.Lock()

    def say(message: dict[str, Any]) -> None:
        with write:
            out.write(json.dumps(message) + "\n")
            out.flush()

    rom = RomSignature()
    clock = HostClock(time.time)
    clock.offset = float(spec.get("clock_offset", 0.0))  # the host's last 7F, as the journal has it
    sources: dict[int, SeatSource] = {}
    machines: dict[int, PostedMachine] = {}
    by_port: dict[str, dict[int, PostedMachine]] = {}
    seat_of: dict[tuple[str, int], int] = {}
    for link in spec["links"]:
        seat = link["seat"]
        sources[seat] = SeatSource(seat, tuple(spec["games"]), link["serial"], rom, clock, spec["cents"],
                                   {int(k): v for k, v in spec["max_bets"].items()},
                                   {int(k): v for k, v in spec.get("base_percents", {}).items()})
        sources[seat].snapshot = snapshot_of(spec["snapshots"][str(seat)])
        tickets_start(sources[seat], seat, say)
        machines[seat] = PostedMachine(link["address"], sources[seat], now=time.monotonic(),
                                       implied_nack=bool(link.get("implied_nack", False)))
        for code in spec["exceptions"]:  # the start's: power lost, RAM cleared, power applied
            machines[seat].post_exception(code)
        if sources[seat].tickets() is not None and sources[seat].validation.unread():
            machines[seat].post_exception(TICKET_PRINTED)  # the 3D a restart took from the queue, again
        if sources[seat].handpay() is not None:
            machines[seat].post_exception(HANDPAY_PENDING)  # still locked in it: the host asks 1B again
        aft_start(machines[seat], sources[seat], spec.get("aft", {}).get(str(seat), {}))
        by_port.setdefault(link["port"], {})[link["address"]] = machines[seat]
        seat_of[(link["port"], link["address"])] = seat

    def asked(url: str) -> Any:
        def on(address: int, event: Any) -> None:
            name = EVENTS.get(type(event))
            if name is None:
                return  # a bad CRC: nothing was asked
            message: dict[str, Any] = {"asked": seat_of[(url, address)], "event": name}
            if isinstance(event, SetClock):
                clock.set(event.when)
                message["when"] = event.when.isoformat()
            message.update(aft_asked(event))
            say(message)
        return on

    ports = [PortThread(url, m, on_asked=asked(url)) for url, m in by_port.items()]
    for port in ports:
        port.start()
    try:
        for line in lines:
            message = json.loads(line)
            if "snap" in message:
                sources[message["snap"]].snapshot = snapshot_of(message["s"])
            elif "exc" in message:
                machines[message["exc"]].posted.put((message["code"], bytes.fromhex(message.get("data", ""))))
            elif "aft_done" in message or "aft_refuse" in message:
                machines[message.get("aft_done", message.get("aft_refuse"))].aft_results.put(message)
            elif "ping" in message:
                say({"pong": message["ping"]})
    finally:
        for port in ports:
            port.stop()
        rom.close()


def tickets_start(source: SeatSource, seat: int, say: Any) -> None:
    """A seat's vouchers as the journal left them: the records after the last one read are unread;
    each record the host takes with 4D 00 from now on is told to the cabinet, which journals it."""
    source.validation.start(source.snapshot.read)
    source.validation.on_read = lambda entry: say({"asked": seat, "event": "validation_read",
                                                   "ordinal": int(entry["ordinal"]), "number": str(entry["number"])})


def aft_start(machine: PostedMachine, source: SeatSource, spec: dict[str, Any]) -> None:
    """A seat's AFT as the journal left it: on or off, its asset, its transfers, its registration."""
    source.aft_on, source.asset = bool(spec.get("on")), int(spec.get("asset", 0))
    records = [record_of(r) for r in spec.get("done", [])]
    source.aft_done = {r.transaction_id: r for r in records}
    machine.aft.restore(records[-HISTORY:], registration_of(spec.get("registration")))


def aft_asked(event: Any) -> dict[str, Any]:
    """What an AFT event tells the cabinet (nothing for the other events)."""
    if isinstance(event, AftTransfer):
        return {"id": event.transaction_id, "to_seat": event.to_seat, "points": event.points,
                "partial": event.partial_ok}
    if isinstance(event, AftRegistration):
        return {"status": event.status, "asset": event.asset, "key": event.key.hex(), "pos_id": event.pos_id}
    if isinstance(event, AftLock):
        return {"locked": event.locked}
    return {}


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        serve(sys.stdin, sys.stdout)
