"""Liveness and lamps: which of a seat's buttons would do something now, and what it stands for.

Owns: pure functions of the cabinet's state answering "would pressing this button change
something" (its lamp), "what does this press stand for" (``press_kind``: the cabinet's table of
presses acts on it), "which play action does this button stand for now" (asked of the game) and
"may this seat's acceptor take coins". Never changes the state and never journals: a lamp is lit
exactly when the press would be acted upon.

The seat's state comes from the seat table (``machine/core/seats.py``: the first row of
``SEAT_STATES`` that holds); its row says which buttons may light in that state (``bet``: the
bet buttons and Start; ``collect``; ``play``: the game's buttons when the game asks this seat)
and whether the coin acceptor may take coins; seat money and the game then decide button by
button. ``game``: at an idle cabinet (no round, no seat with a bet) with more than one game
enabled, Draw and Stand choose the next and the previous game, on a seat only while no other
seat holds credit, club points or a bet (``game_choice_held`` says which seat holds them). While a tournament is in force
``tournament_live`` answers instead (its name entry, its rounds, Start to enter).
"""

from __future__ import annotations

import enum

from machine.core import tournament
from machine.core.seats import SEAT_STATES, SEAT_TRANSITIONS, STATES, seat_state, transition_allowed
from machine.core.state import CabinetState
from machine.games.interface import BET_BUTTONS, Button, Decision, Game, bet_action, bet_of
from machine.money.seatmoney import HasLimits


def _group(button: Button) -> str:
    if button in BET_BUTTONS or button == Button.START:
        return "bet"
    if button == Button.COLLECT:
        return "collect"
    return "play"


# -- queries --------------------------------------------------------------------------------


GAME_CHOICE = {Button.DRAW: 1, Button.STAND: -1}


def game_step(state: CabinetState, n: int, button: Button, games: int) -> int:
    """+1 or -1 when ``button`` on seat ``n`` chooses the next or previous of ``games`` enabled
    games now (an idle cabinet: no round, no seat with a bet, no other seat with credit or club
    points); 0 when it does not."""
    if button not in GAME_CHOICE or not _may_offer_game(state, n, games) or game_choice_held(state, n) is not None:
        return 0
    if state.seats[n].host_disabled or state.seats[n].aft_locked:
        return 0
    return GAME_CHOICE[button]


def _may_offer_game(state: CabinetState, n: int, games: int) -> bool:
    """Whether seat ``n`` is where a game could be chosen now, other seats aside."""
    if games < 2 or state.round is not None or state.row.pauses or tournament.in_force(state):
        return False
    return "game" in STATES[seat_state(state, n)].lamps and not state.seats[n].money.bet


def game_choice_held(state: CabinetState, n: int) -> int | None:
    """The first other seat whose credit, club points or bet keep seat ``n`` from choosing the
    game (its money would be played under a game it did not choose), or None."""
    for o, s in sorted(state.seats.items()):
        if o != n and (s.money.credit or s.money.club or s.money.bet):
            return o
    return None


def game_choice_refused(state: CabinetState, n: int, games: int) -> int | None:
    """The other seat holding money when seat ``n`` could otherwise choose the game now (its
    screen says why Draw and Stand stay dark), else None."""
    return game_choice_held(state, n) if _may_offer_game(state, n, games) else None


def action_for(state: CabinetState, game: Game, n: int, button: Button) -> str | None:
    """The round action ``button`` on seat ``n`` stands for now, or None when it is dead."""
    rnd = state.round
    d = rnd.pending if rnd is not None else None
    if d is None or d.seat != n:
        return None
    return game.action_for(d, button, state.seats[n].picks)


def play_decision(state: CabinetState, n: int) -> Decision | None:
    """Seat ``n``'s pending decision of play (not a bet), or None: where its card picks count."""
    rnd = state.round
    d = rnd.pending if rnd is not None else None
    return d if d is not None and d.seat == n and d.kind != "bet" else None


def bet_decision(state: CabinetState, n: int) -> Decision | None:
    """Seat ``n``'s pending ``bet`` decision (a game that bets after the deal), or None."""
    rnd = state.round
    d = rnd.pending if rnd is not None else None
    return d if d is not None and d.seat == n and d.kind == "bet" else None


def bets_allowed(state: CabinetState, n: int, d: Decision) -> list[int]:
    """The bets seat ``n`` may place at its bet decision: the game's options within the
    quarter-of-club cap (random-blackjack.md section 6; the minimum always)."""
    options = sorted(b for b in (bet_of(o) for o in d.options) if b is not None)
    if not options:
        return []
    cap = state.seats[n].money.bet_cap()
    return [b for b in options if b <= cap]


def bet_limits(state: CabinetState, game: Game, rules: HasLimits, n: int) -> tuple[int, int, str]:
    """The smallest and the largest bet of seat ``n``'s bet decision at hand, and what sets the
    largest: ``""`` the table's maximum, ``"club"`` a quarter of its club meter, ``"bank"`` what the
    bank covers (ochko: the uncovered bank), ``"credit"`` what the seat can fund. At a bet
    decision (a game that bets after the deal) the options it may take; before a round the bet
    its buttons may place; otherwise (its bet in play, no credit yet) the table's limits."""
    low, top = int(rules.min_bet), int(rules.max_bet)
    rnd = state.round
    table = rnd.shown() if rnd is not None else game.shown_between(state.row.carry.get(game.name))
    bank = table.bank
    d = bet_decision(state, n)
    if d is not None and state.seats[n].lock is None:
        allowed = bets_allowed(state, n, d)
        options = sorted(b for b in (bet_of(o) for o in d.options) if b is not None)
        if allowed:
            high = allowed[-1]
            why = "club" if high < options[-1] else "" if high >= top else "bank" if bank is not None else "credit"
            return allowed[0], high, why
    high = state.seats[n].money.max_bet() if state.seats[n].lock is None and rnd is None else 0
    why = "club" if 0 < high < top else ""
    high = high or top
    if bank is not None and bank < high:
        high, why = max(low, bank), "bank"
    return low, high, why


def proposal(state: CabinetState, n: int, d: Decision) -> int:
    """The bet seat ``n``'s screen proposes now: what its buttons set, within what is allowed."""
    allowed = bets_allowed(state, n, d)
    want = state.seats[n].proposal
    fits = [b for b in allowed if b <= want]
    return fits[-1] if fits else allowed[0]


def bet_press(state: CabinetState, n: int, button: Button) -> int | str | None:
    """At seat ``n``'s bet decision: the new proposal a bet button sets, or the action Start
    takes (``bet:N``); None when the press would change nothing."""
    d = bet_decision(state, n)
    if d is None:
        return None
    allowed = bets_allowed(state, n, d)
    if not allowed:
        return None
    cur = proposal(state, n, d)
    if button == Button.START:
        return bet_action(cur)
    if button not in BET_BUTTONS:
        return None
    previous = state.seats[n].money.previous_bet
    target = {
        Button.PLUS_2: cur + 2, Button.PLUS_10: cur + 10, Button.TIMES_2: 2 * cur,
        Button.MAX: allowed[-1], Button.REPEAT: previous or cur,
    }[button]
    fits = [b for b in allowed if b <= target]
    new = fits[-1] if fits else allowed[0]
    return new if new != cur else None


def is_live(state: CabinetState, game: Game, n: int, button: Button, games: int = 1) -> bool:
    """Whether pressing ``button`` on seat ``n`` now would do something (its lamp)."""
    if state.row.pauses:
        return False
    if state.hold is not None and state.round is not None and (_group(button) == "play" or bet_decision(state, n)):
        return False  # a reveal's hold (machine/core/reveal.py): the next decision waits for the screens
    if (state.seats[n].host_disabled or state.seats[n].aft_locked) and not state.in_round(n) and _group(button) == "bet":
        return False  # shut down (SAS 01) or locked for a transfer (74) by the casino's host: no new bet or entry
    if tournament.in_force(state):
        return tournament_live(state, game, n, button)
    seat = state.seats[n]
    if bet_decision(state, n) is not None and button != Button.AUTO:
        return bet_press(state, n, button) is not None
    group = _group(button)
    if group == "play" and state.round is None:
        return game_step(state, n, button, games) != 0
    if group not in STATES[seat_state(state, n)].lamps:
        return False
    if group == "play":
        return action_for(state, game, n, button) is not None
    if group == "collect":
        return seat.money.is_live("collect")
    if state.round is not None:
        return False  # bets wait until the round in play is over
    if button == Button.START:
        return seat.money.is_live("start") and not seat.ready
    return seat.money.is_live(button.value)


def tournament_live(state: CabinetState, game: Game, n: int, button: Button) -> bool:
    """A tournament in force (machine/core/tournament.py): betting and the game choice are dark;
    the participant's round takes the game's buttons; the name entry its own keys; Start enters
    (any free seat while no one else is entering or playing) or deals the participant's next
    round; Collect works as always outside a round."""
    lamps = STATES[seat_state(state, n)].lamps
    if not lamps:  # locked or paying
        return False
    if button == Button.COLLECT:
        return "collect" in lamps and state.seats[n].money.is_live("collect")
    if state.round is not None:
        return _group(button) == "play" and action_for(state, game, n, button) is not None
    if tournament.entering(state, n):
        return tournament.name_key_live(state, n, button)
    if button == Button.START:
        return tournament.may_enter(state, n) or tournament.may_play_next(state, n)
    return False


class Press(enum.StrEnum):
    """What a live press stands for (``press_kind``); the cabinet's table (``PRESSES`` in
    machine/core/play_inputs.py) says what each one does."""

    PROPOSE = "propose"  # a bet button at the seat's bet decision: the bet its screen proposes
    PLACE = "place"  # Start at the seat's bet decision: the proposed bet placed
    BET = "bet"  # a bet button before the round
    START = "start"  # Start: the seat is ready for the coming round
    COLLECT = "collect"
    GAME = "game"  # Draw or Stand at an idle cabinet: the next or the previous game
    PLAY = "play"  # the round in play: a card pick or the action the button stands for
    NAME = "name"  # a tournament's name entry
    NEXT_ROUND = "next round"  # a tournament participant's next round
    ENTER = "enter"  # Start on a free seat: a tournament's name entry begins


def press_kind(state: CabinetState, game: Game, n: int, button: Button, games: int = 1) -> Press | None:
    """What pressing ``button`` on seat ``n`` stands for now; None when the press is dead."""
    if not is_live(state, game, n, button, games):
        return None
    if tournament.in_force(state):
        if state.round is not None:
            return Press.PLAY
        if button == Button.COLLECT:
            return Press.COLLECT
        if tournament.entering(state, n):
            return Press.NAME
        return Press.NEXT_ROUND if tournament.may_play_next(state, n) else Press.ENTER
    at_bet = bet_press(state, n, button)
    if at_bet is not None:
        return Press.PROPOSE if isinstance(at_bet, int) else Press.PLACE
    if button in BET_BUTTONS:
        return Press.BET
    if button == Button.START:
        return Press.START
    if button == Button.COLLECT:
        return Press.COLLECT
    return Press.GAME if state.round is None else Press.PLAY


def live(state: CabinetState, game: Game, n: int, games: int = 1) -> list[Button]:
    return sorted(b for b in Button if is_live(state, game, n, b, games))


def may_take_coins(state: CabinetState, n: int, credit_limit: int) -> bool:
    """Whether seat ``n``'s coin acceptor should accept coins now."""
    seat = state.seats[n]
    return (not state.row.pauses and STATES[seat_state(state, n)].coins and seat.money.credit < credit_limit
            and not seat.host_disabled)


__all__ = [
    "SEAT_STATES", "SEAT_TRANSITIONS", "STATES", "Press", "is_live", "live", "may_take_coins", "press_kind", "seat_state",
    "transition_allowed",
]
