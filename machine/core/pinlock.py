"""The lockout after wrong operator PINs: counted in the journal, so a restart does not clear it.

Owns: the policy (``FREE_TRIES`` wrong PINs in a row cost nothing; each further one locks the
PIN entry for ``FIRST_LOCK`` seconds, doubling with every further wrong PIN up to ``MOST_LOCK``;
the right PIN sets the count back to zero), the cabinet row's ``pin_lock`` (``wrong``: wrong
PINs in a row, ``until``: the wall-clock time the lock ends) and the event-log records of a
wrong PIN and of a lockout. The lock is kept on the wall clock (the loop's ``now`` restarts
with the machine); a wall clock set back cannot stretch a lock beyond the length the count
gives. Each function that changes anything runs INSIDE the transaction the ``Cabinet`` opened;
none reads a clock, none checks a PIN (machine/operator/pin.py hashes; the menu asks).

With these numbers the 10 000 PINs of four digits take over a year at the panel: after the
first eight locks (30 s ... 1 h) every wrong PIN costs an hour.
"""

from __future__ import annotations

from machine.core.context import Core

FREE_TRIES = 3  # wrong PINs in a row before the first lock (a mistyped PIN costs nothing)
FIRST_LOCK = 30.0  # seconds locked after the first wrong PIN beyond the free ones
MOST_LOCK = 3600.0  # the longest lock: each further wrong PIN doubles it up to this


def lock_seconds(wrong: int) -> float:
    """How long the PIN entry is locked after the ``wrong``-th wrong PIN in a row (0: not)."""
    if wrong <= FREE_TRIES:
        return 0.0
    return min(FIRST_LOCK * 2.0 ** min(wrong - FREE_TRIES - 1, 32), MOST_LOCK)


def seconds_left(core: Core, now: float) -> float:
    """Seconds until the PIN entry takes digits again (0.0: it does now)."""
    lock = core.state.row.pin_lock
    if not lock.get("until"):
        return 0.0
    left = lock["until"] - core.wall(now)
    return max(0.0, min(left, lock_seconds(lock.get("wrong", 0))))


def refused(core: Core, now: float) -> float:
    """A wrong PIN: counted and logged, and the lock it earns (seconds, 0.0: none) logged too."""
    row = core.state.row
    wrong = row.pin_lock.get("wrong", 0) + 1
    seconds = lock_seconds(wrong)
    row.pin_lock = {"wrong": wrong, "until": core.wall(now) + seconds if seconds else None}
    core.store.event("pin_wrong", wrong=wrong)
    if seconds:
        core.store.event("pin_locked", wrong=wrong, seconds=int(seconds))
    return seconds


def accepted(core: Core) -> None:
    """The right PIN: the count of wrong ones starts again."""
    core.state.row.pin_lock = {}
