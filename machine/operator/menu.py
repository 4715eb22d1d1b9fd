"""The operator menu: opened with the operator key, driven by the seat buttons, PIN-guarded.

Owns: the menu as an explicit state machine (pages, the PIN entry, confirmations, editing a
setting) and what each page shows, as plain text lines plus, for game recall, the game to draw
with its real cards, all in the operator's language (``language``: machine/i18n.py; the
settings, meters and events by their human names, money also as money at the cabinet's
denomination). Tables are tab-separated columns, paged (Draw / Stand turn the page). Reading
pages (meters, recall, events, software identity) need only the key; anything that changes the
machine (a setting, the period meters, a RAM clear, a hopper test payout) asks for the PIN
first (checked against its slow salted hash, machine/operator/pin.py), and a wrong PIN changes
nothing and is logged; after wrong PINs the core locks the PIN entry for a while
(machine/core/pinlock.py): digits do nothing and the menu says how long. Only the cabinet loop creates a menu, and
only while the operator key is on, so without the key no player button reaches anything here.
Never draws (display/menu.py does) and never touches a device (a hopper test is a request the
loop hands to the bus worker).

Buttons in the menu (shown on the screen): Draw = next, Stand = previous, Start = select or
confirm, Collect = back. In the PIN entry the buttons are digits: +2 1, +10 2, x2 3, Repeat 4,
Max Bet 5, Draw 6, Stand 7, Double 8, Split 9, Insurance 0; Start = OK, Collect = cancel,
Auto = erase.

The Tournament page opens an eenendertigen tournament (variant, entry, prizes by rank, start
and end relative to now: each line changed with Start, then Draw / Stand) or closes the open
one (its ranking is shown, and after the close its published seed). The seed is drawn here,
from the OS random source (``secrets.token_hex(32)``), and handed to the cabinet with the open.
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.buttons import Button

from machine.core.cabinet import Cabinet
from machine.display.gamewords import say
from machine.i18n import N_, Words
from machine.money.meters import CABINET_METERS, GAME_METERS, SEAT_METERS, per_game, total
from machine.operator import pin
from machine.operator.config import MIN_SEATS_FOR_TWO_DECKS

PIN_DIGITS: dict[str, str] = {
    Button.PLUS_2: "1", Button.PLUS_10: "2", Button.TIMES_2: "3", Button.REPEAT: "4", Button.MAX: "5",
    Button.DRAW: "6", Button.STAND: "7", Button.DOUBLE: "8", Button.SPLIT: "9", Button.INSURANCE: "0",
}
RECALL_WIDTH = 100  # characters in a recall line of moves before it wraps
RECALL_MOVE_LINES = 8  # the most lines of moves the recall page shows (the cards are drawn below)
ROWS = 18  # table rows on one page of the meters or the event log (fits 1280x720 and 1920x1080)
EVENTS_KEPT = 200  # the newest events the log pages through
DETAIL_WIDTH = 48  # characters of an event's detail before it is cut with "..."
# The pages, by the names the code and the tests use; each is shown translated
PAGES = (N_("Meters"), N_("Game recall"), N_("Event log"), N_("Settings"), N_("Hardware test"),
         N_("Period meter reset"), N_("RAM clear"), N_("Software"), N_("Tournament"))
EDITABLE: dict[str, tuple[Any, ...]] = {
    "betting_time": (10.0, 15.0, 20.0, 30.0, 45.0, 60.0),
    "decision_timeout": (10.0, 15.0, 20.0, 30.0),
    "credit_limit": (1000, 5000, 10000),
    "payout": ("hopper", "handpay"),
    "hopper_limit": (500, 1000, 2000, 5000),
    "remainder": ("keep", "handpay"),
    "decks": (1, 2, 4, 6, 8),  # game mathematics: after a RAM clear
    "dealer_hits_soft_17": (False, True),  # game mathematics: after a RAM clear
    "game": (),  # one of the enabled games; in force when no seat has a bet or a hand
}


@dataclass(frozen=True)
class Setting:
    """How the Settings page shows a setting: its human name and how a value reads.

    ``unit``: ``seconds`` ("15 s"), ``points`` ("1,000 points = €100.00"), ``count`` (a plain
    number), ``choice`` (a word of ``CHOICES``), ``yes/no``, ``game`` (the game's title)."""

    name: str
    unit: str


SETTINGS: dict[str, Setting] = {
    "betting_time": Setting(N_("Betting time"), "seconds"),
    "decision_timeout": Setting(N_("Decision time"), "seconds"),
    "credit_limit": Setting(N_("Credit limit (no coins taken above)"), "points"),
    "payout": Setting(N_("Payout"), "choice"),
    "hopper_limit": Setting(N_("Hopper limit (more is a handpay)"), "points"),
    "remainder": Setting(N_("Leftover below one coin"), "choice"),
    "decks": Setting(N_("Decks"), "count"),
    "dealer_hits_soft_17": Setting(N_("Dealer hits soft 17"), "yes/no"),
    "game": Setting(N_("Game"), "game"),
}
CHOICES = {"hopper": N_("hopper"), "handpay": N_("handpay"), "keep": N_("kept on the credit meter")}

# The meters by their human names; the money meters count points and are shown as money too
METER_NAMES = {
    "total_in": N_("Money in"), "hopper_out": N_("Paid by the hopper"), "handpay_out": N_("Paid by hand"),
    "total_out": N_("Money out"), "games_played": N_("Games played"), "games_won": N_("Games won"),
    "games_lost": N_("Games lost"), "games_pushed": N_("Games pushed"), "total_bet": N_("Total bet"),
    "total_won": N_("Total won"), "blackjacks": N_("Blackjacks"), "three_sevens": N_("Three sevens"),
    "insurance_taken": N_("Insurance taken"), "insurance_paid": N_("Insurance paid"), "handpays": N_("Handpays"),
    "power_ups": N_("Power-ups"), "door_openings": N_("Door openings"), "ram_clears": N_("RAM clears"),
    "period_resets": N_("Period resets"), "hopper_test_coins": N_("Hopper test coins"),
    "hopper_refills": N_("Hopper refills"), "tournaments": N_("Tournaments"),
    "tournament_entries": N_("Tournament entries"), "tournament_prizes": N_("Tournament prizes"),
    "hopper_out_unexplained": N_("Hopper out, unexplained"),
}
MONEY_METERS = frozenset({"total_in", "hopper_out", "handpay_out", "total_out", "total_bet", "total_won",
                          "insurance_taken", "insurance_paid", "tournament_entries", "tournament_prizes",
                          "hopper_out_unexplained"})

# The event log: each event by its human name (the code stays beside it)
EVENT_NAMES = {
    "power_up": N_("Power up"), "power_down_detected": N_("Power cut detected"), "ram_clear": N_("RAM clear"),
    "period_reset": N_("Period meters reset"), "door_open": N_("Door opened"), "door_closed": N_("Door closed"),
    "tilt": N_("Tilt"), "tilt_cleared": N_("Tilt cleared"), "memory_error": N_("Memory error"),
    "coin_error": N_("Coin acceptor error"), "coin_events_lost": N_("Coin events lost"),
    "coin_fraud": N_("Coin fraud attempt"), "hopper_fault": N_("Hopper fault"),
    "hopper_extra_coin": N_("Hopper paid an extra coin"), "hopper_runaway": N_("Hopper runaway"),
    "payout_resumed": N_("Payout resumed"), "hopper_refill": N_("Hopper refilled"), "handpay": N_("Handpay"),
    "handpay_cleared": N_("Handpay paid"), "operator": N_("Operator"), "settings_changed": N_("Setting changed"),
    "play_paused": N_("Play paused"), "play_resumed": N_("Play resumed"), "pin_wrong": N_("Wrong PIN"),
    "pin_locked": N_("PIN locked"),
    "software_identity": N_("Software identity"), "round_void": N_("Round void"),
    "tournament_opened": N_("Tournament opened"), "tournament_started": N_("Tournament started"),
    "tournament_entry": N_("Tournament entry"), "tournament_closed": N_("Tournament closed"),
    "tournament_prize": N_("Tournament prize"),
    "hopper_out_unexplained": N_("Hopper coins out unexplained"),
    "hopper_count_behind": N_("Hopper count behind the journal"),
    "coin_events_while_down": N_("Coin events while the cabinet was down"),
    "coin_counter_fault": N_("Coin acceptor counter fault"),
    "hopper_count_unexplained": N_("Hopper count does not explain a payout"),
}
# An event's detail: the words it is written with (any other key or value reads as recorded)
DETAIL_WORDS = {
    "reason": N_("reason"), "what": N_("what"), "name": N_("name"), "old": N_("old"), "new": N_("new"),
    "by": N_("by"), "operator": N_("operator"), "door": N_("door"), "panel": N_("button panel offline"),
    "menu opened": N_("menu opened"), "menu closed": N_("menu closed"), "wrong PIN": N_("wrong PIN"),
    "software identity": N_("software identity"), "amount": N_("amount"), "match": N_("match"),
    "manifest": N_("manifest"), "coin": N_("coin"), "error_code": N_("error code"), "count": N_("count"),
    "coins": N_("coins"), "after": N_("after"), "paid": N_("paid"), "owed": N_("owed"), "fault": N_("fault"),
    "unpaid": N_("unpaid"), "id": N_("number"), "number": N_("number"), "variant": N_("variant"),
    "entry": N_("entry"), "prizes": N_("prizes"), "start": N_("begins"), "end": N_("ends"), "why": N_("why"),
    "seed": N_("seed"), "participants": N_("participants"), "round_no": N_("round"), "when": N_("when"),
    "unknown coin id": N_("unknown coin"), "hopper test payout": N_("hopper test payout"),
    "wrong": N_("wrong in a row"), "seconds": N_("seconds"),
    "hopper": N_("hopper"), "address": N_("address"), "journal": N_("journal"), "device": N_("device"),
    "events": N_("events"), "lost": N_("lost"), "detail": N_("detail"),
    "at start-up": N_("at start-up"), "after a payout": N_("after a payout"), "before a payout": N_("before a payout"),
    "before the hopper test": N_("before the hopper test"), "after the hopper test": N_("after the hopper test"),
    "gone from the acceptor's buffer: their coins cannot be credited":
        N_("gone from the acceptor's buffer: their coins cannot be credited"),
    "still in the acceptor's buffer: credited": N_("still in the acceptor's buffer: credited"),
}
BUTTON_NAMES: dict[str, str] = {
    Button.REPEAT: N_("Repeat Bet"), Button.MAX: N_("Max Bet"), Button.START: N_("Start"), Button.DRAW: N_("Draw"),
    Button.STAND: N_("Stand"), Button.DOUBLE: N_("Double"), Button.SPLIT: N_("Split"), Button.INSURANCE: N_("Insurance"),
    Button.AUTO: N_("Auto"), Button.COLLECT: N_("Collect"),
}
# Recall: who decided and what
DECIDED_BY = {"player": N_("player"), "auto": N_("Auto"), "timeout": N_("time out")}
ACTIONS = {
    "hit": N_("draw"), "draw": N_("draw"), "stand": N_("stand"), "double": N_("double"), "split": N_("split"),
    "surrender": N_("surrender"), "continue": N_("play on"), "insure": N_("insurance"),
    "no_insurance": N_("no insurance"), "wash": N_("wash"), "dark": N_("dark"), "pass": N_("pass"),
    "swap_all": N_("swap all three"), "take_open": N_("take the open card"),
}
ACTIONS_WITH = {"bet": N_("stake {0}"), "swap": N_("swap:{0}:{1}"), "discard": N_("discard:{0}")}  # "bet:2", "swap:1:3"


def action_text(action: str, _: Words) -> str:
    """A decision as the recall page writes it: "draw", "stake 2", "swap:2:2" (unknown: as recorded)."""
    verb, *args = action.split(":")
    if args and verb in ACTIONS_WITH:
        return _(ACTIONS_WITH[verb]).format(*args)
    return _(ACTIONS[action]) if action in ACTIONS else action
# What the cabinet answers a change or a close with (machine/core/cabinet.py)
WHEN = {
    "changed": N_("changed"), "after the next RAM clear": N_("after the next RAM clear"),
    "when no seat has a bet or a hand": N_("when no seat has a bet or a hand"),
    "when the tournament has closed": N_("when the tournament has closed"), "closed": N_("closed"),
    "at the end of the round in play": N_("at the end of the round in play"),
}

# The Tournament page's choices; start and end count in seconds from the moment it is opened
TOURNAMENT_FORM: dict[str, tuple[Any, ...]] = {
    "variant": ("classic", "modern"),
    "entry": (0, 10, 20, 50, 100),
    "prizes": ((), (100,), (200, 100, 50), (500, 250, 100), (1000, 500, 250)),
    "start": (None, 900.0, 1800.0, 3600.0, 7200.0),
    "end": (None, 3600.0, 7200.0, 14400.0, 28800.0, 86400.0),
}
TOURNAMENT_FIELDS = {"variant": N_("Variant"), "entry": N_("Entry"), "prizes": N_("Prizes"), "start": N_("Begins"),
                     "end": N_("Ends")}
VARIANTS = {"classic": N_("classic"), "modern": N_("modern")}


def tournament_choice_text(name: str, value: Any, _: Words) -> str:
    if name == "entry":
        return _("{points} points", points=_.number(value))
    if name == "prizes":
        return _("{prizes} points (ranks 1..)", prizes="/".join(map(_.number, value))) if value else _("none")
    if name == "start":
        return _("now") if value is None else _("in {minutes} min", minutes=int(value // 60))
    if name == "end":
        return _("none") if value is None else _("after {hours} h", hours=int(value // 3600))
    if name == "variant":
        return _(VARIANTS.get(value, str(value)))
    return str(value)


def _wrapped(text: str, width: int, most: int) -> list[str]:
    """``text`` in lines of at most ``width`` characters broken after ", "; at most ``most`` lines
    (the last ending in "..." when some were left off)."""
    lines: list[str] = []
    for part in text.split(", "):
        if lines and len(lines[-1]) + 2 + len(part) <= width:
            lines[-1] += ", " + part
        else:
            lines.append(("  " if lines else "") + part)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] += " ..."
    return lines


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def when_text(at: float | None) -> str:
    """A journal record's time as the cabinet's local date and time ("2026-12-01 08:31:05")."""
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


@dataclass
class MenuView:
    title: str
    lines: list[str]
    selected: int | None = None  # index into lines that is highlighted
    recall: dict[str, Any] | None = None  # a game to draw with its cards
    footer: str = ""
    header: str = ""  # the column names of a table (tab-separated like its lines)
    align: str = ""  # per column: "l" left or "r" right (default: the first left, the others right)
    language: str = "en"  # what the drawing writes its own words in (recall's labels)


@dataclass
class OperatorMenu:
    cab: Cabinet
    pin: str  # the stored PIN, scrypt with its parameters (configuration: operator_pin; machine/operator/pin.py)
    software_id: str = ""
    page: int | None = None  # None: the list of pages
    cursor: int = 0
    mode: str = "browse"  # browse, pin, confirm, edit
    pin_entry: str = ""
    unlocked: bool = False  # the PIN was given in this opening of the menu
    after_pin: str = ""  # what the PIN unlocks: "edit", "period", "ram", "hopper"
    edit_value: Any = None
    message: str = ""
    recall_seat: int = 1
    pressed: str = ""  # hardware test: the last button seen
    requests: list[str] = field(default_factory=list)  # for the loop: "hopper_test"
    tournament_form: dict[str, Any] = field(default_factory=lambda: {k: v[0] for k, v in TOURNAMENT_FORM.items()})
    seed_source: Callable[[], str] = lambda: secrets.token_hex(32)  # the OS random source; a test may inject one
    language: str = "en"  # the operator's language (configuration: operator_language)
    now: float = 0.0  # the loop's time of the last press or frame (what the PIN lock counts down from)

    @property
    def words(self) -> Words:
        return Words(self.language)

    @property
    def cents_per_point(self) -> int:
        """The denomination in force (``denomination_cents`` of the configuration)."""
        return self.cab.settings.denomination_cents

    # -- input --------------------------------------------------------------------------------

    def press(self, seat: int, button: str, now: float) -> None:
        self.message = ""
        self.now = now
        if self.mode == "pin":
            self._pin_key(button, now)
        elif self.mode == "confirm":
            if button == Button.START:
                self._do(self.after_pin, now)
            self.mode = "browse"
        elif self.mode == "edit":
            self._edit_key(button, now)
        elif self.mode == "tour_edit":
            self._tournament_edit_key(button)
        elif self.page is not None and PAGES[self.page] == "Hardware test" and button not in (Button.COLLECT, Button.START):
            self.pressed = f"{seat}:{button}"
        else:
            self._browse_key(seat, button, now)

    def _browse_key(self, seat: int, button: str, now: float) -> None:
        if self.page is None:
            if button == Button.DRAW:
                self.cursor = (self.cursor + 1) % len(PAGES)
            elif button == Button.STAND:
                self.cursor = (self.cursor - 1) % len(PAGES)
            elif button == Button.START:
                self.page, self.cursor = self.cursor, 0
            return
        name = PAGES[self.page]
        if button == Button.COLLECT:
            self.cursor, self.page = self.page, None
            return
        if button in (Button.DRAW, Button.STAND):
            self.cursor += 1 if button == Button.DRAW else -1
            self.cursor = max(0, self.cursor)
            return
        if name == "Game recall" and button in (Button.PLUS_2, Button.PLUS_10):
            self.recall_seat = self.recall_seat % len(self.cab.seats) + 1
            self.cursor = 0
        elif button == Button.START and name == "Tournament":
            self._need_pin(self._tournament_action(), now)
        elif button == Button.START:
            action = {"Settings": "edit", "Period meter reset": "period", "RAM clear": "ram", "Hardware test": "hopper"}.get(name)
            if action:
                self._need_pin(action, now)

    def _need_pin(self, action: str, now: float) -> None:
        self.after_pin = action
        if self.unlocked:
            self._unlocked(now)
        else:
            self.mode, self.pin_entry = "pin", ""

    def _pin_key(self, button: str, now: float) -> None:
        _ = self.words
        if self.cab.pin_locked_for(now) > 0:  # after wrong PINs: nothing but cancel
            self.pin_entry = ""
            if button == Button.COLLECT:
                self.mode = "browse"
            return
        if button in PIN_DIGITS and len(self.pin_entry) < 8:
            self.pin_entry += PIN_DIGITS[button]
        elif button == Button.AUTO:
            self.pin_entry = self.pin_entry[:-1]
        elif button == Button.COLLECT:
            self.mode = "browse"
        elif button == Button.START:
            if not pin.PIN_FORMAT.match(self.pin_entry):  # too short to be a PIN: not a try
                self.message = _("A PIN has 4 to 8 digits")
                return
            good = pin.check(self.pin_entry, self.pin)
            self.pin_entry = ""
            if not good:
                self.cab.pin_refused(now)
                self.message = _("Wrong PIN - nothing changed (logged)")
                self.mode = "browse"
                return
            self.cab.pin_accepted(now)
            self.unlocked = True
            self._unlocked(now)

    def _unlocked(self, now: float) -> None:
        if self.after_pin == "edit":
            name = self._editable()[min(self.cursor, len(self._editable()) - 1)]
            self.edit_value = self._current(name)
            self.mode = "edit"
        elif self.after_pin in ("period", "ram", "tour_open", "tour_close"):
            self.mode = "confirm"
        elif self.after_pin == "tour_edit":
            self.edit_value = self.tournament_form[self._tournament_field()]
            self.mode = "tour_edit"
        elif self.after_pin == "hopper":
            self._do("hopper", now)
            self.mode = "browse"

    def _edit_key(self, button: str, now: float) -> None:
        _ = self.words
        name = self._editable()[min(self.cursor, len(self._editable()) - 1)]
        if self._choose(button, self._choices(name)) and self.edit_value != self._current(name):
            when = self.cab.change_setting(name, self.edit_value, "operator")
            self.message = _("{setting} set to {value} ({when})", setting=_(SETTINGS[name].name),
                             value=self.value_text(name, self.edit_value), when=_(WHEN.get(when, when)))

    def _choose(self, button: str, values: tuple[Any, ...]) -> bool:
        """Draw / Stand step through ``values``, Collect leaves, Start takes the value (True)."""
        i = values.index(self.edit_value) if self.edit_value in values else 0
        if button in (Button.DRAW, Button.STAND):
            self.edit_value = values[(i + (1 if button == Button.DRAW else -1)) % len(values)]
        elif button in (Button.COLLECT, Button.START):
            self.mode = "browse"
        return button == Button.START

    def _do(self, action: str, now: float) -> None:
        _ = self.words
        if action == "period":
            self.cab.reset_period("operator")
            self.message = _("Period meters reset")
        elif action == "ram":
            try:
                self.cab.ram_clear("operator")
                self.message = _("RAM cleared")
            except RuntimeError as exc:
                self.message = str(exc)
        elif action == "hopper":
            self.requests.append("hopper_test")
            self.message = _("Hopper test: paying one coin")
        elif action == "tour_open":
            f = self.tournament_form
            try:
                t = self.cab.open_tournament(f["variant"], f["entry"], list(f["prizes"]), f["start"], f["end"],
                                             self.seed_source(), now, "operator")
            except ValueError as exc:
                self.message = _("Not opened: {why}", why=exc)
                return
            self.message = (_("Tournament {id} opened", id=t["id"]) if t["in_force"]
                            else _("Tournament {id} opened (it starts at its start time)", id=t["id"]))
        elif action == "tour_close":
            try:
                what = self.cab.close_tournament("operator", now)
                self.message = _("Tournament: {what}", what=_(WHEN.get(what, what)))
            except ValueError as exc:
                self.message = str(exc)

    # -- the Tournament page ---------------------------------------------------------------------

    def _tournament_field(self) -> str:
        return list(TOURNAMENT_FORM)[min(self.cursor, len(TOURNAMENT_FORM) - 1)]

    def _tournament_action(self) -> str:
        """What Start on the Tournament page asks for (after the PIN)."""
        if self.cab.tournament is not None:
            return "tour_close"
        return "tour_open" if self.cursor >= len(TOURNAMENT_FORM) else "tour_edit"

    def _tournament_edit_key(self, button: str) -> None:
        name = self._tournament_field()
        if self._choose(button, tuple(TOURNAMENT_FORM[name])):
            self.tournament_form[name] = self.edit_value

    def _ranking(self, ranking: list[dict[str, Any]]) -> list[str]:
        _ = self.words
        return ["\t".join((str(r["rank"]), r["name"], _.number(r["score"]), str(r["rounds"]))) for r in ranking]

    def _page_tournament(self) -> MenuView:
        _ = self.words
        t = self.cab.tournament
        header = "\t".join((_("Rank"), _("Name"), _("Score"), _("Rounds")))
        if t is not None:
            variant = _(VARIANTS.get(t["variant"], t["variant"]))
            state = (_("Tournament {id} ({variant}): playing, the cabinet plays only the tournament", id=t["id"],
                       variant=variant) if t["in_force"]
                     else _("Tournament {id} ({variant}): open, waiting for its start time", id=t["id"], variant=variant))
            prizes = "/".join(map(_.number, t["prizes"])) or _("none")
            lines = [state,
                     _("Entry {entry}   prizes {prizes}   participants {n} of 10", entry=_.number(t["entry"]),
                       prizes=prizes, n=len(t["participants"])),
                     _("Start: close it now (PIN; a round in play ends first)"), "", header,
                     *self._ranking(t["ranking"])]
            return MenuView(_("Tournament"), lines, 2, footer=_("Start: close   Collect: back"), align="rlrr")
        fields = [f"{_(TOURNAMENT_FIELDS[name])}\t{tournament_choice_text(name, self.tournament_form[name], _)}"
                  for name in TOURNAMENT_FORM]
        lines = [*fields, _("Open the tournament (PIN)")]
        last = self.cab.last_tournament
        if last is not None:
            lines += ["", _("Last: tournament {id} ({variant}), seed {seed}", id=last["id"],
                            variant=_(VARIANTS.get(last["variant"], last["variant"])), seed=last["seed"]),
                      header, *self._ranking(last["ranking"])]
        return MenuView(_("Tournament (eenendertigen)"), lines, min(self.cursor, len(TOURNAMENT_FORM)),
                        footer=_("Draw/Stand: line   Start: change or open (PIN)   Collect: back"), align="llrr")

    # -- settings -----------------------------------------------------------------------------------

    def _editable(self) -> list[str]:
        """The settings of the menu that apply now: the machine's, and the rules the game in
        force has (ochko has no soft 17)."""
        rules = self.cab.rules
        return [n for n in EDITABLE if n == "game" or n in self._machine_names() or hasattr(rules, n)]

    def _choices(self, name: str) -> tuple[Any, ...]:
        if name == "game":
            return tuple(self.cab.games_enabled)
        if name == "decks" and self.cab.profile.engine == "blackjack" and len(self.cab.seats) >= MIN_SEATS_FOR_TWO_DECKS:
            return tuple(d for d in EDITABLE[name] if d >= 2)  # as config check: one deck is too few here
        return EDITABLE[name]

    def _current(self, name: str) -> Any:
        if name == "game":
            return self.cab.pending_game or self.cab.profile.game
        if name in self.cab.pending_rules:
            return self.cab.pending_rules[name]
        for obj in (self.cab.settings.money, self.cab.settings, self.cab.rules):
            if hasattr(obj, name):
                return getattr(obj, name)
        raise KeyError(name)

    def _game_title(self, game: str) -> str:
        profile = getattr(self.cab.core, "profiles", {}).get(game)
        return str(profile.title) if profile is not None else game

    def value_text(self, name: str, value: Any) -> str:
        """How a value of setting ``name`` reads: "15 s", "1,000 points = €100.00", "no"."""
        _ = self.words
        unit = SETTINGS[name].unit
        if unit == "seconds":
            return _("{seconds} s", seconds=_.number(value))
        if unit == "points":
            return _("{points} points = {money}", points=_.number(value), money=_.money(value, self.cents_per_point))
        if unit == "yes/no":
            return _("yes") if value else _("no")
        if unit == "choice":
            return _(CHOICES.get(value, str(value)))
        if unit == "game":
            return self._game_title(value)
        return _.number(value)

    def range_text(self, name: str) -> str:
        """The values a setting can take: "10-60 s", "1-8", "hopper / handpay"."""
        _ = self.words
        values = self._choices(name)
        unit = SETTINGS[name].unit
        if unit in ("seconds", "points", "count") and values:
            low, high = _.number(min(values)), _.number(max(values))
            return {"seconds": _("{low}-{high} s", low=low, high=high),
                    "points": _("{low}-{high} points", low=low, high=high)}.get(unit, f"{low}-{high}")
        return " / ".join(self.value_text(name, v) for v in values)

    def lamps(self) -> set[str]:
        """The buttons that do something in the menu now (lit on every seat)."""
        if self.mode == "pin":
            if self.cab.pin_locked_for(self.now) > 0:
                return {Button.COLLECT}
            return set(PIN_DIGITS) | {Button.START, Button.COLLECT, Button.AUTO}
        if self.mode == "confirm":
            return {Button.START, Button.COLLECT}
        if self.page is not None and PAGES[self.page] == "Hardware test":
            return {self.pressed.split(":")[1]} if self.pressed else set()
        lit: set[str] = {Button.DRAW, Button.STAND, Button.START, Button.COLLECT}
        if self.page is not None and PAGES[self.page] == "Game recall":
            lit |= {Button.PLUS_2}
        return lit

    # -- what the screen shows ---------------------------------------------------------------------

    def view(self) -> MenuView:
        view = self._view()
        view.language = self.language
        return view

    def _view(self) -> MenuView:
        _ = self.words
        footer = _("Draw: next   Stand: previous   Start: select   Collect: back")
        if self.mode == "pin":
            left = self.cab.pin_locked_for(self.now)
            if left > 0:
                return MenuView(_("Enter PIN"), [_("PIN locked: try again in {seconds} s", seconds=_.number(math.ceil(left))),
                                                 "", _("Wrong PINs are logged; the lock grows with each one")],
                                footer=_("Collect: cancel"))
            keys = _("+2=1 +10=2 x2=3 Repeat Bet=4 Max Bet=5 Draw=6 Stand=7 Double=8 Split=9 Insurance=0")
            return MenuView(_("Enter PIN"), [_("PIN: {stars}", stars="*" * len(self.pin_entry) or "_"), "", keys],
                            footer=self.message or _("Start: OK   Auto: erase   Collect: cancel"))
        if self.mode == "confirm":
            what = {"period": _("Reset the period meters?"),
                    "ram": _("RAM CLEAR: erase every meter, credit and recall?"),
                    "tour_open": _("Open the tournament? (its seed is drawn now and published when it closes)"),
                    "tour_close": _("Close the tournament? (the ranking is final, prizes become handpays)")}[self.after_pin]
            return MenuView(_("Confirm"), [what], footer=_("Start: yes   any other button: no"))
        if self.mode == "edit":
            name = self._editable()[min(self.cursor, len(self._editable()) - 1)]
            lines = [f"{self.value_text(name, self._current(name))}  ->  {self.value_text(name, self.edit_value)}",
                     _("Range: {range}", range=self.range_text(name))]
            if name not in self._machine_names():
                lines.append(_("Game mathematics: takes effect after the next RAM clear"))
            return MenuView(_("Setting: {setting}", setting=_(SETTINGS[name].name)), lines,
                            footer=_("Draw/Stand: change   Start: save   Collect: cancel"))
        if self.mode == "tour_edit":
            name = self._tournament_field()
            return MenuView(_("Tournament: {field}", field=_(TOURNAMENT_FIELDS[name])),
                            [f"{tournament_choice_text(name, self.tournament_form[name], _)}  ->  "
                             f"{tournament_choice_text(name, self.edit_value, _)}"],
                            footer=_("Draw/Stand: change   Start: keep   Collect: cancel"))
        if self.page is None:
            return MenuView(_("Operator menu"), [_(p) for p in PAGES], self.cursor, footer=self.message or footer)
        name = PAGES[self.page]
        view = getattr(self, "_page_" + name.lower().replace(" ", "_"))()
        view.footer = self.message or view.footer or footer
        return view

    @staticmethod
    def _machine_names() -> tuple[str, ...]:
        from machine.core.cabinet import MACHINE_SETTINGS, MONEY_SETTINGS

        return MONEY_SETTINGS + MACHINE_SETTINGS + ("game",)

    def _paged(self, rows: list[str]) -> tuple[list[str], str]:
        """The rows of the page the cursor is on (the cursor is kept on a page that exists), and
        "page 2 of 3"."""
        _ = self.words
        pages = max(1, -(-len(rows) // ROWS))
        self.cursor = min(self.cursor, pages - 1)
        return rows[self.cursor * ROWS:(self.cursor + 1) * ROWS], _("page {page} of {pages}", page=self.cursor + 1,
                                                                       pages=pages)

    def _page_meters(self) -> MenuView:
        _ = self.words
        seats = self.cab.seats
        cents = self.cents_per_point
        names = [n for n in SEAT_METERS if n != "handpays"] + list(CABINET_METERS)
        life = {**total(s.meters for s in seats.values()), **self.cab.cabinet_meters.lifetime}
        per = {**total((s.meters for s in seats.values()), period=True), **self.cab.cabinet_meters.period}

        def row(label: str, meter: str, lifetime: int, period: int, by_seat: list[str]) -> str:
            money = meter in MONEY_METERS
            return "\t".join([label, _.number(lifetime), _.money(lifetime, cents) if money else "",
                              _.number(period), _.money(period, cents) if money else "", *by_seat])

        rows = []
        for m in names:
            by_seat = [] if m in CABINET_METERS else [_.number(s.meters.get(m)) for s in seats.values()]
            rows.append(row(_(METER_NAMES.get(m, m)), m, life.get(m, 0), per.get(m, 0), by_seat))
        rows.append("\t".join([_("Credit / club now"), "", "", "", ""]
                              + [f"{_.number(s.money.credit)} / {_.number(s.money.club)}" for s in seats.values()]))
        life_games, per_games = per_game(life), per_game(per)
        for game in life_games:
            for m in GAME_METERS:
                rows.append(row(f"{self._game_title(game)}: {_(METER_NAMES[m])}", m, life_games[game][m],
                                per_games.get(game, {}).get(m, 0), []))
        shown, page = self._paged(rows)
        header = "\t".join([_("Meter"), _("Lifetime"), "", _("Period"), ""] + [_("Seat {seat}", seat=n) for n in seats])
        return MenuView(_("Meters (points and money)  -  {page}", page=page), shown, header=header,
                        footer=_("Draw: next page   Stand: previous page   Collect: back"))

    def _move_text(self, m: dict[str, Any]) -> str:
        """One move of a game of places: "P3 swap:1:2 took AS gave 7S", "P2 passed", "P1 31!"."""
        _ = self.words
        who = f"P{m.get('place', '?')}"
        if m["kind"] == "move":
            return _("{who} {action} took {took} gave {gave}", who=who, action=action_text(m["action"], _),
                     took=" ".join(m["took"]),
                     gave=" ".join(m["gave"]))
        if m["kind"] == "pass":
            by = m.get("by", "pass")
            if by == "pass":
                return _("{who} passed", who=who)
            return _("{who} passed ({why})", who=who, why=_("fifth swap") if by == "swaps" else by)
        if m["kind"] == "knock":
            return f"{who} 31!"
        return f"{who} {m['kind']}"

    def _page_game_recall(self) -> MenuView:
        _ = self.words
        cents = self.cents_per_point
        games = [r.data for r in self.cab.journal.records("game", seat=self.recall_seat, last=self.cab.settings.recall_games,
                                                          since=self.cab.journal.last_of("ram_clear"))]
        title = _("Game recall - seat {seat}", seat=self.recall_seat)
        if not games:
            return MenuView(title, [_("no games since the last RAM clear")],
                            footer=_("+2: next seat   Collect: back"))
        i = min(self.cursor, len(games) - 1)
        self.cursor = i
        g = games[-1 - i]
        seat = g["seat"]
        extras = "".join(f"   {_(k)} {_.number(seat[k])}" for k in (N_("insurance"), N_("bonus")) if seat.get(k))
        bank = ""
        if "bank_before" in g:
            bank = "   " + _("bank {before} -> {after}", before=_.number(g["bank_before"]), after=_.number(g["bank_after"]))
            bank += "  " + _("(stuk)") if g.get("stuk") else ""
        decisions = ", ".join(f"{action_text(d['action'], _)} ({_(DECIDED_BY.get(d['by'], d['by']))})"
                              for d in g["decisions"]) or _("none")
        lines = [
            _("game {round}  ({n} of the last {count})  {title}", round=g["round_no"], n=i + 1, count=len(games),
              title=g.get("title", "")),
            _("bet {bet}  staked {staked}  returned {returned} ({money})", bet=_.number(seat["bet"]),
              staked=_.number(seat["staked"]), returned=_.number(seat["returned"]),
              money=_.money(seat["returned"], cents)) + extras + bank,
            _("credit/club before {credit}/{club}  after {credit_after}/{club_after}",
              credit=_.number(g["before"]["credit"]), club=_.number(g["before"]["club"]),
              credit_after=_.number(g["after"]["credit"]), club_after=_.number(g["after"]["club"])),
            _("decisions: {decisions}", decisions=decisions),
        ]
        if "moves" in g:  # a game of places: how it ended and every place's moves (the cards are drawn below)
            winners = ", ".join(_("place {place}", place=w) for w in g.get("winners", []))
            lines.append(_("ended {ended}  winners {winners}", ended=g.get("ended", "?"), winners=winners))
            moves = ", ".join(self._move_text(m) for m in g["moves"]) or _("none")
            lines += _wrapped(_("moves: {moves}", moves=moves), RECALL_WIDTH, RECALL_MOVE_LINES)
        return MenuView(title, lines, recall=g,
                        footer=_("Draw: older   Stand: newer   +2: next seat   Collect: back"))

    def _setting_value(self, name: str, value: Any) -> str:
        """A recorded value of a setting as the Settings page writes it (as recorded when it cannot)."""
        try:
            current = self._current(name)
            value = value in (True, "True") if isinstance(current, bool) else type(current)(value)  # rules: as text
            return self.value_text(name, value)
        except (KeyError, TypeError, ValueError):
            return str(value)

    def _detail(self, data: dict[str, Any]) -> str:
        _ = self.words
        if data.get("event") == "settings_changed" and data.get("name") in SETTINGS:
            name = data["name"]
            text = _("{setting}: {old} -> {new}", setting=_(SETTINGS[name].name), old=self._setting_value(name, data.get("old")),
                     new=self._setting_value(name, data.get("new")))
            if data.get("after_ram_clear"):
                text += " (" + _("after the next RAM clear") + ")"
            return _cut(text, DETAIL_WIDTH * 2)
        parts = []
        for k, v in data.items():
            if k in ("code", "event"):
                continue
            if isinstance(v, str):  # the core's words (a tilt's reason, a hopper fault) as the screens read them
                value = _(DETAIL_WORDS[v]) if v in DETAIL_WORDS else say(_, v)
            else:
                value = str(v)
            parts.append(f"{_(DETAIL_WORDS[k]) if k in DETAIL_WORDS else k}: {value}")
        return _cut(", ".join(parts), DETAIL_WIDTH)

    def _page_event_log(self) -> MenuView:
        _ = self.words
        rows = []
        for r in reversed(self.cab.journal.records("event", last=EVENTS_KEPT)):
            d = r.data
            where = _("Seat {seat}", seat=r.seat) if r.seat else _("cabinet")
            name = _(EVENT_NAMES.get(d["event"], d["event"]))
            if d["event"] == "operator" and "what" in d:
                name = _("Operator: {what}", what=_(DETAIL_WORDS.get(d["what"], d["what"])))
                d = {k: v for k, v in d.items() if k != "what"}
            rows.append("\t".join([when_text(r.at), str(d["code"]), name, where, self._detail(d)]))
        shown, page = self._paged(rows)
        header = "\t".join([_("Date and time"), _("Code"), _("Event"), _("Where"), _("Detail")])
        return MenuView(_("Event log (newest first)  -  {page}", page=page), shown or [_("no events")], header=header,
                        align="lrlll", footer=_("Draw: older   Stand: newer   Collect: back"))

    def _page_settings(self) -> MenuView:
        _ = self.words
        lines = []
        for name in self._editable():
            if name == "game":
                later = _("when no seat has a bet: {game}", game=self._game_title(self.cab.pending_game)) \
                    if self.cab.pending_game else ""
                lines.append("\t".join([_(SETTINGS[name].name), self._game_title(self.cab.profile.game),
                                        self.range_text(name), later]))
                continue
            value = self._current(name) if name not in self.cab.pending_rules else getattr(self.cab.rules, name)
            pending = (_("after the next RAM clear: {value}", value=self.value_text(name, self.cab.pending_rules[name]))
                       if name in self.cab.pending_rules else "")
            lines.append("\t".join([_(SETTINGS[name].name), self.value_text(name, value), self.range_text(name), pending]))
        header = "\t".join([_("Setting"), _("Value"), _("Range"), ""])
        return MenuView(_("Settings"), lines, min(self.cursor, len(lines) - 1), header=header, align="llll",
                        footer=_("Draw/Stand: line   Start: change (PIN)   Collect: back"))

    def _page_hardware_test(self) -> MenuView:
        _ = self.words
        if self.pressed:
            seat, button = self.pressed.split(":")
            last = _("Seat {seat}: {button}", seat=seat, button=_(BUTTON_NAMES.get(button, button)))
        else:
            last = "-"
        lines = [_("Press any button on any seat: its lamp lights and it shows here."),
                 _("last button: {button}", button=last),
                 _("Start: hopper test payout of one coin (PIN needed)")]
        return MenuView(_("Hardware test"), lines, footer=_("Start: hopper test (PIN)   Collect: back"))

    def _page_period_meter_reset(self) -> MenuView:
        _ = self.words
        return MenuView(_("Period meter reset"), [_("Start: reset the period meters (PIN and confirmation)")],
                        footer=_("Start: reset (PIN)   Collect: back"))

    def _page_ram_clear(self) -> MenuView:
        _ = self.words
        return MenuView(_("RAM clear"), [_("Start: clear every meter, credit, club and recall (PIN and confirmation)"),
                                         _("The journal keeps its hash chain; the clear is recorded.")],
                        footer=_("Start: RAM clear (PIN)   Collect: back"))

    def _page_software(self) -> MenuView:
        _ = self.words
        return MenuView(_("Software identity"), [_("SHA-256 of the program files:"), self.software_id or _("unknown")],
                        footer=_("Collect: back"))
