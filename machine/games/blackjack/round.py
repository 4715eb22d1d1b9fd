"""One round of a blackjack-family game, as an explicit state machine.

Owns: the order of a round (deal, insurance, early surrender, peek, the seats' play, the
dealer, settlement), which choices are allowed at every decision point and why the others are
refused, the events a display and a journal consume, and the whole state as plain data. Never
does I/O, reads a clock or draws a random number: the shoe comes in already shuffled (its whole
order is the round's record), the decisions come in one at a time through ``act``. The rules
it applies (totals, naturals, the dealer's draw, the peek, the settlement table) are the
functions of ``blackjack.scoring``, shared with the analysis and the fast simulator; its events
are the classes of ``blackjack.events``.

Theory of operation
-------------------
``Round.start`` deals and runs the round forward to its first decision. From then on the
round is always in one of these phases::

    insurance  -> (surrender) -> play -> done
       |              |           ^
       +--------------+-----------+   (phases with nobody to ask are skipped)

* ``insurance``: the up card is an ace; the seats without blackjack that can fund half their
  bet are asked in seat order (choices ``insure`` / ``no_insurance``).
* ``surrender``: early surrender in a hole-card game whose up card lets the dealer peek; each
  seat without blackjack is asked before the peek (``surrender`` / ``continue``).
* ``play``: one hand of one seat is asked at a time (``hit``, ``stand``, ``double``,
  ``split``, ``surrender``). Hands that need no decision (bust, 21 with nothing but stand
  allowed, split aces holding their one card, five-card charlie) finish by themselves.
* ``done``: the dealer has played and every hand, insurance and bonus is settled. The dealer
  draws only while something still waits for its hand (``scoring.waits_for_dealer``):
  with a hole card it otherwise only turns the hole card over.

The table ``Round.PHASES`` (after the class) is this diagram as data: for each phase who is
asked and what, why an answer is refused, what it does and what follows; the round walks it
(``roundbase.RoundBase``). ``pending`` says whose turn it is and what is allowed; ``why_not``
says why an action is refused; ``act`` applies an allowed action and runs forward to the next
decision, or raises ``IllegalAction`` and changes nothing. ``to_dict``/``from_dict`` round-trip the whole state at
any decision point.

Card order (spec, section 2): first cards in seat order, the up card, second cards in seat
order, the hole card (hole-card games), every card drawn in play in the order drawn (after a
split the left hand gets its second card and is played out before the right hand gets its
own), then the dealer's cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from machine.games.blackjack import scoring as bj
from machine.games.blackjack.checks import PLAY_ACTIONS, play_problem
from machine.games.blackjack.events import (
    Action,
    BonusPaid,
    Busted,
    CardDealt,
    Charlie,
    DealerCardDealt,
    EarlySurrendered,
    Event,
    HandSettled,
    HoleCardRevealed,
    InsuranceDecided,
    InsuranceSettled,
    Peeked,
    RoundEnded,
    from_dict,
)
from machine.games.blackjack.hand import earns_three_sevens, is_bust, is_natural, score, total_text
from machine.games.blackjack.result import round_result, seat_settlements
from machine.games.blackjack.rules import Rules, totals_mask
from machine.games.cards import value
from machine.games.interface import FACE_DOWN, Decision, HandShown, RoundError, SeatSettlement, TableShown
from machine.games.roundbase import DONE, Funded, Phase, RoundBase

INSURANCE_ACTIONS = ("insure", "no_insurance")
SURRENDER_ACTIONS = ("surrender", "continue")



@dataclass
class Hand:
    cards: list[str]
    stake: int
    from_split: bool = False
    split_aces: bool = False
    doubled: bool = False
    aces_hard: bool = False
    surrendered: bool = False
    charlie: bool = False
    done: bool = False
    result: str | None = None
    returned: int = 0

    @property
    def total(self) -> int:
        return score(self.cards, self.aces_hard).total

    @property
    def soft(self) -> bool:
        return score(self.cards, self.aces_hard).soft

    @property
    def bust(self) -> bool:
        return is_bust(self.cards, self.aces_hard)

    @property
    def blackjack(self) -> bool:
        return not self.from_split and is_natural(self.cards)


@dataclass
class Seat(Funded):
    number: int
    bet: int
    funds: int | None = None  # what the seat can still stake; None: unlimited (scripts)
    hands: list[Hand] = field(default_factory=list)
    insurance: int = 0
    insurance_decided: bool = False
    surrender_decided: bool = False
    splits_and_doubles: int = 0
    insurance_returned: int = 0
    bonus: int = 0

    @property
    def staked(self) -> int:
        return sum(h.stake for h in self.hands) + self.insurance

    @property
    def returned(self) -> int:
        return sum(h.returned for h in self.hands) + self.insurance_returned + self.bonus


class Round(RoundBase):
    """A round in progress or finished. Build one with ``Round.start``."""

    events: list[Event]

    def __init__(self, rules: Rules, shoe: list[str], seats: list[Seat]):
        super().__init__(shoe)
        self.rules = rules
        self.seats = seats
        self.dealer: list[str] = []
        self.seat_i = 0
        self.hand_i = 0
        self.peeked = False

    # -- construction -------------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        rules: Rules,
        shoe: Sequence[str],
        bets: Sequence[int],
        funds: Sequence[int | None] | None = None,
        seat_numbers: Sequence[int] | None = None,
    ) -> Round:
        """Deal a round for the given bets and run it to its first decision.

        ``funds`` is, per seat, what it can stake beyond its bet (insurance, splits, doubles
        are offered only when funded); ``None`` counts every stake as funded.
        """
        if not bets:
            raise RoundError("a round needs at least one seat with a bet")
        numbers = list(seat_numbers) if seat_numbers is not None else list(range(1, len(bets) + 1))
        fl = list(funds) if funds is not None else [None] * len(bets)
        for b in bets:
            problem = rules.bet_problem(b)
            if problem:
                raise RoundError(problem)
        seats = [Seat(number=n, bet=b, funds=f) for n, b, f in zip(numbers, bets, fl, strict=True)]
        rnd = cls(rules, list(shoe), seats)
        rnd._deal()
        rnd.advance()
        return rnd

    # -- queries ------------------------------------------------------------------------------

    @property
    def up_card(self) -> str | None:
        return self.dealer[0] if self.dealer else None

    def seat(self, number: int) -> Seat:
        for s in self.seats:
            if s.number == number:
                return s
        raise KeyError(number)

    # -- the phases: one row of the table each (PHASES, after the class) --------------------------

    def _ask_insurance(self) -> bool:
        return self._next_asked(self._insurance_asked)

    def _ask_surrender(self) -> bool:
        return self._next_asked(self._surrender_asked)

    def _seat_decision(self) -> Decision:
        acts = INSURANCE_ACTIONS if self.phase == "insurance" else SURRENDER_ACTIONS
        return Decision(self.seats[self.seat_i].number, None, self.phase, acts)

    def _insurance_refusal(self, action: str) -> str | None:
        return None if action in INSURANCE_ACTIONS else "insurance is being decided (insure or no_insurance)"

    def _surrender_refusal(self, action: str) -> str | None:
        return None if action in SURRENDER_ACTIONS else "early surrender is being decided (surrender or continue)"

    def _insure(self, action: str) -> None:
        seat = self.seats[self.seat_i]
        seat.insurance_decided = True
        if action == "insure":
            seat.insurance = seat.bet // 2
            seat.take(seat.insurance)
        self.emit(InsuranceDecided(seat.number, seat.insurance))

    def _surrender(self, action: str) -> None:
        seat = self.seats[self.seat_i]
        seat.surrender_decided = True
        if action == "surrender":
            first = seat.hands[0]
            first.surrendered = first.done = True
            self.emit(EarlySurrendered(seat.number, 0))

    def _to_surrender(self) -> str:
        self.seat_i = 0
        return "surrender"

    def _after_surrender(self) -> str:
        """The peek (where the dealer may look): a dealer blackjack ends the round at once."""
        if self._peek_ends_round():
            return self._finish()
        self.seat_i, self.hand_i = 0, 0
        return "play"

    def _play_decision(self) -> Decision:
        seat = self.seats[self.seat_i]
        opts = tuple(a for a in PLAY_ACTIONS if self._play_problem(seat, seat.hands[self.hand_i], a) is None)
        return Decision(seat.number, self.hand_i, "play", opts)

    def _play_refusal(self, action: str) -> str | None:
        if action not in PLAY_ACTIONS:
            return f"unknown action (one of {', '.join(PLAY_ACTIONS)})"
        current = self.seats[self.seat_i]
        return self._play_problem(current, current.hands[self.hand_i], action)

    def _play_action(self, action: str) -> None:
        self._play(self.seats[self.seat_i], self.hand_i, action)

    # -- the deal -----------------------------------------------------------------------------

    def _give(self, seat: Seat, hand_i: int) -> str:
        card = self.draw()
        seat.hands[hand_i].cards.append(card)
        self.emit(CardDealt(seat.number, hand_i, card))
        return card

    def _give_dealer(self, face_down: bool = False) -> str:
        card = self.draw()
        self.dealer.append(card)
        self.emit(DealerCardDealt(card, face_down))
        return card

    def _deal(self) -> None:
        for seat in self.seats:
            seat.hands.append(Hand(cards=[], stake=seat.bet))
            self._give(seat, 0)
        self._give_dealer()
        for seat in self.seats:
            self._give(seat, 0)
        if self.rules.hole_card:
            self._give_dealer(face_down=True)
        self.phase = "insurance"
        self.seat_i = 0

    # -- running forward ----------------------------------------------------------------------

    def _next_asked(self, asked) -> bool:
        while self.seat_i < len(self.seats):
            if asked(self.seats[self.seat_i]):
                return True
            self.seat_i += 1
        return False

    def _insurance_asked(self, seat: Seat) -> bool:
        return (
            self.dealer[0][0] == "A"
            and not seat.insurance_decided
            and not seat.hands[0].blackjack
            and seat.bet // 2 > 0
            and seat.can_fund(seat.bet // 2)
        )

    def _dealer_may_peek(self) -> bool:
        return bj.dealer_peeks(self.rules.hole_card, value(self.dealer[0]))

    def _surrender_asked(self, seat: Seat) -> bool:
        return (
            self.rules.surrender == "early"
            and self._dealer_may_peek()
            and not seat.surrender_decided
            and not seat.hands[0].blackjack
        )

    def _peek_ends_round(self) -> bool:
        if not self._dealer_may_peek():
            return False
        self.peeked = True
        natural = is_natural(self.dealer)
        self.emit(Peeked("blackjack" if natural else "no_blackjack"))
        return natural

    def _next_play_decision(self) -> bool:
        """Move to the next hand that needs a decision, dealing split hands' second cards."""
        while self.seat_i < len(self.seats):
            seat = self.seats[self.seat_i]
            while self.hand_i < len(seat.hands):
                hand = seat.hands[self.hand_i]
                if not hand.done and len(hand.cards) == 1:
                    self._give(seat, self.hand_i)
                if not hand.done:
                    self._settle_without_decision(seat, hand)
                if not hand.done:
                    return True
                self.hand_i += 1
            self.seat_i += 1
            self.hand_i = 0
        return False

    def _settle_without_decision(self, seat: Seat, hand: Hand) -> None:
        """Finish a hand that has nothing left to decide."""
        r = self.rules
        if hand.blackjack or hand.bust:
            hand.done = True
            if hand.bust:
                self.emit(Busted(seat.number, seat.hands.index(hand)))
            return
        if r.five_card_charlie and len(hand.cards) >= 5:
            hand.done = hand.charlie = True
            self.emit(Charlie(seat.number, seat.hands.index(hand)))
            return
        if hand.split_aces and r.split_aces_one_card and len(hand.cards) >= 2:
            if self._play_problem(seat, hand, "split") is not None:
                hand.done = True
            return
        if hand.total >= 21 and self._play_problem(seat, hand, "double") is not None:
            hand.done = True

    # -- the seats' choices -------------------------------------------------------------------

    def _play_problem(self, seat: Seat, hand: Hand, action: str) -> str | None:
        return play_problem(self.rules, seat, hand, action, self._dealer_may_peek())

    def _play(self, seat: Seat, hand_i: int, action: str) -> None:
        hand = seat.hands[hand_i]
        self.emit(Action(seat.number, hand_i, action, seat.bet))
        if action == "hit":
            self._give(seat, hand_i)
        elif action == "stand":
            hand.done = True
        elif action == "surrender":
            hand.surrendered = hand.done = True
        elif action == "double":
            seat.take(seat.bet)
            seat.splits_and_doubles += 1
            hand.stake += seat.bet
            hand.doubled = True
            hand.aces_hard = self.rules.double_makes_aces_hard
            self._give(seat, hand_i)
            hand.done = True
            if hand.bust:
                self.emit(Busted(seat.number, hand_i))
        elif action == "split":
            seat.take(seat.bet)
            seat.splits_and_doubles += 1
            aces = hand.cards[0][0] == "A"
            right = Hand(cards=[hand.cards.pop()], stake=seat.bet, from_split=True, split_aces=aces)
            hand.from_split, hand.split_aces = True, aces
            seat.hands.insert(hand_i + 1, right)
            self._give(seat, hand_i)

    # -- dealer and settlement ----------------------------------------------------------------

    def _hand_waits_for_dealer(self, hand: Hand) -> bool:
        r = self.rules
        return bj.waits_for_dealer(
            hand.total, hand.blackjack, hand.charlie, hand.surrendered, r.surrender == "early", r.hole_card
        )

    def _finish(self) -> str:
        """The dealer plays (only while something waits for its hand) and everything is settled."""
        r = self.rules
        dealer_bj_known = self.peeked and is_natural(self.dealer)
        if self.rules.hole_card:
            self.emit(HoleCardRevealed(self.dealer[1]))
        insured = bj.insurance_waits_for_dealer(r.hole_card) and any(s.insurance for s in self.seats)
        needed = insured or any(self._hand_waits_for_dealer(h) for s in self.seats for h in s.hands)
        if needed and not dealer_bj_known:
            while bj.dealer_draws(*score(self.dealer), r.dealer_hits_soft_17):
                self._give_dealer()
        self.phase = DONE
        self._settle()
        return DONE

    def _settle(self) -> None:
        r = self.rules
        d_total = score(self.dealer).total
        d_bj = is_natural(self.dealer)
        late = r.surrender == "late"
        original_only = r.no_hole_card_loses == "original"
        ties = totals_mask(r.dealer_wins_ties)
        pays = r.blackjack_pays
        for seat in self.seats:
            for i, hand in enumerate(seat.hands):
                code, ret = bj.settle_hand(
                    hand.stake, seat.bet, hand.total, hand.blackjack, hand.surrendered, hand.charlie, i == 0,
                    d_total, d_bj, late, original_only, ties, r.player_21_wins, pays.numerator, pays.denominator,
                )
                hand.result, hand.returned = bj.RESULTS[code], ret
                self.emit(HandSettled(seat.number, i, ret, hand.result))
                if r.three_sevens_bonus and earns_three_sevens(hand.cards, hand.from_split):
                    bonus = r.three_sevens_bonus
                    seat.bonus += bj.ratio_of(seat.bet, bonus.numerator, bonus.denominator)
                    self.emit(BonusPaid(seat.number, i, seat.bonus))
            if seat.insurance:
                ins = r.insurance_pays
                seat.insurance_returned = bj.insurance_return(seat.insurance, d_bj, ins.numerator, ins.denominator)
                self.emit(InsuranceSettled(seat.number, seat.insurance_returned))
        self.emit(RoundEnded())

    # -- plain data -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole state as plain data (JSON-able); ``from_dict`` restores it exactly."""
        return {
            "rules": self.rules.to_dict(),
            "shoe": list(self.shoe),
            "pos": self.pos,
            "dealer": list(self.dealer),
            "phase": self.phase,
            "seat_i": self.seat_i,
            "hand_i": self.hand_i,
            "peeked": self.peeked,
            "seats": [
                {**{k: v for k, v in asdict(s).items() if k != "hands"}, "hands": [asdict(h) for h in s.hands]}
                for s in self.seats
            ],
            "events": [e.snapshot_dict() for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Round:
        rules = Rules.from_dict(data["rules"])
        seats = []
        for sd in data["seats"]:
            hands = [Hand(**{**h, "cards": list(h["cards"])}) for h in sd["hands"]]
            seats.append(Seat(**{**sd, "hands": hands}))
        rnd = cls(rules, list(data["shoe"]), seats)
        rnd.pos = data["pos"]
        rnd.dealer = list(data["dealer"])
        rnd.phase = data["phase"]
        rnd.seat_i, rnd.hand_i = data["seat_i"], data["hand_i"]
        rnd.peeked = data["peeked"]
        bets = {s.number: s.bet for s in seats}
        rnd.events = [from_dict(e, bets) for e in data["events"]]
        return rnd

    # -- the result ---------------------------------------------------------------------------

    def result(self, game: str) -> dict[str, Any]:
        """The finished round in the format of round-script.md."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return round_result(self.dealer, self.seats, self.cards_used, game)

    # -- the game interface (machine/games/interface.py) -------------------------------------------

    @property
    def seat_numbers(self) -> list[int]:
        """The seats in this round, in playing order."""
        return [s.number for s in self.seats]

    @property
    def carry(self) -> dict[str, Any]:
        """Nothing carries from one blackjack round to the next."""
        return {}

    def shown(self) -> TableShown:
        """The table now: the hole card closed until the dealer plays, every hand open."""
        dealer = list(self.dealer)
        closed = self.rules.hole_card and not self.finished and len(dealer) >= 2
        if closed:
            dealer[1] = FACE_DOWN
        open_cards = [c for c in dealer if c != FACE_DOWN]
        d = self.pending
        hands = {
            s.number: tuple(
                HandShown(
                    cards=tuple(h.cards),
                    stake=h.stake,
                    total_text=total_text(h.cards, h.aces_hard, h.from_split),
                    result=h.result,
                    returned=h.returned,
                    active=bool(d and d.kind == "play" and d.seat == s.number and d.hand == i),
                    doubled=h.doubled,
                )
                for i, h in enumerate(s.hands)
            )
            for s in self.seats
        }
        insurance = {s.number: (s.insurance, s.insurance_returned) for s in self.seats if s.insurance}
        bets = {s.number: s.bet for s in self.seats}
        return TableShown(tuple(dealer), total_text(open_cards), hands, bets=bets, insurance=insurance)

    def settlement(self) -> list[SeatSettlement]:
        """Each seat's stakes, returns and counters for the meters, once the round is finished."""
        if not self.finished:
            raise RoundError("the round is not finished")
        return seat_settlements(self.seats)


# phase -> who is asked and what, why an answer is refused, what it does, what follows
Round.PHASES = {
    "insurance": Phase(Round._ask_insurance, Round._seat_decision, Round._insurance_refusal, Round._insure,
                       then=Round._to_surrender),
    "surrender": Phase(Round._ask_surrender, Round._seat_decision, Round._surrender_refusal, Round._surrender,
                       then=Round._after_surrender),
    "play": Phase(Round._next_play_decision, Round._play_decision, Round._play_refusal, Round._play_action,
                  then=Round._finish),
}
