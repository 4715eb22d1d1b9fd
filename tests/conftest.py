"""Shared fixtures, and the cache folder of the whole run.

Every test process (pytest, its xdist workers and the commands the tests start, which inherit
the environment) keeps its cached tables (``machine.gamemath.tablecache``) in one folder made
for the run before anything is collected, so each rule set's tables are computed once per run
and the user's own cache is never read or written. The folder is removed at the end.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from machine.games.blackjack.rules import Rules
from machine.profiles import load_profile

_OWN_CACHE: list[str] = []  # the folder this process made (the controller's, or a lone run's)


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # a worker inherits the controller's folder
        folder = tempfile.mkdtemp(prefix="cabinet-cache-")
        _OWN_CACHE.append(folder)
        os.environ["CABINET_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def rb_rules() -> Rules:
    return load_profile("random-blackjack").rules


@pytest.fixture
def casino_rules() -> Rules:
    return load_profile("casino-blackjack").rules


@pytest.fixture(autouse=True, scope="session")
def _test_key_file(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``cabinet audit`` reads the test journals' key (tests.cabinet_helpers.TEST_KEY) from
    $CABINET_KEY, as an auditor would give a cabinet's key."""
    import os

    from tests.cabinet_helpers import TEST_KEY

    path = tmp_path_factory.mktemp("key") / "machine.key"
    path.write_text(TEST_KEY.hex() + "\n")
    path.chmod(0o600)
    os.environ["CABINET_KEY"] = str(path)
