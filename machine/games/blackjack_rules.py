"""The rules of the blackjack family, each written once.

Owns: a hand's total (from its hard total and whether it holds an ace, or from its counts of
the values 1..10), the natural, the three sevens, the dealer's drawing rule, the peek, which
hands wait for the dealer, and the settlement table: a hand's result and return against the
dealer's final hand, what a blackjack, the three-sevens bonus and insurance return.

Used by the engine (``games.hand``, ``games.round``), the exact analysis (``gamemath``) and the
compiled fast simulator, which compiles these very functions with numba
(``njit(rule)``). So every function here takes and returns plain ints, bools and tuples of
them, calls no other function (a compiled caller could not call a plain one), and never
touches an object, a dict, a string or a ``Fraction``: a ratio of the rules comes in as its
numerator and denominator. Never decides the order of a round, who is asked what, or what a
seat can afford; never does I/O.

A card is its value here: 1 for the ace, 10 for a ten or a face card.
"""

from __future__ import annotations

# A hand's result, as ``settle_hand`` returns it; RESULTS names them as a round records them.
LOSE, PUSH, WIN, BLACKJACK, SURRENDER = 0, 1, 2, 3, 4
RESULTS = ("lose", "push", "win", "blackjack", "surrender")


def hand_score(hard: int, has_ace: bool, aces_hard: bool) -> tuple[int, bool]:
    """(total, soft): one ace counts 11 when that keeps the total at 21 or less.

    ``hard`` counts every ace as 1. ``aces_hard`` is Random Blackjack's rule after a double:
    every ace counts 1.
    """
    if has_ace and not aces_hard and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def counts_hard_total(counts: tuple[int, ...]) -> int:
    """The hard total of a hand given as its counts of the values 1 (ace) .. 10."""
    total = 0
    for i in range(len(counts)):
        total += (i + 1) * counts[i]
    return total


def is_natural(n_cards: int, hard: int, has_ace: bool) -> bool:
    """An ace and a ten-value card as exactly two cards (the caller rules out split hands)."""
    return n_cards == 2 and hard == 11 and bool(has_ace)


def earns_three_sevens(from_split: bool, n_cards: int, sevens: int) -> bool:
    """Whether a hand earns the three-sevens bonus: exactly three cards, all sevens, not a split hand."""
    return not from_split and n_cards == 3 and sevens == 3


def dealer_draws(total: int, soft: bool, hits_soft_17: bool) -> bool:
    """Whether the dealer takes another card: below 17, and on soft 17 when the rules say so."""
    return total < 17 or (total == 17 and bool(soft) and bool(hits_soft_17))


def dealer_peeks(hole_card: bool, up: int) -> bool:
    """Whether the dealer looks at the hole card for a blackjack: a hole card under an ace or a ten."""
    return bool(hole_card) and (up == 1 or up == 10)


def waits_for_dealer(total: int, charlie: bool, surrendered: bool, early_surrender: bool) -> bool:
    """Whether a hand's result depends on the dealer's hand (a bust or a charlie is settled
    already; an early surrender too, a late one loses all to a dealer blackjack)."""
    if total > 21 or charlie:
        return False
    return not (surrendered and early_surrender)


def settle_hand(
    stake: int,
    total: int,
    natural: bool,
    surrendered: bool,
    charlie: bool,
    dealer_total: int,
    dealer_natural: bool,
    late_surrender: bool,
    blackjack_num: int,
    blackjack_den: int,
) -> tuple[int, int]:
    """(result, returned) of a hand against the dealer's final hand; returned includes the stake.

    ``natural`` is a blackjack of the seat (not on a split hand); ``total`` counts the aces as
    the hand does (hard after a double when the rules say so); a blackjack pays
    ``blackjack_num / blackjack_den`` to 1, rounded down to a whole point.
    """
    if surrendered:
        if late_surrender and dealer_natural:
            return SURRENDER, 0
        return SURRENDER, stake // 2
    if total > 21:
        return LOSE, 0
    if charlie:
        return WIN, 2 * stake
    if natural:
        if dealer_natural:
            return PUSH, stake
        return BLACKJACK, stake + stake * blackjack_num // blackjack_den
    if dealer_natural:
        return LOSE, 0
    if dealer_total > 21 or total > dealer_total:
        return WIN, 2 * stake
    if total == dealer_total:
        return PUSH, stake
    return LOSE, 0


def ratio_of(points: int, num: int, den: int) -> int:
    """``num / den`` of a whole number of points, rounded down (the three-sevens bonus of a bet)."""
    return points * num // den


def insurance_return(amount: int, dealer_natural: bool, pays_num: int, pays_den: int) -> int:
    """What an insurance of ``amount`` returns: stake and ``pays_num / pays_den`` to 1 (rounded
    down) when the dealer has blackjack, else nothing."""
    if amount <= 0 or not dealer_natural:
        return 0
    return amount * (pays_den + pays_num) // pays_den
