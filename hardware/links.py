"""The one registry of links: which backend a configured URL reaches, and opening it.

Owns: the table from a URL's scheme to its backend (python-can's ``interfaces`` table: a name,
the module and class that open it, imported only when a link of that kind is opened), reading
a configured link (``parse_link``: a device path such as ``/dev/ttyUSB0`` is ``serial``,
``serial:///dev/ttyUSB0`` the same, ``socket://HOST:PORT``, ``rfc2217://``, ``loop://``, and
the simulators: ``sim`` or ``sim://``), and ``open_link``. The simulators are a backend of
their own, reached only where a configuration writes them: ``is_simulated`` is the one test of
that in the whole program. Imports no serial library itself (the configuration is checked with
it and must not load pyserial); never knows a protocol or a device.

Adding a backend: one ``register`` call (or one row of ``BACKENDS``) naming its scheme, the
module and class whose ``(target, baudrate=...)`` constructor opens it, and whether it is a
simulator.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hardware.transport import Transport


class LinkError(ValueError):
    """A link URL no backend serves (a configuration error, said in one line)."""


@dataclass(frozen=True)
class Backend:
    """How a scheme is opened: ``module:cls(target, baudrate=...)``; ``simulated`` for the
    simulators, whose links exist only while a harness runs them."""

    scheme: str
    module: str
    cls: str
    simulated: bool = False
    whole_url: bool = False  # the class is given the URL as written (pyserial's own URLs)


@dataclass(frozen=True)
class Link:
    """A configured link: its backend and what it names (a device path, ``host:port``, ...)."""

    url: str
    backend: Backend
    target: str

    @property
    def simulated(self) -> bool:
        return self.backend.simulated


BACKENDS: dict[str, Backend] = {}


def register(backend: Backend) -> None:
    """Add (or replace) the backend of ``backend.scheme``."""
    BACKENDS[backend.scheme] = backend


for _backend in (
    Backend("serial", "hardware.transport", "SerialTransport"),
    Backend("socket", "hardware.transport", "SerialTransport", whole_url=True),
    Backend("rfc2217", "hardware.transport", "SerialTransport", whole_url=True),
    Backend("loop", "hardware.transport", "SerialTransport", whole_url=True),
    Backend("sim", "hardware.sim.backend", "SimulatorLink", simulated=True),
    Backend("pty", "hardware.sas.link", "PtyLink"),  # a pty the cabinet makes, linked at the path
    Backend("ninebit", "hardware.sas.link", "NineBitSerial"),  # a UART reading SAS's ninth bit
    Backend("listen", "hardware.sas.link", "ListenLink"),  # a TCP port the cabinet listens on
):
    register(_backend)


def parse_link(url: str) -> Link:
    """The backend and target of a configured link; ``LinkError`` naming what is accepted."""
    if not isinstance(url, str) or not url.strip() or url != url.strip():
        raise LinkError(f"{url!r}: no link, the links are {_accepted()}")
    if url == "sim":  # the spelling configurations have always used
        return Link(url, BACKENDS["sim"], "")
    scheme, sep, rest = url.partition("://")
    if not sep:
        if "/" in url:
            return Link(url, BACKENDS["serial"], url)  # a device path
        raise LinkError(f"{url}: neither a device path nor a URL, the links are {_accepted()}")
    backend = BACKENDS.get(scheme.lower())
    if backend is None:
        raise LinkError(f"{url}: no backend for {scheme}://, the links are {_accepted()}")
    if backend.scheme == "serial" and not rest:
        raise LinkError(f"{url}: names no device (serial:///dev/ttyUSB0)")
    return Link(url, backend, url if backend.whole_url else rest)


def is_simulated(url: str) -> bool:
    """Whether a configured link is one of the simulators (``sim``, ``sim://``)."""
    try:
        return parse_link(url).simulated
    except LinkError:
        return False


def open_link(url: str, *, baudrate: int = 9600) -> Transport:
    """Open the link ``url`` names through its backend (``TransportError`` if it cannot be)."""
    from hardware.transport import TransportError

    try:
        link = parse_link(url)
    except LinkError as exc:
        raise TransportError(str(exc)) from None
    cls = getattr(importlib.import_module(link.backend.module), link.backend.cls)
    transport: Transport = cls(link.target, baudrate=baudrate)
    return transport


open_transport = open_link  # the name the drivers use


def _accepted() -> str:
    return ("a device path (/dev/ttyUSB0), serial:///dev/ttyUSB0, socket://HOST:PORT, rfc2217://HOST:PORT, "
            "loop://, pty:///PATH, ninebit:///dev/ttyS0, listen://HOST:PORT, or sim (the simulators)")
