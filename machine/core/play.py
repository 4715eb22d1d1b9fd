"""Playing rounds: starting one, taking the seats' decisions, settling it.

Owns: who bets in the coming round, the shoe it is dealt from (always the game's own
``new_shoe()`` under the rules in force, put in order by the injected shuffler), starting the
round through ``Game.start``, each decision (a press, Auto, a timeout) through
``GameRound.act``, the stakes the round's events take (``event.stake``), a round dealt from a
given shoe with nothing staked (``start_unstaked_round``: a tournament's), and the settlement
(``GameRound.settlement()``: money onto the club meter, the meters, the recall record from
``GameRound.result()``). It knows the game ONLY through ``machine/games/interface.py``. Each
function runs INSIDE the transaction the ``Cabinet`` opened for the input.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from machine.core import reveal
from machine.core.admin import audit
from machine.core.context import Core
from machine.core.state import SeatState
from machine.games.interface import Decision, ShoeExhausted


class ShoeError(RuntimeError):
    """The shuffler returned cards that are not the game's shoe (a bug in the wiring)."""


def bettors(core: Core) -> list[SeatState]:
    return [s for s in core.state.seats.values()
            if s.lock is None and not s.host_disabled and not s.aft_locked and s.money.bet >= core.game.min_bet]


def deal_shoe(core: Core, round_no: int) -> list[str]:
    """The shoe for round ``round_no``: the game's fresh shoe, shuffled; nothing else."""
    return checked_shoe(core, list(core.shuffle(list(core.game.new_shoe()), round_no)), round_no)


def checked_shoe(core: Core, shoe: list[str], round_no: int) -> list[str]:
    """``shoe`` when it is the game's fresh shoe in some order (a tournament's deck, a shuffle)."""
    cards = core.game.new_shoe()
    if Counter(shoe) != Counter(cards):
        raise ShoeError(f"round {round_no}: the shuffled shoe ({len(shoe)} cards) is not the game's shoe ({len(cards)} cards)")
    return list(shoe)


def maybe_start_round(core: Core, now: float, timeout: bool) -> None:
    """Start the round when every bettor pressed Start, or the betting time ran out."""
    state, row = core.state, core.state.row
    seats = bettors(core)
    if not seats or (not timeout and not all(s.ready for s in seats)):
        return
    seats = [s for s in seats if not audit(core, s, "game")][: core.game.max_seats]  # the rest wait for the next round
    if not seats:
        return
    row.round_no += 1
    shoe = deal_shoe(core, row.round_no)
    bets = []
    before = {}
    after_deal = core.game.bets_after_deal
    for s in seats:
        before[str(s.number)] = {"credit": s.money.credit, "club": s.money.club}
        bet = s.money.bet
        if after_deal:  # the round asks for the bet after the deal; nothing is staked yet
            s.money.join_round()
            s.proposal = bet
            bet = 0
        else:
            core.store.moves(s, s.money.start_round())
            add_bet(core, s, bet)
        s.ready = False
        bets.append(bet)
    waiting = {s.number for s in bettors(core)} - {s.number for s in seats}  # beyond the game's places
    for s in state.seats.values():
        if s.ready and s.number not in waiting:
            s.ready = False
            core.store.seat_dirty(s)
    _deal(core, seats, bets, before, shoe, now)


def start_unstaked_round(core: Core, seat: SeatState, shoe: list[str], now: float, marks: dict[str, Any]) -> None:
    """Deal ``seat`` alone into a round from ``shoe`` with nothing staked (a tournament round:
    bet 0, no money meter moves); ``marks`` go into the round's record and its ``round_start``."""
    core.state.row.round_no += 1
    shoe = checked_shoe(core, shoe, core.state.row.round_no)
    before = {str(seat.number): {"credit": seat.money.credit, "club": seat.money.club}}
    seat.money.join_unstaked()
    seat.ready = False
    core.store.seat_dirty(seat)
    _deal(core, [seat], [0], before, shoe, now, marks)


def _deal(
    core: Core, seats: list[SeatState], bets: list[int], before: dict[str, Any], shoe: list[str], now: float,
    marks: dict[str, Any] | None = None,
) -> None:
    """Deal the round to ``seats`` (their ``bets`` already taken), record it and let it run."""
    state, row = core.state, core.state.row
    funds = [s.money.club for s in seats]
    carry = row.carry.get(core.profile.game)
    state.round = core.game.start(shoe, bets, funds, [s.number for s in seats], carry)
    state.round_shoe = shoe
    stakes = {str(s.number): b for s, b in zip(seats, bets, strict=True)}
    state.round_meta = {
        "round_no": row.round_no, "before": before, "decisions": [],
        "staked": dict(stakes),  # what a void round gives back (grows with the round's own stakes)
        "dealt_under": {"game": core.profile.game, "title": core.profile.title, "rules": core.rules.to_dict()},
        **(marks or {}),
    }
    core.store.append("round_start", {"round_no": row.round_no, "shoe": shoe, "bets": stakes, "carry": carry, **(marks or {})})
    _journal_events(core, state.round.events)
    row.betting_since = None
    row.decision_since = now
    core.store.mark("round")
    _settle_if_finished(core, now)


def decide(core: Core, n: int, action: str, now: float, by: str) -> None:
    """Seat ``n``'s decision (``auto``: Auto's choice) applied to the round, its stakes taken."""
    rnd = core.state.round
    assert rnd is not None
    if action == "auto":
        action = core.game.auto(rnd)
        by = "auto" if by == "player" else by
    d = rnd.pending
    assert d is not None
    shown_before = reveal.revealed(core)
    try:
        new = rnd.act(n, action)
    except ShoeExhausted as exc:
        void_round(core, str(exc))
        return
    core.state.round_meta["decisions"].append({"seat": n, "hand": d.hand, "kind": d.kind, "action": action, "by": by})
    seat = core.state.seats[n]
    if seat.picks:  # the cards it chose were for this action
        seat.picks = {}
        core.store.seat_dirty(seat)
    _journal_events(core, new)
    for e in new:
        points = e.stake
        if points:
            seat = core.state.seats[e.seat]
            core.store.moves(seat, seat.money.stake(e.stake_kind, points))
            add_bet(core, seat, points)
            staked = core.state.round_meta.setdefault("staked", {})
            staked[str(e.seat)] = staked.get(str(e.seat), 0) + points
    core.state.row.decision_since = now
    reveal.hold_after(core, shown_before, now)
    core.store.mark("round")
    _settle_if_finished(core, now)


def add_bet(core: Core, seat: SeatState, points: int) -> None:
    """Turnover, on the seat's meters and on the game's own (GLI-11: per game on a multi-game machine)."""
    seat.meters.add("total_bet", points)
    seat.meters.add(f"total_bet:{core.profile.game}", points)


def _journal_events(core: Core, events: list[Any]) -> None:
    for e in events:
        core.store.append("round_event", e.to_dict(), e.seat)


def _settle_if_finished(core: Core, now: float) -> None:
    state = core.state
    rnd = state.round
    assert rnd is not None
    if not rnd.finished:
        return
    result = rnd.result(core.profile.game)
    shared = {k: v for k, v in result.items() if k not in ("game", "seats", "cards_used")}
    by_seat = {r["seat"]: r for r in result.get("seats", result.get("places", [])) if r["seat"] is not None}
    moves = getattr(rnd, "moves", None)  # a game of places: every place's moves, for recall
    if moves is not None:
        shared["moves"] = moves
    for ss in rnd.settlement():
        seat = state.seats[ss.seat]
        _give_back(core, seat, ss.returned)
        m = seat.meters
        m.add("games_played")
        m.add("games_won" if ss.net > 0 else "games_lost" if ss.net < 0 else "games_pushed")
        m.add(f"games_played:{core.profile.game}")
        for name, count in ss.counters.items():
            m.add(name, count)
        _recall(core, seat, {"dealer_title": rnd.shown().dealer_title, "shoe": state.round_shoe[: result["cards_used"]],
                             **shared, "seat": by_seat[ss.seat]})
    if rnd.carry:
        state.row.carry[core.profile.game] = dict(rnd.carry)
    core.last_round = rnd
    core.collected.clear()
    _round_over(core)
    if bettors(core):  # seats that waited for a place: the betting time runs for the next round
        state.row.betting_since = now


def _give_back(core: Core, seat: SeatState, points: int) -> None:
    """The round's returns (stakes included) onto the seat's club meter, and its won meters."""
    core.store.moves(seat, seat.money.settle(points))
    core.store.seat_dirty(seat)
    seat.meters.add("total_won", points)
    seat.meters.add(f"total_won:{core.profile.game}", points)


def _recall(core: Core, seat: SeatState, round_keys: dict[str, Any]) -> None:
    """One seat's recall record of the round just ended: the cabinet's keys around the round's
    own (``round_keys``); then the seat's self-audit."""
    meta = core.state.round_meta
    record = {
        "round_no": meta["round_no"],
        # the game and rules the round was dealt under (a round resumed after a restart too)
        **meta.get("dealt_under", {"game": core.profile.game, "title": core.profile.title, "rules": core.rules.to_dict()}),
        **round_keys,
        "decisions": [x for x in meta["decisions"] if x["seat"] == seat.number],
        **({"tournament": meta["tournament"]} if "tournament" in meta else {}),
        "before": meta["before"][str(seat.number)],
        "after": {"credit": seat.money.credit, "club": seat.money.club},
    }
    core.store.append("game", record, seat.number)
    audit(core, seat, "settlement")


def _round_over(core: Core) -> None:
    state = core.state
    state.round, state.round_meta, state.round_shoe = None, {}, []
    state.row.decision_since = None


def void_round(core: Core, why: str) -> None:
    """The shoe ran out mid-round (other-games.md: practically impossible with the shipped
    decks): the round is void and every stake comes back; the event log and each seat's recall
    say so."""
    state = core.state
    rnd = state.round
    assert rnd is not None
    meta = state.round_meta
    for n in rnd.seat_numbers:
        seat = state.seats[n]
        back = meta.get("staked", {}).get(str(n), 0)
        _give_back(core, seat, back)
        seat.meters.add("games_void")
        _recall(core, seat, {"void": True, "why": why, "shoe": list(state.round_shoe), "dealer": {"cards": [], "total": 0},
                             "seat": {"seat": n, "bet": back, "staked": back, "returned": back, "net": 0, "hands": []}})
    core.store.event("round_void", None, round_no=meta["round_no"], why=why)
    _round_over(core)


# -- the clock ----------------------------------------------------------------------------------


def betting_time_up(core: Core, now: float) -> bool:
    row = core.state.row
    if core.state.round is not None or row.betting_since is None:
        return False
    return now - row.betting_since >= core.settings.betting_time and bool(bettors(core))


def timed_decision(core: Core) -> Decision | None:
    """The pending decision when it runs against the clock: a bet decision always (the betting
    time's end takes the minimum, for a lone seat too: other-games.md), any other when more than
    one seat is in the round, or in a tournament round."""
    rnd = core.state.round
    if rnd is None or rnd.pending is None or core.state.row.decision_since is None:
        return None
    if rnd.pending.kind == "bet":
        return rnd.pending
    if len(rnd.seat_numbers) < 2 and "tournament" not in core.state.round_meta:  # a tournament's other seats wait on it
        return None
    return rnd.pending


def decision_limit(core: Core, d: Decision) -> float:
    """The seconds decision ``d`` has: a bet decision the betting time, any other the decision timeout."""
    return core.settings.betting_time if d.kind == "bet" else core.settings.decision_timeout


def decision_due(core: Core, now: float) -> Decision | None:
    """The pending decision when its time ran out (Auto then decides it)."""
    d = timed_decision(core)
    since = core.state.row.decision_since
    if d is None or since is None or now - since < decision_limit(core, d):
        return None
    return d


def decision_time_left(core: Core, now: float) -> float | None:
    """Seconds left for the pending decision, or None when there is no limit."""
    since = core.state.row.decision_since
    d = timed_decision(core)
    if d is None or since is None:
        return None
    limit = decision_limit(core, d)
    return max(0.0, min(limit, limit - (now - since)))  # (a hold's shifted start: the full time)
