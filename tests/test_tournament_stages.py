"""The tournament's stages are a table: every move tested, every other refused, and the
journal's plain form (written before the stages were a table) read back to the same stage."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from machine.core.tourstages import TRANSITIONS, Stage, StageError, StageEvent, fire, stage_of

S, E = Stage, StageEvent

# (stage, event, stage after): the whole table, written out once more
CASES = [
    (S.NONE, E.OPENED, S.OPEN),
    (S.OPEN, E.STARTED, S.READY),
    (S.OPEN, E.CLOSED, S.NONE),
    (S.READY, E.NAME_BEGUN, S.NAME),
    (S.READY, E.CLOSED, S.NONE),
    (S.NAME, E.GAVE_UP, S.READY),
    (S.NAME, E.ENTERED, S.PLAY),
    (S.NAME, E.CLOSED, S.NONE),
    (S.PLAY, E.FINISHED, S.READY),
    (S.PLAY, E.CLOSE_ASKED, S.CLOSING),
    (S.PLAY, E.CLOSED, S.NONE),
    (S.CLOSING, E.FINISHED, S.CLOSING),
    (S.CLOSING, E.CLOSED, S.NONE),
]

# the journal's form of each stage, as journals before the table wrote it
FORMS: dict[Stage, dict[str, Any]] = {
    S.OPEN: {"id": 1, "in_force": False, "active": None, "participants": []},
    S.READY: {"id": 1, "in_force": True, "active": None, "participants": []},
    S.NAME: {"id": 1, "in_force": True, "participants": [],
             "active": {"seat": 2, "stage": "name", "name": "AN", "char": 3, "since": 5.0, "note": ""}},
    S.PLAY: {"id": 1, "in_force": True, "participants": [],
             "active": {"seat": 2, "stage": "play", "participant": 1, "since": 5.0}},
    S.CLOSING: {"id": 1, "in_force": True, "participants": [], "closing": {"by": "operator", "why": "closed"},
                "active": {"seat": 2, "stage": "play", "participant": 1, "since": 5.0}},
}


def form(stage: Stage) -> dict[str, Any]:
    return {} if stage is S.NONE else {k: (dict(v) if isinstance(v, dict) else v) for k, v in FORMS[stage].items()}


def test_the_table_is_exactly_the_tested_moves():
    assert {(a, e): b for a, e, b in CASES} == dict(TRANSITIONS)


def test_the_journals_form_reads_as_its_stage_and_no_tournament_as_none():
    assert stage_of(None) is S.NONE and stage_of({}) is S.NONE
    for stage, written in FORMS.items():
        assert stage_of(written) is stage
    assert [s for s in Stage if s.in_force] == [S.READY, S.NAME, S.PLAY, S.CLOSING]


@pytest.mark.parametrize(("before", "event", "after"), CASES)
def test_each_move_writes_the_journals_form_of_its_new_stage(before, event, after):
    t = form(before)
    entry = {"seat": 2, "name": "", "char": 0, "since": 9.0, "note": ""} if after is S.NAME else {
        "seat": 2, "participant": 1, "since": 9.0}
    closing = {"by": "operator", "why": "closed"} if event is E.CLOSE_ASKED else {}
    assert fire(t, event, entry, **closing) is after
    if after is not S.NONE:  # a closed tournament leaves the cabinet row: its last form is the close record's
        assert stage_of(t) is after
    if after in (S.NAME, S.PLAY):
        assert t["active"]["stage"] == after.value and t["active"]["seat"] == 2 and t["active"]["since"] == 9.0
    if event in (E.GAVE_UP, E.CLOSED, E.FINISHED):
        assert t["active"] is None


def test_every_other_move_is_refused_and_changes_nothing():
    moves = {(a, e) for a, e, _ in CASES}
    for stage, event in itertools.product(Stage, StageEvent):
        if (stage, event) in moves:
            continue
        t = form(stage)
        kept = repr(t)
        with pytest.raises(StageError, match=f"stage {stage.value} takes no"):
            fire(t, event, {"seat": 1, "since": 0.0}, by="x", why="y")
        assert repr(t) == kept
