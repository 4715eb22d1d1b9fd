"""Eenendertigen's computer players and Auto: one strategy.

Owns: the choice a place makes at its turn (``choose(round, place)``; Auto for a seat is the
same choice, ``auto_action``; the computer players' is ``computer``) and the values it is made
from (``value``, ``future``, ``deck_of``); the compiled path (``eenendertigen.fast``, numba)
makes the same choices from tables of these values. The strategy sees only what the place
sees: its own hand, the table (classic: the three open cards; modern: the open card and every
card discarded under it) and the number of cards still closed; never another hand or the
stack's order.

How a move is valued (a one-step look-ahead, deterministic: ties go to the first option in the
round's own order):

* a move that makes 31 is taken at once (it knocks);
* ``V(h)`` of a hand kept for later turns is ``s(h) + Q x (F(h) - s(h))``: its score plus a
  share ``Q`` of the expected gain of one more chance, where ``F(h)`` is the mean over every card
  of the deck the hand does not hold of the best score from keeping ``h`` or putting that card in
  place of one of its three. On the place's last turn (after a knock, or everyone else passed)
  and for a move that passes (``swap_all`` after the first turn, the fifth classic swap) a hand
  is worth its score alone;
* modern ``draw`` is worth the mean over the cards the place has not seen of the best discard's
  value, and after the draw the discard is the one of best value;
* the place passes when its score is at least ``PASS_AT`` (half points) and no move scores more
  now; otherwise it takes the move of best value (passing only when nothing is worth as much).

exact_rtp is not defined for this game (the return depends on three computer players' play):
``eenendertigen.report`` refuses with one line; ``cabinet simulate`` gives the figure
(``eenendertigen.sim``).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from machine.games.cards import deck
from machine.games.eenendertigen.round import MAX_SWAPS, EenendertigenRound
from machine.games.eenendertigen.rules import THIRTY_ONE2, EenendertigenRules, ranks_of, score2

Q = 0.5  # the share of one more chance's expected gain a kept hand is worth
KNOCK_BONUS = 1000.0  # what a hand of 31 is worth beyond its score: it knocks at once
PASS_AT = {"classic": 52, "modern": 54}  # pass on 26 (classic) / 27 (modern) when no move scores more


@cache
def deck_of(variant: str) -> tuple[str, ...]:
    """The variant's deck, in the order of ``machine.games.cards.deck``."""
    return tuple(deck(ranks_of(variant)))


@cache
def _scores(variant: str) -> dict[frozenset[str], int]:
    """``score2`` of every three cards of the variant's deck, by the set (a score has no order)."""
    return {frozenset(h): score2(h) for h in combinations(deck_of(variant), 3)}


@lru_cache(maxsize=200_000)
def future(variant: str, hand: tuple[str, ...]) -> float:
    """F(h): the mean best score (half points) after one more card offered from the rest of the deck."""
    scores = _scores(variant)
    a, b, c = hand
    s = scores[frozenset(hand)]
    rest = [x for x in deck_of(variant) if x not in hand]
    total = 0
    for x in rest:  # keep the hand, or put x in place of one of its three
        total += max(s, scores[frozenset((x, b, c))], scores[frozenset((a, x, c))], scores[frozenset((a, b, x))])
    return total / len(rest)


def value(variant: str, hand: list[str] | tuple[str, ...], last: bool) -> float:
    """V(h), or the score alone on a place's last turn."""
    return _value(variant, tuple(sorted(hand)), last)


@lru_cache(maxsize=400_000)
def _value(variant: str, key: tuple[str, ...], last: bool) -> float:
    s = score2(key)
    if last or s == THIRTY_ONE2:
        return float(s) + (KNOCK_BONUS if s == THIRTY_ONE2 else 0.0)
    return s + Q * (future(variant, key) - s)


def _last_turn(rnd: EenendertigenRound, place: int) -> bool:
    return rnd.final is not None or rnd.last_one == place


def choose(rnd: EenendertigenRound, place: int) -> str:
    """The move of ``place`` (0-3), whose turn it is (see the module docstring)."""
    p = rnd.places[place]
    variant = rnd.rules.variant
    last = _last_turn(rnd, place)
    now = score2(p.cards)
    if rnd.drawn:  # modern, after a draw (or the panel's take): keep the best three of the four
        scores = [value(variant, p.cards[:d] + p.cards[d + 1 :], last) for d in range(len(rnd.options()))]
        return f"discard:{scores.index(max(scores)) + 1}"
    moves: list[tuple[str, list[str], bool]] = []  # (action, hand after, the move passes)
    if variant == "classic":
        for h in range(3):
            for t in range(3):
                after = list(p.cards)
                after[h] = rnd.table[t]
                moves.append((f"swap:{h + 1}:{t + 1}", after, p.swaps + 1 >= MAX_SWAPS))
        first = place == 0 and not rnd.first_turn_taken
        moves.append(("swap_all", list(rnd.table), not first or p.swaps + 1 >= MAX_SWAPS))
    else:
        four = [*p.cards, rnd.table[-1]]
        for d in range(3):
            moves.append((f"take_open:{d + 1}", four[:d] + four[d + 1 :], False))
    best_now = max(score2(after) for _a, after, _p in moves)
    if best_now == THIRTY_ONE2:
        return next(a for a, after, _p in moves if score2(after) == THIRTY_ONE2)
    if now >= PASS_AT[variant] and best_now <= now:
        return "pass"
    options = [(value(variant, after, last or passes), a) for a, after, passes in moves]
    if variant == "modern" and rnd.stack > 0:
        options.append((_draw_value(rnd, place, last), "draw"))
    best = max(options, key=lambda o: o[0])
    if best[0] <= now and (last or now >= PASS_AT[variant]):
        return "pass"
    return best[1]


def _draw_value(rnd: EenendertigenRound, place: int, last: bool) -> float:
    """Modern: the mean over the cards the place has not seen of the best discard's value (the
    sum over every card the hand does not hold, remembered per hand, less the seen pile's)."""
    p = rnd.places[place]
    hand = tuple(sorted(p.cards))
    pile = [c for c in rnd.table if c not in hand]
    total = draw_sum(hand, last) - sum(_best_discard(hand, c, last) for c in pile)
    return total / (len(deck_of("modern")) - len(hand) - len(pile))


def _best_discard(hand: tuple[str, ...], card: str, last: bool) -> float:
    four = [*hand, card]
    return max(value("modern", four[:d] + four[d + 1 :], last) for d in range(4))


@lru_cache(maxsize=100_000)
def draw_sum(hand: tuple[str, ...], last: bool) -> float:
    return sum(_best_discard(hand, c, last) for c in deck_of("modern") if c not in hand)


def auto_action(rnd: Any) -> str:
    """Auto at the decision a seat's place waits on: the computer players' choice."""
    assert rnd.turn is not None
    return choose(rnd, rnd.turn)


def computer(rnd: EenendertigenRound, place: int) -> str:
    """The computer players' strategy, as the round takes it."""
    return choose(rnd, place)


def prepare(rules: EenendertigenRules) -> None:
    """Nothing to compute ahead: the values are remembered as they are first needed."""
