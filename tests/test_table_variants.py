"""The casino-blackjack table variants of seed 002 (other-games.md, "casino-blackjack" and its
Details), each rule with exact cards through ``run_round_script`` (``cabinet round``).

Profiles: casino-blackjack (one deck: a card appears at most once in a shoe), european-blackjack
(no hole card, a dealer blackjack takes the original bet only), swedish-pub-blackjack (the
dealer wins ties on 17, 18 and 19) and spanish-21 (no tens, the player's 21 wins).
"""

from __future__ import annotations

import pytest

from machine.games.blackjack.rules import Rules
from machine.games.rules import RulesError
from machine.profiles import load_profile
from machine.scripts.roundscript import ScriptError

from .helpers import play, seat


def hand(result, s=1, h=1):
    return result["seats"][s - 1]["hands"][h - 1]


def outcome(h) -> tuple[str, int]:
    return h["result"], h["returned"]


# -- the profiles ------------------------------------------------------------------------------


def test_each_variant_profile_is_casino_blackjack_with_only_its_named_settings():
    casino = load_profile("casino-blackjack").rules
    assert (casino.decks, casino.hole_card, casino.max_hands) == (1, True, 2)  # one deck, as the seed says
    changed = {
        "european-blackjack": {"hole_card": False, "no_hole_card_loses": "original"},
        "swedish-pub-blackjack": {"dealer_wins_ties": [17, 18, 19]},
        "spanish-21": {"spanish_deck": True, "player_21_wins": True},
    }
    for game, settings in changed.items():
        p = load_profile(game)
        assert p.engine == "blackjack" and p.title != game
        diff = {k: v for k, v in p.rules.to_dict().items() if casino.to_dict()[k] != v}
        assert diff == settings, game


def test_the_new_settings_are_checked_and_round_trip_through_plain_data():
    r = Rules(no_hole_card_loses="original", dealer_wins_ties=frozenset({17, 18, 19}), spanish_deck=True,
              player_21_wins=True)
    assert Rules.from_dict(r.to_dict()) == r
    assert r.to_dict()["dealer_wins_ties"] == [17, 18, 19]
    with pytest.raises(RulesError) as err:
        Rules.from_dict({"no_hole_card_loses": "some", "dealer_wins_ties": [16], "spanish_deck": "yes",
                         "player_21_wins": 1})
    assert err.value.problems == [
        "no_hole_card_loses: must be one of all, original, not 'some'",
        "dealer_wins_ties: totals must be 17 to 21, not [16]",
        "spanish_deck: must be true or false, not 'yes'",
        "player_21_wins: must be true or false, not 1",
    ]


# -- casino-blackjack: the Details ---------------------------------------------------------------


def test_casino_blackjack_deals_one_deck_so_a_card_appears_once():
    with pytest.raises(ScriptError, match="card 9S appears 2 times, but a shoe of 1 deck holds only 1"):
        play("9S 6H 9S 7D", seat(10, "stand"), game="casino-blackjack")


def test_with_a_hole_card_the_dealer_only_turns_it_when_every_hand_is_bust():
    # seat TS 6S against 6H (hole 7D) draws 9C: bust; no hand waits, the dealer takes nothing
    r = play("TS 6H 6S 7D 9C 5C", seat(10, "hit"), game="casino-blackjack")
    assert r["dealer"]["cards"] == ["6H", "7D"] and r["cards_used"] == 5
    assert outcome(hand(r)) == ("lose", 0)


def test_with_a_hole_card_a_blackjack_and_a_bust_leave_the_dealer_on_its_two_cards():
    # seat 1 AS KS (blackjack), seat 2 TD 6C draws 8D: bust; the dealer 5H 9H (14) draws nothing
    r = play("AS TD 5H KS 6C 9H 8D 2C", seat(10), seat(10, "hit"), game="casino-blackjack")
    assert r["dealer"]["cards"] == ["5H", "9H"] and r["cards_used"] == 7
    assert outcome(hand(r, 1)) == ("blackjack", 25) and outcome(hand(r, 2)) == ("lose", 0)


def test_with_a_hole_card_insurance_is_settled_by_the_peek_and_makes_the_dealer_draw_nothing():
    # seat TS 6S insures against AH; the peek finds 5D; the seat busts on 9C: the dealer stays on soft 16
    r = play("TS AH 6S 5D 9C 2C", seat(10, "hit", insurance=True), game="casino-blackjack")
    assert r["dealer"]["cards"] == ["AH", "5D"]
    s = r["seats"][0]
    assert (s["insurance"], s["insurance_returned"], s["net"]) == (5, 0, -15)


def test_with_a_hole_card_a_standing_hand_makes_the_dealer_draw_to_17():
    r = play("TS 6H 6S 7D 5C", seat(10, "stand"), game="casino-blackjack")
    assert r["dealer"]["cards"] == ["6H", "7D", "5C"] and outcome(hand(r)) == ("lose", 0)  # 16 against 18


def test_a_five_card_charlie_does_not_make_the_dealer_draw():
    r = play("2S 6H 3S 7D 2D 3D 4C 9C", seat(10, "hit", "hit", "hit"), game="casino-blackjack", five_card_charlie=True)
    assert hand(r)["cards"] == ["2S", "3S", "2D", "3D", "4C"] and outcome(hand(r)) == ("win", 20)
    assert r["dealer"]["cards"] == ["6H", "7D"]


def test_a_two_card_21_after_a_split_stands_by_itself():
    # TS TD split against 6H (hole 7C): the left hand draws AS, 21, and is not asked to double;
    # the seat's next action is the right hand's (TD 9D: stand); the dealer 6H 7C 5S makes 18
    r = play("TS 6H TD 7C AS 9D 5S", seat(10, "split", "stand"), game="casino-blackjack")
    left, right = r["seats"][0]["hands"]
    assert left["cards"] == ["TS", "AS"] and left["total"] == 21 and not left["doubled"] and not left["blackjack"]
    assert outcome(left) == ("win", 20) and outcome(right) == ("win", 20)
    assert r["dealer"]["cards"] == ["6H", "7C", "5S"]


def test_a_split_21_is_asked_to_double_only_where_21_is_listed():
    with pytest.raises(ScriptError, match="seat 1: 1 action left over when the round ended: stand"):
        play("TS 6H TD 7C AS 9D 5S", seat(10, "split", "stand", "stand"), game="casino-blackjack")
    r = play("TS 6H TD 7C AS 9D 5S", seat(10, "split", "stand", "stand"), game="casino-blackjack", double_soft=[21])
    assert outcome(hand(r, 1, 1)) == ("win", 20)  # asked, and it stood


# -- surrender (Details) ------------------------------------------------------------------------


def test_late_surrender_after_the_peek_returns_half_and_the_dealer_only_turns_its_hole_card():
    r = play("TS 9C 6H 7D TD", seat(10, "surrender"), game="casino-blackjack", surrender="late")
    assert outcome(hand(r)) == ("surrender", 5) and r["dealer"]["cards"] == ["9C", "7D"]


def test_late_surrender_without_a_hole_card_waits_for_the_dealers_second_card():
    # the surrendered hand alone makes the dealer play (as an insurance does in Random Blackjack)
    r = play("TS 9C 6H 7D TD", seat(10, "surrender"), game="european-blackjack", surrender="late")
    assert outcome(hand(r)) == ("surrender", 5) and r["dealer"]["cards"] == ["9C", "7D", "TD"]
    r = play("TS AC 6H KD", seat(10, "surrender"), game="european-blackjack", surrender="late")
    assert outcome(hand(r)) == ("lose", 0) and r["dealer"]["blackjack"]


def test_late_surrender_only_as_the_first_decision_of_an_unsplit_two_card_hand():
    with pytest.raises(ScriptError, match="seat 1, hand 1: surrender is not allowed: only as the first decision"):
        play("8S 9C 8D 7D 2C 3C", seat(10, "split", "surrender"), game="casino-blackjack", surrender="late")
    with pytest.raises(ScriptError, match="seat 1, hand 1: surrender is not allowed: only as the first decision"):
        play("5S 9C 6D 7D 2C", seat(10, "hit", "surrender"), game="casino-blackjack", surrender="late")


def test_early_surrender_is_asked_before_the_peek_and_keeps_half_against_a_dealer_blackjack():
    r = play("TS AC 6H KD", seat(10, "surrender"), game="casino-blackjack", surrender="early")
    assert outcome(hand(r)) == ("surrender", 5) and r["dealer"]["blackjack"]
    # without a hole card early surrender is the first play decision; nothing waits for the dealer
    r = play("TS AC 6H KD", seat(10, "surrender"), game="european-blackjack", surrender="early")
    assert outcome(hand(r)) == ("surrender", 5) and r["dealer"]["cards"] == ["AC"] and r["cards_used"] == 3


# -- no_hole_card_loses (european-blackjack) ------------------------------------------------------


def test_original_bets_only_the_first_hand_loses_its_bet_and_gets_its_double_back_the_others_push():
    # 8S 8D against AH: split; the left hand 8S 3C doubles and draws 9D (20); the right 8D TC
    # stands on 18; the dealer's second card KH makes blackjack
    shoe = "8S AH 8D 3C 9D TC KH"
    r = play(shoe, seat(10, "split", "double", "stand"), game="european-blackjack")
    first, second = r["seats"][0]["hands"]
    assert (first["stake"], *outcome(first)) == (20, "lose", 10)
    assert (second["stake"], *outcome(second)) == (10, "push", 10)
    assert (r["seats"][0]["staked"], r["seats"][0]["returned"], r["seats"][0]["net"]) == (30, 20, -10)
    r = play(shoe, seat(10, "split", "double", "stand"), game="european-blackjack", no_hole_card_loses="all")
    assert [outcome(h) for h in r["seats"][0]["hands"]] == [("lose", 0), ("lose", 0)]


def test_original_bets_only_a_bust_has_already_lost():
    # the left hand 8S 5C draws TD: bust; the right hand 8D 9C stands; dealer blackjack
    r = play("8S AH 8D 5C TD 9C KH", seat(10, "split", "hit", "stand"), game="european-blackjack")
    first, second = r["seats"][0]["hands"]
    assert outcome(first) == ("lose", 0) and outcome(second) == ("push", 10)


def test_original_bets_only_an_unsplit_double_gets_its_double_back():
    r = play("6S TH 5D 9C AD", seat(10, "double"), game="european-blackjack")
    assert r["dealer"]["cards"] == ["TH", "AD"]
    assert (hand(r)["stake"], *outcome(hand(r))) == (20, "lose", 10)


def test_without_a_dealer_blackjack_original_bets_only_changes_nothing():
    r = play("8S 9H 8D 3C 9D TC 8H", seat(10, "split", "double", "stand"), game="european-blackjack")
    assert r["dealer"]["cards"] == ["9H", "8H"]
    assert [outcome(h) for h in r["seats"][0]["hands"]] == [("win", 40), ("win", 20)]  # 20 and 18 against 17


# -- dealer_wins_ties (swedish-pub-blackjack) -----------------------------------------------------


@pytest.mark.parametrize(
    ("shoe", "total", "want"),
    [
        ("TS 9H 7S 8D", 17, ("lose", 0)),
        ("TS 9H 8S 9D", 18, ("lose", 0)),
        ("TS 9H 9S TD", 19, ("lose", 0)),
        ("TS KH QS JD", 20, ("push", 10)),
    ],
)
def test_the_swedish_pub_dealer_wins_a_tie_on_17_18_19_and_a_tie_on_20_pushes(shoe, total, want):
    r = play(shoe, seat(10, "stand"), game="swedish-pub-blackjack")
    assert hand(r)["total"] == total and r["dealer"]["total"] == total
    assert outcome(hand(r)) == want
    r = play(shoe, seat(10, "stand"), game="casino-blackjack")
    assert outcome(hand(r)) == ("push", 10)


def test_the_swedish_pub_tie_on_21_pushes_and_blackjack_against_blackjack_pushes():
    # 21 of three cards against the dealer's 21 of three cards
    r = play("7S 6H 4S 5D KC KH", seat(10, "hit"), game="swedish-pub-blackjack")
    assert hand(r)["total"] == 21 and r["dealer"]["total"] == 21 and outcome(hand(r)) == ("push", 10)
    r = play("AS AH KS QD", seat(10), game="swedish-pub-blackjack")
    assert r["dealer"]["blackjack"] and outcome(hand(r)) == ("push", 10)


# -- spanish_deck and player_21_wins (spanish-21) -------------------------------------------------


def test_the_spanish_deck_has_no_tens_but_keeps_jacks_queens_and_kings():
    with pytest.raises(ScriptError, match="shoe: card TS is not in this game's deck"):
        play("TS 9H 7S 8D", seat(10, "stand"), game="spanish-21")
    r = play("JS 9H QS 8D", seat(10, "stand"), game="spanish-21")
    assert hand(r)["total"] == 20 and outcome(hand(r)) == ("win", 20)


def test_in_spanish_21_a_players_21_beats_a_dealer_21():
    # seat 7S 4D draws KC: 21 of three cards; the dealer 6H 5C draws KD: 21
    r = play("7S 6H 4D 5C KC KD", seat(10, "hit"), game="spanish-21")
    assert hand(r)["total"] == 21 and r["dealer"]["cards"] == ["6H", "5C", "KD"]
    assert outcome(hand(r)) == ("win", 20)
    r = play("7S 6H 4D 5C KC KD", seat(10, "hit"), game="casino-blackjack")
    assert outcome(hand(r)) == ("push", 10)


def test_in_spanish_21_a_blackjack_beats_a_dealer_blackjack_and_is_paid_as_one():
    # seat 1 AS KS, seat 2 9S 8S; the dealer AH QD: the peek ends the round at once
    r = play("AS 9S AH KS 8S QD", seat(10), seat(10), game="spanish-21")
    assert r["dealer"]["blackjack"] and r["cards_used"] == 6
    assert outcome(hand(r, 1)) == ("blackjack", 25) and outcome(hand(r, 2)) == ("lose", 0)


def test_in_spanish_21_a_21_still_loses_to_a_dealer_blackjack_and_a_split_21_beats_a_dealer_21():
    # no hole card: the seat's 21 of three cards against the dealer's A K
    r = play("7S AH 4D KC KD", seat(10, "hit"), game="spanish-21", hole_card=False)
    assert outcome(hand(r)) == ("lose", 0)
    # aces split against 6H (hole 5C): A K and A Q are 21 (not blackjack); the dealer draws KD: 21
    r = play("AS 6H AD 5C KS QS KD", seat(10, "split"), game="spanish-21")
    assert r["dealer"]["total"] == 21
    assert [outcome(h) for h in r["seats"][0]["hands"]] == [("win", 20), ("win", 20)]


def test_cabinet_round_refuses_a_late_surrender_after_a_split_in_one_line_naming_seat_hand_action_and_why(
    capsys, monkeypatch
):
    import io
    import sys

    from machine.cli import main

    script = ("game: european-blackjack\nrules: {surrender: late}\nshoe: [8S, 9C, 8D, 2C, 3C]\n"
              "seats: [{bet: 10, actions: [split, surrender]}]\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    assert main(["round", "-"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == ("cabinet round: seat 1, hand 1: surrender is not allowed: "
                   "only as the first decision on the first two cards\n")
