"""The lockout after wrong operator PINs: counted in the journal, so a restart does not clear it.

Owns: the policy (``FREE_TRIES`` wrong PINs in a row cost nothing; each further one locks the
PIN entry for ``FIRST_LOCK`` seconds, doubling with every further wrong PIN up to ``MOST_LOCK``;
the right PIN sets the count back to zero), the cabinet row's ``pin_lock`` and the event-log
records of a wrong PIN and of a lockout. A lock is measured in time the cabinet has been
running, never on the wall clock, so no clock change shortens or freezes it: the row keeps
``wrong`` (wrong PINs in a row), ``left`` (seconds of running time the lock still had at
``since``, a time of the loop's monotonic clock) and ``run`` (the sequence number of this
run's power-up record: the loop's clock restarts with the machine, so a lock journaled in an
earlier run counts on from its ``left`` at the first tick of this one). While a lock runs the
time served is journaled every ``SERVED_EVERY`` seconds, so a restart gives back at most that.
Each function that changes anything runs INSIDE the transaction the ``Cabinet`` opened; none
reads a clock, none checks a PIN (machine/operator/pin.py hashes; the menu asks).

With these numbers the 10 000 PINs of four digits take over a year at the panel: after the
first eight locks (30 s ... 1 h) every wrong PIN costs an hour of the cabinet's running.
"""

from __future__ import annotations

from machine.core.context import Core

FREE_TRIES = 3  # wrong PINs in a row before the first lock (a mistyped PIN costs nothing)
FIRST_LOCK = 30.0  # seconds locked after the first wrong PIN beyond the free ones
MOST_LOCK = 3600.0  # the longest lock: each further wrong PIN doubles it up to this
SERVED_EVERY = 10.0  # seconds of running time between the journal's notes of a lock's time served


def lock_seconds(wrong: int) -> float:
    """How long the PIN entry is locked after the ``wrong``-th wrong PIN in a row (0: not)."""
    if wrong <= FREE_TRIES:
        return 0.0
    return min(FIRST_LOCK * 2.0 ** min(wrong - FREE_TRIES - 1, 32), MOST_LOCK)


def _run(core: Core) -> int:
    """This run of the cabinet: the sequence number of its power-up record."""
    return core.journal.last_of("power_up")


def seconds_left(core: Core, now: float) -> float:
    """Seconds of running time until the PIN entry takes digits again (0.0: it does now)."""
    lock = core.state.row.pin_lock
    most = lock_seconds(lock.get("wrong", 0))
    if "left" not in lock:  # none, or the wall-clock form of before: never shorter than the count earned
        return most if lock.get("until") else 0.0
    if lock.get("run") != _run(core):  # journaled in an earlier run: it counts on from the next tick
        return max(0.0, min(lock["left"], most))
    return max(0.0, min(lock["left"] - max(0.0, now - lock["since"]), most))


def due(core: Core, now: float) -> bool:
    """Whether the time a lock has been served should be journaled now (a tick's question)."""
    lock = core.state.row.pin_lock
    if lock.get("until"):
        return True
    if not lock.get("left"):
        return False
    return lock.get("run") != _run(core) or not 0 <= now - lock["since"] < SERVED_EVERY


def served(core: Core, now: float) -> None:
    """The running time served so far, journaled: the lock counts on from ``now``."""
    lock = core.state.row.pin_lock
    core.state.row.pin_lock = {"wrong": lock.get("wrong", 0), "left": seconds_left(core, now), "since": now,
                               "run": _run(core)}


def refused(core: Core, now: float) -> float:
    """A wrong PIN: counted and logged, and the lock it earns (seconds, 0.0: none) logged too."""
    row = core.state.row
    wrong = row.pin_lock.get("wrong", 0) + 1
    seconds = lock_seconds(wrong)
    row.pin_lock = {"wrong": wrong, "left": seconds, "since": now, "run": _run(core)} if seconds else {"wrong": wrong}
    core.store.event("pin_wrong", wrong=wrong)
    if seconds:
        core.store.event("pin_locked", wrong=wrong, seconds=int(seconds))
    return seconds


def accepted(core: Core) -> None:
    """The right PIN: the count of wrong ones starts again."""
    core.state.row.pin_lock = {}
