"""The hopper's payout procedure on its own (hardware/cctalk/payout.py): scripted replies in,
requests, waits and ledger events out, with no bus, no port and no clock."""

from __future__ import annotations

from collections.abc import Generator

import pytest

from hardware.cctalk.headers import Header
from hardware.cctalk.host import NoReply, Reply
from hardware.cctalk.ledger import PendingPayout
from hardware.cctalk.payout import (
    Answer,
    Ask,
    Baseline,
    Begin,
    Ended,
    HopperLogic,
    Now,
    Paid,
    PayoutFault,
    Step,
    Unexplained,
    Wait,
)

SERIAL = 0x0A0B0C


def drive(procedure: Generator[Step, object, object], replies: dict[int, list[bytes | None]],
          away: dict[int, float] | None = None):
    """Run ``procedure`` against ``replies`` (header -> its replies in turn; None: no reply);
    time moves 0.1 s at every wait, and at the ``n``-th wait (from 1) ``away[n]`` more, the time
    the bus spent on other devices (as the driver answers the wait). Returns every step it
    yielded and what it returned."""
    steps: list[Step] = []
    answer: object = None
    now = 0.0
    waits = 0
    while True:
        try:
            step = procedure.send(answer)
        except StopIteration as done:
            return steps, done.value
        steps.append(step)
        answer = None
        if isinstance(step, Ask):
            data = replies[step.header].pop(0)
            answer = Answer(error=NoReply("test", 3, "no reply")) if data is None else Answer(Reply(3, 0, data))
        elif isinstance(step, Wait):
            waits += 1
            extra = (away or {}).get(waits, 0.0)
            now += step.seconds + extra
            answer = extra
        elif isinstance(step, Now):
            answer = now


def same(reply: bytes, n: int) -> list[bytes | None]:
    """``n`` replies alike (168 is read until two in a row agree)."""
    return [reply] * n


def logic() -> HopperLogic:
    h = HopperLogic(3)
    h.serial = SERIAL
    return h


def ledger_events(steps: list[Step]) -> list[Step]:
    return [s for s in steps if not isinstance(s, Ask | Wait | Now)]


def test_a_payout_is_its_requests_in_order_and_each_coin_a_ledger_event_as_the_status_shows_it():
    replies: dict[int, list[bytes | None]] = {
        Header.HOPPER_STATUS: [bytes((5, 0, 0, 0)), bytes((6, 1, 1, 0)), bytes((6, 0, 2, 0))],
        Header.DISPENSE_COUNT: same(bytes((100, 0, 0)), 2) + same(bytes((102, 0, 0)), 2),  # believed when two agree
        Header.TEST_HOPPER: [b"\x00", b"\x00"],
        Header.ENABLE_HOPPER: [b"", b""],
        Header.DISPENSE: [bytes((6,))],
    }
    steps, result = drive(logic().payout(2), replies)
    assert ledger_events(steps) == [Begin(2), Baseline(100, 5, SERIAL), Paid(1), Paid(1), Ended(2, 0, None)]
    assert [s.header for s in steps if isinstance(s, Ask)] == [
        Header.HOPPER_STATUS, Header.DISPENSE_COUNT, Header.DISPENSE_COUNT, Header.TEST_HOPPER, Header.ENABLE_HOPPER,
        Header.DISPENSE, Header.HOPPER_STATUS, Header.HOPPER_STATUS, Header.DISPENSE_COUNT, Header.DISPENSE_COUNT,
        Header.TEST_HOPPER, Header.ENABLE_HOPPER,
    ]
    dispense = next(s for s in steps if isinstance(s, Ask) and s.header == Header.DISPENSE)
    assert dispense.data == bytes((0x0C, 0x0B, 0x0A, 2)) and dispense.retries == 0  # serial LSB first, then n
    assert (result.paid, result.unpaid, result.fault, result.resolved) == (2, 0, None, True)
    assert all(not v for v in replies.values())  # every scripted reply asked for


def payout_replies(statuses: list[bytes | None], paid: int) -> dict[int, list[bytes | None]]:
    """A payout of ``paid`` coins from a lifetime count of 100 whose 166 replies during the
    payout are ``statuses`` (its 167 gives event counter 6)."""
    return {
        Header.HOPPER_STATUS: [bytes((5, 0, 0, 0)), *statuses],
        Header.DISPENSE_COUNT: same(bytes((100, 0, 0)), 2) + same(bytes((100 + paid, 0, 0)), 2),
        Header.TEST_HOPPER: [b"\x00", b"\x00"],
        Header.ENABLE_HOPPER: [b"", b""],
        Header.DISPENSE: [bytes((6,))],
    }


def test_the_time_the_bus_spends_on_other_devices_during_a_payout_is_not_the_hoppers_silence():
    """Three dead acceptors polled between two of the payout's polls hold the bus for 3.2 s, then
    one status poll goes unanswered: the hopper answered every poll it was asked, so the payout
    goes on to its end (it was left pending, "hopper stopped answering")."""
    statuses = [bytes((6, 2, 1, 0)), None, bytes((6, 1, 2, 0)), bytes((6, 0, 3, 0))]
    steps, result = drive(logic().payout(3), payout_replies(statuses, 3), away={2: 3.2})
    assert result.resolved and result.paid == 3 and result.fault is None
    assert ledger_events(steps)[-1] == Ended(3, 0, None)


def test_a_hopper_that_stops_answering_is_still_lost_track_of_while_the_bus_serves_the_others():
    statuses: list[bytes | None] = [bytes((6, 2, 1, 0))] + [None] * 200
    _, result = drive(logic().payout(3), payout_replies(statuses, 1), away={n: 1.0 for n in range(1, 300)})
    assert not result.resolved and result.fault == PayoutFault.NO_REPLY and result.paid == 1
    assert result.detail == "hopper stopped answering during the payout"


def test_a_lost_dispense_reply_is_resent_only_when_the_counts_show_it_was_not_taken():
    replies: dict[int, list[bytes | None]] = {
        Header.HOPPER_STATUS: [bytes((5, 0, 0, 0)), bytes((5, 0, 0, 0)), bytes((6, 0, 1, 0))],
        Header.DISPENSE_COUNT: same(bytes((100, 0, 0)), 4) + same(bytes((101, 0, 0)), 2),
        Header.TEST_HOPPER: [b"\x00", b"\x00"],
        Header.ENABLE_HOPPER: [b"", b""],
        Header.DISPENSE: [None, bytes((6,))],
    }
    steps, result = drive(logic().payout(1), replies)
    assert sum(1 for s in steps if isinstance(s, Ask) and s.header == Header.DISPENSE) == 2
    assert ledger_events(steps)[-1] == Ended(1, 0, None) and result.paid == 1


@pytest.mark.parametrize(("lifetime", "serial"), [(0, SERIAL), (1000, 0x777), (4, 0x777)])
def test_a_reconcile_the_count_cannot_explain_pays_nothing_and_asks(lifetime, serial):
    """Issue 24, finding 6, without a bus: a count behind the baseline (no wrap), a used hopper
    fitted, another hopper whose count a payout could explain."""
    h = HopperLogic(3)
    h.serial = serial
    replies: dict[int, list[bytes | None]] = {
        Header.HOPPER_STATUS: [bytes((0, 0, 0, 0))],
        Header.DISPENSE_COUNT: same(lifetime.to_bytes(3, "little"), 2),
        Header.TEST_HOPPER: [b"\x00"],
        Header.ENABLE_HOPPER: [b""],
    }
    steps, result = drive(h.reconcile(PendingPayout(10, 0, 5 if serial == SERIAL else 0, 0, SERIAL)), replies)
    before = 5 if serial == SERIAL else 0
    assert ledger_events(steps) == [Unexplained(before, lifetime, SERIAL, serial), Ended(0, 10, PayoutFault.UNEXPLAINED)]
    assert (result.paid, result.unpaid) == (0, 10)


def test_the_lifetime_count_is_believed_only_when_two_readings_agree():
    """A replayed or damaged 168 reply that passes its checksum moves nothing (issue 24's man in
    the middle: an old count read at a baseline became coins paid that never left)."""
    replies: dict[int, list[bytes | None]] = {Header.DISPENSE_COUNT: [bytes((7, 0, 0)), bytes((90, 0, 0)), bytes((90, 0, 0))]}
    steps, lifetime = drive(logic().dispense_count(), replies)
    assert lifetime == 90 and len(steps) == 3
    replies = {Header.DISPENSE_COUNT: [bytes((n, 0, 0)) for n in (1, 2, 3, 4)]}
    with pytest.raises(NoReply, match="168 readings do not agree after 4 tries"):
        drive(logic().dispense_count(), replies)


def test_the_driver_answers_a_wait_with_the_time_the_other_devices_took_beyond_it():
    from hardware.cctalk.hopper import Hopper

    class Clock:
        t, retries, link = 0.0, 3, "test"

        def clock(self) -> float:
            return self.t

        def wait(self, seconds: float) -> None:
            self.t += seconds

    bus = Clock()
    hopper = Hopper(bus, 3)  # type: ignore[arg-type]
    assert hopper._do(Wait(0.1), None) == 0.0 and bus.t == pytest.approx(0.1)

    def three_dead_devices() -> None:
        bus.t += 3.2

    hopper.between_polls = three_dead_devices
    assert hopper._do(Wait(0.1), None) == pytest.approx(3.1) and bus.t == pytest.approx(3.3)
