"""The PIN lockout is measured in time the cabinet has been running (issue 24, finding 15):
the wall clock moved forward or back, at start or while running, neither ends nor freezes it."""

from __future__ import annotations

from .cabinet_helpers import boot
from .test_operator_pin import settings_menu, try_pin

HOUR = 3600.0
WALL = 1_800_000_000.0  # some wall-clock time


def locked_cabinet(tmp_path, now: float = 5.0):
    cab = boot(tmp_path)
    cab.tick(now, WALL)
    menu = settings_menu(cab)
    for _ in range(4):  # three free, the fourth locks for 30 s
        try_pin(menu, "1111", now)
    assert cab.pin_locked_for(now) == 30
    return cab


def test_the_clock_moved_an_hour_forward_while_running_does_not_end_the_lock(tmp_path):
    cab = locked_cabinet(tmp_path)
    cab.tick(6.0, WALL + HOUR)  # one second of running, the wall clock an hour on
    assert cab.pin_locked_for(6.0) == 29
    menu = settings_menu(cab)
    try_pin(menu, "2468", 6.0)
    assert not menu.unlocked
    cab.tick(35.0, WALL + HOUR + 29)
    assert cab.pin_locked_for(35.0) == 0


def test_the_clock_set_back_while_running_does_not_freeze_the_lock(tmp_path):
    cab = locked_cabinet(tmp_path)
    cab.tick(20.0, WALL - HOUR)  # 15 s of running, the wall clock an hour back
    assert cab.pin_locked_for(20.0) == 15
    cab.tick(35.0, WALL - HOUR + 15)
    assert cab.pin_locked_for(35.0) == 0
    menu = settings_menu(cab)
    try_pin(menu, "2468", 35.0)
    assert menu.unlocked


def test_a_start_with_the_clock_an_hour_ahead_or_behind_keeps_the_lock(tmp_path):
    cab = locked_cabinet(tmp_path)
    cab.tick(12.0, WALL + 7)  # 7 s served, not yet journaled (every 10 s)
    cab.tick(16.0, WALL + 11)  # 11 s served: journaled
    cab.journal.close()
    for wall in (WALL + HOUR, WALL - HOUR):
        again = boot(tmp_path)  # the loop's clock starts from 0 again
        again.tick(0.0, wall)
        assert again.pin_locked_for(0.0) == 19
        try_pin(settings_menu(again), "2468", 0.0)
        assert again.pin_locked_for(1.0) == 18
        again.journal.close()
    again = boot(tmp_path)
    again.tick(100.0, WALL + 2 * HOUR)
    again.tick(119.0, WALL + 2 * HOUR + 19)
    assert again.pin_locked_for(119.0) == 0
    menu = settings_menu(again)
    try_pin(menu, "2468", 119.0)
    assert menu.unlocked
