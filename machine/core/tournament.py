"""Eenendertigen tournaments on the cabinet: a mode in which it plays only the tournament.

Owns: the tournament's state, kept as plain data in the cabinet row (``row.tournaments``:
``open`` the open tournament, ``count`` how many were opened, ``last`` the last closed one's
final list and seed for the screens, ``prizes_owed`` prizes still to become handpays), and what
the Cabinet's inputs do to it, each INSIDE the transaction the ``Cabinet`` opened: open it
(its seed drawn by the caller from the OS random source), put it in force at its start time
(the game in force becomes eenendertigen with the tournament's variant: ``Core.apply_settings``
asks ``row.tournaments``), a seat's name entry and its entry taken from the credit meter, each
participant's next round (deck k of ``deals.tournament_deck`` for round k, the SAME for every
participant, dealt unstaked through ``play.start_unstaked_round``), the round's score added in
the same transaction as the round's end, and the close (the ranking final, the seed published
in the ``tournament_close`` record, prizes by rank turned into handpays at the winners' seats).
Where the tournament is (open, in force, a name entry, a participant playing, a close waiting
for the round in play) is its ``Stage``, moved only along ``machine/core/tourstages.py``'s table
(``fire``) and read only through it (``stage``, ``in_force``, ``entering``, ``playing``).

The rules of the mode (other-games.md, eenendertigen, "Tournaments", and issue 12): one
participant at a time, at the seat where they entered, alone in place 1 against three computer
players, 16 rounds; at most 10 participants, the tenth's last round closes the tournament.
Name entry on the panel: Draw / Stand the next / previous character (A-Z, 0-9, space), Double
takes it, Split erases the last one, Start is done (an empty name: "Player N"), Auto gives up.

The times people set and read (start, end, opened, started, entered, closed) are wall-clock
seconds (``Core.wall(now)``: the loop's clock plus the offset the last tick gave), so a power cut
does not move a tournament's window; the waits of an idle seat count on the loop's clock.

Never reads a clock or a random source (``now`` and the seed come in as arguments), never
opens a transaction, never shows the seed of an open tournament (``public`` leaves it out).
"""

from __future__ import annotations

import copy
from typing import Any

from machine.core import payouts, play
from machine.core.admin import cabinet_idle
from machine.core.context import TOURNAMENT_ENGINE, Core
from machine.core.state import CabinetState
from machine.core.tourstages import Stage, StageEvent, fire, stage_of
from machine.games.eenendertigen.deals import TOURNAMENT_ROUNDS, tournament_deck
from machine.games.eenendertigen.rules import VARIANTS
from machine.games.eenendertigen.standings import display_name, prizes_by_rank, ranking
from machine.games.interface import Button
from machine.games.text import Text

ROUNDS = TOURNAMENT_ROUNDS  # rounds per participant
PARTICIPANTS = 10  # the tenth participant's last round closes the tournament
NAME_MAX = 12  # characters of a name
CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 "  # what Draw / Stand step through
IDLE_TIMEOUT = 60.0  # seconds: a name entry left alone is given up; a participant's next round starts by itself
NAME_KEYS = {  # the name entry's buttons and the words the screen writes on them
    Button.DRAW: "Next", Button.STAND: "Previous", Button.DOUBLE: "Take", Button.SPLIT: "Erase",
    Button.START: "Done", Button.AUTO: "Give up",
}
ENTRY_WORDS = ("Draw/Stand: character", "Double: take it", "Split: erase", "Start: done", "Auto: give up")


class TournamentError(ValueError):
    """An operator's tournament input refused (one line: why). Changes nothing."""


# -- reading the state (pure) ---------------------------------------------------------------------


def current(state: CabinetState) -> dict[str, Any] | None:
    """The open tournament (plain data), or None."""
    t = state.row.tournaments.get("open")
    return t if t else None


def stage(state: CabinetState) -> Stage:
    """The open tournament's stage (``Stage.NONE``: none is open)."""
    return stage_of(current(state))


def in_force(state: CabinetState) -> bool:
    """Whether the cabinet plays only the tournament now (open and its start time came)."""
    return stage(state).in_force


def active(state: CabinetState) -> dict[str, Any] | None:
    """The seat entering a name or playing now: ``{"seat", "stage": "name"|"play", ...}``."""
    t = current(state)
    return None if t is None or not in_force(state) else t.get("active")


def playing(state: CabinetState) -> bool:
    """Whether a participant is playing its rounds now (a close may wait for the one in play)."""
    return stage(state) in (Stage.PLAY, Stage.CLOSING) and active(state) is not None


def entering(state: CabinetState, n: int) -> bool:
    """Whether seat ``n`` is entering its name now."""
    a = active(state)
    return stage(state) is Stage.NAME and a is not None and a["seat"] == n


def participant(t: dict[str, Any], number: int) -> dict[str, Any]:
    return t["participants"][number - 1]


def may_enter(state: CabinetState, n: int) -> bool:
    """Whether Start on seat ``n`` begins a name entry now."""
    t = current(state)
    seat = state.seats[n]
    return (t is not None and stage(state) is Stage.READY
            and len(t["participants"]) < PARTICIPANTS and seat.lock is None and seat.money.payout_owed == 0
            and state.round is None)


def may_play_next(state: CabinetState, n: int) -> bool:
    """Whether Start on seat ``n`` deals the participant's next round now."""
    a = active(state)
    return (stage(state) is Stage.PLAY and a is not None and a["seat"] == n and state.round is None
            and state.seats[n].lock is None)


def name_key_live(state: CabinetState, n: int, button: Button) -> bool:
    a = active(state)
    if a is None or not entering(state, n) or button not in NAME_KEYS:
        return False
    if button == Button.DOUBLE:
        return len(a["name"]) < NAME_MAX
    if button == Button.SPLIT:
        return bool(a["name"])
    return True


def progress(state: CabinetState) -> dict[str, Any] | None:
    """The playing participant: number, name, seat, rounds played, score (for the screens)."""
    a, t = active(state), current(state)
    if a is None or t is None or not playing(state):
        return None
    p = participant(t, a["participant"])
    row = next(r for r in ranking(t["participants"]) if r["number"] == p["number"])
    return {"number": p["number"], "name": display_name(p), "seat": p["seat"], "rounds": row["rounds"],
            "score": row["score"], "round": min(ROUNDS, row["rounds"] + (1 if state.round is not None else 0))}


def public(t: dict[str, Any], closed: bool = False) -> dict[str, Any]:
    """The tournament for screens, the menu and the audit: the seed only once it is closed."""
    out = {k: copy.deepcopy(v) for k, v in t.items() if k not in ("seed", "active") or (k == "seed" and closed)}
    out["in_force"] = stage_of(t).in_force  # the screens' word for it: open or playing
    out["ranking"] = ranking(t["participants"])
    return out


# -- the operator -----------------------------------------------------------------------------------


def check_open(core: Core, variant: str, entry: int, prizes: list[int], start: float | None, end: float | None,
               seed: str, now: float) -> None:
    """Raise ``TournamentError`` when a tournament cannot be opened with these settings."""
    if current(core.state) is not None:
        raise TournamentError("a tournament is already open: close it first")
    try:
        core.profile_of_engine(TOURNAMENT_ENGINE)
    except KeyError:
        raise TournamentError("eenendertigen is not among the enabled games (games_enabled)") from None
    if variant not in VARIANTS:
        raise TournamentError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if entry < 0 or any(p <= 0 for p in prizes) or len(prizes) > PARTICIPANTS:
        raise TournamentError("the entry is 0 or more points, each prize 1 or more, at most one per participant")
    if start is not None and end is not None and end <= start:
        raise TournamentError("the end time must come after the start time")
    if end is not None and end <= core.wall(now):
        raise TournamentError("the end time has already passed")
    if len(seed) < 32:
        raise TournamentError("the seed must hold at least 16 random bytes")


def open_tournament(core: Core, variant: str, entry: int, prizes: list[int], start: float | None, end: float | None,
                    seed: str, now: float, who: str) -> dict[str, Any]:
    """Open a tournament (checked by ``check_open``; the caller's input record, kind
    ``tournament_open``, holds the seed); in force from the first idle moment after its start."""
    row = core.state.row
    number = int(row.tournaments.get("count", 0)) + 1
    t: dict[str, Any] = {
        "id": number, "variant": variant, "entry": entry, "prizes": list(prizes), "start": start, "end": end,
        "seed": seed, "opened": core.wall(now), "opened_by": who, "participants": [],
    }
    fire(t, StageEvent.OPENED)
    row.tournaments["open"] = t
    row.tournaments["count"] = number
    row.tournaments.pop("last", None)  # the last closed list is shown until the next opens
    row.meters.add("tournaments")
    core.store.event("tournament_opened", id=number, variant=variant, entry=entry, prizes=list(prizes), start=start, end=end,
                     by=who)
    return t


def due(core: Core, now: float) -> str | None:
    """What the clock asks of the tournament now: ``start``, ``end``, ``give_up`` (a name entry
    left alone), ``next_round`` (a participant who stopped pressing Start), ``prizes`` (a prize
    waiting for its seat to be free), ``rebase`` (the clock went back) or None."""
    state = core.state
    if any(_seat_free(core, int(o["seat"])) for o in state.row.tournaments.get("prizes_owed", ())):
        return "prizes"
    t = current(state)
    if t is None:
        return None
    ended = t["end"] is not None and core.wall(now) >= t["end"]
    at = stage_of(t)
    if at is Stage.OPEN:
        if ended:
            return "end"
        return "start" if may_start(core, now) else None
    if state.round is not None:
        return None
    if ended or at is Stage.CLOSING:
        return "end"
    a = t.get("active")
    if a is None:
        return None
    if now < a["since"]:
        return "rebase"  # the clock started again (a power cut): the wait counts from now
    if now - a["since"] >= IDLE_TIMEOUT:
        if at is Stage.NAME:
            return "give_up"
        if state.seats[a["seat"]].lock is None:  # a locked seat waits for the attendant
            return "next_round"
    return None


def may_start(core: Core, now: float) -> bool:
    """Whether the open tournament comes into force now: its start time came (or it has none)
    and no seat has a bet or a hand."""
    t = current(core.state)
    wall = core.wall(now)
    return (t is not None and stage_of(t) is Stage.OPEN and (t["start"] is None or wall >= t["start"])
            and (t["end"] is None or wall < t["end"]) and cabinet_idle(core))


def rebase(core: Core, now: float) -> None:
    t = current(core.state)
    assert t is not None and t.get("active") is not None
    t["active"]["since"] = now


def put_in_force(core: Core, now: float) -> None:
    """The start time came and no seat has a bet or a hand: the cabinet plays only the tournament."""
    t = current(core.state)
    assert t is not None
    fire(t, StageEvent.STARTED)
    t["started"] = core.wall(now)
    _game_changed(core)
    core.store.event("tournament_started", id=t["id"], variant=t["variant"])


def _game_changed(core: Core) -> None:
    row = core.state.row
    core.apply_settings(row.overrides, row.rule_overrides)
    for seat in core.state.seats.values():
        seat.ready = False
        core.store.seat_dirty(seat)
    row.betting_since = None


def ask_close(core: Core, now: float, who: str, why: str) -> bool:
    """Close now (True), or at the end of the round in play (False: marked ``closing``)."""
    t = current(core.state)
    assert t is not None
    if core.state.round is not None and stage_of(t).in_force:
        fire(t, StageEvent.CLOSE_ASKED, by=who, why=why)
        return False
    close(core, now, who, why)
    return True


def close(core: Core, now: float, who: str, why: str) -> dict[str, Any]:
    """The ranking is final, the seed published (the ``tournament_close`` record), the prizes
    owed at the winners' seats (handpays as soon as each seat is free); normal play returns."""
    row = core.state.row
    t = current(core.state)
    assert t is not None and not (stage_of(t).in_force and core.state.round is not None)
    was_in_force = stage_of(t).in_force
    fire(t, StageEvent.CLOSED)
    finished = [p for p in t["participants"] if p.get("finished") is not None]
    for p in t["participants"]:  # closed early: ranked with the rounds played, in entry order after the finished
        if p.get("finished") is None:
            finished.append(p)
            p["finished"] = len(finished)
    rows = ranking(t["participants"])
    prizes = prizes_by_rank(rows, t["prizes"])
    owed = row.tournaments.setdefault("prizes_owed", [])
    awarded = []
    for r, amount in zip(rows, prizes, strict=True):
        if amount:
            prize = {"tournament": t["id"], "rank": r["rank"], "number": r["number"], "name": r["name"],
                     "seat": r["seat"], "amount": amount}
            owed.append(prize)
            awarded.append(prize)
    record = {**{k: copy.deepcopy(v) for k, v in t.items() if k not in ("active", "closing")},
              "closed": core.wall(now), "closed_by": who, "why": why, "ranking": rows, "prizes_awarded": awarded}
    core.store.append("tournament_close", record)
    core.store.event("tournament_closed", id=t["id"], by=who, why=why, seed=t["seed"], participants=len(t["participants"]))
    row.tournaments["open"] = None
    row.tournaments["last"] = {"id": t["id"], "variant": t["variant"], "seed": t["seed"], "ranking": rows,
                               "closed": record["closed"]}
    if was_in_force:
        _game_changed(core)
    pay_prizes(core)
    return record


def _seat_free(core: Core, n: int) -> bool:
    seat = core.state.seats.get(n)
    return (seat is not None and seat.lock in (None, "handpay") and n not in core.state.payouts
            and not core.state.in_round(n) and seat.money.payout_owed == 0)


def pay_prizes(core: Core) -> None:
    """Each prize owed whose seat is free (no tilt, no payout, no round): onto its credit meter
    and at once a handpay the attendant pays (several prizes at one seat: one handpay each,
    added up on the seat's handpay lock, which the attendant clears once)."""
    row = core.state.row
    left = []
    for prize in row.tournaments.get("prizes_owed", []):
        n = int(prize["seat"])
        if not _seat_free(core, n):
            left.append(prize)
            continue
        seat = core.state.seats[n]
        amount = int(prize["amount"])
        core.store.moves(seat, seat.money.tournament_prize(amount))
        seat.meters.add("total_won", amount)
        seat.meters.add(f"total_won:{TOURNAMENT_ENGINE}", amount)
        row.meters.add("tournament_prizes", amount)
        core.store.event("tournament_prize", n, **prize)
        payouts.lock_handpay(core, seat, amount)
    if left:
        row.tournaments["prizes_owed"] = left
    else:
        row.tournaments.pop("prizes_owed", None)


# -- a seat ------------------------------------------------------------------------------------------


def begin_name(core: Core, n: int, now: float) -> None:
    t = current(core.state)
    assert t is not None and may_enter(core.state, n)
    fire(t, StageEvent.NAME_BEGUN, {"seat": n, "name": "", "char": 0, "since": now, "note": ""})


def name_key(core: Core, n: int, button: Button, now: float) -> None:
    """A press during seat ``n``'s name entry (see the module docstring for the keys)."""
    t = current(core.state)
    assert t is not None
    a = t["active"]
    a["since"], a["note"] = now, ""
    if button in (Button.DRAW, Button.STAND):
        a["char"] = (a["char"] + (1 if button == Button.DRAW else -1)) % len(CHARACTERS)
    elif button == Button.DOUBLE:
        a["name"] += CHARACTERS[a["char"]]
    elif button == Button.SPLIT:
        a["name"] = a["name"][:-1]
    elif button == Button.AUTO:
        fire(t, StageEvent.GAVE_UP)
    elif button == Button.START:
        _enter(core, t, n, now)


def give_up(core: Core) -> None:
    """A name entry left alone: nothing was taken; the seats may enter again."""
    t = current(core.state)
    assert t is not None
    fire(t, StageEvent.GAVE_UP)


def _enter(core: Core, t: dict[str, Any], n: int, now: float) -> None:
    a = t["active"]
    seat = core.state.seats[n]
    entry = int(t["entry"])
    if entry and seat.money.credit < entry:
        a["note"] = Text("The entry is {entry} points: credit {credit}, insert coins", entry=entry,
                         credit=seat.money.credit)
        return
    number = len(t["participants"]) + 1
    name = a["name"].strip()
    if entry:
        core.store.moves(seat, seat.money.tournament_entry(entry))
        seat.meters.add("total_bet", entry)
        seat.meters.add(f"total_bet:{TOURNAMENT_ENGINE}", entry)
        core.state.row.meters.add("tournament_entries", entry)
    t["participants"].append({"number": number, "name": name, "seat": n, "entry": entry, "scores2": [],
                              "finished": None, "entered": core.wall(now)})
    core.store.event("tournament_entry", n, id=t["id"], number=number, name=name or f"Player {number}", entry=entry)
    fire(t, StageEvent.ENTERED, {"seat": n, "participant": number, "since": now})
    next_round(core, now)


def next_round(core: Core, now: float) -> None:
    """Deal the playing participant's next round: deck k of the tournament, nothing staked."""
    t = current(core.state)
    assert t is not None
    a = t["active"]
    p = participant(t, a["participant"])
    k = len(p["scores2"]) + 1
    seat = core.state.seats[a["seat"]]
    a["since"] = now
    marks = {"tournament": {"id": t["id"], "participant": p["number"], "round": k}}
    play.start_unstaked_round(core, seat, tournament_deck(t["seed"], t["variant"], k), now, marks)
    if core.state.round is None:  # it ended at the deal (31 for a computer player, the seat's one turn... )
        round_over(core, core.last_round, now)


def round_over(core: Core, rnd: Any, now: float) -> None:
    """The participant's round ``rnd`` ended (in this transaction): its final hand score counts
    (a void round, practically impossible, counts 0); after the 16th the participant is done,
    after the tenth participant the tournament closes."""
    t = current(core.state)
    assert t is not None
    a = t["active"]
    p = participant(t, a["participant"])
    score2 = 0
    if rnd is not None and rnd.finished:
        mine = next(x for x in rnd.result(TOURNAMENT_ENGINE)["places"] if x["seat"] == a["seat"])
        score2 = round(float(mine["score"]) * 2)
    p["scores2"].append(score2)
    a["since"] = now
    if len(p["scores2"]) >= ROUNDS:
        p["finished"] = 1 + sum(1 for q in t["participants"] if q.get("finished") is not None)
        fire(t, StageEvent.FINISHED)
        if len(t["participants"]) >= PARTICIPANTS and all(q.get("finished") for q in t["participants"]):
            close(core, now, "tournament", f"{PARTICIPANTS} participants played")
            return
    if stage_of(t) is Stage.CLOSING:
        closing = t["closing"]
        close(core, now, closing["by"], closing["why"])
