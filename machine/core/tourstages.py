"""A tournament's stages: a state machine written as a table (machine/loop/modes.py's shape).

Owns: ``Stage`` (where the open tournament is: none open, open and waiting, in force with no
seat busy, a seat entering its name, a participant playing, a close waiting for the round in
play), the events that move it (``StageEvent``), the table of legal moves (``TRANSITIONS``), and
the ONE place that reads and writes the stage in the tournament's plain data, which is exactly
the journal's form (``in_force``, ``active.stage``, ``closing`` in the cabinet row's
``tournaments.open``), so journals written before the stages were a table restore unchanged:
``stage_of`` converts at the edge, ``fire`` moves along the table and writes the form back.

Theory of operation
-------------------
A tournament is opened (``OPEN``: normal play goes on), comes into force at its start time at an
idle cabinet (``READY``: the cabinet plays only the tournament), a free seat's Start begins a
name entry (``NAME``), the entry taken starts the participant's rounds (``PLAY``), its 16th round
over frees the cabinet for the next participant (``READY``). A close asked while a participant's
round is in play waits for that round's end (``CLOSING``); any other close ends the tournament at
once (``NONE``). A move the table does not hold is a bug: ``fire`` raises.

Pure: no I/O, no clock, no journal; machine/core/tournament.py fires the events inside the
cabinet's transactions.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Any


class Stage(enum.StrEnum):
    NONE = "none"  # no tournament open: normal play
    OPEN = "open"  # open, waiting for its start time (or for an idle cabinet): normal play
    READY = "ready"  # in force, no seat entering or playing: Start on a free seat enters
    NAME = "name"  # a seat enters its name
    PLAY = "play"  # a participant plays its rounds
    CLOSING = "closing"  # a close was asked during a participant's round: it closes at that round's end

    @property
    def in_force(self) -> bool:
        """Whether the cabinet plays only the tournament in this stage."""
        return self in IN_FORCE


IN_FORCE = frozenset({Stage.READY, Stage.NAME, Stage.PLAY, Stage.CLOSING})


class StageEvent(enum.StrEnum):
    OPENED = "opened"  # the operator opened it
    STARTED = "started"  # its start time came and no seat has a bet or a hand
    NAME_BEGUN = "name begun"  # Start on a free seat
    GAVE_UP = "gave up"  # Auto during the name entry, or the entry left alone
    ENTERED = "entered"  # the name taken and the entry paid: the participant's first round
    FINISHED = "finished"  # the participant's last round is over
    CLOSE_ASKED = "close asked"  # a close asked while the participant's round is in play
    CLOSED = "closed"  # the ranking final, the seed published


TRANSITIONS: Mapping[tuple[Stage, StageEvent], Stage] = {
    (Stage.NONE, StageEvent.OPENED): Stage.OPEN,
    (Stage.OPEN, StageEvent.STARTED): Stage.READY,
    (Stage.OPEN, StageEvent.CLOSED): Stage.NONE,
    (Stage.READY, StageEvent.NAME_BEGUN): Stage.NAME,
    (Stage.READY, StageEvent.CLOSED): Stage.NONE,
    (Stage.NAME, StageEvent.GAVE_UP): Stage.READY,
    (Stage.NAME, StageEvent.ENTERED): Stage.PLAY,
    (Stage.NAME, StageEvent.CLOSED): Stage.NONE,
    (Stage.PLAY, StageEvent.FINISHED): Stage.READY,
    (Stage.PLAY, StageEvent.CLOSE_ASKED): Stage.CLOSING,
    (Stage.PLAY, StageEvent.CLOSED): Stage.NONE,
    (Stage.CLOSING, StageEvent.FINISHED): Stage.CLOSING,  # the last round of a participant: then the close
    (Stage.CLOSING, StageEvent.CLOSED): Stage.NONE,
}


class StageError(RuntimeError):
    """An event the tournament's stage does not take (a bug in the caller)."""


def stage_of(t: Mapping[str, Any] | None) -> Stage:
    """The stage of a tournament kept as plain data (the journal's form); None: none open."""
    if not t:
        return Stage.NONE
    if not t.get("in_force"):
        return Stage.OPEN
    if t.get("closing"):
        return Stage.CLOSING
    active = t.get("active")
    if active is None:
        return Stage.READY
    return Stage(active["stage"])


def fire(t: dict[str, Any], event: StageEvent, active: dict[str, Any] | None = None, **closing: Any) -> Stage:
    """Move tournament ``t`` (plain data) along the table and write its new stage back in the
    journal's form: ``active`` is the seat's entry (``NAME``: name, char, note; ``PLAY``:
    participant) with its ``seat`` and ``since``; ``closing`` (``by``, ``why``) with
    ``CLOSE_ASKED``. Returns the new stage."""
    before = stage_of(t) if "in_force" in t else Stage.NONE  # no stage written yet: being opened
    after = TRANSITIONS.get((before, event))
    if after is None:
        raise StageError(f"a tournament in stage {before} takes no {event!r}")
    if event is StageEvent.OPENED:
        t["in_force"], t["active"] = False, None
    elif event is StageEvent.STARTED:
        t["in_force"] = True
    elif event is StageEvent.CLOSE_ASKED:
        t["closing"] = dict(closing)
    elif after in (Stage.NAME, Stage.PLAY):
        assert active is not None
        t["active"] = {"seat": active["seat"], "stage": after.value, **{k: v for k, v in active.items() if k != "seat"}}
    else:  # the seat is free again (gave up, finished) or the tournament closed
        t["active"] = None
    return after
