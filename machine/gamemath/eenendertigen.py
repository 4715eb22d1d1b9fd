"""Eenendertigen's computer players and Auto: one strategy, and the engine simulator.

Owns: the choice a place makes at its turn (``choose(round, place)``; Auto for a seat is the
same choice, ``auto_action``), ``simulate`` (Auto in place 1 against three computer players, the
seat staking the minimum; the return is what the seat gets back over what it staked) and
``win_rate``; ``fast_simulate`` is the compiled path (``eenendertigen_fast``, numba: the same
choices from tables of these values). The strategy sees only what the place sees: its own hand, the table (classic: the
three open cards; modern: the open card and every card discarded under it) and the number of
cards still closed; never another hand or the stack's order.

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
``rtp_report`` refuses with one line; ``cabinet simulate`` gives the figure.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from machine.gamemath.simulate import Tally
from machine.gamemath.simulate import simulate as run_chunks
from machine.games.cards import deck, shuffle
from machine.games.eenendertigen.round import MAX_SWAPS, EenendertigenRound
from machine.games.eenendertigen.rules import THIRTY_ONE2, EenendertigenRules, ranks_of, score2

HAS_EXACT_RTP = False  # cabinet simulate prints the simulated figure alone
SIMULATED_AS = "one seat (Auto, the minimum bet) in place 1 against three computer players"
Q = 0.5  # the share of one more chance's expected gain a kept hand is worth
KNOCK_BONUS = 1000.0  # what a hand of 31 is worth beyond its score: it knocks at once
PASS_AT = {"classic": 52, "modern": 54}  # pass on 26 (classic) / 27 (modern) when no move scores more


@cache
def _deck(variant: str) -> tuple[str, ...]:
    return tuple(deck(ranks_of(variant)))


@cache
def _scores(variant: str) -> dict[frozenset[str], int]:
    """``score2`` of every three cards of the variant's deck, by the set (a score has no order)."""
    return {frozenset(h): score2(h) for h in combinations(_deck(variant), 3)}


@lru_cache(maxsize=200_000)
def future(variant: str, hand: tuple[str, ...]) -> float:
    """F(h): the mean best score (half points) after one more card offered from the rest of the deck."""
    scores = _scores(variant)
    a, b, c = hand
    s = scores[frozenset(hand)]
    rest = [x for x in _deck(variant) if x not in hand]
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
    total = _draw_sum(hand, last) - sum(_best_discard(hand, c, last) for c in pile)
    return total / (len(_deck("modern")) - len(hand) - len(pile))


def _best_discard(hand: tuple[str, ...], card: str, last: bool) -> float:
    four = [*hand, card]
    return max(value("modern", four[:d] + four[d + 1 :], last) for d in range(4))


@lru_cache(maxsize=100_000)
def _draw_sum(hand: tuple[str, ...], last: bool) -> float:
    return sum(_best_discard(hand, c, last) for c in _deck("modern") if c not in hand)


def auto_action(rnd: Any) -> str:
    """Auto at the decision a seat's place waits on: the computer players' choice."""
    assert rnd.turn is not None
    return choose(rnd, rnd.turn)


def computer(rnd: EenendertigenRound, place: int) -> str:
    """The computer players' strategy, as the round takes it."""
    return choose(rnd, place)


def prepare(rules: EenendertigenRules) -> None:
    """Nothing to compute ahead: the values are remembered as they are first needed."""


def exact_rtp(rules: EenendertigenRules) -> float:
    raise ValueError("eenendertigen has no exact return: it depends on the computer players' play "
                     "(cabinet simulate gives Auto's return against them)")


def rtp_report(profile: Any) -> dict[str, Any]:
    return {"rtp": exact_rtp(profile.rules)}


def rtp_lines(profile: Any) -> list[str]:
    exact_rtp(profile.rules)
    return []


def strategy_lines(profile: Any) -> list[str]:
    """``cabinet strategy``: the strategy in words (there is no chart by visible total)."""
    r: EenendertigenRules = profile.rules
    return [
        f"{profile.title} ({r.variant}): Auto and the computer players play the same strategy.",
        "- A move that makes 31 is taken at once: it knocks.",
        f"- Pass on {PASS_AT[r.variant] / 2:g} or more when no move scores more now.",
        f"- Else take the move of best value: its score plus {Q:g} x the expected gain of one more card.",
        "- On the last turn (after a knock, or all others passed) only the score counts.",
    ] + (["- Modern: draw when the mean value of the best discard beats every take of the open card."]
         if r.variant == "modern" else [])


def play_round(rules: EenendertigenRules, shoe: list[str]) -> EenendertigenRound:
    """One round of a lone seat in place 1 (Auto, the minimum bet) against three computer players."""
    rnd = EenendertigenRound.start(rules, shoe, [1, None, None, None], [rules.min_bet, 0, 0, 0], computer)
    while (d := rnd.pending) is not None:
        rnd.act(d.seat, auto_action(rnd))
    return rnd


def play_chunk(rules: EenendertigenRules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """``rounds`` rounds of Auto in place 1 against three computer players (``seats`` is 1)."""
    rng = random.Random(f"eenendertigen/{rules.variant}/{seed}/{chunk}")
    base = list(_deck(rules.variant))
    t = Tally()
    for _ in range(rounds):
        rnd = play_round(rules, shuffle(base, rng))
        p = rnd.places[0]
        t.record(p.returned - p.bet, p.bet)
    return t


def simulate(
    rules: EenendertigenRules, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, cluster: Any = None,
) -> Tally:
    """Auto's return against three computer players at the rules' ``win_pays`` (one seat)."""
    return run_chunks(rules, rounds, 1, seed, workers, progress, play=play_chunk, cluster=cluster)


def fast_simulate(
    rules: EenendertigenRules, rounds: int, seed: int = 1, workers: int | None = None, *, seats: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> Tally:
    """``cabinet simulate --fast``: ``simulate`` on the compiled path (numba, ``eenendertigen_fast``):
    the same Tally, one seat as ``simulate`` plays, from numba's seeded decks."""
    try:
        from machine.gamemath import eenendertigen_fast
    except ImportError as exc:
        raise ValueError(f"the fast simulator needs numba: pip install 'cabinet[fast]' ({exc})") from None
    return eenendertigen_fast.fast_simulate(rules, rounds, seed, workers, seats=seats, progress=progress)


def win_rate(rules: EenendertigenRules, rounds: int, seed: int = 1) -> tuple[float, float]:
    """Auto's share of rounds won (a tie counts as its share) and its return, on one process."""
    rng = random.Random(f"eenendertigen/{rules.variant}/{seed}/wins")
    base = list(_deck(rules.variant))
    wins = 0.0
    staked = returned = 0
    for _ in range(rounds):
        rnd = play_round(rules, shuffle(base, rng))
        winners = rnd.winners
        wins += 1 / len(winners) if 1 in winners else 0
        staked += rnd.places[0].bet
        returned += rnd.places[0].returned
    return wins / rounds, returned / staked
