"""What the player screens show, as plain data built from the cabinet core.

Owns: turning the cabinet's state (seats, meters, the round, locks, the clock) into one
``TableView`` the drawing code paints, so that what a screen says is testable without pygame:
each seat's language, its message as a catalog message id with its fields, the betting and
decision times, the other seats' hands as the game lets this seat see them (``TableShown.seen_by``:
the rule is the game's, written once; the display only draws it), a reveal's hold (every other
screen says "Seat N shows its cards" while play waits: machine/core/reveal.py), a maximum bet
below the table's and a leftover below the smallest coin. Never changes the cabinet, never translates and never draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from machine.core.cabinet import Cabinet
from machine.core.tournament import CHARACTERS, ENTRY_WORDS, PARTICIPANTS, ROUNDS
from machine.display.aftnotice import notice as aft_notice
from machine.games import catalog
from machine.games.interface import BET_BUTTONS, Button, Decision, GameRound, HandShown, PlaceShown, TableShown
from machine.i18n import N_

BUTTON_ORDER = tuple(Button)  # a seat's buttons in their wire order


HandView = HandShown  # one hand as its seat sees it (machine/games/interface.py)


LANGUAGE_LABEL = N_("Language")  # Insurance's word where it chooses the seat's language


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
    language: str = "en"  # the language its screen speaks (chosen at the seat, else the configured one)
    fields: Mapping[str, object] = field(default_factory=dict)  # the message's fields ({seat} of "Seat {seat} is deciding")
    max_note: bool = False  # its maximum bet is below the table's: a quarter of its club meter
    leftover: int = 0  # credit below the smallest coin, kept to play (remainder: keep)
    watching: tuple[HandView, ...] = ()  # the deciding seat's hands, as the game lets the others see them
    others: Mapping[int, tuple[HandView, ...]] = field(default_factory=dict)  # every other seat of the round, as it may see them
    max_why: str = ""  # what sets max_bet: "" the table, "club" a quarter of the club, "bank" the bank, "credit" its funds
    paid: int = 0  # what its last Collect paid (hopper and handpay), until its next action
    choice_held_by: int | None = None  # the other seat whose money keeps its Draw/Stand from choosing the game
    held: bool = False  # the casino's host holds it (out of service, or a cashless transfer): no round starts for it


@dataclass(frozen=True)
class GameChange:
    """A change of the game in force, announced on every screen for a few seconds."""

    seat: int | None  # the seat that chose it; None: the operator
    title: str
    pay_rule: str


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
    fields: Mapping[str, object] = field(default_factory=dict)  # the heading's and the progress's fields


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
    decision_time: float = 15.0  # the configured decision timeout: the countdown ring's full circle
    betting_left: float | None = None  # the betting time left once a seat has bet and no round runs
    betting_time: float = 20.0
    revealing: frozenset[int] = frozenset()  # seats whose hands were just shown to all, held on every screen
    motif: tuple[str, ...] = ()  # the cards attract mode shows for the game in force (games/catalog.py)
    pay_rule: str = ""  # the main pay rule of the game in force, beside its title during play
    game_change: GameChange | None = None  # a change of the game being announced


REVEAL_MESSAGE = N_("Seat {seat} shows its cards")  # every other screen, while a reveal holds play
LOCKED = ("handpay", "tilt", "memory_error", "paying")  # their own message stands over a reveal's
PENDING_MESSAGES = {"insurance": N_("Insurance?"), "surrender": N_("Surrender?"), "bet": N_("Place your bet"),
                    "discard": N_("Discard a card")}


def build_view(
    cab: Cabinet, now: float, banner: str = "", languages: Mapping[int, str] | None = None,
    language_choice: frozenset[int] = frozenset(),
) -> TableView:
    """The whole table as the screens should show it at ``now``; ``languages`` the seats'
    chosen languages (a seat not in it speaks the configured one, ``cab.settings.language``);
    ``language_choice`` the seats whose Insurance chooses their language now (the loop's: its
    lamp is lit and the screen writes "Language" on it).

    Between rounds the last round's cards and results stay on the screens of the seats that
    played it, until a seat places its next bet; the dealer's cards go when the next betting
    starts. Messages are English message ids with their fields (the screen translates them).
    """
    settings = cab.settings
    default_language = settings.language
    languages = languages or {}
    rnd = cab.round
    pending = rnd.pending if rnd else None
    last = cab.last_round if rnd is None else None
    shown_round = rnd or last
    between = cab.game.shown_between(cab.carry) if rnd is None else None  # the bank the next round opens with
    table = shown_round.shown() if shown_round else between
    assert table is not None  # between rounds with no round to show, the table between rounds
    house = between or table
    betting = rnd is None and any(st.money.bet for st in cab.seats.values())  # the next betting started
    seats = []
    for n, st in sorted(cab.seats.items()):
        m = st.money
        hands, insurance, insurance_returned, message, fields, watching = _seat_round(cab, n, last, table, pending)
        others = {o: table.seen_by(n, o) for o in sorted(table.hands) if o != n} if shown_round and not betting else {}
        state = cab.seat_state(n)
        message, fields = _message(cab, n, state, hands, (message, fields), shown_round, table, now)
        min_bet, max_bet, max_why = cab.bet_limits(n)
        leftover = _leftover(cab, n, state)
        seats.append(
            SeatView(
                number=n,
                state=state,
                credit=m.credit,
                club=m.club,
                bet=_bet_shown(cab, table if rnd else None, n),
                min_bet=min_bet,
                max_bet=max_bet,
                hands=hands,
                insurance=insurance,
                insurance_returned=insurance_returned,
                message=message,
                lamps=frozenset(cab.live(n)) | ({Button.INSURANCE.value} if n in language_choice else set()),
                lock_detail=st.lock_detail,
                handpay=st.handpay_owed,
                owed_coins=cab.payouts_owed().get(n, 0),
                labels={b.value: text for b, text in cab.button_labels(n).items()}
                | ({Button.INSURANCE.value: LANGUAGE_LABEL} if n in language_choice else {}),
                picks=cab.picks(n),
                language=languages.get(n, default_language),
                fields=fields,
                max_note=max_why == "club",
                leftover=leftover,
                watching=watching,
                others=others,
                max_why=max_why,
                paid=st.paid,
                choice_held_by=cab.game_choice_refused(n),
                held=st.host_disabled or st.aft_locked,
            )
        )
    attract = rnd is None and all(s.state == "idle" for s in seats)
    betting = rnd is None and any(s.bet for s in seats)  # the next betting started: the last dealer's cards go
    betting = betting or bool(last and all(_table_cleared(cab, o) for o in last.seat_numbers))  # or all its seats collected
    since = cab.betting_since
    betting_left = max(0.0, settings.betting_time - (now - since)) if rnd is None and since is not None else None
    return TableView(
        game_title=cab.game.title,
        denomination_cents=settings.denomination_cents,
        dealer_cards=() if betting else tuple(table.dealer_cards),
        dealer_text="" if betting else table.dealer_text,
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
        decision_time=cab.decision_time(),
        betting_left=betting_left,
        betting_time=settings.betting_time,
        revealing=cab.revealing,
        motif=catalog.engine(cab.profile.engine).motif,
        pay_rule=cab.pay_rule(),
        game_change=GameChange(**change) if (change := cab.game_change(now)) else None,
    )


def _message(cab: Cabinet, n: int, state: str, hands: tuple[HandView, ...], said: tuple[str, dict[str, object]],
             shown_round: GameRound | None, table: TableShown, now: float) -> tuple[str, dict[str, object]]:
    """Seat ``n``'s message and its fields: the round's own (``said``), a reveal's, the seat's
    state's, or a transfer's notice over any of them."""
    message, fields = said
    revealing = cab.revealing
    shower = min(revealing - {n}, default=None)
    if n in revealing:  # a reveal's hold: its own screen says its result, every other one points at it
        message, fields = "", {}
    elif shower is not None and state not in LOCKED:
        message, fields = REVEAL_MESSAGE, {"seat": shower}
    if not message:
        dealer_bj = bool(shown_round and shown_round.finished and table.dealer_text == "blackjack")
        message = _seat_message(state, cab.seats[n], hands, cab, dealer_bj, table.dealer_title, bool(table.places))
    return aft_notice(cab, n, now, cab.settings.denomination_cents) or (message, fields)  # display/aftnotice.py


def _leftover(cab: Cabinet, n: int, state: str) -> int:
    """The credit below the smallest coin the hopper pays that a seat keeps (shown with a note), or 0."""
    ms, m = cab.settings.money, cab.seats[n].money
    coin = ms.hopper_coin if ms.payout == "hopper" else 0
    return m.credit if (coin and ms.remainder == "keep" and 0 < m.credit < coin and not m.club
                        and not m.bet and state in ("idle", "ready")) else 0


def _seat_round(
    cab: Cabinet, n: int, last: GameRound | None, table: TableShown, pending: Decision | None,
) -> tuple[tuple[HandView, ...], int, int, str, dict[str, object], tuple[HandView, ...]]:
    """What seat ``n``'s screen shows of the round in play (or of the last one it played, until
    its next bet), as its game shows it: its hands, its insurance and what that returned, the
    round's message to it with the message's fields, and the hands it watches being decided."""
    hands: tuple[HandView, ...] = ()
    insurance = insurance_returned = 0
    message = ""
    fields: dict[str, object] = {}
    watching: tuple[HandView, ...] = ()
    if cab.round and cab.in_round(n):
        insurance, insurance_returned = table.insurance.get(n, (0, 0))
        hands = tuple(table.hands.get(n, ()))
        if pending and pending.seat == n:
            message = PENDING_MESSAGES.get(pending.kind, N_("Your turn"))
        elif pending:
            message, fields = N_("Seat {seat} is deciding"), {"seat": pending.seat}
    elif last and n in last.seat_numbers and not _table_cleared(cab, n):
        hands = tuple(table.hands.get(n, ()))
        insurance, insurance_returned = table.insurance.get(n, (0, 0))
    if pending and pending.seat != n and not table.places:  # spec random-blackjack.md section 8
        watching = table.seen_by_others(pending.seat)
    return hands, insurance, insurance_returned, message, fields, watching


def _table_cleared(cab: Cabinet, n: int) -> bool:
    """The last round's result leaves seat ``n``'s screen: the next betting started (its dealer's
    cards went), or the seat collected (its screen says what was paid)."""
    return any(s.money.bet for s in cab.seats.values()) or cab.collected_since_round(n)


def tournament_view(cab: Cabinet) -> TournamentView | None:
    """The open tournament (its seed never), else the last closed one's final list with its
    published seed, else None. Its heading and progress are message ids, their fields in
    ``fields``."""
    t = cab.tournament
    if t is None:
        last = cab.last_tournament
        if last is None:
            return None
        return TournamentView(N_("Tournament {id} ({variant}): final ranking"), "closed", _rows(last["ranking"]),
                              seed=last["seed"], fields={"id": last["id"], "variant": last["variant"]})
    prizes = "/".join(str(p) for p in t["prizes"])
    heading = N_("Tournament {id}: {variant}, entry {entry}, prizes {prizes}") if prizes else N_(
        "Tournament {id}: {variant}, entry {entry}, no prizes")
    fields: dict[str, object] = {"id": t["id"], "variant": t["variant"], "entry": t["entry"], "prizes": prizes}
    state = "playing" if t["in_force"] else "open"
    at = cab.tournament_seat()
    full = len(t["participants"]) >= PARTICIPANTS
    if at is None:
        return TournamentView(heading, state, _rows(t["ranking"]), full=full, fields=fields)
    if at["stage"] == "name":
        return TournamentView(heading, state, _rows(t["ranking"]), seat=at["seat"], stage="name", name=at["name"],
                              char=CHARACTERS[at["char"]], note=at["note"], keys=ENTRY_WORDS, full=full, fields=fields)
    p = at["progress"]
    fields.update({"round": p["round"], "rounds": ROUNDS, "score": p["score"]})
    return TournamentView(heading, state, _rows(t["ranking"]), seat=at["seat"], stage="play", who=p["name"],
                          progress=N_("Round {round} of {rounds} - score {score}"), full=full, fields=fields)


def _rows(ranking) -> tuple[tuple[str, str, str, str], ...]:
    return tuple((str(r["rank"]), r["name"], str(r["score"]), str(r["rounds"])) for r in ranking)


def _bet_shown(cab: Cabinet, shown: TableShown | None, n: int) -> int:
    """The bet a seat's meters show: being placed, proposed at its bet decision, or in play
    (``shown``: the round in play as its game shows it)."""
    if not (shown and cab.in_round(n)):
        return cab.seats[n].money.bet
    proposed = cab.proposal(n)
    return proposed if proposed is not None else shown.bets.get(n, 0)


HOUSE_WINS = {"DEALER": N_("Dealer wins"), "BANK": N_("Bank wins"), "BANKER": N_("Banker wins")}


def _seat_message(
    state: str, st, hands, cab: Cabinet, dealer_blackjack: bool, house: str = "DEALER", places: bool = False
) -> str:
    if state == "handpay":
        return N_("Handpay: call the attendant")
    if state == "tilt":
        return N_("Tilt: call the attendant")
    if state == "memory_error":
        return N_("Memory error: call the operator")
    if state == "paying":
        return N_("Paying out")
    if st.host_disabled and state in ("idle", "ready", "betting"):  # the casino's host shut the seat down
        return N_("Out of service")
    if st.aft_locked and state in ("idle", "ready", "betting"):  # locked by the host for a cashless transfer
        return N_("Transfer in progress: please wait")
    if st.paid:  # the payout's end, until the seat's next action (the screen fills in {money})
        return N_("{money} paid")
    if hands:
        results = {h.result for h in hands}
        if "blackjack" in results:
            return N_("Blackjack!")
        if results == {"lose"} and all(h.total_text.startswith("bust") for h in hands):
            return N_("Bust")
        if results & {"win"}:
            return N_("You win")
        if places:  # each place for itself: the notice names the winner, no house wins
            return N_("You lose")
        if results == {"push"}:
            return N_("Push")
        if dealer_blackjack:
            return N_("Dealer blackjack")
        return HOUSE_WINS.get(house, N_("Dealer wins"))
    if state == "betting":
        return N_("Press Start") if not st.ready else N_("Waiting for the other seats")
    live = set(cab.live(st.number))
    if live & set(BET_BUTTONS):  # "Place your bet" only where a bet button is lit
        return N_("Place your bet")
    if cab.round is not None and (st.money.credit >= cab.settings.money.game_fee or st.money.club):
        return N_("Next round: wait")  # its bet lamps are dark while a round runs
    if Button.COLLECT in live:
        return N_("Insert coins to play, or Collect")
    return N_("Insert coins")
