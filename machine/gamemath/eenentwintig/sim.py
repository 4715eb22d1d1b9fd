"""Eenentwintig's engine simulator: rounds on ``EenentwintigRound`` itself, Auto deciding.

Owns: ``play_chunk`` (a chunk of seeded rounds, every seat at the minimum bet) and ``simulate``
(the shared chunk runner, ``machine.gamemath.simulate``, playing it). Keeps no rule of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from machine.gamemath.eenentwintig.auto import auto_action
from machine.gamemath.simulate import Tally
from machine.gamemath.simulate import simulate as simulate_chunks
from machine.games.cards import new_shoe, shuffle
from machine.games.eenentwintig import scoring as sc
from machine.games.eenentwintig.round import EenentwintigRound
from machine.games.eenentwintig.rules import EenentwintigRules


def play_chunk(rules: EenentwintigRules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """``rounds`` rounds on the engine, ``seats`` seats, Auto deciding (the minimum bet)."""
    rng = random.Random(f"eenentwintig/{seed}/{chunk}")
    base = new_shoe(rules.decks, sc.RANKS)
    numbers = list(range(1, seats + 1))
    t = Tally()
    for _ in range(rounds):
        rnd = EenentwintigRound.start(rules, shuffle(base, rng), numbers)
        while (d := rnd.pending) is not None:
            rnd.act(d.seat, auto_action(rnd))
        t.record(sum(s.returned - s.staked for s in rnd.seats), rules.min_bet * seats)
    return t


def simulate(
    rules: EenentwintigRules, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, cluster: Any = None,
) -> Tally:
    """``cabinet simulate``: rounds on the engine itself with Auto, in seeded chunks."""
    return simulate_chunks(rules, rounds, seats, seed, workers, progress, play=play_chunk, cluster=cluster)
