"""The profile settings beyond Random Blackjack's defaults (section 9), with exact cards.

The casino-blackjack profile (seed 002) deals a hole card after the seats' second cards and
peeks under an ace or a ten; its table variants are settings of the same engine.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from machine.games.blackjack.round import Round

from .helpers import play, seat


def hands(result, n=1):
    return result["seats"][n - 1]["hands"]


# -- hole card and peek (seed 002) -----------------------------------------------------------------


def test_hole_card_is_dealt_face_down_after_the_seats_second_cards(casino_rules):
    rnd = Round.start(casino_rules, "9S 8S 6H 9D 8D 7C".split(), [10, 10])
    deal = [(e.kind, e.seat, e.card, e.face_down) for e in rnd.events if e.kind in ("card", "dealer_card")]
    assert deal == [
        ("card", 1, "9S", False),
        ("card", 2, "8S", False),
        ("dealer_card", None, "6H", False),
        ("card", 1, "9D", False),
        ("card", 2, "8D", False),
        ("dealer_card", None, "7C", True),
    ]


def test_peek_under_a_ten_ends_the_round_on_a_dealer_blackjack_taking_only_the_bets():
    r = play("9S AS TH 9D KS AD", seat(10), seat(10), game="casino-blackjack")
    s1, s2 = r["seats"]
    assert r["dealer"]["cards"] == ["TH", "AD"] and r["dealer"]["blackjack"]
    assert (s1["hands"][0]["result"], s1["staked"], s1["returned"]) == ("lose", 10, 0)
    assert (s2["hands"][0]["result"], s2["returned"]) == ("push", 10)  # blackjack against blackjack
    assert r["cards_used"] == 6


def test_peek_under_an_ace_comes_after_insurance_and_insurance_pays():
    r = play("9S AH 9D KD", seat(10, insurance=True), game="casino-blackjack")
    s = r["seats"][0]
    assert (s["insurance"], s["insurance_returned"], s["net"]) == (5, 15, 0)


def test_no_blackjack_under_the_peek_and_the_round_plays_on():
    r = play("9S TH 9D 7C", seat(10, "stand"), game="casino-blackjack")
    assert r["dealer"]["cards"] == ["TH", "7C"] and hands(r)[0]["result"] == "win"


def test_no_peek_under_a_six_the_dealer_just_turns_the_hole_card(casino_rules):
    rnd = Round.start(casino_rules, "9S 6H 9D 5C 8C".split(), [10])
    assert not rnd.peeked
    rnd.act(1, "stand")
    assert rnd.dealer == ["6H", "5C", "8C"]


def test_casino_blackjack_doubles_any_two_cards_and_aces_stay_soft():
    r = play("AS 6H 6C TD 5D 2D", seat(10, "double"), game="casino-blackjack")
    h = hands(r)[0]
    assert h["cards"] == ["AS", "6C", "5D"] and (h["total"], h["soft"]) == (12, False)
    r = play("AS 6H 2C TD 5D 2D", seat(10, "double"), game="casino-blackjack")
    assert (hands(r)[0]["total"], hands(r)[0]["soft"]) == (18, True)


def test_casino_blackjack_splits_once():
    with pytest.raises(Exception, match="a seat may hold at most 2 hands"):
        play("8S 6H 8D 9C 8C 9D", seat(10, "split", "split"), game="casino-blackjack")


# -- blackjack pays ----------------------------------------------------------------------------


def test_blackjack_pays_6_to_5():
    r = play("AS 9H KS 8D", seat(10), blackjack_pays=1.2)
    assert r["seats"][0]["returned"] == 22


def test_blackjack_pays_written_as_odds():
    r = play("AS 9H KS 8D", seat(10), blackjack_pays="6:5")
    assert r["seats"][0]["returned"] == 22


# -- surrender ----------------------------------------------------------------------------------


def test_late_surrender_returns_half_the_bet_after_the_peek():
    r = play("TS 9H 6S 8D", seat(10, "surrender"), game="casino-blackjack", surrender="late")
    h = hands(r)[0]
    assert (h["result"], h["returned"]) == ("surrender", 5)


def test_late_surrender_without_hole_card_loses_the_whole_bet_to_a_dealer_blackjack():
    # other-games.md, Details: the surrendered hand waits for the dealer's second card, and a
    # dealer blackjack makes it a lost hand (result lose, nothing back)
    r = play("TS AH 6S KD", seat(10, "surrender"), surrender="late")
    assert r["dealer"]["cards"] == ["AH", "KD"]
    assert (hands(r)[0]["result"], hands(r)[0]["returned"]) == ("lose", 0)


def test_early_surrender_without_hole_card_keeps_half_against_a_dealer_blackjack():
    r = play("TS AH 6S KD", seat(10, "surrender"), surrender="early")
    assert hands(r)[0]["returned"] == 5


def test_early_surrender_with_hole_card_is_decided_before_the_peek(casino_rules):
    rnd = Round.start(replace(casino_rules, surrender="early"), "TS AH 6S KD".split(), [10])
    rnd.act(1, "no_insurance")
    assert rnd.pending.kind == "surrender" and rnd.pending.options == ("surrender", "continue")
    rnd.act(1, "surrender")
    assert rnd.finished and rnd.peeked
    assert rnd.seat(1).hands[0].returned == 5


def test_surrender_only_as_the_first_decision(rb_rules):
    rnd = Round.start(replace(rb_rules, surrender="late"), "2S 6H 3C 4D 8D TD".split(), [10])
    assert "surrender" in rnd.pending.options
    rnd.act(1, "hit")
    assert rnd.why_not(1, "surrender") == "only as the first decision on the first two cards"


def test_no_surrender_in_random_blackjack(rb_rules):
    rnd = Round.start(rb_rules, "TS 9H 6S".split(), [10])
    assert rnd.why_not(1, "surrender") == "surrender is not offered in this game"


# -- five-card charlie ---------------------------------------------------------------------------


def test_five_card_charlie_wins_at_once_even_against_a_dealer_blackjack():
    r = play("2S 9C TH 2D 9D 2C 3H 4S AS", seat(10, "hit", "hit", "hit"), seat(10, "stand"), five_card_charlie=True)
    h = hands(r)[0]
    assert h["cards"] == ["2S", "2D", "2C", "3H", "4S"]
    assert r["dealer"]["blackjack"]
    assert (h["result"], h["returned"]) == ("win", 20)
    assert hands(r, 2)[0]["result"] == "lose"


def test_a_charlie_needs_no_dealer_so_alone_it_draws_nothing():
    r = play("2S TH 2D 2C 3H 4S", seat(10, "hit", "hit", "hit"), five_card_charlie=True)
    assert r["dealer"]["cards"] == ["TH"] and hands(r)[0]["returned"] == 20


def test_without_charlie_five_cards_play_on(rb_rules):
    rnd = Round.start(rb_rules, "2S TH 2D 2C 3H 4S".split(), [10])
    for _ in range(3):
        rnd.act(1, "hit")
    assert rnd.pending.options == ("hit", "stand")


# -- double rules ---------------------------------------------------------------------------------


def test_double_totals_are_settings(rb_rules):
    rules = replace(rb_rules, double_hard=frozenset({10, 11}), double_soft=frozenset())
    rnd = Round.start(rules, "5S 6H 4C".split(), [10])
    assert rnd.why_not(1, "double") == "hard 9 may not be doubled (doubles on hard 10, 11)"
