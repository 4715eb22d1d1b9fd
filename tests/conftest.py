"""Shared fixtures."""

from __future__ import annotations

import pytest

from machine.games.rules import Rules, load_profile


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
