"""One eenendertigen round: four places in a ring of turns, as a state machine.

Owns: the deal (three cards to each place, one at a time in place order, then the table: three
open cards in classic, one open card beside the closed stack in modern), whose turn it is, each
move (classic: ``swap:H:T``, ``swap_all``, ``pass``; modern: ``take_open:D``, ``draw:D``, or
``take_open`` / ``draw`` then ``discard:D`` where the seat chooses its discard seeing all four
cards — the panel's way —, ``pass``), the knock
on 31 and the one more turn it gives, the five-swap limit, the last-one-not-passed rule, every
end, the winners and each seat's return. Computer places move inside the round through the
injected ``computer`` strategy, so ``pending`` only ever asks a seat. ``to_dict``/``from_dict``
hold the whole state at any decision. Never shuffles, never takes money (the seats' bets were
taken before the deal), never reads a clock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from machine.games.eenendertigen import events as ev
from machine.games.eenendertigen.rules import (
    HAND,
    PLACES,
    THIRTY_ONE2,
    EenendertigenRules,
    score2,
    score_text,
    score_value,
)
from machine.games.interface import FACE_DOWN, Decision, HandShown, PlaceShown, SeatSettlement, TableShown
from machine.games.roundbase import IllegalAction, RoundError, ShoeExhausted
from machine.games.text import N_, SEP, Text

MAX_SWAPS = 5  # classic: a place that has swapped five times has passed
# what the other places did, as a notice: a move by its name, and a pass
MOVE_TEXT = {"swap": N_("Place {place} swapped"), "swap_all": N_("Place {place} swapped all three"),
             "take_open": N_("Place {place} took the open card"), "draw": N_("Place {place} drew"),
             "pass": N_("Place {place} passed")}
ENDED_TEXT = {"31": "31!", "all passed": "Everyone passed", "swaps": "Five swaps", "stack empty": "The stack is empty"}
Computer = Callable[["EenendertigenRound", int], str]  # (round, place index 0-3) -> action


class MoveRefused(IllegalAction):
    """An action refused; names the place (and seat), the action and why. Changes nothing."""

    def __init__(self, place: int, seat: int | None, action: str, reason: str):
        self.seat, self.hand, self.action, self.reason = seat or 0, None, action, reason
        who = f"place {place + 1}" + (f" (seat {seat})" if seat is not None else " (computer)")
        RoundError.__init__(self, f"{who}: {action} is not allowed: {reason}")


@dataclass
class Place:
    """One place: its seat (None: a computer player), hand, bet and what it has done."""

    seat: int | None
    bet: int = 0
    cards: list[str] = field(default_factory=list)
    passed: bool = False
    passed_by: str = ""  # pass, swap_all, swaps
    knocked: bool = False
    swaps: int = 0
    won: bool = False
    returned: int = 0

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__, cards=list(self.cards))


class EenendertigenRound:
    """A round in play (see the module docstring); ``start`` deals it, ``act`` moves it on."""

    def __init__(self, rules: EenendertigenRules, shoe: list[str], places: list[Place], computer: Computer | None):
        self.rules = rules
        self.shoe = shoe
        self.places = places
        self.computer = computer
        self.events: list[ev.Event] = []
        self.table: list[str] = []  # classic: the three open cards; modern: the open pile, top last
        self.cards_used = 0
        self.turn: int | None = None  # the place (0-3) to move; None when finished
        self.turns = 0
        self.first_turn_taken = False
        self.final: list[int] | None = None  # after a knock: the places still owed their one turn
        self.last_one: int | None = None  # everyone else passed: this place's one more turn
        self.drawn = ""  # modern: "draw" or "take_open" taken, its discard not yet chosen (the hand holds 4)
        self.stack_ran_out = False
        self.ended = ""

    # -- starting ------------------------------------------------------------------------------

    @classmethod
    def start(
        cls, rules: EenendertigenRules, shoe: Sequence[str], seats: Sequence[int | None],
        bets: Sequence[int], computer: Computer | None = None,
    ) -> EenendertigenRound:
        """Deal a round: ``seats`` per place (None for a computer player), ``bets`` per place."""
        if len(seats) != PLACES or len(bets) != PLACES:
            raise RoundError(f"a round has {PLACES} places, not {len(seats)}")
        rnd = cls(rules, list(shoe), [Place(s, b if s is not None else 0) for s, b in zip(seats, bets, strict=True)], computer)
        for _ in range(HAND):
            for i, p in enumerate(rnd.places):
                p.cards.append(rnd._draw())
                rnd.events.append(ev.Dealt(p.seat, i + 1, p.cards[-1]))
        for _ in range(HAND if rules.variant == "classic" else 1):
            rnd.table.append(rnd._draw())
            rnd.events.append(ev.Dealt(None, 0, rnd.table[-1]))
        knockers = [i for i, p in enumerate(rnd.places) if score2(p.cards) == THIRTY_ONE2]
        for i in knockers:
            rnd._knock(i)
        if knockers:
            rnd.final = [i for i in range(PLACES) if i not in knockers]
            rnd._next_from_final()
        else:
            rnd.turn = 0
        rnd._run_computers()
        return rnd

    def _draw(self) -> str:
        if self.cards_used >= len(self.shoe):
            raise ShoeExhausted(f"the shoe ran out: the deal needs more than {len(self.shoe)} cards")
        self.cards_used += 1
        return self.shoe[self.cards_used - 1]

    @property
    def stack(self) -> int:
        """Modern: the cards left in the closed stack (classic: 0, the rest do not play)."""
        return len(self.shoe) - self.cards_used if self.rules.variant == "modern" else 0

    # -- the protocol --------------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.turn is None

    @property
    def seat_numbers(self) -> list[int]:
        return [p.seat for p in self.places if p.seat is not None]

    def seat(self, number: int) -> Place:
        for p in self.places:
            if p.seat == number:
                return p
        raise KeyError(number)

    def options(self) -> tuple[str, ...]:
        """Every action the place to move may take now."""
        if self.turn is None:
            return ()
        if self.drawn:  # the open card just taken may not go back
            return tuple(f"discard:{d}" for d in range(1, HAND + (1 if self.drawn == "take_open" else 2)))
        if self.rules.variant == "classic":
            swaps = tuple(f"swap:{h}:{t}" for h in range(1, HAND + 1) for t in range(1, HAND + 1))
            return (*swaps, "swap_all", "pass")
        takes = ("take_open", *(f"take_open:{d}" for d in range(1, HAND + 1)))
        if self.stack == 0:  # a script's short shoe: nothing to draw before the round ends
            return (*takes, "pass")
        draws = tuple(f"draw:{d}" for d in range(1, HAND + 2))
        return (*takes, "draw", *draws, "pass")

    @property
    def pending(self) -> Decision | None:
        if self.turn is None:
            return None
        seat = self.places[self.turn].seat
        assert seat is not None, "computer places move inside the round"
        return Decision(seat, None, "discard" if self.drawn else "play", self.options())

    def why_not(self, seat_number: int, action: str) -> str | None:
        if self.turn is None:
            return "the round is over"
        place = self.places[self.turn]
        if place.seat != seat_number:
            who = f"seat {place.seat}" if place.seat is not None else "a computer player"
            return f"it is place {self.turn + 1}'s turn ({who})"
        return self._why_not_move(action)

    def _why_not_move(self, action: str) -> str | None:
        if action in self.options():
            return None
        if action == "take_open:4" or (action == f"discard:{HAND + 1}" and self.drawn == "take_open"):
            return "the open card just taken may not be discarded in the same turn"
        if self.drawn:
            return f"a card was taken: discard one of the four ({', '.join(self.options())})"
        return f"not a move of {self.rules.variant} eenendertigen now (allowed: {', '.join(self.options())})"

    def act(self, seat_number: int, action: str) -> list[ev.Event]:
        """Take ``action`` for the seat to move; raise ``MoveRefused`` (changing nothing)."""
        why = self.why_not(seat_number, action)
        if why is not None:
            turn = self.turn if self.turn is not None else 0
            raise MoveRefused(turn, seat_number, action, why)
        before = len(self.events)
        self._move(action)
        self._run_computers()
        return self.events[before:]

    # -- moves ---------------------------------------------------------------------------------

    def _run_computers(self) -> None:
        while self.turn is not None and self.places[self.turn].seat is None:
            if self.computer is None:
                raise RoundError(f"place {self.turn + 1} is a computer player, but no computer strategy is installed")
            action = self.computer(self, self.turn)
            why = self._why_not_move(action)
            if why is not None:
                raise MoveRefused(self.turn, None, action, why)
            self._move(action)

    def _move(self, action: str) -> None:
        """A move by its name, from the table ``MOVES`` (after the class); the turn ends after it
        unless the move leaves a discard to choose."""
        assert self.turn is not None
        i = self.turn
        name, _, arg = action.partition(":")
        if MOVES[name](self, i, action, arg):
            self._after_turn(i)

    def _move_pass(self, i: int, action: str, arg: str) -> bool:
        self._pass(i, "pass")
        return True

    def _move_swap(self, i: int, action: str, arg: str) -> bool:
        p = self.places[i]
        h, t = (int(x) - 1 for x in arg.split(":"))
        p.cards[h], self.table[t] = self.table[t], p.cards[h]
        self._swapped(i, action, (p.cards[h],), (self.table[t],))
        return True

    def _move_swap_all(self, i: int, action: str, arg: str) -> bool:
        p = self.places[i]
        took, gave = tuple(self.table), tuple(p.cards)
        p.cards, self.table = list(took), list(gave)
        first = i == 0 and not self.first_turn_taken
        self._swapped(i, action, took, gave)
        if not first and not p.passed:
            self._pass(i, "swap_all")
        return True

    def _move_take(self, i: int, action: str, arg: str) -> bool:
        """``take_open`` / ``draw``: with a discard named, the whole move; without, the seat
        chooses its discard next, seeing all four cards."""
        name = action.partition(":")[0]
        self.places[i].cards.append(self.table.pop() if name == "take_open" else self._draw())
        if not arg:
            self.drawn = name
            self.first_turn_taken = True
            return False
        self._discard(i, action, int(arg))
        return True

    def _move_discard(self, i: int, action: str, arg: str) -> bool:
        """Recorded as the one move it completes: ``take_open:D`` or ``draw:D``."""
        name, self.drawn = self.drawn, ""
        self._discard(i, f"{name}:{arg}", int(arg))
        return True

    def _swapped(self, i: int, action: str, took: tuple[str, ...], gave: tuple[str, ...]) -> None:
        p = self.places[i]
        p.swaps += 1
        self.events.append(ev.Moved(p.seat, i + 1, action, took, gave))
        if self.rules.variant == "classic" and p.swaps >= MAX_SWAPS and not p.passed:
            self._pass(i, "swaps")

    def _discard(self, i: int, action: str, d: int) -> None:
        p = self.places[i]
        took = p.cards[-1]
        gone = p.cards.pop(d - 1)
        self.table.append(gone)
        p.swaps += 1
        self.events.append(ev.Moved(p.seat, i + 1, action, (took,), (gone,)))

    def _pass(self, i: int, by: str) -> None:
        p = self.places[i]
        p.passed, p.passed_by = True, by
        self.events.append(ev.Passed(p.seat, i + 1, by))

    def _knock(self, i: int) -> None:
        self.places[i].knocked = True
        self.events.append(ev.Knocked(self.places[i].seat, i + 1))

    def _after_turn(self, i: int) -> None:
        self.turns += 1
        self.first_turn_taken = True
        p = self.places[i]
        if score2(p.cards) == THIRTY_ONE2 and not p.knocked:
            self._knock(i)
            if self.final is None:
                ring = [(i + k) % PLACES for k in range(1, PLACES)]
                self.final = [j for j in ring if not self.places[j].passed]
        if self.rules.variant == "modern" and self.stack == 0:
            self.stack_ran_out = True
            return self._end()
        if self.final is not None:
            return self._next_from_final()
        if self.last_one is not None:
            return self._end()
        waiting = [j for j in range(PLACES) if not self.places[j].passed]
        if not waiting:
            return self._end()
        if len(waiting) == 1:
            self.last_one = waiting[0]
        self.turn = next(j for j in ((i + k) % PLACES for k in range(1, PLACES + 1)) if not self.places[j].passed)

    def _next_from_final(self) -> None:
        assert self.final is not None
        if self.final:
            self.turn = self.final.pop(0)
        else:
            self._end()

    # -- the end -------------------------------------------------------------------------------

    def _end(self) -> None:
        self.turn = None
        if any(p.knocked for p in self.places):
            self.ended = "31"
        elif self.stack_ran_out:
            self.ended = "stack empty"
        elif any(p.passed_by == "swaps" for p in self.places):
            self.ended = "swaps"
        else:
            self.ended = "all passed"
        best = max(score2(p.cards) for p in self.places)
        winners = [p for p in self.places if score2(p.cards) == best]
        for n, p in enumerate(self.places):
            p.won = p in winners
            p.returned = self.rules.winnings(p.bet, len(winners)) if p.won else 0
            self.events.append(ev.Revealed(p.seat, n + 1, tuple(p.cards), score_value(score2(p.cards)), p.won, p.returned))
        self.events.append(ev.Ended(None, self.ended))

    @property
    def winners(self) -> list[int]:
        return [n + 1 for n, p in enumerate(self.places) if p.won]

    def settlement(self) -> list[SeatSettlement]:
        return [SeatSettlement(p.seat, p.bet, p.returned, {"wins": int(p.won)})
                for p in self.places if p.seat is not None]

    def result(self, game: str) -> dict[str, Any]:
        """The round-script result (other-games.md, eenendertigen, "Result keys")."""
        places = [{
            "place": n + 1, "seat": p.seat, "cards": list(p.cards), "score": score_value(score2(p.cards)),
            "passed": p.passed, "knocked": p.knocked, "swaps": p.swaps, "bet": p.bet, "staked": p.bet,
            "returned": p.returned, "net": p.returned - p.bet,
        } for n, p in enumerate(self.places)]
        return {"game": game, "places": places, "winners": self.winners, "ended": self.ended,
                "cards_used": self.cards_used, "turns": self.turns}

    @property
    def carry(self) -> dict[str, Any]:
        return {}

    @property
    def moves(self) -> list[dict[str, Any]]:
        """Every place's moves, passes and knocks in order (the cabinet's recall keeps them)."""
        return [e.to_dict() for e in self.events if e.kind in ("move", "pass", "knock")]

    # -- what the screens show -----------------------------------------------------------------

    def shown(self) -> TableShown:
        """Each seat's own hand open (four cards while it chooses its discard), hidden from the
        other seats (``others``) until the round ends; every place with
        its hand hidden until the round ends, then revealed with its score and result; who
        passed, who knocked ("31!") and the swaps, for everyone at once; the table's open cards
        and (modern) the closed stack's count."""
        over = self.turn is None
        hands: dict[int, tuple[HandShown, ...]] = {}
        others: dict[int, tuple[HandShown, ...]] = {}  # each seat's hand as the other seats see it: hidden until the end
        places = []
        for n, p in enumerate(self.places):
            text = score_text(score2(p.cards)) if len(p.cards) == HAND else ""
            if p.seat is not None:
                hands[p.seat] = (HandShown(tuple(p.cards), p.bet, text, ("win" if p.won else "lose") if over else None,
                                           p.returned, active=self.turn == n),)
                others[p.seat] = hands[p.seat] if over else (HandShown((FACE_DOWN,) * HAND, p.bet, ""),)
            places.append(PlaceShown(
                n + 1, p.seat, tuple(p.cards) if over else (FACE_DOWN,) * HAND, text if over else "", p.passed, p.knocked,
                p.swaps, self.turn == n, p.won if over else None, p.returned))
        open_cards = tuple(self.table) if self.rules.variant == "classic" else tuple(self.table[-1:])
        return TableShown(
            dealer_cards=open_cards, hands=hands, notice=self._notice(), dealer_title="TABLE", places=tuple(places),
            stack=self.stack if self.rules.variant == "modern" else None,
            max_swaps=MAX_SWAPS if self.rules.variant == "classic" else None,
            bets={p.seat: p.bet for p in self.places if p.seat is not None}, others=others)

    def _notice(self) -> Text:
        """The line every screen shows: who knocked, then how the round ended and who won."""
        knocked = [n + 1 for n, p in enumerate(self.places) if p.knocked]
        if self.turn is not None:
            if knocked:
                return Text("31! Place {place} knocked: one more turn each", place=knocked[0])
            return self._since_last_turn()
        winners = self.winners
        if len(winners) == 1:
            who = Text("Place {place} wins", place=winners[0])
        else:
            who = Text("Places {places} share the win", places=", ".join(map(str, winners)))
        return Text.joined(SEP, [ENDED_TEXT[self.ended], who])

    def _since_last_turn(self) -> Text:
        """What the other places did since the place to move last moved (computer players move
        at once, so a seat reads it here): "Place 2 swapped · Place 3 passed"."""
        assert self.turn is not None
        done: list[Text] = []
        for e in reversed(self.events):
            if isinstance(e, ev.Dealt) or (isinstance(e, ev.Moved | ev.Passed) and e.place == self.turn + 1):
                break
            if isinstance(e, ev.Passed) and e.by == "pass":
                done.append(Text(MOVE_TEXT["pass"], place=e.place))
            elif isinstance(e, ev.Moved):
                done.append(Text(MOVE_TEXT[e.action.partition(":")[0]], place=e.place))
        return Text.joined(SEP, reversed(done))

    # -- plain data ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(), "shoe": list(self.shoe), "places": [p.to_dict() for p in self.places],
            "table": list(self.table), "cards_used": self.cards_used, "turn": self.turn, "turns": self.turns,
            "first_turn_taken": self.first_turn_taken, "final": None if self.final is None else list(self.final),
            "last_one": self.last_one, "drawn": self.drawn, "stack_ran_out": self.stack_ran_out,
            "ended": self.ended, "events": [e.to_dict() for e in self.events],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], computer: Computer | None = None) -> EenendertigenRound:
        rules = EenendertigenRules.from_dict(data["rules"])
        rnd = cls(rules, list(data["shoe"]), [Place(**dict(p, cards=list(p["cards"]))) for p in data["places"]], computer)
        rnd.table = list(data["table"])
        rnd.cards_used, rnd.turn, rnd.turns = data["cards_used"], data["turn"], data["turns"]
        rnd.first_turn_taken, rnd.last_one = data["first_turn_taken"], data["last_one"]
        rnd.drawn = data["drawn"]
        rnd.final = None if data["final"] is None else list(data["final"])
        rnd.stack_ran_out, rnd.ended = data["stack_ran_out"], data["ended"]
        rnd.events = [ev.from_dict(e) for e in data["events"]]
        return rnd


# a move's name -> what it does (True: the turn is over)
MOVES: dict[str, Callable[[EenendertigenRound, int, str, str], bool]] = {
    "pass": EenendertigenRound._move_pass,
    "swap": EenendertigenRound._move_swap,
    "swap_all": EenendertigenRound._move_swap_all,
    "take_open": EenendertigenRound._move_take,
    "draw": EenendertigenRound._move_take,
    "discard": EenendertigenRound._move_discard,
}
