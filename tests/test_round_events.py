"""One event class per kind of round event (machine.games.events, machine.games.blackjack.events).

The plain data of every kind is pinned to the form the journal and ``cabinet round`` have
always written; it is read back into the right class (also in the full-width form older
snapshots hold), and ``stake`` says what each event takes from the seat's meters.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from machine.games.blackjack.events import (
    BY_KIND,
    Action,
    CardDealt,
    DealerCardDealt,
    InsuranceDecided,
)
from machine.games.blackjack.events import from_dict as event_from_dict
from machine.games.blackjack.round import Round
from machine.games.events import EventDataError


def kinds(rnd: Round) -> list[str]:
    return [e.kind for e in rnd.events]


def test_every_kind_a_round_emits_has_its_own_class_and_plain_data(rb_rules, casino_rules):
    seen: dict[str, Any] = {}
    # Random Blackjack: insurance, a split, a double, three sevens, a bust
    rnd = Round.start(rb_rules, "8S 7C AH 8D 7H 3H TS 5C TC 7D 6S".split(), [10, 10], funds=[100, 100])
    rnd.act(1, "insure")
    rnd.act(2, "no_insurance")
    rnd.act(1, "split")
    rnd.act(1, "double")
    rnd.act(1, "hit")
    rnd.act(2, "hit")
    assert rnd.finished and rnd.dealer == ["AH", "6S"]
    for e in rnd.events:
        seen.setdefault(e.kind, e.to_dict())
    # a hole-card game with early surrender: the surrender, the peek and the reveal
    early = casino_rules.with_overrides({"surrender": "early"})
    rnd = Round.start(early, "9S TH 7D 5C".split(), [10])
    rnd.act(1, "surrender")
    for e in rnd.events:
        seen.setdefault(e.kind, e.to_dict())
    # five-card charlie
    charlie = rb_rules.with_overrides({"five_card_charlie": True})
    rnd = Round.start(charlie, "2S 9H 2D 2C 3H 3D TS 8C".split(), [10])
    rnd.act(1, "hit")
    rnd.act(1, "hit")
    rnd.act(1, "hit")
    for e in rnd.events:
        seen.setdefault(e.kind, e.to_dict())
    assert set(seen) == set(BY_KIND)
    assert seen == {
        "card": {"kind": "card", "seat": 1, "hand": 0, "card": "8S"},
        "dealer_card": {"kind": "dealer_card", "card": "AH"},
        "insurance": {"kind": "insurance", "seat": 1, "amount": 5},
        "action": {"kind": "action", "seat": 1, "hand": 0, "action": "split"},
        "bust": seen["bust"],
        "settle": seen["settle"],
        "bonus": seen["bonus"],
        "insurance_settle": {"kind": "insurance_settle", "seat": 1, "amount": 0},
        "round_end": {"kind": "round_end"},
        "surrender": {"kind": "surrender", "seat": 1, "hand": 0},
        "peek": {"kind": "peek", "result": "no_blackjack"},
        "dealer_reveal": {"kind": "dealer_reveal", "card": "5C"},
        "charlie": {"kind": "charlie", "seat": 1, "hand": 0},
    }
    assert set(seen["bust"]) == {"kind", "seat", "hand"}
    assert list(seen["settle"]) == ["kind", "seat", "hand", "amount", "result"]
    assert set(seen["bonus"]) == {"kind", "seat", "hand", "amount"}
    for d in seen.values():
        assert event_from_dict(d, {1: 10}).to_dict() == d
        assert type(event_from_dict(d, {1: 10})) is BY_KIND[d["kind"]]


def test_the_hole_card_is_the_one_dealer_card_whose_plain_data_says_face_down():
    assert DealerCardDealt("7C", True).to_dict() == {"kind": "dealer_card", "card": "7C", "face_down": True}
    assert CardDealt(2, 0, "9S").face_down is False and DealerCardDealt("6H").seat is None


def test_stake_is_what_an_event_takes_from_the_seat():
    assert (InsuranceDecided(1, 5).stake, InsuranceDecided(1, 5).stake_kind) == (5, "insurance")
    assert (InsuranceDecided(1, 0).stake, InsuranceDecided(1, 0).stake_kind) == (0, None)
    assert (Action(1, 0, "double", 10).stake, Action(1, 0, "double", 10).stake_kind) == (10, "double")
    assert (Action(1, 1, "split", 10).stake, Action(1, 1, "split", 10).stake_kind) == (10, "split")
    assert (Action(1, 0, "hit", 10).stake, Action(1, 0, "surrender", 10).stake) == (0, 0)
    assert CardDealt(1, 0, "AS").stake == 0 and DealerCardDealt("AS").stake == 0


def test_the_stakes_of_a_round_are_the_seats_extra_stakes(rb_rules):
    rnd = Round.start(rb_rules, "8S AH 8D 2C 7C 9S 3H".split(), [10], funds=[100])
    rnd.act(1, "insure")
    rnd.act(1, "split")
    rnd.act(1, "double")
    taken = [(e.stake_kind, e.stake) for e in rnd.events if e.stake]
    assert taken == [("insurance", 5), ("split", 10), ("double", 10)]
    assert sum(s for _, s in taken) + 10 == rnd.seat(1).staked


def test_a_snapshot_keeps_its_old_form_and_restores_the_actions_bets(rb_rules):
    rnd = Round.start(rb_rules, "8S 6H 8D 2C 7C 9S 3H".split(), [10], funds=[100])
    rnd.act(1, "split")
    data = json.loads(json.dumps(rnd.to_dict()))
    assert data["events"][0] == {
        "kind": "card", "seat": 1, "hand": 0, "card": "8S", "action": None, "amount": None,
        "result": None, "face_down": False,
    }
    resumed = Round.from_dict(data)
    assert resumed.events == rnd.events
    assert [e.stake for e in resumed.events if e.kind == "action"] == [10]


def test_plain_data_that_is_no_event_is_refused():
    with pytest.raises(EventDataError, match="unknown round event kind 'shuffle'"):
        event_from_dict({"kind": "shuffle"})
    with pytest.raises(EventDataError, match="a peek event has no 'seat'"):
        event_from_dict({"kind": "peek", "seat": 1, "result": "blackjack"})
    with pytest.raises(EventDataError, match="a card event"):
        event_from_dict({"kind": "card", "seat": 1})
