"""The cabinet's inputs from the casino's cashless transfers (SAS AFT), each a journal transaction.

Owns: ``AftInputs`` — a transfer in two transactions (the request journaled as pending, then
applied: the money, the meters and the result; or refused, nothing moved), the same id again
answered with its first result and nothing changed, a request a power cut left pending
finished at the next start (``aft_resume``: completed as asked, a transfer from the seat
only with what the credit meter holds), the registration kept, and the few seconds a seat's
screen shows a transfer (``aft_notice``). The rules are ``machine/core/aft.py``'s. Never
talks to the host: the SAS bridge (machine/sas/) reports here and answers from the results.
"""

from __future__ import annotations

from typing import Any

from machine.core import aft
from machine.core.aft import AftLimits
from machine.core.queries import CabinetQueries

NOTICE_SECONDS = 5.0  # how long a seat's screen shows a transfer


class AftInputs(CabinetQueries):
    """Cashless transfers to and from the seats (see the module's docstring)."""

    def aft_transfer(self, n: int, transaction_id: str, to_seat: bool, points: int, partial: bool,
                     limits: AftLimits, now: float, when: str) -> dict[str, Any]:
        """The host's transfer on seat ``n`` (``when``: the cabinet's date, ISO). Returns the
        result: ``status`` (0 full, 1 partial, else the refusal), ``points`` moved, ``when``.
        An id already done returns its first result and changes nothing."""
        core = self.core
        known = aft.done(core, n, transaction_id)
        if known is not None:
            return known
        pending = {"id": transaction_id, "to_seat": to_seat, "points": points, "partial": partial, "when": when,
                   "limits": [limits.transfer_in, limits.daily_in, limits.transfer_out]}
        status = aft.refusal(core, n, to_seat, points, limits, when[:10])
        if status is None and not aft.points_now(core, self.seats[n], pending):
            status = aft.BAD_AMOUNT  # nothing on the credit meter to take
        with core.tx("aft_request", pending, n):
            if status is None:
                aft.request(core, n, pending)
            else:
                aft.refuse(core, n, pending, status)
        if status is not None:
            return {"id": transaction_id, "to_seat": to_seat, "points": 0, "requested": points, "status": status,
                    "when": when}
        result = self.aft_resume(n, now)
        assert result is not None
        return result

    def aft_resume(self, n: int, now: float) -> dict[str, Any] | None:
        """Finish seat ``n``'s pending transfer, if it has one (at once, or at the start after a
        power cut fell between the request and its completion); its result."""
        core = self.core
        pending = aft.seat_row(core, n).get("pending")
        if pending is None:
            return None
        with core.tx("aft_complete", {"id": pending["id"], "now": now}, n):
            seat = self.seats[n]
            points = aft.points_now(core, seat, pending)
            if points:
                result = aft.complete(core, seat, pending, points, pending["when"][:10])
            else:
                aft.refuse(core, n, pending, aft.BAD_AMOUNT)
                result = {"id": pending["id"], "to_seat": pending["to_seat"], "points": 0,
                          "requested": pending["points"], "status": aft.BAD_AMOUNT, "when": pending["when"]}
        if points:
            self._aft_shown()[n] = (now, bool(pending["to_seat"]), points)
        return result

    def aft_registration(self, n: int, data: dict[str, Any]) -> None:
        """The host registered seat ``n`` for AFT (or cancelled it): kept for the next start."""
        if aft.seat_row(self.core, n).get("registration") != data:
            with self.core.tx("aft_registration", data, n):
                aft.registration(self.core, n, data)

    # -- read side --------------------------------------------------------------------------------

    def aft_history(self, n: int) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
        """Every transfer done on seat ``n`` (oldest first) and its registration."""
        return ([dict(r.data) for r in self.core.journal.records("aft", seat=n)],
                aft.seat_row(self.core, n).get("registration"))

    def aft_lock(self, n: int, locked: bool) -> None:
        """The host locked seat ``n`` for a transfer (SAS 74) or the lock ended (the transfer done,
        the host's release, its timeout): while locked the seat takes no new bet and is dealt
        into no round. Not journaled (no money moves); a restart ends it, as it ends the machine's."""
        self.seats[n].aft_locked = locked

    def aft_available(self, n: int) -> tuple[bool, bool]:
        return aft.available(self.core, n)

    def aft_notice(self, n: int, now: float) -> tuple[bool, int] | None:
        """(to the seat, points) of a transfer done on seat ``n`` in the last few seconds."""
        shown = self._aft_shown().get(n)
        if shown is None or not 0 <= now - shown[0] < NOTICE_SECONDS:
            return None
        return shown[1], shown[2]

    def _aft_shown(self) -> dict[int, tuple[float, bool, int]]:
        shown: dict[int, tuple[float, bool, int]] = self.__dict__.setdefault("aft_shown", {})
        return shown
