"""The reveal's hold: a hand the game has just shown to every seat stays on the screens a moment
before play moves on.

Owns: when a decision makes the game show a seat's hand to every seat before the settlement
(``TableShown.revealed`` gains a seat: ochko's 21 or bust), holding the round for
``CabinetSettings.reveal_hold`` seconds: the next decision's buttons stay dark and its clock
starts only when the hold ends. The hold is the screens' time, kept in memory only
(``CabinetState.hold``, never journaled): it changes no result, no event and no record's order,
and a restart simply has none. Never blocks and never reads a clock: time comes in as ``now``.
"""

from __future__ import annotations

from machine.core.context import Core
from machine.core.state import CabinetState, Hold


def revealed(core: Core) -> frozenset[int]:
    """The seats the round in play has shown to every seat so far (empty between rounds)."""
    rnd = core.state.round
    return rnd.shown().revealed if rnd is not None else frozenset()


def hold_after(core: Core, before: frozenset[int], now: float) -> None:
    """After a decision: a seat newly revealed while the round still asks someone holds play
    for the reveal's time; the next decision's clock starts when the hold ends."""
    rnd, state = core.state.round, core.state
    seconds = core.settings.reveal_hold
    if rnd is None or rnd.finished or rnd.pending is None or seconds <= 0:
        return
    new = revealed(core) - before
    if new:
        state.hold = Hold(new, now + seconds)
        state.row.decision_since = now + seconds


def end_if_due(state: CabinetState, now: float) -> None:
    """The hold's time served (or its round gone): play goes on."""
    if state.hold is not None and (now >= state.hold.until or state.round is None):
        state.hold = None

