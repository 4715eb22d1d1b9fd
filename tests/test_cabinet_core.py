"""The cabinet core: inputs, the shared round, meters, payouts, restart and tampering."""

from __future__ import annotations

import sqlite3

import pytest

from machine.core.cabinet import CabinetLocked, CabinetSettings
from machine.loop.payout import SeatLedger
from machine.money.seatmoney import MoneySettings

from .cabinet_helpers import boot, stacked_shoes


def hopper_pays(cab, n: int, requested: int, paid: int, fault: str | None = "empty") -> SeatLedger:
    """The hopper driver's reports for one chunk: begin, baseline, ``paid`` coins, and the end
    (``fault`` None: the chunk stays open, as after a cut)."""
    ledger = SeatLedger(cab, n)
    ledger.begin_payout(requested)
    ledger.payout_baseline(0, 0)
    if paid:
        ledger.coins_paid(paid)
    if fault is not None:
        ledger.end_payout(paid, requested - paid, fault)
    return ledger


def coins(cab, n, *ids):
    for c in ids:
        assert cab.coin(n, c, now=0)


def test_two_seats_bet_play_and_settle_with_meters_and_recall(tmp_path):
    # deal: seat1 9S, seat2 TS, up 6H, seat1 7S, seat2 8D; seat1 hits 4C (20); dealer 6H TC 9C busts
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    coins(cab, 1, "EU100A", "EU100A")
    coins(cab, 2, "EU200A")
    assert cab.press(1, "+2", now=1) and cab.press(2, "max", now=1)
    assert (cab.seats[1].money.credit, cab.seats[1].money.club) == (10, 10)
    assert cab.press(1, "start", now=2)
    assert cab.round is None  # seat 2 has a bet and has not pressed start
    assert cab.press(2, "start", now=3)
    assert cab.round is not None and cab.round.pending.seat == 1
    assert cab.live(1) == ["auto", "draw", "stand"]  # hard 16: no double; seat 2 waits
    assert cab.live(2) == []  # in the round, not its turn: no collect, no play button
    assert not cab.press(2, "stand", now=4)  # not seat 2's turn: does nothing
    assert cab.press(1, "draw", now=5) and cab.press(1, "stand", now=6)
    assert cab.press(2, "stand", now=7)
    assert cab.round is None
    s1, s2 = cab.seats[1], cab.seats[2]
    # seat 1: bet 2 of club 10, wins 4; seat 2: club 10, max bet 2, wins 4
    assert (s1.money.credit, s1.money.club) == (10, 12)
    assert (s2.money.credit, s2.money.club) == (10, 12)
    life = s1.meters.lifetime
    assert life["total_in"] == 20 and life["coin_in_count:EU100A"] == 2 and life["coin_in_value:EU100A"] == 20
    assert (life["games_played"], life["games_won"], life["total_bet"], life["total_won"]) == (1, 1, 2, 4)
    (game,) = cab.journal.records("game", seat=1)
    assert game.data["seat"]["hands"][0]["cards"] == ["9S", "7S", "4C"]
    assert game.data["dealer"]["cards"] == ["6H", "TC", "9C"]
    assert game.data["before"] == {"credit": 10, "club": 10}  # as the round started, before the bet left
    assert game.data["after"] == {"credit": 10, "club": 12}
    assert [d["action"] for d in game.data["decisions"]] == ["hit", "stand"]
    assert game.data["shoe"] == "9S TS 6H 7S 8D 4C TC 9C".split()


def test_the_round_resumes_after_a_restart_with_the_same_cards(tmp_path):
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    coins(cab, 1, "EU100A", "EU100A")
    coins(cab, 2, "EU200A")
    for n in (1, 2):
        cab.press(n, "+2", now=1)
    for n in (1, 2):
        cab.press(n, "start", now=1)
    cab.press(1, "draw", now=2)
    cab.journal.close()
    again = boot(tmp_path, stacked_shoes("2S 2D 2H 2C 3S 3D 3H 3C"))  # other shoes: must not be used
    assert again.round.seat(1).hands[0].cards == ["9S", "7S", "4C"]
    assert again.round.pending.seat == 1
    again.press(1, "stand", now=3)
    again.press(2, "stand", now=4)
    assert again.seats[1].money.club == 12 and again.cabinet_meters.get("power_ups") == 2


def test_the_betting_time_starts_the_round_with_the_bets_placed(tmp_path):
    cab = boot(tmp_path, stacked_shoes("9S 6H 7S TC 9C"))
    coins(cab, 1, "EU100A", "EU100A")
    cab.press(1, "+2", now=100)
    cab.tick(now=119.9)
    assert cab.round is None
    cab.tick(now=120.0)
    assert cab.round is not None and cab.round.seat(1).bet == 2


def test_the_decision_timeout_takes_auto_only_with_more_than_one_seat(tmp_path):
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D TC 9C"))
    coins(cab, 1, "EU100A", "EU100A")
    coins(cab, 2, "EU100A", "EU100A")
    for n in (1, 2):
        cab.press(n, "+2", now=0)
    for n in (1, 2):
        cab.press(n, "start", now=0)
    assert cab.decision_time_left(now=5) == 10
    cab.tick(now=14.9)
    assert cab.round.pending.seat == 1
    cab.tick(now=15)
    assert cab.round.pending.seat == 2  # seat 1 was decided by Auto (here: stand)
    (rec,) = [r for r in cab.journal.records("decision_time_out")]
    assert rec.seat == 1


def test_one_seat_has_no_decision_time_limit(tmp_path):
    cab = boot(tmp_path, stacked_shoes("9S 6H 7S TC 9C"))
    coins(cab, 1, "EU100A")
    cab.press(1, "+2", now=0)
    cab.press(1, "start", now=0)
    cab.tick(now=10_000)
    assert cab.round.pending.seat == 1 and cab.decision_time_left(10_000) is None


def test_collect_then_a_hopper_payout_coin_by_coin(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU050A")
    assert cab.press(1, "collect", now=0)
    assert cab.payouts_owed() == {1: 2} and cab.seat_state(1) == "paying"
    assert cab.live(1) == []
    ledger = SeatLedger(cab, 1)
    ledger.begin_payout(2)
    ledger.payout_baseline(100, 7)
    assert cab.pending_chunk(1) == {"requested": 2, "credited": 0, "lifetime_before": 100, "counter_before": 7}
    ledger.coins_paid(1)
    assert cab.seats[1].money.credit == 15
    ledger.coins_paid(1)
    ledger.end_payout(2, 0, None)
    assert cab.payouts_owed() == {} and cab.seat_state(1) == "ready"
    m = cab.seats[1]
    assert (m.money.credit, m.meters.get("hopper_out"), m.meters.get("total_out")) == (5, 20, 20)


def test_a_hopper_that_stops_short_leaves_the_rest_owed_and_tilts(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "collect", now=0)
    hopper_pays(cab, 1, 4, 1)
    s = cab.seats[1]
    assert s.money.credit == 30 and s.lock == "tilt" and "empty" in s.lock_detail
    assert cab.live(1) == [] and not cab.may_take_coins(1)
    assert cab.attendant_handpay_rest(1)
    assert s.lock == "handpay" and s.handpay_owed == 30
    assert cab.attendant_clear(1)
    assert s.money.credit == 0 and s.meters.get("handpay_out") == 30 and s.meters.get("total_out") == 40
    codes = [r.data["event"] for r in cab.journal.records("event", seat=1)]
    assert codes == ["hopper_fault", "tilt", "handpay", "handpay_cleared"]


def test_a_credit_above_the_hopper_limit_is_a_handpay_that_locks_the_seat(tmp_path):
    cab = boot(tmp_path, settings=CabinetSettings(seats=1, money=MoneySettings(hopper_limit=30)))
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "collect", now=0)
    assert cab.seat_state(1) == "handpay" and cab.live(1) == []
    assert cab.attendant_clear(1)
    assert cab.seat_state(1) == "idle" and cab.seats[1].meters.get("handpays") == 1


def test_a_flipped_byte_in_a_meter_row_locks_the_machine(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A")
    cab.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    (value,) = db.execute("SELECT value FROM state WHERE key = 'seat/1'").fetchone()
    db.execute("UPDATE state SET value = ? WHERE key = 'seat/1'", (value.replace('"credit":20', '"credit":90'),))
    db.commit()
    db.close()
    with pytest.raises(CabinetLocked, match="state row 'seat/1' fails its mac"):
        boot(tmp_path)


def test_a_deleted_journal_row_locks_the_machine(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU100A")
    cab.journal.close()
    db = sqlite3.connect(tmp_path / "journal.sqlite")
    db.execute("DELETE FROM journal WHERE seq = 3")
    db.commit()
    db.close()
    with pytest.raises(CabinetLocked, match="record 3 is missing"):
        boot(tmp_path)


def test_a_truncated_journal_locks_the_machine(tmp_path):
    cab = boot(tmp_path)
    for _ in range(50):
        coins(cab, 1, "EU200A")
    cab.journal.close()
    path = tmp_path / "journal.sqlite"
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2)
    with pytest.raises(CabinetLocked, match="memory error"):
        boot(tmp_path)


def test_a_failed_self_audit_locks_the_seat_with_a_memory_error_until_a_ram_clear(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "+2", now=0)
    cab.seats[1].money.club += 7  # a meter that no longer matches what came in
    cab.press(1, "start", now=1)
    s = cab.seats[1]
    assert cab.round is None and s.lock == "memory_error" and "self-audit failed before game" in s.lock_detail
    assert cab.live(1) == [] and not cab.attendant_clear(1)
    cab.ram_clear("operator")
    assert cab.seat_state(1) == "idle" and cab.cabinet_meters.get("ram_clears") == 1
    assert [r.data["event"] for r in cab.journal.records("event")][-2:] == ["memory_error", "ram_clear"]


def test_the_self_audit_runs_before_a_payout(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A")
    cab.seats[1].money.credit += 10
    assert cab.press(1, "collect", now=0)
    assert cab.seats[1].lock == "memory_error" and cab.payouts_owed() == {}


def test_memory_never_shows_what_the_journal_does_not_hold(tmp_path):
    """A write that fails mid-transaction leaves the in-memory meters as they were."""

    def failing_put(where):
        if where == "put":
            raise OSError("disk full")

    cab = boot(tmp_path)
    coins(cab, 1, "EU200A")
    cab.journal._hook = failing_put
    with pytest.raises(OSError):
        cab.coin(1, "EU200A", now=0)
    assert cab.seats[1].money.credit == 20 and cab.seats[1].meters.get("total_in") == 20


def test_a_chunk_cut_by_a_power_cut_is_paid_on_not_tilted(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "collect", now=0)
    hopper_pays(cab, 1, 4, 1, fault=None)
    cab.journal.close()
    cab = boot(tmp_path)  # the cut: the chunk is still pending after the restart
    chunk = cab.pending_chunk(1)
    assert chunk is not None and chunk["credited"] == 1
    SeatLedger(cab, 1).end_payout(1, 3, "power cut")  # what reconcile reports
    assert cab.seats[1].lock is None and cab.payouts_owed() == {1: 3}


def test_extra_coins_and_strays_are_metered_apart_and_tilt(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A")
    cab.press(1, "collect", now=0)
    ledger = hopper_pays(cab, 1, 2, 3, fault=None)
    s = cab.seats[1]
    assert s.money.credit == 0 and s.meters.get("hopper_out") == 20 and s.meters.get("hopper_extra_out") == 10
    assert s.lock == "tilt"
    ledger.stray_coins(2, "runaway")
    assert s.meters.get("hopper_extra_out") == 30
    assert cab._audit(s, "test") is False  # the extra coins do not break the seat's equation


def test_the_attendant_records_a_refill_and_the_owed_payout_resumes(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "collect", now=0)
    hopper_pays(cab, 1, 4, 1)
    assert cab.seats[1].lock == "tilt"
    cab.attendant_refill(1, now=5)
    assert cab.attendant_clear(1)
    assert cab.payouts_owed() == {1: 3} and cab.cabinet_meters.get("hopper_refills") == 1
    events = [r.data["event"] for r in cab.journal.records("event", seat=1)]
    assert events[-3:] == ["hopper_refill", "tilt_cleared", "payout_resumed"]


def test_collect_that_drops_the_only_bet_restarts_the_betting_time_and_the_seat_is_not_ready(tmp_path):
    cab = boot(tmp_path)
    coins(cab, 1, "EU200A")
    coins(cab, 2, "EU200A")
    cab.press(1, "+2", now=0)
    cab.press(2, "+2", now=0)
    cab.press(1, "start", now=0)
    cab.press(1, "collect", now=1)  # seat 1 drops its bet: no longer ready
    cab.press(2, "collect", now=1)  # and seat 2 too: no bet is left on the table
    assert not cab.seats[1].ready and cab.betting_since is None
    cab.press(2, "+2", now=100)
    cab.tick(now=100.5)
    assert cab.round is None  # the betting time counts from t=100
    cab.press(1, "+10", now=101)
    assert "start" in cab.live(1)  # the new bet needs its own Start
    cab.press(2, "start", now=102)
    assert cab.round is None  # seat 1 has a bet and has not pressed Start
    cab.tick(now=120)
    assert cab.round is not None and [s.number for s in cab.round.seats] == [1, 2]


def test_the_cores_lock_details_are_message_ids_with_fields_not_english_to_read_back(tmp_path):
    from machine.display.gamewords import say
    from machine.games.text import Text
    from machine.i18n import Words

    cab = boot(tmp_path)
    coins(cab, 1, "EU200A", "EU200A")
    cab.press(1, "collect", now=0)
    hopper_pays(cab, 1, 4, 1)
    s = cab.seats[1]
    assert isinstance(s.lock_detail, Text) and s.lock_detail == "hopper: empty; 3 coin(s) owed"
    assert (s.lock_detail.msgid, s.lock_detail.fields) == ("hopper: {fault}; {unpaid} coin(s) owed",
                                                            {"fault": "empty", "unpaid": 3})
    assert say(Words("nl"), s.lock_detail) == "hopper: leeg; 3 munt(en) nog te betalen"
    assert cab.attendant_handpay_rest(1)
    assert isinstance(s.lock_detail, Text) and s.lock_detail.msgid == "handpay of {amount} points"
    assert s.lock_detail.fields == {"amount": 30}
