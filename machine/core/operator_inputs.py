"""The cabinet's inputs from the operator: settings, PINs, tournaments, the hopper test, RAM clear.

Owns: ``OperatorInputs``, each input ONE journal transaction handed to ``admin``,
``pinlock``, ``tournament`` or ``payouts`` (the hopper test: the ``PayoutLedger`` protocol
again, adapted by machine/loop/devices.py, its intent journaled before the hopper is sent
anything). Never draws the menu and never draws a random number (a tournament's seed comes in).
"""

from __future__ import annotations

from typing import Any

from machine.core import admin, aft, payouts, pinlock, tournament
from machine.core.context import AFT_SETTINGS
from machine.core.queries import CabinetQueries

HOST_CLOCK = "host_clock"  # the state row of the host's last 7F: {"clock": ISO, "at": the journal's time}
CLOCK_SET = "clock set by the host"  # the operator event a 7F is journaled as


class OperatorInputs(CabinetQueries):
    """What the operator menu does to the cabinet (see the module's docstring)."""

    def change_setting(self, name: str, value: Any, who: str) -> str:
        """Change a setting (journaled with its old and new value); returns what happens.

        Machine settings act at once; settings that change the game's mathematics wait for
        the next RAM clear, so the meters never mix two games. The AFT limits act at once on the
        transfers asked after the change (one already journaled was checked when it was asked);
        ``ValueError`` with AFT off, or a value or a pair of limits ``aft.setting_problem`` refuses.
        """
        core = self.core
        if name in AFT_SETTINGS:
            if core.settings.aft is None:
                raise ValueError(f"AFT is off (aft.enabled in the configuration): {name} cannot change")
            problem = aft.setting_problem(core.settings.aft, name, value)
            if problem is not None:
                raise ValueError(problem)
        if tournament.in_force(core.state) and not admin.is_machine_setting(name):
            if name != "game":
                raise ValueError(f"a tournament is on: {name} can change after it closes")
            if value not in core.profiles:
                raise ValueError(f"game {value!r} is not enabled (enabled: {', '.join(core.profiles)})")
            with core.tx("settings_change", {"name": name, "old": core.state.row.game or core.config_profile.game, "new": value,
                                             "by": who}):
                admin.choose_game_later(core, value, who)
            return "when the tournament has closed"
        if name == "game":
            if value not in core.profiles:
                raise ValueError(f"game {value!r} is not enabled (enabled: {', '.join(core.profiles)})")
            old = core.profile.game
            idle = admin.cabinet_idle(core)
            with core.tx("settings_change", {"name": name, "old": old, "new": value, "by": who}):
                (admin.select_game if idle else admin.choose_game_later)(core, value, who)
            return "changed" if idle else "when no seat has a bet or a hand"
        if admin.is_machine_setting(name):
            old = admin.current_setting(core, name)
            with core.tx("settings_change", {"name": name, "old": old, "new": value, "by": who}):
                admin.change_machine_setting(core, name, old, value, who)
            return "changed"
        old = getattr(core.rules, name)
        core.rules.with_overrides({name: value})  # raises RulesError on a bad value
        with core.tx("settings_change", {"name": name, "old": str(old), "new": value, "by": who, "after_ram_clear": True}):
            admin.change_rule_after_ram_clear(core, name, str(old), value, who)
        return "after the next RAM clear"

    def pin_locked_for(self, now: float) -> float:
        """Seconds the operator menu's PIN entry stays locked after wrong PINs (0.0: open)."""
        return pinlock.seconds_left(self.core, now)

    def pin_refused(self, now: float) -> float:
        """A wrong operator PIN: journaled and logged; returns the lock it earned in seconds."""
        with self.core.tx("pin", {"right": False, "now": now, "wall": self.core.wall(now)}):
            return pinlock.refused(self.core, now)

    def pin_accepted(self, now: float) -> None:
        """The right operator PIN: the count of wrong ones starts again (journaled if there were)."""
        if self.core.state.row.pin_lock:
            with self.core.tx("pin", {"right": True, "now": now, "wall": self.core.wall(now)}):
                pinlock.accepted(self.core)

    def operator_event(self, what: str, now: float, **detail: Any) -> None:
        """Something the operator did (or failed to do) that is logged but moves no money."""
        with self.core.tx("operator", {"what": what, "now": now, **detail}):
            self.core.store.event("operator", what=what, **detail)

    def host_clock_set(self, n: int, clock: str, now: float) -> None:
        """Seat ``n``'s host set the date and time (SAS 7F) to ``clock`` (ISO): logged as the
        operator event ``CLOCK_SET``, and kept in the state row ``HOST_CLOCK`` with the journal's
        time of the setting, so that the offset comes back at the next start however old the
        record (a state row is never archived, and is checked on every read)."""
        with self.core.tx("operator", {"what": CLOCK_SET, "now": now, "seat": n, "clock": clock}):
            self.core.store.event("operator", what=CLOCK_SET, seat=n, clock=clock)
            self.core.store.journal.put(HOST_CLOCK, {"clock": clock, "at": float(self.core.store.journal.clock())})

    def host_control(self, n: int, enabled: bool, now: float) -> bool:
        """The casino's host (SAS 01 / 02) shuts seat ``n`` down or starts it up: journaled as the
        seat's event; False when the seat already was so (nothing journaled)."""
        seat = self.core.state.seats[n]
        if seat.host_disabled != (not enabled):
            with self.core.tx("host_control", {"enabled": enabled, "now": now}, n):
                seat.host_disabled = not enabled
                self.core.store.seat_dirty(seat)
                self.core.store.event("host_enabled" if enabled else "host_disabled", n,
                                      what="enabled by the host" if enabled else "disabled by the host")
            return True
        return False

    def host_validation_read(self, n: int, ordinal: int, number: str, now: float) -> None:
        """Seat ``n``'s host took the record of voucher ``number`` (the seat's ``ordinal``-th
        printed) with SAS 4D 00: journaled as the seat's event, so that after a restart the records
        after it are the unread ones. No money moves."""
        with self.core.tx("host_validation_read", {"ordinal": ordinal, "number": number, "now": now}, n):
            self.core.store.event("sas_validation_read", n, ordinal=ordinal, number=number)

    def open_tournament(self, variant: str, entry: int, prizes: list[int], start: float | None, end: float | None,
                        seed: str, now: float, who: str) -> dict[str, Any]:
        """Open an eenendertigen tournament (the operator menu's Tournament page).

        ``start`` and ``end`` are seconds from ``now`` (None: at once; no end), kept as wall-clock
        times (the last tick's ``wall``) so a power cut does not move them; ``seed`` comes from
        the OS random source, drawn by the caller (the core draws no random number), journaled in
        the open record and shown nowhere until the close. Raises ``TournamentError`` (one line)
        when it cannot be opened.
        """
        core = self.core
        at = None if start is None else core.wall(now) + start
        until = None if end is None else core.wall(now) + end
        tournament.check_open(core, variant, entry, list(prizes), at, until, seed, now)
        with core.tx("tournament_open", {"variant": variant, "entry": entry, "prizes": list(prizes), "start": at,
                                         "end": until, "seed": seed, "now": now, "by": who}):  # the open record
            t = tournament.open_tournament(core, variant, entry, list(prizes), at, until, seed, now, who)
            if tournament.may_start(core, now):
                tournament.put_in_force(core, now)
        return tournament.public(t)

    def close_tournament(self, who: str, now: float) -> str:
        """Close the open tournament (the ranking final, the seed published, prizes as handpays);
        with a participant's round in play, at that round's end. Returns what happens."""
        if tournament.current(self.core.state) is None:
            raise tournament.TournamentError("no tournament is open")
        with self.core.tx("tournament_close_asked", {"by": who, "now": now}):
            done = tournament.ask_close(self.core, now, who, "closed by the operator")
        return "closed" if done else "at the end of the round in play"

    def reset_period(self, who: str) -> None:
        """Zero every period meter (the lifetime meters run on)."""
        with self.core.tx("period_reset", {"by": who}):
            admin.reset_period(self.core, who)

    # The operator menu's hopper test: the ``PayoutLedger`` protocol again (machine/loop/devices.py
    # adapts it), its intent journaled before the hopper is sent anything, its coins the
    # operator's (``hopper_test_coins``), a cut test reconciled at the next start.

    def hopper_test_pending(self) -> dict[str, Any] | None:
        """The hopper test a cut interrupted: hopper, requested, credited, lifetime_before, ..."""
        return dict(self.core.state.row.hopper_test) or None

    def hopper_test_begin(self, address: int, requested: int) -> None:
        with self.core.tx("hopper_test", {"hopper": address, "requested": requested}):
            payouts.test_begin(self.core, address, requested)

    def hopper_test_baseline(self, lifetime: int, counter: int, seats: list[int], serial: int | None = None) -> None:
        data = {"lifetime": lifetime, "counter": counter, **({"serial": serial} if serial is not None else {})}
        with self.core.tx("hopper_test_baseline", data):
            payouts.test_baseline(self.core, lifetime, counter, seats, serial)

    def hopper_test_paid(self, coins: int) -> None:
        with self.core.tx("hopper_test_paid", {"coins": coins}):
            payouts.test_paid(self.core, coins)

    def hopper_test_end(self, paid: int, unpaid: int, fault: str | None) -> None:
        with self.core.tx("hopper_test_end", {"paid": paid, "unpaid": unpaid, "fault": fault}):
            payouts.test_end(self.core, paid, unpaid, fault)

    def ram_clear(self, who: str) -> None:
        """Clear every meter, credit, club, lock, round and payout (operator, after confirmation).

        The journal keeps its chain: recall and events are read from the last RAM clear on.
        The game is rebuilt when the clear puts new rules in force: the next shoe follows them.
        """
        if self.payouts or self.core.state.row.hopper_test:
            raise RuntimeError("a RAM clear waits until no payout is in progress")
        if tournament.current(self.core.state) is not None:
            raise RuntimeError("a RAM clear waits until the tournament is closed")
        with self.core.tx("ram_clear", {"by": who, "rules": dict(self.pending_rules)}):
            admin.ram_clear(self.core, who)

