"""The game interface: what the cabinet core knows of any game, and nothing more.

Owns: the contract between a game (pure rules: cards in, events and results out) and the
cabinet that hosts it (money, journal, lamps, timers, screens). Never imports anything of the
cabinet, the journal, the meters, a screen or a device. The theory of operation is in
``docs/game-interface.md``.

Two objects make a game:

* a ``Game`` (one per profile in force): the rules, the shoe it deals from, how a round
  starts, how the panel's buttons map to the round's choices and what the screen writes beside
  each, Auto's choice, the lines the attract screen shows;
* a ``GameRound`` (one per round): who must decide (``pending``), why an action is refused
  (``why_not``), ``act`` (or ``IllegalAction``, changing nothing), the ordered events, the
  settlement, and the whole state as plain data at every decision point.

A round asks for money only through its events: an event whose ``stake`` is not zero takes
that many points from the seat's club meter, and its ``stake_kind`` names what for (a double, a
split, insurance). When the round is
``finished``, ``settlement()`` gives each seat's stakes, returns and the game's own counters
(blackjacks, bonuses, ...) for the meters, and ``result()`` the round in the round-script
format for recall.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from hardware.buttons import BET_BUTTONS, MONEY_BUTTONS, PLAY_BUTTONS, Button

__all__ = [
    "BET_BUTTONS", "MONEY_BUTTONS", "PLAY_BUTTONS", "Button", "Decision", "Game", "GameRound", "HandShown", "PlaceShown",
    "RoundError", "SeatSettlement", "ShoeExhausted", "TableShown", "bet_action", "bet_of",
]

PICK = "pick:"  # an action of a button that moves one of the seat's card picks; never sent to the round
FACE_DOWN = "??"  # a card the viewer may not see, in ``HandShown.cards`` and ``TableShown.dealer_cards``


def bet_action(points: int) -> str:
    """The action that places a bet of ``points`` at a ``bet`` decision: ``"bet:6"``."""
    return f"bet:{points}"


def bet_of(action: str) -> int | None:
    """The points a ``bet:N`` action places, or None when ``action`` is not one."""
    if not action.startswith("bet:"):
        return None
    digits = action[4:]
    return int(digits) if digits.isdigit() else None


class RoundError(Exception):
    """Base of the errors a round raises."""


class ShoeExhausted(RoundError):
    """The shoe ran out of cards mid-round (the cabinet voids the round; a script is refused)."""


@dataclass(frozen=True)
class Decision:
    """The question a round waits on: who (seat number), which hand, what kind, which answers."""

    seat: int
    hand: int | None
    kind: str
    options: tuple[str, ...]


@dataclass(frozen=True)
class SeatSettlement:
    """One seat's money at the end of a round: every point staked and returned, and the
    game's own counters for the meters (``{"blackjacks": 1}``...)."""

    seat: int
    staked: int
    returned: int
    counters: Mapping[str, int] = field(default_factory=dict)

    @property
    def net(self) -> int:
        return self.returned - self.staked


@dataclass(frozen=True)
class HandShown:
    """One hand as its own seat's screen shows it now (``FACE_DOWN`` for a closed card)."""

    cards: tuple[str, ...]
    stake: int
    total_text: str  # as the game counts: "17", "soft 17", "20.5", "bust 24", "blackjack"; "" when hidden
    result: str | None = None  # once settled: win / lose / push / blackjack / surrender
    returned: int = 0
    active: bool = False  # the hand being decided now
    doubled: bool = False


@dataclass(frozen=True)
class PlaceShown:
    """One place at a table of places (eenendertigen: four, each playing for itself), as every
    screen may see it: a hand still hidden is ``FACE_DOWN`` cards with an empty score."""

    place: int  # 1-4
    seat: int | None  # None: a computer player
    cards: tuple[str, ...]
    score_text: str = ""
    passed: bool = False
    knocked: bool = False
    swaps: int = 0
    turn: bool = False  # the place to move now
    won: bool | None = None  # once the round is over
    returned: int = 0


@dataclass(frozen=True)
class TableShown:
    """What the screens show of a round (or of the table between rounds): the dealer's or the
    bank's cards, each seat's hands as that seat sees them, and the bank where the game has one."""

    dealer_cards: tuple[str, ...] = ()
    dealer_text: str = ""
    hands: Mapping[int, tuple[HandShown, ...]] = field(default_factory=dict)
    bank: int | None = None  # ochko: the banker's bank now
    notice: str = ""  # a line for every screen ("Last round of this bank")
    dealer_title: str = "DEALER"  # what the screens call the house's hand ("BANK", "BANKER")
    places: tuple[PlaceShown, ...] = ()  # a game of places: every place, seats and computer players
    stack: int | None = None  # cards left in a closed stack beside ``dealer_cards`` (modern 31)
    max_swaps: int | None = None  # the swaps a place may make (classic 31: 5), for "swaps 2/5"
    bets: Mapping[int, int] = field(default_factory=dict)  # seat -> its bet in this round (0: none yet)
    insurance: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # seat -> (insured, returned)
    others: Mapping[int, tuple[HandShown, ...]] | None = None
    """Each seat's hands as every OTHER seat may see them now (ochko: a closed card ``FACE_DOWN``
    until a 21, a bust or the settlement shows it); None: as open as in ``hands`` (blackjack,
    eenentwintig). The screens draw another seat's hands from here, never from ``hands``."""
    revealed: frozenset[int] = frozenset()
    """The seats whose hands the game has shown to every seat before the settlement (ochko: a 21
    or a bust). A seat newly in it after a decision is a reveal: the cabinet holds play a moment
    so that every screen can read it before the next decision is asked."""

    def seen_by_others(self, seat: int) -> tuple[HandShown, ...]:
        """Seat ``seat``'s hands as another seat's screen may draw them."""
        source = self.hands if self.others is None else self.others
        return tuple(source.get(seat, ()))

    def seen_by(self, viewer: int, seat: int) -> tuple[HandShown, ...]:
        """Seat ``seat``'s hands as seat ``viewer``'s screen may draw them: its own as it sees
        them, another's as the game lets the others see it. The one rule every screen draws by."""
        return tuple(self.hands.get(seat, ())) if viewer == seat else self.seen_by_others(seat)


@runtime_checkable
class GameRound(Protocol):
    """One round in play (blackjack's ``Round`` is one)."""

    events: list[Any]

    @property
    def finished(self) -> bool: ...

    @property
    def pending(self) -> Decision | None: ...

    @property
    def seat_numbers(self) -> list[int]: ...

    def why_not(self, seat_number: int, action: str) -> str | None: ...

    def act(self, seat_number: int, action: str) -> list[Any]: ...

    def settlement(self) -> list[SeatSettlement]: ...

    def result(self, game: str) -> dict[str, Any]: ...

    def to_dict(self) -> dict[str, Any]: ...

    def shown(self) -> TableShown:
        """The table now, each seat's hands as that seat may see them."""
        ...

    @property
    def carry(self) -> dict[str, Any]:
        """Plain data the next round starts from (ochko: the bank); ``{}`` when nothing carries."""
        ...


class Game(Protocol):
    """A game as the cabinet hosts it: one per profile and rules in force."""

    name: str
    title: str
    bets_after_deal: bool
    """True where the bets are decisions of the round (``bet`` decisions whose options are
    ``bet:N`` actions), taken after cards are dealt; the cabinet then starts the round with
    the seats that pressed Start holding the minimum, and takes nothing before the deal."""

    hidden_hands: bool
    """True where a seat's cards are hidden from the other seats during a round (ochko's closed
    cards, 31's hands): seats that share one screen would see each other's (``config check``)."""

    max_seats: int | None
    """The most seats one round deals in (eenendertigen: its four places); None: every seat.
    Seats ready beyond it keep their bet and Start for the next round."""

    @property
    def min_bet(self) -> int: ...

    def new_shoe(self) -> list[str]:
        """The cards of a fresh (unshuffled) shoe under the rules in force."""
        ...

    def start(
        self,
        shoe: list[str],
        bets: Sequence[int],
        funds: Sequence[int],
        seat_numbers: Sequence[int],
        carry: Mapping[str, Any] | None = None,
    ) -> GameRound:
        """Deal a round and run it to its first decision. ``bets`` are the stakes taken before
        the deal (ignored where ``bets_after_deal``); ``funds`` what each seat can stake
        beyond them; ``carry`` the previous round's ``carry`` (None: the game's opening)."""
        ...

    def shown_between(self, carry: Mapping[str, Any] | None) -> TableShown:
        """The table between rounds: no cards; the bank and the notice where the game has them."""
        ...

    def restore(self, data: Mapping[str, Any]) -> GameRound: ...

    def action_for(self, decision: Decision, button: Button, picks: Mapping[str, int] | None = None) -> str | None:
        """The action a press of ``button`` takes at ``decision`` with the seat's card ``picks``
        (``pick:NAME``: it moves a pick), or None (its lamp is dark)."""
        ...

    def button_labels(self, decision: Decision, picks: Mapping[str, int] | None = None) -> Mapping[Button, str]:
        """What the screen writes beside each live play button at ``decision``."""
        ...

    def picked(self, decision: Decision, picks: Mapping[str, int]) -> dict[str, int]:
        """The card picks in force at ``decision`` (``{}`` where no action names a card)."""
        ...

    def next_pick(self, decision: Decision, picks: Mapping[str, int], action: str) -> dict[str, int]:
        """The seat's picks after the ``pick:NAME`` action a button took."""
        ...

    def touch(self, decision: Decision, picks: Mapping[str, int], target: str) -> tuple[dict[str, int], str | None]:
        """A touch on a card (``hand:2``, ``table:1``, ``stack``): the picks after it and the action
        it takes, or None."""
        ...

    def auto(self, rnd: GameRound) -> str:
        """Auto's choice at ``rnd.pending`` (the best play under the game's own rules)."""
        ...

    def attract_lines(self) -> list[str]:
        """What the attract screen says this game pays, true under the rules in force."""
        ...

    def pay_rule(self) -> str:
        """The game's main pay rule in one line, true under the rules in force: written beside
        its title on every screen during play and when the game changes."""
        ...


GameFactory = Callable[..., Game]
