"""Random sequences of coins, presses, rounds and collects hold the seat's invariants."""

from __future__ import annotations

import random

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from machine.games.cards import new_shoe, shuffle
from machine.games.round import Round
from machine.games.rules import Rules
from machine.money.seatmoney import BET_BUTTONS, MoneySettings, SeatMoney


class SeatMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.m = SeatMoney(settings=MoneySettings(hopper_limit=500, remainder="keep"))
        self.paid_out = 0

    @rule(points=st.sampled_from([10, 20, 50, 100, 200, 1000]))
    def coin(self, points):
        self.m.insert(points)

    @rule(button=st.sampled_from(BET_BUTTONS))
    def bet_button(self, button):
        before = (self.m.bet, self.m.club, self.m.credit)
        live = self.m.is_live(button)
        self.m.press_bet(button)
        if not live:
            assert (self.m.bet, self.m.club, self.m.credit) == before  # a dead press does nothing

    @precondition(lambda self: self.m.is_live("start"))
    @rule(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 9), min_size=10, max_size=10))
    def play_round(self, seed, picks):
        m = self.m
        bet = m.bet
        assert bet <= m.max_bet() and bet <= 500
        m.start_round()
        shoe = shuffle(new_shoe(6), random.Random(seed))
        rnd = Round.start(Rules(), shoe, [bet], funds=[m.club])
        n = 0
        while (d := rnd.pending) is not None:
            for e in rnd.act(d.seat, d.options[picks[n % len(picks)] % len(d.options)]):
                if e.kind == "insurance" and e.amount:
                    m.stake("insurance", e.amount)
                elif e.kind == "action" and e.action in ("double", "split"):
                    m.stake(e.action, bet)
            n += 1
        m.settle(rnd.seat(1).returned)

    @rule(short=st.integers(0, 3))
    def collect(self, short):
        moves, plan = self.m.collect()
        if plan.coins:
            paid = max(plan.coins - short, 0)  # the hopper may stop short: the rest stays owed
            self.m.coins_paid(paid)
            self.m.payout_ended()
        if plan.handpay:
            self.m.handpay(plan.handpay)

    @invariant()
    def self_audit_holds(self):
        assert self.m.audit_problem() is None

    @invariant()
    def no_meter_negative_and_the_club_never_above_10000(self):
        assert self.m.credit >= 0 and self.m.club >= 0 and self.m.bet >= 0
        assert self.m.club <= 10_000

    @invariant()
    def the_bet_never_above_the_cap(self):
        assert self.m.bet <= min(500, self.m.max_bet()) or self.m.bet == 0


TestSeatMoney = SeatMachine.TestCase
TestSeatMoney.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
