"""One ochko round, as an explicit state machine.

Owns: the order of a round (the deal, each seat's stake and play in turn, the banker, the
settlement), the bank as the round moves it, which choices are allowed at each decision and
why the others are refused, the events, what each seat sees (``shown``) and the whole state as
plain data. Never does I/O, reads a clock or draws a random number: the shoe comes in shuffled,
the decisions one at a time through ``act``. The rules it applies are ``ochko.rules``' and
``blackjack.scoring``' functions; the finished round as data is ``ochko.result``'s.

Theory of operation
-------------------
``OchkoRound.start`` opens the round's bank (the previous round's ``carry``; a new bank of
``opening_bank`` at the game's opening or after a bank closed), deals one closed card to each
seat in seat order and the banker's first card face up, and runs to the first decision. Then
the seats play one at a time, in seat order, each through two phases::

    bet -> play -> (next seat) ... -> banker -> done

* ``bet``: the seat stakes ``bet:N``, N from the minimum to the smaller of ``max_bet``, the
  uncovered bank (the bank less the stakes of the seats waiting for the banker) and the seat's
  funds, in steps of ``bet_step``. When not even the minimum fits, the seat sits out: it keeps
  its first card, stakes nothing and is asked nothing. After the stake its second card comes at
  once.
* ``play``: ``hit`` (draw), ``stand`` (enough), ``dark`` (with the setting, on 17 or more: one
  last card face down). Exactly 21 is paid at once out of the bank (stake back and 1x) and
  over 21 loses at once into the bank; either ends the turn. A dark card is settled with the
  waiting seats, whatever it makes.
* The banker draws, only if a seat is waiting, while under 17; then each waiting seat is
  settled (higher total wins 1:1 out of the bank, equal pushes, lower or bust loses into it).
  The bank closes after a stuk round (a bank of at least three opening banks before the round)
  or when it can no longer cover the minimum stake; ``carry`` tells the next round.

The table ``OchkoRound.PHASES`` (after the class) is this as data, walked by
``roundbase.RoundBase``. Every stake is covered when it is made, so the bank never goes below nothing: it always holds
at least the stakes of the seats waiting for the banker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from typing import Any

from machine.games.blackjack import scoring as bj
from machine.games.interface import FACE_DOWN, Decision, HandShown, SeatSettlement, TableShown, bet_action, bet_of
from machine.games.ochko import events as ev
from machine.games.ochko.result import round_result
from machine.games.ochko.rules import (
    ACE,
    LOSE_AT_ONCE,
    WIN_AT_ONCE,
    OchkoRules,
    at_once,
    bank_closes,
    bank_move,
    hand_total,
    is_stuk,
    may_draw_dark,
    points,
    stake_cap,
)
from machine.games.roundbase import DONE, Phase, RoundBase, RoundError
from machine.games.text import Text

PLAY_ACTIONS = ("hit", "stand", "dark")
STUK_NOTICE = "Stuk: the last round of this bank"
BANKER = "BANKER"  # what the screens call the house's hand


@dataclass
class OchkoSeat:
    """A seat in the round: its one hand, its stake and where it stands.

    ``state``: ``dealt`` (its turn has not come), ``playing``, ``waiting`` (for the banker),
    ``settled`` (at once or by the banker), ``out`` (sat out: the bank could not cover a stake).
    """

    number: int
    funds: int | None = None  # what the seat can stake; None: unlimited (scripts)
    cards: list[str] = field(default_factory=list)
    bet: int = 0
    state: str = "dealt"
    dark: bool = False  # the last card was drawn dark
    at_once: bool = False  # settled during its own turn (21 or over)
    result: str | None = None
    returned: int = 0

    @property
    def staked(self) -> int:
        return self.bet


def count(cards: Sequence[str], two_aces_21: bool) -> int:
    """The total of a hand of card codes (the banker's too)."""
    return hand_total(sum(points(c) for c in cards), len(cards), sum(1 for c in cards if points(c) == ACE), two_aces_21)


def total_text(total: int) -> str:
    return Text("bust {total}", total=total) if total > 21 else str(total)


@lru_cache(maxsize=1024)
def _stake_actions(stakes: tuple[int, ...]) -> tuple[str, ...]:
    """The ``bet:N`` actions of a bet decision (the same few lists come back round after round)."""
    return tuple(bet_action(b) for b in stakes)


def next_bank(rules: OchkoRules, carry: Mapping[str, Any] | None) -> tuple[int, bool]:
    """The bank a round starts with, and whether it is a new one: the previous round's bank,
    or ``opening_bank`` at the game's opening, after a bank closed, or when the bank carried can
    no longer cover the minimum stake (the minimum was raised since)."""
    if carry is None:
        return rules.opening_bank, True
    bank, closed = carry.get("bank"), carry.get("closed", False)
    if isinstance(bank, bool) or not isinstance(bank, int) or bank < 0 or not isinstance(closed, bool):
        raise RoundError(f"carry: {dict(carry)!r} is not an ochko bank ({{bank: points, closed: true|false}})")
    if closed or bank < rules.min_bet:
        return rules.opening_bank, True
    return bank, False


class OchkoRound(RoundBase):
    """An ochko round in progress or finished. Build one with ``OchkoRound.start``."""

    events: list[ev.Event]

    def __init__(self, rules: OchkoRules, shoe: list[str], seats: list[OchkoSeat], bank: int, opened: bool):
        super().__init__(shoe)
        self.rules = rules
        self.seats = seats
        self.banker: list[str] = []
        self.bank = bank
        self.bank_before = bank
        self.bank_opened = opened
        self.stuk = is_stuk(bank, rules.opening_bank)
        self.bank_closed = False
        self.seat_i = 0

    @classmethod
    def start(
        cls,
        rules: OchkoRules,
        shoe: Sequence[str],
        seat_numbers: Sequence[int],
        funds: Sequence[int | None] | None = None,
        carry: Mapping[str, Any] | None = None,
    ) -> OchkoRound:
        """Open the bank from ``carry``, deal, and run to the first decision."""
        if not seat_numbers:
            raise RoundError("a round needs at least one seat")
        fl = list(funds) if funds is not None else [None] * len(seat_numbers)
        seats = [OchkoSeat(number=n, funds=f) for n, f in zip(seat_numbers, fl, strict=True)]
        bank, opened = next_bank(rules, carry)
        rnd = cls(rules, list(shoe), seats, bank, opened)
        rnd._deal()
        rnd.advance()
        return rnd

    # -- queries ------------------------------------------------------------------------------

    @property
    def up_card(self) -> str | None:
        return self.banker[0] if self.banker else None

    @property
    def seat_numbers(self) -> list[int]:
        """The seats in this round, in playing order."""
        return [s.number for s in self.seats]

    def seat(self, number: int) -> OchkoSeat:
        for s in self.seats:
            if s.number == number:
                return s
        raise KeyError(number)

    def total(self, cards: Sequence[str]) -> int:
        return count(cards, self.rules.two_aces_21)

    @property
    def waiting_stakes(self) -> int:
        return sum(s.bet for s in self.seats if s.state == "waiting")

    @property
    def uncovered(self) -> int:
        """The bank less the stakes of the seats waiting for the banker."""
        return self.bank - self.waiting_stakes

    def bets(self, seat: OchkoSeat) -> list[int]:
        """The stakes ``seat`` may place now (none: it sits out)."""
        top = stake_cap(self.bank, self.waiting_stakes, self.rules.max_bet)
        if seat.funds is not None:
            top = min(top, seat.funds)
        return self.rules.bets(top)

    def play_options(self, seat: OchkoSeat) -> tuple[str, ...]:
        dark = may_draw_dark(self.total(seat.cards), self.rules.dark_draw)
        return PLAY_ACTIONS if dark else PLAY_ACTIONS[:2]

    # -- the phases: one row of the table each (PHASES, after the class) --------------------------

    def _bet_decision(self) -> Decision:
        seat = self.seats[self.seat_i]
        return Decision(seat.number, None, "bet", _stake_actions(tuple(self.bets(seat))))

    def _play_decision(self) -> Decision:
        seat = self.seats[self.seat_i]
        return Decision(seat.number, 0, "play", self.play_options(seat))

    def _bet_refusal(self, action: str) -> str | None:
        seat, stake = self.seats[self.seat_i], bet_of(action)
        if stake is None:
            return f"the seat stakes first (bet:N, {self.rules.min_bet} to {self.bets(seat)[-1]})"
        return self._stake_problem(seat, stake)

    def _play_refusal(self, action: str) -> str | None:
        seat = self.seats[self.seat_i]
        if bet_of(action) is not None:
            return "the seat has staked already"
        if action not in PLAY_ACTIONS:
            return f"unknown action (one of {', '.join(PLAY_ACTIONS)})"
        if action == "dark" and action not in self.play_options(seat):
            if not self.rules.dark_draw:
                return "the dark draw is not played at this table"
            return f"a dark card only on 17 or more (the hand totals {self.total(seat.cards)})"
        return None

    def refused_hand(self, seat_number: int) -> int | None:
        """An ochko seat has one hand: a refusal of the seat to move names it."""
        d = self.pending
        return 0 if d is not None and d.seat == seat_number else None

    def _stake_problem(self, seat: OchkoSeat, stake: int) -> str | None:
        problem = self.rules.bet_problem(stake)
        if problem:
            return problem
        if stake > self.uncovered:
            waiting = self.waiting_stakes
            less = f" (the bank {self.bank} less {waiting} staked by seats waiting for the banker)" if waiting else ""
            return f"bet {stake} is above the uncovered bank of {self.uncovered}{less}"
        if seat.funds is not None and stake > seat.funds:
            return f"bet {stake} is above what the seat can stake ({seat.funds})"
        return None

    # -- decisions ----------------------------------------------------------------------------

    def _stake_action(self, action: str) -> None:
        self._stake(self.seats[self.seat_i], bet_of(action) or 0)

    def _play_action(self, action: str) -> None:
        self._play(self.seats[self.seat_i], action)

    def _stake(self, seat: OchkoSeat, stake: int) -> None:
        seat.bet = stake
        if seat.funds is not None:
            seat.funds -= stake
        seat.state = "playing"
        self.emit(ev.BetPlaced(seat.number, stake))
        self._give(seat)
        self._after_card(seat)

    def _play(self, seat: OchkoSeat, action: str) -> None:
        self.emit(ev.Action(seat.number, 0, action))
        if action == "hit":
            self._give(seat)
            self._after_card(seat)
        elif action == "stand":
            seat.state = "waiting"
        else:  # dark: one last card, face down, settled with the waiting seats
            card = self.draw()
            seat.cards.append(card)
            seat.dark = True
            seat.state = "waiting"
            self.emit(ev.DarkCardDealt(seat.number, 0, card))

    def _after_card(self, seat: OchkoSeat) -> None:
        """Exactly 21 is paid at once; over 21 loses at once."""
        outcome = at_once(self.total(seat.cards))
        if outcome == WIN_AT_ONCE:
            seat.at_once = True
            self._settle(seat, bj.RESULTS[bj.WIN], 2 * seat.bet)
        elif outcome == LOSE_AT_ONCE:
            seat.at_once = True
            self.emit(ev.Busted(seat.number, 0))
            self._settle(seat, bj.RESULTS[bj.LOSE], 0)

    # -- the deal, the turns, the banker ------------------------------------------------------

    def _give(self, seat: OchkoSeat) -> None:
        card = self.draw()
        seat.cards.append(card)
        self.emit(ev.CardDealt(seat.number, 0, card))

    def _give_banker(self) -> None:
        card = self.draw()
        self.banker.append(card)
        self.emit(ev.DealerCardDealt(card))

    def _deal(self) -> None:
        if self.bank_opened:
            self.emit(ev.BankOpened(self.bank))
        if self.stuk:
            self.emit(ev.StukAnnounced(self.bank))
        for seat in self.seats:
            self._give(seat)  # closed: seen only by its seat
        self._give_banker()  # face up
        self.phase, self.seat_i = "bet", 0

    def _next_turn(self) -> bool:
        """Move on to the next seat that must decide, in the phase that asks it (its stake, then
        its play); a seat the bank cannot cover sits out. False when every seat has played."""
        while self.seat_i < len(self.seats):
            seat = self.seats[self.seat_i]
            if seat.state == "dealt":
                if self.bets(seat):
                    self.phase = "bet"
                    return True
                seat.state, seat.result = "out", bj.RESULTS[bj.PUSH]
                self.emit(ev.SatOut(seat.number, self.uncovered))
            elif seat.state == "playing":
                self.phase = "play"
                return True
            self.seat_i += 1
        return False

    def _banker_plays(self) -> str:
        """The banker draws while a seat waits and is under 17; the waiting seats are settled."""
        waiting = [s for s in self.seats if s.state == "waiting"]
        if waiting:
            while bj.dealer_draws(self.total(self.banker), False, False):
                self._give_banker()
            banker = self.total(self.banker)
            for seat in waiting:
                if seat.dark:
                    self.emit(ev.DarkCardShown(seat.number, 0, seat.cards[-1]))
                code, returned = bj.settle_hand(
                    seat.bet, seat.bet, self.total(seat.cards), False, False, False, True,
                    banker, False, False, False, 0, False, 1, 1,
                )
                self._settle(seat, bj.RESULTS[code], returned)
        if bank_closes(self.bank, self.stuk, self.rules.min_bet):
            self.bank_closed = True
            self.emit(ev.BankClosed(self.bank, "stuk" if self.stuk else "broken"))
        self.phase = DONE
        self.emit(ev.RoundEnded())
        return DONE

    def _settle(self, seat: OchkoSeat, result: str, returned: int) -> None:
        seat.state, seat.result, seat.returned = "settled", result, returned
        self.emit(ev.HandSettled(seat.number, 0, returned, result))
        move = bank_move(seat.bet, returned)
        if move:
            self.bank += move
            self.emit(ev.BankMoved(move, self.bank))

    # -- what the screens show, the carry, the money ------------------------------------------

    def shown(self) -> TableShown:
        """Each seat's hand as that seat sees it (a dark card closed until the settlement), the
        banker's cards, the bank now and the stuk notice."""
        d = self.pending
        hands = {}
        others = {}
        for s in self.seats:
            cards = list(s.cards)
            hidden = s.dark and not self.finished
            if hidden:
                cards[-1] = FACE_DOWN
            text = "" if hidden else total_text(self.total(s.cards))
            shown = HandShown(tuple(cards), s.bet, text, s.result, s.returned, active=d is not None and d.seat == s.number)
            hands[s.number] = (shown,)
            others[s.number] = (self._seen_by_others(s, shown),)
        return TableShown(
            tuple(self.banker), total_text(self.total(self.banker)) if self.banker else "", hands,
            bank=self.bank, notice=STUK_NOTICE if self.stuk else "", dealer_title=BANKER,
            bets={s.number: s.bet for s in self.seats}, others=others,
            revealed=frozenset(s.number for s in self.seats if s.at_once),
        )

    def _seen_by_others(self, seat: OchkoSeat, own: HandShown) -> HandShown:
        """Seat ``seat``'s hand as the other seats may see it: every card closed, its stake shown,
        until a 21 or a bust settles it at once (shown to all) or the round is settled."""
        if self.finished or seat.at_once:
            return own
        return replace(own, cards=(FACE_DOWN,) * len(own.cards), total_text="")

    @property
    def carry(self) -> dict[str, Any]:
        """The next round's bank: this one as it stands, and whether it closed."""
        return {"bank": self.bank, "closed": self.bank_closed}

    def settlement(self) -> list[SeatSettlement]:
        """Each seat's stake and return for the meters, once the round is finished."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return [SeatSettlement(s.number, s.staked, s.returned) for s in self.seats]

    def result(self, game: str) -> dict[str, Any]:
        """The finished round in the round-script format, with ochko's bank keys."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return round_result(self, game)

    # -- plain data ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (JSON-able); ``from_dict`` restores it exactly."""
        return {
            "rules": self.rules.to_dict(),
            "shoe": list(self.shoe),
            "pos": self.pos,
            "seats": [asdict(s) for s in self.seats],
            "banker": list(self.banker),
            "bank": self.bank,
            "bank_before": self.bank_before,
            "bank_opened": self.bank_opened,
            "bank_closed": self.bank_closed,
            "phase": self.phase,
            "seat_i": self.seat_i,
            "events": [e.to_dict() for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> OchkoRound:
        rules = OchkoRules.from_dict(data["rules"])
        seats = [OchkoSeat(**{**s, "cards": list(s["cards"])}) for s in data["seats"]]
        rnd = cls(rules, list(data["shoe"]), seats, data["bank_before"], data["bank_opened"])
        rnd.pos, rnd.banker, rnd.bank = data["pos"], list(data["banker"]), data["bank"]
        rnd.bank_closed, rnd.phase, rnd.seat_i = data["bank_closed"], data["phase"], data["seat_i"]
        rnd.events = [ev.from_dict(e) for e in data["events"]]
        return rnd


# phase -> who is asked and what, why an answer is refused, what it does, what follows (each
# seat's stake, then its play, seat after seat: ``_next_turn`` finds the seat and its phase)
OchkoRound.PHASES = {
    "bet": Phase(OchkoRound._next_turn, OchkoRound._bet_decision, OchkoRound._bet_refusal, OchkoRound._stake_action,
                 then=OchkoRound._banker_plays),
    "play": Phase(OchkoRound._next_turn, OchkoRound._play_decision, OchkoRound._play_refusal, OchkoRound._play_action,
                  then=OchkoRound._banker_plays),
}
