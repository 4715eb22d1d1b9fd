"""A toy game that lives in the tests only: one card each, the house's closed, swap once or stand.

It is the example of ``docs/game-interface.md``'s checklist "Adding a game": its settings
(``rules``), its round (``round``), its ``Game`` (``game``), its math module (``toymath``: the
game-math interface, Auto among it) and its script module (``toyscript``: ``cabinet round``),
registered in the game catalog by ``ENGINE`` (``tests/test_toy_game.py`` registers it for a test
and takes it out again). Nothing in the product names it.

The rules: every seat with a bet gets one card face up, the house one face down. In seat order
each seat stands or (where the table allows it) swaps its card once for the next card of the
shoe. Then the house turns its card: a higher rank (2 low, ace high) wins 1 to 1, the same rank
gives the stake back, a lower one loses it.
"""

from __future__ import annotations

from machine.games.catalog import Engine

from .game import ToyGame
from .rules import ToyRules

ENGINE = Engine("toy", ToyRules, ToyGame, "tests.toygame.toymath", "tests.toygame.toyscript")
PROFILE = "game: toy\nengine: toy\ntitle: High card\nrules: {max_bet: 20}\n"  # config/games/toy.yaml
