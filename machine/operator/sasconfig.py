"""The ``sas:`` section of the machine configuration: which seat answers SAS on which port.

Owns: the typed model (``SasConfig``: ``links``, each ``{port, address, seat, implied_nack}``) and the rules
across its entries that ``config check`` reports, one line each (``sas_problems``: a seat at
most once, an address at most once on a port, a seat the cabinet has). The address range 1-127
is the model's own. Never opens a port: the bridge (``machine/sas/``) does, at start.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hardware import links


class SasLink(BaseModel):
    """One SAS address on one port, answering for one seat."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    port: Annotated[str, Field(min_length=1)]  # a device path or a URL of hardware/links.py
    address: Annotated[int, Field(ge=1, le=127)]  # SAS addresses are 1 to 127 (0 is the broadcast)
    seat: Annotated[int, Field(ge=1)]
    implied_nack: bool = False  # a host that follows the document's implied ACK/NACK (docs/sas.md)

    @field_validator("port")
    @classmethod
    def _a_port(cls, v: str) -> str:
        links.parse_link(v)  # LinkError is a ValueError: reported at the setting's line
        if links.is_simulated(v):
            raise ValueError(f"{v}: a SAS link is a real port or a pty the host opens, not a simulator")
        return v


class SasConfig(BaseModel):
    """``sas: {links: [...]}``; no links (the shipped configuration): no SAS at all."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    links: list[SasLink] = Field(default_factory=list)


def sas_problems(sas: SasConfig, seats: int) -> list[tuple[tuple[Any, ...], str]]:
    """The rules across the links, each with the path of the entry it is about."""
    out: list[tuple[tuple[Any, ...], str]] = []
    seen_seats: dict[int, int] = {}
    seen_addresses: dict[tuple[str, int], int] = {}
    for i, link in enumerate(sas.links):
        where = ("sas", "links", i)
        if link.seat > seats:
            out.append(((*where, "seat"), f"names seat {link.seat}, but the cabinet has {seats} seats"))
        if link.seat in seen_seats:
            out.append(((*where, "seat"), f"seat {link.seat} is already on SAS link {seen_seats[link.seat] + 1} "
                        "(a seat answers one host address)"))
        seen_seats.setdefault(link.seat, i)
        key = (link.port, link.address)
        if key in seen_addresses:
            out.append(((*where, "address"), f"address {link.address} on {link.port} is already SAS link "
                        f"{seen_addresses[key] + 1}'s (one address per machine on a port)"))
        seen_addresses.setdefault(key, i)
    return out
