"""The decks of an eenendertigen tournament, derived from its seed so anyone can re-derive them.

Owns: ``tournament_deck(seed, variant, round)`` and ``tournament_decks``. Every participant of a
tournament gets exactly these decks, round by round. Pure: the seed is the only input; no clock,
no OS random source (the cabinet draws the seed when the operator opens the tournament).

The derivation, exactly (so it can be written again in any language):

1. ``key = SHA-256("eenendertigen-deals/v1/" + variant + "/" + seed + "/" + str(round))``, the
   text UTF-8 encoded; ``seed`` is the seed's text exactly as published, ``round`` counts from 1.
2. The byte stream is ``SHA-256(key || counter)`` for counter = 0, 1, 2, ... (the counter as 8
   bytes, big-endian), the 32-byte blocks one after another.
3. A uniform integer in [0, n) reads the next 4 bytes of the stream as a big-endian unsigned
   ``w``; when ``w >= 2^32 - (2^32 mod n)`` those bytes are skipped and the next 4 read
   (rejection: no bias); else the integer is ``w mod n``.
4. The deck starts in the fixed order of ``cards.deck``: suit by suit (S, H, D, C), in each suit
   the ranks in the order ``A23456789TJQK`` (classic: ``789TJQKA``, the 32-card deck). Then
   Fisher-Yates: for i = len-1 down to 1, j = uniform(i + 1), swap cards i and j.
5. The deck is dealt from its first card (``cabinet round``'s ``shoe`` order).
"""

from __future__ import annotations

import hashlib

from machine.games.cards import deck, shuffle
from machine.games.eenendertigen.rules import VARIANTS, ranks_of

TOURNAMENT_ROUNDS = 16


class HashStream:
    """The counter-mode SHA-256 byte stream of step 2, with ``randrange`` as in step 3."""

    def __init__(self, key: bytes):
        self.key = key
        self.counter = 0
        self.buffer = b""

    def _bytes(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += hashlib.sha256(self.key + self.counter.to_bytes(8, "big")).digest()
            self.counter += 1
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def randrange(self, n: int, /) -> int:
        limit = 2**32 - (2**32 % n)
        while True:
            w = int.from_bytes(self._bytes(4), "big")
            if w < limit:
                return w % n


def tournament_deck(seed: str, variant: str, round_number: int) -> list[str]:
    """The deck of round ``round_number`` (1-based) of the tournament with ``seed``."""
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if round_number < 1:
        raise ValueError(f"rounds count from 1, not {round_number}")
    key = hashlib.sha256(f"eenendertigen-deals/v1/{variant}/{seed}/{round_number}".encode()).digest()
    return shuffle(deck(ranks_of(variant)), HashStream(key))


def tournament_decks(seed: str, variant: str, rounds: int = TOURNAMENT_ROUNDS) -> list[list[str]]:
    """Every deck of the tournament, round 1 first."""
    if rounds < 1:
        raise ValueError(f"a tournament has at least one round, not {rounds}")
    return [tournament_deck(seed, variant, n) for n in range(1, rounds + 1)]
