"""The scripted session of ``cabinet session`` (shared/spec/session-script.md).

Owns: playing one seat's money from a script (coins, button presses, the rounds they start,
collects and payouts) on the same ``SeatMoney`` and engine the cabinet runs, and reporting the
meters after every step. No hardware, display or journal: the hopper here pays every coin it
is asked for at once, and a handpay is paid as soon as it is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from machine.games.cards import deck_ranks
from machine.games.round import Event, Round
from machine.money.seatmoney import BUTTONS, MoneySettings, SeatMoney
from machine.scripts.roundscript import (
    AutoStrategy,
    ScriptError,
    SeatScript,
    check_all_used,
    load_game,
    parse_shoe,
    play_scripted,
)

MACHINE_KEYS = ("payout", "hopper_coin", "hopper_limit", "remainder")


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
    money = SeatMoney(rules=profile.rules, settings=_settings(script.get("machine")))
    steps = script.get("steps")
    if not isinstance(steps, list):
        raise ScriptError("steps: must be a list of steps (coin: or press:)")
    tally = _Tally()
    out = []
    for i, step in enumerate(steps, start=1):
        where = f"steps[{i - 1}]"
        if not isinstance(step, Mapping):
            raise ScriptError(f"{where}: must be a mapping with coin: or press:")
        record: dict[str, Any] = {"step": i}
        ignored, round_result = _step(step, where, money, tally, profile.game, auto)
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
    step: Mapping[str, Any], where: str, money: SeatMoney, tally: _Tally, game: str, auto: AutoStrategy | None
) -> tuple[bool, dict[str, Any] | None]:
    if "coin" in step:
        extra = sorted(str(k) for k in step if k != "coin")
        if extra:
            raise ScriptError(f"{where}: unknown key {extra[0]!r} beside coin:")
        points = step["coin"]
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            raise ScriptError(f"{where}: coin: must be a whole number of points above 0, not {points!r}")
        money.insert(points)
        return False, None
    if "press" not in step:
        raise ScriptError(f"{where}: a step is coin: or press:")
    button = step["press"]
    if button not in BUTTONS:
        raise ScriptError(f"{where}: unknown button {button!r} (one of {', '.join(BUTTONS)})")
    round_keys = ("shoe", "insurance", "actions")
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
    return False, _play_round(step, where, money, game, auto)


def _play_round(step: Mapping[str, Any], where: str, money: SeatMoney, game: str, auto: AutoStrategy | None) -> dict[str, Any]:
    if "shoe" not in step:
        raise ScriptError(f"{where}: a press that starts a round carries its shoe:")
    rules = money.rules
    shoe = parse_shoe(step["shoe"], rules.decks, deck_ranks(rules.spanish_deck))
    seat = SeatScript(1, {k: step[k] for k in ("insurance", "actions") if k in step}, where=where, need_bet=False)
    bet = money.bet
    money.start_round()

    def move_stakes(rnd: Round, events: list[Event]) -> None:
        for e in events:
            if e.stake_kind:
                money.stake(e.stake_kind, e.stake)

    rnd = play_scripted(lambda: Round.start(rules, shoe, [bet], funds=[money.club]), [seat], auto, move_stakes)
    check_all_used([seat])
    money.settle(rnd.seat(1).returned)
    return rnd.result(game)
