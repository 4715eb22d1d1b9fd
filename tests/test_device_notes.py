"""Banknotes end to end, headless, through the real serial link: the cabinet against the bus
simulator's bill validators (a process of its own on a pty). Notes go in only through the
simulator's control channel; the test reads what the cabinet did from its meters and journal
and what the validator did from its own status (its stacker's count, its escrow)."""

from __future__ import annotations

import time

import pytest

from machine.devtools.harness import SimulatedCabinet
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from tests.e2e_helpers import run_until
from tests.helpers import pin_setting

pytestmark = pytest.mark.timeout(120)

DEVICES = ("devices: {panel: sim, bus: sim, acceptors: {1: 2, 2: 11}, validators: {1: 40, 2: 41}, "
           "hoppers: [{address: 3, seats: [1, 2]}]}")


def config(*settings: str) -> str:
    lines = ["seats: 2", "coins: {EU050A: 5, EU100A: 10, EU200A: 20}", *settings, DEVICES]
    return "\n".join(lines) + "\n" + pin_setting()


@pytest.fixture
def app(tmp_path):
    cfg = temporary(parse_config(config("credit_limit: 400", "note_max: {2: 100}"), "notes.yaml"), tmp_path)
    a = SimulatedCabinet(cfg, tmp_path, headless=True)
    ready(a)
    yield a
    a.close()


def ready(app: SimulatedCabinet) -> None:
    control = app.sims.bus.control
    run_until(app, lambda: app.panel.link_up and all(
        control.status(v.address)["master"] == "1" for v in app.devices.validators.values()
    ), what="the panel link and the validators")


def status(app: SimulatedCabinet, address: int) -> dict[str, str]:
    return app.sims.bus.control.status(address)


def settle(app: SimulatedCabinet, seconds: float = 0.6) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.frame()
        time.sleep(0.01)


def records(app: SimulatedCabinet, kind: str, seat: int | None = None) -> list[dict]:
    return [r.data for r in app.cab.journal.records(kind, seat=seat)]


def events(app: SimulatedCabinet, name: str) -> list[dict]:
    return [e for e in records(app, "event") if e["event"] == name]


def test_a_note_is_journaled_as_accepted_then_stacked_and_credited_once_with_its_meters(app):
    cab = app.cab
    app.sims.bus.control.note(40, "EU0020A")
    run_until(app, lambda: cab.seats[1].money.credit == 200, what="the note's credit")
    settle(app)
    assert cab.seats[1].money.credit == 200
    life = cab.seats[1].meters.lifetime
    assert {k: v for k, v in life.items() if "note" in k or k == "total_in"} == {
        "note_in_count": 1, "note_in_value": 200, "note_in_count:EU0020A": 1, "note_in_value:EU0020A": 200,
        "total_in": 200}
    assert records(app, "note_accepted", 1) == [{"address": 40, "bill": "EU0020A", "points": 200}]
    seqs = [(r.kind, r.seq) for r in cab.journal.records(seat=1) if r.kind in ("note_accepted", "move")]
    assert seqs[0][0] == "note_accepted"  # recorded before any money moved
    st = status(app, 40)
    assert (st["stacked"], st["escrow"], st["credits"]) == ("1", "none", "1")


def test_notes_above_the_credit_limit_or_the_seats_largest_are_returned_and_credit_nothing(app):
    cab = app.cab
    app.sims.bus.control.note(40, "EU0050A")  # 500 > credit limit 400
    app.sims.bus.control.note(41, "EU0020A")  # 200 > seat 2's largest note, 100
    run_until(app, lambda: len(events(app, "note_returned")) == 2, what="both notes back")
    settle(app)
    assert sorted((r["bill"], r["reason"]) for r in records(app, "note_refused")) == [
        ("EU0020A", "above the seat's largest note"), ("EU0050A", "above the credit limit")]
    assert cab.seats[1].money.credit == cab.seats[2].money.credit == 0
    assert status(app, 40)["stacked"] == status(app, 41)["stacked"] == "0"
    app.sims.bus.control.note(41, "EU0010A")  # seat 2 takes 100
    run_until(app, lambda: cab.seats[2].money.credit == 100, what="seat 2's note")
    assert cab.seats[2].meters.get("note_in_value:EU0010A") == 100 and status(app, 41)["stacked"] == "1"


def test_a_note_pulled_back_out_of_escrow_credits_nothing_and_tilts_the_seat_in_its_own_words(app):
    cab = app.cab
    control = app.sims.bus.control
    control.note(40, "EU0005A")
    control.note_pull(40)  # before the cabinet's next poll: the note never reaches the stacker
    run_until(app, lambda: cab.seats[1].lock == "tilt", what="the tilt")
    settle(app)
    assert cab.seats[1].lock_detail == "bill validator: a note was pulled back"
    assert cab.seats[1].money.credit == 0 and cab.seats[1].meters.get("note_in_count") == 0
    [fraud] = events(app, "note_fraud")
    assert (fraud["code"], fraud["address"]) == (212, 40)
    assert not cab.may_take_coins(1)
    # the tilted seat takes no more notes: the validator inhibited at the bus's next pass (which a
    # loaded machine may make after the settling frames)
    run_until(app, lambda: status(app, 40)["master"] == "0", what="the validator inhibited")


@pytest.mark.parametrize(("fault", "words"), [
    ("jam", "bill validator: a note is jammed"),
    ("full", "bill validator: the cash box is full"),
    ("remove", "bill validator: the cash box was removed"),
])
def test_a_jam_a_full_or_a_removed_stacker_is_a_fault_event_and_tilts_only_its_seat(app, fault, words):
    cab = app.cab
    control = app.sims.bus.control
    if fault == "jam":
        control.note_jam(41)
    else:
        control.stacker(41, fault)
    run_until(app, lambda: cab.seats[2].lock == "tilt", what="the tilt")
    assert cab.seats[2].lock_detail == words
    assert [e["address"] for e in events(app, "note_fault")] == [41]
    assert cab.seats[1].lock is None and cab.may_take_coins(1)


def test_notes_stacked_while_the_cabinet_is_down_are_credited_once_and_a_jump_past_the_buffer_credits_none(tmp_path):
    from hardware.sim.launcher import SimProcess

    args = ["--acceptor", "2", "--acceptor", "11", "--hopper", "3", "--validator", "40", "--validator", "41"]
    with SimProcess.start(args) as bus:
        devices = DEVICES.replace("bus: sim", f"bus: {bus.link}")
        text = config().replace(DEVICES, devices)
        cfg = temporary(parse_config(text, "down.yaml"), tmp_path)
        first = SimulatedCabinet(cfg, tmp_path, headless=True)
        try:
            run_until(first, lambda: bus.control.status(40)["master"] == "1", what="validator 40 enabled")
            bus.control.note(40, "EU0010A")
            run_until(first, lambda: first.cab.seats[1].money.credit == 100, what="the first note")
            first.worker.stop()  # the cabinet goes down before its next poll...
            bus.control.note(40, "EU0020A")  # ...with a note in escrow, which waits for it
            for _ in range(3):  # and seven events on validator 41: more than its buffer shows
                bus.control.note(41, "EU0005A")
                bus.control.note_pull(41)
            bus.control.stacker(41, "insert")
        finally:
            first.close()
        again = SimulatedCabinet(cfg, tmp_path, headless=True)
        try:
            run_until(again, lambda: again.cab.seats[1].money.credit == 300, what="the note from the downtime")
            # validator 41 read too (a pass of the bus may end after the note's credit)
            run_until(again, lambda: events(again, "note_counter_fault") and again.cab.seats[2].lock == "tilt",
                      what="validator 41's counter fault")
            settle(again)
            cab = again.cab
            assert cab.seats[1].money.credit == 300 and cab.seats[1].meters.get("note_in_count") == 2
            [fault] = events(again, "note_counter_fault")
            assert (fault["address"], fault["journal"], fault["device"]) == (41, 0, 7)
            assert cab.seats[2].lock == "tilt" and cab.seats[2].money.credit == 0
        finally:
            again.close()


def test_the_note_keys_of_the_window_queue_notes_one_at_a_time_and_each_is_credited(tmp_path, monkeypatch):
    import pygame

    from machine.devtools.harness import NOTE_KEYS, NOTE_PACE
    from machine.loop import wiring

    assert NOTE_KEYS == {"g": "EU0005A", "h": "EU0010A", "j": "EU0020A", "k": "EU0050A"}
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    cfg = temporary(parse_config(config(), "keys.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda *args: "stand")
    try:
        ready(app)
        for key in (pygame.K_j, pygame.K_j, pygame.K_g):  # faster than a validator: one frame
            app.on_input(pygame.event.Event(pygame.KEYDOWN, key=key))
        seat = app.cab.seats[1]
        run_until(app, lambda: seat.money.credit == 450 or seat.lock is not None, timeout=3 * NOTE_PACE + 10,
                  what="three notes")
        settle(app)
        with app.lock:
            assert seat.lock is None and seat.money.credit == 450
            assert (seat.meters.get("note_in_count:EU0020A"), seat.meters.get("note_in_count:EU0005A")) == (2, 1)
        assert status(app, 40)["box"] == "EU0005A:1+EU0020A:2"
        assert events(app, "note_rejected") == []  # none arrived while another waited in escrow
    finally:
        app.close()


# slow: a headless soak of four rounds a seat in real time on the simulators (ptys)
def test_the_headless_soaks_robots_put_in_notes_too_and_its_accounts_include_them(tmp_path, capsys, monkeypatch):
    from machine.devtools import soak

    monkeypatch.setattr(soak, "NOTE_SHARE", 0.5)
    cfg = parse_config(config(), "soak.yaml")
    assert soak.soak(cfg, tmp_path, rounds=4, seed=3) == 0
    out = capsys.readouterr().out
    [money] = [line for line in out.splitlines() if line.startswith("coins in ")]
    notes = int(money.split("; notes in ")[1].split()[0])
    assert notes > 0 and notes % 50 == 0 and "every meter and coin accounted for" in out
