"""One round of eenentwintig, as an explicit state machine.

Owns: the order of a round (the deal, the bets after the open card, the closed cards turned,
the seats' turns, the bank's turn, the settlement), which choices are allowed at every decision
and why the others are refused, the events a display and a journal consume, what each seat
may see (``shown``), and the whole state as plain data. Never does I/O, reads a clock or draws
a random number: the shoe comes in shuffled, the decisions one at a time through ``act``. The
rules it applies (a hand's key, the stops, the vuile was, the pair, the bank's draw, the
settlement) are the functions of ``scoring``, shared with the analysis and the fast simulator.

Theory of operation
-------------------
``EenentwintigRound.start`` deals (a closed card to each seat in seat order, one closed card
to the bank, an open card to each seat, the bank's second closed card) and waits on the first
bet. From then on the round is in one of these phases::

    bet -> play -> done

* ``bet``: each seat in seat order, having seen only its open card, answers a ``bet``
  decision whose options are ``bet:N`` for every bet the table allows and the seat can fund.
  The bet is the hand's stake (event ``BetPlaced``, stake kind ``bet``). After the last bet
  every closed card is turned (``CardTurned``).
* ``play``: one hand of one seat at a time (``hit`` = buy, ``stand`` = pass, ``split``,
  ``wash``). A hand at 21 (a natural A + T among them), at seven cards or over 21 is over by
  itself; a bust is lost at once. After a split the left hand gets its second card and is
  played out before the right hand gets its second card.
* ``done``: the bank has turned its two cards and drawn under 17 (nothing when every hand is
  bust), and every hand is settled: a win returns twice the stake, a tie the stake.

The table ``EenentwintigRound.PHASES`` (after the class) is this as data, walked by
``roundbase.RoundBase``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.events import (
    Action,
    BetPlaced,
    Busted,
    CardDealt,
    CardTurned,
    ClosedCardDealt,
    DealerCardDealt,
    Event,
    HandSettled,
    HoleCardRevealed,
    RoundEnded,
    Washed,
    eenentwintig_event,
)
from machine.games.eenentwintig.result import hand_text, round_result, seat_settlements
from machine.games.eenentwintig.rules import EenentwintigRules
from machine.games.interface import FACE_DOWN, Decision, HandShown, SeatSettlement, TableShown, bet_action, bet_of
from machine.games.roundbase import DONE, Funded, IllegalAction, Phase, RoundBase, RoundError, ShoeExhausted

__all__ = ["PLAY_ACTIONS", "EenentwintigRound", "Hand", "IllegalAction", "RoundError", "Seat", "ShoeExhausted"]

PLAY_ACTIONS = ("hit", "stand", "split", "wash")
RESULTS = ("lose", "push", "win")  # by the codes of scoring.settle


BANK = "BANK"  # what the screens call the house's hand in this game


@dataclass
class Hand:
    cards: list[str]
    stake: int = 0
    from_split: bool = False
    washed: list[str] = field(default_factory=list)  # the vuile was thrown away, if any
    done: bool = False
    result: str | None = None
    returned: int = 0

    def score(self, rules: EenentwintigRules) -> sc.HandScore:
        return sc.score_cards(self.cards, not self.from_split, rules.two_aces_twenty_and_a_half, rules.three_sevens_beat_21)

    @property
    def values(self) -> list[int]:
        return [sc.value(c) for c in self.cards]


@dataclass
class Seat(Funded):
    number: int
    funds: int | None = None  # what the seat can still stake; None: unlimited (scripts)
    bet: int = 0  # 0 until the seat's bet decision
    hands: list[Hand] = field(default_factory=list)
    acted: bool = False  # has taken a play action (a wash is only the first)

    @property
    def staked(self) -> int:
        return sum(h.stake for h in self.hands)

    @property
    def returned(self) -> int:
        return sum(h.returned for h in self.hands)


class EenentwintigRound(RoundBase):
    """A round in progress or finished. Build one with ``EenentwintigRound.start``."""

    events: list[Event]

    def __init__(self, rules: EenentwintigRules, shoe: list[str], seats: list[Seat]):
        super().__init__(shoe)
        self.rules = rules
        self.seats = seats
        self.bank: list[str] = []
        self.seat_i = 0
        self.hand_i = 0

    @classmethod
    def start(
        cls, rules: EenentwintigRules, shoe: Sequence[str], seat_numbers: Sequence[int],
        funds: Sequence[int | None] | None = None,
    ) -> EenentwintigRound:
        """Deal a round to the seats and wait on the first bet. ``funds`` is, per seat, what
        it can stake (its bet and a split); None counts every stake as funded."""
        if not seat_numbers:
            raise RoundError("a round needs at least one seat")
        fl = list(funds) if funds is not None else [None] * len(seat_numbers)
        seats = [Seat(number=n, funds=f) for n, f in zip(seat_numbers, fl, strict=True)]
        for s in seats:
            if not s.can_fund(rules.min_bet):
                raise RoundError(f"seat {s.number} cannot fund the minimum bet of {rules.min_bet}")
        rnd = cls(rules, list(shoe), seats)
        rnd._deal()
        rnd.advance()
        return rnd

    # -- queries ------------------------------------------------------------------------------

    @property
    def seat_numbers(self) -> list[int]:
        """The seats in this round, in playing order."""
        return [s.number for s in self.seats]

    @property
    def carry(self) -> dict[str, Any]:
        """Nothing carries from one round to the next."""
        return {}

    def seat(self, number: int) -> Seat:
        for s in self.seats:
            if s.number == number:
                return s
        raise KeyError(number)

    def _bets(self, seat: Seat) -> list[int]:
        return self.rules.bets(seat.funds)

    # -- the phases: one row of the table each (PHASES, after the class) --------------------------

    def _ask_bet(self) -> bool:
        return self.seat_i < len(self.seats)

    def _bet_decision(self) -> Decision:
        seat = self.seats[self.seat_i]
        return Decision(seat.number, None, "bet", tuple(bet_action(b) for b in self._bets(seat)))

    def _play_decision(self) -> Decision:
        seat = self.seats[self.seat_i]
        hand = seat.hands[self.hand_i]
        options = tuple(a for a in PLAY_ACTIONS if self._problem(seat, hand, a) is None)
        return Decision(seat.number, self.hand_i, "play", options)

    def _bet_refusal(self, action: str) -> str | None:
        return self._bet_problem(self.seats[self.seat_i], action)

    def _play_refusal(self, action: str) -> str | None:
        if action not in PLAY_ACTIONS:
            return f"unknown action (one of {', '.join(PLAY_ACTIONS)})"
        current = self.seats[self.seat_i]
        return self._problem(current, current.hands[self.hand_i], action)

    def _bet_problem(self, seat: Seat, action: str) -> str | None:
        points = bet_of(action)
        if points is None:
            return f"the seat is placing its bet (bet:N, N one of {', '.join(map(str, self._bets(seat)))})"
        problem = self.rules.bet_problem(points)
        if problem is None and not seat.can_fund(points):
            problem = f"the club meter cannot pay a bet of {points}"
        return problem

    def _problem(self, seat: Seat, hand: Hand, action: str) -> str | None:
        """Why a play action is refused on ``hand``, or None."""
        v = hand.values
        if action == "hit":
            s = hand.score(self.rules)
            return f"the hand is over at {s.total} with {len(v)} cards" if sc.hand_stops(s.total, len(v)) else None
        if action == "stand":
            return None
        if action == "split":
            if len(seat.hands) > 1:
                return "split hands are not split again"
            if len(v) != 2 or not sc.is_pair(len(v), v[0], v[1]):
                return "only two cards of the same rank are split"
            return None if seat.can_fund(seat.bet) else "the club meter cannot pay the split's stake"
        if action == "wash":
            if any(h.washed for h in seat.hands):
                return "the seat has washed once this round"
            if seat.acted:
                return "a wash is only the seat's first action"
            if len(v) != 2 or not sc.is_vuile_was(len(v), v[0], v[1]):
                return "only a first hand of exactly a 7 and an 8 is washed"
            return None
        return f"unknown action (one of {', '.join(PLAY_ACTIONS)})"

    # -- decisions ------------------------------------------------------------------------------

    def _bet(self, action: str) -> None:
        seat = self.seats[self.seat_i]
        points = bet_of(action) or 0
        seat.bet = seat.hands[0].stake = points
        seat.take(points)
        self.emit(BetPlaced(seat.number, points))
        self.seat_i += 1

    def _play_action(self, action: str) -> None:
        self._play(self.seats[self.seat_i], self.hand_i, action)

    def _play(self, seat: Seat, hand_i: int, action: str) -> None:
        hand = seat.hands[hand_i]
        seat.acted = True
        self.emit(Action(seat.number, hand_i, action, seat.bet))
        if action == "hit":
            self._give(seat, hand_i)
        elif action == "stand":
            hand.done = True
        elif action == "split":
            seat.take(seat.bet)
            right = Hand(cards=[hand.cards.pop()], stake=seat.bet, from_split=True)
            hand.from_split = True
            seat.hands.insert(hand_i + 1, right)
            self._give(seat, hand_i)
        elif action == "wash":
            hand.washed, hand.cards = hand.cards, []
            self.emit(Washed(seat.number, hand_i, tuple(hand.washed)))
            self._give(seat, hand_i)
            self._give(seat, hand_i)

    # -- the deal -----------------------------------------------------------------------------

    def _give(self, seat: Seat, hand_i: int) -> None:
        card = self.draw()
        seat.hands[hand_i].cards.append(card)
        self.emit(CardDealt(seat.number, hand_i, card))

    def _give_bank(self, face_down: bool) -> None:
        card = self.draw()
        self.bank.append(card)
        self.emit(DealerCardDealt(card, face_down))

    def _deal(self) -> None:
        for seat in self.seats:
            card = self.draw()
            seat.hands.append(Hand(cards=[card]))
            self.emit(ClosedCardDealt(seat.number, 0, card))
        self._give_bank(face_down=True)
        for seat in self.seats:
            self._give(seat, 0)
        self._give_bank(face_down=True)
        self.phase, self.seat_i = "bet", 0

    # -- running forward ----------------------------------------------------------------------

    def _turn_cards(self) -> str:
        """Every bet is in: the closed cards are turned and the seats play."""
        for seat in self.seats:
            self.emit(CardTurned(seat.number, 0, seat.hands[0].cards[0]))
        self.seat_i, self.hand_i = 0, 0
        return "play"

    def _next_hand(self) -> bool:
        """Move to the next hand that needs a decision, dealing split hands' second cards."""
        while self.seat_i < len(self.seats):
            seat = self.seats[self.seat_i]
            while self.hand_i < len(seat.hands):
                hand = seat.hands[self.hand_i]
                if not hand.done and len(hand.cards) == 1:
                    self._give(seat, self.hand_i)  # a split hand's second card, when its turn comes
                if not hand.done:
                    self._stop_by_itself(seat, hand)
                if not hand.done:
                    return True
                self.hand_i += 1
            self.seat_i += 1
            self.hand_i = 0
        return False

    def _stop_by_itself(self, seat: Seat, hand: Hand) -> None:
        """End a hand at 21, at seven cards or over 21 (a bust is lost at once)."""
        s = hand.score(self.rules)
        if not sc.hand_stops(s.total, len(hand.cards)):
            return
        hand.done = True
        if s.key == sc.BUST:
            i = seat.hands.index(hand)
            hand.result, hand.returned = RESULTS[sc.LOSE], 0
            self.emit(Busted(seat.number, i))
            self.emit(HandSettled(seat.number, i, 0, hand.result))

    # -- the bank and the settlement ----------------------------------------------------------

    def _bank_score(self) -> sc.HandScore:
        return sc.score_cards(self.bank, True, self.rules.two_aces_twenty_and_a_half, self.rules.three_sevens_beat_21)

    def _bank_turn(self) -> str:
        """The bank turns its cards, draws under 17 while a hand is still in, and settles."""
        for card in self.bank:
            self.emit(HoleCardRevealed(card))
        if any(h.result is None for s in self.seats for h in s.hands):  # a hand is still in
            while True:
                s = self._bank_score()
                aces = [sc.value(c) for c in self.bank].count(1)
                if not sc.bank_draws(s.total, len(self.bank), aces, self.rules.two_aces_twenty_and_a_half):
                    break
                self._give_bank(face_down=False)
        bank_key = self._bank_score().key
        for seat in self.seats:
            for i, hand in enumerate(seat.hands):
                if hand.result is None:
                    code = sc.settle(hand.score(self.rules).key, bank_key)
                    hand.result, hand.returned = RESULTS[code], sc.returned(hand.stake, code)
                    self.emit(HandSettled(seat.number, i, hand.returned, hand.result))
        self.phase = DONE
        self.emit(RoundEnded())
        return DONE

    # -- what the screens show ------------------------------------------------------------------

    def shown(self) -> TableShown:
        """Closed cards as ``FACE_DOWN``: a seat's first card until every bet is in (its owner
        has not seen it either), the bank's two cards until the bank's turn."""
        closed = self.phase in ("deal", "bet")
        d = self.pending
        hands = {}
        for s in self.seats:
            shown = []
            for i, h in enumerate(s.hands):
                cards = list(h.cards)
                if closed and cards:
                    cards[0] = FACE_DOWN
                text = "" if closed else hand_text(h.cards, not h.from_split, self.rules)
                shown.append(HandShown(
                    cards=tuple(cards), stake=h.stake, total_text=text,
                    result=h.result, returned=h.returned,
                    active=bool(d and d.kind == "play" and d.seat == s.number and d.hand == i),
                ))
            hands[s.number] = tuple(shown)
        bets = {s.number: s.bet for s in self.seats}
        if self.finished:
            return TableShown(tuple(self.bank), hand_text(self.bank, True, self.rules), hands, dealer_title=BANK, bets=bets)
        return TableShown((FACE_DOWN,) * len(self.bank), "", hands, dealer_title=BANK, bets=bets)

    # -- plain data -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (JSON-able); ``from_dict`` restores it exactly."""
        return {
            "rules": self.rules.to_dict(),
            "shoe": list(self.shoe),
            "pos": self.pos,
            "bank": list(self.bank),
            "phase": self.phase,
            "seat_i": self.seat_i,
            "hand_i": self.hand_i,
            "seats": [
                {**{k: v for k, v in asdict(s).items() if k != "hands"}, "hands": [asdict(h) for h in s.hands]}
                for s in self.seats
            ],
            "events": [e.to_dict() for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EenentwintigRound:
        rules = EenentwintigRules.from_dict(data["rules"])
        seats = []
        for sd in data["seats"]:
            hands = [Hand(**{**h, "cards": list(h["cards"]), "washed": list(h["washed"])}) for h in sd["hands"]]
            seats.append(Seat(**{**sd, "hands": hands}))
        rnd = cls(rules, list(data["shoe"]), seats)
        rnd.pos = data["pos"]
        rnd.bank = list(data["bank"])
        rnd.phase = data["phase"]
        rnd.seat_i, rnd.hand_i = data["seat_i"], data["hand_i"]
        bets = {s.number: s.bet for s in seats}
        rnd.events = [eenentwintig_event(e, bets) for e in data["events"]]
        return rnd

    # -- the result -----------------------------------------------------------------------------

    def result(self, game: str) -> dict[str, Any]:
        """The finished round in the format of round-script.md."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return round_result(self.bank, self.seats, self.cards_used, game, self.rules)

    def settlement(self) -> list[SeatSettlement]:
        """Each seat's stakes and returns, once the round is finished."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return seat_settlements(self.seats, self.rules)


# phase -> who is asked and what, why an answer is refused, what it does, what follows
EenentwintigRound.PHASES = {
    "bet": Phase(EenentwintigRound._ask_bet, EenentwintigRound._bet_decision, EenentwintigRound._bet_refusal,
                 EenentwintigRound._bet, then=EenentwintigRound._turn_cards),
    "play": Phase(EenentwintigRound._next_hand, EenentwintigRound._play_decision, EenentwintigRound._play_refusal,
                  EenentwintigRound._play_action, then=EenentwintigRound._bank_turn),
}
