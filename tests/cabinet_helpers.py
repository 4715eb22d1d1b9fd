"""Build a cabinet core on a journal in a temporary folder, with stacked or seeded shoes."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from machine.core.cabinet import Cabinet, CabinetSettings, open_cabinet
from machine.games.blackjack.game import BlackjackGame
from machine.games.blackjack.round import Round
from machine.games.cards import shuffle
from machine.money.memory import FileHeadStore, Memory, MemoryHeadStore
from machine.profiles import load_profile

TEST_KEY = bytes(range(32))  # the machine key of every test journal
_HEADS: dict[Path, MemoryHeadStore] = {}  # each test folder's head store, kept across the test's restarts


def memory(tmp: Path, files: bool = False) -> Memory:
    """The memory of a test journal in ``tmp``: the test key and a head store in memory that a
    restart of the cabinet in the same test finds again; ``files``: the head in a file in ``tmp``
    (a test that kills a forked child: the head must outlive the process)."""
    if files:
        return Memory(TEST_KEY, (FileHeadStore(tmp / "heads", tmp / "journal.sqlite"),))
    return Memory(TEST_KEY, (_HEADS.setdefault(Path(tmp).resolve(), MemoryHeadStore()),))


def stand_player(rnd: Round) -> str:
    """A test player in the Auto slot: declines insurance and early surrender, then stands."""
    d = rnd.pending
    assert d is not None
    return {"insurance": "no_insurance", "surrender": "continue"}.get(d.kind, "stand")


def stacked_shoes(*tops: str, seed: int = 1):
    """A shuffler: round n's shoe starts with the n-th written cards; the rest of the game's
    shoe (under the rules in force) is shuffled."""

    def shoe(cards: list[str], round_no: int) -> list[str]:
        top = tops[round_no - 1].split() if round_no <= len(tops) else []
        rest = Counter(cards)
        rest.subtract(top)
        return top + shuffle(sorted(rest.elements()), random.Random(seed * 1000 + round_no))

    return shoe


def boot(tmp: Path, shoes=None, settings: CabinetSettings | None = None, auto=stand_player, step_hook=None) -> Cabinet:
    return open_cabinet(
        tmp / "journal.sqlite",
        load_profile("random-blackjack"),
        settings or CabinetSettings(seats=2),
        lambda profile: BlackjackGame(profile, auto),
        shoes or stacked_shoes(),
        memory(tmp),
        step_hook,
        create=True,
    )
