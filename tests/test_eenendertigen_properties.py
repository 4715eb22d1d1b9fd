"""Eenendertigen's invariants over random decks, place layouts and legal moves (hypothesis): every
card is the deck's next and none is lost (32 or 52 conserved), scores are recomputed from the
cards, stakes and returns balance (no event takes money; winners get floor(win_pays x bet /
winners)), every round ends, and a round rebuilt from its plain data at any decision finishes
the same."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from machine.gamemath.eenendertigen import computer
from machine.games.cards import deck, shuffle
from machine.games.eenendertigen.round import EenendertigenRound
from machine.games.eenendertigen.rules import score2, score_value
from machine.profiles import load_profile

RULES = {v: load_profile("eenendertigen", {"variant": v}).rules for v in ("classic", "modern")}


@st.composite
def cases(draw):
    rules = RULES[draw(st.sampled_from(sorted(RULES)))]
    shoe = shuffle(deck(rules.ranks), random.Random(draw(st.integers(0, 2**32 - 1))))
    layout = draw(st.lists(st.booleans(), min_size=4, max_size=4))  # True: a seat, False: a computer
    seats: list[int | None] = []
    for is_seat in layout:
        seats.append(len([s for s in seats if s is not None]) + 1 if is_seat else None)
    bets = [draw(st.sampled_from((2, 10, 500))) if s is not None else 0 for s in seats]
    choices = draw(st.lists(st.integers(0, 10**6), min_size=120, max_size=120))
    stop = draw(st.integers(0, 60))
    return rules, shoe, seats, bets, choices, stop


def finish(rnd: EenendertigenRound, choices: list[int], start: int = 0, stop: int | None = None):
    """Answer every decision with a legal option picked by ``choices``; stop at decision ``stop``."""
    n = start
    while (d := rnd.pending) is not None:
        if n == stop:
            return rnd, n
        assert n < len(choices), "a round must end"
        options = [o for o in d.options if o != "draw" or n % 2]  # both ways of drawing get played
        rnd.act(d.seat, options[choices[n] % len(options)])
        n += 1
    return rnd, n


@settings(max_examples=40, deadline=None)
@given(cases())
def test_cards_conserved_scores_recomputed_and_money_balances(case):
    rules, shoe, seats, bets, choices, _ = case
    rnd, _ = finish(EenendertigenRound.start(rules, shoe, seats, bets, computer), choices)
    held = [c for p in rnd.places for c in p.cards] + rnd.table
    assert Counter(held) == Counter(shoe[: rnd.cards_used]) and len(set(held)) == len(held)
    assert rnd.cards_used == (15 if rules.variant == "classic" else 13 + sum(p.swaps for p in rnd.places)
                              - sum(e.kind == "move" and e.action.startswith("take_open") for e in rnd.events))
    result = rnd.result("eenendertigen")
    best = max(score2(p.cards) for p in rnd.places)
    assert [p["score"] for p in result["places"]] == [score_value(score2(p.cards)) for p in rnd.places]
    assert result["winners"] == [n + 1 for n, p in enumerate(rnd.places) if score2(p.cards) == best]
    assert sum(e.stake for e in rnd.events) == 0
    for s in rnd.settlement():
        p = rnd.seat(s.seat)
        assert s.staked == p.bet == bets[seats.index(s.seat)]
        assert s.returned == (int(rules.win_pays * p.bet / len(result["winners"])) if p.won else 0)
    assert all(p["returned"] == 0 for p in result["places"] if p["seat"] is None)
    assert result["ended"] in ("31", "all passed", "swaps", "stack empty")
    assert (result["ended"] == "31") == any(p.knocked for p in rnd.places)
    assert all(p.swaps <= 5 for p in rnd.places) or rules.variant == "modern"


@settings(max_examples=40, deadline=None)
@given(cases())
def test_a_round_rebuilt_from_plain_data_at_any_decision_finishes_the_same(case):
    rules, shoe, seats, bets, choices, stop = case
    whole, _ = finish(EenendertigenRound.start(rules, shoe, seats, bets, computer), choices)
    part, n = finish(EenendertigenRound.start(rules, shoe, seats, bets, computer), choices, stop=stop)
    again = EenendertigenRound.from_dict(json.loads(json.dumps(part.to_dict())), computer)
    assert again.to_dict() == part.to_dict()
    again, _ = finish(again, choices, start=n)
    assert again.result("g") == whole.result("g")
    assert [e.to_dict() for e in again.events] == [e.to_dict() for e in whole.events]
