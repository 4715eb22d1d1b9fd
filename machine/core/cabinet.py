"""The cabinet core: every seat's money, the shared round and the journal, joined.

Owns: the ONE entry point of the core. Each input (a coin, a button press, the clock moving
on, a hopper report, the attendant key, an operator's change) opens ONE journal transaction
and hands the work to the module whose job it is: ``play`` (rounds), ``payouts`` (coins in,
Collect, the hopper's ledger, handpays, tilts, the attendant), ``admin`` (settings, RAM clear,
period reset, pauses, the self-audit), ``tournament`` (eenendertigen tournaments: a mode in
which the cabinet plays only the tournament), ``pinlock`` (the lockout after wrong operator
PINs); ``lamps`` answers what is live, ``state`` holds the
typed state and ``store`` the transaction machinery. Also boots the cabinet from its journal:
every meter, the interrupted round and payout restored, or the machine locked.

Never opens a serial port, draws a frame or reads a clock: time comes in as ``now``
arguments, the shoe's order from an injected shuffler, the game through the ``Game``
interface (``machine/games/interface.py``); the hopper is driven by whoever owns it through
``payouts_owed`` and the chunk ledger (``chunk_begin`` ... ``chunk_end``, see
machine/loop/payout.py) or the hopper test's (``hopper_test_begin`` ... ``hopper_test_end``),
and the devices' counters are handed in (``hopper_counter_check`` at start-up and after each
payout, ``acceptor_moved_while_down``) for the core to compare with the journal's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.core import admin, lamps, payouts, pinlock, play, tournament
from machine.core.admin import fresh_seat
from machine.core.context import MACHINE_SETTINGS, MONEY_SETTINGS, CabinetSettings, Core, GameFactory, Shuffler
from machine.core.payouts import POWER_CUT
from machine.core.state import CabinetRow, CabinetState, Payout, SeatState
from machine.games.cards import RandomSource, shuffle
from machine.games.interface import BET_BUTTONS, PICK, Button, Game
from machine.games.rules import Profile, Rules
from machine.money.journal import Journal, JournalError
from machine.money.memory import Memory, UntrustedMemory, open_journal
from machine.money.meters import Meters

__all__ = [
    "MACHINE_SETTINGS", "MONEY_SETTINGS", "POWER_CUT", "Cabinet", "CabinetLocked", "CabinetSettings", "MemoryLocked",
    "GameFactory", "Shuffler", "open_cabinet", "random_shuffle", "stacked_shuffle",
]


class CabinetLocked(RuntimeError):
    """The cabinet must not play: its memory cannot be trusted (``MemoryLocked``), or its
    program files do not match the release."""


class MemoryLocked(CabinetLocked):
    """The journal failed its start-up check: a memory error (its text starts so)."""


def open_cabinet(
    path: str | Path,
    profile: Profile,
    settings: CabinetSettings,
    game_for: GameFactory,
    shuffle_for_round: Shuffler,
    memory: Memory,
    step_hook: Callable[[str], None] | None = None,
    create: bool = False,
) -> Cabinet:
    """Open the journal at ``path`` and boot the cabinet from it; any doubt locks the machine.

    ``memory`` holds the machine key and the head stores the journal must reach; ``create``
    starts a journal where there is none and no head store knows one (``cabinet init``, a
    temporary journal); anywhere else a missing journal is a memory error. ``game_for`` builds
    the game from the profile with the rules in force (again whenever a RAM clear changes them);
    ``shuffle_for_round`` puts each round's fresh shoe in order.
    """
    try:
        journal = open_journal(path, memory, step_hook=step_hook, create=create)
    except UntrustedMemory as exc:
        raise MemoryLocked(f"memory error: {exc}") from None
    try:
        return Cabinet.boot(journal, profile, settings, game_for, shuffle_for_round)
    except BaseException:
        journal.close()
        raise


def random_shuffle(rng: RandomSource) -> Shuffler:
    """The cabinet's shuffler: a fresh random order of the game's shoe for every round."""
    return lambda cards, round_no: shuffle(cards, rng)


def stacked_shuffle(shoes: Callable[[int], list[str]]) -> Shuffler:
    """A shuffler that deals prepared shoes, round by round (tests, scenes, the crash test).

    Each prepared shoe must still be the game's shoe in some order: the core checks it.
    """
    return lambda cards, round_no: list(shoes(round_no))


class Cabinet:
    """The controller of one cabinet. Build with ``Cabinet.boot`` (or ``open_cabinet``)."""

    def __init__(
        self, journal: Journal, profile: Profile, settings: CabinetSettings, game_for: GameFactory, shuffle_for_round: Shuffler
    ):
        self.core = Core(journal, profile, settings, game_for, shuffle_for_round)

    # -- start-up -------------------------------------------------------------------------------

    @classmethod
    def boot(
        cls, journal: Journal, profile: Profile, settings: CabinetSettings, game_for: GameFactory, shuffle_for_round: Shuffler
    ) -> Cabinet:
        """Check the journal, restore every meter, the round and the payouts; count a power-up."""
        if journal.problems:
            raise MemoryLocked("memory error: the journal failed its check: " + "; ".join(journal.problems))
        cab = cls(journal, profile, settings, game_for, shuffle_for_round)
        try:
            cab._restore()
        except (JournalError, KeyError, TypeError, ValueError) as exc:
            raise MemoryLocked(f"memory error: the journal's state cannot be restored: {exc}") from None
        with cab.core.tx("power_up", {}):
            admin.power_up(cab.core)
        return cab

    def _restore(self) -> None:
        core, j = self.core, self.core.journal
        cab = j.get("cabinet")
        if cab is None:
            core.state = CabinetState(seats={n: fresh_seat(core, n) for n in range(1, core.settings.seats + 1)})
            return
        core.state = CabinetState(seats={}, row=CabinetRow.from_dict(cab))
        core.apply_settings(core.state.row.overrides, core.state.row.rule_overrides)
        core.state.seats = {n: SeatState.from_dict(n, j.get(f"seat/{n}")) for n in range(1, cab["seats"] + 1)}
        rnd = j.get("round")
        if rnd is not None:
            core.state.round = core.game.restore(rnd["round"])
            core.state.round_meta = rnd["meta"]
            starts = j.records("round_start", last=1)
            core.state.round_shoe = list(starts[-1].data["shoe"]) if starts else []
        core.state.payouts = {int(k): Payout.from_dict(v) for k, v in (j.get("payouts") or {}).items()}
        self._check_money()

    def _check_money(self) -> None:
        """Each seat's credit and club meters as its last money move left them (since the last RAM
        clear): the seat rows recomputed from the move records."""
        j, since = self.core.journal, self.core.journal.last_of("ram_clear")
        for n, seat in self.core.state.seats.items():
            last = j.records("move", seat=n, last=1, since=since)
            if last and (seat.money.credit, seat.money.club) != (last[0].data["credit"], last[0].data["club"]):
                raise JournalError(f"seat {n}'s credit/club {seat.money.credit}/{seat.money.club} are not what its last "
                                   f"money move left ({last[0].data['credit']}/{last[0].data['club']}, record {last[0].seq})")

    # -- read-only views of the state (for the loop, the screens, the menu and the robots) --------

    @property
    def journal(self) -> Journal:
        return self.core.journal

    @property
    def game(self) -> Game:
        return self.core.game

    @property
    def profile(self) -> Profile:
        return self.core.profile

    @property
    def rules(self) -> Rules:
        return self.core.rules

    @property
    def settings(self) -> CabinetSettings:
        return self.core.settings

    @property
    def seats(self) -> dict[int, SeatState]:
        return self.core.state.seats

    @property
    def round(self) -> Any:
        """The round in play (a ``GameRound``), or None."""
        return self.core.state.round

    @property
    def last_round(self) -> Any:
        return self.core.last_round

    @property
    def carry(self) -> dict[str, Any] | None:
        """What the game's next round starts from (ochko: the bank); None: the game's opening."""
        return self.core.state.row.carry.get(self.core.profile.game)

    @property
    def round_no(self) -> int:
        return self.core.state.row.round_no

    @property
    def payouts(self) -> dict[int, Payout]:
        return self.core.state.payouts

    @property
    def pauses(self) -> dict[str, float]:
        return self.core.state.row.pauses

    @property
    def pending_rules(self) -> dict[str, Any]:
        return self.core.state.row.pending_rules

    @property
    def acceptor_counters(self) -> dict[str, int]:
        return self.core.state.row.acceptor_counters

    @property
    def cabinet_meters(self) -> Meters:
        return self.core.state.row.meters

    @property
    def betting_since(self) -> float | None:
        return self.core.state.row.betting_since

    @property
    def inputs(self) -> int:
        return self.core.state.row.inputs

    @property
    def cursor(self) -> int:
        """The caller's input position (a script's), saved with each input."""
        return self.core.state.row.cursor

    @cursor.setter
    def cursor(self, value: int) -> None:
        self.core.state.row.cursor = value

    def paused(self, why: str) -> bool:
        return why in self.core.state.row.pauses

    def is_paying(self, n: int | None = None) -> bool:
        """Whether the hopper owes coins to seat ``n`` (to any seat when ``n`` is None)."""
        return bool(self.core.state.payouts) if n is None else n in self.core.state.payouts

    def lock_of(self, n: int) -> str | None:
        return self.core.state.seats[n].lock

    def acceptor_counter(self, address: int) -> int | None:
        return self.core.state.row.acceptor_counters.get(str(address))

    def seat_state(self, n: int) -> str:
        return lamps.seat_state(self.core.state, n)

    def in_round(self, n: int) -> bool:
        return self.core.state.in_round(n)

    def may_take_coins(self, n: int) -> bool:
        """Whether the seat's coin acceptor should accept coins now."""
        return lamps.may_take_coins(self.core.state, n, self.core.settings.credit_limit)

    def is_live(self, n: int, button: str) -> bool:
        """Whether pressing ``button`` on seat ``n`` now would do something (its lamp)."""
        return lamps.is_live(self.core.state, self.core.game, n, Button(button), len(self.core.profiles))

    def live(self, n: int) -> list[Button]:
        return lamps.live(self.core.state, self.core.game, n, len(self.core.profiles))

    @property
    def games_enabled(self) -> list[str]:
        """The games the operator or a player may choose, the configured one first."""
        return list(self.core.profiles)

    @property
    def pending_game(self) -> str | None:
        """A game chosen while a seat had a bet or a hand; in force when none has."""
        return self.core.state.row.pending_game

    def game_choice(self, n: int) -> bool:
        """Whether seat ``n``'s Draw and Stand choose the game now (shown on its screen)."""
        return lamps.game_step(self.core.state, n, Button.DRAW, len(self.core.profiles)) != 0

    def button_labels(self, n: int) -> dict[Button, str]:
        """What the screen writes beside seat ``n``'s live play buttons (empty: not its turn)."""
        rnd = self.core.state.round
        d = rnd.pending if rnd is not None else None
        if rnd is None and tournament.in_force(self.core.state):
            return self._tournament_labels(n)
        if d is None or d.seat != n:
            return {}
        if d.kind == "bet":
            return {Button.START: "Place bet", Button.AUTO: "Minimum"}
        return dict(self.core.game.button_labels(d, self.seats[n].picks))

    def picks(self, n: int) -> dict[str, int]:
        """The cards seat ``n`` has chosen for its pending action, defaults filled in (the
        screen frames them); empty when it is not deciding or its game chooses no cards."""
        d = lamps.play_decision(self.core.state, n)
        return {} if d is None else self.core.game.picked(d, self.seats[n].picks)

    def proposal(self, n: int) -> int | None:
        """At seat ``n``'s bet decision, the bet its buttons set now; else None."""
        d = lamps.bet_decision(self.core.state, n)
        return None if d is None else lamps.proposal(self.core.state, n, d)

    def _tournament_labels(self, n: int) -> dict[Button, str]:
        state = self.core.state
        a = tournament.active(state)
        if a is not None and a["seat"] == n and a["stage"] == "name":
            return {b: w for b, w in tournament.NAME_KEYS.items() if self.is_live(n, b)}
        if tournament.may_play_next(state, n):
            return {Button.START: "Next round"}
        if tournament.may_enter(state, n):
            return {Button.START: "Enter"}
        return {}

    # -- tournaments (read-only) ---------------------------------------------------------------------

    @property
    def tournament(self) -> dict[str, Any] | None:
        """The open tournament as the screens and the menu may show it (never its seed), with its
        ranking list; None when none is open."""
        t = tournament.current(self.core.state)
        return None if t is None else tournament.public(t)

    @property
    def tournament_in_force(self) -> bool:
        return tournament.in_force(self.core.state)

    @property
    def last_tournament(self) -> dict[str, Any] | None:
        """The last closed tournament: id, variant, its published seed and final ranking."""
        last = self.core.state.row.tournaments.get("last")
        return dict(last) if last else None

    def tournament_seat(self) -> dict[str, Any] | None:
        """The seat entering a name (``stage`` name: ``name``, ``char``, ``note``) or playing
        (``stage`` play, with ``progress``: rounds, score, round), or None."""
        a = tournament.active(self.core.state)
        if a is None:
            return None
        out = {k: v for k, v in a.items() if k != "since"}
        if a["stage"] == "play":
            out["progress"] = tournament.progress(self.core.state)
        return out

    def attract_lines(self) -> list[str]:
        return self.core.game.attract_lines()

    def payouts_owed(self) -> dict[int, int]:
        """Coins each seat's payout still asks of the hopper (for the hopper's driver)."""
        return {n: p.owed for n, p in self.core.state.payouts.items()}

    def decision_time_left(self, now: float) -> float | None:
        """Seconds left for the pending decision, or None when there is no limit."""
        return play.decision_time_left(self.core, now)

    def _audit(self, seat: SeatState, when: str) -> bool:
        return admin.audit(self.core, seat, when)

    # -- inputs: coins ----------------------------------------------------------------------------

    def coin(self, n: int, coin_id: str, now: float) -> bool:
        """A coin the acceptor validated on seat ``n``. Returns whether it was credited."""
        with self.core.tx("coin", {"coin": coin_id, "points": self.core.settings.coin_values.get(coin_id)}, n):
            return payouts.credit_coin(self.core, self.seats[n], coin_id)

    def acceptor_report(
        self, n: int, address: int, counter: int, coins: list[str], errors: list[tuple[int, str, bool]], lost: int
    ) -> None:
        """One poll of seat ``n``'s acceptor, whole: its coins, errors and lost events, with the
        acceptor's event counter, in ONE transaction. After a crash the driver resumes from the
        saved counter, so a coin is credited exactly once even if the cut fell mid-poll."""
        data = {"address": address, "counter": counter, "coins": coins, "errors": [list(e) for e in errors], "lost": lost}
        with self.core.tx("acceptor", data, n):
            seat = self.seats[n]
            for coin_id in coins:
                payouts.credit_coin(self.core, seat, coin_id)
            for code, name, fraud in errors:
                payouts.coin_error(self.core, seat, code, name, fraud)
            if lost:
                payouts.events_lost(self.core, seat, lost)
            self.core.state.row.acceptor_counters[str(address)] = counter

    def coin_error(self, n: int, code: int, name: str, fraud: bool) -> None:
        """An error the acceptor reported; a fraud code tilts the seat."""
        with self.core.tx("coin_error", {"code": code, "name": name, "fraud": fraud}, n):
            payouts.coin_error(self.core, self.seats[n], code, name, fraud)

    def coin_events_lost(self, n: int, count: int) -> None:
        """More than five acceptor events between polls: coins may be lost; tilt."""
        with self.core.tx("coin_events_lost", {"count": count}, n):
            payouts.events_lost(self.core, self.seats[n], count)

    # -- inputs: buttons and the clock --------------------------------------------------------------

    def press(self, n: int, button: str, now: float) -> bool:
        """A button press on seat ``n``; a dead press does nothing and returns False."""
        try:
            b = Button(button)
        except ValueError:
            raise ValueError(f"unknown button {button!r}") from None
        if not self.is_live(n, b):
            with self.core.tx("press", {"button": b.value, "ignored": True}, n):
                pass
            return False
        core = self.core
        if tournament.in_force(core.state):
            with core.tx("press", {"button": b.value, "tournament": True}, n):
                self._tournament_press(n, b, now)
            return True
        with core.tx("press", {"button": b.value}, n):
            seat = self.seats[n]
            at_bet = lamps.bet_press(core.state, n, b)  # at a bet decision: a new proposal, or Start's bet
            if isinstance(at_bet, int):
                seat.proposal = at_bet
                core.store.seat_dirty(seat)
            elif isinstance(at_bet, str):
                play.decide(core, n, at_bet, now, by="player")
            elif b in BET_BUTTONS:
                core.store.moves(seat, seat.money.press_bet(b.value))
                core.store.seat_dirty(seat)
                if core.state.row.betting_since is None:
                    core.state.row.betting_since = now
            elif b == Button.START:
                seat.ready = True
                core.store.seat_dirty(seat)
                play.maybe_start_round(core, now, timeout=False)
            elif b == Button.COLLECT:
                payouts.collect(core, seat)
            elif core.state.round is None:
                names = self.games_enabled
                step = lamps.game_step(core.state, n, b, len(names))
                admin.select_game(core, names[(names.index(core.profile.game) + step) % len(names)], f"seat {n}")
            else:
                self._play_button(n, b, now)
        return True

    def _play_button(self, n: int, b: Button, now: float) -> None:
        """A live play button of the round in play: a card pick, or the action it stands for."""
        core, seat = self.core, self.seats[n]
        action = lamps.action_for(core.state, core.game, n, b)
        assert action is not None
        if action.startswith(PICK):
            assert core.state.round is not None and core.state.round.pending is not None
            seat.picks = core.game.next_pick(core.state.round.pending, seat.picks, action)
            core.store.seat_dirty(seat)
        else:
            self._decide(n, action, now, "player")

    def touch(self, n: int, target: str, now: float) -> bool:
        """A touch (or click) on a card of seat ``n``'s screen: ``hand:2``, ``table:1``, ``stack``.
        It chooses the card, or takes the action the game gives it; elsewhere it does nothing
        and returns False (journaled as ignored, like a dead button)."""
        core = self.core
        d = lamps.play_decision(core.state, n)
        seat = self.seats[n]
        picks, action = ({}, None) if d is None or core.state.row.pauses else core.game.touch(d, seat.picks, target)
        if action is None and picks == seat.picks:
            with core.tx("touch", {"target": target, "ignored": True}, n):
                pass
            return False
        with core.tx("touch", {"target": target}, n):
            if action is None:
                seat.picks = picks
                core.store.seat_dirty(seat)
            else:
                self._decide(n, action, now, "player")
        return True

    def _tournament_press(self, n: int, b: Button, now: float) -> None:
        """A live press while a tournament is in force (lamps.tournament_live said what is live)."""
        core = self.core
        a = tournament.active(core.state)
        if core.state.round is not None:
            self._play_button(n, b, now)
        elif b == Button.COLLECT:
            payouts.collect(core, self.seats[n])
        elif a is not None and a["seat"] == n and a["stage"] == "name":
            tournament.name_key(core, n, b, now)
        elif tournament.may_play_next(core.state, n):
            tournament.next_round(core, now)
        else:
            tournament.begin_name(core, n, now)

    def _decide(self, n: int, action: str, now: float, by: str) -> None:
        """A decision of the round in play; a tournament round's end counts its score at once."""
        core = self.core
        rnd = core.state.round
        ours = "tournament" in core.state.round_meta
        play.decide(core, n, action, now, by)
        if ours and core.state.round is None:
            tournament.round_over(core, rnd, now)

    def _tournament_clock(self, now: float) -> bool:
        """The tournament's own timers (start, end, an abandoned entry, prizes); True if one acted."""
        core = self.core
        what = tournament.due(core, now)
        if what is None:
            return False
        with core.tx(f"tournament_{what}", {"now": now}):
            t = tournament.current(core.state)
            if what == "prizes":
                tournament.pay_prizes(core)
            elif what == "start":
                tournament.put_in_force(core, now)
            elif what == "give_up":
                tournament.give_up(core)
            elif what == "rebase":
                tournament.rebase(core, now)
            elif what == "next_round":
                tournament.next_round(core, now)
            else:
                assert t is not None
                closing = t.get("closing") or {"by": "clock", "why": "its end time came"}
                tournament.close(core, now, closing["by"], closing["why"])
        return True

    def tick(self, now: float, wall: float | None = None) -> None:
        """The clock moved on: the betting time and the decision timeout (not while paused).
        ``wall``: the wall-clock time now, for the times people set and read (tournaments)."""
        core = self.core
        if wall is not None:
            core.wall_offset = wall - now
        if pinlock.due(core, now):  # the PIN lock's running time served (the operator menu pauses play)
            with core.tx("pin_lock_served", {"now": now}):
                pinlock.served(core, now)
        if core.state.row.pauses:
            return
        if self._tournament_clock(now):
            return
        chosen = core.state.row.pending_game
        if chosen is not None and admin.cabinet_idle(core) and not tournament.in_force(core.state):
            with core.tx("game_change", {"game": chosen, "now": now}):
                admin.select_game(core, chosen, "operator")
            return
        if play.betting_time_up(core, now):
            with core.tx("betting_time_out", {"now": now}):
                play.maybe_start_round(core, now, timeout=True)
            return
        d = play.decision_due(core, now)
        if d is not None:
            with core.tx("decision_time_out", {"now": now, "seat": d.seat}, d.seat):
                self._decide(d.seat, "auto", now, by="timeout")

    # -- inputs: pauses ---------------------------------------------------------------------------

    def pause(self, why: str, now: float) -> None:
        """Stop play safely (door open, panel offline, operator menu): inputs and timers wait."""
        if why in self.pauses:
            return
        with self.core.tx("pause", {"why": why, "now": now}):
            admin.pause(self.core, why, now)

    def resume(self, why: str, now: float) -> None:
        """The cause is gone: play goes on exactly where it stopped, the timers shifted."""
        if why not in self.pauses:
            return
        with self.core.tx("resume", {"why": why, "now": now}):
            admin.resume(self.core, why, now)

    # -- inputs: the hopper's reports, one chunk (at most 255 coins) at a time ------------------------
    # They are the ``PayoutLedger`` protocol of hardware/cctalk/ledger.py, seat by seat
    # (machine/loop/payout.py adapts them). Each is durable before it returns.

    def pending_chunk(self, n: int) -> dict[str, Any] | None:
        """The chunk a cut interrupted: requested, credited, lifetime_before, counter_before."""
        p = self.core.state.payouts.get(n)
        return None if p is None or p.chunk is None else p.chunk.to_dict()

    def chunk_begin(self, n: int, requested: int, hopper: int | None = None) -> None:
        """A chunk of seat ``n``'s payout is asked of the hopper at ccTalk address ``hopper``
        (None: a hopper whose count the journal does not follow)."""
        data: dict[str, Any] = {"requested": requested, **({"hopper": hopper} if hopper is not None else {})}
        with self.core.tx("payout_chunk", data, n):
            payouts.chunk_begin(self.core, n, requested, hopper)

    def chunk_baseline(self, n: int, lifetime: int, counter: int) -> None:
        with self.core.tx("payout_baseline", {"lifetime": lifetime, "counter": counter}, n):
            payouts.chunk_baseline(self.core, n, lifetime, counter)

    def hopper_paid(self, n: int, coins: int) -> None:
        """The hopper reported ``coins`` more coins paid for seat ``n``'s payout."""
        with self.core.tx("hopper_paid", {"coins": coins}, n):
            payouts.hopper_paid(self.core, self.seats[n], coins)

    def chunk_end(self, n: int, paid: int, unpaid: int, fault: str | None) -> None:
        """A chunk ended; the payout ends with it when all is paid or the hopper stopped short."""
        with self.core.tx("payout_chunk_end", {"paid": paid, "unpaid": unpaid, "fault": fault}, n):
            payouts.chunk_end(self.core, self.seats[n], unpaid, fault)

    def hopper_stray(self, n: int, coins: int, fault: str, hopper: int | None = None) -> None:
        """Coins left the hopper outside any payout (a runaway): metered, and the seat tilts."""
        with self.core.tx("hopper_stray", {"coins": coins, "fault": fault}, n):
            payouts.hopper_stray(self.core, self.seats[n], coins, fault, hopper)

    # -- inputs: the devices' own counters, compared with the journal's ---------------------------

    def hopper_counter(self, address: int) -> int | None:
        """The hopper's lifetime count (168) up to which every coin is accounted for."""
        return self.core.state.row.hopper_counters.get(str(address))

    def hopper_count_pending(self, address: int, seats: list[int]) -> bool:
        """Whether a cut payout chunk or hopper test may have moved the hopper's count (its
        reconcile accounts for it: the count is not compared, the motor not stopped)."""
        return payouts.pending_on(self.core, address, seats)

    def hopper_counter_check(self, address: int, lifetime: int, seats: list[int], when: str) -> int:
        """The hopper's count read at start-up or after its payouts, compared with the journal's.

        Returns the coins out that nothing explains (metered, logged, the hopper's ``seats``
        tilted); a count behind the journal's tilts them too. A cut chunk or hopper test still
        pending is left to its reconcile (nothing compared: 0). Journals only when the count
        moved.
        """
        core = self.core
        if payouts.pending_on(core, address, seats) or self.hopper_counter(address) == lifetime:
            return 0
        with core.tx("hopper_counter", {"hopper": address, "lifetime": lifetime, "when": when}):
            return payouts.counter_check(core, address, lifetime, seats, when)

    def acceptor_moved_while_down(self, n: int, address: int, last: int, now: int, events: int, lost: int) -> None:
        """Seat ``n``'s acceptor counted ``events`` events the journal never saw (found at
        start-up); ``lost`` of them are gone from its buffer: logged, and those tilt the seat."""
        data = {"address": address, "journal": last, "device": now, "events": events, "lost": lost}
        with self.core.tx("acceptor_while_down", data, n):
            payouts.acceptor_moved_while_down(self.core, self.seats[n], address, last, now, events, lost)

    # -- inputs: the attendant key ----------------------------------------------------------------

    def attendant_clear(self, n: int) -> bool:
        """The attendant key on seat ``n``: pays a handpay, or clears a tilt whose cause is gone."""
        if not payouts.attendant_may_clear(self.core, n):
            return False
        with self.core.tx("attendant", {"lock": self.seats[n].lock}, n):
            payouts.attendant_clear(self.core, self.seats[n])
        return True

    def attendant_refill(self, n: int, now: float) -> None:
        """The attendant refilled the hopper that pays seat ``n`` (recorded; a tilt then clears)."""
        with self.core.tx("hopper_refill", {"now": now}, n):
            self.cabinet_meters.add("hopper_refills")
            self.core.store.event("hopper_refill", n)

    def attendant_handpay_rest(self, n: int) -> bool:
        """After a hopper fault: turn what the hopper still owes into a handpay."""
        amount = payouts.handpay_rest_amount(self.core, n)
        if not amount:
            return False
        with self.core.tx("attendant_handpay", {"amount": amount}, n):
            payouts.handpay_rest(self.core, self.seats[n], amount)
        return True

    # -- inputs: the operator ---------------------------------------------------------------------

    def change_setting(self, name: str, value: Any, who: str) -> str:
        """Change a setting (journaled with its old and new value); returns what happens.

        Machine settings act at once; settings that change the game's mathematics wait for
        the next RAM clear, so the meters never mix two games.
        """
        core = self.core
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

    def hopper_test_baseline(self, lifetime: int, counter: int, seats: list[int]) -> None:
        with self.core.tx("hopper_test_baseline", {"lifetime": lifetime, "counter": counter}):
            payouts.test_baseline(self.core, lifetime, counter, seats)

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

