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
