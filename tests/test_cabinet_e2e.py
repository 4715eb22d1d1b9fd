"""End to end, headless, through the real serial links: the whole cabinet against its simulators.

The bus simulator runs as its own process on a pty and the panel simulator on another pty; the
test presses buttons and inserts coins only through them, and reads what the cabinet did from
the lamps, the journal and the hopper's own count of coins that left it.
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest

from machine.devtools.harness import SimulatedCabinet
from machine.games.cards import new_shoe, shuffle
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from tests.e2e_helpers import lamps, press, ready, run_until
from tests.helpers import two_seats

pytestmark = pytest.mark.timeout(120)

CONFIG = two_seats("decision_timeout: 1.5", "betting_time: 30")

# Round 1: seat 1 8-8 against a 6 splits, doubles the left 11 (+9 = 20), draws to the right
# 10 (+7 = 17) and stands; seat 2 doubles 6-4 (+T = 20); the dealer 6 T 9 busts.
# Round 2: the up card is an ace; seat 1 takes insurance, seat 2 lets the time run out (Auto);
# seat 1 stands on 18, seat 2 lets the time run out again; the dealer A 7 = soft 18.
ROUND_1 = "8S 6C 6H 8D 4C 3C 9S 2C 7D TC TH 9H"
ROUND_2 = "9S TD AH 9D 7S 7C"


def shoes(round_no: int) -> list[str]:
    top = {1: ROUND_1, 2: ROUND_2}.get(round_no, "").split()
    rest = Counter(new_shoe(6))
    rest.subtract(top)
    return top + shuffle(sorted(rest.elements()), random.Random(round_no))


@pytest.fixture
def app(tmp_path):
    cfg = temporary(parse_config(CONFIG, "e2e.yaml"), tmp_path)
    a = SimulatedCabinet(cfg, tmp_path, headless=True, shoes=shoes)
    yield a
    a.close()


# slow: real decision timeouts and a hopper payout coin by coin on the simulators
def test_two_seats_coins_bets_every_decision_timeouts_collect_and_payout(app):
    cab, sims = app.cab, app.sims
    ready(app)
    # -- coins on two seats through the bus simulator ----------------------------------------
    for _ in range(3):
        sims.bus.control.coin(2, "EU200A")
        sims.bus.control.coin(11, "EU100A")
    run_until(app, lambda: cab.seats[1].money.credit == 60 and cab.seats[2].money.credit == 30, what="coins")
    assert cab.seats[1].meters.get("coin_in_count:EU200A") == 3 and cab.seats[2].meters.get("total_in") == 30
    run_until(app, lambda: True)
    assert lamps(app, 1) == {"+2", "+10", "max", "collect", "insurance"}  # x2, repeat dead without a bet; Insurance: language

    # -- round 1: each bet button -----------------------------------------------------------------
    s1, s2 = cab.seats[1].money, cab.seats[2].money
    app.sims.panel.tap(1, "x2")  # dead: no bet yet
    press(app, 1, "+10", lambda: s1.bet == 2)  # min(0 + 10, max 2): the 10-point transfer happened
    assert (s1.credit, s1.club) == (50, 10)
    press(app, 2, "+2", lambda: s2.bet == 2)
    press(app, 1, "start", lambda: cab.seats[1].ready)
    press(app, 2, "start", lambda: cab.round is not None, what="the round to start")
    assert lamps(app, 1) >= {"split", "draw", "stand", "auto"}
    press(app, 1, "split", lambda: len(cab.round.seat(1).hands) == 2)
    press(app, 1, "double", lambda: cab.round.pending.hand == 1)
    press(app, 1, "draw", lambda: len(cab.round.seat(1).hands[1].cards) == 3)
    press(app, 1, "stand", lambda: cab.round.pending.seat == 2)
    press(app, 2, "double", lambda: cab.round is None, what="round 1 to settle")
    assert (s1.credit, s1.club) == (50, 16)  # club 10 - 2 - 2 - 2 + 8 + 4
    assert (s2.credit, s2.club) == (20, 14)  # club 10 - 2 - 2 + 8

    # -- round 2: repeat, x2, +2, max; insurance; two timeouts that Auto decides -------------------
    press(app, 1, "repeat", lambda: s1.bet == 2)
    press(app, 1, "x2", lambda: s1.bet == 4)
    press(app, 1, "+2", lambda: s1.bet == 6)  # max is (16 + 10) / 4 -> 6
    assert "max" not in lamps(app, 1)
    press(app, 2, "max", lambda: s2.bet == 6)
    press(app, 1, "start", lambda: cab.seats[1].ready)
    press(app, 2, "start", lambda: cab.round is not None)
    assert cab.round.pending.kind == "insurance" and "insurance" in lamps(app, 1)
    press(app, 1, "insurance", lambda: cab.round.pending.seat == 2)
    assert cab.decision_time_left(app.clock()) is not None  # two seats: the countdown runs
    run_until(app, lambda: cab.round.pending.kind == "play", what="seat 2's insurance timeout")
    press(app, 1, "stand", lambda: cab.round.pending.seat == 2)
    run_until(app, lambda: cab.round is None, what="seat 2's play timeout")
    games = {n: [r.data for r in cab.journal.records("game", seat=n)] for n in (1, 2)}
    g1, g2 = games[1][1], games[2][1]
    assert g1["seat"]["insurance"] == 3 and g1["seat"]["insurance_returned"] == 0
    assert g1["seat"]["hands"][0]["result"] == "push" and g1["dealer"]["cards"] == ["AH", "7C"]
    assert [d["by"] for d in g2["decisions"]] == ["timeout", "timeout"]
    assert g2["seat"]["hands"][0]["cards"] == ["TD", "7S"]

    # -- recall of round 1 with the exact cards --------------------------------------------------
    r1 = games[1][0]
    assert [h["cards"] for h in r1["seat"]["hands"]] == [["8S", "3C", "9S"], ["8D", "2C", "7D"]]
    assert [d["action"] for d in r1["decisions"]] == ["split", "double", "hit", "stand"]
    assert r1["dealer"]["cards"] == ["6H", "TH", "9H"] and r1["seat"]["returned"] == 12

    # -- collect the club meter, then pay out through the simulated hopper ----------------------------
    club, credit = s1.club, s1.credit
    press(app, 1, "collect", lambda: s1.club == 0)
    assert s1.credit == credit + club
    coins = s1.credit // 10
    left_before = sims.bus.control.count(3, "left")
    press(app, 1, "collect", lambda: 1 in cab.payouts)
    run_until(app, lambda: 1 not in cab.payouts, timeout=30, what="the payout")
    assert sims.bus.control.count(3, "left") - left_before == coins
    m = cab.seats[1].meters
    assert m.get("hopper_out") == coins * 10 and s1.credit == (credit + club) % 10
    for n in (1, 2):
        seat = cab.seats[n]
        assert seat.money.audit_problem() is None and seat.lock is None
        life = seat.meters.lifetime
        assert seat.money.credit + seat.money.club == (
            life.get("total_in", 0) - life.get("total_out", 0) + life.get("total_won", 0) - life.get("total_bet", 0)
        )
    assert cab.journal.verify() == []


# slow: `cabinet run --headless`: three rounds a seat in real time on the simulators, then the payouts
@pytest.mark.timeout(300)
def test_headless_run_plays_rounds_on_every_seat_and_accounts_for_every_coin(tmp_path, capsys):
    from machine.cli import main

    assert main(["run", "--headless", "--rounds", "3", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "every meter and coin accounted for"
    games = [int(line.split(": ")[1].split(" ")[0]) for line in out.splitlines() if line.startswith("seat ")]
    assert len(games) == 4 and min(games) >= 3


def test_a_hopper_that_runs_empty_leaves_meters_equal_to_the_coins_that_left_then_pays_on(app):
    cab, sims = app.cab, app.sims
    ready(app)
    sims.bus.control.coin(2, "EU200A", 5)
    run_until(app, lambda: cab.seats[1].money.credit == 100, what="coins")
    sims.bus.control.fault(3, "empty", 4)  # the hopper runs dry after 4 coins
    press(app, 1, "collect", lambda: 1 in cab.payouts)
    seat = cab.seats[1]
    run_until(app, lambda: seat.lock == "tilt", timeout=30, what="the hopper fault")
    left = sims.bus.control.count(3, "left")
    assert left == 4
    assert seat.meters.get("hopper_out") == 40 and seat.money.credit == 60  # the rest stays owed
    assert "empty" in seat.lock_detail
    assert seat.money.audit_problem() is None
    # the attendant refills and clears the tilt: the payout of the rest goes on
    sims.bus.control.clear(3)
    sims.bus.control.refill(3, 100)
    with app.lock:
        cab.attendant_refill(1, app.clock())
        assert cab.attendant_clear(1)
    run_until(app, lambda: 1 not in cab.payouts and seat.money.credit == 0, timeout=30, what="the rest of the payout")
    assert sims.bus.control.count(3, "left") == 10 and seat.meters.get("hopper_out") == 100


def test_a_fraud_code_from_the_acceptor_tilts_the_seat_and_stops_its_coins(app):
    cab, sims = app.cab, app.sims
    ready(app)
    sims.bus.control.coin_error(11, 1)  # a plain reject: logged only
    sims.bus.control.coin_error(11, 20)  # coin on a string: fraud
    run_until(app, lambda: cab.seats[2].lock == "tilt", what="the fraud tilt")
    events = [r.data for r in cab.journal.records("event", seat=2)]
    assert [(e["event"], e["error_code"]) for e in events[:2]] == [("coin_error", 1), ("coin_fraud", 20)]
    assert not cab.may_take_coins(2) and cab.may_take_coins(1)
    assert cab.seats[1].lock is None


def test_coins_that_arrive_while_the_cabinet_is_down_are_credited_once_at_restart(tmp_path):
    from hardware.sim.launcher import SimProcess

    coins = "EU050A+EU100A+EU200A"
    args = ["--acceptor", f"2:coins={coins}", "--acceptor", f"11:coins={coins}", "--hopper", "3"]
    with SimProcess.start(args) as bus:
        cfg = temporary(parse_config(two_seats("decision_timeout: 1.5", "betting_time: 30", bus=bus.link), "e2e.yaml"),
                        tmp_path)
        first = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda rnd: rnd.pending.options[0])
        try:
            ready(first, bus)
            bus.control.coin(2, "EU200A")
            run_until(first, lambda: first.cab.seats[1].money.credit == 20, what="the first coin")
            first.worker.stop()  # the cabinet goes down before its next poll...
            bus.control.coin(2, "EU200A", 2)  # ...while two more coins drop in
        finally:
            first.close()
        again = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda rnd: rnd.pending.options[0])
        try:
            run_until(again, lambda: again.cab.seats[1].money.credit == 60, what="the coins from the downtime")
            for _ in range(40):  # and never a second time
                again.frame()
                time.sleep(0.01)
            assert again.cab.seats[1].money.credit == 60
            assert again.cab.seats[1].meters.get("coin_in_count:EU200A") == 3
        finally:
            again.close()
