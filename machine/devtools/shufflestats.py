"""The statistics regulators ask of a shuffle, run on the cabinet's own shuffle (issue 24, item 8).

Owns: three tests of ``machine.games.cards.shuffle`` at 99 % confidence, each a ``Finding``
(statistic, degrees of freedom or none, critical value, pass):

* **positions** — Pearson's chi-square of where each card of a 52-card deck lands over many
  shuffles (a 52 x 52 table whose rows and columns each sum to the shuffles: (52 - 1)^2 degrees
  of freedom); the critical value by the Wilson–Hilferty approximation of the chi-square
  quantile (no SciPy on a cabinet);
* **runs** — the Wald–Wolfowitz runs test on the dealt cards of each deck, each card read as
  above or below the deck's median, summed over the decks: a z-score, two-sided;
* **serial** — the correlation of the card at each position with the card at the same position
  of the next shuffle (a cabinet's rounds must not remember each other): a z-score, two-sided.

The product shuffles from ``secrets.SystemRandom``; the benchmark runs the same shuffle with a
seeded ``random.Random`` (repeatable figures) and with the system source. Never writes a file.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from machine.games.cards import shuffle

DECK = 52
Z_ONE_SIDED_99 = 2.3263  # the standard normal's 99th percentile
Z_TWO_SIDED_99 = 2.5758  # its 99.5th: a two-sided test at 99 %


@dataclass(frozen=True)
class Finding:
    name: str
    statistic: float
    df: int | None  # None: a z-score
    critical: float
    passed: bool

    def line(self) -> str:
        df = f", {self.df} degrees of freedom" if self.df is not None else ""
        return (f"{self.name}: {self.statistic:.3f}{df}, critical {self.critical:.3f} at 99 %: "
                f"{'pass' if self.passed else 'FAIL'}")


def chi_square_critical(df: int, z: float = Z_ONE_SIDED_99) -> float:
    """The chi-square quantile for ``df`` degrees of freedom at the normal quantile ``z``
    (Wilson–Hilferty: within a fraction of a per cent for df of a few hundred or more)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def shuffles(count: int, rng: random.Random) -> list[list[int]]:
    """``count`` shuffles of a deck of ``DECK`` distinct cards, by the cabinet's shuffle."""
    deck = list(range(DECK))
    return [shuffle(deck, rng) for _ in range(count)]  # type: ignore[arg-type, misc]


def positions(decks: list[list[int]]) -> Finding:
    counts = [[0] * DECK for _ in range(DECK)]
    for d in decks:
        for pos, card in enumerate(d):
            counts[card][pos] += 1
    expected = len(decks) / DECK
    # Pearson's sum over a table of permutations is (DECK - 1)^2 degrees of freedom only times
    # (DECK - 1) / DECK: each entry's variance is (DECK - 1) / DECK^2 of the shuffles, not
    # 1 / DECK (unscaled, its mean is DECK (DECK - 1), and "99 %" rejected a fair shuffle 4.5 % of the time)
    stat = sum((o - expected) ** 2 / expected for row in counts for o in row) * (DECK - 1) / DECK
    df = (DECK - 1) ** 2
    critical = chi_square_critical(df)
    return Finding("positions (chi-square)", stat, df, critical, stat <= critical)


def runs(decks: list[list[int]]) -> Finding:
    """Each deck's runs of cards above and below the median (26 and 26: the Wald–Wolfowitz
    mean and variance of a random arrangement hold for each deck exactly), summed over the decks."""
    n1 = n2 = DECK // 2
    mean = 2.0 * n1 * n2 / (n1 + n2) + 1.0
    var = 2.0 * n1 * n2 * (2.0 * n1 * n2 - n1 - n2) / ((n1 + n2) ** 2 * (n1 + n2 - 1))
    observed = 0
    for d in decks:
        signs = [card >= n1 for card in d]
        observed += 1 + sum(a != b for a, b in zip(signs, signs[1:], strict=False))
    z = (observed - mean * len(decks)) / math.sqrt(var * len(decks))
    return Finding("runs above/below the median (z)", z, None, Z_TWO_SIDED_99, abs(z) <= Z_TWO_SIDED_99)


def serial(decks: list[list[int]]) -> Finding:
    xs = [card for d in decks[:-1] for card in d]
    ys = [card for d in decks[1:] for card in d]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    cov = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sx = math.sqrt(sum((x - mx) ** 2 for x in xs))
    sy = math.sqrt(sum((y - my) ** 2 for y in ys))
    r = cov / (sx * sy)
    z = r * math.sqrt(n)
    return Finding("serial correlation, shuffle to shuffle (z)", z, None, Z_TWO_SIDED_99, abs(z) <= Z_TWO_SIDED_99)


def run_all(count: int, rng: random.Random) -> list[Finding]:
    decks = shuffles(count, rng)
    return [positions(decks), runs(decks), serial(decks)]


def shuffle_bench(rounds: int = 100_000) -> None:
    """``cabinet bench shuffle [--rounds N]``: the three tests over N shuffles, seeded and from
    the system's random source (the product's)."""
    import secrets
    import time

    for label, rng in (("seeded random.Random(2024)", random.Random(2024)), ("secrets.SystemRandom", secrets.SystemRandom())):
        start = time.perf_counter()
        found = run_all(rounds, rng)
        print(f"{label}: {rounds} shuffles of {DECK} cards in {time.perf_counter() - start:.1f} s")
        for f in found:
            print(f"  {f.line()}")
