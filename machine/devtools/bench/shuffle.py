"""The shuffle's statistics (issue 24, item 8): ``cabinet bench shuffle``.

Owns: the tests regulators name for a card shuffle, run on the cabinet's own shuffler
(``machine.core.cabinet.random_shuffle``, Fisher-Yates in ``machine.games.cards.shuffle``) over
many shuffles of one 52-card deck, each at 99 % confidence: chi-square of every card's position
(all cards together, and card by card), runs above and below the median, runs up and down, and
the serial correlation of consecutive cards. Prints each statistic, its degrees of freedom, the
critical value and pass or fail; ``shuffle_statistics`` returns them for the slow test.

The product seeds the shuffler from ``secrets.SystemRandom``; for figures that repeat, the bench
first gives it ``random.Random(seed)``: the same ``randrange`` (rejection sampling on
``getrandbits``) and the same Fisher-Yates, only the source of the bits differs (MT19937, not the
operating system). It then runs the product's ``SystemRandom`` once, whose figures change every run.

No scipy: chi-square critical values come from the Wilson-Hilferty approximation of the
chi-square quantile (exact to about 0.1 % at 51 degrees of freedom and more), and exactly as the
square of the normal quantile at one degree of freedom; normal quantiles from the standard
library's ``statistics.NormalDist``. Asserts nothing, never touches a journal or a device.
"""

from __future__ import annotations

import math
import random
import secrets
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from machine.core.cabinet import random_shuffle
from machine.devtools.bench.common import bench
from machine.games.cards import RandomSource, deck

CONFIDENCE = 0.99
NORMAL = statistics.NormalDist()

Shuffle = Callable[[list[str]], list[str]]
"""One shuffle of a deck: the cards in, a new order out."""


@dataclass(frozen=True)
class Statistic:
    """One test's outcome: the statistic, its chi-square degrees of freedom (0: a binomial count,
    its critical value the most cards that may fail at 99 %) and critical value."""

    name: str
    value: float
    df: int
    critical: float

    @property
    def passed(self) -> bool:
        return self.value <= self.critical

    def line(self) -> str:
        verdict = "pass" if self.passed else "FAIL"
        df = f"df {self.df:>5}" if self.df else "binomial"  # df 0: a count of cards, not a chi-square
        return f"{self.name:<46} {self.value:12.2f}  {df}  critical {self.critical:10.2f}  {verdict}"


def chi2_critical(df: int, confidence: float = CONFIDENCE) -> float:
    """The chi-square value exceeded with probability ``1 - confidence`` (Wilson-Hilferty; exact at df 1)."""
    if df == 1:
        return NORMAL.inv_cdf(1 - (1 - confidence) / 2) ** 2
    z = NORMAL.inv_cdf(confidence)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def binomial_tail(n: int, p: float, k: int) -> float:
    """P(X >= k) for X binomial(n, p)."""
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def cabinet_shuffle(rng: RandomSource) -> Shuffle:
    """The cabinet's shuffler (the one the core puts each round's shoe in order with) over ``rng``."""
    shuffler = random_shuffle(rng)
    return lambda cards: list(shuffler(cards, 0))


def shuffle_statistics(shuffle: Shuffle, shuffles: int, cards: Sequence[str] | None = None) -> list[Statistic]:
    """Every test over ``shuffles`` shuffles of ``cards`` (default one 52-card deck; distinct cards)."""
    fresh = list(cards if cards is not None else deck())
    n = len(fresh)
    if len(set(fresh)) != n or n < 4:
        raise ValueError("the shuffle's statistics need at least four distinct cards")
    index = {card: i for i, card in enumerate(fresh)}
    counts = [[0] * n for _ in range(n)]  # counts[card][position]
    runs_median = runs_updown = 0
    serials: list[float] = []
    mean = (n - 1) / 2
    squares = sum((i - mean) ** 2 for i in range(n))  # the same for every order of the deck
    for _ in range(shuffles):
        order = [index[c] for c in shuffle(list(fresh))]
        if sorted(order) != list(range(n)):
            raise ValueError("the shuffle lost or doubled a card")
        for pos, card in enumerate(order):
            counts[card][pos] += 1
        high = [i >= n / 2 for i in order]
        runs_median += 1 + sum(a != b for a, b in zip(high, high[1:], strict=False))
        rising = [b > a for a, b in zip(order, order[1:], strict=False)]
        runs_updown += 1 + sum(a != b for a, b in zip(rising, rising[1:], strict=False))
        serials.append(sum((a - mean) * (b - mean) for a, b in zip(order, order[1:], strict=False)) / squares)
    return [
        *position_statistics(counts, shuffles),
        runs_median_statistic(runs_median, n, shuffles),
        runs_updown_statistic(runs_updown, n, shuffles),
        serial_statistic(serials, n),
    ]


def position_statistics(counts: list[list[int]], shuffles: int) -> list[Statistic]:
    """Chi-square of the card-by-position table, and the number of cards whose own fails.

    One card's positions over independent shuffles are a multinomial over ``n`` positions:
    chi-square with ``n - 1`` degrees of freedom. The whole table is a sum of random permutation
    matrices, whose Pearson statistic times ``(n - 1) / n`` is chi-square with ``(n - 1)²``
    (the centred matrix is isotropic on the ``(n - 1)²`` matrices with zero row and column sums,
    each entry of variance ``(n - 1) / n²``)."""
    n = len(counts)
    expected = shuffles / n
    per_card = [sum((o - expected) ** 2 for o in row) / expected for row in counts]
    whole = sum(per_card) * (n - 1) / n
    critical = chi2_critical(n - 1)
    over = sum(x > critical for x in per_card)
    # how many cards may fail their own 99 % test before that is itself a 1 % event
    allowed = next(k for k in range(n + 1) if binomial_tail(n, 1 - CONFIDENCE, k + 1) < 1 - CONFIDENCE)
    return [
        Statistic("chi-square, every card at every position", whole, (n - 1) ** 2, chi2_critical((n - 1) ** 2)),
        # the largest of n: its critical value at 99 % overall (Sidak), not one card's
        Statistic("chi-square, the worst card's positions", max(per_card), n - 1, chi2_critical(n - 1, CONFIDENCE ** (1 / n))),
        Statistic(f"cards over their own critical value (of {n})", over, 0, allowed),
    ]


def _z_squared(name: str, observed: float, mean: float, variance: float) -> Statistic:
    z = (observed - mean) / math.sqrt(variance)
    return Statistic(name, z * z, 1, chi2_critical(1))


def runs_median_statistic(runs: int, n: int, shuffles: int) -> Statistic:
    """Wald-Wolfowitz: runs of cards above and below the median, all shuffles together (z² ~ χ²(1))."""
    a, b = n - n // 2, n // 2  # above and below (an odd deck's middle card counts above)
    mean = 1 + 2 * a * b / n
    variance = 2 * a * b * (2 * a * b - n) / (n * n * (n - 1))
    return _z_squared("runs above/below the median (z²)", runs, mean * shuffles, variance * shuffles)


def runs_updown_statistic(runs: int, n: int, shuffles: int) -> Statistic:
    """Runs up and down of a random order of ``n`` cards: mean (2n-1)/3, variance (16n-29)/90."""
    return _z_squared("runs up and down (z²)", runs, (2 * n - 1) / 3 * shuffles, (16 * n - 29) / 90 * shuffles)


def serial_statistic(serials: list[float], n: int) -> Statistic:
    """Lag-1 serial correlation of consecutive cards' places in the fresh deck, averaged over the
    shuffles: for a random order its expectation is exactly -1/n; the variance is the sample's."""
    sd = statistics.stdev(serials)
    return _z_squared("serial correlation of consecutive cards (z²)", sum(serials), -len(serials) / n,
                      sd * sd * len(serials))


@bench("shuffle")
def shuffle_bench(rounds: int = 50_000) -> None:
    """The shuffle's statistics: ``rounds`` shuffles with a seeded generator, then the product's."""
    for label, rng in ((f"random.Random(24) (repeatable), {rounds} shuffles of 52 cards", random.Random(24)),
                       (f"secrets.SystemRandom (the product's; changes every run), {rounds} shuffles", secrets.SystemRandom())):
        print(f"shuffle statistics at {CONFIDENCE:.0%} confidence, {label}:")
        results = shuffle_statistics(cabinet_shuffle(rng), rounds)
        for s in results:
            print("  " + s.line())
        print(f"  {sum(s.passed for s in results)} of {len(results)} pass")
