"""`cabinet session` for the games that bet after the deal: Start deals the seat in with
nothing staked, the bet decision takes the step's `bet:` (or the bet set on the buttons) within
the quarter-of-club cap, and ochko's bank carries from one round of the session to the next."""

from __future__ import annotations

import pytest

from machine.gamemath.engines import auto_for
from machine.scripts.roundscript import ScriptError
from machine.scripts.session import run_session_script


def steps(game: str, *rounds: dict) -> list[dict]:
    out: list[dict] = []
    for r in rounds:
        out += [{"coin": 100}, {"press": "+2"}, {"press": "start", **r}]
    return out


def test_an_ochko_session_carries_the_bank_and_stakes_at_the_bet_decision():
    # round 1: seat T, banker 7; the seat stakes 2 (the bet on the buttons) and draws A: 21,
    # paid from the bank at once (100 -> 98). Round 2: seat 9, banker 7; stake 2, 8: 17,
    # enough; the banker 7 K(4) 8 = 19 wins the stake (98 -> 100).
    out = run_session_script({"game": "ochko", "steps": steps(
        "ochko",
        {"shoe": ["TS", "7D", "AC"]},
        {"shoe": ["9H", "7D", "8S", "KD", "8H"], "bet": 2, "actions": ["stand"]},
    )}, auto=auto_for("ochko"))["steps"]
    r1, r2 = out[2], out[5]
    assert (r1["credit"], r1["club"]) == (90, 10 - 2 + 4)
    assert r1["round"]["bank_before"] == 100 and r1["round"]["bank_after"] == 98
    assert r2["round"]["bank_before"] == 98 and r2["round"]["bank_after"] == 100
    assert r2["round"]["seats"][0]["staked"] == 2 and r2["round"]["seats"][0]["returned"] == 0
    assert (r2["credit"], r2["club"]) == (180, 12 + 10 - 2)


def test_an_eenentwintig_session_bets_after_the_open_card():
    # seat 7 (closed) and 8 (open), the bank 9 and T (both closed): the seat bets 2, passes on
    # 15 and loses to the bank's 19
    out = run_session_script({"game": "eenentwintig", "steps": steps(
        "eenentwintig", {"shoe": ["7S", "9H", "8D", "TC"], "actions": ["stand"]},
    )}, auto=auto_for("eenentwintig"))["steps"]
    r = out[2]["round"]
    assert r["dealer"]["cards"] == ["9H", "TC"] and r["seats"][0]["hands"][0]["cards"] == ["7S", "8D"]
    assert r["seats"][0]["staked"] == 2 and r["seats"][0]["returned"] == 0
    assert (out[2]["credit"], out[2]["club"]) == (90, 8)


def test_a_session_bet_above_a_quarter_of_the_club_meter_is_refused_in_one_line():
    script = {"game": "eenentwintig", "steps": steps(
        "eenentwintig", {"shoe": ["7S", "9H", "8D", "TC"], "bet": 10, "actions": ["stand"]},
    )}
    with pytest.raises(ScriptError, match=r"^steps\[2\]: bet 10 is above a quarter of the club meter \(10\)$"):
        run_session_script(script, auto=auto_for("eenentwintig"))


def test_an_eenendertigen_session_stakes_the_bet_on_the_buttons_for_each_round():
    # P1 7H 8C 9D takes the table's AS KS QS with swap_all on the very first turn: 31, it knocks
    # and wins floor(3.5 x 2) = 7; next round it swaps 7H for AS (AS 8C 9D) and passes
    deal = ["7H", "9C", "7S", "7D", "8C", "TC", "8S", "8D", "9D", "JC", "9S", "9H", "AS", "KS", "QS"]
    out = run_session_script({"game": "eenendertigen", "steps": [
        {"coin": 20}, {"press": "+2"}, {"press": "start", "shoe": deal, "actions": ["swap_all"]},
        {"press": "+2"}, {"press": "start", "shoe": deal, "actions": [["swap", 1, 1], "pass"]},
    ]}, auto=auto_for("eenendertigen"))["steps"]
    first, second = out[2]["round"], out[4]["round"]
    assert first["places"][0]["cards"] == ["AS", "KS", "QS"] and first["winners"] == [1] and first["ended"] == "31"
    assert (first["places"][0]["staked"], first["places"][0]["returned"]) == (2, 7)
    assert (out[2]["credit"], out[2]["club"]) == (10, 10 - 2 + 7)
    assert second["places"][0]["cards"][0] == "AS" and second["places"][0]["passed"]
    assert (out[3]["credit"], out[3]["club"]) == (0, 25)  # the +2 opening the game moved 10 more to the club
    assert out[4]["club"] == 25 - 2 + second["places"][0]["returned"]
