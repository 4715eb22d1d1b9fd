"""Invariants of the round over random shoes and random legal decisions (hypothesis)."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from machine.games.blackjack.hand import score
from machine.games.blackjack.round import Round
from machine.games.cards import deck_ranks, new_shoe, shuffle
from machine.profiles import load_profile

RB = load_profile("random-blackjack").rules
CASINO = load_profile("casino-blackjack").rules
VARIANTS = [
    RB,
    CASINO,
    replace(RB, surrender="late", five_card_charlie=True, dealer_hits_soft_17=True),
    replace(CASINO, surrender="early", blackjack_pays=RB.blackjack_pays * 4 / 5),
    replace(RB, decks=1, max_splits_and_doubles=None, double_hard=None, double_soft=None),
    # the table variants of seed 002, as profiles and mixed with other settings
    load_profile("european-blackjack").rules,
    load_profile("swedish-pub-blackjack").rules,
    load_profile("spanish-21").rules,
    load_profile("european-blackjack", {"max_hands": 4, "decks": 2, "surrender": "late", "five_card_charlie": True,
                                        "dealer_wins_ties": [17, 21], "player_21_wins": True}).rules,
    load_profile("spanish-21", {"hole_card": False, "no_hole_card_loses": "original", "surrender": "early",
                                "max_hands": 3, "insurance_pays": 3}).rules,
]


@st.composite
def rounds(draw):
    rules = draw(st.sampled_from(VARIANTS))
    seed = draw(st.integers(0, 2**32 - 1))
    shoe = shuffle(new_shoe(rules.decks, deck_ranks(rules.spanish_deck)), random.Random(seed))
    bets = draw(st.lists(st.integers(1, 250).map(lambda n: 2 * n), min_size=1, max_size=7))
    choices = draw(st.lists(st.integers(0, 10**6), min_size=60, max_size=60))
    return rules, shoe, bets, choices


def play_out(rnd: Round, choices: list[int], stop_at: int | None = None) -> int:
    """Take the decisions picked by ``choices`` (an index into the options); returns how many."""
    n = 0
    while (d := rnd.pending) is not None and (stop_at is None or n < stop_at):
        rnd.act(d.seat, d.options[choices[n % len(choices)] % len(d.options)])
        n += 1
    return n


# slow: 300 hypothesis rounds, each played to settlement and checked against the table
@settings(max_examples=300, deadline=None)
@given(rounds())
def test_stakes_and_returns_balance_and_every_return_follows_the_settlement_table(case):
    rules, shoe, bets, choices = case
    rnd = Round.start(rules, shoe, bets)
    play_out(rnd, choices)
    res = rnd.result("g")
    bj_pay = rules.blackjack_pays
    for s, bet in zip(res["seats"], bets, strict=True):
        assert s["staked"] == sum(h["stake"] for h in s["hands"]) + s["insurance"]
        assert s["returned"] == sum(h["returned"] for h in s["hands"]) + s["insurance_returned"] + s["bonus"]
        assert s["net"] == s["returned"] - s["staked"]
        assert s["insurance"] in (0, bet // 2)
        assert s["insurance_returned"] in (0, s["insurance"] + int(s["insurance"] * rules.insurance_pays))
        if rules.max_splits_and_doubles == 3:
            assert s["staked"] - s["insurance"] <= 4 * bet
        assert len(s["hands"]) <= rules.max_hands
        for h in s["hands"]:
            stake = h["stake"]
            assert stake in (bet, 2 * bet)
            allowed = {0, stake, 2 * stake, stake // 2, stake + int(stake * bj_pay)}
            if rules.no_hole_card_loses == "original":
                allowed.add(stake - bet)  # a dealer blackjack: the first hand's double comes back
            assert h["returned"] in allowed
            if h["bust"]:
                assert h["returned"] == 0 and h["result"] == "lose"


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_no_card_is_dealt_twice_and_cards_leave_the_shoe_in_order(case):
    rules, shoe, bets, choices = case
    rnd = Round.start(rules, shoe, bets)
    play_out(rnd, choices)
    dealt = [e.card for e in rnd.events if e.kind in ("card", "dealer_card")]
    assert dealt == shoe[: rnd.cards_used]
    held = [c for s in rnd.seats for h in s.hands for c in h.cards] + rnd.dealer
    assert sorted(held) == sorted(dealt, key=str)


@settings(max_examples=300, deadline=None)
@given(rounds(), st.integers(0, 20))
def test_a_round_restored_at_any_decision_point_finishes_as_the_uninterrupted_one(case, stop):
    rules, shoe, bets, choices = case
    straight = Round.start(rules, shoe, bets)
    play_out(straight, choices)

    first = Round.start(rules, shoe, bets)
    taken = play_out(first, choices, stop_at=stop)
    saved = json.dumps(first.to_dict())  # through text, as the journal will store it
    resumed = Round.from_dict(json.loads(saved))
    assert resumed.to_dict() == first.to_dict()
    rest = choices[taken % len(choices):] + choices[: taken % len(choices)]
    play_out(resumed, rest)
    assert resumed.result("g") == straight.result("g")
    assert resumed.events == straight.events


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_every_hand_total_in_the_result_is_the_score_of_its_cards(case):
    rules, shoe, bets, choices = case
    rnd = Round.start(rules, shoe, bets)
    play_out(rnd, choices)
    for s in rnd.seats:
        for h in s.hands:
            assert h.total == score(h.cards, h.aces_hard).total
            if h.doubled and rules.double_makes_aces_hard:
                assert not h.soft
