"""The devices' own counters as evidence (issue 14, finding 1).

The journal follows the hopper's lifetime count (168) and each acceptor's event counter; at
start-up, before any payout resumes or a coin is accepted, and after every payout, the counts
read from the devices are compared with the journal's. The process tests run the bus simulator
as its own process (it outlives the cabinet, as real devices do) and the cabinet on it, stopped
and started again on the same journal; the core tests use the crash test's file-backed hopper.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from hardware.cctalk.hopper import LIFETIME_MODULUS
from hardware.sim.launcher import SimProcess

from machine.core.cabinet import Cabinet, open_cabinet
from machine.core.payouts import COUNT_MODULUS
from machine.devtools.crashtest import SETTINGS, FileHopper, shoes_for, simple_player
from machine.devtools.harness import SimulatedCabinet
from machine.games.blackjack.game import BlackjackGame
from machine.loop.payout import HopperTestLedger, SeatLedger, check_counter, pending_test, run_payouts
from machine.money.audit import gather
from machine.money.journal import Journal
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from machine.operator.reports import as_csv, as_text
from machine.profiles import load_profile
from tests.cabinet_helpers import TEST_KEY, memory
from tests.e2e_helpers import ready, run_until
from tests.helpers import two_seats

pytestmark = pytest.mark.timeout(60)

COINS = "EU050A+EU100A+EU200A"


def sim_args(hopper: str = "3:speed=40,level=400") -> list[str]:
    return ["--acceptor", f"2:coins={COINS}", "--acceptor", f"11:coins={COINS}", "--hopper", hopper]


def cabinet_on(bus: SimProcess, data: Path) -> SimulatedCabinet:
    cfg = temporary(parse_config(two_seats("decision_timeout: 1.5", "betting_time: 30", bus=bus.link), "counters.yaml"), data)
    return SimulatedCabinet(cfg, data, headless=True, auto=lambda rnd: rnd.pending.options[0])


def events(cab: Cabinet, name: str) -> list[dict]:
    return [r.data for r in cab.journal.records("event") if r.data["event"] == name]


# -- through the real process ---------------------------------------------------------------------


def test_a_runaway_while_the_cabinet_is_down_is_metered_logged_and_tilts_at_the_next_start(tmp_path):
    with SimProcess.start(sim_args()) as bus:
        first = cabinet_on(bus, tmp_path)
        try:
            assert first.cab.hopper_counter(3) == 0  # the first start takes the count as it is
        finally:
            first.close()
        assert bus.control.spill(3, 79) == "left=79 lifetime=79"  # the motor runs on, no host
        again = cabinet_on(bus, tmp_path)
        try:
            cab = again.cab
            assert cab.cabinet_meters.get("hopper_out_unexplained") == 79 * 10  # points: 10 a coin
            [ev] = events(cab, "hopper_out_unexplained")
            assert (ev["hopper"], ev["coins"], ev["journal"], ev["device"], ev["when"]) == (3, 79, 0, 79, "at start-up")
            for n in (1, 2):  # the hopper pays both seats: both wait for the attendant
                assert cab.lock_of(n) == "tilt"
                detail = "unexplained coins out: hopper 3, 79 coin(s) that no payout explains (at start-up)"
                assert cab.seats[n].lock_detail == detail
            assert cab.hopper_counter(3) == 79
            with again.lock:
                cab.coin(1, "EU200A", 0.0)
                assert cab.attendant_clear(1) and cab.lock_of(1) is None
                assert not cab.is_paying(1) and cab.seats[1].money.credit == 20  # clearing pays nothing out
            path, key = cab.journal.path, cab.journal.key
        finally:
            again.close()
    report = gather(path, key)
    assert "hopper_out_unexplained" in as_text(report, "meters")
    assert "cabinet,hopper_out_unexplained,790,790" in as_csv(report, "meters")


def test_a_hopper_count_behind_the_journals_tilts_at_the_next_start(tmp_path):
    with SimProcess.start(sim_args("3:speed=40,level=400,lifetime=500")) as bus:
        first = cabinet_on(bus, tmp_path)
        first.close()
    with SimProcess.start(sim_args("3:speed=40,level=400,lifetime=20")) as bus:  # another hopper
        again = cabinet_on(bus, tmp_path)
        try:
            cab = again.cab
            [ev] = events(cab, "hopper_count_behind")
            assert (ev["coins"], ev["journal"], ev["device"]) == (480, 500, 20)
            assert cab.lock_of(1) == cab.lock_of(2) == "tilt"
            assert "counts 480 coin(s) fewer than the journal" in cab.seats[1].lock_detail
            assert cab.cabinet_meters.get("hopper_out_unexplained") == 0  # no coin left: nothing metered
            assert cab.hopper_counter(3) == 20  # the new hopper's count is the reference from now on
        finally:
            again.close()


def test_acceptor_events_past_its_buffer_while_down_credit_nothing_are_logged_and_tilt_the_seat(tmp_path):
    with SimProcess.start(sim_args()) as bus:
        first = cabinet_on(bus, tmp_path)
        try:
            ready(first, bus)
            bus.control.coin(2, "EU200A")
            run_until(first, lambda: first.cab.seats[1].money.credit == 20, what="the first coin")
            first.worker.stop()
            bus.control.coin(2, "EU100A", 8)  # eight coins while down: the buffer holds five
        finally:
            first.close()
        again = cabinet_on(bus, tmp_path)
        try:
            cab = again.cab
            [ev] = events(cab, "coin_events_while_down")
            assert (ev["address"], ev["journal"], ev["device"], ev["events"], ev["lost"]) == (2, 1, 9, 8, 8)
            assert ev["detail"] == "gone from the acceptor's buffer: their coins cannot be credited"
            assert cab.lock_of(1) == "tilt" and "their coins cannot be credited" in cab.seats[1].lock_detail
            for _ in range(20):
                again.frame()
                time.sleep(0.01)
            # a move past the buffer shows no event the host can trust (issue 24, finding 4): the
            # attendant, who sees both counters, settles the eight coins; none is guessed
            assert cab.seats[1].money.credit == 20
            assert events(cab, "coin_events_lost") == []  # reported once, at start-up
            assert cab.lock_of(2) is None
        finally:
            again.close()


class KilledHere(BaseException):
    """Stands for a SIGKILL: nothing after it is journaled."""


class KilledAfterDispense:
    """A hopper-test ledger that dies once the dispense was sent, before any coin is journaled."""

    def __init__(self, inner: HopperTestLedger):
        self.inner = inner

    def begin_payout(self, requested: int) -> None:
        self.inner.begin_payout(requested)

    def payout_baseline(self, lifetime: int, counter: int, serial: int | None = None) -> None:
        self.inner.payout_baseline(lifetime, counter, serial)

    def coins_paid(self, count: int) -> None:
        raise KilledHere

    def end_payout(self, *args) -> None:
        raise KilledHere

    def stray_coins(self, *args) -> None:
        raise KilledHere

    def payout_unexplained(self, *args) -> None:
        raise KilledHere


def test_a_hopper_test_cut_after_its_dispense_is_explained_at_the_next_start(tmp_path):
    with SimProcess.start(sim_args()) as bus:
        first = cabinet_on(bus, tmp_path)
        try:
            first.worker.stop()  # the bus is the test's now
            hopper, seats = first.devices.hoppers[0]
            with pytest.raises(KilledHere):
                hopper.payout(1, KilledAfterDispense(HopperTestLedger(first.cab, 3, seats)))
            pending = first.cab.hopper_test_pending()
            assert pending is not None and pending["lifetime_before"] == 0  # the intent, journaled
        finally:
            first.close()
        again = cabinet_on(bus, tmp_path)
        try:
            cab = again.cab
            assert bus.control.count(3, "left") == 1
            assert cab.cabinet_meters.get("hopper_test_coins") == 1
            assert cab.cabinet_meters.get("hopper_out_unexplained") == 0
            assert cab.lock_of(1) is None and cab.lock_of(2) is None
            assert cab.hopper_test_pending() is None and cab.hopper_counter(3) == 1
        finally:
            again.close()


# -- the core, with the crash test's file-backed hopper ---------------------------------------------


def boot(data: Path) -> Cabinet:
    return open_cabinet(data / "journal.sqlite", load_profile("random-blackjack"), SETTINGS,
                        lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory(data), create=True)


def owe(cab: Cabinet, seat: int, coins: int) -> None:
    for _ in range(coins // 2):
        cab.coin(seat, "EU200A", 0.0)
    cab.press(seat, "collect", 1.0)


def test_the_hopper_count_is_journaled_whenever_it_moves(tmp_path):
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    assert Journal(tmp_path / "journal.sqlite", TEST_KEY, readonly=True).get("cabinet")["hopper_counters"] == {"3": 0}
    owe(cab, 1, 4)
    run_payouts(cab, hopper)
    assert hopper.lifetime == 4
    assert cab.journal.get("cabinet")["hopper_counters"] == {"3": 4}  # in the payout's own last write
    check_counter(cab, hopper, [1, 2, 3])
    assert cab.cabinet_meters.get("hopper_out_unexplained") == 0 and cab.lock_of(1) is None
    hopper.payout(1, HopperTestLedger(cab, 3, [1, 2, 3]))
    assert cab.journal.get("cabinet")["hopper_counters"] == {"3": 5}
    assert cab.cabinet_meters.get("hopper_test_coins") == 1
    hopper.lifetime += 2  # two coins nobody asked for, then a payout: found before it
    owe(cab, 2, 2)
    run_payouts(cab, hopper)
    assert cab.cabinet_meters.get("hopper_out_unexplained") == 2 * 10
    [ev] = events(cab, "hopper_out_unexplained")
    assert ev["when"] == "before a payout" and cab.lock_of(2) == "tilt"  # the seat it was paying
    assert cab.journal.get("cabinet")["hopper_counters"] == {"3": 9}
    cab.journal.close()


def test_a_stray_coin_seen_between_payouts_moves_the_journals_count_once(tmp_path):
    cab = boot(tmp_path)
    cab.hopper_counter_check(3, 10, [1, 2, 3], "at start-up")
    cab.hopper_stray(1, 3, "runaway", 3)  # check_idle saw three coins run out, and stopped the motor
    assert cab.hopper_counter(3) == 13
    assert cab.hopper_counter_check(3, 13, [1, 2, 3], "after a payout") == 0  # explained: not again
    cab.journal.close()


def test_a_hopper_test_killed_before_its_baseline_pays_its_coin_at_the_next_start(tmp_path):
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    cab.hopper_test_begin(3, 1)  # ...and the power goes
    cab.journal.close()
    cab = boot(tmp_path)
    assert cab.hopper_test_pending() == {"hopper": 3, "requested": 1, "credited": 0,
                                         "lifetime_before": None, "counter_before": None}
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    assert hopper.lifetime == 1 and cab.cabinet_meters.get("hopper_test_coins") == 1
    assert cab.hopper_test_pending() is None and cab.hopper_counter(3) == 1
    cab.journal.close()


def test_a_hopper_test_cut_again_while_its_coin_is_paid_at_the_next_start_still_pays_it(tmp_path):
    """The first start closes the cut test and pays what it owes; a second cut between the two
    must not lose the coin (found by `cabinet crashtest --kills 10000 --seed 7`)."""
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    cab.hopper_test_begin(3, 1)  # the power goes before the dispense
    cab.journal.close()
    cab = boot(tmp_path)
    pending = pending_test(cab, 3)
    assert pending is not None
    hopper.reconcile(pending, HopperTestLedger(cab, 3, [1, 2, 3]))  # closed from the counts: 1 unpaid...
    cab.journal.close()  # ...and the power goes again before it is paid
    cab = boot(tmp_path)
    assert cab.hopper_test_pending() == {"hopper": 3, "requested": 1, "credited": 0, "lifetime_before": None,
                                         "counter_before": None}  # still owed
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    assert hopper.lifetime == 1 and cab.cabinet_meters.get("hopper_test_coins") == 1
    assert cab.hopper_test_pending() is None and cab.hopper_counter(3) == 1
    cab.journal.close()


def test_a_cut_payout_chunk_is_left_to_its_reconcile_not_metered_as_unexplained(tmp_path):
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    owe(cab, 1, 4)
    cab.chunk_begin(1, 4, 3)
    cab.chunk_baseline(1, hopper.lifetime, 0)
    hopper.lifetime += 3  # three coins out, none journaled: the power goes
    hopper.level -= 3
    hopper._save()
    cab.journal.close()
    cab = boot(tmp_path)
    assert cab.hopper_count_pending(3, [1, 2, 3])
    assert check_counter(cab, hopper, [1, 2, 3], when="at start-up") == 0
    run_payouts(cab, hopper)
    check_counter(cab, hopper, [1, 2, 3])
    assert cab.seats[1].meters.get("hopper_out") == 40 and hopper.lifetime == 4
    assert cab.cabinet_meters.get("hopper_out_unexplained") == 0 and cab.lock_of(1) is None
    assert cab.hopper_counter(3) == 4
    cab.journal.close()


def test_the_core_wraps_the_count_as_the_driver_does(tmp_path):
    assert COUNT_MODULUS == LIFETIME_MODULUS
    cab = boot(tmp_path)
    cab.hopper_counter_check(3, LIFETIME_MODULUS - 2, [1, 2, 3], "at start-up")
    assert cab.hopper_counter_check(3, 3, [1, 2, 3], "after a payout") == 5  # 2**24 - 2 -> 3: five out
    cab.journal.close()


def test_an_extra_coin_reported_before_a_cut_is_metered_once(tmp_path):
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    owe(cab, 1, 2)
    ledger = SeatLedger(cab, 1, None, 3)
    ledger.begin_payout(2)
    ledger.payout_baseline(hopper.lifetime, 0)
    hopper.lifetime += 3  # one coin more than asked, all three reported: then the power goes
    hopper.level -= 3
    hopper._save()
    ledger.coins_paid(3)
    cab.journal.close()
    cab = boot(tmp_path)
    run_payouts(cab, hopper)
    check_counter(cab, hopper, [1, 2, 3])
    assert cab.seats[1].meters.get("hopper_extra_out") == 10  # not again from the reconcile
    assert cab.seats[1].meters.get("hopper_out") == 20 and cab.hopper_counter(3) == 3
    assert cab.cabinet_meters.get("hopper_out_unexplained") == 0
    cab.journal.close()


def test_the_operator_menu_shows_the_meter_and_the_event_in_the_operators_language(tmp_path):
    from tests.cabinet_helpers import boot as boot_two_seats
    from tests.test_operator_menu import goto, menu_for

    cab = boot_two_seats(tmp_path)
    cab.hopper_counter_check(3, 0, [1, 2], "at start-up")
    cab.hopper_counter_check(3, 7, [1, 2], "at start-up")
    menu = menu_for(cab)
    goto(menu, "Meters")
    menu.press(1, "draw", 0)  # the cabinet's own meters are on the second page
    row = next(line for line in menu.view().lines if line.startswith("Hopper out, unexplained"))
    assert row.split("\t") == ["Hopper out, unexplained", "70", "€7.00", "70", "€7.00"]
    menu.language = "nl"
    goto(menu, "Event log")
    [line] = [line for line in menu.view().lines if "\t155\t" in line]
    assert "Onverklaarde munten uit de hopper" in line and "apparaat: 7, hopper: 3, journaal" in line


def test_a_cut_chunk_is_reconciled_before_another_seat_is_paid_by_the_same_hopper(tmp_path):
    cab = boot(tmp_path)
    hopper = FileHopper(tmp_path / "hopper.json", lambda where: None)
    check_counter(cab, hopper, [1, 2, 3], when="at start-up")
    owe(cab, 2, 2)
    ledger = SeatLedger(cab, 2, None, 3)
    ledger.begin_payout(2)
    ledger.payout_baseline(hopper.lifetime, 0)
    hopper.lifetime, hopper.level = hopper.lifetime + 1, hopper.level - 1  # one coin out, unreported
    hopper._save()
    owe(cab, 1, 2)  # seat 1 collects meanwhile; then the power goes
    cab.journal.close()
    cab = boot(tmp_path)
    run_payouts(cab, hopper)  # seat 2's count first, or seat 1's coins would be read as seat 2's
    check_counter(cab, hopper, [1, 2, 3])
    assert [cab.seats[n].meters.get("hopper_out") for n in (1, 2)] == [20, 20] and hopper.lifetime == 4
    assert cab.seats[2].meters.get("hopper_extra_out") == 0 and cab.lock_of(2) is None
    assert cab.cabinet_meters.get("hopper_out_unexplained") == 0 and cab.hopper_counter(3) == 4
    cab.journal.close()


def test_a_motor_still_running_at_start_up_is_stopped_before_the_count_is_taken():
    from hardware.cctalk.ledger import MemoryLedger

    from tests.test_cctalk_host import Rig

    rig = Rig()
    before = rig.hopper()
    rig.hop.inject("runaway", None, rig.clock())
    before.payout(2, MemoryLedger())  # ...the motor runs on, and the host goes down
    rig.bus.wait(0.3)
    assert rig.hop.busy
    hopper = rig.hopper()  # the host starts again
    lifetime = hopper.lifetime_now(settle=True)
    assert not rig.hop.busy and lifetime == rig.hop.lifetime == hopper.lifetime_seen
    rig.bus.wait(0.5)
    assert hopper.dispense_count() == lifetime


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_bus_simulator_killed_mid_payout_pauses_play_and_the_payout_completes_exactly_on_its_restart(tmp_path):
    """Issue 24, finding 7: the cabinet died 0.1 s after the bus simulator (as an unplugged
    adapter) with ``RuntimeError: the ccTalk bus worker stopped``. The simulator is stopped the
    way a cut hopper stops (its coins counted), killed, and started again on the same link with
    the count its hopper had."""
    link = ["--link", f"socket://127.0.0.1:{free_port()}"]
    # a coin a second: the cut comes while the hopper pays even when the cabinet hears of the
    # coins seconds late on a loaded machine (at four a second it once heard of two when all ten
    # had gone, and there was no payout left to cut)
    bus = SimProcess.start([*sim_args("3:speed=1,level=400"), *link])
    app = cabinet_on(bus, tmp_path)
    again: SimProcess | None = None
    try:
        ready(app, bus)
        bus.control.coin(2, "EU200A", 5)
        run_until(app, lambda: app.cab.seats[1].money.credit == 100, what="the coins")
        with app.lock:
            app.cab.press(1, "collect", app.clock())  # ten coins owed
        run_until(app, lambda: app.cab.seats[1].meters.get("hopper_out") // 10 >= 2, what="two coins paid")
        bus.control.fault(3, "powercut")  # the motor stops where it is, its count kept...
        lifetime = bus.control.count(3, "lifetime")
        bus.proc.kill()  # ...and the simulator (the adapter, the devices) is gone: SIGKILL
        bus.stop()
        run_until(app, lambda: app.cab.paused("bus"), what="play paused")
        assert "ccTalk bus: no reply" in app.banner() and app.worker.error is None
        assert app.cab.is_paying(1)
        again = SimProcess.start([*sim_args(f"3:speed=40,level=400,lifetime={lifetime}"), *link])
        run_until(app, lambda: not app.cab.paused("bus") and not app.cab.is_paying(1), timeout=30,
                  what="the bus back and the payout done")
        seat = app.cab.seats[1]
        assert seat.meters.get("hopper_out") == 100 and seat.money.credit == 0 and app.cab.lock_of(1) is None
        assert again.control.count(3, "lifetime") == 10 == app.cab.hopper_counter(3)  # exactly ten coins, in all
        assert seat.meters.get("hopper_extra_out") == 0 and app.cab.cabinet_meters.get("hopper_out_unexplained") == 0
    finally:
        app.close()
        bus.stop()
        if again is not None:
            again.stop()


def test_coins_pushed_into_the_inhibited_acceptor_during_a_long_payout_are_read_as_they_come_and_tilt_nothing(tmp_path):
    """A player pushing coins while the hopper pays: each is refused (the acceptor is inhibited
    while a hopper pays) and is an event in its five-event buffer. The acceptors are read between
    the payout's polls; before, they went unread for the whole payout, and the sixth refused coin
    was a counter fault that tilted the seat."""
    bus = SimProcess.start(sim_args("3:speed=1,level=400"))  # (slow: the pushes outlast no payout, however loaded)
    app = cabinet_on(bus, tmp_path)
    try:
        ready(app, bus)
        bus.control.coin(2, "EU200A", 5)
        run_until(app, lambda: app.cab.seats[1].money.credit == 100, what="the coins")
        with app.lock:
            app.cab.press(1, "collect", app.clock())  # ten coins owed: ten seconds at one a second
        run_until(app, lambda: app.cab.seats[1].meters.get("hopper_out") >= 10, what="the first coin paid")
        for k in range(1, 9):  # pushed one after another while the hopper pays, each once the last was read
            bus.control.coin(2, "EU100A")  # (read as it comes: never the six unread a loaded machine could leave)
            run_until(app, lambda k=k: app.cab.acceptor_counter(2) == 5 + k, what=f"refused coin {k} read")
        assert app.cab.is_paying(1), "the payout ended before the coins were pushed: slow the hopper"
        run_until(app, lambda: not app.cab.is_paying(1), timeout=30, what="the payout done")
        assert bus.control.count(2, "counter") == 13  # five credits, eight refusals
        run_until(app, lambda: app.cab.acceptor_counter(2) == 13, what="every event read")
        seat = app.cab.seats[1]
        assert app.cab.lock_of(1) is None and events(app.cab, "coin_counter_fault") == []
        assert seat.meters.get("hopper_out") == 100 and seat.money.credit == 0  # the refused coins credited nothing
    finally:
        app.close()
        bus.stop()
