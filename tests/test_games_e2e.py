"""Each game of the family end to end, headless, through the real serial links.

The bus simulator runs as its own process on a pty and the panel simulator on another; the
tests insert coins and press buttons only through them and read the lamps from the simulated
panel. Each game's round is dealt from a stacked shoe whose first cards are written here.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hardware.buttons import Button

from machine.devtools.harness import SimulatedCabinet
from machine.games.cards import shuffle
from machine.games.catalog import make_game
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from machine.profiles import load_profile
from tests.e2e_helpers import lamps, press, ready, run_until
from tests.helpers import pin_setting

pytestmark = pytest.mark.timeout(120)


def config(game: str, data_dir) -> str:
    return f"""
seats: 2
game: {game}
games_enabled: [{game}]
coins: {{EU050A: 5, EU100A: 10, EU200A: 20}}
decision_timeout: 1.5
betting_time: 3  # a bet decision after the deal runs against it (other-games.md)
data_dir: {data_dir}
devices:
  panel: sim
  bus: sim
  acceptors: {{1: 2, 2: 11}}
  hoppers: [{{address: 3, seats: [1, 2]}}]
""" + pin_setting()


def stacked(game: str, *tops: str):
    """Round n is dealt from ``tops[n - 1]`` and then the rest of the game's own shoe, shuffled."""
    cards = make_game(load_profile(game), lambda rnd: "").new_shoe()

    def shoes(round_no: int) -> list[str]:
        top = tops[round_no - 1].split() if round_no <= len(tops) else []
        rest = Counter(cards)
        rest.subtract(top)
        return top + shuffle(sorted(rest.elements()), random.Random(round_no))

    return shoes


def open_app(game: str, tmp_path, *tops: str) -> SimulatedCabinet:
    cfg = temporary(parse_config(config(game, tmp_path), "e2e.yaml"), tmp_path)
    return SimulatedCabinet(cfg, tmp_path, headless=True, shoes=stacked(game, *tops))


def coins_and_bets(app: SimulatedCabinet) -> None:
    """Seat 1 puts in 60 points, seat 2 40; each sets the minimum bet of 2 and presses Start."""
    cab, sims = app.cab, app.sims
    ready(app)
    for _ in range(3):
        sims.bus.control.coin(2, "EU200A")
    for _ in range(2):
        sims.bus.control.coin(11, "EU200A")
    run_until(app, lambda: cab.seats[1].money.credit == 60 and cab.seats[2].money.credit == 40, what="coins")
    for n in (1, 2):
        press(app, n, "+2", lambda n=n: cab.seats[n].money.bet == 2)
    press(app, 1, "start", lambda: cab.seats[1].ready)
    press(app, 2, "start", lambda: cab.round is not None, what="the round to start")


# -- ochko: seat 1 T, seat 2 9, the banker's up card 7; seat 1 stakes 2 and draws A: 21, paid at
# once from the bank; seat 2's stake is left to the clock (Auto: the minimum), it draws 8 (17)
# and says enough; the banker 7 K(4) 8 = 19 takes seat 2's stake. The bank ends where it began.
OCHKO_ROUND = "TS 9H 7D AC 8S KD 8H"


# slow: a scripted round and a restart of the cabinet on the simulators, in real time
def test_ochko_end_to_end_the_bank_moves_at_once_and_carries_across_a_restart(tmp_path):
    app = open_app("ochko", tmp_path, OCHKO_ROUND)
    try:
        cab = app.cab
        coins_and_bets(app)
        rnd = cab.round
        assert rnd.pending.seat == 1 and rnd.pending.kind == "bet"
        assert (cab.seats[1].money.club, cab.seats[2].money.club) == (10, 10)  # nothing staked at the deal
        assert lamps(app, 1) == {"start", "auto"}  # the quarter-of-club cap leaves only the minimum
        assert lamps(app, 2) == set()
        assert rnd.shown().bank == 100 and rnd.shown().hands[1][0].cards == ("TS",)
        press(app, 1, "start", lambda: cab.round.pending.seat == 2, what="seat 1's stake and its 21")
        assert cab.round.bank == 98  # seat 1's 21 paid from the bank at once
        assert cab.revealing == {1} and lamps(app, 2) == set()  # the 21 held on every screen: seat 2 waits
        run_until(app, lambda: not cab.revealing, what="the 21's hold to end")
        assert lamps(app, 2) == {"start", "auto"}
        run_until(app, lambda: cab.round.pending.kind == "play", what="seat 2's stake by the clock")
        assert lamps(app, 2) == {"draw", "stand", "auto"}  # no dark card: the table does not play it
        press(app, 2, "stand", lambda: cab.round is None, what="the banker's turn and the settlement")
        g1, g2 = (cab.journal.records("game", seat=n)[-1].data for n in (1, 2))
        assert g1["dealer"]["cards"] == ["7D", "KD", "8H"] and g1["bank_before"] == 100 and g1["bank_after"] == 100
        assert g1["seat"]["staked"] == 2 and g1["seat"]["returned"] == 4
        assert g2["seat"]["staked"] == 2 and g2["seat"]["returned"] == 0
        assert [d["by"] for d in g2["decisions"]] == ["timeout", "player"]
        assert (cab.seats[1].money.club, cab.seats[2].money.club) == (12, 8)
        assert cab.carry == {"bank": 100, "closed": False}
        assert cab.journal.verify() == []
    finally:
        app.close()
    again = open_app("ochko", tmp_path)
    try:
        assert again.cab.carry == {"bank": 100, "closed": False}
        assert (again.cab.seats[1].money.club, again.cab.seats[2].money.club) == (12, 8)
    finally:
        again.close()


# -- eenentwintig: closed cards seat 1 7S, seat 2 9H, the bank KD; open cards 8D, AC, TC. Seat 1
# bets by Start, seat 2 by the clock; seat 1 washes its 7 + 8 for A A (20.5) and passes; seat 2
# is left to the clock (Auto passes on 20); the bank turns K(4) + T = 14, draws 8 and busts.
EEN_ROUND = "7S 9H KD 8D AC TC AH AD 8C"


# slow: scripted rounds with the decision clock run out on the simulators, in real time
def test_eenentwintig_end_to_end_deal_then_bet_wash_and_the_bank_closed_until_its_turn(tmp_path):
    from machine.games.interface import FACE_DOWN

    app = open_app("eenentwintig", tmp_path, EEN_ROUND)
    try:
        cab = app.cab
        coins_and_bets(app)
        table = cab.round.shown()
        assert table.hands[1][0].cards == (FACE_DOWN, "8D")  # the closed card stays closed until the bets are in
        assert table.dealer_cards == (FACE_DOWN, FACE_DOWN) and table.dealer_title == "BANK"
        assert (cab.seats[1].money.club, cab.seats[2].money.club) == (10, 10)  # nothing staked at the deal
        assert lamps(app, 1) == {"start", "auto"}
        press(app, 1, "start", lambda: cab.round.pending.seat == 2, what="seat 1's bet")
        run_until(app, lambda: cab.round.pending.kind == "play", what="seat 2's bet by the clock")
        assert cab.round.shown().hands[1][0].cards == ("7S", "8D")  # every bet in: the closed cards turned
        assert cab.round.shown().dealer_cards == (FACE_DOWN, FACE_DOWN)
        assert lamps(app, 1) == {"draw", "stand", "double", "auto"}  # Double stands for Wash here
        assert cab.button_labels(1)[Button.DOUBLE] == "Wash"
        press(app, 1, "double", lambda: cab.round.shown().hands[1][0].total_text == "20.5", what="the wash")
        press(app, 1, "stand", lambda: cab.round.pending.seat == 2)
        run_until(app, lambda: cab.round is None, what="seat 2's pass by the clock and the bank's turn")
        g1, g2 = (cab.journal.records("game", seat=n)[-1].data for n in (1, 2))
        h1 = g1["seat"]["hands"][0]
        assert h1["cards"] == ["AH", "AD"] and h1["washed"] == ["7S", "8D"] and h1["total"] == 20.5
        assert h1["result"] == "win" and g1["seat"]["returned"] == 4
        assert g1["dealer"]["cards"] == ["KD", "TC", "8C"] and g1["dealer"]["bust"]
        assert [d["by"] for d in g2["decisions"]] == ["timeout", "timeout"] and g2["seat"]["returned"] == 4
        assert (cab.seats[1].money.club, cab.seats[2].money.club) == (12, 12)
        assert cab.journal.verify() == []
    finally:
        app.close()


# -- casino blackjack with late surrender (an operator's setting; the panel has no Surrender
# button, so Insurance stands for it where it is offered). Hole-card deal: seat 1 TS, seat 2 9S,
# the up card TC, seat 1 6H, seat 2 6D, the hole card 7C (the dealer peeks: no blackjack).
# Seat 1 draws 2H (18): its Insurance lamp is dark, surrender being a first decision only; it
# stands. Seat 2 surrenders 15 with the Insurance button and gets half back; the dealer's 17
# stands; seat 1's 18 wins.
CASINO_ROUND = "TS 9S TC 6H 6D 7C 2H"


def test_casino_blackjack_surrender_is_pressed_on_the_insurance_button_only_where_offered(tmp_path, monkeypatch):
    import shutil

    from machine.profiles import config_dir

    folder = tmp_path / "config"
    shutil.copytree(config_dir(), folder)
    profile = folder / "games" / "casino-blackjack.yaml"
    profile.write_text(profile.read_text().replace("surrender: none", "surrender: late"))
    monkeypatch.setenv("CABINET_CONFIG", str(folder))
    app = open_app("casino-blackjack", tmp_path, CASINO_ROUND)
    try:
        cab = app.cab
        coins_and_bets(app)
        assert cab.round.pending.seat == 1 and "surrender" in cab.round.pending.options
        assert lamps(app, 1) == {"draw", "stand", "double", "insurance", "auto"}
        assert cab.button_labels(1)[Button.INSURANCE] == "Surrender"
        press(app, 1, "draw", lambda: len(cab.round.seat(1).hands[0].cards) == 3)
        assert lamps(app, 1) == {"draw", "stand", "auto"}  # no surrender after the first decision
        press(app, 1, "stand", lambda: cab.round.pending.seat == 2)
        assert "insurance" in lamps(app, 2) and cab.button_labels(2)[Button.INSURANCE] == "Surrender"
        press(app, 2, "insurance", lambda: cab.round is None, what="seat 2's surrender and the dealer")
        g1, g2 = (cab.journal.records("game", seat=n)[-1].data for n in (1, 2))
        assert g2["seat"]["hands"][0]["result"] == "surrender" and g2["seat"]["returned"] == 1
        assert g1["seat"]["hands"][0]["cards"] == ["TS", "6H", "2H"] and g1["seat"]["returned"] == 4
        assert g1["dealer"]["cards"] == ["TC", "7C"]
        assert [d["action"] for d in g2["decisions"]] == ["surrender"]
    finally:
        app.close()


# -- eenendertigen (classic): seat 1 7H 8C 9D in place 1, seat 2 9C TC JC in place 2, computer
# players in places 3 and 4; the table AS KS QS. Seat 1 moves its frames with Draw (hand card 2)
# and Split (table card 2) and swaps 8C for KS with Double; seat 2 is left to the clock (Auto);
# seat 1 passes at its next turn; the computer players play to the end.
EEN31_ROUND = "7H 9C 7S 7D 8C TC 8S 8D 9D JC 9S 9H AS KS QS"


def test_eenendertigen_end_to_end_card_picks_on_the_panel_and_the_clock_for_seat_2(tmp_path):
    app = open_app("eenendertigen", tmp_path, EEN31_ROUND)
    try:
        cab = app.cab
        coins_and_bets(app)
        rnd = cab.round
        assert [p.seat for p in rnd.places] == [1, 2, None, None] and rnd.pending.seat == 1
        assert (cab.seats[1].money.club, cab.seats[2].money.club) == (8, 8)  # the bets staked before the deal
        assert lamps(app, 1) == {"draw", "split", "double", "insurance", "stand", "auto"}
        assert lamps(app, 2) == set()
        press(app, 1, "draw", lambda: cab.picks(1) == {"hand": 2, "table": 1}, what="the hand frame on card 2")
        press(app, 1, "split", lambda: cab.picks(1) == {"hand": 2, "table": 2}, what="the table frame on card 2")
        press(app, 1, "double", lambda: cab.round is None or cab.round.pending is None or cab.round.pending.seat != 1,
              what="the swap")
        first = next(e for e in rnd.events if e.kind == "move")
        assert (first.seat, first.action, first.took, first.gave) == (1, "swap:2:2", ("KS",), ("8C",))
        run_until(app, lambda: cab.round is None or cab.round.pending.seat == 1, what="seat 2 by the clock, the computers")
        if cab.round is not None:
            press(app, 1, "stand", lambda: cab.round is None or cab.round.pending.seat != 1, what="seat 1's pass")
        run_until(app, lambda: cab.round is None, timeout=30, what="the round's end")
        g1, g2 = (cab.journal.records("game", seat=n)[-1].data for n in (1, 2))
        assert g1["moves"][0] == {"kind": "move", "seat": 1, "place": 1, "action": "swap:2:2", "took": ["KS"], "gave": ["8C"]}
        assert g1["decisions"][0] == {"seat": 1, "hand": None, "kind": "play", "action": "swap:2:2", "by": "player"}
        assert g2["decisions"] and {d["by"] for d in g2["decisions"]} == {"timeout"}
        assert [p["cards"][:1] for p in g1["places"]][0] == ["7H"] and len(g1["places"]) == 4
        for n, g in ((1, g1), (2, g2)):
            assert g["seat"]["staked"] == 2 and cab.seats[n].money.club == 8 + g["seat"]["returned"]
            assert g["seat"]["returned"] == (7 // len(g1["winners"]) if g["seat"]["place"] in g1["winners"] else 0)
        assert cab.journal.verify() == []
    finally:
        app.close()


# -- an eenendertigen tournament through the links: the operator opens it (here through the
# cabinet's input, as the menu does), seat 2 enters "AB" with Draw and Double and plays its
# 16 rounds with Auto and Start alone against three computer players; every round is dealt
# from the tournament's deck for that round, unstaked; the ranking list has the participant.
def test_an_eenendertigen_tournament_end_to_end_name_entry_and_sixteen_rounds_on_the_panel(tmp_path):
    from machine.core.tournament import CHARACTERS
    from machine.games.eenendertigen.deals import tournament_decks

    seed = "ab" * 32
    app = open_app("eenendertigen", tmp_path)
    try:
        cab = app.cab
        ready(app)
        with app.lock:
            cab.open_tournament("classic", 0, [], None, None, seed, app.clock(), "operator")
        assert cab.tournament_in_force and lamps(app, 2) == {"start", "insurance"}  # Insurance: the language
        press(app, 2, "start", lambda: cab.tournament_seat() is not None, what="the name entry")
        for ch in "AB":
            while CHARACTERS[entry(cab)["char"]] != ch:
                press(app, 2, "draw", what="the next character")
            press(app, 2, "double", what="the character taken")
        assert entry(cab)["name"] == "AB"
        press(app, 2, "start", lambda: cab.round is not None, what="round 1")
        while (a := cab.tournament_seat()) is not None:
            button = "start" if cab.round is None else "auto"
            press(app, 2, button, what=f"round {a['progress']['rounds'] + 1}")
        starts = [r.data for r in cab.journal.records("round_start")]
        assert [s["shoe"] for s in starts] == tournament_decks(seed, "classic")
        assert all(set(s["bets"].values()) == {0} for s in starts)  # unstaked
        rows = entry(cab, cab.tournament)["ranking"]
        assert [(r["rank"], r["name"], r["rounds"]) for r in rows] == [(1, "AB", 16)]
        assert cab.seats[2].money.club == 0 and cab.journal.verify() == []
    finally:
        app.close()


def entry(cab, shown=None) -> dict:
    """The seat's tournament entry (or ``shown``), there by the test's own steps."""
    got = cab.tournament_seat() if shown is None else shown
    assert got is not None
    return got
