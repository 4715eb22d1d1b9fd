"""Eenentwintig's invariants over random shoes, bets and legal decisions (hypothesis): stakes
and returns balance, every card is accounted for, and a round resumed from plain data at any
decision ends exactly as the round that was never interrupted."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from machine.games.blackjack.scoring import LOSE, PUSH, WIN
from machine.games.cards import new_shoe, shuffle
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules

BASE = EenentwintigRules()
VARIANTS = [
    BASE,
    replace(BASE, decks=1),
    replace(BASE, two_aces_twenty_and_a_half=False, three_sevens_beat_21=False),
    replace(BASE, decks=8, max_bet=20),
]


@st.composite
def rounds(draw):
    rules = draw(st.sampled_from(VARIANTS))
    shoe = shuffle(new_shoe(rules.decks, sc.RANKS), random.Random(draw(st.integers(0, 2**32 - 1))))
    seats = draw(st.lists(st.integers(1, 9), min_size=1, max_size=4, unique=True))
    funds = draw(st.lists(st.one_of(st.none(), st.integers(2, 30)), min_size=len(seats), max_size=len(seats)))
    choices = draw(st.lists(st.integers(0, 10**6), min_size=40, max_size=40))
    return rules, shoe, sorted(seats), funds, choices


def play_out(rnd: EenentwintigRound, choices: list[int], stop_at: int | None = None) -> int:
    """Take the decisions ``choices`` pick (an index into the options); returns how many."""
    n = 0
    while (d := rnd.pending) is not None and (stop_at is None or n < stop_at):
        rnd.act(d.seat, d.options[choices[n % len(choices)] % len(d.options)])
        n += 1
    return n


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_stakes_and_returns_balance_and_follow_the_scoring_table(case):
    rules, shoe, seats, funds, choices = case
    rnd = EenentwintigRound.start(rules, shoe, seats, funds)
    play_out(rnd, choices)
    stakes = {n: 0 for n in seats}
    for e in rnd.events:
        if e.stake:
            stakes[e.seat] += e.stake
            assert e.stake_kind in ("bet", "split")
    res = rnd.result("eenentwintig")
    bank_key = sc.score_cards(res["dealer"]["cards"], True, rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21).key
    for ss, s, f in zip(rnd.settlement(), res["seats"], funds, strict=True):
        assert ss.staked == stakes[ss.seat] == s["staked"] == sum(h["stake"] for h in s["hands"])
        assert ss.returned == s["returned"] == sum(h["returned"] for h in s["hands"]) and s["net"] == ss.net
        assert f is None or ss.staked <= f  # never more than the seat could fund
        assert rules.min_bet <= s["bet"] <= rules.max_bet and all(h["stake"] == s["bet"] for h in s["hands"])
        for h in s["hands"]:
            key = sc.score_cards(h["cards"], not h["from_split"], rules.two_aces_twenty_and_a_half,
                                 rules.three_sevens_beat_21).key
            code = sc.settle(key, bank_key)
            assert h["result"] == {LOSE: "lose", PUSH: "push", WIN: "win"}[code]
            assert h["returned"] == {LOSE: 0, PUSH: 1, WIN: 2}[code] * h["stake"]
            assert len(h["cards"]) <= sc.MAX_CARDS


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_every_card_dealt_is_in_a_hand_the_bank_or_the_washed_cards(case):
    rules, shoe, seats, funds, choices = case
    rnd = EenentwintigRound.start(rules, shoe, seats, funds)
    play_out(rnd, choices)
    held = list(rnd.bank)
    for s in rnd.seats:
        for h in s.hands:
            held += h.cards + h.washed
    assert sorted(held) == sorted(shoe[: rnd.cards_used])
    every_bust = all(h.result == "lose" and h.score(rules).key == sc.BUST for s in rnd.seats for h in s.hands)
    if every_bust:
        assert len(rnd.bank) == 2  # the bank draws nothing when every hand is bust


@settings(max_examples=200, deadline=None)
@given(rounds(), st.integers(0, 12))
def test_a_round_resumed_from_plain_data_at_any_decision_ends_the_same(case, stop):
    rules, shoe, seats, funds, choices = case
    whole = EenentwintigRound.start(rules, shoe, seats, funds)
    play_out(whole, choices)
    part = EenentwintigRound.start(rules, shoe, seats, funds)
    done = play_out(part, choices, stop_at=stop)
    data = json.loads(json.dumps(part.to_dict()))
    resumed = EenentwintigRound.from_dict(data)
    assert resumed.to_dict() == data and resumed.pending == part.pending and resumed.shown() == part.shown()
    n = done
    while (d := resumed.pending) is not None:
        resumed.act(d.seat, d.options[choices[n % len(choices)] % len(d.options)])
        n += 1
    assert resumed.result("g") == whole.result("g") and resumed.events == whole.events
