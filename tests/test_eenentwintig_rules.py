"""Eenentwintig (other-games.md, seed 000) pinned rule by rule with exact cards, through
``cabinet round`` scripts: each test fails if its rule breaks.

One seat's shoe reads: its closed card, the bank's first card, its open card, the bank's
second card, then every card drawn in the order drawn (the seat's, then the bank's).
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from machine.scripts.roundscript import ScriptError, run_round_script


def play(shoe: str, *seats: dict[str, Any], auto=None, **rules: Any) -> dict[str, Any]:
    script = {"game": "eenentwintig", "rules": rules, "shoe": shoe.split(), "seats": list(seats)}
    return run_round_script(script, auto)


def seat(bet: int = 2, *actions: str) -> dict[str, Any]:
    return {"bet": bet, "actions": list(actions)}


def refusal(shoe: str, *seats: dict[str, Any], **rules: Any) -> str:
    with pytest.raises(ScriptError) as exc:
        play(shoe, *seats, **rules)
    return str(exc.value)


def hand(res: dict[str, Any], s: int = 1, h: int = 1) -> dict[str, Any]:
    return res["seats"][s - 1]["hands"][h - 1]


# -- the deck and the deal ---------------------------------------------------------------------


def test_the_deal_is_a_closed_card_each_then_the_bank_then_an_open_card_each_then_the_bank():
    res = play("9S TS 8D 9H 7C 9C", seat(2, "stand"), seat(4, "stand"))
    assert hand(res, 1)["cards"] == ["9S", "9H"] and hand(res, 2)["cards"] == ["TS", "7C"]
    assert res["dealer"]["cards"] == ["8D", "9C"] and res["dealer"]["total"] == 17
    assert (hand(res, 1)["result"], hand(res, 2)["result"]) == ("win", "push")
    assert res["cards_used"] == 6


def test_a_card_the_32_card_deck_does_not_hold_is_an_error():
    assert refusal("5S 9D TH 8C", seat()) == "shoe: card 5S is not in this game's deck"
    assert refusal("AS AS AS", seat(), decks=2) == "shoe: card AS appears 3 times, but a shoe of 2 decks holds only 2"


def test_jack_counts_2_queen_3_king_4():
    res = play("KS 9D QH 8C JS TS", seat(2, "hit", "hit", "stand"))
    assert hand(res)["cards"] == ["KS", "QH", "JS", "TS"] and hand(res)["total"] == 19
    assert hand(res)["result"] == "win"


def test_an_ace_counts_11_while_that_keeps_the_hand_at_21_or_less():
    res = play("AS 9D 7H 8C 9S", seat(2, "hit", "stand"))
    assert hand(res)["total"] == 17 and not hand(res)["soft"] and hand(res)["result"] == "push"


# -- the natural -------------------------------------------------------------------------------


def test_an_ace_and_a_ten_end_the_turn_at_once_and_pay_one_to_one():
    res = play("AS 9D TH 8C", seat(10))  # no action is asked
    h = hand(res)
    assert (h["total"], h["blackjack"], h["result"], h["returned"]) == (21, True, "win", 20)


def test_an_ace_and_a_king_is_no_natural_but_soft_15():
    res = play("AS 9D KH 8C", seat(2, "stand"))
    assert (hand(res)["total"], hand(res)["soft"], hand(res)["blackjack"], hand(res)["result"]) == (15, True, False, "lose")


def test_a_natural_ties_a_bank_21():
    res = play("AS 9D TH QC 9H", seat(4))
    assert res["dealer"]["total"] == 21 and (hand(res)["result"], hand(res)["returned"]) == ("push", 4)


# -- vuile was ---------------------------------------------------------------------------------


def test_a_7_and_an_8_are_washed_for_two_new_cards_the_bet_unchanged():
    res = play("7S 9D 8H 8C 9S TS", seat(4, "wash", "stand"))
    h = hand(res)
    assert h["washed"] == ["7S", "8H"] and h["cards"] == ["9S", "TS"]
    assert (h["stake"], h["total"], h["result"], h["returned"]) == (4, 19, "win", 8)
    assert res["seats"][0]["staked"] == 4 and res["cards_used"] == 6


def test_only_a_7_and_an_8_are_washed():
    assert refusal("7S 9D 9H 8C", seat(2, "wash")) == (
        "seat 1, hand 1: wash is not allowed: only a first hand of exactly a 7 and an 8 is washed"
    )


def test_a_wash_is_only_the_seats_first_action():
    # 7 7 split: the left hand gets an 8, a 7 and an 8 on a hand that is not the first action's
    assert refusal("7S 9D 7H 8C 8S", seat(2, "split", "wash")) == (
        "seat 1, hand 1: wash is not allowed: a wash is only the seat's first action"
    )


def test_a_seat_washes_once_a_round():
    assert refusal("7S 9D 8H 8C 7D 8S", seat(2, "wash", "wash")) == (
        "seat 1, hand 1: wash is not allowed: the seat has washed once this round"
    )


def test_after_a_wash_a_new_ace_and_ten_stop():
    res = play("7S 9D 8H 8C AS TS", seat(2, "wash"))
    assert hand(res)["cards"] == ["AS", "TS"] and hand(res)["result"] == "win"


def test_after_a_wash_a_new_pair_is_split():
    res = play("7S 9D 8H 8C 9S 9H TS TH", seat(2, "wash", "split", "stand", "stand"))
    assert [h["cards"] for h in res["seats"][0]["hands"]] == [["9S", "TS"], ["9H", "TH"]]
    assert hand(res, 1, 1)["washed"] == ["7S", "8H"] and res["seats"][0]["staked"] == 4
    assert res["seats"][0]["returned"] == 8


def test_after_a_wash_two_new_aces_that_stand_count_20_5():
    res = play("7S TD 8H 9C AS AH", seat(2, "wash", "stand"))
    assert hand(res)["total"] == 20.5 and hand(res)["result"] == "win"


# -- split -------------------------------------------------------------------------------------


def test_a_split_stakes_the_bet_again_and_the_left_hand_is_played_out_before_the_right_gets_its_card():
    res = play("9S 9D 9H 8C QS TS KD 7H", seat(6, "split", "hit", "hit", "stand"))
    left, right = res["seats"][0]["hands"]
    assert left["cards"] == ["9S", "QS", "TS"] and (left["bust"], left["result"], left["stake"]) == (True, "lose", 6)
    assert right["cards"] == ["9H", "KD", "7H"] and (right["total"], right["result"], right["stake"]) == (20, "win", 6)
    assert left["from_split"] and right["from_split"]
    assert (res["seats"][0]["staked"], res["seats"][0]["returned"]) == (12, 12)


def test_two_jacks_split_but_cards_of_different_rank_do_not():
    res = play("JS 9D JH 8C TS 9S", seat(2, "split", "stand", "stand"))
    assert [h["total"] for h in res["seats"][0]["hands"]] == [12, 11]
    assert refusal("9S 9D TH 8C", seat(2, "split")) == (
        "seat 1, hand 1: split is not allowed: only two cards of the same rank are split"
    )


def test_a_split_hand_is_not_split_again():
    assert refusal("9S 9D 9H 8C 9C", seat(2, "split", "split")) == (
        "seat 1, hand 1: split is not allowed: split hands are not split again"
    )


def test_split_aces_play_on_and_two_aces_of_a_split_hand_count_12_not_20_5():
    res = play("AS 9D AH TC AD 7S QS", seat(2, "split", "stand", "hit"))
    left, right = res["seats"][0]["hands"]
    assert left["cards"] == ["AS", "AD"] and (left["total"], left["result"]) == (12, "lose")
    assert right["cards"] == ["AH", "7S", "QS"] and (right["total"], right["result"]) == (21, "win")


# -- buying stops by itself ----------------------------------------------------------------------


def test_buying_stops_at_21():
    res = play("9S 9D QH 8C 9H", seat(2, "hit"))  # no stand is asked at 21
    assert hand(res)["total"] == 21 and hand(res)["result"] == "win"


def test_buying_stops_at_seven_cards_under_21_with_no_bonus():
    res = play("JS 9D JH 7C JD JC QS QH KS TD", seat(2, "hit", "hit", "hit", "hit", "hit"))
    h = hand(res)
    assert len(h["cards"]) == 7 and h["total"] == 18
    assert res["dealer"]["cards"] == ["9D", "7C", "TD"] and res["dealer"]["bust"]
    assert (h["result"], h["returned"]) == ("win", 4)


def test_a_bust_is_lost_at_once_and_the_bank_draws_nothing_when_every_hand_is_bust():
    res = play("TS JD 9H QC TH 9S", seat(2, "hit"))
    assert hand(res)["bust"] and (hand(res)["result"], hand(res)["returned"]) == ("lose", 0)
    assert res["dealer"]["cards"] == ["JD", "QC"] and res["dealer"]["total"] == 5 and res["cards_used"] == 5


# -- the bank ------------------------------------------------------------------------------------


def test_the_bank_draws_under_17_and_stands_on_soft_17():
    res = play("TS AD 9H QC QS 9S", seat(2, "stand"))
    assert res["dealer"]["cards"] == ["AD", "QC", "QS"]
    assert (res["dealer"]["total"], res["dealer"]["soft"]) == (17, True) and hand(res)["result"] == "win"


def test_the_seven_card_stop_is_not_the_banks():
    res = play("TS JD 9H JC JH JS QS QH AS KS", seat(2, "stand"))
    assert res["dealer"]["cards"] == ["JD", "JC", "JH", "JS", "QS", "QH", "AS", "KS"]
    assert res["dealer"]["total"] == 19 and hand(res)["result"] == "push"


def test_the_banks_two_aces_count_20_5_and_it_stands_on_them():
    res = play("TS AS AD TH TC AC 9S", seat(2, "stand"), seat(2))
    assert res["dealer"]["cards"] == ["AD", "AC"] and res["dealer"]["total"] == 20.5
    assert (hand(res, 1)["total"], hand(res, 1)["result"]) == (20, "lose")
    assert (hand(res, 2)["total"], hand(res, 2)["result"]) == (21, "win")


def test_without_the_setting_the_banks_two_aces_are_soft_12_and_it_draws():
    res = play("TS AS AD TH TC AC 9S", seat(2, "stand"), seat(2), two_aces_twenty_and_a_half=False)
    assert res["dealer"]["cards"] == ["AD", "AC", "9S"] and res["dealer"]["total"] == 21
    assert (hand(res, 1)["result"], hand(res, 2)["result"]) == ("lose", "push")


# -- 20.5 and three sevens -----------------------------------------------------------------------


def test_two_aces_that_stand_count_20_5_above_20_below_21():
    assert hand(play("AS TD AH TC", seat(2, "stand")))["result"] == "win"  # bank 20
    res = play("AS 9D AH QC 9H", seat(2, "stand"))  # bank 9 + 3 + 9 = 21
    assert (hand(res)["total"], hand(res)["result"]) == (20.5, "lose")
    assert hand(play("AS AD AH AC", seat(2, "stand")))["result"] == "push"  # 20.5 against 20.5


def test_two_aces_that_buy_count_as_usual():
    res = play("AS TD AH TC 9S", seat(2, "hit"))
    assert (hand(res)["total"], hand(res)["result"]) == (21, "win")


def test_two_aces_are_soft_12_without_the_setting():
    res = play("AS TD AH TC", seat(2, "stand"), two_aces_twenty_and_a_half=False)
    assert (hand(res)["total"], hand(res)["result"]) == (12, "lose")


def test_three_sevens_beat_a_21():
    res = play("7S TD 7H QC 7D 8S", seat(2, "hit"))
    assert res["dealer"]["total"] == 21 and not res["dealer"]["three_sevens"]
    assert (hand(res)["three_sevens"], hand(res)["total"], hand(res)["result"]) == (True, 21, "win")


def test_without_the_setting_three_sevens_are_a_plain_21():
    res = play("7S TD 7H QC 7D 8S", seat(2, "hit"), three_sevens_beat_21=False)
    assert hand(res)["result"] == "push" and not hand(res)["three_sevens"]


def test_the_banks_three_sevens_beat_a_seats_21():
    res = play("9S 7C QH 7H 9D 7D", seat(2, "hit"))
    assert res["dealer"]["three_sevens"] and hand(res)["total"] == 21 and hand(res)["result"] == "lose"


def test_three_sevens_against_three_sevens_tie():
    res = play("7S 7C 7H 7D 7S 7H", seat(2, "hit"))
    assert res["dealer"]["three_sevens"] and hand(res)["three_sevens"] and hand(res)["result"] == "push"


def test_a_split_hands_three_sevens_beat_a_21_too():
    res = play("7S TD 7H QC 7D 7C 9S 8S", seat(2, "split", "hit", "stand"))
    left, right = res["seats"][0]["hands"]
    assert left["cards"] == ["7S", "7D", "7C"] and left["three_sevens"] and left["result"] == "win"
    assert right["cards"] == ["7H", "9S"] and right["result"] == "lose" and res["dealer"]["total"] == 21


# -- the scoring table -----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("shoe", "actions", "bank", "result", "returned"),
    [
        ("AS 9D TH QC 9H", [], "21", "push", 2),  # bank 21, seat 21 ties
        ("TS 9D QH QC 7D 9H", ["hit", "stand"], "21", "lose", 0),  # bank 21, seat 20 loses
        ("TS 9D 9H 9C", ["stand"], "18", "win", 4),  # bank under 21: higher wins
        ("TS 9D 8H 9C", ["stand"], "18", "push", 2),  # equal ties
        ("TS 9D 7H 9C", ["stand"], "18", "lose", 0),  # lower loses
        ("TS 9D QH KC 9S", ["stand"], "bust", "win", 4),  # bank bust: a seat still in wins, even on 13
    ],
)
def test_the_seeds_scoring_table(shoe, actions, bank, result, returned):
    res = play(shoe, seat(2, *actions))
    assert ("bust" if res["dealer"]["bust"] else str(res["dealer"]["total"])) == bank
    assert (hand(res)["result"], hand(res)["returned"]) == (result, returned)


# -- the script ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        (12, "seat 1: bet 12 is above the maximum of 10"),
        (3, "seat 1: bet 3 is not a multiple of 2"),
        (0, "seat 1: bet 0 is below the minimum of 2"),
        ("ten", "seat 1: bet 'ten' is not a whole number of points"),
    ],
)
def test_a_bet_that_breaks_the_table_limits_is_refused(bet, message):
    assert refusal("TS 9D 9H 9C", {"bet": bet, "actions": ["stand"]}) == message


def test_script_keys_and_actions_are_the_games():
    assert refusal("TS 9D 9H 9C", {"bet": 2, "insurance": False}).startswith("seats[0]: unknown key 'insurance'")
    assert refusal("TS 9D 9H 9C", seat(2, "double")) == (
        "seats[0]: unknown action 'double' (one of hit, stand, split, wash, auto)"
    )
    assert refusal("TS 9D 9H 9C", seat(2)) == (
        "seat 1, hand 1: the actions ran out while the seat must decide (allowed: hit, stand)"
    )
    assert refusal("TS 9D 9H 9C", seat(2, "stand", "hit")) == "seat 1: 1 action left over when the round ended: hit"
    assert refusal("TS 9D 9H", seat(2, "stand")) == "the shoe ran out after 3 cards"


def test_auto_washes_a_vuile_was_and_splits_eights():
    from machine.gamemath.eenentwintig import auto_action

    res = play("7S 9D 8H 8C 9S TS", seat(2, "auto", "auto"), auto=auto_action)
    assert hand(res)["washed"] == ["7S", "8H"] and hand(res)["cards"] == ["9S", "TS"]
    res = play("8S 9D 8H 8C TS TH", seat(2, "auto", "auto", "auto"), auto=auto_action)
    assert [h["cards"] for h in res["seats"][0]["hands"]] == [["8S", "TS"], ["8H", "TH"]]


def cli(script: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "machine", "round", "-"], input=script, capture_output=True, text=True)


def test_the_command_writes_20_5_and_the_washed_cards_in_its_json():
    proc = cli("game: eenentwintig\nshoe: [7S, TD, 8H, 9C, AS, AH]\nseats:\n  - {bet: 6, actions: [wash, stand]}\n")
    assert proc.returncode == 0 and proc.stderr == ""
    res = json.loads(proc.stdout)
    h = res["seats"][0]["hands"][0]
    assert (h["total"], h["washed"], h["result"], h["returned"]) == (20.5, ["7S", "8H"], "win", 12)
    assert res["dealer"] == {"cards": ["TD", "9C"], "total": 19, "soft": False, "blackjack": False,
                             "three_sevens": False, "bust": False}
    assert '"total": 20.5' in proc.stdout


def test_the_command_refuses_an_action_with_one_line_and_exit_2():
    proc = cli("game: eenentwintig\nshoe: [9S, 9D, TH, 8C]\nseats: [{bet: 2, actions: [wash]}]\n")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == (
        "cabinet round: seat 1, hand 1: wash is not allowed: only a first hand of exactly a 7 and an 8 is washed\n"
    )


def test_the_example_script_plays():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "examples" / "eenentwintig.yaml"
    proc = subprocess.run([sys.executable, "-m", "machine", "round", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert res["dealer"]["cards"] == ["TH", "QC", "KD"] and [s["net"] for s in res["seats"]] == [4, 10]
    assert res["seats"][0]["hands"][0]["washed"] == ["7S", "8H"]
