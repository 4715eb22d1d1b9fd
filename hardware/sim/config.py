"""What the simulator simulates: devices from a YAML/JSON file or from command-line specs.

Owns: the simulator's configuration format (documented in README.md) and building a
``SimulatedBus`` from it, with every problem reported at once as one message. Never opens a
link or reads a clock.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from hardware.cctalk.codec import Checksum
from hardware.sim.bill_device import DEFAULT_BILLS, SimBillValidator
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimDevice, SimHopper

DEFAULT_COINS = {1: "EU100A", 2: "EU200A", 3: "EU050A"}
_ACCEPTOR_KEYS = {"address", "coins", "serial", "manufacturer", "product"}
_VALIDATOR_KEYS = {"address", "bills", "serial", "manufacturer", "product", "capacity", "escrow_timeout"}
_HOPPER_KEYS = {
    "address", "serial", "manufacturer", "product", "coin", "level", "lifetime", "speed",
    "security", "stall_time",
}


class ConfigError(ValueError):
    """The simulator configuration is wrong; the message lists every problem."""


def _coins(value: Any) -> dict[int, str]:
    if isinstance(value, str):
        value = [c for c in value.replace("+", " ").replace("/", " ").split() if c]
    if isinstance(value, list):
        return {i + 1: str(c) for i, c in enumerate(value)}
    if isinstance(value, Mapping):
        return {int(k): str(v) for k, v in value.items()}
    raise ValueError(f"coins: a list of coin ids or a map position -> id, not {value!r}")


def build_device(kind: str, spec: Mapping[str, Any], rng: random.Random) -> SimDevice:
    """One device from its settings; ``ValueError`` naming the first wrong setting."""
    if "address" not in spec:
        raise ValueError(f"{kind}: address missing")
    keys = {"acceptor": _ACCEPTOR_KEYS, "hopper": _HOPPER_KEYS, "validator": _VALIDATOR_KEYS}.get(kind)
    if keys is None:
        raise ValueError(f"unknown device type {kind!r} (acceptor, hopper or validator)")
    unknown = set(spec) - keys
    if unknown:
        raise ValueError(f"{kind} {spec['address']}: unknown settings {sorted(unknown)}")
    try:
        address = int(spec["address"])
    except (TypeError, ValueError):
        raise ValueError(f"{kind}: address {spec['address']!r} is not a number") from None
    where = f"{kind} {address}"
    try:
        serial = int(spec.get("serial", 1000 + address))
        common: dict[str, Any] = {"address": address, "serial": serial}
        for key in ("manufacturer", "product"):
            if key in spec:
                common[key] = str(spec[key])
        if kind == "acceptor":
            return SimCoinAcceptor(coins=_coins(spec.get("coins", DEFAULT_COINS)), **common)
        if kind == "validator":
            val = SimBillValidator(bills=_coins(spec.get("bills", DEFAULT_BILLS)), **common)
            val.capacity = int(spec.get("capacity", val.capacity))
            val.escrow_timeout = float(spec.get("escrow_timeout", val.escrow_timeout))
            return val
        hopper: dict[str, Any] = {}
        numbers = (("level", int), ("lifetime", int), ("speed", float), ("stall_time", float))
        for key, conv in numbers:
            if key in spec:
                hopper[key] = conv(spec[key])
        for key in ("coin", "security"):
            if key in spec:
                hopper[key] = str(spec[key])
        return SimHopper(rng=random.Random(rng.random()), **common, **hopper)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def parse_device_spec(text: str) -> dict[str, Any]:
    """``ADDR[:key=value,...]`` (command line) as settings."""
    address, _, rest = text.partition(":")
    spec: dict[str, Any] = {"address": address}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{text!r}: expected key=value, got {item!r}")
        spec[key.strip()] = value.strip()
    return spec


def build_bus(
    devices: Iterable[tuple[str, Mapping[str, Any]]],
    *,
    checksum: str = "sum8",
    echo: bool = False,
    seed: int = 0,
) -> SimulatedBus:
    """A simulated bus from (type, settings) pairs; ``ConfigError`` listing every problem."""
    rng = random.Random(seed)
    built: list[SimDevice] = []
    problems: list[str] = []
    for kind, spec in devices:
        try:
            built.append(build_device(kind, spec, rng))
        except (ValueError, TypeError) as exc:
            problems.append(str(exc))
    try:
        mode = Checksum(checksum)
    except ValueError:
        problems.append(f"checksum is sum8 or crc16, not {checksum!r}")
        mode = Checksum.SUM8
    if not problems:
        try:
            return SimulatedBus(built, checksum=mode, echo=echo, rng=rng)
        except ValueError as exc:
            problems.append(str(exc))
    raise ConfigError("; ".join(problems))


def load_file(path: str | Path) -> dict[str, Any]:
    """A configuration file (``.json``, else YAML) as a mapping."""
    text = Path(path).read_text()
    data = json.loads(text) if str(path).endswith(".json") else yaml.safe_load(text)
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping with 'devices'")
    return data


def devices_of(data: Mapping[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for i, item in enumerate(data.get("devices", [])):
        if not isinstance(item, Mapping) or "type" not in item:
            raise ConfigError(f"devices[{i}]: a mapping with 'type' (acceptor, hopper or validator)")
        spec = {k: v for k, v in item.items() if k != "type"}
        out.append((str(item["type"]), spec))
    return out
