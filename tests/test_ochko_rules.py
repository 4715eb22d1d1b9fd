"""Ochko (other-games.md, section "ochko"): every rule pinned with the exact cards, through
``cabinet round`` scripts (``run_round_script``) and the round itself where the order of the
events or what a seat sees is the point."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from machine.gamemath.engines import auto_for
from machine.games.interface import FACE_DOWN, Button, Decision, bet_action
from machine.games.ochko.game import OchkoGame
from machine.games.ochko.round import OchkoRound
from machine.profiles import load_profile
from machine.scripts.roundscript import ScriptError, run_round_script

AUTO = auto_for("ochko")
PROFILE = load_profile("ochko")


def play(shoe: str, *seats: tuple[int, list[str]], bank: int | None = None, **rules: Any) -> dict[str, Any]:
    script: dict[str, Any] = {
        "game": "ochko", "shoe": shoe.split(), "seats": [{"bet": b, "actions": a} for b, a in seats],
    }
    if bank is not None:
        script["bank"] = bank
    if rules:
        script["rules"] = rules
    return run_round_script(script, AUTO)


def refused(shoe: str, *seats: tuple[int, list[str]], bank: int | None = None, **rules: Any) -> str:
    with pytest.raises(ScriptError) as exc:
        play(shoe, *seats, bank=bank, **rules)
    return str(exc.value)


def hand(res: dict[str, Any], seat: int = 1) -> dict[str, Any]:
    return res["seats"][seat - 1]["hands"][0]


def start(shoe: str, seats: int = 1, carry: dict[str, Any] | None = None, **rules: Any) -> OchkoRound:
    return OchkoRound.start(PROFILE.rules.with_overrides(rules), shoe.split(), list(range(1, seats + 1)), carry=carry)


# -- the cards --------------------------------------------------------------------------------------


def test_the_deck_is_36_cards_six_to_ace():
    game = OchkoGame(PROFILE, AUTO)
    shoe = game.new_shoe()
    assert len(shoe) == 36 and {c[0] for c in shoe} == set("6789TJQKA")
    assert "card 5S is not in this game's deck" in refused("5S 9H 6S", (2, []))


def test_jack_queen_king_count_2_3_4_and_the_lower_total_loses():
    res = play("JS 9H QS KS 6S TH", (10, ["hit", "hit", "stand"]))
    assert hand(res)["cards"] == ["JS", "QS", "KS", "6S"] and hand(res)["total"] == 15
    assert res["dealer"] == {"cards": ["9H", "TH"], "total": 19, "blackjack": False, "bust": False}
    assert (hand(res)["result"], hand(res)["returned"]) == ("lose", 0)
    assert (res["bank_before"], res["bank_after"]) == (100, 110)


def test_the_ace_counts_11_always_so_ace_six_six_is_a_bust():
    res = play("AS TH 6S 6H", (10, ["hit"]))
    assert hand(res)["total"] == 23 and hand(res)["bust"] and hand(res)["at_once"]
    assert res["dealer"]["cards"] == ["TH"] and res["cards_used"] == 4  # nobody waits: the banker does not draw


def test_two_aces_are_21_and_paid_at_once_with_the_setting():
    res = play("AS 9H AD", (10, []))
    assert (hand(res)["total"], hand(res)["result"], hand(res)["returned"], hand(res)["at_once"]) == (21, "win", 20, True)
    assert res["bank_after"] == 90 and res["dealer"]["cards"] == ["9H"]


def test_two_aces_are_22_a_bust_without_the_setting():
    res = play("AS 9H AD", (10, []), two_aces_21=False)
    assert (hand(res)["total"], hand(res)["bust"], hand(res)["result"], res["bank_after"]) == (22, True, "lose", 110)


def test_the_bankers_two_aces_are_21_with_the_setting_and_a_bust_without():
    shoe = "TS AH 9S AD"
    assert (play(shoe, (10, ["stand"]))["dealer"]["total"], hand(play(shoe, (10, ["stand"])))["result"]) == (21, "lose")
    res = play(shoe, (10, ["stand"]), two_aces_21=False)
    assert (res["dealer"]["total"], res["dealer"]["bust"], hand(res)["result"]) == (22, True, "win")


# -- 21 and over at once --------------------------------------------------------------------------


def test_exactly_21_is_paid_at_once_and_ends_the_turn():
    res = play("6S 7H 8S 7S", (10, ["hit"]))  # 6 + 8 = 14, draws 7: 21
    assert (hand(res)["total"], hand(res)["result"], hand(res)["returned"], hand(res)["at_once"]) == (21, "win", 20, True)
    assert res["cards_used"] == 4 and res["bank_after"] == 90


def test_the_win_at_once_leaves_the_bank_at_once_for_the_next_seat():
    rnd = start("TS 9S 7H AS", seats=2)
    rnd.act(1, bet_action(60))  # T + A: 21, paid 60 out of the bank of 100
    assert rnd.bank == 40 and rnd.shown().bank == 40
    assert rnd.pending == Decision(2, None, "bet", tuple(bet_action(b) for b in range(2, 41, 2)))
    kinds = [e.kind for e in rnd.events]
    assert kinds[-3:] == ["card", "settle", "bank"] and rnd.events[-1].to_dict() == {"kind": "bank", "amount": -60, "bank": 40}


def test_over_21_loses_at_once_into_the_bank_and_the_next_seat_may_stake_it():
    rnd = start("TS 9S 7H 8S 6S", seats=2)
    rnd.act(1, bet_action(100))
    rnd.act(1, "hit")  # T 8 6: 24
    assert rnd.seat(1).result == "lose" and rnd.bank == 200
    assert rnd.pending is not None and rnd.pending.options[-1] == bet_action(200)


# -- the banker -----------------------------------------------------------------------------------


def test_the_banker_stands_on_17_and_the_higher_total_wins():
    res = play("TS TH 8S 7H 6C", (10, ["stand"]))
    assert res["dealer"] == {"cards": ["TH", "7H"], "total": 17, "blackjack": False, "bust": False}
    assert res["cards_used"] == 4 and (hand(res)["result"], hand(res)["returned"]) == ("win", 20)
    assert res["bank_after"] == 90


def test_the_banker_draws_while_under_17():
    res = play("TS JH 9S 6S 8D KH 7C", (10, ["stand"]))  # J 6 8 = 16: draws K, 20
    assert res["dealer"]["cards"] == ["JH", "6S", "8D", "KH"] and res["dealer"]["total"] == 20
    assert hand(res)["result"] == "lose" and res["cards_used"] == 6


def test_equal_totals_push():
    res = play("TS 9H 9S TH", (10, ["stand"]))
    assert (hand(res)["result"], hand(res)["returned"], res["bank_after"]) == ("push", 10, 100)


def test_a_banker_bust_pays_every_waiting_seat():
    res = play("TS JS 6H 8S QS 7S TC 9C", (10, ["stand"]), (4, ["hit", "stand"]))
    assert res["dealer"]["cards"] == ["6H", "TC", "9C"] and res["dealer"]["bust"]
    assert [(hand(res, n)["total"], hand(res, n)["result"], hand(res, n)["returned"]) for n in (1, 2)] == [
        (18, "win", 20), (12, "win", 8)]
    assert res["bank_after"] == 86


def test_the_banker_plays_only_if_a_seat_waits():
    res = play("TS 9S 7H AS 8S 6S", (10, []), (10, ["hit"]))  # 21 at once, then 9 8 6: a bust
    assert res["dealer"]["cards"] == ["7H"] and res["cards_used"] == 6 and res["bank_after"] == 100


# -- the deal and the turns -------------------------------------------------------------------------


def test_one_closed_card_each_in_seat_order_then_the_up_card_then_each_seat_plays_its_turn_out():
    res = play("6S 7S 8S 9H JS QS KS 6H AS TH", (10, ["hit", "stand"]), (10, ["hit", "stand"]), (10, ["stand"]))
    assert [hand(res, n)["cards"] for n in (1, 2, 3)] == [["6S", "JS", "QS"], ["7S", "KS", "6H"], ["8S", "AS"]]
    assert res["dealer"]["cards"] == ["9H", "TH"] and res["cards_used"] == 10


def test_a_seat_sees_its_own_first_card_the_up_card_and_the_bank_when_it_stakes():
    rnd = start("6S 7S 9H JS", seats=2)
    shown = rnd.shown()
    assert shown.dealer_cards == ("9H",) and shown.dealer_text == "9" and shown.bank == 100 and shown.notice == ""
    mine = shown.hands[1][0]
    assert (mine.cards, mine.stake, mine.total_text, mine.active) == (("6S",), 0, "6", True)
    assert rnd.seat(1).bet == 0 and rnd.seat_numbers == [1, 2]


# -- the bank: the stake it covers, sitting out, stuk, closing --------------------------------------


def test_a_stake_is_at_most_the_uncovered_bank():
    line = refused("TS 9S 7H 8S 6S", (60, ["stand"]), (50, ["stand"]))
    assert line == ("seat 2, hand 1: bet:50 is not allowed: bet 50 is above the uncovered bank of 40 "
                    "(the bank 100 less 60 staked by seats waiting for the banker)")
    res = play("TS 9S 7H 8S TC 6H KH", (60, ["stand"]), (40, ["stand"]))
    assert [s["bet"] for s in res["seats"]] == [60, 40]


def test_a_stake_keeps_the_table_limits():
    assert refused("TS 7H 8S", (502, ["stand"]), bank=1000) == (
        "seat 1: bet 502 is above the maximum of 500 (bet: 0 for a seat that sits out)")
    assert refused("TS 7H 8S", (3, ["stand"])) == "seat 1: bet 3 is not a multiple of 2 (bet: 0 for a seat that sits out)"
    assert hand(play("TS 7H 8S 9S TH", (500, ["stand"]), bank=1000))["stake"] == 500


def test_a_seat_whose_turn_finds_the_bank_covered_sits_out_and_a_broken_bank_closes():
    res = play("TS 9S 7H 8S TC", (100, ["stand"]), (0, []))
    s2 = res["seats"][1]
    assert (s2["bet"], s2["sat_out"], s2["staked"], s2["returned"]) == (0, True, 0, 0)
    assert (hand(res, 2)["cards"], hand(res, 2)["result"]) == (["9S"], "push")
    assert (hand(res, 1)["result"], res["bank_after"], res["bank_closed"]) == ("win", 0, True)
    assert "the seat sits out" in refused("TS 9S 7H 8S TC", (100, ["stand"]), (4, []))


def test_stuk_at_three_opening_banks_is_announced_and_closes_the_bank():
    res = play("TS 9H 9S TH", (10, ["stand"]), bank=300)
    assert (res["stuk"], res["bank_closed"], res["bank_after"]) == (True, True, 300)
    below = play("TS 9H 9S TH", (10, ["stand"]), bank=298)
    assert (below["stuk"], below["bank_closed"]) == (False, False)
    rnd = start("TS 9H 9S TH", carry={"bank": 300, "closed": False})
    assert rnd.shown().notice == "Stuk: the last round of this bank" and rnd.events[0].kind == "stuk"


def test_the_bank_carries_to_the_next_round_and_a_closed_bank_reopens_fresh():
    game = OchkoGame(PROFILE, AUTO)
    first = game.start("TS 9H 8S TH".split(), [0], [50], [1], None)  # the game's opening
    assert first.events[0].to_dict() == {"kind": "bank_open", "bank": 100}
    first.act(1, bet_action(10))
    first.act(1, "stand")  # 18 against 19: the bank wins 10
    assert first.carry == {"bank": 110, "closed": False} and game.shown_between(first.carry).bank == 110
    second = game.start("TS 9H 8S TH".split(), [0], [50], [1], first.carry)
    assert second.bank_before == 110 and not second.bank_opened
    closed = {"bank": 300, "closed": True}
    between = game.shown_between(closed)
    assert (between.bank, between.notice) == (100, "The bank closed: a new bank of 100 opens")
    assert game.start("TS 9H 8S TH".split(), [0], [50], [1], closed).bank_before == 100
    assert game.shown_between({"bank": 300, "closed": False}).notice == "Stuk: the next round is the last of this bank"


def test_the_script_bank_must_cover_a_stake():
    assert refused("TS 9H 8S", (2, ["stand"]), bank=1).startswith("bank: must be a whole number of points of at least")


# -- the dark card ----------------------------------------------------------------------------------


def test_a_dark_card_is_face_down_until_the_settlement_and_a_bust_on_it_loses_even_to_a_banker_bust():
    rnd = start("TS 6S 9H 7S AS 8S 6H 8C", seats=2, dark_draw=True)
    rnd.act(1, bet_action(10))
    assert rnd.pending is not None and rnd.pending.options == ("hit", "stand", "dark")  # 17
    rnd.act(1, "dark")
    mine = rnd.shown().hands[1][0]
    assert (mine.cards, mine.total_text, mine.result) == (("TS", "7S", FACE_DOWN), "", None)
    assert rnd.bank == 100 and rnd.uncovered == 90  # it waits for the banker, its stake covered
    rnd.act(2, bet_action(10))  # 6 8: 14
    rnd.act(2, "stand")
    assert rnd.finished and rnd.banker == ["9H", "6H", "8C"]  # the banker drew for the waiting seats: 23
    res = rnd.result("ochko")
    assert (hand(res)["cards"], hand(res)["total"], hand(res)["dark"]) == (["TS", "7S", "AS"], 28, True)
    assert hand(res)["result"] == "lose"
    assert hand(res, 2)["result"] == "win" and rnd.shown().hands[1][0].cards == ("TS", "7S", "AS")
    assert [e.kind for e in rnd.events].count("dark_reveal") == 1


def test_a_bust_on_the_dark_card_still_waits_so_the_banker_draws_for_it():
    res = play("TS 9H 7S AS 8H", (10, ["dark"]), dark_draw=True)
    assert res["dealer"]["cards"] == ["9H", "8H"] and hand(res)["result"] == "lose" and not hand(res)["at_once"]


def test_a_21_on_the_dark_card_is_not_paid_at_once():
    won = play("TS 9H 7S KS 8H", (10, ["dark"]), dark_draw=True)
    assert (hand(won)["total"], hand(won)["at_once"], hand(won)["result"], won["dealer"]["total"]) == (21, False, "win", 17)
    tied = play("TS 9H 7S KS QH 9C", (10, ["dark"]), dark_draw=True)
    assert (tied["dealer"]["total"], hand(tied)["result"], hand(tied)["returned"]) == (21, "push", 10)


def test_the_dark_card_only_on_17_or_more_and_only_with_the_setting():
    assert refused("TS 9H 6S", (10, ["dark"]), dark_draw=True) == (
        "seat 1, hand 1: dark is not allowed: a dark card only on 17 or more (the hand totals 16)")
    assert refused("TS 9H 7S", (10, ["dark"])) == "seat 1, hand 1: dark is not allowed: the dark draw is not played at this table"


# -- the round's refusals change nothing ------------------------------------------------------------


def test_a_refused_action_names_seat_hand_action_and_why_and_changes_nothing():
    rnd = start("TS 9S 7H 8S", seats=2)
    before = rnd.to_dict()
    for seat, action, why in ((2, bet_action(2), "it is seat 1's turn"), (1, "hit", "the seat stakes first"),
                              (1, bet_action(502), "above the maximum"), (1, bet_action(0), "below the minimum")):
        assert why in (rnd.why_not(seat, action) or "")
        with pytest.raises(Exception, match="is not allowed"):
            rnd.act(seat, action)
        assert rnd.to_dict() == before


def test_the_stake_is_limited_by_what_the_seat_can_pay():
    rnd = OchkoRound.start(PROFILE.rules, "TS 7H 8S".split(), [3], funds=[7])
    assert rnd.pending == Decision(3, None, "bet", ("bet:2", "bet:4", "bet:6"))


# -- the game on the cabinet's interface ------------------------------------------------------------


def test_the_panel_buttons_draw_enough_and_dark_and_the_stake_is_the_cabinets():
    game = OchkoGame(PROFILE, AUTO)
    bet = Decision(1, None, "bet", ("bet:2", "bet:4"))
    assert {b: a for b in Button if (a := game.action_for(bet, b)) is not None} == {Button.AUTO: "auto"}
    play_d = Decision(1, 0, "play", ("hit", "stand", "dark"))
    assert {b: a for b in Button if (a := game.action_for(play_d, b)) is not None} == {
        Button.DRAW: "hit", Button.STAND: "stand", Button.DOUBLE: "dark", Button.AUTO: "auto"}
    assert game.button_labels(play_d) == {Button.DRAW: "Draw", Button.STAND: "Enough", Button.DOUBLE: "Dark card",
                                          Button.AUTO: "Auto"}
    assert game.action_for(Decision(1, 0, "play", ("hit", "stand")), Button.DOUBLE) is None
    assert game.bets_after_deal and game.min_bet == 2


def test_the_attract_lines_say_what_the_rules_in_force_pay():
    assert "Two aces make 21!" in OchkoGame(PROFILE, AUTO).attract_lines()
    other = load_profile("ochko", {"two_aces_21": False, "opening_bank": 200})
    lines = OchkoGame(other, AUTO).attract_lines()
    assert "Two aces make 21!" not in lines and "Stake up to the bank: it opens at 200" in lines
    small = OchkoGame(load_profile("ochko", {"dark_draw": True, "max_bet": 50}), AUTO).attract_lines()
    assert small == ["An open 21 is paid at once: 1 to 1", "Beat the banker: 1 to 1", "Two aces make 21!",
                     "Stakes 2 to 50, up to the bank: it opens at 100"]


def test_a_whole_round_through_the_game_interface_only():
    game = OchkoGame(PROFILE, AUTO)
    rnd = game.start("TS 9S 7H 8S QS 6H KH".split(), [0, 0], [40, 40], [2, 4], None)
    taken = {2: 0, 4: 0}
    presses = {"play": Button.STAND}
    while (d := rnd.pending) is not None:
        action = bet_action(20) if d.kind == "bet" else game.action_for(d, presses["play"])
        assert action is not None and rnd.why_not(d.seat, action) is None
        for e in rnd.act(d.seat, action):
            if e.stake_kind == "bet" and e.seat is not None:
                taken[e.seat] += e.stake
        rnd = game.restore(json.loads(json.dumps(rnd.to_dict())))  # as after a power cut
    money = {s.seat: (s.staked, s.returned) for s in rnd.settlement()}
    assert money == {2: (20, 40), 4: (20, 0)} and taken == {2: 20, 4: 20}  # 18 v 17 wins; 12 v 17 loses
    assert rnd.carry == {"bank": 100, "closed": False}
    assert rnd.result("ochko")["seats"][0]["seat"] == 2


def test_the_command_refuses_a_stake_above_the_uncovered_bank_with_one_line():
    script = json.dumps({"game": "ochko", "shoe": "TS 9S 7H 8S 6S".split(),
                         "seats": [{"bet": 60, "actions": ["stand"]}, {"bet": 50, "actions": ["stand"]}]})
    proc = subprocess.run([sys.executable, "-m", "machine", "round", "-"], input=script, capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [
        "cabinet round: seat 2, hand 1: bet:50 is not allowed: bet 50 is above the uncovered bank of 40 "
        "(the bank 100 less 60 staked by seats waiting for the banker)"]


def test_the_command_plays_a_round_with_the_bank_keys():
    script = "game: ochko\nbank: 150\nshoe: [TS, 9H, 8S, TH]\nseats: [{bet: 10, actions: [auto]}]\n"
    proc = subprocess.run([sys.executable, "-m", "machine", "round", "-"], input=script, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    res = json.loads(proc.stdout)
    assert (res["bank_before"], res["bank_after"], res["stuk"], res["bank_closed"]) == (150, 160, False, False)
    assert hand(res)["cards"] == ["TS", "8S"]  # Auto stands on 18 against a 9


def test_the_example_script_breaks_the_bank():
    from pathlib import Path

    from machine import yamlio

    res = run_round_script(yamlio.load(Path(__file__).resolve().parents[1] / "examples" / "ochko.yaml"), AUTO)
    assert [s["returned"] for s in res["seats"]] == [120, 80] and res["dealer"]["total"] == 23
    assert (res["bank_before"], res["bank_after"], res["bank_closed"], res["stuk"]) == (100, 0, True, False)
