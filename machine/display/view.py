"""What the player screens show, as plain data built from the cabinet core.

Owns: turning the cabinet's state (seats, meters, the round, locks, the clock) into one
``TableView`` the drawing code paints, so that what a screen says is testable without pygame.
Never changes the cabinet and never draws.
"""

from __future__ import annotations

from dataclasses import dataclass

from machine.core.cabinet import Cabinet
from machine.games.hand import is_natural, score

BUTTON_ORDER = ("+2", "+10", "x2", "repeat", "max", "start", "draw", "stand", "double", "split", "insurance", "auto", "collect")


@dataclass(frozen=True)
class HandView:
    cards: tuple[str, ...]
    stake: int
    total_text: str  # "17", "soft 17", "bust 24", "blackjack"
    result: str | None  # win / lose / push / blackjack / surrender once settled
    returned: int
    active: bool  # the hand being decided now
    doubled: bool


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
    labels: tuple[tuple[str, str], ...] = ()  # (button, what it does now) where the game says: "Surrender"
    handpay: int = 0
    owed_coins: int = 0


@dataclass(frozen=True)
class TableView:
    game_title: str
    denomination_cents: int
    dealer_cards: tuple[str, ...]
    dealer_hole: bool  # a face-down card is on the table
    dealer_text: str
    seats: tuple[SeatView, ...]
    turn: int | None  # the seat deciding now
    countdown: float | None
    attract: bool
    banner: str = ""  # cabinet-wide: "Panel offline", "Operator menu", ...
    attract_lines: tuple[str, ...] = ()  # what the game in force pays, from its rules
    game_choice: frozenset[int] = frozenset()  # seats whose Draw/Stand choose the game now


def total_text(cards: tuple[str, ...] | list[str], aces_hard: bool = False, from_split: bool = False) -> str:
    if not cards:
        return ""
    if not from_split and is_natural(cards):
        return "blackjack"
    s = score(cards, aces_hard)
    if s.total > 21:
        return f"bust {s.total}"
    return f"soft {s.total}" if s.soft else str(s.total)


def money_text(points: int, cents_per_point: int) -> str:
    cents = points * cents_per_point
    return f"\u20ac{cents // 100},{cents % 100:02d}"


def _hand_views(rnd, n: int, pending) -> tuple[HandView, ...]:
    return tuple(
        HandView(
            cards=tuple(h.cards),
            stake=h.stake,
            total_text=total_text(h.cards, h.aces_hard, h.from_split),
            result=h.result,
            returned=h.returned,
            active=bool(pending and pending.kind == "play" and pending.seat == n and pending.hand == i),
            doubled=h.doubled,
        )
        for i, h in enumerate(rnd.seat(n).hands)
    )


def build_view(cab: Cabinet, now: float, banner: str = "") -> TableView:
    """The whole table as the screens should show it at ``now``.

    Between rounds the last round's cards and results stay on the screens of the seats that
    played it, until a seat places its next bet.
    """
    rnd = cab.round
    pending = rnd.pending if rnd else None
    last = cab.last_round if rnd is None else None
    shown_round = rnd or last
    dealer = tuple(shown_round.dealer) if shown_round else ()
    hole = bool(rnd and cab.rules.hole_card and not rnd.finished and len(dealer) >= 2)
    shown = dealer[:1] if hole else dealer
    seats = []
    for n, st in sorted(cab.seats.items()):
        m = st.money
        hands: tuple[HandView, ...] = ()
        insurance = insurance_returned = 0
        message = ""
        if rnd and cab.in_round(n):
            insurance = rnd.seat(n).insurance
            hands = _hand_views(rnd, n, pending)
            if pending and pending.seat == n:
                message = {"insurance": "Insurance?", "surrender": "Surrender?"}.get(pending.kind, "Your turn")
            elif pending:
                message = f"Seat {pending.seat} is deciding"
        elif last and n in last.seat_numbers and not m.bet:
            hands = _hand_views(last, n, None)
            insurance, insurance_returned = last.seat(n).insurance, last.seat(n).insurance_returned
        state = cab.seat_state(n)
        if not message:
            dealer_bj = bool(shown_round and shown_round.finished and is_natural(shown_round.dealer))
            message = _seat_message(state, st, hands, cab, dealer_bj)
        seats.append(
            SeatView(
                number=n,
                state=state,
                credit=m.credit,
                club=m.club,
                bet=m.bet if not (rnd and cab.in_round(n)) else rnd.seat(n).bet,
                min_bet=cab.rules.min_bet,
                max_bet=m.max_bet() if st.lock is None else 0,
                hands=hands,
                insurance=insurance,
                insurance_returned=insurance_returned,
                message=message,
                lamps=frozenset(cab.live(n)),
                lock_detail=st.lock_detail,
                labels=tuple((str(b), text) for b, text in cab.button_labels(n).items()),
                handpay=st.handpay_owed,
                owed_coins=cab.payouts_owed().get(n, 0),
            )
        )
    attract = rnd is None and all(s.state == "idle" for s in seats)
    return TableView(
        game_title=cab.game.title,
        denomination_cents=10,
        dealer_cards=shown,
        dealer_hole=hole,
        dealer_text=total_text(shown) if shown else "",
        seats=tuple(seats),
        turn=pending.seat if pending else None,
        countdown=cab.decision_time_left(now),
        attract=attract,
        banner=banner,
        attract_lines=tuple(cab.attract_lines()),
        game_choice=frozenset(n for n in cab.seats if cab.game_choice(n)),
    )


def _seat_message(state: str, st, hands, cab: Cabinet, dealer_blackjack: bool) -> str:
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
        if results == {"push"}:
            return "Push"
        return "Dealer blackjack" if dealer_blackjack else "Dealer wins"
    if state == "betting":
        return "Press Start" if not st.ready else "Waiting for the other seats"
    if st.money.credit >= cab.settings.money.game_fee or st.money.club:
        return "Place your bet"
    return "Insert coins"
