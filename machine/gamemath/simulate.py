"""The engine simulators' shared runner: many rounds in seeded chunks, on every core.

Owns: ``cabinet simulate``'s chunk plan for every game's engine simulator: splitting N rounds
into fixed chunks (so a seed gives the same figure whatever the number of workers, here or on a
cluster's: ``machine.gamemath.cluster``), playing each chunk with the game's own ``play`` (its
seeded shuffle, its engine, Auto deciding), and the ``Tally``: the RTP estimate with its 95 %
confidence interval. Knows no game and keeps no rule: each game's math package passes the
function that plays its chunk.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from machine.gamemath.cluster import Cluster

CHUNK = 2000


@dataclass
class Tally:
    rounds: int = 0
    bet: int = 0  # sum of initial bets
    net: int = 0  # sum of returns minus stakes
    sum_x: float = 0.0  # per round: net / initial bets of that round
    sum_xx: float = 0.0

    def record(self, net: int, bets: int) -> None:
        """One round: its net (returns minus stakes) against the bets placed in it."""
        x = net / bets
        self.rounds += 1
        self.bet += bets
        self.net += net
        self.sum_x += x
        self.sum_xx += x * x

    def add(self, other: Tally) -> None:
        self.rounds += other.rounds
        self.bet += other.bet
        self.net += other.net
        self.sum_x += other.sum_x
        self.sum_xx += other.sum_xx

    @property
    def rtp(self) -> float:
        return 1 + self.net / self.bet if self.bet else float("nan")

    @property
    def half_width(self) -> float:
        """Half the 95 % confidence interval of the RTP (rounds are independent)."""
        n = self.rounds
        if n < 2:
            return float("inf")
        mean = self.sum_x / n
        var = (self.sum_xx - n * mean * mean) / (n - 1)
        return 1.959964 * math.sqrt(max(var, 0.0) / n)


PlayChunk = Callable[[Any, int, int, int, int], Tally]


def chunk_job(args: tuple[PlayChunk, Any, int, int, int, int]) -> Tally:
    """One chunk of a run: ``play`` and its arguments (a process pool's or a cluster's task)."""
    return args[0](*args[1:])


def simulate(
    rules: Any, rounds: int, seats: int = 1, seed: int = 1, workers: int | None = None,
    progress: Callable[[int, int], None] | None = None, *, play: PlayChunk, cluster: Cluster | None = None,
) -> Tally:
    """``rounds`` rounds in chunks of ``CHUNK`` on ``workers`` processes, or on a ``cluster``'s
    workers (``machine.gamemath.cluster``); ``play(rules, rounds, seats, seed, chunk)`` plays a
    chunk (the game's own, a module-level function, so a worker process can import it). The chunks' tallies are added in
    the chunks' order, so a seed gives the same figure, to the last bit, on any of them."""
    jobs = []
    left, chunk = rounds, 0
    while left > 0:
        n = min(CHUNK, left)
        jobs.append((play, rules, n, seats, seed, chunk))
        left -= n
        chunk += 1
    total = Tally()
    workers = workers or os.cpu_count() or 1
    with ExitStack() as stack:
        if cluster is not None:
            results: Iterable[Tally] = cluster.map(chunk_job, jobs)
        elif workers == 1:
            results = map(chunk_job, jobs)
        else:  # multiprocessing: imported only here (pricing a game, cabinet rtp, never starts a worker)
            from concurrent.futures import ProcessPoolExecutor

            results = stack.enter_context(ProcessPoolExecutor(max_workers=workers)).map(chunk_job, jobs)
        for t in results:
            total.add(t)
            if progress:
                progress(total.rounds, rounds)
    return total

