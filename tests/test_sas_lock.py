"""The host's AFT lock (74) holds the seat back: no new bet, no round, until the lock ends.

The lock is the machine's (hardware/sas/aft.py): taken when the seat is in no round, ended by a
completed transfer, the host's cancel or its timeout. The cabinet hears each change
(``Cabinet.aft_lock``), shows it on the seat's screen in the player's words and journals nothing
(no money moves; a restart ends the lock as it ends the machine's).
"""

from __future__ import annotations

import time

import pytest

from hardware.sas.host import SasHost, aft_lock_poll

from machine.display.view import build_view
from machine.i18n import Words
from tests.cabinet_helpers import boot, stacked_shoes
from tests.e2e_helpers import run_until
from tests.test_sas_aft_cabinet import AFT, MasterLink, transfer
from tests.test_sas_cabinet import cabinet, synced

pytestmark = pytest.mark.timeout(180)
WAIT = "Transfer in progress: please wait"


def test_a_locked_seat_takes_no_bet_and_is_dealt_into_no_round_and_the_lock_is_never_journaled(tmp_path):
    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", now=0)
    assert cab.press(1, "+2", 1.0) and cab.press(2, "+2", 1.0)
    seen = cab.journal.last_seq
    cab.aft_lock(1, True)
    assert cab.journal.last_seq == seen  # no record: the lock moves no money
    assert not cab.is_live(1, "+2") and not cab.press(1, "+2", 1.2) and not cab.press(1, "start", 1.2)
    assert cab.may_take_coins(1) and cab.is_live(1, "collect")  # coins and Collect as before
    view = build_view(cab, 1.3).seats[0]
    assert view.message == WAIT
    assert [Words(lang)(WAIT) for lang in ("en", "nl", "nb", "ru")] == [
        WAIT, "Overboeking bezig: even geduld", "Overføring pågår: vent litt", "Идёт перевод: подождите"]
    assert cab.press(2, "start", 1.5)
    cab.tick(40.0)  # the betting time runs out: the round starts without the locked seat
    assert cab.round is not None and not cab.in_round(1) and cab.in_round(2)
    assert cab.seats[1].money.bet == 2 and "aft_locked" not in cab.seats[1].to_dict()
    cab.aft_lock(1, False)
    assert build_view(cab, 41.0).seats[0].message != WAIT
    cab.aft_lock(1, True)
    cab.journal.close()
    again = boot(tmp_path, stacked_shoes("2S 2D 2H 2C"))
    assert not again.seats[1].aft_locked  # a restart ends it (the machine's lock is gone too)
    again.journal.close()


def lock(app, host: SasHost, code: int, hundredths: int = 0) -> int:
    """74 as the host sends it; the lock status it answers (00 locked, FF not locked)."""
    reply = host.exchange(aft_lock_poll(1, code, 0, hundredths), 0x74)
    synced(app)  # the cabinet hears the lock's change at its next frame
    return reply.data[4]


def test_the_hosts_lock_holds_the_seat_until_cancelled_timed_out_or_a_transfer_completes(tmp_path):
    with cabinet(tmp_path, AFT) as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=5.0)
        seat = app.cab.seats[1]
        assert transfer(app, host, "IN-0", 500).status == 0x00 and app.cab.is_live(1, "+2")  # 50 points to bet
        assert lock(app, host, 0x00, 3000) == 0x00  # locked for 30 s
        run_until(app, lambda: seat.aft_locked, what="the lock")
        assert not app.cab.is_live(1, "+2") and build_view(app.cab, time.monotonic()).seats[0].message == WAIT
        assert not app.cab.seats[2].aft_locked
        assert lock(app, host, 0x80) == 0xFF  # the host cancels it
        run_until(app, lambda: not seat.aft_locked, what="the release")
        assert app.cab.is_live(1, "+2")
        # two seconds: long enough that the cabinet of a loaded machine still hears the lock before
        # it times out, and it holds for no less than that
        asked = time.monotonic()
        assert lock(app, host, 0x00, 200) == 0x00
        run_until(app, lambda: seat.aft_locked, what="the lock")
        run_until(app, lambda: not seat.aft_locked, timeout=60, what="the lock's timeout")
        assert time.monotonic() - asked >= 2.0
        assert lock(app, host, 0x00, 3000) == 0x00
        run_until(app, lambda: seat.aft_locked, what="the lock")
        assert transfer(app, host, "IN-L", 500).status == 0x00  # the transfer completes: the lock ends
        run_until(app, lambda: not seat.aft_locked, what="the release by the transfer")
        assert seat.money.credit == 100 and app.cab.is_live(1, "+2")
        assert not [r for r in app.cab.journal.records("event", seat=1) if "lock" in r.data["event"]]
