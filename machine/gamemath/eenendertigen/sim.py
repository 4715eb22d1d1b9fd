"""Eenendertigen's engine simulator: Auto in place 1 against three computer players.

Owns: ``play_round``, ``play_chunk`` and ``simulate`` (the shared chunk runner,
``machine.gamemath.simulate``: the seat stakes the minimum; the return is what it gets back
over what it staked) and ``win_rate``. Every card and choice goes through
``EenendertigenRound``; keeps no rule of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from machine.gamemath.eenendertigen.strategy import auto_action, computer, deck_of
from machine.gamemath.simulate import Tally
from machine.gamemath.simulate import simulate as run_chunks
from machine.games.cards import shuffle
from machine.games.eenendertigen.round import EenendertigenRound
from machine.games.eenendertigen.rules import EenendertigenRules


def play_round(rules: EenendertigenRules, shoe: list[str]) -> EenendertigenRound:
    """One round of a lone seat in place 1 (Auto, the minimum bet) against three computer players."""
    rnd = EenendertigenRound.start(rules, shoe, [1, None, None, None], [rules.min_bet, 0, 0, 0], computer)
    while (d := rnd.pending) is not None:
        rnd.act(d.seat, auto_action(rnd))
    return rnd


def play_chunk(rules: EenendertigenRules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """``rounds`` rounds of Auto in place 1 against three computer players (``seats`` is 1)."""
    rng = random.Random(f"eenendertigen/{rules.variant}/{seed}/{chunk}")
    base = list(deck_of(rules.variant))
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


def win_rate(rules: EenendertigenRules, rounds: int, seed: int = 1) -> tuple[float, float]:
    """Auto's share of rounds won (a tie counts as its share) and its return, on one process."""
    rng = random.Random(f"eenendertigen/{rules.variant}/{seed}/wins")
    base = list(deck_of(rules.variant))
    wins = 0.0
    staked = returned = 0
    for _ in range(rounds):
        rnd = play_round(rules, shuffle(base, rng))
        winners = rnd.winners
        wins += 1 / len(winners) if 1 in winners else 0
        staked += rnd.places[0].bet
        returned += rnd.places[0].returned
    return wins / rounds, returned / staked
