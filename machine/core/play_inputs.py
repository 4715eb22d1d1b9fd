"""The cabinet's inputs from the players and the clock: buttons, touches, ticks and pauses.

Owns: ``PlayInputs``, each input ONE journal transaction handed to the job modules (``play``
the rounds, ``payouts`` Collect, ``admin`` the game choice and pauses, ``tournament`` the
tournament's presses and timers), and the table from what a live press stands for
(``lamps.press_kind``) to what carries it out (``PRESSES``). Never decides what is live (the
lamps do) and never reads a clock: time comes in as ``now``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from machine.core import admin, lamps, payouts, pinlock, play, reveal, tournament
from machine.core.context import Core
from machine.core.lamps import Press
from machine.core.queries import CabinetQueries
from machine.games.interface import PICK, Button


class PlayInputs(CabinetQueries):
    """Buttons, touches, the clock and pauses (see the module's docstring)."""

    def press(self, n: int, button: str, now: float) -> bool:
        """A button press on seat ``n``; a dead press does nothing and returns False."""
        try:
            b = Button(button)
        except ValueError:
            raise ValueError(f"unknown button {button!r}") from None
        core = self.core
        reveal.end_if_due(core.state, now)
        kind = lamps.press_kind(core.state, core.game, n, b, len(core.profiles))
        if kind is None:
            with core.tx("press", {"button": b.value, "ignored": True}, n):
                pass
            return False
        data = {"button": b.value, **({"tournament": True} if tournament.in_force(core.state) else {})}
        with core.tx("press", data, n):
            seen = self.seats[n]
            if seen.paid:  # its next action: the payout's "paid" leaves its screen
                seen.paid = 0
                core.store.seat_dirty(seen)
            PRESSES[kind](self, n, b, now)
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
            TOURNAMENT_TIMERS[what](core, now)
        return True

    def tick(self, now: float, wall: float | None = None) -> None:
        """The clock moved on: the betting time and the decision timeout (not while paused).
        ``wall``: the wall-clock time now, for the times people set and read (tournaments)."""
        core = self.core
        if wall is not None:
            core.wall_offset = wall - now
        reveal.end_if_due(core.state, now)
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
                admin.select_game(core, chosen, "operator", now=now)
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


# -- what a live press does, by what it stands for (lamps.press_kind) ----------------------------------


def _propose(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    seat, at_bet = cab.seats[n], lamps.bet_press(cab.core.state, n, b)
    assert isinstance(at_bet, int)
    seat.proposal = at_bet
    cab.core.store.seat_dirty(seat)


def _place(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    action = lamps.bet_press(cab.core.state, n, b)
    assert isinstance(action, str)
    play.decide(cab.core, n, action, now, by="player")


def _bet(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    core, seat = cab.core, cab.seats[n]
    core.store.moves(seat, seat.money.press_bet(b.value))
    core.store.seat_dirty(seat)
    if core.state.row.betting_since is None:
        core.state.row.betting_since = now


def _start(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    seat = cab.seats[n]
    seat.ready = True
    cab.core.store.seat_dirty(seat)
    play.maybe_start_round(cab.core, now, timeout=False)


def _collect(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    payouts.collect(cab.core, cab.seats[n])


def _choose_game(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    core, names = cab.core, cab.games_enabled
    step = lamps.game_step(core.state, n, b, len(names))
    admin.select_game(core, names[(names.index(core.profile.game) + step) % len(names)], f"seat {n}", n, now)


def _play(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    cab._play_button(n, b, now)


def _name_key(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    tournament.name_key(cab.core, n, b, now)


def _next_round(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    tournament.next_round(cab.core, now)


def _enter(cab: PlayInputs, n: int, b: Button, now: float) -> None:
    tournament.begin_name(cab.core, n, now)


PRESSES: Mapping[Press, Callable[[PlayInputs, int, Button, float], None]] = {
    Press.PROPOSE: _propose,
    Press.PLACE: _place,
    Press.BET: _bet,
    Press.START: _start,
    Press.COLLECT: _collect,
    Press.GAME: _choose_game,
    Press.PLAY: _play,
    Press.NAME: _name_key,
    Press.NEXT_ROUND: _next_round,
    Press.ENTER: _enter,
}


# -- what the tournament's clock does, by what is due (tournament.due) ---------------------------------


def _tournament_end(core: Core, now: float) -> None:
    t = tournament.current(core.state)
    assert t is not None
    closing = t.get("closing") or {"by": "clock", "why": "its end time came"}
    tournament.close(core, now, closing["by"], closing["why"])


TOURNAMENT_TIMERS: Mapping[str, Callable[[Core, float], None]] = {
    "prizes": lambda core, now: tournament.pay_prizes(core),
    "start": tournament.put_in_force,
    "give_up": lambda core, now: tournament.give_up(core),
    "rebase": tournament.rebase,
    "next_round": tournament.next_round,
    "end": _tournament_end,
}
