"""Random Blackjack's rules (shared/spec/random-blackjack.md), each pinned with exact cards.

Shoes are written first card drawn first. Without a hole card the order is: each seat's first
card, the up card, each seat's second card, the cards drawn in play, the dealer's cards.
"""

from __future__ import annotations

import pytest

from machine.games.blackjack.round import Round
from machine.games.roundbase import IllegalAction
from machine.scripts.roundscript import ScriptError

from .helpers import play, seat


def hands(result, n=1):
    return result["seats"][n - 1]["hands"]


# -- 1. cards and scoring ---------------------------------------------------------------------


def test_one_ace_counts_11_while_it_keeps_21_or_less_and_such_a_hand_is_soft(rb_rules):
    rnd = Round.start(rb_rules, "AS 6H 6C 8D TS 5C".split(), [10])
    assert (rnd.seat(1).hands[0].total, rnd.seat(1).hands[0].soft) == (17, True)
    rnd.act(1, "hit")
    rnd.act(1, "stand")
    h = hands(rnd.result("random-blackjack"))[0]
    assert h["cards"] == ["AS", "6C", "8D"]
    assert (h["total"], h["soft"]) == (15, False)


def test_a_bust_hand_loses_whatever_the_dealer_does():
    # seat 1: T+5 hits 9 -> 24 bust; seat 2: T+7 stands; dealer 6 + T + 9 busts.
    r = play("TS TD 6H 5S 7C 9C TH 9H", seat(10, "hit"), seat(10, "stand"))
    s1, s2 = r["seats"]
    assert s1["hands"][0]["bust"] and s1["hands"][0]["result"] == "lose" and s1["returned"] == 0
    assert r["dealer"] == {"cards": ["6H", "TH", "9H"], "total": 25, "blackjack": False, "bust": True}
    assert s2["hands"][0]["result"] == "win" and s2["returned"] == 20


# -- 2. the round in order --------------------------------------------------------------------


def test_deal_order_first_cards_in_seat_order_then_up_card_then_second_cards_no_hole_card():
    r = play("2S 3S 4S 5H 6S 7S 8S 9D TD", seat(10, "stand"), seat(10, "stand"), seat(10, "stand"))
    assert [s["hands"][0]["cards"] for s in r["seats"]] == [["2S", "6S"], ["3S", "7S"], ["4S", "8S"]]
    # The dealer's second card is drawn only after every seat has played.
    assert r["dealer"]["cards"] == ["5H", "9D", "TD"]
    assert r["cards_used"] == 9


def test_the_dealer_stands_on_soft_17():
    r = play("TS 6H 8S AC", seat(10, "stand"))
    assert r["dealer"]["cards"] == ["6H", "AC"] and r["dealer"]["total"] == 17
    assert hands(r)[0]["result"] == "win"


def test_the_dealer_hits_soft_17_when_the_profile_says_so():
    r = play("TS 6H 8S AC 5D 4C TC", seat(10, "stand"), dealer_hits_soft_17=True)
    # soft 17 draws: +5 is hard 12 (the ace falls to 1), +4 is 16, +T busts
    assert r["dealer"]["cards"] == ["6H", "AC", "5D", "4C", "TC"] and r["dealer"]["bust"]


def test_the_dealer_draws_under_17_and_stands_on_hard_17():
    r = play("TS 6H 7S 5D 6C 9C", seat(10, "stand"))
    assert r["dealer"]["cards"] == ["6H", "5D", "6C"] and r["dealer"]["total"] == 17
    assert hands(r)[0]["result"] == "push" and hands(r)[0]["returned"] == 10


def test_the_dealer_draws_nothing_when_every_hand_is_bust_and_nobody_insured():
    r = play("TS 6H 5S 9C TD", seat(10, "hit"))
    assert r["dealer"]["cards"] == ["6H"]
    assert r["cards_used"] == 4
    assert r["seats"][0]["net"] == -10


def test_the_dealer_plays_when_every_hand_is_bust_but_a_seat_insured():
    r = play("TS AH 5S 9C 5D 2C", seat(10, "hit", insurance=True))
    assert r["dealer"]["cards"] == ["AH", "5D", "2C"] and r["dealer"]["total"] == 18
    s = r["seats"][0]
    assert (s["insurance"], s["insurance_returned"], s["staked"], s["returned"]) == (5, 0, 15, 0)


# -- 2.3 insurance ------------------------------------------------------------------------------


def test_insurance_is_half_the_bet_and_returns_three_times_its_stake_on_a_dealer_blackjack():
    r = play("9S AH 9D KD", seat(10, "stand", insurance=True))
    s = r["seats"][0]
    assert (s["insurance"], s["insurance_returned"]) == (5, 15)
    assert s["hands"][0]["result"] == "lose"
    assert (s["staked"], s["returned"], s["net"]) == (15, 15, 0)


def test_insurance_is_lost_when_the_dealer_has_no_blackjack():
    r = play("9S AH 9D 7D", seat(10, "stand", insurance=True))
    s = r["seats"][0]
    assert (s["insurance"], s["insurance_returned"]) == (5, 0)
    assert s["hands"][0]["result"] == "push"  # 18 against A+7, soft 18


def test_insurance_is_not_offered_to_a_seat_with_blackjack():
    r = play("AS AH KS 7D", seat(10, insurance=True))
    s = r["seats"][0]
    assert s["insurance"] == 0
    assert s["hands"][0]["result"] == "blackjack" and s["returned"] == 25


def test_insurance_is_asked_of_every_seat_before_anyone_plays(rb_rules):
    rnd = Round.start(rb_rules, "9S 8S AH 9D 8D 7C TH".split(), [10, 10])
    assert rnd.pending.kind == "insurance" and rnd.pending.seat == 1
    rnd.act(1, "no_insurance")
    assert rnd.pending.kind == "insurance" and rnd.pending.seat == 2
    with pytest.raises(IllegalAction, match="insurance is being decided"):
        rnd.act(2, "stand")
    rnd.act(2, "insure")
    assert rnd.pending.kind == "play" and rnd.pending.seat == 1


# -- 3. draw and stand --------------------------------------------------------------------------


def test_a_hand_that_reaches_21_stands_by_itself():
    r = play("5S 6H 6C TD TH 7C", seat(10, "hit"))  # 11 + T = 21: no further decision
    assert hands(r)[0]["cards"] == ["5S", "6C", "TD"] and hands(r)[0]["total"] == 21


def test_draw_is_refused_at_21(rb_rules):
    rnd = Round.start(rb_rules, "TS 6H JS AC".split(), [10])
    rnd.act(1, "split")  # left: T + A = 21, asked only because it may double
    assert rnd.why_not(1, "hit") == "the hand totals 21"


# -- 3. double ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards, allowed",
    [
        ("5S 4C", True),  # hard 9
        ("6S 4C", True),  # hard 10
        ("7S 4C", True),  # hard 11
        ("8S 4C", False),  # hard 12
        ("4S 4C", False),  # hard 8
        ("AS 8C", True),  # soft 19
        ("AS 9C", True),  # soft 20
        ("AS 7C", False),  # soft 18
        ("AS 2C", False),  # soft 13
    ],
)
def test_double_only_on_two_cards_of_hard_9_10_11_or_soft_19_20_21(rb_rules, cards, allowed):
    c1, c2 = cards.split()
    rnd = Round.start(rb_rules, [c1, "6H", c2, "2D", "TD", "TC"], [10])
    assert ("double" in rnd.pending.options) is allowed
    if not allowed:
        assert "may not be doubled (doubles on hard 9, 10, 11 or soft 19, 20, 21)" in (rnd.why_not(1, "double") or "")


def test_double_is_refused_on_three_cards(rb_rules):
    rnd = Round.start(rb_rules, "3S 6H 4C 2D TD TC".split(), [10])
    rnd.act(1, "hit")  # 3+4+2 = 9, but three cards
    assert rnd.why_not(1, "double") == "only on a hand of exactly two cards"


def test_after_a_double_every_ace_counts_1_soft_19_doubled_plus_2_is_11():
    r = play("AS 6H 8S 2C TD 2D", seat(10, "double"))
    h = hands(r)[0]
    assert h["cards"] == ["AS", "8S", "2C"] and (h["total"], h["soft"]) == (11, False)
    assert h["doubled"] and h["stake"] == 20
    assert r["dealer"]["cards"] == ["6H", "TD", "2D"]  # 18 beats 11
    assert (h["result"], h["returned"]) == ("lose", 0)


def test_after_a_double_the_drawn_ace_counts_1_hard_10_doubled_plus_ace_is_11():
    r = play("6S 9H 4S AC 8D", seat(10, "double"))
    h = hands(r)[0]
    assert h["cards"] == ["6S", "4S", "AC"] and h["total"] == 11
    assert r["dealer"]["total"] == 17 and h["result"] == "lose"


def test_without_the_aces_hard_rule_hard_10_doubled_plus_ace_is_21():
    r = play("6S 9H 4S AC 8D", seat(10, "double"), double_makes_aces_hard=False)
    h = hands(r)[0]
    assert h["total"] == 21 and (h["result"], h["returned"]) == ("win", 40)


def test_a_doubled_hand_takes_exactly_one_card_and_stands(rb_rules):
    rnd = Round.start(rb_rules, "5S 6H 4S 2C TD 2D".split(), [10])
    rnd.act(1, "double")
    assert rnd.finished
    assert rnd.seat(1).hands[0].cards == ["5S", "4S", "2C"]


# -- 3. split -------------------------------------------------------------------------------------


def test_ten_and_jack_may_be_split_and_a_split_ten_plus_ace_is_21_not_blackjack(rb_rules):
    rnd = Round.start(rb_rules, "TS 6H JS AC 9D TD 7C".split(), [10])
    rnd.act(1, "split")
    # The left hand got its second card (AC) first: soft 21 from a split may still double.
    assert rnd.pending.options == ("stand", "double")
    rnd.act(1, "stand")
    rnd.act(1, "stand")  # right hand J + 9 = 19
    r = rnd.result("random-blackjack")
    left, right = r["seats"][0]["hands"]
    assert left["cards"] == ["TS", "AC"] and left["total"] == 21
    assert not left["blackjack"] and left["from_split"]
    assert r["dealer"]["cards"] == ["6H", "TD", "7C"]  # 23: bust
    assert (left["result"], left["returned"]) == ("win", 20)  # 1 to 1, not 3 to 2
    assert right["cards"] == ["JS", "9D"] and right["returned"] == 20


def test_a_split_21_loses_to_a_dealer_blackjack():
    r = play("TS AH TC AC 9D KD", seat(10, "split", "stand", "stand"))
    left, right = hands(r)
    assert left["cards"] == ["TS", "AC"] and left["result"] == "lose" and left["returned"] == 0
    assert r["dealer"]["blackjack"]


def test_cards_of_unequal_value_may_not_be_split(rb_rules):
    rnd = Round.start(rb_rules, "9S 6H TS".split(), [10])
    assert rnd.why_not(1, "split") == "the two cards are not of equal value"


def test_the_left_hand_is_played_out_before_the_right_hand_gets_its_second_card():
    r = play("8S 6H 8D 3C 9D 2C TH TD", seat(10, "split", "hit", "stand", "stand"))
    left, right = hands(r)
    assert left["cards"] == ["8S", "3C", "9D"]  # 11, hit 9 = 20
    assert right["cards"] == ["8D", "2C"]
    assert r["dealer"]["cards"] == ["6H", "TH", "TD"]


def test_split_aces_take_one_card_each_and_an_ace_may_be_split_again():
    r = play(
        "AS 5H AD TC AH 9D 2S KD 3C",
        seat(10, "split", "split"),
    )
    hs = hands(r)
    assert [h["cards"] for h in hs] == [["AS", "TC"], ["AD", "9D"], ["AH", "2S"]]
    assert all(h["from_split"] and not h["blackjack"] for h in hs)
    assert r["dealer"]["cards"] == ["5H", "KD", "3C"]  # 18
    assert [h["result"] for h in hs] == ["win", "win", "lose"]
    assert r["seats"][0]["staked"] == 30 and r["seats"][0]["returned"] == 40


def test_split_aces_may_not_draw_or_double(rb_rules):
    rnd = Round.start(rb_rules, "AS 5H AD AC 4D".split(), [10])
    rnd.act(1, "split")  # left: AS + AC, an ace again
    assert rnd.pending.options == ("stand", "split")
    assert rnd.why_not(1, "hit") == "split aces take one card only"
    assert rnd.why_not(1, "double") == "split aces take one card only"


def test_split_aces_may_not_be_split_again_when_resplit_aces_is_off():
    r = play("AS 5H AD AC 4D KD 3C", seat(10, "split"), resplit_aces=False)
    assert [h["cards"] for h in hands(r)] == [["AS", "AC"], ["AD", "4D"]]


def test_a_split_hand_may_be_doubled(rb_rules):
    rnd = Round.start(rb_rules, "5S 6H 5D 4C TC 9D TD".split(), [10])
    rnd.act(1, "split")  # left 5 + 4 = 9
    assert "double" in rnd.pending.options
    rnd.act(1, "double")  # + T = 19
    assert rnd.seat(1).hands[0].stake == 20


def test_no_double_after_split_when_the_profile_forbids_it(rb_rules):
    from dataclasses import replace

    rnd = Round.start(replace(rb_rules, double_after_split=False), "5S 6H 5D 4C TC".split(), [10])
    rnd.act(1, "split")
    assert rnd.why_not(1, "double") == "doubling after a split is not allowed"


# -- 3. the limit of three splits and doubles ------------------------------------------------------


def test_no_fourth_split_or_double(rb_rules):
    rnd = Round.start(rb_rules, "8S 6H 8D 8C 8H 3S TD TC TH".split(), [10])
    rnd.act(1, "split")  # 1: [8S] gets 8C
    rnd.act(1, "split")  # 2: [8S] gets 8H
    rnd.act(1, "split")  # 3: [8S] gets 3S -> 11
    assert len(rnd.seat(1).hands) == 4
    assert rnd.why_not(1, "double") == "the seat has used its 3 doubles and splits"
    assert rnd.pending.options == ("hit", "stand")
    assert rnd.seat(1).staked == 40  # never more than 4 times the bet


def test_split_then_double_twice_reaches_the_limit_of_three(rb_rules):
    rnd = Round.start(rb_rules, "8S 6H 8D 3C 7S 8C TD".split(), [10])
    rnd.act(1, "split")  # left 8 + 3 = 11
    rnd.act(1, "double")  # + 7 = 18
    # right 8 + 8: a pair, but one split and one double are used; a third is still allowed
    assert "split" in rnd.pending.options


def test_a_seat_holds_at_most_max_hands(rb_rules):
    from dataclasses import replace

    rnd = Round.start(replace(rb_rules, max_splits_and_doubles=None), "8S 6H 8D 8C 8H 8S".split(), [10])
    for _ in range(3):
        rnd.act(1, "split")
    assert rnd.why_not(1, "split") == "a seat may hold at most 4 hands"


# -- 4. settlement ----------------------------------------------------------------------------------


def test_blackjack_pays_3_to_2():
    r = play("AS 9H KS 8D", seat(10))
    assert hands(r)[0]["result"] == "blackjack" and r["seats"][0]["returned"] == 25


def test_blackjack_against_dealer_blackjack_pushes():
    r = play("AS AH KS KD", seat(10))
    assert (hands(r)[0]["result"], hands(r)[0]["returned"]) == ("push", 10)


def test_blackjack_beats_a_dealer_21_of_three_cards():
    r = play("AS 9H KS 5D 7C", seat(10))
    assert r["dealer"]["total"] == 21 and hands(r)[0]["result"] == "blackjack"


def test_a_dealer_blackjack_takes_doubled_and_split_stakes_whole():
    r = play("8S AH 8D 3C 7S 2C TD KH", seat(10, "split", "double", "double"))
    left, right = hands(r)
    assert left["cards"] == ["8S", "3C", "7S"] and left["stake"] == 20
    assert right["cards"] == ["8D", "2C", "TD"] and right["stake"] == 20
    assert r["dealer"]["cards"] == ["AH", "KH"] and r["dealer"]["blackjack"]
    s = r["seats"][0]
    assert (s["staked"], s["returned"], s["net"]) == (40, 0, -40)


def test_higher_than_the_dealer_wins_equal_pushes_lower_loses():
    win = play("TS 9H 9S 9D", seat(10, "stand"))  # 19 v 18
    push = play("TS 9H 8S 9D", seat(10, "stand"))  # 18 v 18
    lose = play("TS 9H 7S 9D", seat(10, "stand"))  # 17 v 18
    assert [(hands(x)[0]["result"], hands(x)[0]["returned"]) for x in (win, push, lose)] == [
        ("win", 20),
        ("push", 10),
        ("lose", 0),
    ]


def test_any_hand_not_bust_wins_when_the_dealer_busts():
    r = play("TS 6H 2S TD 8C", seat(10, "stand"))  # 12 v 6+T+8 = 24
    assert r["dealer"]["bust"] and hands(r)[0]["result"] == "win"


# -- 4. three sevens ----------------------------------------------------------------------------------


def test_three_sevens_pay_a_bonus_of_the_bet_even_against_a_dealer_blackjack():
    r = play("7S AH 7D 7C KH", seat(10, "hit"))
    s = r["seats"][0]
    assert s["hands"][0]["cards"] == ["7S", "7D", "7C"] and s["hands"][0]["result"] == "lose"
    assert r["dealer"]["blackjack"]
    assert (s["bonus"], s["returned"], s["net"]) == (10, 10, 0)


def test_three_sevens_bonus_comes_on_top_of_the_win():
    r = play("7S 6H 7D 7C TD 8D", seat(10, "hit"))
    s = r["seats"][0]
    assert (s["hands"][0]["returned"], s["bonus"], s["returned"]) == (20, 10, 30)


def test_no_three_sevens_bonus_after_a_split():
    r = play("7S 5H 7D 7C 7H 9S TD 4C", seat(10, "split", "hit", "stand"))
    left, right = hands(r)
    assert left["cards"] == ["7S", "7C", "7H"] and left["from_split"]
    assert r["seats"][0]["bonus"] == 0


def test_the_three_sevens_bonus_is_a_profile_setting():
    r = play("7S 6H 7D 7C TD 8D", seat(10, "hit"), three_sevens_bonus=0)
    assert r["seats"][0]["bonus"] == 0


# -- refusing what is not allowed -------------------------------------------------------------------


def test_a_refused_action_changes_nothing(rb_rules):
    rnd = Round.start(rb_rules, "9S 6H 8S 2D TD TC".split(), [10])
    before = rnd.to_dict()
    for action in ("double", "split", "surrender", "insure", "dance"):
        with pytest.raises(IllegalAction):
            rnd.act(1, action)
    with pytest.raises(IllegalAction, match="it is seat 1's turn"):
        rnd.act(2, "stand")
    assert rnd.to_dict() == before


def test_a_refused_action_names_seat_hand_action_and_why():
    with pytest.raises(ScriptError) as err:
        play("9S 6H 8S 2D TD TC", seat(10, "double"))
    assert str(err.value) == (
        "seat 1, hand 1: double is not allowed: hard 17 may not be doubled "
        "(doubles on hard 9, 10, 11 or soft 19, 20, 21)"
    )


# -- funding (spec 6, "Decision, funding") and the event stream ------------------------------------


def test_insurance_double_and_split_are_offered_only_when_the_seat_can_fund_them(rb_rules):
    rnd = Round.start(rb_rules, "8S AH 8D 7C".split(), [10], funds=[4])
    # half the bet is 5 > 4: no insurance question; 10 > 4: no split
    assert rnd.pending.kind == "play" and rnd.pending.options == ("hit", "stand")
    assert rnd.why_not(1, "split") == "the club meter cannot pay the split's stake"
    rnd = Round.start(rb_rules, "8S AH 8D 7C".split(), [10], funds=[15])
    rnd.act(1, "insure")  # 15 - 5 leaves 10: the split is still funded
    assert rnd.pending.options == ("hit", "stand", "split")
    rnd.act(1, "split")
    assert rnd.seat(1).funds == 0


def test_the_round_emits_its_events_in_order(rb_rules):
    rnd = Round.start(rb_rules, "TS 6H 6C 3D TD 9C".split(), [10], seat_numbers=[3])
    rnd.act(3, "hit")
    rnd.act(3, "stand")
    assert [e.to_dict() for e in rnd.events] == [
        {"kind": "card", "seat": 3, "hand": 0, "card": "TS"},
        {"kind": "dealer_card", "card": "6H"},
        {"kind": "card", "seat": 3, "hand": 0, "card": "6C"},
        {"kind": "action", "seat": 3, "hand": 0, "action": "hit"},
        {"kind": "card", "seat": 3, "hand": 0, "card": "3D"},
        {"kind": "action", "seat": 3, "hand": 0, "action": "stand"},
        {"kind": "dealer_card", "card": "TD"},
        {"kind": "dealer_card", "card": "9C"},
        {"kind": "settle", "seat": 3, "hand": 0, "amount": 20, "result": "win"},
        {"kind": "round_end"},
    ]
