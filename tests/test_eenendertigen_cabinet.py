"""Eenendertigen hosted by the cabinet core through the game interface alone: the seats that
press Start take places 1.. and computer players fill the rest; the card picks moved with the
panel buttons (their lamps and labels) and by a touch; modern's take and draw as two steps; the
money through the club meter; recall with every place and move; a power cut mid-round; a fifth
seat waiting for the next round."""

from __future__ import annotations

import dataclasses

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.games.interface import Button
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes

# the deal goes one card at a time in place order: place 1 gets the 1st, 5th and 9th card
CLASSIC = "7H 9C 7S 7D 8C TC 8S 8D 9D JC 9S 9H AS KS QS"  # P1 7H 8C 9D, P2 9C TC JC; table AS KS QS


def boot(tmp, shoes, seats=2, variant="classic"):
    profile = load_profile("eenendertigen")
    profile = dataclasses.replace(profile, rules=profile.rules.with_overrides({"variant": variant}))
    return open_cabinet(tmp / "journal.sqlite", profile, CabinetSettings(seats=seats),
                        lambda p: make_game(p, auto_for(p.engine)), shoes, memory(tmp), create=True)


def seated(cab, seats, now=0):
    for n in seats:
        assert cab.coin(n, "EU200A", now) and cab.press(n, "+2", now)
    for n in seats:
        cab.press(n, "start", now + 1)


def test_classic_with_the_panel_buttons_and_a_touch(tmp_path):
    cab = boot(tmp_path, stacked_shoes(CLASSIC))
    seated(cab, (1, 2))
    rnd = cab.round
    assert [p.seat for p in rnd.places] == [1, 2, None, None]
    assert [p.cards for p in rnd.places[:2]] == [["7H", "8C", "9D"], ["9C", "TC", "JC"]] and rnd.table == ["AS", "KS", "QS"]
    assert {n: cab.seats[n].money.club for n in (1, 2)} == {1: 8, 2: 8}  # 10 moved to the club, the bet 2 staked before the deal
    assert set(cab.live(1)) == {Button.DRAW, Button.SPLIT, Button.DOUBLE, Button.INSURANCE, Button.STAND, Button.AUTO}
    assert cab.button_labels(1) == {Button.DRAW: "Hand card", Button.SPLIT: "Table card", Button.DOUBLE: "Swap",
                                    Button.INSURANCE: "Swap all three", Button.STAND: "Pass", Button.AUTO: "Auto"}
    assert cab.live(2) == [] and cab.picks(1) == {"hand": 1, "table": 1} and cab.picks(2) == {}
    for b in ("draw", "draw", "draw", "draw", "split"):  # the hand frame goes round: 2, 3, 1, 2
        assert cab.press(1, b, 2)
    assert cab.picks(1) == {"hand": 2, "table": 2}
    assert not cab.press(2, "draw", 2) and cab.picks(1) == {"hand": 2, "table": 2}  # not seat 2's turn
    cab.press(1, "double", 3)  # swap hand card 2 (8C) with table card 2 (KS)
    assert rnd.places[0].cards == ["7H", "KS", "9D"] and rnd.table == ["AS", "8C", "QS"]
    move = rnd.events[-1]
    assert (move.seat, move.place, move.action, move.took, move.gave) == (1, 1, "swap:2:2", ("KS",), ("8C",))
    assert cab.seats[1].picks == {}  # the picks were for that swap
    assert not cab.touch(1, "hand:1", 4)  # seat 1's turn is over: a touch does nothing
    assert cab.touch(2, "table:1", 4) and cab.picks(2) == {"hand": 1, "table": 1} and rnd.pending.seat == 2
    assert cab.touch(2, "hand:3", 5)  # both cards touched: JC and AS change places
    assert rnd.places[1].cards == ["9C", "TC", "AS"]
    assert next(e for e in rnd.events if e.kind == "move" and e.place == 2).action == "swap:3:1"
    assert rnd.pending is None or rnd.pending.seat in (1, 2)  # the computer players moved inside the round


def test_swap_all_pass_and_the_money_and_recall_of_a_whole_round(tmp_path):
    cab = boot(tmp_path, stacked_shoes(CLASSIC))
    seated(cab, (1, 2))
    cab.press(1, "insurance", 2)  # swap all three on the round's very first turn: seat 1 plays on
    rnd = cab.round
    assert rnd.places[0].cards == ["AS", "KS", "QS"] and not rnd.places[0].passed
    assert rnd.places[0].knocked  # 31 after its turn: it knocks, every other place gets one more turn
    cab.press(2, "stand", 3)  # seat 2 passes its one more turn; the computers take theirs
    assert cab.round is None
    game = cab.journal.records("game", seat=1)[-1].data
    assert game["winners"] == [1] and game["ended"] == "31" and game["seat"]["place"] == 1
    assert game["seat"]["cards"] == ["AS", "KS", "QS"] and game["seat"]["score"] == 31 and game["seat"]["returned"] == 7
    assert [p["place"] for p in game["places"]] == [1, 2, 3, 4] and game["places"][1]["passed"]
    assert game["moves"][:3] == [
        {"kind": "move", "seat": 1, "place": 1, "action": "swap_all", "took": ["AS", "KS", "QS"], "gave": ["7H", "8C", "9D"]},
        {"kind": "knock", "seat": 1, "place": 1},
        {"kind": "pass", "seat": 2, "place": 2, "by": "pass"},
    ]
    assert [d["action"] for d in game["decisions"]] == ["swap_all"]
    assert cab.seats[1].money.club == 8 + 7 and cab.seats[2].money.club == 8  # floor(3.5 x 2) back; seat 2 lost its 2
    m1, m2 = cab.seats[1].meters, cab.seats[2].meters
    assert (m1.lifetime["games_won"], m1.lifetime["total_bet"], m1.lifetime["total_won"]) == (1, 2, 7)
    assert (m2.lifetime["games_lost"], m2.lifetime.get("total_won", 0)) == (1, 0)


MODERN = "7H 9C 7S 7D 8C TC 8S 8D 9D JC 9S 9H 2H 3H 4H"  # P1 7H 8C 9D, P2 9C TC JC; open 2H; stack 3H 4H ...


def test_modern_take_and_draw_are_two_steps_with_the_discard_chosen_seeing_four_cards(tmp_path):
    cab = boot(tmp_path, stacked_shoes(MODERN), variant="modern")
    seated(cab, (1, 2))
    rnd = cab.round
    assert rnd.rules.variant == "modern" and rnd.table == ["2H"] and rnd.stack == 52 - 13
    assert cab.button_labels(1) == {Button.DRAW: "Draw from the stack", Button.SPLIT: "Take the open card",
                                    Button.STAND: "Pass", Button.AUTO: "Auto"}
    cab.press(1, "split", 2)  # take the open card 2H: four cards, the discard to choose
    assert rnd.places[0].cards == ["7H", "8C", "9D", "2H"] and rnd.pending.kind == "discard"
    assert rnd.pending.options == ("discard:1", "discard:2", "discard:3")  # the card just taken stays
    assert cab.button_labels(1) == {Button.DRAW: "Hand card", Button.DOUBLE: "Discard", Button.AUTO: "Auto"}
    cab.press(1, "draw", 3)
    cab.press(1, "draw", 3)
    cab.press(1, "draw", 3)  # 2, 3, and round to 1 (card 4 may not be discarded)
    assert cab.picks(1) == {"hand": 1}
    cab.press(1, "draw", 3)
    cab.press(1, "double", 4)  # discard 8C
    assert rnd.places[0].cards == ["7H", "9D", "2H"] and rnd.table[-1] == "8C"
    move = [e for e in rnd.events if e.kind == "move"][0]
    assert (move.action, move.took, move.gave) == ("take_open:2", ("2H",), ("8C",))  # one move, as a script writes it
    assert cab.touch(2, "stack", 5)  # seat 2 draws the stack's top, 3H, and chooses by a touch
    assert rnd.places[1].cards == ["9C", "TC", "JC", "3H"] and rnd.pending.options[-1] == "discard:4"
    assert cab.touch(2, "hand:4", 6)  # the drawn card itself may go
    assert rnd.places[1].cards == ["9C", "TC", "JC"] and [e for e in rnd.events if e.kind == "move"][1].action == "draw:4"


def test_a_power_cut_mid_round_resumes_it_with_the_picks(tmp_path):
    cab = boot(tmp_path, stacked_shoes(CLASSIC))
    seated(cab, (1, 2))
    cab.press(1, "draw", 2)
    cab.press(1, "split", 2)
    cab.press(1, "split", 2)
    before = cab.round.to_dict()
    cab.journal.close()
    cab = boot(tmp_path, stacked_shoes("6S 6C 6D 6H"))  # other shoes: must not be used
    assert cab.round.to_dict() == before and cab.picks(1) == {"hand": 2, "table": 3}
    cab.press(1, "double", 3)
    assert cab.round.places[0].cards == ["7H", "QS", "9D"]


def test_four_places_the_fifth_ready_seat_waits_for_the_next_round(tmp_path):
    cab = boot(tmp_path, stacked_shoes(CLASSIC), seats=5)
    seated(cab, (1, 2, 3, 4, 5))
    assert [p.seat for p in cab.round.places] == [1, 2, 3, 4]
    five = cab.seats[5]
    assert five.money.bet == 2 and five.ready and not cab.in_round(5) and five.money.club == 10  # nothing staked yet
    while cab.round is not None:
        cab.press(cab.round.pending.seat, "auto", 9)
    assert five.ready and cab.betting_since == 9  # the betting time runs for the next round
    cab.tick(9 + cab.settings.betting_time)
    assert cab.round is not None and cab.round.seat_numbers == [5]
