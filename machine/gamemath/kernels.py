"""The compiled-kernel toolkit every game's fast path shares (numba: ``pip install cabinet[fast]``).

Owns: the kernels' own generator (xoshiro256** seeded through splitmix64: ``rng_seeded``, and
``deal``, the lazily shuffled card a round draws), the fully shuffled shoes of the
round-for-round checks (``shuffled``, numba's generator) and the first cards as the simulators
deal them (``lazy_deals``), how a run is split into seeded chunks (``chunk_plan``, ``seed32``,
``FAST_CHUNK``), the decorator of what the kernels inline without reference counting
(``inline_kernel``, ``NO_NRT``) and numba's cache locator that follows the rule files compiled
into a kernel (``cache_follows``). Knows no game: each game's ``fast`` module holds its own
round, tables and checks, and never writes a generator or a chunk plan of its own.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

try:
    import numba
    import numpy as np
    from numba import njit
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "the fast simulator needs numba: pip install 'cabinet[fast]' (or pip install numba)"
    ) from exc

FAST_CHUNK = 50_000
"""Rounds per chunk: each chunk has its own seed, so a seed gives the same figure on any threads."""


# The rounds and their loops are compiled without numba's reference counting (NRT): they
# allocate nothing, and the atomic reference counts on the dozen arrays a round touches cost
# more than the round itself (blackjack: 4.4 M against 7.6 M rounds/s on one core). ``_nrt`` is
# a private numba option: if a numba without it comes, the kernels compile with NRT, slower but
# the same.
try:
    from numba.core.cpu import CPUTargetOptions

    NO_NRT = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}
except ImportError:  # pragma: no cover
    NO_NRT = {}


class FastSimError(RuntimeError):
    """The fast path cannot play these settings (or met a state it cannot answer)."""


_FOLLOWED: dict[str, str] = {}  # a kernels' file -> the digest of the rule files compiled into it


def cache_follows(kernel_file: str, *rule_files: str) -> str:
    """Make numba's cached kernels of ``kernel_file`` go stale when a file of ``rule_files``
    changes; returns the digest of those files.

    Numba stamps a cached kernel with the source of the file it is written in only, but these
    kernels compile the rules of other files into themselves. Each cache locator gets a
    variant, for the files named here only, whose stamp adds a digest of the rules' source.
    (Numba's locator classes are its internals: without them, a rules change needs the cache
    cleared.) Every game's fast path calls it with its rule files and this file.
    """
    h = hashlib.sha256()
    for f in rule_files:
        h.update(Path(f).read_bytes())
    digest = h.hexdigest()
    _FOLLOWED[os.path.abspath(kernel_file)] = digest
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover
        return digest
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or any(getattr(c, "follows_rules", False) for c in classes):
        return digest

    class FollowsRules:
        follows_rules = True
        _rules_digest = ""

        @classmethod
        def from_function(cls, py_func, py_file):
            digest = _FOLLOWED.get(os.path.abspath(py_file))
            if digest is None:
                return None
            self = super().from_function(py_func, py_file)  # type: ignore[misc]
            if self is not None:
                self.rules_digest = digest
            return self

        def get_source_stamp(self):
            return super().get_source_stamp(), self.rules_digest  # type: ignore[misc,attr-defined]

    classes[:0] = [type(f"{c.__name__}FollowingRules", (FollowsRules, c), {}) for c in classes]
    return digest


inline_kernel = njit(cache=True, inline="always", **NO_NRT)
"""Compile a function to be inlined in the kernels, without numba's reference counting: the
rules of ``blackjack_rules`` here, and the rounds of every fast path (they allocate nothing, and
a call per round or per hand passing a dozen arrays would pay atomic reference counts on each)."""

# The kernels' own generator: xoshiro256** (Blackman and Vigna), its four words of state in an
# array ``rng`` the round passes along, seeded per chunk through splitmix64. Inlined, a card
# costs a few nanoseconds; numba's np.random (the Mersenne twister behind a thread-local state
# looked up on every call, and a rejection loop over bit masks) cost 33 ns a card here, the
# larger part of a round. Every fast path deals its rounds with it (``deal``): blackjack,
# ochko, eenentwintig, 31. (The fully shuffled shoes of the round-for-round checks, ``shuffled``, still
# come from numba's generator: they are made once per check, and their seeds pin the cases the
# checks are known to reach.)
_U64 = np.uint64
_MASK32 = np.uint64(0xFFFFFFFF)


@inline_kernel
def _rotl(x, k):
    return (x << _U64(k)) | (x >> _U64(64 - k))


@inline_kernel
def _next64(rng):
    """The next 64 random bits of the generator ``rng`` (xoshiro256**)."""
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    result = _rotl(s1 * _U64(5), 7) * _U64(9)
    t = s1 << _U64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    rng[0], rng[1], rng[2], rng[3] = s0, s1, s2, _rotl(s3, 45)
    return result


@njit(cache=True)
def rng_seeded(seed):
    """A generator's state from a seed: four splitmix64 outputs (never all zero)."""
    rng = np.empty(4, np.uint64)
    x = _U64(seed)
    for i in range(4):
        x += _U64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> _U64(30))) * _U64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> _U64(27))) * _U64(0x94D049BB133111EB)
        rng[i] = z ^ (z >> _U64(31))
    return rng


@inline_kernel
def _below(rng, k):
    """A uniform integer in [0, k), 1 <= k < 2**32, exactly: Lemire's multiply and shift, a
    product whose low word falls under 2**32 mod k drawn again."""
    kk = _U64(k)
    m = (_next64(rng) >> _U64(32)) * kk
    low = m & _MASK32
    if low < kk:
        floor = (_U64(0x100000000) - kk) % kk
        while low < floor:
            m = (_next64(rng) >> _U64(32)) * kk
            low = m & _MASK32
    return np.int64(m >> _U64(32))


@inline_kernel
def deal(deck, pos, lazy, rng):
    """The card at ``pos``; lazily shuffled (``lazy``): first swap in a uniform pick, from the
    generator ``rng``, of the cards left."""
    if lazy:
        j = pos + _below(rng, deck.shape[0] - pos)
        c = deck[j]
        deck[j] = deck[pos]
        deck[pos] = c
        return c
    return deck[pos]


@njit(cache=True)
def shuffled(base, count, seed):
    """``count`` full Fisher-Yates shuffles of ``base`` from numba's generator seeded by ``seed``."""
    np.random.seed(seed)
    out = np.empty((count, base.shape[0]), base.dtype)
    deck = base.copy()
    for r in range(count):
        for i in range(deck.shape[0] - 1, 0, -1):
            j = np.random.randint(0, i + 1)
            c = deck[i]
            deck[i] = deck[j]
            deck[j] = c
        out[r] = deck
    return out


@njit(cache=True)
def lazy_deals(base, cards, count, seed):
    """The first ``cards`` cards of ``count`` rounds dealt as the simulator deals them (``deal``)."""
    rng = rng_seeded(seed)
    out = np.empty((count, cards), base.dtype)
    deck = base.copy()
    for r in range(count):
        for pos in range(cards):
            out[r, pos] = deal(deck, pos, True, rng)
    return out


def seed32(kind: str, seed: int, chunk: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{kind}/{seed}/{chunk}".encode()).digest()[:4], "little")


def chunk_plan(kind: str, rounds: int, seed: int, workers: int | None) -> tuple[int, np.ndarray, np.ndarray]:
    """How a fast path splits ``rounds``: the threads to run (``workers``, else every core numba
    may use), each chunk's rounds (``FAST_CHUNK`` at most) and each chunk's own 32-bit seed, so a
    seed gives the same figure on any number of threads."""
    threads = max(1, min(workers or os.cpu_count() or 1, numba.config.NUMBA_NUM_THREADS))
    counts = [min(FAST_CHUNK, rounds - start) for start in range(0, rounds, FAST_CHUNK)]
    seeds = np.array([seed32(kind, seed, c) for c in range(len(counts))], np.int64)
    return threads, np.array(counts, np.int64), seeds

