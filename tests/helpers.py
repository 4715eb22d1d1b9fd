"""Helpers for the tests: play a scripted round from a compact description; a cheap operator PIN."""

from __future__ import annotations

from typing import Any

from machine.operator.pin import hash_pin
from machine.scripts.roundscript import run_round_script

TEST_PIN = "1234"


def play(shoe: str, *seats: dict[str, Any], game: str = "random-blackjack", **rules: Any) -> dict[str, Any]:
    """Play a round script: ``shoe`` is space-separated card codes, first drawn first."""
    script = {"game": game, "rules": rules, "shoe": shoe.split(), "seats": list(seats)}
    return run_round_script(script)


def seat(bet: int = 10, *actions: str, insurance: Any = False) -> dict[str, Any]:
    return {"bet": bet, "insurance": insurance, "actions": list(actions)}




def stored_pin(pin: str = TEST_PIN) -> str:
    """``pin`` as ``operator_pin`` stores it, at a cost a test can afford (scrypt N=16, r=1: the
    check reads the parameters from the string, so the menu checks it as cheaply)."""
    return hash_pin(pin, n=16, r=1, p=1)


def pin_setting(pin: str = TEST_PIN) -> str:
    """The configuration line that sets the operator PIN (a test configuration needs one)."""
    return f"operator_pin: {stored_pin(pin)}\n"


def two_seats(*settings: str, bus: str = "sim", pin: str = TEST_PIN) -> str:
    """A two-seat machine configuration on the simulated panel and ``bus`` (acceptors 2 and 11,
    hopper 3), the usual coins, the operator PIN, and each of ``settings`` (YAML lines) added."""
    lines = ["seats: 2", "coins: {EU050A: 5, EU100A: 10, EU200A: 20}", *settings,
             f"devices: {{panel: sim, bus: {bus}, acceptors: {{1: 2, 2: 11}}, hoppers: [{{address: 3, seats: [1, 2]}}]}}"]
    return "\n".join(lines) + "\n" + pin_setting(pin)
