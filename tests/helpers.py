"""Helpers for the tests: play a scripted round from a compact description."""

from __future__ import annotations

from typing import Any

from machine.scripts.roundscript import run_round_script


def play(shoe: str, *seats: dict[str, Any], game: str = "random-blackjack", **rules: Any) -> dict[str, Any]:
    """Play a round script: ``shoe`` is space-separated card codes, first drawn first."""
    script = {"game": game, "rules": rules, "shoe": shoe.split(), "seats": list(seats)}
    return run_round_script(script)


def seat(bet: int = 10, *actions: str, insurance: Any = False) -> dict[str, Any]:
    return {"bet": bet, "insurance": insurance, "actions": list(actions)}


