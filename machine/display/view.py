"""What the player screens show, as plain data built from the cabinet core.

Owns: turning the cabinet's state (seats, meters, the round, locks, the clock) into one
``TableView`` the drawing code paints, so that what a screen says is testable without pygame.
Never changes the cabinet and never draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from machine.core.cabinet import Cabinet
from machine.core.tournament import CHARACTERS, ENTRY_WORDS, PARTICIPANTS, ROUNDS
from machine.games.interface import HandShown, PlaceShown

BUTTON_ORDER = ("+2", "+10", "x2", "repeat", "max", "start", "draw", "stand", "double", "split", "insurance", "auto", "collect")


HandView = HandShown  # one hand as its seat sees it (machine/games/interface.py)


@dataclass(frozen=True)
class SeatView:
    number: int
    state: str  # idle, ready, betting, in_round, paying, handpay, tilt, memory_error
    credit: int
    club: int
    bet: int
    min_bet: int
    max_bet: int
    hands: tuple[HandView, ...]
    insurance: int
    insurance_returned: int
    message: str
    lamps: frozenset[str]
    lock_detail: str = ""
    handpay: int = 0
    owed_coins: int = 0
    labels: Mapping[str, str] = field(default_factory=dict)  # button -> what it means now, where the game says
    picks: Mapping[str, int] = field(default_factory=dict)  # the cards its next action would use ({"hand": 2, "table": 1})


@dataclass(frozen=True)
class TournamentView:
    """An eenendertigen tournament as the screens show it (machine/display/tournament.py)."""

    heading: str  # "Tournament 2: classic, entry 10, prizes 100/50/25"
    state: str  # open (before its start time), playing (the cabinet plays only it), closed (the last one's final list)
    rows: tuple[tuple[str, str, str, str], ...]  # rank, name, score, rounds played; best first
    seed: str = ""  # published once closed
    seat: int | None = None  # the seat entering a name or playing
    stage: str = ""  # name, play
    name: str = ""  # the name typed so far
    char: str = ""  # the character Draw / Stand stand on now
    note: str = ""  # why the entry was refused (credit short)
    progress: str = ""  # "Round 3 of 16 - score 84.5"
    who: str = ""  # the playing participant's name
    keys: tuple[str, ...] = ()  # the name entry's buttons, as written on the screen
    full: bool = False  # ten participants: no more entries


@dataclass(frozen=True)
class TableView:
    game_title: str
    denomination_cents: int
    dealer_cards: tuple[str, ...]  # FACE_DOWN for a closed card
    dealer_text: str
    seats: tuple[SeatView, ...]
    turn: int | None  # the seat deciding now
    countdown: float | None
    attract: bool
    banner: str = ""  # cabinet-wide: "Panel offline", "Operator menu", ...
    attract_lines: tuple[str, ...] = ()  # what the game in force pays, from its rules
    game_choice: frozenset[int] = frozenset()  # seats whose Draw/Stand choose the game now
    bank: int | None = None  # the banker's bank, where the game has one (ochko)
    notice: str = ""  # a table-wide line from the game ("Last round of this bank")
    dealer_title: str = "DEALER"
    places: tuple[PlaceShown, ...] = ()  # a game of places (eenendertigen): every place, hidden until the end
    stack: int | None = None  # the closed stack's cards left (modern 31), beside the open card
    max_swaps: int | None = None  # the swaps a place may make (classic 31), for "swaps 2/5"
    tournament: TournamentView | None = None  # an open tournament, or the last closed one's final list


def money_text(points: int, cents_per_point: int) -> str:
    cents = points * cents_per_point
    return f"\u20ac{cents // 100},{cents % 100:02d}"


def build_view(cab: Cabinet, now: float, banner: str = "") -> TableView:
    """The whole table as the screens should show it at ``now``.

    Between rounds the last round's cards and results stay on the screens of the seats that
    played it, until a seat places its next bet.
    """
    rnd = cab.round
    pending = rnd.pending if rnd else None
    last = cab.last_round if rnd is None else None
    shown_round = rnd or last
    between = cab.game.shown_between(cab.carry) if rnd is None else None  # the bank the next round opens with
    table = shown_round.shown() if shown_round else between
    assert table is not None  # between rounds with no round to show, the table between rounds
    house = between or table
    seats = []
    for n, st in sorted(cab.seats.items()):
        m = st.money
        hands: tuple[HandView, ...] = ()
        insurance = insurance_returned = 0
        message = ""
        if rnd and cab.in_round(n):
            insurance = getattr(rnd.seat(n), "insurance", 0)
            hands = tuple(table.hands.get(n, ()))
            if pending and pending.seat == n:
                message = {"insurance": "Insurance?", "surrender": "Surrender?", "bet": "Place your bet",
                           "discard": "Discard a card"}.get(
                    pending.kind, "Your turn"
                )
            elif pending:
                message = f"Seat {pending.seat} is deciding"
        elif last and n in last.seat_numbers and not m.bet:
            hands = tuple(table.hands.get(n, ()))
            ls = last.seat(n)
            insurance, insurance_returned = getattr(ls, "insurance", 0), getattr(ls, "insurance_returned", 0)
        state = cab.seat_state(n)
        if not message:
            dealer_bj = bool(shown_round and shown_round.finished and table.dealer_text == "blackjack")
            message = _seat_message(state, st, hands, cab, dealer_bj, table.dealer_title, bool(table.places))
        seats.append(
            SeatView(
                number=n,
                state=state,
                credit=m.credit,
                club=m.club,
                bet=_bet_shown(cab, rnd, n),
                min_bet=cab.rules.min_bet,
                max_bet=m.max_bet() if st.lock is None else 0,
                hands=hands,
                insurance=insurance,
                insurance_returned=insurance_returned,
                message=message,
                lamps=frozenset(cab.live(n)),
                lock_detail=st.lock_detail,
                handpay=st.handpay_owed,
                owed_coins=cab.payouts_owed().get(n, 0),
                labels={b.value: text for b, text in cab.button_labels(n).items()},
                picks=cab.picks(n),
            )
        )
    attract = rnd is None and all(s.state == "idle" for s in seats)
    return TableView(
        game_title=cab.game.title,
        denomination_cents=10,
        dealer_cards=tuple(table.dealer_cards),
        dealer_text=table.dealer_text,
        seats=tuple(seats),
        turn=pending.seat if pending else None,
        countdown=cab.decision_time_left(now),
        attract=attract,
        banner=banner,
        attract_lines=tuple(cab.attract_lines()),
        game_choice=frozenset(n for n in cab.seats if cab.game_choice(n)),
        bank=house.bank if house.bank is not None else table.bank,
        notice=table.notice or house.notice,
        dealer_title=table.dealer_title,
        places=table.places,
        stack=table.stack,
        max_swaps=table.max_swaps,
        tournament=tournament_view(cab),
    )


def tournament_view(cab: Cabinet) -> TournamentView | None:
    """The open tournament (its seed never), else the last closed one's final list with its
    published seed, else None."""
    t = cab.tournament
    if t is None:
        last = cab.last_tournament
        if last is None:
            return None
        return TournamentView(f"Tournament {last['id']} ({last['variant']}): final ranking", "closed",
                              _rows(last["ranking"]), seed=last["seed"])
    prizes = "/".join(str(p) for p in t["prizes"]) or "none"
    heading = f"Tournament {t['id']}: {t['variant']}, entry {t['entry']}, prizes {prizes}"
    state = "playing" if t["in_force"] else "open"
    at = cab.tournament_seat()
    full = len(t["participants"]) >= PARTICIPANTS
    if at is None:
        return TournamentView(heading, state, _rows(t["ranking"]), full=full)
    if at["stage"] == "name":
        return TournamentView(heading, state, _rows(t["ranking"]), seat=at["seat"], stage="name", name=at["name"],
                              char=CHARACTERS[at["char"]], note=at["note"], keys=ENTRY_WORDS, full=full)
    p = at["progress"]
    return TournamentView(heading, state, _rows(t["ranking"]), seat=at["seat"], stage="play", who=p["name"],
                          progress=f"Round {p['round']} of {ROUNDS} - score {p['score']}", full=full)


def _rows(ranking) -> tuple[tuple[str, str, str, str], ...]:
    return tuple((str(r["rank"]), r["name"], str(r["score"]), str(r["rounds"])) for r in ranking)


def _bet_shown(cab: Cabinet, rnd, n: int) -> int:
    """The bet a seat's meters show: being placed, proposed at its bet decision, or in play."""
    if not (rnd and cab.in_round(n)):
        return cab.seats[n].money.bet
    proposed = cab.proposal(n)
    return proposed if proposed is not None else rnd.seat(n).bet


def _seat_message(
    state: str, st, hands, cab: Cabinet, dealer_blackjack: bool, house: str = "DEALER", places: bool = False
) -> str:
    if state == "handpay":
        return "Handpay: call the attendant"
    if state == "tilt":
        return "Tilt: call the attendant"
    if state == "memory_error":
        return "Memory error: call the operator"
    if state == "paying":
        return "Paying out"
    if hands:
        results = {h.result for h in hands}
        if "blackjack" in results:
            return "Blackjack!"
        if results == {"lose"} and all(h.total_text.startswith("bust") for h in hands):
            return "Bust"
        if results & {"win"}:
            return "You win"
        if places:  # each place for itself: the notice names the winner, no house wins
            return "You lose"
        if results == {"push"}:
            return "Push"
        if dealer_blackjack:
            return "Dealer blackjack"
        return f"{house.capitalize()} wins"
    if state == "betting":
        return "Press Start" if not st.ready else "Waiting for the other seats"
    if st.money.credit >= cab.settings.money.game_fee or st.money.club:
        return "Place your bet"
    return "Insert coins"
