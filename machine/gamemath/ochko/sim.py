"""Ochko's simulator on the engine: the rounds the cabinet plays, Auto deciding.

Owns: playing a chunk of rounds on ``OchkoRound`` (every seat staking the minimum, Auto
answering every play decision, the bank carried from round to round as the cabinet carries it,
a fresh bank at each chunk's start so a seed gives the same figure on any number of workers).
The chunks, workers and the ``Tally`` are ``gamemath.simulate``'s. Keeps no rule of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from machine.gamemath.ochko.exact import auto_action
from machine.gamemath.simulate import Tally
from machine.gamemath.simulate import simulate as run_chunks
from machine.games.cards import new_shoe, shuffle
from machine.games.ochko.round import OchkoRound
from machine.games.ochko.rules import RANKS, OchkoRules


def play_chunk(rules: OchkoRules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """``rounds`` rounds of ``seats`` seats; the RTP's ratio is returned over staked."""
    rng = random.Random(f"ochko/{seed}/{chunk}")
    base = new_shoe(rules.decks, RANKS)
    numbers = list(range(1, seats + 1))
    carry: dict[str, Any] | None = None
    t = Tally()
    for _ in range(rounds):
        rnd = OchkoRound.start(rules, shuffle(base, rng), numbers, carry=carry)
        while (d := rnd.pending) is not None:
            rnd.act(d.seat, auto_action(rnd))
        carry = rnd.carry
        staked = sum(s.staked for s in rnd.seats)  # the first seat always stakes: never 0
        net = sum(s.returned for s in rnd.seats) - staked
        t.record(net, staked)
    return t


def simulate(
    rules: OchkoRules, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, cluster: Any = None,
) -> Tally:
    return run_chunks(rules, rounds, seats, seed, workers, progress, play=play_chunk, cluster=cluster)
