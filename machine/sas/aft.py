"""AFT between the host and the cabinet: what the child serving the ports is told, and the answers.

Owns, on the cabinet's side (``CabinetAft``, the bridge's): each seat's AFT in the child's spec
(on or off, the asset number, every transfer the journal holds and the registration, so a
replay after a restart is answered with its first result), each snapshot's availability (the
directions possible now, the most one transfer may put on the seat), the host's transfer
handed to the core (``Cabinet.aft_transfer``: journaled, then applied, under the limits in force
when it is asked: the configuration's, or the operator's from the menu) and only then its result
sent to the child — ``aft_done`` (completed) or ``aft_refuse`` — and the registration kept. On
the child's side: the journal's results as ``AftRecord``s and ``AftRegistration``s
(``record_of``, ``registration_of``). Never moves money itself, never answers a poll.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from hardware.sas.aft import FROM_SEAT, TO_SEAT, AftRecord, AftRegistration

from machine.core import aft as core_aft
from machine.core.aft import AftLimits

HISTORY = 127  # the transfers the machine keeps (older ones it asks of the source)


def record_of(result: dict[str, Any]) -> AftRecord:
    """A journaled result (``aft`` record) as the machine answers for it."""
    return AftRecord(str(result["id"]), TO_SEAT if result["to_seat"] else FROM_SEAT, int(result["points"]),
                     int(result["status"]), 0, datetime.fromisoformat(result["when"]),
                     partial_ok=result["status"] == core_aft.PARTIAL, requested=int(result["requested"]))


def registration_of(data: dict[str, Any] | None) -> AftRegistration | None:
    if data is None:
        return None
    return AftRegistration(int(data["status"]), int(data["asset"]), bytes.fromhex(data["key"]), int(data["pos_id"]))


class CabinetAft:
    """The bridge's AFT: the cabinet's side of the transfers (see the module's docstring)."""

    def __init__(self, cab: Any, assets: dict[int, int], on: bool = True) -> None:
        self.cab = cab
        self.assets = assets
        self.on = on  # False: this bridge answers no AFT whatever the cabinet's settings

    @property
    def limits(self) -> AftLimits | None:
        """The limits in force now (``aft:`` of the configuration, or as the operator changed them
        in the menu since: the journal's); None: AFT off."""
        limits: AftLimits | None = self.cab.settings.aft
        return limits if self.on else None

    def spec(self, seat: int) -> dict[str, Any]:
        """The child's start for ``seat``: AFT on or off, its asset, its journal's transfers."""
        if self.limits is None:
            return {"on": False}
        done, registration = self.cab.aft_history(seat)
        return {"on": True, "asset": self.assets.get(seat, 0), "done": done, "registration": registration}

    def availability(self, seat: int) -> dict[str, Any]:
        """What the snapshot tells the machine of AFT now (the cabinet checks again at each transfer)."""
        limits = self.limits
        if limits is None:
            return {}
        to_seat, from_seat = self.cab.aft_available(seat)
        credit = self.cab.seats[seat].money.credit
        room = self.cab.core.settings.credit_limit - credit
        today = core_aft.day_in(self.cab.core, seat, date.today().isoformat())
        limit = max(0, min(limits.transfer_in, limits.daily_in - today, room))
        return {"to": to_seat, "from": from_seat, "limit": limit, "lockable": not self.cab.in_round(seat)}

    def release(self) -> None:
        """Every seat's AFT lock ended (the child serving the ports is gone)."""
        for seat in self.assets:
            if seat in self.cab.seats:
                self.cab.aft_lock(seat, False)

    def resume(self, now: float) -> None:
        """At start: a transfer a power cut left journaled as pending is finished now."""
        if self.limits is not None:
            for seat in self.assets:
                if seat in self.cab.seats:
                    self.cab.aft_resume(seat, now)

    def asked(self, seat: int, event: str, message: dict[str, Any], now: float) -> dict[str, Any] | None:
        """What the host asked (``aft_transfer``, ``aft_registration``); the reply for the child."""
        limits = self.limits
        if limits is None:
            return None
        if event == "aft_registration":
            self.cab.aft_registration(seat, {k: message[k] for k in ("status", "asset", "key", "pos_id")})
            return None
        if event == "aft_lock":
            self.cab.aft_lock(seat, bool(message["locked"]))  # no new bet or round until it ends
            return None
        if event != "aft_transfer":
            return None
        when = datetime.now().replace(microsecond=0).isoformat()
        result = self.cab.aft_transfer(seat, message["id"], bool(message["to_seat"]), int(message["points"]),
                                       bool(message["partial"]), limits, now, when)
        if result["status"] in (core_aft.FULL, core_aft.PARTIAL):
            return {"aft_done": seat, "result": result}
        return {"aft_refuse": seat, "id": message["id"], "status": result["status"]}
