"""Shared fixtures, and the cache folder of the whole run.

Every test process (pytest and the commands it starts, which inherit the environment) keeps its
cached tables (``machine.gamemath.tablecache``) in one folder made for the run, so each rule
set's tables are computed once per run and never read from or written to the user's own cache.
Under pytest-xdist the workers share the folder (files are written whole, by rename).
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from machine.games.rules import Rules, load_profile


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # the run's folder, above each worker's own
    folder = str(base / "cabinet-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CABINET_CACHE_DIR", folder)
        yield folder


@pytest.fixture
def rb_rules() -> Rules:
    return load_profile("random-blackjack").rules


@pytest.fixture
def casino_rules() -> Rules:
    return load_profile("casino-blackjack").rules
