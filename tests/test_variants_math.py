"""The exact analysis of the table variants: pinned returns, Auto against the chart, and the
split of an original-bets-only game against brute force written here.

Figures are exact (the analysis, Auto's composition-dependent play, one seat); the engine
simulator and the fast path agree with them within their intervals in ``cabinet bench
variants`` (README, figures table), not in a test.
"""

from __future__ import annotations

import pytest

from machine.gamemath.blackjack import analysis, game_rtp
from machine.gamemath.blackjack.auto import auto_action
from machine.gamemath.blackjack.chart import chart_rtp
from machine.gamemath.blackjack.dealer import probs_batch
from machine.gamemath.blackjack.shoe import Shoe, merge, plus, score, shoe_of, unit
from machine.gamemath.blackjack.table import first_hand_apart, natural_pays, pay_rows
from machine.games.blackjack import scoring as bj
from machine.profiles import config_dir, load_profile
from machine.scripts.roundscript import run_round_script

# Pinned (regression) exact returns of the shipped casino-family profiles; cabinet rtp prints them.
PINNED = {
    "casino-blackjack": 1.0015312000,  # one deck, S17, DOA, DAS, one split, peek, 3:2: above 100 %
    "european-blackjack": 1.0014937090,  # the same without a hole card, original bets only
    "swedish-pub-blackjack": 0.9490566478,  # ties on 17, 18, 19 lose
    "spanish-21": 0.9920347096,  # no tens; the player's 21 wins
}


def blackjack_profiles() -> list[str]:
    names = sorted(p.stem for p in (config_dir() / "games").glob("*.yaml"))
    return [n for n in names if load_profile(n).engine == "blackjack"]


def test_every_casino_family_profile_is_pinned():
    assert set(PINNED) == set(blackjack_profiles()) - {"random-blackjack"}  # pinned in test_analysis


@pytest.mark.parametrize("game", sorted(PINNED))
def test_the_exact_return_of_each_profile_and_auto_is_never_worse_than_the_chart(game):
    rules = load_profile(game).rules
    auto = game_rtp(rules)
    assert auto.rtp == pytest.approx(PINNED[game], abs=1e-8)
    assert sum(auto.breakdown.values()) == pytest.approx(auto.rtp - 1, abs=1e-12)
    assert chart_rtp(rules).rtp <= auto.rtp


# -- the payoffs come from the settlement rule ----------------------------------------------------


def test_the_payoffs_of_a_standing_hand_are_the_settlement_rules():
    # against the dealer's 17, 18, 19, 20, 21, bust, blackjack
    swedish = pay_rows(load_profile("swedish-pub-blackjack").rules, False, True)
    assert swedish[18] == (1.0, -1.0, -1.0, -1.0, -1.0, 1.0, -1.0)  # a tie on 18 loses
    assert swedish[20] == (1.0, 1.0, 1.0, 0.0, -1.0, 1.0, -1.0)  # a tie on 20 pushes
    spanish = load_profile("spanish-21").rules
    assert pay_rows(spanish, True, True)[21] == (2.0, 2.0, 2.0, 2.0, 2.0, 2.0, -2.0)  # a doubled 21 wins
    assert natural_pays(spanish) == (1.5, 1.5)  # a blackjack beats a dealer blackjack
    assert natural_pays(load_profile("casino-blackjack").rules) == (1.5, 0.0)
    european = load_profile("european-blackjack").rules
    assert pay_rows(european, True, True)[20][6] == -1.0 and pay_rows(european, True, False)[20][6] == 0.0
    assert first_hand_apart(european) and not first_hand_apart(load_profile("casino-blackjack").rules)
    # with a hole card the peek leaves no dealer blackjack: original bets only changes nothing
    assert not first_hand_apart(load_profile("casino-blackjack", {"no_hole_card_loses": "original"}).rules)


def test_the_analysis_lets_a_split_21_stand_unless_21_is_listed_for_doubling():
    ace_ten = plus(unit(1), 10)
    assert analysis(load_profile("casino-blackjack").rules).table(6).options(ace_ten, True, True) == ("stand",)
    rb = load_profile("random-blackjack").rules  # double_soft: [19, 20, 21]
    assert analysis(rb).table(6).options(ace_ten, True, True) == ("stand", "double")


def test_the_spanish_shoe_holds_twelve_ten_values_a_deck():
    one = shoe_of(load_profile("spanish-21").rules)
    assert (one.cards, one.full[9], one.full[0]) == (48, 12, 4)
    infinite = Shoe(0, "A23456789JQK")
    assert infinite.next_probs(infinite.full)[9] == pytest.approx(3 / 12)
    assert analysis(load_profile("spanish-21").rules).p_blackjack(unit(9, 2), 1) == pytest.approx(12 / 45)


# -- original bets only: the first split hand is valued apart ------------------------------------

STAND_HIT = ("stand", "hit")


def _brute_split(rules, p: int, up: int) -> float:
    """The split of p p against ``up`` (one split), every card sequence listed: the first hand
    played by Auto's first-hand choices, the second by its other-hand choices, then the dealer."""
    an = analysis(rules)
    table = an.table(up)
    policies = (an.policy(up, True), an.policy(up, False))
    shoe = shoe_of(rules)
    start = list(shoe.full)
    start[up - 1] -= 1
    start[p - 1] -= 2

    def draws(left):
        n = sum(left)
        for v in range(1, 11):
            if left[v - 1]:
                rest = list(left)
                rest[v - 1] -= 1
                yield v, left[v - 1] / n, rest

    def hands(policy, left):
        out = []

        def on(h, pr, left):
            if score(h)[0] >= 21 or policy(h, True, STAND_HIT) == "stand":
                out.append((h, False, pr, left))
                return
            for v, q, rest in draws(left):
                on(plus(h, v), pr * q, rest)

        for c, q, left1 in draws(left):
            h = plus(unit(p), c)
            action = policy(h, True, table.options(h, True, True, p == 1 and rules.split_aces_one_card))
            if action == "stand":
                out.append((h, False, q, left1))
            else:
                for v, q2, left2 in draws(left1):
                    if action == "double":
                        out.append((plus(h, v), True, q * q2, left2))
                    else:
                        on(plus(h, v), q * q2, left2)
        return out

    combos = [
        (h0, d0, h1, d1, p0 * p1)
        for h0, d0, p0, left1 in hands(policies[0], start)
        for h1, d1, p1, _ in hands(policies[1], left1)
    ]
    comps = list({merge(c[0], c[2]) for c in combos})
    dealer = dict(zip(comps, probs_batch(shoe, up, rules.dealer_hits_soft_17, comps), strict=True))
    outcomes = ((17, False), (18, False), (19, False), (20, False), (21, False), (22, False), (21, True))

    def pays(h, doubled, first):
        stake = 2 if doubled else 1
        total = score(h)[0]
        return [bj.settle_hand(stake, 1, total, False, False, False, first, d, nat, False, True, 0, False, 3, 2)[1]
                - stake for d, nat in outcomes]

    return sum(
        pr * sum(q * (a + b) for q, a, b in zip(dealer[merge(h0, h1)], pays(h0, d0, True), pays(h1, d1, False),
                                                 strict=True))
        for h0, d0, h1, d1, pr in combos
    )


@pytest.mark.parametrize(("pair", "up"), [(8, 1), (9, 10), (1, 10)])
def test_the_split_walk_values_the_first_hand_apart_exactly_as_brute_force(pair, up):
    rules = load_profile("european-blackjack").rules
    assert not rules.double_makes_aces_hard and rules.max_hands == 2
    assert analysis(rules).split(up, pair) == pytest.approx(_brute_split(rules, pair, up), abs=1e-12)


def test_auto_plays_the_first_split_hand_for_its_own_payoff_under_original_bets_only():
    # 8S 8D against AH, split: the left hand 8S 5C (13) is the first hand (a dealer blackjack
    # takes its bet whatever it does): Auto draws; the right hand 8D 5D (13) loses nothing to a
    # dealer blackjack unless it busts: Auto stands
    script = {"game": "european-blackjack", "shoe": "8S AH 8D 5C 9C 5D 7H".split(),
              "seats": [{"bet": 10, "actions": ["split", "auto", "auto"]}]}
    r = run_round_script(script, auto=auto_action)
    left, right = r["seats"][0]["hands"]
    assert left["cards"] == ["8S", "5C", "9C"] and right["cards"] == ["8D", "5D"]
    assert r["dealer"]["cards"] == ["AH", "7H"]
