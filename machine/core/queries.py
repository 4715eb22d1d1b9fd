"""The cabinet's read side: what the loop, the screens, the operator menu and the robots ask.

Owns: ``CabinetQueries``, every question asked of the cabinet between inputs (the state in
force, the seats, the round, the payouts, the timers, the lamps and labels of each seat's
buttons, the tournament as the screens show it). Pure reads of the ``Core``: never changes the
state, never journals (the inputs, ``machine/core/*_inputs.py``, do); the one thing a question
writes is the screens' own note of when they began to announce an operator's change of game.
"""

from __future__ import annotations

from typing import Any

from machine.core import lamps, play, tournament
from machine.core.context import CabinetSettings, Core
from machine.core.state import Payout, SeatState
from machine.core.tourstages import Stage
from machine.games.blackjack.rules import Rules
from machine.games.interface import Button, Game
from machine.games.rules import Profile
from machine.money.journal import Journal
from machine.money.meters import Meters

GAME_CHANGE_SECONDS = 6.0  # how long every screen announces a change of the game in force

class CabinetQueries:
    """The read side of a ``Cabinet`` (see the module's docstring)."""

    core: Core

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

    def game_choice_refused(self, n: int) -> int | None:
        """The other seat whose credit, club points or bet keep seat ``n``'s Draw and Stand from
        choosing the game now (its screen says so), else None."""
        return lamps.game_choice_refused(self.core.state, n, len(self.core.profiles))

    def bet_limits(self, n: int) -> tuple[int, int, str]:
        """MIN and MAX of seat ``n``'s bet decision at hand, and what sets the MAX (``lamps.bet_limits``)."""
        return lamps.bet_limits(self.core.state, self.core.game, self.core.rules, n)

    def collected_since_round(self, n: int) -> bool:
        """Whether seat ``n`` was paid out since the last round ended (its result left its screen)."""
        return n in self.core.collected

    def pay_rule(self) -> str:
        """The main pay rule of the game in force (the game's own words, English)."""
        return self.core.game.pay_rule()

    def game_change(self, now: float) -> dict[str, Any] | None:
        """The change of the game in force the screens announce at ``now`` (for
        ``GAME_CHANGE_SECONDS`` from when they began): ``seat`` (None: the operator), ``title``
        and ``pay_rule`` of the game chosen; None when there is none to announce."""
        shown = self.core.game_shown
        if shown is None or shown["game"] != self.core.profile.game or self.core.state.row.pauses:
            return None  # paused (the operator menu open): announced once play goes on
        if shown["at"] is None:  # an operator's change, made with play paused: announced from now
            shown["at"] = now
        if not 0 <= now - shown["at"] < GAME_CHANGE_SECONDS:
            return None
        return {"seat": shown["seat"], "title": self.core.profile.title, "pay_rule": self.pay_rule()}

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
        if tournament.entering(state, n):
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
    def tournament_stage(self) -> Stage:
        """Where the open tournament is (machine/core/tourstages.py); ``Stage.NONE``: none is open."""
        return tournament.stage(self.core.state)

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
        if tournament.playing(self.core.state):
            out["progress"] = tournament.progress(self.core.state)
        return out

    def attract_lines(self) -> list[str]:
        return self.core.game.attract_lines()

    def payouts_owed(self) -> dict[int, int]:
        """Coins each seat's payout still asks of the hopper (for the hopper's driver)."""
        return {n: p.owed for n, p in self.core.state.payouts.items()}

    @property
    def revealing(self) -> frozenset[int]:
        """The seats whose hands were just shown to every seat while play holds for the screens
        (machine/core/reveal.py); empty when nothing holds."""
        hold = self.core.state.hold
        return hold.seats if hold is not None and self.core.state.round is not None else frozenset()

    def decision_time_left(self, now: float) -> float | None:
        """Seconds left for the pending decision, or None when there is no limit."""
        return play.decision_time_left(self.core, now)

    def decision_time(self) -> float:
        """The whole time the pending decision has (the countdown's full circle): a bet
        decision's is the betting time, any other's the decision timeout."""
        rnd = self.core.state.round
        d = rnd.pending if rnd is not None else None
        return self.core.settings.decision_timeout if d is None else play.decision_limit(self.core, d)
