"""Eenendertigen tournaments on the cabinet (issue 12, item 4), through the real cabinet core on a
journal: every participant gets the tournament's decks (deals.py) round for round, unstaked;
the name entry and the entry fee; the ranking list (ties share a rank) kept across a reopen and
a SIGKILL; the close publishing the seed with prizes as handpays; ``cabinet audit tournaments``;
the start and end times; the tenth participant closing it; the operator menu's page."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
from pathlib import Path
from typing import Any

import pytest

from machine.cli import main
from machine.core import tournament
from machine.core.cabinet import Cabinet, CabinetSettings, open_cabinet, random_shuffle
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.games.eenendertigen.deals import tournament_decks
from machine.games.eenendertigen.standings import prizes_by_rank, ranking
from machine.games.rules import load_profile
from machine.operator.menu import PAGES, OperatorMenu
from tests.cabinet_helpers import memory
from tests.helpers import stored_pin

SEED = "5eed" * 16  # 64 hex digits, as secrets.token_hex(32) gives
CHARS = tournament.CHARACTERS


def boot(tmp: Path, seats: int = 2, step_hook=None, files: bool = False) -> Cabinet:
    settings = CabinetSettings(seats=seats, games=(load_profile("eenendertigen"),))
    return open_cabinet(tmp / "journal.sqlite", load_profile("random-blackjack"), settings,
                        lambda p: make_game(p, auto_for(p.engine)), random_shuffle(random.Random(7)),
                        memory(tmp, files), step_hook, create=True)


def tour(cab: Cabinet) -> dict[str, Any]:
    t = cab.tournament
    assert t is not None
    return t


def at(cab: Cabinet) -> dict[str, Any]:
    a = cab.tournament_seat()
    assert a is not None
    return a


def last(cab: Cabinet) -> dict[str, Any]:
    t = cab.last_tournament
    assert t is not None
    return t


def enter(cab: Cabinet, n: int, name: str, now: float) -> None:
    """Seat ``n`` types ``name`` with Draw (next character) and Double (take it), then Start."""
    assert cab.press(n, "start", now)
    for ch in name:
        while CHARS[at(cab)["char"]] != ch:
            assert cab.press(n, "draw", now)
        assert cab.press(n, "double", now)
    assert cab.press(n, "start", now)


def play_out(cab: Cabinet, n: int, now: float, passer: bool = False, rounds: int = 16) -> float:
    """Play the participant at seat ``n`` on: Auto (or Stand, pass, where it is live), Start
    between rounds, until ``rounds`` more rounds are over or they are done."""
    target = at(cab)["progress"]["rounds"] + rounds
    while (a := cab.tournament_seat()) is not None and a["seat"] == n and a["progress"]["rounds"] < target:
        now += 1
        if cab.round is None:
            assert cab.press(n, "start", now)
        elif passer and cab.is_live(n, "stand"):
            assert cab.press(n, "stand", now)
        else:
            assert cab.press(n, "auto", now)
    return now


def shoes_by_participant(cab: Cabinet) -> dict[int, list[list[str]]]:
    out: dict[int, list[list[str]]] = {}
    for r in cab.journal.records("round_start"):
        t = r.data["tournament"]
        assert t["round"] == len(out.setdefault(t["participant"], [])) + 1
        out[t["participant"]].append(r.data["shoe"])
    return out


def test_two_participants_are_dealt_the_same_decks_round_for_round_unstaked(tmp_path):
    cab = boot(tmp_path)
    cab.coin(2, "EU100A", 0)
    t = cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    assert t["in_force"] and "seed" not in t and cab.game.title == "Eenendertigen" and cab.rules.variant == "classic"
    assert cab.live(1) == ["start"] and cab.live(2) == ["collect", "start"]  # betting is dark; Start enters
    enter(cab, 1, "ANNA", 1)
    assert cab.live(2) == ["collect"]  # one participant at a time: the other seat waits
    now = play_out(cab, 1, 2)
    enter(cab, 2, "", now)  # an empty name: the next participant number
    now = play_out(cab, 2, now, passer=True)
    shoes = shoes_by_participant(cab)
    assert shoes[1] == shoes[2] == tournament_decks(SEED, "classic")
    assert [r.data["bets"] for r in cab.journal.records("round_start")] == [{"1": 0}] * 16 + [{"2": 0}] * 16
    for n, credit in ((1, 0), (2, 10)):
        m = cab.seats[n]
        assert (m.money.credit, m.money.club) == (credit, 0) and m.meters.get("total_bet") == 0
        assert m.meters.get("games_played:eenendertigen") == 16 and m.money.audit_problem() is None
    rows = tour(cab)["ranking"]
    assert sorted(r["name"] for r in rows) == ["ANNA", "Player 2"] and all(r["rounds"] == 16 for r in rows)
    games = [r.data for r in cab.journal.records("game", seat=1)]
    scores = [next(p["score"] for p in g["places"] if p["seat"] == 1) for g in games]
    assert next(r for r in rows if r["name"] == "ANNA")["score"] == sum(scores)  # the sum of the final hand scores
    assert [g["tournament"]["round"] for g in games] == list(range(1, 17))


def test_equal_scores_share_a_rank_and_the_prizes_of_the_places_they_take():
    people = [{"number": i + 1, "name": "", "seat": 1, "scores2": [s], "finished": i + 1} for i, s in enumerate((50, 62, 50, 40))]
    rows = ranking(people)
    assert [(r["rank"], r["name"], r["score"]) for r in rows] == [
        (1, "Player 2", 31), (2, "Player 1", 25), (2, "Player 3", 25), (4, "Player 4", 20)]
    assert prizes_by_rank(rows, [100, 50, 25]) == [100, 37, 37, 0]
    people[2]["scores2"] = [61]  # 30.5 counts 30.5
    assert [(r["rank"], r["score"]) for r in ranking(people)] == [(1, 31), (2, 30.5), (3, 25), (4, 20)]


def test_the_entry_is_taken_from_the_credit_meter_and_refused_when_it_is_short(tmp_path):
    cab = boot(tmp_path)
    cab.open_tournament("modern", 10, [], None, None, SEED, 0.0, "operator")
    assert cab.press(1, "start", 1) and cab.press(1, "start", 1)  # an empty name, no credit
    assert at(cab)["stage"] == "name" and "insert coins" in at(cab)["note"]
    assert build_view(cab, 1).tournament.note.startswith("The entry is 10 points")
    assert tour(cab)["participants"] == [] and cab.cabinet_meters.get("tournament_entries") == 0
    cab.coin(1, "EU200A", 2)
    assert cab.press(1, "start", 3)
    seat = cab.seats[1]
    assert seat.money.credit == 10 and seat.meters.get("total_bet") == 10 and seat.money.audit_problem() is None
    assert cab.cabinet_meters.get("tournament_entries") == 10
    entry = [r.data for r in cab.journal.records("event") if r.data["event"] == "tournament_entry"]
    assert entry == [{"id": 1, "number": 1, "name": "Player 1", "entry": 10, "code": 202, "event": "tournament_entry"}]
    assert cab.round is not None and cab.rules.variant == "modern" and len(cab.round.shoe) == 52
    assert [m.data["kind"] for m in cab.journal.records("move", seat=1)][-1] == "tournament_entry"


def test_a_participant_resumes_their_round_after_the_cabinet_is_reopened(tmp_path):
    cab = boot(tmp_path)
    cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    enter(cab, 1, "", 1)
    now = play_out(cab, 1, 1, rounds=2)
    assert cab.press(1, "start", now)  # round 3 dealt: a decision pending
    assert cab.round is not None and cab.round.pending.seat == 1
    before = cab.round.to_dict()
    cab.journal.close()
    cab = boot(tmp_path)
    assert cab.tournament_in_force and cab.round.to_dict() == before
    assert at(cab)["progress"]["rounds"] == 2 and cab.live(1) != ["start"]
    now = play_out(cab, 1, now + 1)
    enter(cab, 2, "", now)  # the same deals and Auto's same play: the same score, round for round
    play_out(cab, 2, now + 1)
    first, second = tour(cab)["participants"]
    assert first["scores2"] == second["scores2"] and len(first["scores2"]) == 16


def _child(data: Path, log: Path) -> None:
    armed: list[bool] = []

    def hook(where: str) -> None:
        if armed:
            os.kill(os.getpid(), signal.SIGKILL)

    cab = boot(data, step_hook=hook, files=True)
    cab.open_tournament("classic", 0, [50], None, None, SEED, 0.0, "operator")
    enter(cab, 1, "BO", 1)
    now = play_out(cab, 1, 1)
    enter(cab, 2, "", now)
    now = play_out(cab, 2, now, rounds=3)
    assert cab.press(2, "start", now)  # round 4 dealt
    log.write_text(json.dumps(tour(cab)["ranking"]))
    armed.append(True)
    cab.press(2, "auto", now + 1)  # killed inside this press's transaction


def test_the_ranking_list_survives_a_sigkill_mid_round(tmp_path):
    log = tmp_path / "ranking.json"
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            _child(tmp_path, log)
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    cab = boot(tmp_path, files=True)
    assert tour(cab)["ranking"] == json.loads(log.read_text())
    assert [(r["name"], r["rounds"]) for r in tour(cab)["ranking"]] == [("BO", 16), ("Player 2", 3)] or \
        [(r["name"], r["rounds"]) for r in tour(cab)["ranking"]] == [("Player 2", 3), ("BO", 16)]
    assert cab.round is not None and cab.round_no == 20 and at(cab)["progress"]["round"] == 4
    assert [r.data["event"] for r in cab.journal.records("event")][-1] == "power_up"


def test_closing_publishes_the_seed_and_the_prizes_become_handpays_and_audit_exports_it(tmp_path, capsys):
    cab = boot(tmp_path, seats=3)
    cab.open_tournament("classic", 0, [100, 50], None, None, SEED, 0.0, "operator")
    enter(cab, 1, "", 1)
    now = play_out(cab, 1, 1)
    enter(cab, 2, "", now)
    now = play_out(cab, 2, now)  # Auto twice on the same deals: tied for first
    enter(cab, 3, "", now)
    now = play_out(cab, 3, now, rounds=2)  # ranked with the rounds played when closed early
    assert build_view(cab, now).tournament.seed == "" and SEED not in json.dumps(cab.tournament)
    assert main(["audit", "tournaments", "--data", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tournaments"][0]["seed"] is None and report["tournaments"][0]["state"] == "playing"
    assert SEED not in json.dumps([r.data for r in cab.journal.records("event")])
    assert cab.close_tournament("operator", now) == "closed"
    assert not cab.tournament_in_force and cab.game.title == "Random Blackjack" and cab.tournament is None
    rows = last(cab)["ranking"]
    assert [(r["rank"], r["name"], r["rounds"]) for r in rows] == [(1, "Player 1", 16), (1, "Player 2", 16), (3, "Player 3", 2)]
    close = cab.journal.records("tournament_close")[-1].data
    assert close["seed"] == last(cab)["seed"] == SEED and close["ranking"] == rows
    assert [(p["seat"], p["amount"]) for p in close["prizes_awarded"]] == [(1, 75), (2, 75)]  # 100 + 50 shared
    for n in (1, 2):
        seat = cab.seats[n]
        assert (seat.lock, seat.handpay_owed, seat.money.credit) == ("handpay", 75, 75)
        assert cab.attendant_clear(n)
        assert seat.meters.get("handpays") == 1 and seat.meters.get("handpay_out") == 75 and seat.money.credit == 0
        assert seat.meters.get("total_won") == 75 and seat.money.audit_problem() is None and seat.lock is None
    assert cab.cabinet_meters.get("tournament_prizes") == 150 and cab.seats[3].lock is None
    view = build_view(cab, now).tournament
    assert view.state == "closed" and view.seed == SEED and view.rows[0] == ("1", "Player 1", str(rows[0]["score"]), "16")
    assert main(["audit", "tournaments", "--data", str(tmp_path), "--json"]) == 0
    t = json.loads(capsys.readouterr().out)["tournaments"][0]
    assert (t["id"], t["variant"], t["state"], t["seed"], t["prizes"]) == (1, "classic", "closed", SEED, [100, 50])
    assert [p["round_scores"] for p in t["participants"]][:2] == [[r / 2 if r % 2 else r // 2 for r in p["scores2"]]
                                                                  for p in close["participants"][:2]]
    assert [len(p["round_scores"]) for p in t["participants"]] == [16, 16, 2]
    assert main(["audit", "tournaments", "--data", str(tmp_path), "--csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0][:3] == ["tournament", "variant", "state"] and len(table) == 4
    assert table[1][7] == SEED and table[3][8:11] == ["3", "3", "Player 3"] and len(table[1][13].split()) == 16
    assert main(["audit", "tournaments", "--data", str(tmp_path)]) == 0
    assert f"seed {SEED}" in capsys.readouterr().out


def test_the_start_and_end_times_bound_the_tournament_and_the_tenth_participant_closes_it(tmp_path, monkeypatch):
    monkeypatch.setattr(tournament, "ROUNDS", 1)  # ten participants of one round each, to be quick
    cab = boot(tmp_path)
    cab.open_tournament("classic", 0, [], 900.0, 3600.0, SEED, 0.0, "operator")
    cab.coin(1, "EU200A", 1.0)
    assert not cab.tournament_in_force and "+2" in cab.live(1)  # normal play until the start time
    cab.tick(899.0)
    assert not cab.tournament_in_force
    cab.tick(900.0)
    assert cab.tournament_in_force and cab.live(1) == ["collect", "start"]
    now = 901.0
    for i in range(10):
        enter(cab, 1 + i % 2, "", now)
        now = play_out(cab, 1 + i % 2, now + 1)
    assert cab.tournament is None and last(cab)["id"] == 1 and len(last(cab)["ranking"]) == 10
    assert cab.journal.records("tournament_close")[-1].data["why"] == "10 participants played"
    cab.open_tournament("modern", 0, [], None, 3600.0, SEED, now, "operator")
    assert tour(cab)["id"] == 2 and cab.tournament_in_force and cab.rules.variant == "modern"
    enter(cab, 1, "", now)
    now += 3605.0
    cab.tick(now)  # past the end time, but a round is in play: it is played out first (the timeout plays Auto)
    assert cab.tournament is not None and cab.round is not None
    while cab.tournament is not None and now < 20_000:
        now += 20.0
        cab.tick(now)
    assert cab.journal.records("tournament_close")[-1].data["why"] == "its end time came"
    assert [(r["name"], r["rounds"]) for r in last(cab)["ranking"]] == [("Player 1", 1)]


def test_the_start_and_end_times_are_wall_clock_times_a_power_cut_does_not_move(tmp_path):
    wall = 1_796_000_000.0  # the loop's monotonic clock restarts with the machine; the wall clock does not
    cab = boot(tmp_path)
    cab.tick(50.0, wall)
    cab.open_tournament("classic", 0, [], 600.0, 3600.0, SEED, 50.0, "operator")
    assert (tour(cab)["start"], tour(cab)["end"], tour(cab)["opened"]) == (wall + 600, wall + 3600, wall)
    cab.journal.close()
    cab = boot(tmp_path)  # a power cut of 20 minutes: the loop's clock starts again near 0
    cab.tick(3.0, wall + 1200)
    assert cab.tournament_in_force
    cab.tick(10.0, wall + 3601)
    assert cab.tournament is None and cab.journal.records("tournament_close")[-1].data["why"] == "its end time came"
    from machine.operator.reports import utc

    assert utc(wall) == "2026-11-30 00:53:20 UTC"  # as cabinet audit tournaments writes the times


def test_a_tournament_in_force_plays_on_when_eenendertigen_was_disabled_before_a_restart(tmp_path):
    cab = boot(tmp_path)
    cab.open_tournament("modern", 0, [], None, None, SEED, 0.0, "operator")
    enter(cab, 1, "", 1.0)
    deck = cab.journal.records("round_start")[-1].data["shoe"]
    cab.journal.close()
    cab = open_cabinet(tmp_path / "journal.sqlite", load_profile("random-blackjack"), CabinetSettings(seats=2),
                       lambda p: make_game(p, auto_for(p.engine)), random_shuffle(random.Random(7)),
                       memory(tmp_path))  # not locked
    assert cab.tournament_in_force and cab.rules.variant == "modern" and cab.round is not None
    assert cab.round.shoe == deck
    play_out(cab, 1, 2.0, rounds=1)
    assert at(cab)["progress"]["rounds"] == 1


def test_the_operator_opens_and_closes_a_tournament_from_the_menu_with_a_seed_from_the_os(tmp_path):
    cab = boot(tmp_path)
    menu = OperatorMenu(cab, stored_pin("2468"), "id", seed_source=lambda: SEED)
    while PAGES[menu.cursor] != "Tournament":
        menu.press(1, "draw", 0)
    menu.press(1, "start", 0)
    menu.press(1, "draw", 0)  # the entry line
    menu.press(1, "start", 0)
    for d in "2468":
        menu.press(1, {"2": "+10", "4": "repeat", "6": "draw", "8": "double"}[d], 0)
    menu.press(1, "start", 0)
    assert menu.mode == "tour_edit"
    menu.press(1, "draw", 0)
    menu.press(1, "start", 0)  # entry 10
    for _ in range(4):
        menu.press(1, "draw", 0)  # down to "Open the tournament"
    menu.press(1, "start", 0)
    assert menu.mode == "confirm"
    menu.press(1, "start", 5.0)
    assert cab.tournament is not None and tour(cab)["entry"] == 10 and "Tournament 1 opened" in menu.message
    assert cab.journal.records("tournament_open")[-1].data["seed"] == SEED  # journaled in the open record
    assert "seed" not in " ".join(menu.view().lines)
    menu.press(1, "start", 6.0)
    menu.press(1, "start", 6.0)  # confirm the close
    assert cab.tournament is None and menu.message == "Tournament: closed"
    assert SEED in " ".join(menu.view().lines)


def test_a_tournament_needs_eenendertigen_enabled_and_refuses_a_second_one(tmp_path):
    cab = open_cabinet(tmp_path / "journal.sqlite", load_profile("random-blackjack"), CabinetSettings(seats=2),
                       lambda p: make_game(p, auto_for(p.engine)), random_shuffle(random.Random(7)), memory(tmp_path),
                       create=True)
    with pytest.raises(ValueError, match="eenendertigen is not among the enabled games"):
        cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    cab.journal.close()
    cab = boot(tmp_path / "b" if (tmp_path / "b").mkdir() is None else tmp_path)
    cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    with pytest.raises(ValueError, match="already open"):
        cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    with pytest.raises(RuntimeError, match="until the tournament is closed"):
        cab.ram_clear("operator")


def test_an_abandoned_name_entry_is_given_up_and_an_abandoned_participant_plays_on_by_the_clock(tmp_path):
    cab = boot(tmp_path)
    cab.open_tournament("classic", 0, [], None, None, SEED, 0.0, "operator")
    assert cab.press(1, "start", 0) and cab.press(1, "draw", 10)
    cab.tick(10 + tournament.IDLE_TIMEOUT - 1)
    assert at(cab)["stage"] == "name"
    cab.tick(5)  # the clock went back (a restart): the wait counts again from there
    cab.tick(5 + tournament.IDLE_TIMEOUT - 1)
    assert at(cab)["stage"] == "name"
    cab.tick(5 + tournament.IDLE_TIMEOUT)  # nothing was taken; any seat may enter again
    assert cab.tournament_seat() is None and tour(cab)["participants"] == [] and cab.live(2) == ["start"]
    enter(cab, 2, "", 100)
    now = 100.0
    while cab.tournament_seat() is not None and now < 100 + 16 * 400:  # nobody presses: the timeouts play it
        now += 5.0
        cab.tick(now)
    assert tour(cab)["ranking"][0]["rounds"] == 16
    decisions = [x for g in cab.journal.records("game", seat=2) for x in g.data["decisions"]]
    assert decisions and all(x["by"] == "timeout" for x in decisions)


def test_a_prize_waits_for_a_busy_seat_and_the_game_and_rules_wait_for_the_close(tmp_path):
    cab = boot(tmp_path)
    cab.open_tournament("classic", 0, [40], None, None, SEED, 0.0, "operator")
    with pytest.raises(ValueError, match="a tournament is on: decks can change after it closes"):
        cab.change_setting("decks", 2, "operator")
    assert cab.change_setting("game", "eenendertigen", "operator") == "when the tournament has closed"
    enter(cab, 1, "", 1)
    now = play_out(cab, 1, 1, rounds=1)
    cab.coin_error(1, 8, "fraud", True)  # seat 1 tilts
    assert cab.close_tournament("operator", now) == "closed"
    seat = cab.seats[1]
    assert seat.lock == "tilt" and seat.money.credit == 0 and cab.core.state.row.tournaments["prizes_owed"][0]["amount"] == 40
    cab.tick(now + 1)
    assert seat.lock == "tilt"  # still busy: the prize waits
    assert cab.attendant_clear(1) and seat.lock is None
    cab.tick(now + 2)
    assert (seat.lock, seat.handpay_owed, seat.money.credit) == ("handpay", 40, 40)
    assert "prizes_owed" not in cab.core.state.row.tournaments
    cab.tick(now + 3)  # the game chosen during the tournament, now that it is over and the cabinet idle
    assert cab.game.title == "Eenendertigen" and cab.tournament is None and not cab.tournament_in_force


def test_the_tournament_screens_speak_dutch():
    from machine.display.gamewords import say
    from machine.i18n import Words

    nl = Words("nl")
    line = nl("Seat {seat} is playing: {name}, round {round} of {rounds} - score {score}", seat=2, name="BOB", round=4,
              rounds=16, score=nl.number(59.5))
    assert line == "Speler 2 speelt: BOB, ronde 4 van 16 - score 59,5"
    heading = nl("Tournament {id}: {variant}, entry {entry}, no prizes", id=1, variant=say(nl, "classic"), entry=10)
    assert heading == "Toernooi 1: klassiek, inleg 10, geen prijzen"
    assert nl("ENTER YOUR NAME") == "VOER UW NAAM IN" and say(nl, "Auto: give up") == "Auto: stoppen"
    assert say(nl, "Player 3") == "Speler 3" and say(Words("ru"), "Player 3") == "Игрок 3"  # a participant without a name
