"""Administration: settings, RAM clear, period reset, pauses, the self-audit, operator events.

Owns: what the operator's inputs do to the state (a machine setting acts at once; a setting of
the game's mathematics waits for the next RAM clear, so the meters never mix two games), the
RAM clear (every meter, credit, lock, round and payout cleared; the game rebuilt from the rules
then in force), the period reset, the pauses (door, panel link, operator menu) and the
self-audit before every game and every payout. Each function runs INSIDE the transaction the
``Cabinet`` opened for the input; none opens one, none reads a clock.
"""

from __future__ import annotations

from typing import Any

from machine.core.context import AFT_SETTINGS, MACHINE_SETTINGS, MONEY_SETTINGS, Core
from machine.core.state import SeatState
from machine.games.text import Text
from machine.money.meters import Meters
from machine.money.seatmoney import SeatMoney, TableLimits


def fresh_seat(core: Core, n: int) -> SeatState:
    return SeatState(n, SeatMoney(limits=TableLimits.of(core.rules), settings=core.settings.money))


# -- the self-audit ---------------------------------------------------------------------------


def audit(core: Core, seat: SeatState, when: str) -> bool:
    """Check the seat's equation; on failure lock it with a memory error. True if locked."""
    m = seat.money
    problem = m.audit_problem()
    life = seat.meters.lifetime
    if problem is None:
        lhs = m.credit + m.club
        rhs = life.get("total_in", 0) - life.get("total_out", 0) + life.get("total_won", 0) - life.get("total_bet", 0)
        if lhs != rhs and seat.lock != "memory_error":
            problem = f"meters: credit + club = {lhs}, but total in - out + won - bet = {rhs}"
    if problem is None:
        return seat.lock == "memory_error"
    if seat.lock != "memory_error":
        seat.lock = "memory_error"
        seat.lock_detail = Text("self-audit failed before {when}: {problem}", when=when, problem=problem)
        core.store.event("memory_error", seat.number, reason=seat.lock_detail)
        core.store.seat_dirty(seat)
    return True


# -- settings ---------------------------------------------------------------------------------


def is_machine_setting(name: str) -> bool:
    return name in MONEY_SETTINGS or name in MACHINE_SETTINGS or name in AFT_SETTINGS


def current_setting(core: Core, name: str) -> Any:
    if name in AFT_SETTINGS:
        return getattr(core.settings.aft, AFT_SETTINGS[name])
    return getattr(core.settings.money if name in MONEY_SETTINGS else core.settings, name)


def change_machine_setting(core: Core, name: str, old: Any, value: Any, who: str) -> None:
    core.apply_settings({**core.state.row.overrides, name: value}, core.state.row.rule_overrides)
    for seat in core.state.seats.values():
        seat.money.settings = core.settings.money
        core.store.seat_dirty(seat)
    core.store.event("settings_changed", name=name, old=old, new=value, by=who)


def change_rule_after_ram_clear(core: Core, name: str, old: str, value: Any, who: str) -> None:
    core.state.row.pending_rules[name] = value
    core.store.event("settings_changed", name=name, old=old, new=value, by=who, after_ram_clear=True)


# -- the game in force --------------------------------------------------------------------------


def cabinet_idle(core: Core) -> bool:
    """No seat has a bet or a hand: the game may change (the meters never mix two games' rounds)."""
    return core.state.round is None and all(s.money.bet == 0 for s in core.state.seats.values())


def select_game(core: Core, name: str, who: str, seat: int | None = None, now: float | None = None) -> None:
    """Put game ``name`` in force now (the cabinet is idle). Each game keeps its own rule
    settings (those in force and those waiting for a RAM clear) while another is played.
    ``seat``: the seat whose Draw/Stand chose it (its event is the seat's, "seat N" in the event
    log), None for the operator. Every screen announces the change from ``now`` (None: from the
    first time a screen asks, an operator's change made with play paused); the last round's
    results, of the old game, leave the screens."""
    row = core.state.row
    old = core.profile.game
    row.game_rules[old] = {"in_force": dict(row.rule_overrides), "pending": dict(row.pending_rules)}
    saved = row.game_rules.pop(name, {})
    row.game = name
    row.pending_game = None
    row.pending_rules = dict(saved.get("pending", {}))
    core.apply_settings(row.overrides, saved.get("in_force", {}))
    for s in core.state.seats.values():
        s.money.limits = TableLimits.of(core.rules)
        s.ready = False
        core.store.seat_dirty(s)
    core.store.event("settings_changed", seat, name="game", old=old, new=name, by=who)
    core.game_shown = {"game": name, "seat": seat, "at": now}
    core.last_round = None


def choose_game_later(core: Core, name: str, who: str) -> None:
    """The game chosen while a seat has a bet or a hand: in force when none has."""
    core.state.row.pending_game = name
    core.store.event("settings_changed", name="game", old=core.profile.game, new=name, by=who, when="no seat has a bet or a hand")


def ram_clear(core: Core, who: str) -> None:
    """Clear every meter, credit, club, lock, round and payout; put the waiting rules in force."""
    row = core.state.row
    if row.pending_rules:
        core.apply_settings(row.overrides, {**row.rule_overrides, **row.pending_rules})
        row.pending_rules = {}
    clears = row.meters.get("ram_clears") + 1
    row.meters = Meters()
    row.meters.lifetime["ram_clears"] = clears
    for n in core.state.seats:
        core.state.seats[n] = fresh_seat(core, n)
        core.store.seat_dirty(core.state.seats[n])
    core.state.round, core.state.round_meta, core.state.round_shoe = None, {}, []
    row.round_no = 0
    row.betting_since = row.decision_since = None
    core.store.mark("round", "payouts")
    core.store.event("ram_clear", by=who)


def reset_period(core: Core, who: str) -> None:
    """Zero every period meter (the lifetime meters run on)."""
    for seat in core.state.seats.values():
        seat.meters.reset_period()
        core.store.seat_dirty(seat)
    core.state.row.meters.reset_period()
    core.state.row.meters.add("period_resets")
    core.store.event("period_reset", by=who)


def power_up(core: Core) -> None:
    core.state.row.meters.add("power_ups")
    core.store.event("power_up")
    for seat in core.state.seats.values():
        core.store.seat_dirty(seat)  # a fresh journal gets every row in its first transaction
        audit(core, seat, "power-up")


# -- pauses -----------------------------------------------------------------------------------


def pause(core: Core, why: str, now: float) -> None:
    core.state.row.pauses[why] = now
    if why == "door":
        core.state.row.meters.add("door_openings")
        core.store.event("door_open")
    elif why == "operator":  # the operator's key: play waits, nothing is wrong
        core.store.event("play_paused", reason=why)
    else:
        core.store.event("tilt", reason=why)


def resume(core: Core, why: str, now: float) -> None:
    row = core.state.row
    since = row.pauses.pop(why)
    if not row.pauses:
        # the paused time does not count against the betting time or a decision
        gap = max(0.0, now - since)
        if row.betting_since is not None:
            row.betting_since += gap
        if row.decision_since is not None:
            row.decision_since += gap
    core.store.event({"door": "door_closed", "operator": "play_resumed"}.get(why, "tilt_cleared"), reason=why)
