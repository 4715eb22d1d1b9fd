"""The operator menu: opened with the operator key, driven by the seat buttons, PIN-guarded.

Owns: the menu as an explicit state machine (pages, the PIN entry, confirmations, editing a
setting) and what each page shows, as plain text lines plus, for game recall, the game to draw
with its real cards. Reading pages (meters, recall, events, software identity) need only the
key; anything that changes the machine (a setting, the period meters, a RAM clear, a hopper
test payout) asks for the PIN first, and a wrong PIN changes nothing and is logged. Only the
cabinet loop creates a menu, and only while the operator key is on, so without the key no
player button reaches anything here. Never draws (display/menu.py does) and never touches a
device (a hopper test is a request the loop hands to the bus worker).

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

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from machine.core.cabinet import Cabinet
from machine.money.audit import move_text
from machine.money.meters import CABINET_METERS, GAME_METERS, SEAT_METERS, per_game, total
from machine.operator.config import MIN_SEATS_FOR_TWO_DECKS

PIN_DIGITS = {
    "+2": "1", "+10": "2", "x2": "3", "repeat": "4", "max": "5",
    "draw": "6", "stand": "7", "double": "8", "split": "9", "insurance": "0",
}
RECALL_WIDTH = 100  # characters in a recall line of moves before it wraps
RECALL_MOVE_LINES = 8  # the most lines of moves the recall page shows (the cards are drawn below)
PAGES = ("Meters", "Game recall", "Event log", "Settings", "Hardware test", "Period meter reset", "RAM clear", "Software",
         "Tournament")
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

# The Tournament page's choices; start and end count in seconds from the moment it is opened
TOURNAMENT_FORM: dict[str, tuple[Any, ...]] = {
    "variant": ("classic", "modern"),
    "entry": (0, 10, 20, 50, 100),
    "prizes": ((), (100,), (200, 100, 50), (500, 250, 100), (1000, 500, 250)),
    "start": (None, 900.0, 1800.0, 3600.0, 7200.0),
    "end": (None, 3600.0, 7200.0, 14400.0, 28800.0, 86400.0),
}


def tournament_choice_text(name: str, value: Any) -> str:
    if name == "entry":
        return f"{value} points"
    if name == "prizes":
        return "/".join(map(str, value)) + " points (ranks 1..)" if value else "none"
    if name == "start":
        return "now" if value is None else f"in {int(value // 60)} min"
    if name == "end":
        return "none" if value is None else f"after {int(value // 3600)} h"
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


def pin_hash(pin: str) -> str:
    return hashlib.sha256(f"cabinet-pin:{pin}".encode()).hexdigest()


@dataclass
class MenuView:
    title: str
    lines: list[str]
    selected: int | None = None  # index into lines that is highlighted
    recall: dict[str, Any] | None = None  # a game to draw with its cards
    footer: str = ""


@dataclass
class OperatorMenu:
    cab: Cabinet
    pin_sha256: str
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

    # -- input --------------------------------------------------------------------------------

    def press(self, seat: int, button: str, now: float) -> None:
        self.message = ""
        if self.mode == "pin":
            self._pin_key(button, now)
        elif self.mode == "confirm":
            if button == "start":
                self._do(self.after_pin, now)
            self.mode = "browse"
        elif self.mode == "edit":
            self._edit_key(button, now)
        elif self.mode == "tour_edit":
            self._tournament_edit_key(button)
        elif self.page is not None and PAGES[self.page] == "Hardware test" and button not in ("collect", "start"):
            self.pressed = f"seat {seat}: {button}"
        else:
            self._browse_key(seat, button, now)

    def _browse_key(self, seat: int, button: str, now: float) -> None:
        if self.page is None:
            if button == "draw":
                self.cursor = (self.cursor + 1) % len(PAGES)
            elif button == "stand":
                self.cursor = (self.cursor - 1) % len(PAGES)
            elif button == "start":
                self.page, self.cursor = self.cursor, 0
            return
        name = PAGES[self.page]
        if button == "collect":
            self.cursor, self.page = self.page, None
            return
        if button in ("draw", "stand"):
            self.cursor += 1 if button == "draw" else -1
            self.cursor = max(0, self.cursor)
            return
        if name == "Game recall" and button in ("+2", "+10"):
            self.recall_seat = self.recall_seat % len(self.cab.seats) + 1
            self.cursor = 0
        elif button == "start" and name == "Tournament":
            self._need_pin(self._tournament_action(), now)
        elif button == "start":
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
        if button in PIN_DIGITS and len(self.pin_entry) < 8:
            self.pin_entry += PIN_DIGITS[button]
        elif button == "auto":
            self.pin_entry = self.pin_entry[:-1]
        elif button == "collect":
            self.mode = "browse"
        elif button == "start":
            good = hmac.compare_digest(pin_hash(self.pin_entry), self.pin_sha256)
            self.pin_entry = ""
            if not good:
                self.cab.operator_event("wrong PIN", now)
                self.message = "Wrong PIN - nothing changed (logged)"
                self.mode = "browse"
                return
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
        name = self._editable()[min(self.cursor, len(self._editable()) - 1)]
        if self._choose(button, self._choices(name)) and self.edit_value != self._current(name):
            when = self.cab.change_setting(name, self.edit_value, "operator")
            self.message = f"{name} set to {self.edit_value} ({when})"

    def _choose(self, button: str, values: tuple[Any, ...]) -> bool:
        """Draw / Stand step through ``values``, Collect leaves, Start takes the value (True)."""
        i = values.index(self.edit_value) if self.edit_value in values else 0
        if button in ("draw", "stand"):
            self.edit_value = values[(i + (1 if button == "draw" else -1)) % len(values)]
        elif button in ("collect", "start"):
            self.mode = "browse"
        return button == "start"

    def _do(self, action: str, now: float) -> None:
        if action == "period":
            self.cab.reset_period("operator")
            self.message = "Period meters reset"
        elif action == "ram":
            try:
                self.cab.ram_clear("operator")
                self.message = "RAM cleared"
            except RuntimeError as exc:
                self.message = str(exc)
        elif action == "hopper":
            self.requests.append("hopper_test")
            self.message = "Hopper test: paying one coin"
        elif action == "tour_open":
            f = self.tournament_form
            try:
                t = self.cab.open_tournament(f["variant"], f["entry"], list(f["prizes"]), f["start"], f["end"],
                                             self.seed_source(), now, "operator")
            except ValueError as exc:
                self.message = f"Not opened: {exc}"
                return
            self.message = f"Tournament {t['id']} opened" + ("" if t["in_force"] else " (it starts at its start time)")
        elif action == "tour_close":
            try:
                self.message = f"Tournament: {self.cab.close_tournament('operator', now)}"
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

    def _page_tournament(self) -> MenuView:
        t = self.cab.tournament
        if t is not None:
            state = "playing: the cabinet plays only the tournament" if t["in_force"] else "open, waiting for its start time"
            prizes = "/".join(map(str, t["prizes"])) or "none"
            lines = [f"Tournament {t['id']} ({t['variant']}): {state}",
                     f"entry {t['entry']}  prizes {prizes}  participants {len(t['participants'])} of 10",
                     "Start: close it now (PIN; a round in play ends first)", "",
                     "\t".join(("ranking", "rank", "name", "score", "rounds"))]
            lines += ["\t".join(("", str(r["rank"]), r["name"], str(r["score"]), str(r["rounds"]))) for r in t["ranking"]]
            return MenuView("Tournament", lines, 2, footer="Start: close   Collect: back")
        fields = [f"{name}\t{tournament_choice_text(name, self.tournament_form[name])}" for name in TOURNAMENT_FORM]
        lines = [*fields, "Open the tournament (PIN)"]
        last = self.cab.last_tournament
        if last is not None:
            lines += ["", f"Last: tournament {last['id']} ({last['variant']}), seed {last['seed']}"]
            lines += ["\t".join(("", str(r["rank"]), r["name"], str(r["score"]), str(r["rounds"]))) for r in last["ranking"]]
        return MenuView("Tournament (eenendertigen)", lines, min(self.cursor, len(TOURNAMENT_FORM)),
                        footer="Draw/Stand: line   Start: change or open (PIN)   Collect: back")

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

    def lamps(self) -> set[str]:
        """The buttons that do something in the menu now (lit on every seat)."""
        if self.mode == "pin":
            return set(PIN_DIGITS) | {"start", "collect", "auto"}
        if self.mode == "confirm":
            return {"start", "collect"}
        if self.page is not None and PAGES[self.page] == "Hardware test":
            return {self.pressed.split(": ")[1]} if self.pressed else set()
        lit = {"draw", "stand", "start", "collect"}
        if self.page is not None and PAGES[self.page] == "Game recall":
            lit |= {"+2"}
        return lit

    # -- what the screen shows ---------------------------------------------------------------------

    def view(self) -> MenuView:
        footer = "Draw: next   Stand: previous   Start: select   Collect: back"
        if self.mode == "pin":
            keys = "+2=1 +10=2 x2=3 Repeat=4 Max=5 Draw=6 Stand=7 Double=8 Split=9 Insure=0"
            return MenuView("Enter PIN", ["*" * len(self.pin_entry) or "_"],
                            footer=f"{keys}  Start: OK  Auto: erase  Collect: cancel")
        if self.mode == "confirm":
            what = {"period": "Reset the period meters?",
                    "ram": "RAM CLEAR: erase every meter, credit and recall?",
                    "tour_open": "Open the tournament? (its seed is drawn now and published when it closes)",
                    "tour_close": "Close the tournament? (the ranking is final, prizes become handpays)"}[self.after_pin]
            return MenuView("Confirm", [what, "", "Start: yes   any other button: no"])
        if self.mode == "edit":
            name = self._editable()[min(self.cursor, len(self._editable()) - 1)]
            note = " (game mathematics: takes effect after the next RAM clear)" if name not in self._machine_names() else ""
            return MenuView(f"Setting: {name}", [f"{self._current(name)}  ->  {self.edit_value}{note}"],
                            footer="Draw/Stand: change   Start: save   Collect: cancel")
        if self.mode == "tour_edit":
            name = self._tournament_field()
            return MenuView(f"Tournament: {name}", [f"{tournament_choice_text(name, self.tournament_form[name])}  ->  "
                                                    f"{tournament_choice_text(name, self.edit_value)}"],
                            footer="Draw/Stand: change   Start: keep   Collect: cancel")
        if self.page is None:
            lines = list(PAGES)
            return MenuView("Operator menu", lines, self.cursor, footer=self.message or footer)
        name = PAGES[self.page]
        view = getattr(self, "_page_" + name.lower().replace(" ", "_"))()
        view.footer = self.message or view.footer or footer
        return view

    @staticmethod
    def _machine_names() -> tuple[str, ...]:
        from machine.core.cabinet import MACHINE_SETTINGS, MONEY_SETTINGS

        return MONEY_SETTINGS + MACHINE_SETTINGS + ("game",)

    def _page_meters(self) -> MenuView:
        seats = self.cab.seats
        names = [n for n in SEAT_METERS if n != "handpays"] + list(CABINET_METERS)
        life = {**total(s.meters for s in seats.values()), **self.cab.cabinet_meters.lifetime}
        per = {**total((s.meters for s in seats.values()), period=True), **self.cab.cabinet_meters.period}
        lines = ["\t".join(["meter", "lifetime", "period"] + [f"seat {n}" for n in seats])]
        for m in names:
            lines.append("\t".join([m, str(life.get(m, 0)), str(per.get(m, 0))] + [str(s.meters.get(m)) for s in seats.values()]))
        lines.append("\t".join(["credit / club", "", ""] + [f"{s.money.credit}/{s.money.club}" for s in seats.values()]))
        life_games, per_games = per_game(life), per_game(per)
        for game in life_games:
            for m in GAME_METERS:
                lines.append("\t".join([f"{game}: {m}", str(life_games[game][m]), str(per_games.get(game, {}).get(m, 0))]))
        return MenuView("Meters (lifetime and period, points)", lines)

    def _page_game_recall(self) -> MenuView:
        games = [r.data for r in self.cab.journal.records("game", seat=self.recall_seat, last=self.cab.settings.recall_games,
                                                          since=self.cab.journal.last_of("ram_clear"))]
        if not games:
            return MenuView(f"Game recall - seat {self.recall_seat}", ["no games since the last RAM clear"],
                            footer="+2: next seat   Collect: back")
        i = min(self.cursor, len(games) - 1)
        g = games[-1 - i]
        seat = g["seat"]
        extras = "".join(f"  {k} {seat[k]}" for k in ("insurance", "bonus") if seat.get(k))
        bank = (f"  bank {g['bank_before']} -> {g['bank_after']}" + ("  (stuk)" if g.get("stuk") else "")
                if "bank_before" in g else "")
        lines = [
            f"game {g['round_no']}  ({i + 1} of the last {len(games)})  {g.get('title', '')}",
            f"bet {seat['bet']}  staked {seat['staked']}  returned {seat['returned']}{extras}{bank}",
            f"credit/club before {g['before']['credit']}/{g['before']['club']}  "
            f"after {g['after']['credit']}/{g['after']['club']}",
            "decisions: " + (", ".join(f"{d['action']} ({d['by']})" for d in g["decisions"]) or "none"),
        ]
        if "moves" in g:  # a game of places: how it ended and every place's moves (the cards are drawn below)
            lines.append(f"ended {g.get('ended', '?')}  winners " + ", ".join(f"place {w}" for w in g.get("winners", [])))
            moves = ", ".join(move_text(m) for m in g["moves"]) or "none"
            lines += _wrapped(f"moves: {moves}", RECALL_WIDTH, RECALL_MOVE_LINES)
        return MenuView(f"Game recall - seat {self.recall_seat}", lines, recall=g,
                        footer="Draw: older   Stand: newer   +2: next seat   Collect: back")

    def _page_event_log(self) -> MenuView:
        events = self.cab.journal.records("event", last=200)
        lines = []
        for r in reversed(events):
            d = r.data
            detail = ", ".join(f"{k}={v}" for k, v in d.items() if k not in ("code", "event"))
            where = f"seat {r.seat}" if r.seat else "cabinet"
            lines.append(f"#{r.seq:<6} {d['code']:>4} {d['event']:<18} {where:<8} {detail}"[:110])
        start = min(self.cursor, max(0, len(lines) - 1))
        return MenuView("Event log (newest first)", lines[start:start + 22] or ["no events"])

    def _page_settings(self) -> MenuView:
        lines = []
        for name in self._editable():
            pending = f"   (after RAM clear: {self.cab.pending_rules[name]})" if name in self.cab.pending_rules else ""
            if name == "game":
                later = f"   (when no seat has a bet: {self.cab.pending_game})" if self.cab.pending_game else ""
                lines.append(f"{name:<22}{self.cab.profile.game:>10}{later}")
                continue
            value = self._current(name) if name not in self.cab.pending_rules else getattr(self.cab.rules, name)
            lines.append(f"{name:<22}{value!s:>10}{pending}")
        return MenuView("Settings (Start: change, PIN needed)", lines, min(self.cursor, len(lines) - 1))

    def _page_hardware_test(self) -> MenuView:
        lines = ["Press any button on any seat: its lamp lights and it shows here.",
                 f"last button: {self.pressed or '-'}",
                 "Start: hopper test payout of one coin (PIN needed)"]
        return MenuView("Hardware test", lines)

    def _page_period_meter_reset(self) -> MenuView:
        return MenuView("Period meter reset", ["Start: reset the period meters (PIN and confirmation)"])

    def _page_ram_clear(self) -> MenuView:
        return MenuView("RAM clear", ["Start: clear every meter, credit, club and recall (PIN and confirmation)",
                                      "The journal keeps its hash chain; the clear is recorded."])

    def _page_software(self) -> MenuView:
        return MenuView("Software identity", [f"SHA-256 of the program files: {self.software_id or 'unknown'}"])
