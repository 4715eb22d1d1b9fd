"""The cabinet core: every seat's money, the shared round and the journal, joined.

Owns: what each input (a coin, a button press, a decision, the clock moving on, a hopper
report, the attendant key) does to the seats and the round, with each input and all its effects
written in ONE journal transaction before anything is shown or acted upon; restoring all of it
at start-up, the interrupted round and payout included; the accounting meters; the self-audit
before every game and every payout; game recall and the event log.

Never opens a serial port, draws a frame or reads a clock: time comes in as ``now`` arguments,
random shoes from an injected source, the hopper is driven by whoever owns it through
``payouts_owed`` and the chunk ledger (``chunk_begin`` ... ``chunk_end``, see machine/payout.py).

Seat states (derived, never stored twice): ``idle`` (nothing on the meters), ``betting`` (a bet
being placed), ``in_round``, ``paying`` (the hopper owes coins), ``handpay`` (locked until the
attendant key), ``tilt`` (hopper fault; attendant), ``memory_error`` (self-audit failed; only a
RAM clear ends it), ``ready`` (has coins or club points, no bet).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from machine.games.cards import RandomSource, new_shoe, shuffle
from machine.money.journal import Journal, JournalError
from machine.money.meters import EVENT_CODES, Meters
from machine.games.round import Event, Round
from machine.games.rules import Profile
from machine.money.seatmoney import BET_BUTTONS, MoneySettings, Move, SeatMoney

PLAY_BUTTONS = {"draw": "hit", "stand": "stand", "double": "double", "split": "split", "surrender": "surrender"}
ALL_BUTTONS = BET_BUTTONS + ("start", "collect") + tuple(PLAY_BUTTONS) + ("insurance", "auto")

AutoStrategy = Callable[[Round], str]
MONEY_SETTINGS = ("payout", "hopper_limit", "remainder")
MACHINE_SETTINGS = ("betting_time", "decision_timeout", "credit_limit")
POWER_CUT = "power cut"  # a chunk cut short by a power cut: the rest is paid on after reconciling


@dataclass(frozen=True)
class CabinetSettings:
    seats: int = 4
    money: MoneySettings = field(default_factory=MoneySettings)
    coin_values: dict[str, int] = field(default_factory=lambda: {"EU050A": 5, "EU100A": 10, "EU200A": 20})
    credit_limit: int = 10_000  # no coins accepted while the credit meter is at or above this
    betting_time: float = 20.0
    decision_timeout: float = 15.0
    recall_games: int = 100


def open_cabinet(
    path: str | Path,
    profile: Profile,
    settings: CabinetSettings,
    shoe_for_round: Callable[[int], list[str]],
    auto: AutoStrategy,
    step_hook: Callable[[str], None] | None = None,
) -> Cabinet:
    """Open the journal at ``path`` and boot the cabinet from it; any doubt locks the machine."""
    try:
        journal = Journal(path, step_hook=step_hook)
    except JournalError as exc:
        raise CabinetLocked(f"memory error: {exc}") from None
    return Cabinet.boot(journal, profile, settings, shoe_for_round, auto)


def random_shoes(decks: int, rng: RandomSource) -> Callable[[int], list[str]]:
    """Shoes for the cabinet: a fresh shuffle of ``decks`` decks for every round."""
    return lambda round_no: shuffle(new_shoe(decks), rng)


class CabinetLocked(RuntimeError):
    """The journal failed its start-up check: the machine must not play."""


@dataclass
class SeatState:
    number: int
    money: SeatMoney
    meters: Meters = field(default_factory=Meters)
    ready: bool = False  # start pressed for the coming round
    lock: str | None = None  # "handpay", "tilt", "memory_error"
    lock_detail: str = ""
    handpay_owed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "money": self.money.to_dict(),
            "meters": self.meters.to_dict(),
            "ready": self.ready,
            "lock": self.lock,
            "lock_detail": self.lock_detail,
            "handpay_owed": self.handpay_owed,
        }

    @classmethod
    def from_dict(cls, number: int, d: dict[str, Any]) -> SeatState:
        return cls(
            number=number,
            money=SeatMoney.from_dict(d["money"]),
            meters=Meters.from_dict(d["meters"]),
            ready=d["ready"],
            lock=d["lock"],
            lock_detail=d["lock_detail"],
            handpay_owed=d["handpay_owed"],
        )


class Cabinet:
    """The controller of one cabinet. Build with ``Cabinet.boot``."""

    def __init__(
        self,
        journal: Journal,
        profile: Profile,
        settings: CabinetSettings,
        shoe_for_round: Callable[[int], list[str]],
        auto: AutoStrategy,
    ):
        self.journal = journal
        self.base_profile = profile
        self.base_settings = settings
        self.profile = profile
        self.rules = profile.rules
        self.settings = settings
        self.shoe_for_round = shoe_for_round
        self.auto = auto
        self.seats: dict[int, SeatState] = {}
        self.cabinet_meters = Meters()
        self.round: Round | None = None
        self.round_no = 0
        self.round_meta: dict[str, Any] = {}
        self.last_round: Round | None = None
        self.betting_since: float | None = None
        self.decision_since: float | None = None
        self.payouts: dict[int, dict[str, Any]] = {}
        self.pauses: dict[str, float] = {}  # why play is paused (door, panel, menu) -> since when
        self.overrides: dict[str, Any] = {}  # machine settings changed in the operator menu
        self.rule_overrides: dict[str, Any] = {}  # game settings in force (changed at a RAM clear)
        self.pending_rules: dict[str, Any] = {}  # game settings waiting for the next RAM clear
        self.acceptor_counters: dict[str, int] = {}  # ccTalk address -> last event counter credited
        self.inputs = 0  # transactions written
        self.cursor = 0  # the caller's input position (a script's), saved with each input
        self._dirty: set[str] = set()

    # -- start-up -----------------------------------------------------------------------------

    @classmethod
    def boot(
        cls,
        journal: Journal,
        profile: Profile,
        settings: CabinetSettings,
        shoe_for_round: Callable[[int], list[str]],
        auto: AutoStrategy,
    ) -> Cabinet:
        """Check the journal, restore every meter, the round and the payouts; count a power-up."""
        problems = journal.verify()
        if problems:
            raise CabinetLocked("memory error: the journal failed its check: " + "; ".join(problems))
        cab = cls(journal, profile, settings, shoe_for_round, auto)
        try:
            cab._restore()
        except (JournalError, KeyError, TypeError, ValueError) as exc:
            raise CabinetLocked(f"memory error: the journal's state cannot be restored: {exc}") from None
        with cab._tx("power_up", {}):
            cab.cabinet_meters.add("power_ups")
            cab._dirty.add("cabinet")
            cab._event("power_up")
            for seat in cab.seats.values():
                cab._seat_dirty(seat)  # a fresh journal gets every row in its first transaction
                cab._audit(seat, "power-up")
        return cab

    def _restore(self) -> None:
        j = self.journal
        fresh = j.get("cabinet") is None
        if fresh:
            for n in range(1, self.settings.seats + 1):
                self.seats[n] = SeatState(n, SeatMoney(rules=self.rules, settings=self.settings.money))
            return
        cab = j.get("cabinet")
        self.cabinet_meters = Meters.from_dict(cab["meters"])
        self.round_no = cab["round_no"]
        self.inputs = cab["inputs"]
        self.cursor = cab["cursor"]
        self.betting_since = cab["betting_since"]
        self.decision_since = cab["decision_since"]
        self.pauses = dict(cab.get("pauses", {}))
        self._apply_settings(cab.get("overrides", {}), cab.get("rule_overrides", {}))
        self.pending_rules = dict(cab.get("pending_rules", {}))
        self.acceptor_counters = dict(cab.get("acceptor_counters", {}))
        for n in range(1, cab["seats"] + 1):
            self.seats[n] = SeatState.from_dict(n, j.get(f"seat/{n}"))
        rnd = j.get("round")
        if rnd is not None:
            self.round = Round.from_dict(rnd["round"])
            self.round_meta = rnd["meta"]
        self.payouts = {int(k): v for k, v in (j.get("payouts") or {}).items()}

    # -- the one way state changes ---------------------------------------------------------------

    @contextlib.contextmanager
    def _tx(self, kind: str, data: dict[str, Any], seat: int | None = None) -> Iterator[None]:
        """One input: journal it and everything it changes in one transaction, or none of it.

        On any failure the in-memory state goes back to what it was, so memory never shows
        what the journal does not hold.
        """
        snapshot = self._snapshot_state()
        self._dirty = {"cabinet"}
        try:
            with self.journal.transaction():
                self.inputs += 1
                self.journal.append(kind, data, seat)
                yield
                self._write_dirty()
        except BaseException:
            self._restore_snapshot(snapshot)
            raise

    def _snapshot_state(self) -> dict[str, Any]:
        return {
            "seats": {n: s.to_dict() for n, s in self.seats.items()},
            "cabinet": self._cabinet_row(),
            "round": self.round.to_dict() if self.round else None,
            "meta": dict(self.round_meta),
            "payouts": {k: dict(v) for k, v in self.payouts.items()},
        }

    def _restore_snapshot(self, snap: dict[str, Any]) -> None:
        self.seats = {n: SeatState.from_dict(n, d) for n, d in snap["seats"].items()}
        cab = snap["cabinet"]
        self.cabinet_meters = Meters.from_dict(cab["meters"])
        self.round_no, self.inputs, self.cursor = cab["round_no"], cab["inputs"], cab["cursor"]
        self.betting_since, self.decision_since = cab["betting_since"], cab["decision_since"]
        self.pauses = dict(cab["pauses"])
        self._apply_settings(cab["overrides"], cab["rule_overrides"])
        self.pending_rules = dict(cab["pending_rules"])
        self.acceptor_counters = dict(cab["acceptor_counters"])
        self.round = Round.from_dict(snap["round"]) if snap["round"] else None
        self.round_meta = snap["meta"]
        self.payouts = snap["payouts"]

    def _cabinet_row(self) -> dict[str, Any]:
        return {
            "seats": len(self.seats),
            "meters": self.cabinet_meters.to_dict(),
            "round_no": self.round_no,
            "inputs": self.inputs,
            "cursor": self.cursor,
            "betting_since": self.betting_since,
            "decision_since": self.decision_since,
            "pauses": dict(self.pauses),
            "overrides": dict(self.overrides),
            "rule_overrides": dict(self.rule_overrides),
            "pending_rules": dict(self.pending_rules),
            "acceptor_counters": dict(self.acceptor_counters),
        }

    def _write_dirty(self) -> None:
        j = self.journal
        j.put("cabinet", self._cabinet_row())
        for key in sorted(self._dirty):
            if key.startswith("seat/"):
                j.put(key, self.seats[int(key[5:])].to_dict())
            elif key == "round":
                j.put("round", None if self.round is None else {"round": self.round.to_dict(), "meta": self.round_meta})
            elif key == "payouts":
                j.put("payouts", {str(k): v for k, v in self.payouts.items()})

    def _seat_dirty(self, seat: SeatState) -> None:
        self._dirty.add(f"seat/{seat.number}")

    def _moves(self, seat: SeatState, moves: list[Move]) -> None:
        for mv in moves:
            self.journal.append("move", dataclasses.asdict(mv), seat.number)
        if moves:
            self._seat_dirty(seat)

    def _event(self, event: str, seat: int | None = None, /, **detail: Any) -> None:
        self.journal.append("event", {**detail, "code": EVENT_CODES[event], "event": event}, seat)

    # -- queries ------------------------------------------------------------------------------

    def seat_state(self, n: int) -> str:
        s = self.seats[n]
        if s.lock:
            return s.lock
        if self.round and any(rs.number == n for rs in self.round.seats):
            return "in_round"
        if s.money.payout_owed:
            return "paying"
        if s.money.bet:
            return "betting"
        if s.money.credit or s.money.club:
            return "ready"
        return "idle"

    def in_round(self, n: int) -> bool:
        return self.round is not None and any(rs.number == n for rs in self.round.seats)

    def may_take_coins(self, n: int) -> bool:
        """Whether the seat's coin acceptor should accept coins now."""
        s = self.seats[n]
        return not self.pauses and s.lock is None and s.money.credit < self.settings.credit_limit

    def is_live(self, n: int, button: str) -> bool:
        """Whether pressing ``button`` on seat ``n`` now would do something (its lamp)."""
        s = self.seats[n]
        if s.lock or self.pauses:
            return False
        if button in PLAY_BUTTONS or button in ("insurance", "auto"):
            return self._decision_for(n, button) is not None
        if self.round is not None and button != "collect":
            return False  # bets wait until the round in play is over
        if button == "collect":
            return not self.in_round(n) and s.money.is_live("collect")
        if button == "start":
            return s.money.is_live("start") and not s.ready
        return s.money.is_live(button)

    def live(self, n: int) -> list[str]:
        return sorted(b for b in ALL_BUTTONS if self.is_live(n, b))

    def _decision_for(self, n: int, button: str) -> str | None:
        """The round action a play button stands for now, or None when it is dead."""
        rnd = self.round
        if rnd is None or rnd.pending is None or rnd.pending.seat != n:
            return None
        d = rnd.pending
        if button == "auto":
            return "auto"
        if d.kind == "insurance":
            return {"insurance": "insure", "stand": "no_insurance"}.get(button)
        if d.kind == "surrender":
            return {"surrender": "surrender", "draw": "continue", "stand": "continue"}.get(button)
        action = PLAY_BUTTONS.get(button)
        return action if action in d.options else None

    # -- inputs -------------------------------------------------------------------------------

    def coin(self, n: int, coin_id: str, now: float) -> bool:
        """A coin the acceptor validated on seat ``n``. Returns whether it was credited."""
        with self._tx("coin", {"coin": coin_id, "points": self.settings.coin_values.get(coin_id)}, n):
            return self._credit_coin(self.seats[n], coin_id)

    def _credit_coin(self, seat: SeatState, coin_id: str) -> bool:
        points = self.settings.coin_values.get(coin_id)
        if points is None:
            self._event("coin_error", seat.number, coin=coin_id, reason="unknown coin id")
            return False
        self._moves(seat, seat.money.insert(points))
        seat.meters.add(f"coin_in_count:{coin_id}")
        seat.meters.add(f"coin_in_value:{coin_id}", points)
        seat.meters.add("total_in", points)
        return True

    def acceptor_report(
        self, n: int, address: int, counter: int, coins: list[str], errors: list[tuple[int, str, bool]], lost: int
    ) -> None:
        """One poll of seat ``n``'s acceptor, whole: its coins, errors and lost events, with the
        acceptor's event counter, in ONE transaction. After a crash the driver resumes from the
        saved counter, so a coin is credited exactly once even if the cut fell mid-poll."""
        seat = self.seats[n]
        with self._tx("acceptor", {"address": address, "counter": counter, "coins": coins,
                                   "errors": [list(e) for e in errors], "lost": lost}, n):
            for coin_id in coins:
                self._credit_coin(seat, coin_id)
            for code, name, fraud in errors:
                self._coin_error(seat, code, name, fraud)
            if lost:
                self._events_lost(seat, lost)
            self.acceptor_counters[str(address)] = counter

    def press(self, n: int, button: str, now: float) -> bool:
        """A button press on seat ``n``; a dead press does nothing and returns False."""
        if button not in ALL_BUTTONS:
            raise ValueError(f"unknown button {button!r}")
        if not self.is_live(n, button):
            with self._tx("press", {"button": button, "ignored": True}, n):
                pass
            return False
        seat = self.seats[n]
        with self._tx("press", {"button": button}, n):
            if button in BET_BUTTONS:
                self._moves(seat, seat.money.press_bet(button))
                self._seat_dirty(seat)
                if self.betting_since is None:
                    self.betting_since = now
            elif button == "start":
                seat.ready = True
                self._seat_dirty(seat)
                self._maybe_start_round(now, timeout=False)
            elif button == "collect":
                self._collect(seat)
            else:
                action = self._decision_for(n, button)
                assert action is not None
                self._decide(n, action, now, by="player")
        return True

    def tick(self, now: float) -> None:
        """The clock moved on: the betting time and the decision timeout (not while paused)."""
        if self.pauses:
            return
        if self.round is None and self.betting_since is not None:
            if now - self.betting_since >= self.settings.betting_time and self._bettors():
                with self._tx("betting_time_out", {"now": now}):
                    self._maybe_start_round(now, timeout=True)
        elif self.round is not None and self.round.pending is not None and self.decision_since is not None:
            if len(self.round.seats) > 1 and now - self.decision_since >= self.settings.decision_timeout:
                d = self.round.pending
                with self._tx("decision_time_out", {"now": now, "seat": d.seat}, d.seat):
                    self._decide(d.seat, "auto", now, by="timeout")

    def decision_time_left(self, now: float) -> float | None:
        """Seconds left for the pending decision, or None when there is no limit."""
        if self.round is None or self.round.pending is None or len(self.round.seats) < 2 or self.decision_since is None:
            return None
        return max(0.0, self.settings.decision_timeout - (now - self.decision_since))

    # -- pauses, the door, the acceptors' reports ------------------------------------------------

    def pause(self, why: str, now: float) -> None:
        """Stop play safely (door open, panel offline, operator menu): inputs and timers wait."""
        if why in self.pauses:
            return
        with self._tx("pause", {"why": why, "now": now}):
            self.pauses[why] = now
            if why == "door":
                self.cabinet_meters.add("door_openings")
                self._event("door_open")
            else:
                self._event("tilt", reason=why)

    def resume(self, why: str, now: float) -> None:
        """The cause is gone: play goes on exactly where it stopped, the timers shifted."""
        if why not in self.pauses:
            return
        with self._tx("resume", {"why": why, "now": now}):
            since = self.pauses.pop(why)
            if not self.pauses:
                # the paused time does not count against the betting time or a decision
                earliest = min([since] + list(self.pauses.values()))
                gap = max(0.0, now - earliest)
                if self.betting_since is not None:
                    self.betting_since += gap
                if self.decision_since is not None:
                    self.decision_since += gap
            self._event("door_closed" if why == "door" else "tilt_cleared", reason=why)

    def coin_error(self, n: int, code: int, name: str, fraud: bool) -> None:
        """An error the acceptor reported; a fraud code tilts the seat."""
        with self._tx("coin_error", {"code": code, "name": name, "fraud": fraud}, n):
            self._coin_error(self.seats[n], code, name, fraud)

    def _coin_error(self, seat: SeatState, code: int, name: str, fraud: bool) -> None:
        self._event("coin_fraud" if fraud else "coin_error", seat.number, error_code=code, name=name)
        if fraud:
            self._tilt(seat, f"coin acceptor: {name} (code {code})")

    def coin_events_lost(self, n: int, count: int) -> None:
        """More than five acceptor events between polls: coins may be lost; tilt."""
        with self._tx("coin_events_lost", {"count": count}, n):
            self._events_lost(self.seats[n], count)

    def _events_lost(self, seat: SeatState, count: int) -> None:
        self._event("coin_events_lost", seat.number, count=count)
        self._tilt(seat, f"coin acceptor: {count} event(s) lost between polls")

    # -- the round ------------------------------------------------------------------------------

    def _bettors(self) -> list[SeatState]:
        return [s for s in self.seats.values() if s.lock is None and s.money.bet >= self.rules.min_bet]

    def _maybe_start_round(self, now: float, timeout: bool) -> None:
        bettors = self._bettors()
        if not bettors or (not timeout and not all(s.ready for s in bettors)):
            return
        bettors = [s for s in bettors if not self._audit(s, "game")]
        if not bettors:
            return
        self.round_no += 1
        shoe = list(self.shoe_for_round(self.round_no))
        bets, funds = [], []
        before = {}
        for s in bettors:
            before[str(s.number)] = {"credit": s.money.credit, "club": s.money.club}
            bet = s.money.bet
            self._moves(s, s.money.start_round())
            s.meters.add("total_bet", bet)
            s.ready = False
            bets.append(bet)
            funds.append(s.money.club)
        for s in self.seats.values():
            if s.ready:
                s.ready = False
                self._seat_dirty(s)
        self.round = Round.start(self.rules, shoe, bets, funds=funds, seat_numbers=[s.number for s in bettors])
        self.round_meta = {"round_no": self.round_no, "before": before, "decisions": []}
        self.journal.append(
            "round_start", {"round_no": self.round_no, "shoe": shoe, "bets": {str(s.number): b for s, b in zip(bettors, bets)}}
        )
        self._journal_events(self.round.events)
        self.betting_since = None
        self.decision_since = now
        self._dirty.add("round")
        self._after_decision(now)

    def _decide(self, n: int, action: str, now: float, by: str) -> None:
        rnd = self.round
        assert rnd is not None
        if action == "auto":
            action = self.auto(rnd)
            by = "auto" if by == "player" else by
        d = rnd.pending
        assert d is not None
        new = rnd.act(n, action)
        self.round_meta["decisions"].append({"seat": n, "hand": d.hand, "kind": d.kind, "action": action, "by": by})
        self._journal_events(new)
        seat = self.seats[n]
        bet = rnd.seat(n).bet
        for e in new:
            if e.kind == "insurance" and e.amount:
                self._moves(seat, seat.money.stake("insurance", e.amount))
                seat.meters.add("total_bet", e.amount)
                seat.meters.add("insurance_taken", e.amount)
            elif e.kind == "action" and e.action in ("double", "split"):
                self._moves(seat, seat.money.stake(e.action, bet))
                seat.meters.add("total_bet", bet)
        self.decision_since = now
        self._dirty.add("round")
        self._after_decision(now)

    def _journal_events(self, events: list[Event]) -> None:
        for e in events:
            self.journal.append("round_event", e.to_dict(), e.seat)

    def _after_decision(self, now: float) -> None:
        rnd = self.round
        assert rnd is not None
        if not rnd.finished:
            return
        result = rnd.result(self.profile.game)
        for rs, res in zip(rnd.seats, result["seats"]):
            seat = self.seats[rs.number]
            returned = res["returned"]
            self._moves(seat, seat.money.settle(returned))
            self._seat_dirty(seat)
            m = seat.meters
            m.add("games_played")
            m.add("games_won" if res["net"] > 0 else "games_lost" if res["net"] < 0 else "games_pushed")
            m.add("total_won", returned)
            m.add("blackjacks", sum(1 for h in res["hands"] if h["blackjack"]))
            m.add("three_sevens", 1 if res["bonus"] else 0)
            m.add("insurance_paid", res["insurance_returned"])
            recall = {
                "round_no": self.round_meta["round_no"],
                "shoe": rnd.shoe[: rnd.cards_used],
                "dealer": result["dealer"],
                "seat": res,
                "decisions": [x for x in self.round_meta["decisions"] if x["seat"] == rs.number],
                "before": self.round_meta["before"][str(rs.number)],
                "after": {"credit": seat.money.credit, "club": seat.money.club},
            }
            self.journal.append("game", recall, rs.number)
            self._audit(seat, "settlement")
        self.last_round = rnd  # for the screens only: results stay shown until the next bet
        self.round = None
        self.round_meta = {}
        self.decision_since = None

    # -- collect, payout, handpay -------------------------------------------------------------------

    def _collect(self, seat: SeatState) -> None:
        if seat.money.club == 0 and seat.money.bet == 0 and self._audit(seat, "payout"):
            return
        moves, plan = seat.money.collect()
        self._moves(seat, moves)
        seat.ready = False  # a dropped bet is no longer waiting to start
        if not self._bettors():
            self.betting_since = None  # the betting time counts from the next first bet
        self._seat_dirty(seat)
        if plan.coins:
            self.payouts[seat.number] = {"asked": plan.coins, "paid": 0, "coin_value": plan.coin_value}
            self._dirty.add("payouts")
            self.journal.append("payout_start", {"coins": plan.coins, "coin_value": plan.coin_value}, seat.number)
        if plan.handpay:
            self._lock_handpay(seat, plan.handpay)

    def _lock_handpay(self, seat: SeatState, amount: int) -> None:
        seat.handpay_owed += amount
        seat.lock = "handpay"
        seat.lock_detail = f"handpay of {amount} points"
        self._seat_dirty(seat)
        self._event("handpay", seat.number, amount=amount)

    def payouts_owed(self) -> dict[int, int]:
        """Coins each seat's payout still asks of the hopper (for the hopper's driver)."""
        return {n: p["asked"] - p["paid"] for n, p in self.payouts.items()}

    # The hopper driver reports through these, one chunk (at most 255 coins) at a time; they
    # are the ``PayoutLedger`` protocol of hardware/cctalk/ledger.py, seat by seat
    # (machine/payout.py adapts them). Each is durable before it returns.

    def pending_chunk(self, n: int) -> dict[str, Any] | None:
        """The chunk a cut interrupted: requested, credited, lifetime_before, counter_before."""
        p = self.payouts.get(n)
        return None if p is None else p.get("chunk")

    def chunk_begin(self, n: int, requested: int) -> None:
        with self._tx("payout_chunk", {"requested": requested}, n):
            p = self.payouts[n]
            if p.get("chunk") is not None:
                raise RuntimeError(f"seat {n}: a payout chunk is already pending")
            if requested > p["asked"] - p["paid"]:
                raise RuntimeError(f"seat {n}: {requested} coins asked of the hopper, {p['asked'] - p['paid']} owed")
            p["chunk"] = {"requested": requested, "credited": 0, "lifetime_before": None, "counter_before": None}
            self._dirty.add("payouts")

    def chunk_baseline(self, n: int, lifetime: int, counter: int) -> None:
        with self._tx("payout_baseline", {"lifetime": lifetime, "counter": counter}, n):
            self.payouts[n]["chunk"].update(lifetime_before=lifetime, counter_before=counter)
            self._dirty.add("payouts")

    def hopper_paid(self, n: int, coins: int) -> None:
        """The hopper reported ``coins`` more coins paid for seat ``n``'s payout."""
        seat = self.seats[n]
        with self._tx("hopper_paid", {"coins": coins}, n):
            p = self.payouts[n]
            owed = p["asked"] - p["paid"]
            if coins > owed:  # more left the hopper than asked: the operator's loss, metered
                extra = coins - owed
                coins = owed
                seat.meters.add("hopper_extra_out", extra * p["coin_value"])
                self._event("hopper_extra_coin", n, coins=extra)
                self._tilt(seat, f"hopper paid {extra} coin(s) more than asked")
            if p.get("chunk") is not None:
                p["chunk"]["credited"] += coins
            p["paid"] += coins
            self._dirty.add("payouts")
            self._moves(seat, seat.money.coins_paid(coins))
            seat.meters.add("hopper_out", coins * p["coin_value"])
            seat.meters.add("total_out", coins * p["coin_value"])

    def chunk_end(self, n: int, paid: int, unpaid: int, fault: str | None) -> None:
        """A chunk ended; the payout ends with it when all is paid or the hopper stopped short."""
        seat = self.seats[n]
        with self._tx("payout_chunk_end", {"paid": paid, "unpaid": unpaid, "fault": fault}, n):
            p = self.payouts[n]
            p["chunk"] = None
            self._dirty.add("payouts")
            if fault == POWER_CUT and p["paid"] < p["asked"]:
                self._event("payout_resumed", n, after=fault, paid=p["paid"], owed=p["asked"] - p["paid"])
            elif unpaid or fault or p["paid"] >= p["asked"]:
                self._end_payout(seat, fault or ("stopped short" if unpaid else None))

    def hopper_stray(self, n: int, coins: int, fault: str) -> None:
        """Coins left the hopper outside any payout (a runaway): metered, and the seat tilts."""
        seat = self.seats[n]
        with self._tx("hopper_stray", {"coins": coins, "fault": fault}, n):
            seat.meters.add("hopper_extra_out", coins * self.settings.money.hopper_coin)
            self._event("hopper_runaway", n, coins=coins, fault=fault)
            self._tilt(seat, f"hopper {fault}: {coins} coin(s) paid out unasked")

    def _end_payout(self, seat: SeatState, fault: str | None) -> None:
        p = self.payouts.pop(seat.number)
        self._dirty.add("payouts")
        seat.money.payout_ended()
        self._seat_dirty(seat)
        unpaid = p["asked"] - p["paid"]
        self.journal.append("payout_end", {"asked": p["asked"], "paid": p["paid"], "unpaid": unpaid, "fault": fault}, seat.number)
        if unpaid:
            self._event("hopper_fault", seat.number, fault=fault, unpaid=unpaid)
            self._tilt(seat, f"hopper: {fault}; {unpaid} coin(s) owed")

    def _tilt(self, seat: SeatState, why: str) -> None:
        if seat.lock is None:
            seat.lock, seat.lock_detail = "tilt", why
            self._event("tilt", seat.number, reason=why)
            self._seat_dirty(seat)

    def attendant_clear(self, n: int) -> bool:
        """The attendant key on seat ``n``: pays a handpay, or clears a tilt whose cause is gone."""
        seat = self.seats[n]
        if seat.lock not in ("handpay", "tilt") or n in self.payouts:
            return False
        with self._tx("attendant", {"lock": seat.lock}, n):
            if seat.lock == "handpay":
                amount = seat.handpay_owed
                self._moves(seat, seat.money.handpay(amount))
                seat.meters.add("handpay_out", amount)
                seat.meters.add("total_out", amount)
                seat.meters.add("handpays")
                seat.handpay_owed = 0
                self._event("handpay_cleared", n, amount=amount)
            else:
                self._event("tilt_cleared", n, reason=seat.lock_detail)
            resume = seat.lock == "tilt" and seat.lock_detail.startswith("hopper")
            seat.lock, seat.lock_detail = None, ""
            self._seat_dirty(seat)
            if resume and seat.money.club == 0 and seat.money.payout_plan().coins:
                self._event("payout_resumed", n)
                self._collect(seat)  # the attendant refilled: pay on what is still owed
        return True

    def attendant_refill(self, n: int, now: float) -> None:
        """The attendant refilled the hopper that pays seat ``n`` (recorded; a tilt then clears)."""
        with self._tx("hopper_refill", {"now": now}, n):
            self.cabinet_meters.add("hopper_refills")
            self._event("hopper_refill", n)

    def attendant_handpay_rest(self, n: int) -> bool:
        """After a hopper fault: turn what the hopper still owes into a handpay."""
        seat = self.seats[n]
        if seat.lock != "tilt" or n in self.payouts:
            return False
        plan = seat.money.payout_plan()
        amount = plan.coins * plan.coin_value
        if not amount:
            return False
        with self._tx("attendant_handpay", {"amount": amount}, n):
            seat.lock = None
            self._lock_handpay(seat, amount)
        return True

    # -- settings changed in the operator menu --------------------------------------------------

    def _apply_settings(self, overrides: dict[str, Any], rule_overrides: dict[str, Any]) -> None:
        money = {k: v for k, v in overrides.items() if k in MONEY_SETTINGS}
        machine = {k: v for k, v in overrides.items() if k in MACHINE_SETTINGS}
        self.settings = dataclasses.replace(
            self.base_settings, money=dataclasses.replace(self.base_settings.money, **money), **machine
        )
        self.overrides = dict(overrides)
        self.rules = self.base_profile.rules.with_overrides(rule_overrides)
        self.profile = dataclasses.replace(self.base_profile, rules=self.rules)
        self.rule_overrides = dict(rule_overrides)

    def change_setting(self, name: str, value: Any, who: str) -> str:
        """Change a setting (journaled with its old and new value); returns what happens.

        Machine settings act at once; settings that change the game's mathematics wait for
        the next RAM clear, so the meters never mix two games.
        """
        if name in MONEY_SETTINGS or name in MACHINE_SETTINGS:
            old = getattr(self.settings.money if name in MONEY_SETTINGS else self.settings, name)
            with self._tx("settings_change", {"name": name, "old": old, "new": value, "by": who}):
                self._apply_settings({**self.overrides, name: value}, self.rule_overrides)
                for seat in self.seats.values():
                    seat.money.settings = self.settings.money
                    self._seat_dirty(seat)
                self._event("settings_changed", name=name, old=old, new=value, by=who)
            return "changed"
        old = getattr(self.rules, name)
        self.rules.with_overrides({name: value})  # raises RulesError on a bad value
        with self._tx("settings_change", {"name": name, "old": str(old), "new": value, "by": who, "after_ram_clear": True}):
            self.pending_rules[name] = value
            self._event("settings_changed", name=name, old=str(old), new=value, by=who, after_ram_clear=True)
        return "after the next RAM clear"

    def operator_event(self, what: str, now: float, **detail: Any) -> None:
        """Something the operator did (or failed to do) that is logged but moves no money."""
        with self._tx("operator", {"what": what, "now": now, **detail}):
            self._event("operator", what=what, **detail)

    def reset_period(self, who: str) -> None:
        """Zero every period meter (the lifetime meters run on)."""
        with self._tx("period_reset", {"by": who}):
            for seat in self.seats.values():
                seat.meters.reset_period()
                self._seat_dirty(seat)
            self.cabinet_meters.reset_period()
            self.cabinet_meters.add("period_resets")
            self._event("period_reset", by=who)

    def hopper_test_paid(self, coins: int, fault: str | None) -> None:
        """A test payout from the operator menu: the coins are the operator's, metered apart."""
        with self._tx("hopper_test", {"coins": coins, "fault": fault}):
            self.cabinet_meters.add("hopper_test_coins", coins)
            self._event("operator", what="hopper test payout", coins=coins, fault=fault)

    # -- RAM clear ------------------------------------------------------------------------------

    def ram_clear(self, who: str) -> None:
        """Clear every meter, credit, club, lock, round and payout (operator, after confirmation).

        The journal keeps its chain: recall and events are read from the last RAM clear on.
        """
        if self.payouts:
            raise RuntimeError("a RAM clear waits until no payout is in progress")
        with self._tx("ram_clear", {"by": who, "rules": dict(self.pending_rules)}):
            if self.pending_rules:
                self._apply_settings(self.overrides, {**self.rule_overrides, **self.pending_rules})
                self.pending_rules = {}
            clears = self.cabinet_meters.get("ram_clears") + 1
            self.cabinet_meters = Meters()
            self.cabinet_meters.lifetime["ram_clears"] = clears
            for n in self.seats:
                self.seats[n] = SeatState(n, SeatMoney(rules=self.rules, settings=self.settings.money))
                self._seat_dirty(self.seats[n])
            self.round, self.round_meta = None, {}
            self.round_no = 0
            self.betting_since = self.decision_since = None
            self._dirty.update({"round", "payouts"})
            self._event("ram_clear", by=who)

    # -- the self-audit ---------------------------------------------------------------------------

    def _audit(self, seat: SeatState, when: str) -> bool:
        """Check the seat's equation; on failure lock it with a memory error. True if locked."""
        m = seat.money
        problem = m.audit_problem()
        life = seat.meters.lifetime
        if problem is None:
            lhs = m.credit + m.club
            rhs = life.get("total_in", 0) - life.get("total_out", 0) + life.get("total_won", 0) - life.get("total_bet", 0)
            if lhs != rhs and not seat.lock == "memory_error":
                problem = f"meters: credit + club = {lhs}, but total in - out + won - bet = {rhs}"
        if problem is None:
            return seat.lock == "memory_error"
        if seat.lock != "memory_error":
            seat.lock, seat.lock_detail = "memory_error", f"self-audit failed before {when}: {problem}"
            self._event("memory_error", seat.number, reason=seat.lock_detail)
            self._seat_dirty(seat)
        return True
