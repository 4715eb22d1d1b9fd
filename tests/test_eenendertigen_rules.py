"""Eenendertigen (seed 001): every rule of other-games.md's page pinned with exact cards, through
``cabinet round`` scripts (all places scripted seats, so no strategy is involved), the Game
through the interface only, refusals through the real CLI, and ``cabinet tournament deals``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from machine.gamemath.eenendertigen import auto_action
from machine.games.catalog import make_game
from machine.games.eenendertigen.deals import tournament_deck, tournament_decks
from machine.games.eenendertigen.round import EenendertigenRound, MoveRefused
from machine.games.eenendertigen.rules import score2, score_text, score_value
from machine.games.interface import RoundError
from machine.profiles import load_profile
from machine.scripts.roundscript import ScriptError, run_round_script

ROOT = Path(__file__).resolve().parents[1]
CLASSIC = load_profile("eenendertigen").rules
MODERN = load_profile("eenendertigen", {"variant": "modern"}).rules


def shoe_of(hands: list[str], table: str, rest: str = "") -> list[str]:
    """The dealing order: one card at a time in place order, then the table, then the stack."""
    cards = [h.split() for h in hands]
    return [cards[p][k] for k in range(3) for p in range(4)] + table.split() + rest.split()


def play(hands, table, actions, bets=(10, 10, 10, 10), variant="classic", rest=""):
    players = ["computer" if a is None else {"bet": b, "actions": a} for a, b in zip(actions, bets, strict=True)]
    script = {"game": "eenendertigen", "rules": {"variant": variant}, "shoe": shoe_of(hands, table, rest),
              "players": players}
    return run_round_script(script, auto=auto_action)


def cards(result: dict[str, Any]) -> list[list[str]]:
    return [p["cards"] for p in result["places"]]


# -- the score ------------------------------------------------------------------------------


@pytest.mark.parametrize(("hand", "score"), [
    ("AH KH QH", 31), ("7S 7C 7D", 30.5), ("AS AH AD", 30.5), ("KH QH AC", 20), ("7H 3H AC", 11),
    ("TS JH KC", 10), ("7C 8C AH", 15), ("9D 9S 8D", 17), ("2C 2D 2S", 30.5),
])
def test_a_hand_scores_its_best_suit_three_of_a_rank_30_5(hand, score):
    assert score_value(score2(hand.split())) == score


# -- classic ----------------------------------------------------------------------------------

HANDS = ["7S 8S 9S", "AH KH 7C", "7D 8D 9D", "TC JC 8C"]  # 24, 21, 24, 28; none of them 31


def test_classic_swap_changes_one_hand_card_with_one_table_card():
    rnd = EenendertigenRound.start(CLASSIC, shoe_of(HANDS, "QH TS JD"), [1, 2, 3, 4], [10] * 4)
    rnd.act(1, "swap:2:3")
    assert rnd.places[0].cards == ["7S", "JD", "9S"] and rnd.table == ["QH", "TS", "8S"]
    assert rnd.places[0].swaps == 1 and not rnd.places[0].passed and rnd.pending.seat == 2


def test_a_31_during_play_knocks_and_every_other_unpassed_place_has_one_more_turn():
    r = play(HANDS, "QH TS JD", [["pass"], [["swap", 3, 1]], ["pass"], [["swap", 1, 3]]])
    assert cards(r)[1] == ["AH", "KH", "QH"] and r["places"][1]["knocked"] and not r["places"][1]["passed"]
    assert cards(r)[3] == ["JD", "JC", "8C"]  # place 4's one more turn: the swap happened, no more
    assert r["ended"] == "31" and r["winners"] == [2] and r["turns"] == 4
    money = [(p["staked"], p["returned"], p["net"]) for p in r["places"]]
    assert money == [(10, 0, -10), (10, 35, 25), (10, 0, -10), (10, 0, -10)]
    with pytest.raises(ScriptError, match="seat 1: 1 action left over"):  # place 1 had passed: no more turn
        play(HANDS, "QH TS JD", [["pass", "pass"], [["swap", 3, 1]], ["pass"], ["pass"]])


def test_31_at_the_deal_knocks_before_the_first_turn_and_the_others_play_once_from_place_1():
    hands = ["7S 8S 9S", "AH KH QH", "7D 8D 9D", "TC JC 8C"]
    r = play(hands, "QS TS JD", [[["swap", 1, 1]], [], ["pass"], ["pass"]])
    assert r["ended"] == "31" and r["turns"] == 3 and r["winners"] == [2]
    assert r["places"][1]["knocked"] and not r["places"][1]["passed"] and r["places"][1]["swaps"] == 0
    assert cards(r)[0] == ["QS", "8S", "9S"]  # 27: place 1 had its one turn


def test_tied_winners_share_win_pays_each_on_its_own_bet_rounded_down():
    hands = ["AH KH QH", "AS KS QS", "7D 8D 9D", "TC JC 8C"]
    r = play(hands, "QD TS JD", [[], [], ["pass"], ["pass"]], bets=(10, 6, 4, 2))
    assert r["winners"] == [1, 2] and r["ended"] == "31"
    assert [p["returned"] for p in r["places"]] == [17, 10, 0, 0]  # floor(35/2), floor(21/2)


def test_swap_all_lets_the_first_player_play_on_and_is_anyone_elses_pass():
    r = play(HANDS, "QH TS JD", [["swap_all", "pass"], ["swap_all"], ["pass"], ["pass"]])
    p1, p2 = r["places"][0], r["places"][1]
    assert cards(r)[0] == ["QH", "TS", "JD"] and p1["swaps"] == 1 and p1["passed"]  # passed at its second turn
    assert cards(r)[1] == ["7S", "8S", "9S"] and p2["passed"] and p2["swaps"] == 1
    assert r["ended"] == "all passed" and r["turns"] == 5


def test_swap_all_by_place_1_after_the_first_turn_is_its_pass():
    then_pass = [["swap", 1, 1], "pass"]
    r = play(HANDS, "QH TS JD", [[["swap", 1, 1], "swap_all"], then_pass, then_pass, then_pass])
    assert r["places"][0]["passed"] and r["places"][0]["swaps"] == 2 and r["turns"] == 8


def test_everyone_but_one_passed_that_place_has_exactly_one_more_turn():
    r = play(HANDS, "QH TS JD", [[["swap", 1, 1], ["swap", 2, 2]], ["pass"], ["pass"], ["pass"]])
    assert r["turns"] == 5 and r["ended"] == "all passed" and not r["places"][0]["passed"]
    assert cards(r)[0] == ["QH", "TS", "9S"]
    with pytest.raises(ScriptError, match="seat 1: 1 action left over"):
        play(HANDS, "QH TS JD", [[["swap", 1, 1], ["swap", 2, 2], "pass"], ["pass"], ["pass"], ["pass"]])


def test_the_fifth_swap_is_a_pass_and_ends_the_round_with_swaps():
    hands = ["7S 8H 9D", "7H 8D 9C", "TS JH QD", "TC JS QH"]
    five = [["swap", 1, 1]] * 5
    r = play(hands, "7C 8C 9H", [five, five, ["pass"], ["pass"]])
    assert [p["swaps"] for p in r["places"]] == [5, 5, 0, 0] and all(p["passed"] for p in r["places"])
    assert r["ended"] == "swaps" and r["turns"] == 12  # place 2's fifth is its one more turn


# -- modern -----------------------------------------------------------------------------------

MHANDS = ["7S 8S 9S", "2H 3H 4H", "2C 3C 4C", "2D 3D 4D"]


def test_modern_take_open_and_draw_discard_card_d_and_keep_the_others_order():
    rnd = EenendertigenRound.start(MODERN, shoe_of(MHANDS, "AS", "KS 5H 6H"), [1, 2, 3, 4], [10] * 4)
    assert rnd.stack == 3
    rnd.act(1, "take_open:1")
    assert rnd.places[0].cards == ["8S", "9S", "AS"] and rnd.table[-1] == "7S"
    rnd.act(2, "draw:1")
    assert rnd.places[1].cards == ["3H", "4H", "KS"] and rnd.table[-1] == "2H" and rnd.stack == 2
    why = rnd.why_not(3, "take_open:4")
    assert why == "the open card just taken may not be discarded in the same turn"
    with pytest.raises(MoveRefused, match=r"^place 3 \(seat 3\): take_open:4 is not allowed: the open card"):
        rnd.act(3, "take_open:4")
    assert rnd.places[2].cards == ["2C", "3C", "4C"] and rnd.table[-1] == "2H"  # nothing changed
    rnd.act(3, "draw")  # the seat sees the card, then chooses
    assert rnd.pending.kind == "discard" and rnd.places[2].cards == ["2C", "3C", "4C", "5H"]
    rnd.act(3, "discard:4")
    assert rnd.places[2].cards == ["2C", "3C", "4C"] and rnd.table[-1] == "5H" and rnd.places[2].swaps == 1


def test_modern_round_ends_at_once_when_the_closed_stack_is_empty():
    r = play(MHANDS, "AS", [[["draw", 4]], [], [], []], variant="modern", rest="KS")
    assert r["ended"] == "stack empty" and r["turns"] == 1 and r["cards_used"] == 14
    assert r["winners"] == [1] and r["places"][0]["swaps"] == 1  # 24 beats 9, 9, 9


def test_modern_with_nothing_left_to_draw_takes_the_open_card_or_passes_and_the_round_ends():
    r = play(MHANDS, "AS", [[["take_open", 1]], [], [], []], variant="modern")
    assert r["ended"] == "stack empty" and cards(r)[0] == ["8S", "9S", "AS"] and r["cards_used"] == 13
    with pytest.raises(ScriptError, match=r"^place 1 \(seat 1\): draw:1 is not allowed: not a move"):
        play(MHANDS, "AS", [[["draw", 1]], [], [], []], variant="modern")


def test_modern_has_no_five_swap_limit():
    rest = "5S 6D 5C 6C 5D 6S 7H 8H 9H TH JH QH"
    r = play(MHANDS, "AS", [[["draw", 4]] * 6 + ["pass"], [["draw", 4]] * 5 + ["pass"], ["pass"], ["pass"]],
             variant="modern", rest=rest)
    assert [p["swaps"] for p in r["places"]] == [6, 5, 0, 0] and r["ended"] == "all passed"
    assert r["turns"] == 15 and r["cards_used"] == 13 + 11 and cards(r)[0] == ["7S", "8S", "9S"]


# -- refusals ---------------------------------------------------------------------------------


def _cli(script: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "machine", "round", "-"], input=json.dumps(script),
                          capture_output=True, text=True, cwd=ROOT, check=False)


def test_a_refused_move_exits_2_with_one_line_naming_place_action_and_why():
    script: dict[str, Any] = {"game": "eenendertigen", "rules": {"variant": "modern"}, "shoe": shoe_of(MHANDS, "AS", "KS"),
              "players": [{"bet": 10, "actions": [["take_open", 4]]}, "computer", "computer", "computer"]}
    out = _cli(script)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip().splitlines() == [
        "cabinet round: place 1 (seat 1): take_open:4 is not allowed: the open card just taken may not be "
        "discarded in the same turn"]
    script["players"][0] = {"bet": 3, "actions": []}
    assert _cli(script).stderr.strip() == "cabinet round: place 1 (seat 1): bet 3 is not a multiple of 2"


@pytest.mark.parametrize(("change", "message"), [
    ({"players": ["computer"] * 3}, "players: must be a list of 4 places"),
    ({"shoe": ["7S"] * 1}, "shoe: classic eenendertigen deals 15 cards, the shoe has 1"),
    ({"shoe": ["2S"]}, "shoe: card 2S is not in this game's deck"),
])
def test_bad_scripts_are_one_line(change, message):
    script = {"game": "eenendertigen", "shoe": shoe_of(HANDS, "QH TS JD"),
              "players": [{"bet": 10, "actions": ["pass"]}, "computer", "computer", "computer"]} | change
    with pytest.raises(ScriptError, match=message):
        run_round_script(script, auto=auto_action)
    with pytest.raises(ScriptError, match=r"place 1: \['swap', 1, 4\] is not an action"):
        play(HANDS, "QH TS JD", [[["swap", 1, 4]], None, None, None])


# -- the Game through the interface only ------------------------------------------------------


def test_the_game_seats_take_places_1_on_computers_fill_the_rest_and_play_to_the_end():
    game = make_game(load_profile("eenendertigen"), auto_action)
    assert game.bets_after_deal is False and len(game.new_shoe()) == 32
    rnd = game.start(tournament_deck("x", "classic", 1), [4, 8], [100, 100], [3, 5])
    assert [p.seat for p in rnd.places] == [3, 5, None, None] and rnd.seat(5).bet == 8
    shown = rnd.shown()
    assert set(shown.hands) == {3, 5} and shown.dealer_title == "TABLE" and shown.max_swaps == 5
    assert [(p.place, p.seat, p.cards, p.score_text) for p in shown.places] == [
        (n + 1, seat, ("??",) * 3, "") for n, seat in enumerate([3, 5, None, None])]  # every hand hidden
    assert shown.hands[3][0].cards == tuple(rnd.seat(3).cards)  # but a seat's own, to that seat
    while (d := rnd.pending) is not None:
        assert all(game.action_for(d, b) in (*d.options, "auto", "pick:hand", "pick:table") for b in game.button_labels(d))
        rnd = game.restore(json.loads(json.dumps(rnd.to_dict())))
        rnd.act(d.seat, game.auto(rnd))
    money = {s.seat: (s.staked, s.returned) for s in rnd.settlement()}
    assert money == {3: (4, rnd.seat(3).returned), 5: (8, rnd.seat(5).returned)}
    assert sum(p.won for p in rnd.places) == len(rnd.winners) >= 1
    end = rnd.shown()  # every hand revealed at the end, with its score and result
    assert [(p.cards, p.score_text, p.won) for p in end.places] == [
        (tuple(p.cards), score_text(score2(p.cards)), p.won) for p in rnd.places]
    assert end.notice.endswith(f"Place {rnd.winners[0]} wins" if len(rnd.winners) == 1 else "share the win")
    with pytest.raises(RoundError, match="4 places: 5 seats cannot all play"):
        game.start(game.new_shoe(), [2] * 5, [100] * 5, [1, 2, 3, 4, 5])


# -- tournament deals -------------------------------------------------------------------------


def test_tournament_decks_are_the_seeds_alone():
    a = tournament_decks("5f3c", "modern")
    assert len(a) == 16 and all(sorted(d) == sorted(tournament_deck("0", "modern", 1)) and len(d) == 52 for d in a)
    assert a == tournament_decks("5f3c", "modern") and a != tournament_decks("5f3d", "modern")
    assert len(set(map(tuple, a))) == 16
    assert tournament_decks("5f3c", "classic", 3)[2] == tournament_deck("5f3c", "classic", 3)
    assert tournament_deck("5f3c", "classic", 1)[:4] == ["7D", "8S", "AD", "QC"]  # pinned: the derivation never drifts


def test_cabinet_tournament_deals_prints_json():
    seed = "5f3c" * 16  # the form the cabinet publishes: 64 hex digits (issue 24, finding 13)
    run = [sys.executable, "-m", "machine", "tournament", "deals", "--seed", seed, "--variant", "classic"]
    out = subprocess.run([*run, "--rounds", "3", "--json"], capture_output=True, text=True, cwd=ROOT, check=True)
    data = json.loads(out.stdout)
    assert data["seed"] == seed and [r["round"] for r in data["rounds"]] == [1, 2, 3]
    assert [r["deck"] for r in data["rounds"]] == tournament_decks(seed, "classic", 3)
    bad = subprocess.run([*run, "--rounds", "0"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1


def test_the_example_and_a_session_play_through_the_same_round():
    from machine import yamlio
    from machine.scripts.session import run_session_script

    r = run_round_script(yamlio.load(ROOT / "examples" / "eenendertigen.yaml"), auto=auto_action)
    assert r["winners"] == [1] and r["ended"] == "31" and r["places"][0]["returned"] == 35
    session = {"game": "eenendertigen", "steps": [
        {"coin": 100}, {"press": "+10"},
        {"press": "start", "shoe": yamlio.load(ROOT / "examples" / "eenendertigen.yaml")["shoe"], "actions": ["swap:3:2"]},
    ]}
    last = run_session_script(session, auto=auto_action)["steps"][-1]
    assert last["round"]["places"][0]["cards"] == ["AH", "KH", "QH"] and last["club"] == 10 - 2 + 7


def test_modern_stack_running_out_during_the_turns_after_a_knock_ends_the_round_at_once():
    hands = ["AH KH 7C", "2D 3D 4D", "2C 3C 4C", "5D 6D 7D"]
    r = play(hands, "QH", [[["take_open", 3]], [["draw", 4]], [["draw", 4]], []], variant="modern", rest="2S 3S")
    assert cards(r)[0] == ["AH", "KH", "QH"] and r["places"][0]["knocked"]
    assert r["ended"] == "31" and r["turns"] == 3 and r["cards_used"] == 15  # place 4 had no turn


def test_swap_all_by_a_later_place_that_makes_31_passes_and_knocks():
    hands = ["7S 8S 9S", "7H 8H 9H", "7D 8D 9D", "TC JC 8C"]
    r = play(hands, "AD KD QD", [["pass"], ["swap_all"], ["pass"], ["pass"]])
    p2 = r["places"][1]
    assert cards(r)[1] == ["AD", "KD", "QD"] and p2["passed"] and p2["knocked"] and p2["swaps"] == 1
    assert r["ended"] == "31" and r["winners"] == [2] and r["turns"] == 4


def test_the_notice_says_what_the_other_places_did_since_the_seats_last_turn():
    rnd = EenendertigenRound.start(CLASSIC, shoe_of(HANDS, "QH TS JD", "8H 9H"), [1, 2, 3, 4], [2, 2, 2, 2])
    assert rnd.shown().notice == ""  # the very first turn
    rnd.act(1, "swap:1:1")
    rnd.act(2, "swap_all")  # not the first player: it passes with it
    rnd.act(3, "pass")
    assert rnd.shown().notice == "Place 1 swapped · Place 2 swapped all three · Place 3 passed"
    rnd.act(4, "swap:3:2")
    assert rnd.shown().notice == "Place 2 swapped all three · Place 3 passed · Place 4 swapped"  # place 1 again
    from machine.display.gamewords import say
    from machine.i18n import Words

    assert say(Words("nl"), rnd.shown().notice) == "Plaats 2 ruilde alle drie · Plaats 3 paste · Plaats 4 ruilde"
