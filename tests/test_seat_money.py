"""A seat's money (random-blackjack.md sections 5-7) and `cabinet session`."""

from __future__ import annotations

from typing import Any

import pytest

from machine.money.seatmoney import MoneySettings, SeatMoney
from machine.scripts.roundscript import ScriptError
from machine.scripts.session import run_session_script


def session(*steps, **machine):
    script: dict[str, Any] = {"game": "random-blackjack", "steps": list(steps)}
    if machine:
        script["machine"] = machine
    return run_session_script(script)["steps"]


def test_the_spec_example_first_step():
    (step,) = session({"coin": 100})
    assert step == {
        "step": 1, "ignored": False, "credit": 100, "club": 0, "bet": 0, "max_bet": 2,
        "live": ["+10", "+2", "collect", "max"], "coins_paid": 0, "handpay": 0,
    }


def test_a_game_needs_10_points_on_the_credit_meter():
    steps = session({"coin": 8}, {"press": "+2"})
    assert steps[0]["max_bet"] == 0 and steps[0]["live"] == []
    assert steps[1]["ignored"] and steps[1]["credit"] == 8


def test_the_first_live_bet_press_moves_10_points_to_the_club_meter_once_per_game():
    steps = session({"coin": 100}, {"press": "+2"}, {"press": "+2"})
    assert [(s["credit"], s["club"], s["bet"]) for s in steps] == [(100, 0, 0), (90, 10, 2), (90, 10, 2)]
    # with club 10 the maximum is a quarter, 2: the second +2 is dead
    assert steps[2]["ignored"]


def test_the_maximum_is_a_quarter_of_the_club_meter_rounded_down_to_even_at_most_500():
    for club, expected in [(0, 2), (12, 4), (26, 8), (990, 250), (998, 252), (2000, 500), (9990, 500)]:
        m = SeatMoney(credit=100, club=club)
        assert m.max_bet() == expected, club
    assert SeatMoney(credit=5, club=0).max_bet() == 0
    m = SeatMoney(credit=100, club=26, game_open=True)  # the transfer already made
    assert m.max_bet() == 6


def test_each_bet_button_exactly():
    m = SeatMoney(credit=1000, club=190)  # max: (190 + 10) / 4 = 50
    assert not m.is_live("x2") and not m.is_live("repeat") and not m.is_live("start")
    m.press_bet("+10")
    assert (m.bet, m.club, m.credit) == (10, 200, 990)
    m.press_bet("x2")
    assert m.bet == 20
    m.press_bet("x2")
    assert m.bet == 40
    m.press_bet("x2")
    assert m.bet == 50  # min(80, max)
    assert not m.is_live("x2") and not m.is_live("+2") and not m.is_live("max")
    m.start_round()
    assert (m.club, m.previous_bet, m.bet) == (150, 50, 0)
    m.settle(0)
    m.press_bet("repeat")  # a new game: another 10-point transfer
    assert (m.bet, m.club, m.credit) == (40, 160, 980)  # min(50, (150 + 10) / 4 = 40)


def test_the_club_meter_overflows_above_10000_into_the_credit_meter():
    m = SeatMoney(credit=100, club=9995)
    m.press_bet("+2")
    assert (m.club, m.credit) == (10_000, 95)
    m.start_round()
    m.settle(4)
    assert (m.club, m.credit) == (10_000, 97)


def test_collect_moves_the_club_meter_in_steps_of_100_then_pays_the_credit_meter():
    m = SeatMoney(credit=0, club=250, total_in=250)
    moves, plan = m.collect()
    assert [mv.amount for mv in moves] == [100, 100, 50] and [mv.club for mv in moves] == [150, 50, 0]
    assert (m.credit, m.club) == (250, 0)
    moves, plan = m.collect()
    assert (plan.coins, plan.coin_value, plan.handpay) == (25, 10, 0)
    m.coins_paid(25)
    m.payout_ended()
    assert m.credit == 0 and m.audit_problem() is None


def test_collect_while_betting_drops_the_bet_and_collects():
    steps = session({"coin": 100}, {"press": "+2"}, {"press": "collect"})
    assert (steps[2]["bet"], steps[2]["club"], steps[2]["credit"]) == (0, 0, 100)


def test_collect_is_dead_during_a_round():
    m = SeatMoney(credit=100)
    m.press_bet("+2")
    m.start_round()
    assert not m.is_live("collect") and m.live() == []


def test_a_remainder_below_one_coin_stays_and_collect_is_dead():
    steps = session({"coin": 25}, {"press": "collect"}, {"press": "collect"})
    assert (steps[1]["credit"], steps[1]["coins_paid"]) == (5, 2)
    assert steps[1]["live"] == [] and steps[2]["ignored"]


def test_the_remainder_can_go_to_a_handpay():
    steps = session({"coin": 25}, {"press": "collect"}, remainder="handpay")
    assert (steps[1]["credit"], steps[1]["coins_paid"], steps[1]["handpay"]) == (0, 2, 5)


def test_a_credit_meter_above_the_hopper_limit_is_paid_whole_as_a_handpay():
    steps = session({"coin": 1010}, {"press": "collect"})
    assert (steps[1]["credit"], steps[1]["coins_paid"], steps[1]["handpay"]) == (0, 0, 1010)


def test_payout_by_handpay_only():
    steps = session({"coin": 30}, {"press": "collect"}, payout="handpay")
    assert (steps[1]["coins_paid"], steps[1]["handpay"]) == (0, 30)


def test_a_round_moves_its_stakes_and_returns_through_the_club_meter():
    steps = session(
        {"coin": 200},
        {"press": "max"},  # (0 + 10) / 4 -> 2
        {"press": "start", "shoe": "8S 6H 8D 3C 7S 2C TD TH 9C".split(), "actions": ["split", "double", "double"]},
    )
    r = steps[2]["round"]
    seat = r["seats"][0]
    assert seat["staked"] == 8 and r["dealer"]["cards"] == ["6H", "TH", "9C"]  # dealer busts
    assert seat["returned"] == 16
    assert (steps[2]["club"], steps[2]["credit"]) == (10 - 8 + 16, 190)


def test_dead_presses_are_reported_as_ignored():
    steps = session({"coin": 50}, {"press": "x2"}, {"press": "repeat"}, {"press": "start", "shoe": ["AS"]})
    assert [s["ignored"] for s in steps] == [False, True, True, True]


@pytest.mark.parametrize(
    "steps, message",
    [
        ([{"coin": 0}], "steps[0]: coin: must be a whole number of points above 0, not 0"),
        ([{"press": "deal"}], "steps[0]: unknown button 'deal'"),
        ([{"coin": 50}, {"press": "+2"}, {"press": "start"}], "steps[2]: a press that starts a round carries its shoe:"),
        ([{"coin": 50}, {"press": "+2"}, {"press": "start", "shoe": ["9S", "7H", "8D"], "actions": []}],
         "seat 1, hand 1: the actions ran out"),
        ([{"press": "+2", "shoe": []}], "steps[0]: unknown key 'shoe' beside press: +2"),
    ],
)
def test_bad_session_scripts_name_the_step(steps, message):
    with pytest.raises(ScriptError) as err:
        run_session_script({"game": "random-blackjack", "steps": steps})
    assert str(err.value).startswith(message)


def test_bad_machine_settings_are_named():
    with pytest.raises(ScriptError, match="machine: payout must be hopper, handpay or voucher, not 'coins'"):
        run_session_script({"game": "random-blackjack", "machine": {"payout": "coins"}, "steps": []})
    assert MoneySettings().hopper_coin == 10


def test_seat_money_keeps_its_own_table_limits_and_a_row_with_the_old_rules_restores_them():
    """A seat row written while seat money kept a game's whole rules restores from the three
    limits in it (whichever game's keys come with them); new rows keep only the limits."""
    from machine.money.seatmoney import TableLimits

    m = SeatMoney(limits=TableLimits(min_bet=4, max_bet=40, bet_step=4), credit=1000, club=400, game_open=True)
    assert m.max_bet() == 40 and m.bet_cap() == 100
    row = m.to_dict()
    assert row["limits"] == {"min_bet": 4, "max_bet": 40, "bet_step": 4} and "rules" not in row
    assert SeatMoney.from_dict(row) == m
    old = {k: v for k, v in row.items() if k != "limits"}
    old["rules"] = {"decks": 2, "min_bet": 4, "max_bet": 40, "bet_step": 4, "variant": "modern", "not_a_rule": True}
    back = SeatMoney.from_dict(old)
    assert back.limits == TableLimits(4, 40, 4) and back == m
