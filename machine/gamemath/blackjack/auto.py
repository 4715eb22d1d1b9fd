"""Auto: the best choice for the decision a round is waiting on.

Owns: the expected value of each action a seat may take on one hand (``action_values``), the
choice with the highest one (``best_action``), and ``auto_action``, which reads a ``Round``'s
pending decision and answers it with one of the actions the engine offers. It only reads the
round; it never acts on it.

Every figure uses the seat's own cards and the up card (other seats' cards are not counted),
and the shoe is fresh each round, so a rule set has a finite table of answers: the first call
for an up card computes that up card's tables (a fraction of a second for six decks; ``prepare``
does all of them at once), later calls are dictionary lookups.

A split hand is valued from its own cards (CDZ-), and a pair on a split hand is split again
when splitting the pair beats its other choices, as the RTP in ``game`` assumes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from machine.gamemath import tablecache
from machine.gamemath.blackjack.game import TABLES, Analysis, analysis, best_of, tables_key
from machine.gamemath.blackjack.shoe import from_values, is_natural, score, size
from machine.games.blackjack import scoring as bj
from machine.games.blackjack.round import Decision, Round
from machine.games.blackjack.rules import Rules
from machine.games.cards import value


def prepare(
    rules: Rules, progress: Callable[[int, int], None] | None = None, workers: int | None = None
) -> Analysis:
    """Compute every table of ``rules`` now (so that no later decision waits for one), or read
    them from the cache folder; what was computed is left there for the next process.
    ``progress(done, of)``: the up cards computed so far (not called when all were read);
    ``workers``: threads (default one per core)."""
    an = analysis(rules)
    if an.compute_all(workers, progress):
        tablecache.save(TABLES, tables_key(rules), an.packed())
    return an


def action_values(
    rules: Rules,
    cards: Sequence[int],
    up: int,
    options: Iterable[str] | None = None,
    from_split: bool = False,
    split_aces: bool = False,
    first_hand: bool = True,
) -> dict[str, float]:
    """Expected net result of each action on a hand, per original bet.

    ``cards`` are values 1..10 (ace 1), ``up`` the up card's value. ``options`` defaults to what
    the engine offers a fresh seat with money enough (a split hand: no surrender). In a hole-card
    game against an ace or a ten the values are conditioned on no dealer blackjack (the peek
    has happened when the seat plays); without a hole card the dealer's blackjack is counted.
    Insurance and early surrender are not play actions: see ``insurance_value`` and
    ``first_choice``. ``split_aces`` marks a hand made by splitting aces; ``first_hand`` says a
    split hand is the seat's first (leftmost) one, which ``no_hole_card_loses: original`` values
    apart (``table``).
    """
    an = analysis(rules)
    hand = from_values(list(cards))
    t = an.table(up)
    play = t.play(first=first_hand or not from_split)
    n = size(hand)
    if n < 2:
        raise ValueError("a hand to decide on has at least two cards")
    if n == 2 and not from_split:
        if is_natural(hand):
            values = {"stand": an.natural_value(hand, up)}
        else:
            values = an.first_values(hand, up)
    elif n == 2:
        limit = rules.max_splits_and_doubles
        opts = t.options(hand, True, limit is None or limit >= 1, split_aces and rules.split_aces_one_card)
        values = {a: play.value(hand, True, a) for a in opts}
        if 2 in hand:
            v = an.split(up, hand.index(2) + 1)
            if v is not None:
                values["split"] = v
    else:
        values = {"stand": play.stand(hand)}
        if score(hand)[0] < 21:
            values["hit"] = play.hit(hand, from_split)
    if options is not None:
        allowed = set(options)
        values = {a: v for a, v in values.items() if a in allowed}
    if bj.dealer_peeks(rules.hole_card, up):
        m = t.mass(hand)
        if m > 0:
            values = {a: v / m for a, v in values.items()}
    return values


def best_action(
    rules: Rules,
    cards: Sequence[int],
    up: int,
    options: Iterable[str] | None = None,
    from_split: bool = False,
    split_aces: bool = False,
    first_hand: bool = True,
) -> str:
    """The action with the highest expected value (see ``action_values``)."""
    values = action_values(rules, cards, up, options, from_split, split_aces, first_hand)
    if not values:
        raise ValueError("no action to choose from")
    return best_of(values)


def insurance_value(rules: Rules, cards: Sequence[int], up: int) -> float:
    """Net value of insuring two cards against the up card, per original bet (0 unless an ace)."""
    return analysis(rules).insurance(from_values(list(cards)), up)


def first_choice(rules: Rules, cards: Sequence[int], up: int) -> tuple[str, float]:
    """Auto's choice on the first two cards, early surrender included, and its plain value."""
    return analysis(rules).first_decision(from_values(list(cards)), up)


def play_choice(
    rules: Rules, cards: Sequence[int], up: int, options: tuple[str, ...], from_split: bool, split_aces: bool,
    first_hand: bool = True,
) -> str:
    """Auto's answer to a play decision on a hand of card values: always one of ``options``."""
    values = action_values(rules, cards, up, options, from_split, split_aces, first_hand)
    choice = best_of(values) if values else ""
    return choice if choice in options else options[0]


def auto_action(rnd: Round) -> str:
    """Auto's answer to ``rnd.pending``: always one of the decision's options."""
    d: Decision | None = rnd.pending
    if d is None:
        raise ValueError("the round is not waiting on a decision")
    rules = rnd.rules
    up = value(rnd.dealer[0])
    seat = rnd.seat(d.seat)
    if d.kind == "insurance":
        cards = [value(c) for c in seat.hands[0].cards]
        choice = "insure" if insurance_value(rules, cards, up) > 0 else "no_insurance"
    elif d.kind == "surrender":
        cards = [value(c) for c in seat.hands[0].cards]
        choice = "surrender" if first_choice(rules, cards, up)[0] == "surrender" else "continue"
    else:
        assert d.hand is not None
        hand = seat.hands[d.hand]
        return play_choice(
            rules, [value(c) for c in hand.cards], up, d.options, hand.from_split, hand.split_aces, d.hand == 0
        )
    if choice not in d.options:
        choice = d.options[0]
    return choice

