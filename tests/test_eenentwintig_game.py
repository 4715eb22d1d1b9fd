"""Eenentwintig as the cabinet hosts it: the profile, a whole round through the game interface
only, what each seat sees, the buttons and their words, the bets as round decisions, the
events and their stakes, and plain data at every decision."""

from __future__ import annotations

import json
import random

import pytest

from machine.gamemath.eenentwintig import auto_action
from machine.games.cards import shuffle
from machine.games.catalog import make_game
from machine.games.eenentwintig.game import EenentwintigGame
from machine.games.eenentwintig.round import EenentwintigRound, IllegalAction, RoundError
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import FACE_DOWN, Button, Decision, Game, GameRound, bet_action
from machine.games.rules import RulesError
from machine.profiles import load_profile

PROFILE = load_profile("eenentwintig")
RULES: EenentwintigRules = PROFILE.rules


def game() -> EenentwintigGame:
    g = make_game(PROFILE, auto_action)
    assert isinstance(g, EenentwintigGame)
    return g


def test_the_profile_holds_the_seeds_settings():
    assert PROFILE.engine == "eenentwintig" and PROFILE.title == "Eenentwintig"
    assert EenentwintigRules(decks=2, min_bet=2, max_bet=10, bet_step=2,
                                      two_aces_twenty_and_a_half=True, three_sevens_beat_21=True) == RULES
    assert RULES.bets() == [2, 4, 6, 8, 10]
    with pytest.raises(RulesError, match="decks: must be 0 to 8, not 9"):
        load_profile("eenentwintig", {"decks": 9})
    with pytest.raises(RulesError, match="three_sevens_beat_21: must be true or false"):
        load_profile("eenentwintig", {"three_sevens_beat_21": 1})
    assert EenentwintigRules.from_dict(RULES.to_dict()) == RULES


def test_the_shoe_is_32_cards_a_deck_7_to_ace():
    shoe = game().new_shoe()
    assert len(shoe) == 64 and {c[0] for c in shoe} == set("789TJQKA") and shoe.count("JS") == 2


def test_a_whole_round_through_the_interface_only():
    g: Game = game()
    assert g.bets_after_deal and g.min_bet == 2
    shoe = shuffle(g.new_shoe(), random.Random(11))
    rnd: GameRound = g.start(shoe, [0, 0], [40, 7], [2, 4], None)
    assert rnd.seat_numbers == [2, 4] and rnd.carry == {}
    staked: dict[int, int] = {2: 0, 4: 0}
    d = rnd.pending
    assert d == Decision(2, None, "bet", ("bet:2", "bet:4", "bet:6", "bet:8", "bet:10"))
    new = rnd.act(2, bet_action(8))
    d = rnd.pending
    assert d is not None and d.kind == "bet" and d.options == ("bet:2", "bet:4", "bet:6")  # seat 4 funds 7
    new += rnd.act(4, g.auto(rnd))  # Auto bets the minimum
    while (d := rnd.pending) is not None:
        new += rnd.act(d.seat, g.auto(rnd))
    for e in new:
        if e.stake:
            staked[e.seat] += e.stake
    assert [(e.seat, e.stake, e.stake_kind) for e in new if e.kind == "bet"] == [(2, 8, "bet"), (4, 2, "bet")]
    assert rnd.finished
    for s in rnd.settlement():
        assert s.staked == staked[s.seat]
    res = rnd.result("eenentwintig")
    assert [s["bet"] for s in res["seats"]] == [8, 2]
    assert g.restore(json.loads(json.dumps(rnd.to_dict()))).result("eenentwintig") == res


def test_what_each_seat_sees_closed_cards_until_every_bet_is_in_the_bank_until_its_turn():
    rnd = EenentwintigRound.start(RULES, "9S TS 8D 9H 7C 9C".split(), [1, 2])
    shown = rnd.shown()
    assert shown.dealer_cards == (FACE_DOWN, FACE_DOWN) and shown.dealer_text == ""
    assert [h.cards for h in shown.hands[1]] == [(FACE_DOWN, "9H")] and shown.hands[1][0].total_text == ""
    assert shown.hands[1][0].stake == 0 and rnd.seat(1).bet == 0
    rnd.act(1, "bet:4")
    shown = rnd.shown()
    assert [h.cards for h in shown.hands[2]] == [(FACE_DOWN, "7C")] and shown.hands[1][0].stake == 4
    rnd.act(2, "bet:2")
    shown = rnd.shown()  # every bet is in: the closed cards are turned
    assert shown.hands[1][0].cards == ("9S", "9H") and shown.hands[1][0].total_text == "18"
    assert shown.hands[1][0].active and not shown.hands[2][0].active
    assert shown.dealer_cards == (FACE_DOWN, FACE_DOWN)
    rnd.act(1, "stand")
    rnd.act(2, "stand")
    shown = rnd.shown()
    assert shown.dealer_cards == ("8D", "9C") and shown.dealer_text == "17"
    assert (shown.hands[1][0].result, shown.hands[1][0].returned) == ("win", 8)


@pytest.mark.parametrize(
    ("cards", "text"),
    [("AS AH", "20.5"), ("AS 7H", "soft 18"), ("7S 7H 7D", "three sevens"), ("TS 9H KD", "bust 23"), ("AS TH", "21")],
)
def test_totals_are_written_as_the_game_counts(cards, text):
    from machine.games.eenentwintig.result import hand_text

    assert hand_text(cards.split(), True, RULES) == text


def test_the_events_in_order_with_their_stakes():
    rnd = EenentwintigRound.start(RULES, "9S 9D 9H 8C QS TS KD 7H".split(), [1])
    for a in ("bet:6", "split", "hit", "hit", "stand"):
        rnd.act(1, a)
    kinds = [(e.kind, e.stake) for e in rnd.events]
    assert kinds == [
        ("closed_card", 0), ("dealer_card", 0), ("card", 0), ("dealer_card", 0), ("bet", 6), ("card_turned", 0),
        ("action", 6), ("card", 0), ("action", 0), ("card", 0), ("bust", 0), ("settle", 0),  # the left hand, lost at once
        ("card", 0), ("action", 0), ("card", 0), ("action", 0),  # the right hand's second card, buy, pass
        ("dealer_reveal", 0), ("dealer_reveal", 0), ("settle", 0), ("round_end", 0),
    ]
    assert [e.to_dict() for e in rnd.events][:2] == [
        {"kind": "closed_card", "seat": 1, "hand": 0, "card": "9S"}, {"kind": "dealer_card", "card": "9D", "face_down": True}
    ]


def test_a_wash_event_lists_the_thrown_cards_and_survives_plain_data():
    rnd = EenentwintigRound.start(RULES, "7S 9D 8H 8C 9S TS".split(), [1])
    rnd.act(1, "bet:2")
    new = rnd.act(1, "wash")
    assert [e.to_dict() for e in new][:2] == [
        {"kind": "action", "seat": 1, "hand": 0, "action": "wash"}, {"kind": "wash", "seat": 1, "hand": 0, "cards": ["7S", "8H"]}
    ]
    back = EenentwintigRound.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert back.events == rnd.events and back.pending == rnd.pending


def test_buttons_lamps_and_their_words():
    g = game()
    bet = Decision(1, None, "bet", ("bet:2", "bet:4"))
    assert [g.action_for(bet, b) for b in (Button.DRAW, Button.STAND, Button.START, Button.PLUS_2)] == [None] * 4
    assert g.action_for(bet, Button.AUTO) == "auto" and g.button_labels(bet) == {Button.AUTO: "Auto"}
    first = Decision(1, 0, "play", ("hit", "stand", "wash"))
    assert [g.action_for(first, b) for b in (Button.DRAW, Button.STAND, Button.DOUBLE, Button.SPLIT, Button.INSURANCE)] == [
        "hit", "stand", "wash", None, None
    ]
    assert g.button_labels(first) == {Button.DRAW: "Buy", Button.STAND: "Pass", Button.DOUBLE: "Wash", Button.AUTO: "Auto"}
    pair = Decision(1, 0, "play", ("hit", "stand", "split"))
    assert g.button_labels(pair)[Button.SPLIT] == "Split" and g.action_for(pair, Button.DOUBLE) is None


def test_attract_lines_follow_the_rules():
    lines = game().attract_lines()
    assert "Two aces count 20.5" in lines and "Three sevens beat every 21" in lines
    assert "Bet 2 to 10 after seeing your open card" in lines
    plain = EenentwintigGame(load_profile("eenentwintig", {"two_aces_twenty_and_a_half": False,
                                                           "three_sevens_beat_21": False}), auto_action)
    assert not any("20.5" in line or "sevens" in line for line in plain.attract_lines())


def test_a_split_is_offered_only_when_the_club_meter_pays_its_stake():
    rnd = EenentwintigRound.start(RULES, "9S 9D 9H 8C TS TH".split(), [1], funds=[6])
    rnd.act(1, "bet:4")
    assert rnd.pending is not None and rnd.pending.options == ("hit", "stand")
    assert rnd.why_not(1, "split") == "the club meter cannot pay the split's stake"
    rnd2 = EenentwintigRound.start(RULES, "9S 9D 9H 8C TS TH".split(), [1], funds=[8])
    rnd2.act(1, "bet:4")
    assert rnd2.pending is not None and "split" in rnd2.pending.options


def test_refusals_change_nothing_and_say_why():
    rnd = EenentwintigRound.start(RULES, "9S TS 8D 9H 7C 9C".split(), [1, 2], funds=[6, 40])
    before = rnd.to_dict()
    assert rnd.why_not(2, "bet:2") == "it is seat 1's turn"
    assert rnd.why_not(1, "hit") == "the seat is placing its bet (bet:N, N one of 2, 4, 6)"
    assert rnd.why_not(1, "bet:3") == "bet 3 is not a multiple of 2"
    assert rnd.why_not(1, "bet:12") == "bet 12 is above the maximum of 10"
    assert rnd.why_not(1, "bet:8") == "the club meter cannot pay a bet of 8"
    with pytest.raises(IllegalAction, match="seat 1: bet:8 is not allowed: the club meter cannot pay a bet of 8"):
        rnd.act(1, "bet:8")
    assert rnd.to_dict() == before
    rnd.act(1, "bet:2")
    rnd.act(2, "bet:2")
    assert rnd.why_not(1, "double") == "unknown action (one of hit, stand, split, wash)"
    with pytest.raises(IllegalAction, match="seat 1, hand 1: wash is not allowed"):
        rnd.act(1, "wash")
    with pytest.raises(RoundError, match="cannot fund the minimum bet of 2"):
        EenentwintigRound.start(RULES, "9S TS 8D 9H 7C 9C".split(), [1], funds=[1])
