"""The rules of the blackjack family, each written once.

Owns: a hand's total (from its hard total and whether it holds an ace, or from its counts of
the values 1..10), the natural, the three sevens, the dealer's drawing rule, the peek, which
hands and insurances wait for the dealer, and the settlement table: a hand's result and return
against the dealer's final hand under the table variants (late surrender, a dealer blackjack
taking the original bet only, the dealer winning ties, the player's 21 winning), what a
blackjack, the three-sevens bonus and insurance return.

Used by the engine (``blackjack.hand``, ``blackjack.round``), by ochko and eenentwintig where
their rule is blackjack's (the result codes, a hand's total, the dealer's draw, a hand
settled), by the exact analysis (``gamemath``) and by the compiled fast simulator, which
compiles these very functions with numba (``njit(rule)``). So every function here takes and
returns plain ints, bools and tuples of them, calls no other function (a compiled caller
could not call a plain one), and never touches an object, a dict, a string or a ``Fraction``: a ratio of the rules comes in as its
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


def waits_for_dealer(
    total: int, natural: bool, charlie: bool, surrendered: bool, early_surrender: bool, hole_card: bool
) -> bool:
    """Whether a hand's result still depends on the dealer's hand, so that the dealer plays.

    A bust and a five-card charlie are settled already, and so is an early surrender. With a
    hole card the peek has settled the rest of what a dealer blackjack decides: a blackjack
    and a (late) surrender no longer wait. Without one, a blackjack waits for the dealer's
    second card, and so does a late surrender (it loses all to a dealer blackjack).
    """
    if total > 21 or charlie:
        return False
    if surrendered:
        return not early_surrender and not hole_card
    if natural:
        return not hole_card
    return True


def insurance_waits_for_dealer(hole_card: bool) -> bool:
    """Whether an insurance still depends on the dealer: without a hole card it waits for the
    dealer's second card; with one, the peek has settled it."""
    return not hole_card


def settle_hand(
    stake: int,
    bet: int,
    total: int,
    natural: bool,
    surrendered: bool,
    charlie: bool,
    first_hand: bool,
    dealer_total: int,
    dealer_natural: bool,
    late_surrender: bool,
    original_only: bool,
    ties_mask: int,
    player_21_wins: bool,
    blackjack_num: int,
    blackjack_den: int,
) -> tuple[int, int]:
    """(result, returned) of a hand against the dealer's final hand; returned includes the stake.

    ``bet`` is the seat's original bet; ``first_hand`` says the hand is the seat's first (its
    only one, or the leftmost after splits). ``natural`` is a blackjack of the seat (not on a
    split hand); ``total`` counts the aces as the hand does (hard after a double when the rules
    say so); a blackjack pays ``blackjack_num / blackjack_den`` to 1, rounded down to a whole
    point. The table variants:

    * ``late_surrender``: a surrendered hand loses its whole stake to a dealer blackjack (only
      possible without a hole card: with one, late surrender comes after the peek);
    * ``original_only`` (``no_hole_card_loses: original``): a dealer blackjack takes only the
      original bet, from the first hand (its double comes back), and every other hand's stake
      comes back; a bust has lost already;
    * ``ties_mask``: bit t set means a tie on total t loses (``dealer_wins_ties``);
    * ``player_21_wins``: any player 21 beats a dealer 21 that is not a blackjack, and a
      player blackjack beats a dealer blackjack, paid as a blackjack.
    """
    if surrendered:
        if late_surrender and dealer_natural:
            return LOSE, 0
        return SURRENDER, stake // 2
    if total > 21:
        return LOSE, 0
    if charlie:
        return WIN, 2 * stake
    if natural:
        if dealer_natural and not player_21_wins:
            return PUSH, stake
        return BLACKJACK, stake + stake * blackjack_num // blackjack_den
    if dealer_natural:
        if original_only:
            if first_hand:
                return LOSE, stake - bet
            return PUSH, stake
        return LOSE, 0
    if dealer_total > 21 or total > dealer_total:
        return WIN, 2 * stake
    if total == dealer_total:
        if total == 21 and player_21_wins:
            return WIN, 2 * stake
        if (ties_mask >> total) & 1:
            return LOSE, 0
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
