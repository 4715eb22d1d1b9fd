"""The simulators' state folder: what simulated devices keep while their simulator is not running.

Owns: the files of ``--state DIR`` (``python -m hardware.sim``) and of the development harness's
folder beside the data folder: ``cctalk-bus.json`` (every simulated acceptor's event counter and
buffer, every hopper's coins, lifetime count, counters and a payout under way, as
``SimDevice.memory`` gives them) and ``panel-memory.json`` (the panel's non-volatile memory,
``hardware.sim.panel.FileNv``); writing them atomically (a temporary file, flushed to disk,
renamed over the old one, so a kill never leaves half a file); and giving each device back what
it kept, when its kind and serial number are the same (another serial number is another device,
which starts as new). A real device keeps its counters and its coins across a restart of the
cabinet, and the cabinet compares them with its journal's at every start: a simulator that forgot
them would look like a swapped device (a tilt) at every start of ``tools/run``.

Never decides what a device does with what it kept (``cctalk_devices.py``), never reads a clock
(``now`` comes in) and never touches a device's configuration (speed, coins, security: the
command line's).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from hardware.sim.cctalk_bus import SimulatedBus

BUS_FILE = "cctalk-bus.json"
PANEL_FILE = "panel-memory.json"


class StateError(ValueError):
    """A state file that cannot be read as one (named, with why)."""


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` in ``path``, all of it or none: written beside it, flushed, renamed over it."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def read_json(path: Path) -> dict[str, Any] | None:
    """The mapping in ``path``; None when there is no file; ``StateError`` when it is not one."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StateError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict):
        raise StateError(f"{path}: not a simulator's state file (a JSON mapping)")
    return data


class BusState:
    """The ccTalk bus's devices in ``folder/cctalk-bus.json``: ``restore`` once at start, then
    ``keep`` after anything that may have changed them (it writes only when something did)."""

    def __init__(self, folder: str | Path, bus: SimulatedBus) -> None:
        self.folder = Path(folder)
        self.path = self.folder / BUS_FILE
        self.bus = bus
        self._kept: dict[str, Any] | None = None
        self.writes = 0
        self.failures = 0  # writes that failed (the folder gone): the devices run on regardless

    def restore(self, now: float) -> list[int]:
        """Give every device what it kept; the addresses restored. A device of another kind or
        serial number than the one kept at its address starts as new. The folder must exist
        (the simulator never makes it: a launcher's temporary folder removed while the simulator
        starts stays removed)."""
        if not self.folder.is_dir():
            raise StateError(f"{self.folder}: no such folder for the devices' state")
        data = read_json(self.path) or {}
        devices = data.get("devices", {})
        if not isinstance(devices, dict):
            raise StateError(f"{self.path}: 'devices' is not a mapping")
        restored = []
        for address, dev in sorted(self.bus.devices.items()):
            kept = devices.get(str(address))
            if not isinstance(kept, dict):
                continue
            if kept.get("kind") != dev.category or kept.get("serial") != dev.serial:
                continue
            try:
                dev.restore(kept, now)
            except (KeyError, TypeError, ValueError) as exc:
                raise StateError(f"{self.path}: device {address}: {exc}") from None
            restored.append(address)
        self._kept = self._comparable(self.snapshot(now))
        return restored

    def snapshot(self, now: float) -> dict[str, Any]:
        return {"devices": {str(a): dev.memory(now) for a, dev in sorted(self.bus.devices.items())}}

    def keep(self, now: float) -> bool:
        """Write the devices' memory if it changed since the last write; True if written."""
        snap = self.snapshot(now)
        same = self._comparable(snap)
        if same == self._kept:
            return False
        try:
            write_atomic(self.path, json.dumps(snap, sort_keys=True).encode())
        except OSError:
            self.failures += 1
            return False
        self._kept = same
        self.writes += 1
        return True

    @staticmethod
    def _comparable(snap: dict[str, Any]) -> dict[str, Any]:
        """The snapshot without the motor's next step, which moves while nothing else does."""
        return {a: {k: v for k, v in d.items() if k != "due_in"} for a, d in snap["devices"].items()}
