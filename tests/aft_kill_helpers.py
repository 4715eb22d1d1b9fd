"""A cabinet of the crash test's settings on a data folder, for the AFT kill tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.core.cabinet import open_cabinet
from machine.devtools.crashtest import SETTINGS, shoes_for, simple_player
from machine.games.blackjack.game import BlackjackGame
from machine.profiles import load_profile


def boot(data: Path, memory: Any, hook: Callable[[str], None] | None) -> Any:
    return open_cabinet(data / "journal.sqlite", load_profile("random-blackjack"), SETTINGS,
                        lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory, hook, create=True)


def coins(data: Path, points: int) -> None:
    """``points`` onto seat 1's credit meter as 20-point coins, before the transfers."""
    from machine.devtools.crashtest import memory_of

    cab = boot(data, memory_of(data), None)
    for _ in range(points // 20):
        cab.coin(1, "EU200A", 0.0)
    cab.journal.close()
