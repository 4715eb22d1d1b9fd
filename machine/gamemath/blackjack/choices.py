"""The choices of a blackjack hand as the exact analysis orders and values them.

Owns: ``ACTION_ORDER`` (the engine's order of the choices: ties go to the earlier),
``best_of_values`` (the best choice of a hand's values) and when the three-sevens bonus tells a
hand apart (``sevens_pending``, ``stands_on_sevens_bonus``, ``doubles_to_sevens_bonus``). Shared
by the Python tables (``table``) and their compiled twin (``exact_fast``), which import it and
not each other's. Reads the rule of three sevens from ``shoe``; writes none.
"""

from __future__ import annotations

from collections.abc import Callable

from machine.gamemath.blackjack.shoe import Comp, earns_three_sevens, score

ACTION_ORDER = ("stand", "hit", "double", "split", "surrender")


def best_of_values(value: Callable[[str], float], options: tuple[str, ...]) -> tuple[str, float]:
    """The action of ``options`` of highest ``value`` and that value; ties go to the earlier of
    ``ACTION_ORDER``."""
    best_a, best_v = "", float("-inf")
    for a in ACTION_ORDER:
        if a in options:
            v = value(a)
            if v > best_v:
                best_a, best_v = a, v
    return best_a, best_v


def sevens_pending(hand: Comp, split: bool) -> bool:
    """Whether the three-sevens bonus could still tell ``hand`` apart: sevens only, at most
    three of them, not a split hand."""
    return not split and bool(hand[6]) and hand[6] == sum(hand) <= 3


def stands_on_sevens_bonus(bonus: float, hand: Comp, split: bool) -> bool:
    """Whether ``hand`` (drawn to, not doubled) is three sevens that earn the bonus ``bonus``."""
    return bool(bonus) and sevens_pending(hand, split) and score(hand)[0] == 21


def doubles_to_sevens_bonus(bonus: float, hand: Comp, split: bool) -> bool:
    """Whether ``hand``, the card a double drew included, earns the three-sevens bonus ``bonus``."""
    return bool(bonus) and earns_three_sevens(hand, split)
