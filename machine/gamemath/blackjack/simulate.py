"""Blackjack's engine simulator: many rounds on the real ``Round`` with Auto's decisions.

Owns: blackjack's chunk (``play_chunk``: its own seeded shuffle, every seat betting the minimum,
every card and decision through ``machine.games.blackjack.round.Round``) and ``simulate``, the shared
chunk runner (``machine.gamemath.simulate``) playing it. So the simulator checks the engine and
the mathematics against each other; it keeps no rules of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from machine.gamemath.simulate import Tally
from machine.gamemath.simulate import simulate as run_chunks
from machine.games.blackjack.round import Round
from machine.games.blackjack.rules import Rules
from machine.games.cards import deck_ranks, new_shoe, shuffle

if TYPE_CHECKING:
    from machine.gamemath.cluster import Cluster


def play_chunk(rules: Rules, rounds: int, seats: int, seed: int, chunk: int) -> Tally:
    """Play ``rounds`` rounds with ``seats`` seats betting the minimum, Auto deciding."""
    from machine.gamemath.blackjack.auto import auto_action

    rng = random.Random(f"{seed}/{chunk}")
    base = new_shoe(rules.decks, deck_ranks(rules.spanish_deck))
    bet = rules.min_bet
    t = Tally()
    for _ in range(rounds):
        rnd = Round.start(rules, shuffle(base, rng), [bet] * seats)
        while (d := rnd.pending) is not None:
            rnd.act(d.seat, auto_action(rnd))
        t.record(sum(s.returned - s.staked for s in rnd.seats), bet * seats)
    return t


def simulate(
    rules: Rules, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, cluster: Cluster | None = None,
) -> Tally:
    """``cabinet simulate`` on the engine: ``rounds`` rounds in seeded chunks, Auto deciding."""
    return run_chunks(rules, rounds, seats, seed, workers, progress, play=play_chunk, cluster=cluster)
