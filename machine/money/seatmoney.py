"""One seat's money: the credit meter, the club meter, the bet buttons and Collect.

Owns: sections 5-7 of random-blackjack.md as pure code: the 10-point transfer that opens a
game, the bet buttons exactly as "the buttons exactly" defines them (which presses are live,
what each does), the quarter-of-club maximum, the 10 000 cap on the club meter with its
overflow to the credit meter, stakes taken from and returns paid onto the club meter, Collect
(club to credit in steps of 100, then the credit paid as hopper coins or a handpay).

Every change is returned as a list of ``Move``s (what moved, from where, to where, how much)
so the controller can journal each one before it shows or acts on it. Never does I/O, never
talks to a hopper: a payout is a *request* (``PayoutPlan``) that the controller carries out
and then confirms coin by coin with ``coins_paid``. Knows no game: of a game's settings it keeps
only the three table limits it needs (``TableLimits``), handed in by the core.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Protocol

from hardware.buttons import BET_BUTTONS, MONEY_BUTTONS, Button

BUTTONS = MONEY_BUTTONS


class MoneyError(ValueError):
    """A money operation that the state does not allow (a bug in the caller)."""


class HasLimits(Protocol):
    """Anything that names the three table limits (a game's settings do)."""

    @property
    def min_bet(self) -> int: ...

    @property
    def max_bet(self) -> int: ...

    @property
    def bet_step(self) -> int: ...


@dataclass(frozen=True)
class TableLimits:
    """The table limits a seat's bets keep: the smallest and largest bet and the step between."""

    min_bet: int = 2
    max_bet: int = 500
    bet_step: int = 2

    @classmethod
    def of(cls, table: HasLimits) -> TableLimits:
        """The limits of ``table`` (the settings of the game in force)."""
        return cls(table.min_bet, table.max_bet, table.bet_step)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableLimits:
        """From plain data: the seat row's ``limits``, or (a row written before seat money kept
        limits of its own) the ``rules`` of the game that was in force, of which only these
        three numbers count."""
        return cls(int(data["min_bet"]), int(data["max_bet"]), int(data["bet_step"]))

    def to_dict(self) -> dict[str, int]:
        return {"min_bet": self.min_bet, "max_bet": self.max_bet, "bet_step": self.bet_step}


@dataclass(frozen=True)
class MoneySettings:
    """The machine settings that shape a seat's money (section 5-7 and the operator's)."""

    game_fee: int = 10  # points moved from credit to club when a game opens
    min_credit_to_play: int = 10
    club_cap: int = 10_000
    collect_step: int = 100
    payout: str = "hopper"  # hopper, handpay or voucher (a printed ticket; the cabinet core decides)
    hopper_coin: int = 10  # points per hopper coin
    hopper_limit: int = 1000  # a credit meter above this is paid whole as a handpay
    remainder: str = "keep"  # keep or handpay: what is left below one coin

    def __post_init__(self) -> None:
        if self.payout not in ("hopper", "handpay", "voucher"):
            raise ValueError(f"payout must be hopper, handpay or voucher, not {self.payout!r}")
        if self.remainder not in ("keep", "handpay"):
            raise ValueError(f"remainder must be keep or handpay, not {self.remainder!r}")
        for name in ("game_fee", "club_cap", "collect_step", "hopper_coin", "hopper_limit"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name} must be above 0")


@dataclass(frozen=True)
class Move:
    """One money movement: ``amount`` points of ``kind`` (e.g. "coin_in", "bet", "collect")."""

    kind: str
    amount: int
    credit: int  # the credit meter after the move
    club: int  # the club meter after the move


@dataclass(frozen=True)
class PayoutPlan:
    """What Collect asks to pay from the credit meter: hopper coins and/or a handpay."""

    coins: int = 0
    coin_value: int = 0
    handpay: int = 0


@dataclass
class SeatMoney:
    """The money of one seat. All amounts are whole points."""

    limits: TableLimits = field(default_factory=TableLimits)
    settings: MoneySettings = field(default_factory=MoneySettings)
    credit: int = 0
    club: int = 0
    bet: int = 0  # the bet being placed (still on the club meter)
    game_open: bool = False  # this game's 10-point transfer has happened
    previous_bet: int = 0
    in_round: bool = False
    payout_owed: int = 0  # coins asked of the hopper and not yet reported paid
    # lifetime sums for the self-audit: credit + club == total_in - total_out + returned - staked
    total_in: int = 0
    total_out: int = 0
    staked: int = 0
    returned: int = 0

    # -- what the buttons would do ------------------------------------------------------------

    def max_bet(self) -> int:
        """The largest bet the seat could place now (0 when it cannot bet)."""
        if self.in_round or self.payout_owed:
            return 0
        if self.game_open:
            club = self.club
        elif self.credit >= self.settings.min_credit_to_play:
            club = min(self.club + self.settings.game_fee, self.settings.club_cap)
        else:
            return 0
        return min(self._quarter(club), self.limits.max_bet)

    def _quarter(self, club: int) -> int:
        """A quarter of ``club``, down to a whole bet step: the most a bet may be."""
        step = self.limits.bet_step
        return (club // 4) // step * step

    def bet_cap(self) -> int:
        """In a game that bets after the deal, the most the seat's bet decision may place: a
        quarter of the club meter (the minimum bet is always allowed)."""
        return max(self.limits.min_bet, self._quarter(self.club))

    def _bet_after(self, button: str) -> int | None:
        """The bet a bet button would make, or None where the button is dead by definition."""
        top = self.max_bet()
        if top == 0:
            return None
        if button == Button.PLUS_2:
            return min(self.bet + 2, top)
        if button == Button.PLUS_10:
            return min(self.bet + 10, top)
        if button == Button.TIMES_2:
            return min(2 * self.bet, top) if self.bet else None
        if button == Button.REPEAT:
            return min(self.previous_bet, top) if self.previous_bet else None
        if button == Button.MAX:
            return top
        raise MoneyError(f"not a bet button: {button!r}")

    def payout_plan(self) -> PayoutPlan:
        """What Collect would pay now from the credit meter (the club meter being 0)."""
        s, credit = self.settings, self.credit
        if credit <= 0:
            return PayoutPlan()
        if s.payout in ("handpay", "voucher") or credit > s.hopper_limit:
            return PayoutPlan(handpay=credit)
        coins = credit // s.hopper_coin
        rest = credit - coins * s.hopper_coin
        return PayoutPlan(coins=coins, coin_value=s.hopper_coin, handpay=rest if s.remainder == "handpay" else 0)

    def is_live(self, button: str) -> bool:
        """Whether pressing ``button`` now would change something (its lamp is lit)."""
        if button in BET_BUTTONS:
            after = self._bet_after(button)
            return after is not None and after != self.bet
        if button == Button.START:
            return not self.in_round and self.bet >= self.limits.min_bet
        if button == Button.COLLECT:
            if self.in_round or self.payout_owed:
                return False
            if self.club > 0 or self.bet > 0:
                return True
            plan = self.payout_plan()
            return bool(plan.coins or plan.handpay)
        raise MoneyError(f"unknown button {button!r}")

    def live(self) -> list[str]:
        return sorted(b for b in BUTTONS if self.is_live(b))

    # -- the moves ----------------------------------------------------------------------------

    def _move(self, kind: str, amount: int) -> Move:
        return Move(kind, amount, self.credit, self.club)

    def _add_to_club(self, kind: str, amount: int) -> list[Move]:
        """Put ``amount`` on the club meter; what goes above the cap moves to credit at once."""
        self.club += amount
        moves = [self._move(kind, amount)]
        over = self.club - self.settings.club_cap
        if over > 0:
            self.club -= over
            self.credit += over
            moves.append(self._move("club_overflow", over))
        return moves

    def insert(self, points: int) -> list[Move]:
        """Coins (or notes) onto the credit meter."""
        if points <= 0:
            raise MoneyError(f"a coin is worth at least 1 point, not {points}")
        self.credit += points
        self.total_in += points
        return [self._move("coin_in", points)]

    def press_bet(self, button: str) -> list[Move]:
        """A bet button; a dead press does nothing and returns no moves."""
        if not self.is_live(button):
            return []
        new_bet = self._bet_after(button)
        assert new_bet is not None
        moves: list[Move] = []
        if not self.game_open:
            fee = self.settings.game_fee
            self.credit -= fee
            self.game_open = True
            moves += self._add_to_club("game_fee", fee)
        self.bet = new_bet
        return moves

    def start_round(self) -> list[Move]:
        """Start pressed (or the betting time ran out): the bet leaves the club meter."""
        if self.bet < self.limits.min_bet or self.in_round:
            raise MoneyError("no bet to start a round with")
        bet = self.bet
        self.club -= bet
        self.staked += bet
        self.previous_bet, self.bet = bet, 0
        self.game_open = False
        self.in_round = True
        return [self._move("bet", bet)]

    def join_round(self) -> None:
        """Start pressed in a game that takes its bets after the deal: the seat is dealt in and
        its bet stays on the club meter (the round's ``bet`` decision stakes it)."""
        if self.bet < self.limits.min_bet or self.in_round:
            raise MoneyError("no bet to start a round with")
        self.previous_bet, self.bet = self.bet, 0
        self.game_open = False
        self.in_round = True

    def join_unstaked(self) -> None:
        """A round with nothing staked (a tournament round): the seat is dealt in, no meter moves."""
        if self.in_round:
            raise MoneyError("the seat is already in a round")
        self.in_round = True

    def tournament_entry(self, amount: int) -> list[Move]:
        """A tournament's entry, taken from the credit meter (a stake the house keeps)."""
        if not 0 < amount <= self.credit:
            raise MoneyError(f"cannot take an entry of {amount} from a credit meter of {self.credit}")
        self.credit -= amount
        self.staked += amount
        return [self._move("tournament_entry", amount)]

    def tournament_prize(self, amount: int) -> list[Move]:
        """A tournament prize onto the credit meter (a return), to be paid there as a handpay."""
        if amount <= 0:
            raise MoneyError(f"a prize is at least 1 point, not {amount}")
        self.credit += amount
        self.returned += amount
        return [self._move("tournament_prize", amount)]

    def stake(self, kind: str, amount: int) -> list[Move]:
        """An extra stake during the round: insurance, a double or a split."""
        if not self.in_round or amount > self.club:
            raise MoneyError(f"cannot stake {amount} for {kind}: the club meter holds {self.club}")
        self.club -= amount
        self.staked += amount
        return [self._move(kind, amount)]

    def settle(self, returned: int) -> list[Move]:
        """The round's returns onto the club meter (stakes included); the round is over."""
        if not self.in_round:
            raise MoneyError("no round to settle")
        self.in_round = False
        self.returned += returned
        return self._add_to_club("returned", returned) if returned else []

    def collect(self) -> tuple[list[Move], PayoutPlan]:
        """Collect: drop a bet being placed; club to credit in steps; or plan a payout.

        The plan's coins are owed to the hopper from now on (``coins_paid`` takes each off);
        its handpay stays on the credit meter until ``handpay`` records it paid.
        """
        if not self.is_live(Button.COLLECT):
            return [], PayoutPlan()
        self.bet = 0
        self.game_open = False
        moves: list[Move] = []
        if self.club > 0:
            while self.club > 0:
                step = min(self.settings.collect_step, self.club)
                self.club -= step
                self.credit += step
                moves.append(self._move("collect", step))
            return moves, PayoutPlan()
        plan = self.payout_plan()
        self.payout_owed = plan.coins
        return moves, plan

    def coins_paid(self, coins: int) -> list[Move]:
        """The hopper reported ``coins`` more coins paid: each comes off the credit meter."""
        if coins <= 0:
            return []
        if coins > self.payout_owed:
            raise MoneyError(f"{coins} coins reported paid but only {self.payout_owed} are owed")
        amount = coins * self.settings.hopper_coin
        self.payout_owed -= coins
        self.credit -= amount
        self.total_out += amount
        return [self._move("hopper_paid", amount)]

    def payout_ended(self) -> None:
        """The hopper stopped: whatever it did not pay stays on the credit meter, owed."""
        self.payout_owed = 0

    def handpay(self, amount: int) -> list[Move]:
        """An attendant pays ``amount`` by hand from the credit meter."""
        if not 0 < amount <= self.credit:
            raise MoneyError(f"cannot hand-pay {amount} from a credit meter of {self.credit}")
        self.credit -= amount
        self.total_out += amount
        return [self._move("handpay", amount)]

    def voucher(self, amount: int) -> list[Move]:
        """A voucher for ``amount`` was printed: it leaves the credit meter."""
        if not 0 < amount <= self.credit:
            raise MoneyError(f"cannot pay a voucher of {amount} from a credit meter of {self.credit}")
        self.credit -= amount
        self.total_out += amount
        return [self._move("voucher_out", amount)]

    # -- checks and plain data ----------------------------------------------------------------

    def audit_problem(self) -> str | None:
        """The self-audit equation, or why it fails."""
        lhs = self.credit + self.club
        rhs = self.total_in - self.total_out + self.returned - self.staked
        if lhs != rhs:
            return f"credit {self.credit} + club {self.club} = {lhs}, but in - out + returned - staked = {rhs}"
        if min(self.credit, self.club, self.bet) < 0:
            return f"a meter is negative (credit {self.credit}, club {self.club}, bet {self.bet})"
        if self.club > self.settings.club_cap:
            return f"the club meter {self.club} is above its cap {self.settings.club_cap}"
        return None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatMoney:
        d = dict(data)
        old_rules = d.pop("rules", None)  # rows written before the limits: the game's whole rules
        d["limits"] = TableLimits.from_dict(d.get("limits", old_rules))
        d["settings"] = MoneySettings(**d["settings"])
        return cls(**d)
