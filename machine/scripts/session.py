"""The scripted session of ``cabinet session`` (shared/spec/session-script.md).

Owns: playing one seat's money from a script (coins, button presses, the rounds they start,
collects and payouts) on the same ``SeatMoney`` and engine the cabinet runs, and reporting the
meters after every step. No hardware, display or journal: the hopper here pays every coin it
is asked for at once, and a handpay is paid as soon as it is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.catalog import make_game
from machine.games.events import Event
from machine.games.rules import Profile
from machine.money.seatmoney import BUTTONS, MoneySettings, SeatMoney, TableLimits
from machine.scripts.roundscript import load_game, read_actions, script_actions
from machine.scripts.scripting import AutoStrategy, ScriptError, SeatScript, check_all_used, parse_shoe, play_scripted

MACHINE_KEYS = ("payout", "hopper_coin", "hopper_limit", "remainder")
MAX_COIN = 100_000  # points: the most a configured coin may be worth


def _settings(raw: object) -> MoneySettings:
    if raw is None:
        return MoneySettings()
    if not isinstance(raw, Mapping):
        raise ScriptError("machine: must be a mapping")
    unknown = sorted(str(k) for k in raw if k not in MACHINE_KEYS)
    if unknown:
        raise ScriptError(f"machine: unknown key {unknown[0]!r} (known: {', '.join(MACHINE_KEYS)})")
    for k in ("hopper_coin", "hopper_limit"):
        if k in raw and (isinstance(raw[k], bool) or not isinstance(raw[k], int)):
            raise ScriptError(f"machine: {k}: must be a whole number of points, not {raw[k]!r}")
        if k in raw and not 1 <= raw[k] <= MAX_COIN:
            raise ScriptError(f"machine: {k}: must be 1 to {MAX_COIN} points, not {raw[k]!r}")
    try:
        return MoneySettings(**dict(raw))
    except ValueError as exc:
        raise ScriptError(f"machine: {exc}") from None


class _Tally:
    def __init__(self) -> None:
        self.coins_paid = 0
        self.handpay = 0


def run_session_script(script: Mapping[str, Any], auto: AutoStrategy | None = None) -> dict[str, Any]:
    """Play a session script and return ``{"steps": [...]}``; raise ``ScriptError``."""
    profile = load_game(script)
    unknown = sorted(str(k) for k in script if k not in ("game", "rules", "machine", "steps"))
    if unknown:
        raise ScriptError(f"unknown key {unknown[0]!r} (known: game, rules, machine, steps)")
    money = SeatMoney(limits=TableLimits.of(profile.rules), settings=_settings(script.get("machine")))
    steps = script.get("steps")
    if not isinstance(steps, list):
        raise ScriptError("steps: must be a list of steps (coin: or press:)")
    tally = _Tally()
    table = _Table(profile, auto)
    out = []
    for i, step in enumerate(steps, start=1):
        where = f"steps[{i - 1}]"
        if not isinstance(step, Mapping):
            raise ScriptError(f"{where}: must be a mapping with coin: or press:")
        record: dict[str, Any] = {"step": i}
        ignored, round_result = _step(step, where, money, tally, table)
        record["ignored"] = ignored
        record.update(
            credit=money.credit,
            club=money.club,
            bet=money.bet,
            max_bet=money.max_bet(),
            live=money.live(),
            coins_paid=tally.coins_paid,
            handpay=tally.handpay,
        )
        if round_result is not None:
            record["round"] = round_result
        problem = money.audit_problem()
        assert problem is None, problem  # the seat-money code keeps its own equation
        out.append(record)
    return {"steps": out}


def _step(
    step: Mapping[str, Any], where: str, money: SeatMoney, tally: _Tally, table: _Table
) -> tuple[bool, dict[str, Any] | None]:
    if "coin" in step:
        extra = sorted(str(k) for k in step if k != "coin")
        if extra:
            raise ScriptError(f"{where}: unknown key {extra[0]!r} beside coin:")
        points = step["coin"]
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            raise ScriptError(f"{where}: coin: must be a whole number of points above 0, not {points!r}")
        if points > MAX_COIN:
            raise ScriptError(f"{where}: coin: {points} points is no coin (a coin is at most {MAX_COIN} points, as "
                              "config/machine.yaml's coins)")
        money.insert(points)
        return False, None
    if "press" not in step:
        raise ScriptError(f"{where}: a step is coin: or press:")
    button = step["press"]
    if button not in BUTTONS:
        raise ScriptError(f"{where}: unknown button {button!r} (one of {', '.join(BUTTONS)})")
    round_keys = ("shoe", "insurance", "actions", "bet")
    extra = sorted(str(k) for k in step if k != "press" and (button != "start" or k not in round_keys))
    if extra:
        raise ScriptError(f"{where}: unknown key {extra[0]!r} beside press: {button}")
    if not money.is_live(button):
        return True, None
    if button == "collect":
        _moves, plan = money.collect()
        if plan.coins:
            money.coins_paid(plan.coins)
            tally.coins_paid += plan.coins
            money.payout_ended()
        if plan.handpay:
            money.handpay(plan.handpay)  # no attendant here: the handpay is paid at once
            tally.handpay += plan.handpay
        return False, None
    if button != "start":
        money.press_bet(button)
        return False, None
    return False, _play_round(step, where, money, table)


class _Table:
    """The game being played, its script vocabulary, and what carries from round to round."""

    def __init__(self, profile: Profile, auto: AutoStrategy | None):
        self.profile = profile
        self.game = make_game(profile, auto or _no_auto)
        self.actions = script_actions(profile)
        self.ranks = "".join(dict.fromkeys(c[0] for c in self.game.new_shoe())) if profile.rules.decks else ""
        self.auto = auto
        self.carry: dict[str, Any] | None = None


def _no_auto(rnd: Any) -> str:
    raise ScriptError("auto is not available: no Auto strategy is installed")  # play_scripted asks first


def _play_round(step: Mapping[str, Any], where: str, money: SeatMoney, table: _Table) -> dict[str, Any]:
    """The round a Start press begins. In a game that bets after the deal the seat is dealt in
    with nothing staked and its bet decision takes ``bet:`` (default: the bet set on the
    buttons), within the table's options and the quarter-of-club cap."""
    if "shoe" not in step:
        raise ScriptError(f"{where}: a press that starts a round carries its shoe:")
    game = table.game
    rules = table.profile.rules
    shoe = parse_shoe(step["shoe"], rules.decks, table.ranks)
    written = {k: step[k] for k in ("insurance", "actions") if k in step}
    if "actions" in written:
        written["actions"] = read_actions(table.profile, written["actions"], where)
    if game.bets_after_deal:
        written["bet"] = step.get("bet", money.bet)
        problem = rules.bet_problem(written["bet"])
        if problem:
            raise ScriptError(f"{where}: {problem}")
        money.join_round()
        bets = [0]
    else:
        if "bet" in step:
            raise ScriptError(f"{where}: bet: is set with the bet buttons before Start in {table.profile.game}")
        bets = [money.bet]
        money.start_round()
    seat = SeatScript(1, written, where=where, need_bet=False, actions=table.actions)

    def move_stakes(rnd: Any, events: list[Event]) -> None:
        for e in events:
            if e.stake_kind:
                if e.stake_kind == "bet" and e.stake > money.bet_cap():
                    raise ScriptError(f"{where}: bet {e.stake} is above a quarter of the club meter ({money.club})")
                money.stake(e.stake_kind, e.stake)

    rnd = play_scripted(lambda: game.start(shoe, bets, [money.club], [1], table.carry), [seat], table.auto, move_stakes)
    check_all_used([seat])
    money.settle(rnd.settlement()[0].returned)
    table.carry = dict(rnd.carry) or None
    return rnd.result(table.profile.game)

