"""One round of the toy game: the deal, each seat's stand or swap in seat order, the house's
card turned, the settlement. Built on ``machine.games.roundbase`` and the shared events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from machine.games.events import Action, CardDealt, DealerCardDealt, HandSettled, HoleCardRevealed, RoundEnded
from machine.games.interface import FACE_DOWN, Decision, HandShown, RoundError, SeatSettlement, TableShown
from machine.games.roundbase import IllegalAction, RoundBase

from .rules import ToyRules, rank

ACTIONS = ("swap", "stand")
KINDS = {c.kind: c for c in (Action, CardDealt, DealerCardDealt, HandSettled, HoleCardRevealed, RoundEnded)}


@dataclass
class ToySeat:
    number: int
    bet: int
    card: str = ""
    swapped: bool = False
    result: str | None = None
    returned: int = 0


class ToyRound(RoundBase):
    def __init__(self, rules: ToyRules, shoe: list[str], seats: list[ToySeat]):
        super().__init__(shoe)
        self.rules = rules
        self.seats = seats
        self.house = ""
        self.seat_i = 0

    @classmethod
    def start(cls, rules: ToyRules, shoe: Sequence[str], bets: Sequence[int], seat_numbers: Sequence[int]) -> ToyRound:
        for b in bets:
            if problem := rules.bet_problem(b):
                raise RoundError(problem)
        rnd = cls(rules, list(shoe), [ToySeat(n, b) for n, b in zip(seat_numbers, bets, strict=True)])
        for s in rnd.seats:
            s.card = rnd.draw()
            rnd.emit(CardDealt(s.number, 0, s.card))
        rnd.house = rnd.draw()
        rnd.emit(DealerCardDealt(rnd.house, face_down=True))
        rnd.phase = "play"
        return rnd

    @property
    def seat_numbers(self) -> list[int]:
        return [s.number for s in self.seats]

    @property
    def carry(self) -> dict[str, Any]:
        return {}

    def options(self, seat: ToySeat) -> tuple[str, ...]:
        return ACTIONS if self.rules.swaps else ACTIONS[1:]

    @property
    def pending(self) -> Decision | None:
        if self.finished:
            return None
        seat = self.seats[self.seat_i]
        return Decision(seat.number, 0, "play", self.options(seat))

    def why_not(self, seat_number: int, action: str) -> str | None:
        if self.finished:
            return "the round is over"
        seat = self.seats[self.seat_i]
        if seat_number != seat.number:
            return f"it is seat {seat.number}'s turn"
        if action not in self.options(seat):
            return f"unknown action (one of {', '.join(self.options(seat))})"
        return None

    def act(self, seat_number: int, action: str) -> list[Any]:
        if (problem := self.why_not(seat_number, action)) is not None:
            raise IllegalAction(seat_number, 0, action, problem)
        first_new = len(self.events)
        seat = self.seats[self.seat_i]
        self.emit(Action(seat.number, 0, action))
        if action == "swap":
            seat.card, seat.swapped = self.draw(), True
            self.emit(CardDealt(seat.number, 0, seat.card))
        self.seat_i += 1
        if self.seat_i == len(self.seats):
            self._settle()
        return self.events[first_new:]

    def _settle(self) -> None:
        self.emit(HoleCardRevealed(self.house))
        for s in self.seats:
            diff = rank(s.card) - rank(self.house)
            s.result, s.returned = ("win", 2 * s.bet) if diff > 0 else ("push", s.bet) if diff == 0 else ("lose", 0)
            self.emit(HandSettled(s.number, 0, s.returned, s.result))
        self.phase = "done"
        self.emit(RoundEnded())

    def shown(self) -> TableShown:
        hands = {s.number: (HandShown((s.card,), s.bet, s.card[0], s.result, s.returned,
                                      active=self.pending is not None and self.pending.seat == s.number),)
                 for s in self.seats}
        house = self.house if self.finished else FACE_DOWN
        return TableShown((house,), self.house[0] if self.finished else "", hands, dealer_title="HOUSE",
                          bets={s.number: s.bet for s in self.seats})

    def settlement(self) -> list[SeatSettlement]:
        if not self.finished:
            raise RoundError("the round is not finished")
        return [SeatSettlement(s.number, s.bet, s.returned, {"swaps": int(s.swapped)}) for s in self.seats]

    def result(self, game: str) -> dict[str, Any]:
        if not self.finished:
            raise RoundError("the round is not finished")
        seats = [{"seat": s.number, "bet": s.bet, "staked": s.bet, "returned": s.returned, "net": s.returned - s.bet,
                  "hands": [{"cards": [s.card], "stake": s.bet, "total": rank(s.card) + 2, "swapped": s.swapped,
                             "result": s.result, "returned": s.returned}]} for s in self.seats]
        return {"game": game, "dealer": {"cards": [self.house], "total": rank(self.house) + 2}, "seats": seats,
                "cards_used": self.cards_used}

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules.to_dict(), "shoe": list(self.shoe), "pos": self.pos, "phase": self.phase,
                "house": self.house, "seat_i": self.seat_i, "seats": [asdict(s) for s in self.seats],
                "events": [e.to_dict() for e in self.events]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ToyRound:
        from machine.games.events import event_from_dict

        rnd = cls(ToyRules.from_dict(data["rules"]), list(data["shoe"]), [ToySeat(**s) for s in data["seats"]])
        rnd.pos, rnd.phase, rnd.house, rnd.seat_i = data["pos"], data["phase"], data["house"], data["seat_i"]
        rnd.events = [event_from_dict(e, KINDS) for e in data["events"]]
        return rnd
