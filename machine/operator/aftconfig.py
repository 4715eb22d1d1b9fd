"""The ``aft:`` section of the machine configuration: cashless transfers with the casino's host.

Owns: the typed model (``AftConfig``: on or off, the limits per transfer and per day in, per
transfer out, in points; whether a transfer needs the host's registration; each seat's asset
number, the number the host addresses the seat's EGM by) and the rules across sections that
``config check`` reports, one line each (``aft_problems``: AFT on needs SAS links, every linked
seat an asset number, no number twice, no seat the cabinet lacks). Never moves money: the core
(machine/core/aft.py) applies these limits to each transfer.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from machine.core.aft import below_transfer_in
from machine.core.context import AftLimits

MAX_POINTS = 10_000_000


class AftConfig(BaseModel):
    """``aft: {enabled, transfer_in_limit, daily_in_limit, transfer_out_limit, registration_required, assets}``;
    off by default (the shipped configuration): the seats answer no AFT poll."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    enabled: bool = False
    transfer_in_limit: Annotated[int, Field(ge=1, le=MAX_POINTS)] = 5_000  # points one transfer may put on a seat
    daily_in_limit: Annotated[int, Field(ge=1, le=MAX_POINTS)] = 20_000  # points a seat may take in a day (its date)
    transfer_out_limit: Annotated[int, Field(ge=1, le=MAX_POINTS)] = 10_000  # points one transfer may take off
    registration_required: bool = False  # a transfer only once the host registered the seat (73)
    assets: dict[Annotated[int, Field(ge=1)], Annotated[int, Field(ge=1, le=0xFFFFFFFF)]] = Field(default_factory=dict)

    def limits(self) -> AftLimits:
        return AftLimits(self.transfer_in_limit, self.daily_in_limit, self.transfer_out_limit, self.registration_required)


def aft_problems(aft: AftConfig, linked: list[int], seats: int) -> list[tuple[tuple[Any, ...], str]]:
    """The rules across sections, each with the path of the entry it is about; ``linked``: the
    seats of the SAS links."""
    out: list[tuple[tuple[Any, ...], str]] = []
    if not aft.enabled:
        return out
    if not linked:
        out.append((("aft", "enabled"), "AFT is on but no seat has a SAS link (sas.links)"))
    for seat in linked:
        if seat not in aft.assets:
            out.append((("aft", "assets"), f"seat {seat} is on a SAS link but has no asset number (seat: number)"))
    seen: dict[int, int] = {}
    for seat, asset in aft.assets.items():
        if seat > seats:
            out.append((("aft", "assets", seat), f"names seat {seat}, but the cabinet has {seats} seats"))
        if asset in seen:
            out.append((("aft", "assets", seat), f"asset number {asset} is seat {seen[asset]}'s already"))
        seen.setdefault(asset, seat)
    if below_transfer_in(aft.limits()):
        out.append((("aft", "daily_in_limit"), f"{aft.daily_in_limit} is below transfer_in_limit "
                    f"{aft.transfer_in_limit} (no transfer could reach the limit)"))
    return out
