"""One interface per kind of device: what the cabinet may ask of a coin acceptor, a hopper and a
button panel, whoever drives them (a real device through its driver, or a simulator).

Owns: the ``Protocol`` of each kind (python-can's ``BusABC`` shape: the cabinet is written
against these, never against a driver's insides) and ``KINDS``, the table of kinds: which link
of ``devices:`` a kind sits on, its interface, and the driver that serves it. The link itself
(a device path, ``socket://``, ``sim``) is ``hardware/links.py``'s; the drivers are
``hardware/cctalk/acceptor.py``, ``hopper.py`` and ``hardware/panel/host.py``. Knows no
protocol, opens nothing.

Adding a kind (the bill validator, the casino-system link)
----------------------------------------------------------
1. Its interface here: the calls the cabinet makes, each returning events or results, never
   touching money itself.
2. Its driver in a package of its own (``hardware/<protocol>/``), pure procedures and a thin
   driver as ``cctalk/payout.py`` and ``cctalk/hopper.py`` are, and its simulated side in
   ``hardware/sim/``.
3. One row of ``KINDS`` naming the link it sits on (a new link is a new required field of
   ``DevicesConfig``, so a configuration that forgets it is refused) and the driver.
4. Its device rules in a test written once per transport (``tests/test_device_rules.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class CoinAcceptorDevice(Protocol):
    """A coin acceptor: identified at start, told to take coins or not, polled for events."""

    address: int
    accepting: bool

    def start(self) -> Any: ...

    def set_accepting(self, accepting: bool) -> None: ...

    def poll(self) -> tuple[Any, ...]: ...


@runtime_checkable
class HopperDevice(Protocol):
    """A hopper: pays through a ledger, reconciles a payout left pending, reports its count."""

    address: int

    def start(self) -> Any: ...

    def payout(self, coins: int, ledger: Any) -> Any: ...

    def reconcile(self, pending: Any, ledger: Any) -> Any: ...

    def lifetime_now(self, *, settle: bool = False) -> int: ...

    def check_idle(self, ledger: Any) -> int: ...


@runtime_checkable
class PanelDevice(Protocol):
    """The button panel: events out (buttons, keys, door, link up and down), lamps in."""

    @property
    def link_up(self) -> bool: ...

    def poll(self, now: float | None = None) -> None: ...

    def events(self) -> list[Any]: ...

    def set_lamps(self, seat: int, lamps: Mapping[str, Any]) -> None: ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Kind:
    """A kind of device: the ``devices:`` link it sits on, its interface, its driver."""

    name: str
    link: str
    interface: type
    driver: str  # "module:Class"


KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        Kind("coin acceptor", "bus", CoinAcceptorDevice, "hardware.cctalk.acceptor:CoinAcceptor"),
        Kind("hopper", "bus", HopperDevice, "hardware.cctalk.hopper:Hopper"),
        Kind("panel", "panel", PanelDevice, "hardware.panel.host:PanelHost"),
    )
}


def links() -> tuple[str, ...]:
    """The links the kinds sit on, each once: the fields of ``devices:`` that must be named."""
    return tuple(dict.fromkeys(k.link for k in KINDS.values()))
