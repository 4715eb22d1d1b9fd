"""Ochko's invariants over random shoes, seats, banks and legal decisions (hypothesis): the
stakes the events take are what the settlement says was staked, the bank moves by exactly what
the seats lost and won and never owes more than it holds, every card dealt is the shoe's next,
and a round rebuilt from its plain data at any decision finishes the same."""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from dataclasses import replace

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from machine.games.cards import new_shoe, shuffle
from machine.games.interface import ShoeExhausted, bet_of
from machine.games.ochko.round import OchkoRound
from machine.games.ochko.rules import RANKS
from machine.games.roundbase import IllegalAction
from machine.profiles import load_profile

BASE = load_profile("ochko").rules
VARIANTS = [
    BASE,
    replace(BASE, dark_draw=True),
    replace(BASE, two_aces_21=False, dark_draw=True),
    replace(BASE, decks=2, opening_bank=20, max_bet=50),
]


@st.composite
def rounds(draw):
    rules = draw(st.sampled_from(VARIANTS))
    shoe = shuffle(new_shoe(rules.decks, RANKS), random.Random(draw(st.integers(0, 2**32 - 1))))
    seats = draw(st.integers(1, 7))
    funds = draw(st.one_of(st.none(), st.lists(st.integers(0, 80), min_size=seats, max_size=seats)))
    carry = draw(st.one_of(st.none(), st.fixed_dictionaries({
        "bank": st.integers(0, 4 * rules.opening_bank), "closed": st.booleans()})))
    choices = draw(st.lists(st.integers(0, 10**6), min_size=40, max_size=40))
    return rules, shoe, seats, funds, carry, choices


def begin(case) -> OchkoRound:
    rules, shoe, seats, funds, carry, _ = case
    try:
        return OchkoRound.start(rules, shoe, list(range(1, seats + 1)), funds=funds, carry=carry)
    except ShoeExhausted:
        assume(False)
        raise


def play_out(rnd: OchkoRound, choices: list[int], stop_at: int | None = None) -> int:
    n = 0
    while (d := rnd.pending) is not None and (stop_at is None or n < stop_at):
        try:
            rnd.act(d.seat, d.options[choices[n % len(choices)] % len(d.options)])
        except ShoeExhausted:
            assume(False)
        n += 1
    return n


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_stakes_returns_and_the_bank_balance(case):
    rnd = begin(case)
    bank_before = rnd.bank
    choices = case[5]
    while (d := rnd.pending) is not None:
        assert rnd.bank >= rnd.waiting_stakes >= 0  # every waiting stake is covered
        if d.kind == "bet":
            stakes = [bet_of(o) or 0 for o in d.options]
            assert stakes == sorted(stakes) and rnd.rules.min_bet <= stakes[0] and stakes[-1] <= rnd.uncovered
        play_out(rnd, choices, stop_at=1)
        choices = choices[1:] + choices[:1]
    taken: Counter[int | None] = Counter()
    for e in rnd.events:
        if e.stake:
            assert e.stake_kind == "bet"
            taken[e.seat] += e.stake
    res = rnd.result("ochko")
    for s, money in zip(res["seats"], rnd.settlement(), strict=True):
        assert money.staked == taken[s["seat"]] == s["staked"] == s["bet"]
        assert money.returned == s["returned"] == s["hands"][0]["returned"]
        assert s["returned"] in (0, s["bet"], 2 * s["bet"])
        assert s["sat_out"] == (s["bet"] == 0)
    assert res["bank_after"] == bank_before + sum(m.staked - m.returned for m in rnd.settlement()) >= 0
    assert rnd.carry == {"bank": res["bank_after"], "closed": res["bank_closed"]}
    assert res["bank_closed"] == (res["stuk"] or res["bank_after"] < rnd.rules.min_bet)


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_every_card_dealt_is_the_shoes_next_and_none_is_lost(case):
    rnd = begin(case)
    play_out(rnd, case[5])
    dealt = [e.card for e in rnd.events if e.kind in ("card", "dealer_card", "dark_card")]
    assert dealt == rnd.shoe[: rnd.cards_used]
    held = [c for s in rnd.seats for c in s.cards] + rnd.banker
    assert Counter(held) == Counter(rnd.shoe[: rnd.cards_used])


@settings(max_examples=200, deadline=None)
@given(rounds(), st.integers(0, 12), st.sampled_from(["hit", "stand", "dark", "bet:2", "bet:1000", "wash"]))
def test_a_round_rebuilt_from_plain_data_at_any_decision_finishes_the_same(case, k, stray):
    rnd = begin(case)
    taken = play_out(rnd, case[5], stop_at=k)
    data = json.loads(json.dumps(rnd.to_dict()))
    again = OchkoRound.from_dict(data)
    assert again.to_dict() == rnd.to_dict() and again.pending == rnd.pending and again.shown() == rnd.shown()
    for who in (rnd.seat_numbers[0], rnd.seat_numbers[-1]):
        if rnd.why_not(who, stray) is not None:
            with contextlib.suppress(IllegalAction):
                rnd.act(who, stray)
            assert rnd.to_dict() == data  # a refused action changes nothing
    rest = case[5][taken:] + case[5][:taken]
    play_out(rnd, rest)
    play_out(again, rest)
    assert rnd.finished and again.finished
    assert again.result("ochko") == rnd.result("ochko")
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in rnd.events]
