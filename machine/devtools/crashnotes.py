"""The crash test's bill validators: a simulated validator whose memory survives a kill, on a bus in memory.

Owns: ``FileValidators``, one simulated bill validator per seat (hardware/sim/bill_device.py)
behind the real driver (hardware/cctalk/validator.py) on an in-memory ccTalk link, each
keeping what a real powered device keeps (counter, buffer, escrow, stacker, and the points of
every note it stacked, for the comparison) in a file written atomically after every exchange
that changed it, a kill point after each write and one before each route (the journal holds
the decision, the note has not moved); the script's notes (a player inserts a note
once: a step replayed after a kill inserts nothing) and driving the cabinet loop's own pass
(machine/loop/notes.py) until no note waits in escrow. Never decides anything about a note.
"""

from __future__ import annotations

import json
import os
import random
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hardware.cctalk.headers import Header
from hardware.cctalk.validator import BillValidator
from hardware.sim.bill_device import SimBillValidator
from hardware.sim.virtual import VirtualSim

from machine.core.cabinet import Cabinet
from machine.loop.notes import poll_validator

ADDRESS = 40  # seat n's validator is at 39 + n
NOTE_IDS = ("EU0005A", "EU0010A", "EU0020A", "EU0050A", "EU0100A")  # EUR 100 is not a note the cabinet takes
NOTE_SHARE = 0.1  # of the script's steps, followed by a note on a seat


def add_notes(script: list[tuple[Any, ...]], seed: int, seats: int) -> list[tuple[Any, ...]]:
    """The script with notes among its steps (its own random draws: the other steps stay as they are)."""
    rng = random.Random(seed * 31 + 7)
    out: list[tuple[Any, ...]] = []
    for step in script:
        out.append(step)
        if rng.random() < NOTE_SHARE:
            out.append(("note", rng.randint(1, seats), rng.choice(NOTE_IDS), step[3] + 0.25))
    return out


class FileValidators:
    """Every seat's validator, its memory in ``folder/validators.json`` (see the docstring)."""

    def __init__(self, folder: Path, seats: int, values: dict[str, int], hook: Callable[[str], None]):
        self.path = folder / "validators.json"
        self.hook = hook
        self.values = values
        args = [a for n in range(1, seats + 1) for a in ("--validator", f"{ADDRESS + n - 1}:escrow_timeout=0")]
        self.virtual = VirtualSim(args)
        self.devices: dict[int, SimBillValidator] = {}
        for n in range(1, seats + 1):
            dev = self.virtual.sim.device(ADDRESS + n - 1)
            assert isinstance(dev, SimBillValidator)
            self.devices[n] = dev
        self.kept: dict[str, Any] = {"last_note": -1.0, "stacked_points": {}}
        if self.path.exists():
            self.kept = json.loads(self.path.read_text())
            for n, dev in self.devices.items():
                dev.restore(self.kept["devices"][str(n)], self.virtual.clock())
        for dev in self.devices.values():
            self._wrap(dev)
        self.drivers = {n: BillValidator(self.virtual.bus(), dev.address, values=values) for n, dev in self.devices.items()}
        self.lock = threading.Lock()

    def _wrap(self, dev: SimBillValidator) -> None:
        handle = dev.handle

        def filed(header: int, data: bytes, now: float) -> Any:
            if header == Header.ROUTE_BILL:  # the journal holds its decision: a kill before the note moves
                self.hook("validator_route")
            before, held = dev.stacked, dev.escrow
            reply = handle(header, data, now)
            if dev.stacked > before and held is not None:
                points = self.kept["stacked_points"]
                points[str(dev.address)] = points.get(str(dev.address), 0) + self.values[dev.bills[held]]
            self.save()
            return reply

        dev.handle = filed  # type: ignore[method-assign]

    def save(self) -> None:
        now = self.virtual.clock()
        state = {**self.kept, "devices": {str(n): d.memory(now) for n, d in self.devices.items()}}
        if state == self.kept:
            return
        self.kept = state
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump(state, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        self.hook("validator_memory")

    def start(self) -> None:
        for val in self.drivers.values():
            val.start()

    def resume(self, counters: dict[str, int]) -> None:
        """Each driver goes on from the counter the journal last recorded (as the cabinet's)."""
        from hardware.cctalk.acceptor import CreditTracker

        for val in self.drivers.values():
            saved = counters.get(str(val.address))
            if saved is not None:
                val.tracker = CreditTracker(saved)

    def insert(self, seat: int, bill: str, t: float) -> None:
        """The player's note, once: a step replayed after a kill finds it already inserted."""
        if t <= self.kept["last_note"]:
            return
        self.kept = {**self.kept, "last_note": t}
        self.devices[seat].insert(bill, self.virtual.clock())
        self.save()

    def inserted(self, t: float) -> bool:
        """Whether the note of the step at time ``t`` went in already."""
        return t <= self.kept["last_note"]

    def step(self, cab: Cabinet, step: tuple[Any, ...]) -> None:
        """A note step of the script: the validators' inhibits as the cabinet is now (as the loop's
        polls keep them), the note in, the cabinet's passes until it is stacked or back, the clock."""
        _kind, seat, bill, t = step
        self.drive(cab)
        self.insert(seat, bill, t)
        self.drive(cab)
        cab.tick(t)

    def drive(self, cab: Cabinet) -> None:
        """The cabinet loop's pass over every validator until nothing waits (a few passes)."""
        for _ in range(4):
            for n, val in self.drivers.items():
                poll_validator(cab, self.lock, n, val)
            if all(cab.escrow_pending(v.address) is None for v in self.drivers.values()) and not any(
                    d.escrow for d in self.devices.values()):
                return

    def stacked_points(self) -> dict[str, int]:
        return dict(self.kept["stacked_points"])
