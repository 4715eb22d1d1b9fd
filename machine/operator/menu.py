"""The operator menu: opened with the operator key, driven by the seat buttons, PIN-guarded.

Owns: the menu as an explicit state machine — its states (``State``: the list of pages, a
page, the PIN entry, locked or not, a confirmation, editing a setting or a line of the
Tournament form) and one table from (state, button) to what the press does (``KEYS``), the
pages' own buttons coming from their registry (machine/operator/menupages.py, which also builds
what each page shows). Everything is shown as plain text lines (``MenuView``) plus, for game
recall, the game to draw with its real cards, in the operator's language (``language``:
machine/i18n.py; the words in machine/operator/menuwords.py; money also as money at the
cabinet's denomination). Reading pages (meters, recall, events, software identity) need only
the key; anything that changes the machine (a setting, the period meters, a RAM clear, a hopper
test payout, a tournament) asks for the PIN first (checked against its slow salted hash,
machine/operator/pin.py), and a wrong PIN changes nothing and is logged; after wrong PINs the
core locks the PIN entry for a while (machine/core/pinlock.py): digits do nothing and the menu
says how long. Only the cabinet loop creates a menu, and only while the operator key is on, so
without the key no player button reaches anything here. Never draws and never imports the
display (machine/display/menu.py reads the view; the core's words in the event log are
translated by the ``say`` the loop gives), and never touches a device (a hopper test is a
request the loop hands to the bus worker).

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
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any

from hardware.buttons import Button

from machine.core import aft
from machine.core.cabinet import AFT_SETTINGS, Cabinet
from machine.i18n import Words
from machine.operator import menupages, pin
from machine.operator.config import fewest_decks
from machine.operator.menupages import ANY, BROWSE_LAMPS, tournament_field
from machine.operator.menuwords import (
    CHOICES,
    EDITABLE,
    PIN_DIGITS,
    SETTINGS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_FORM,
    WHEN,
    MenuView,
    tournament_choice_text,
)

__all__ = ["PAGES", "MenuView", "Mode", "OperatorMenu", "State"]

PAGES = menupages.names()  # the shipped pages, by the names the code and the tests use; each is shown translated


class Mode(StrEnum):
    """What the buttons do now (``OperatorMenu.mode``; equal to its value: ``mode == "pin"``)."""

    BROWSE = "browse"  # the list of pages, or a page
    PIN = "pin"  # the buttons are digits
    CONFIRM = "confirm"  # Start: yes, anything else: no
    EDIT = "edit"  # a setting's value
    TOUR_EDIT = "tour_edit"  # a line of the Tournament form


class State(Enum):
    """The rows of ``KEYS``: the mode, with browsing split into the list and a page, and the PIN
    entry into open and locked (after wrong PINs)."""

    LIST = "list"
    PAGE = "page"
    PIN = "pin"
    PIN_LOCKED = "pin locked"
    CONFIRM = "confirm"
    EDIT = "edit"
    TOUR_EDIT = "tour_edit"


def plain_words(words: Words, text: str) -> str:
    """The core's words (a tilt's reason) as the catalogs have them, for a menu given no ``say``."""
    return words(text)


@dataclass
class OperatorMenu:
    cab: Cabinet
    pin: str  # the stored PIN, scrypt with its parameters (configuration: operator_pin; machine/operator/pin.py)
    software_id: str = ""
    page: int | None = None  # None: the list of pages
    cursor: int = 0
    mode: Mode = Mode.BROWSE
    pin_entry: str = ""
    unlocked: bool = False  # the PIN was given in this opening of the menu
    after_pin: str = ""  # what the PIN unlocks: "edit", "period", "ram", "hopper", "tour_open", "tour_close", "tour_edit"
    edit_value: Any = None
    message: str = ""
    recall_seat: int = 1
    pressed: str = ""  # hardware test: the last button seen
    requests: list[str] = field(default_factory=list)  # for the loop: "hopper_test"
    tournament_form: dict[str, Any] = field(default_factory=lambda: {k: v[0] for k, v in TOURNAMENT_FORM.items()})
    seed_source: Callable[[], str] = lambda: secrets.token_hex(32)  # the OS random source; a test may inject one
    language: str = "en"  # the operator's language (configuration: operator_language)
    now: float = 0.0  # the loop's time of the last press or frame (what the PIN lock counts down from)
    say: Callable[[Words, str], str] = plain_words  # the core's words in the operator's language (the loop's)

    @property
    def words(self) -> Words:
        return Words(self.language)

    @property
    def cents_per_point(self) -> int:
        """The denomination in force (``denomination_cents`` of the configuration)."""
        return self.cab.settings.denomination_cents

    @property
    def state(self) -> State:
        if self.mode is Mode.BROWSE:
            return State.LIST if self.page is None else State.PAGE
        if self.mode is Mode.PIN and self.cab.pin_locked_for(self.now) > 0:
            return State.PIN_LOCKED
        return State(self.mode.value)

    def current_page(self) -> menupages.Page:
        assert self.page is not None
        return menupages.page(menupages.names()[self.page])

    # -- input: the table ----------------------------------------------------------------------------

    def press(self, seat: int, button: str, now: float) -> None:
        self.message = ""
        self.now = now
        state = self.state
        own = self.current_page().keys if state is State.PAGE else {}
        handler = own.get(button) or KEYS.get((state, button)) or own.get(ANY) or KEYS.get((state, ANY))
        if handler is not None:
            handler(self, seat, button, now)

    def lamps(self) -> set[str]:
        """The buttons that do something in the menu now (lit on every seat)."""
        state = self.state
        if state is State.PIN_LOCKED:
            return {Button.COLLECT}
        if state is State.PIN:
            return set(PIN_DIGITS) | {Button.START, Button.COLLECT, Button.AUTO}
        if state is State.CONFIRM:
            return {Button.START, Button.COLLECT}
        if state is State.PAGE:
            return self.current_page().lamps(self)
        return set(BROWSE_LAMPS)

    # the list of pages
    def _next_page(self, seat: int, button: str, now: float) -> None:
        self.cursor = (self.cursor + (1 if button == Button.DRAW else -1)) % len(menupages.names())

    def _open_page(self, seat: int, button: str, now: float) -> None:
        self.page, self.cursor = self.cursor, 0

    # a page
    def _close_page(self, seat: int, button: str, now: float) -> None:
        self.cursor, self.page = self.page or 0, None

    def _line(self, seat: int, button: str, now: float) -> None:
        self.cursor = max(0, self.cursor + (1 if button == Button.DRAW else -1))

    def _page_start(self, seat: int, button: str, now: float) -> None:
        start = self.current_page().start
        if start is not None:
            self._need_pin(start(self), now)

    def _need_pin(self, action: str, now: float) -> None:
        self.after_pin = action
        if self.unlocked:
            self._unlocked(now)
        else:
            self.mode, self.pin_entry = Mode.PIN, ""

    # the PIN entry
    def _digit(self, seat: int, button: str, now: float) -> None:
        if len(self.pin_entry) < 8:
            self.pin_entry += PIN_DIGITS[button]

    def _erase(self, seat: int, button: str, now: float) -> None:
        self.pin_entry = self.pin_entry[:-1]

    def _browse(self, seat: int, button: str, now: float) -> None:
        self.mode = Mode.BROWSE

    def _locked_cancel(self, seat: int, button: str, now: float) -> None:
        self.pin_entry = ""  # after wrong PINs: nothing but cancel
        if button == Button.COLLECT:
            self.mode = Mode.BROWSE

    def _check_pin(self, seat: int, button: str, now: float) -> None:
        _ = self.words
        if not pin.PIN_FORMAT.match(self.pin_entry):  # too short to be a PIN: not a try
            self.message = _("A PIN has 4 to 8 digits")
            return
        good = pin.check(self.pin_entry, self.pin)
        self.pin_entry = ""
        if not good:
            self.cab.pin_refused(now)
            self.message = _("Wrong PIN - nothing changed (logged)")
            self.mode = Mode.BROWSE
            return
        self.cab.pin_accepted(now)
        self.unlocked = True
        self._unlocked(now)

    def _unlocked(self, now: float) -> None:
        UNLOCKED[self.after_pin](self, now)

    def _edit(self, now: float) -> None:
        self.edit_value = self.current(self._editing())
        self.mode = Mode.EDIT

    def _confirm(self, now: float) -> None:
        self.mode = Mode.CONFIRM

    def _tour_edit(self, now: float) -> None:
        self.edit_value = self.tournament_form[tournament_field(self)]
        self.mode = Mode.TOUR_EDIT

    def _hopper_test(self, now: float) -> None:
        _ = self.words
        self.requests.append("hopper_test")
        self.message = _("Hopper test: paying one coin")
        self.mode = Mode.BROWSE

    # a confirmation
    def _confirmed(self, seat: int, button: str, now: float) -> None:
        CONFIRMED[self.after_pin](self, now)
        self.mode = Mode.BROWSE

    # editing a value: Draw / Stand step through the values, Collect leaves, Start takes it
    def _step(self, seat: int, button: str, now: float) -> None:
        values = self._choices(self._editing()) if self.mode is Mode.EDIT else TOURNAMENT_FORM[tournament_field(self)]
        i = values.index(self.edit_value) if self.edit_value in values else 0
        self.edit_value = values[(i + (1 if button == Button.DRAW else -1)) % len(values)]

    def _save(self, seat: int, button: str, now: float) -> None:
        _ = self.words
        self.mode = Mode.BROWSE
        name = self._editing()
        limits = self.cab.settings.aft
        new = aft.with_setting(limits, name, self.edit_value) if name in AFT_SETTINGS and limits is not None else None
        if new is not None and aft.below_transfer_in(new):  # nothing changed: the rule across the AFT limits
            self.message = _("Not changed: the AFT limit per day ({daily}) may not be below the limit per transfer "
                             "in ({transfer})", daily=_.number(new.daily_in), transfer=_.number(new.transfer_in))
            return
        if self.edit_value != self.current(name):
            when = self.cab.change_setting(name, self.edit_value, "operator")
            self.message = _("{setting} set to {value} ({when})", setting=_(SETTINGS[name].name),
                             value=self.value_text(name, self.edit_value), when=_(WHEN.get(when, when)))

    def _keep(self, seat: int, button: str, now: float) -> None:
        self.mode = Mode.BROWSE
        self.tournament_form[tournament_field(self)] = self.edit_value

    # -- what a confirmed action does ---------------------------------------------------------------

    def _reset_period(self, now: float) -> None:
        _ = self.words
        self.cab.reset_period("operator")
        self.message = _("Period meters reset")

    def _ram_clear(self, now: float) -> None:
        _ = self.words
        try:
            self.cab.ram_clear("operator")
            self.message = _("RAM cleared")
        except RuntimeError as exc:
            self.message = str(exc)

    def _close_tournament(self, now: float) -> None:
        _ = self.words
        try:
            what = self.cab.close_tournament("operator", now)
            self.message = _("Tournament: {what}", what=_(WHEN.get(what, what)))
        except ValueError as exc:
            self.message = str(exc)

    def _open_tournament(self, now: float) -> None:
        _ = self.words
        f = self.tournament_form
        try:
            t = self.cab.open_tournament(f["variant"], f["entry"], list(f["prizes"]), f["start"], f["end"],
                                         self.seed_source(), now, "operator")
        except ValueError as exc:
            self.message = _("Not opened: {why}", why=exc)
            return
        self.message = (_("Tournament {id} opened", id=t["id"]) if t["in_force"]
                        else _("Tournament {id} opened (it starts at its start time)", id=t["id"]))

    # -- settings ------------------------------------------------------------------------------------

    def _editing(self) -> str:
        """The setting the cursor is on (the Settings page, or its edit)."""
        names = self.editable()
        return names[min(self.cursor, len(names) - 1)]

    @staticmethod
    def machine_names() -> tuple[str, ...]:
        from machine.core.cabinet import MACHINE_SETTINGS, MONEY_SETTINGS

        return MONEY_SETTINGS + tuple(AFT_SETTINGS) + MACHINE_SETTINGS + ("game",)

    def editable(self) -> list[str]:
        """The settings of the menu that apply now: the machine's (the AFT limits only with AFT
        on), and the rules the game in force has (ochko has no soft 17)."""
        rules, aft_on = self.cab.rules, self.cab.settings.aft is not None
        return [n for n in EDITABLE if (n == "game" or n in self.machine_names() or hasattr(rules, n))
                and (aft_on or n not in AFT_SETTINGS)]

    def _choices(self, name: str) -> tuple[Any, ...]:
        if name == "game":
            return tuple(self.cab.games_enabled)
        if name == "payout" and not self.cab.settings.vouchers:  # no printer: no voucher
            return tuple(c for c in EDITABLE[name] if c != "voucher")
        if name == "decks":  # as config check: one deck can be too few for this game on this many seats
            return tuple(d for d in EDITABLE[name] if d >= fewest_decks(self.cab.profile, len(self.cab.seats)))
        return EDITABLE[name]

    def current(self, name: str) -> Any:
        if name == "game":
            return self.cab.pending_game or self.cab.profile.game
        if name in self.cab.pending_rules:
            return self.cab.pending_rules[name]
        if name in AFT_SETTINGS:
            if self.cab.settings.aft is None:
                raise KeyError(name)  # AFT off
            return getattr(self.cab.settings.aft, AFT_SETTINGS[name])
        for obj in (self.cab.settings.money, self.cab.settings, self.cab.rules):
            if hasattr(obj, name):
                return getattr(obj, name)
        raise KeyError(name)

    def game_title(self, game: str) -> str:
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
            return self.game_title(value)
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
        if unit == "game" and len(values) > 3:  # nine titles in one cell were too small to read: Start shows each
            return _("one of the {n} enabled games", n=len(values))
        return " / ".join(self.value_text(name, v) for v in values)

    # -- what the screen shows -------------------------------------------------------------------------

    def view(self) -> MenuView:
        view = VIEWS[self.state](self)
        view.language = self.language
        return view

    def _list_view(self) -> MenuView:
        _ = self.words
        return MenuView(_("Operator menu"), [_(p) for p in menupages.names()], self.cursor,
                        footer=self.message or self._footer())

    def _page_view(self) -> MenuView:
        view = self.current_page().view(self)
        view.footer = self.message or view.footer or self._footer()
        return view

    def _footer(self) -> str:
        _ = self.words
        return _("Draw: next   Stand: previous   Start: select   Collect: back")

    def _locked_view(self) -> MenuView:
        _ = self.words
        left = self.cab.pin_locked_for(self.now)
        return MenuView(_("Enter PIN"), [_("PIN locked: try again in {seconds} s", seconds=_.number(math.ceil(left))),
                                         "", _("Wrong PINs are logged; the lock grows with each one")],
                        footer=_("Collect: cancel"))

    def _pin_view(self) -> MenuView:
        _ = self.words
        keys = _("+2=1 +10=2 x2=3 Repeat Bet=4 Max Bet=5 Draw=6 Stand=7 Double=8 Split=9 Insurance=0")
        return MenuView(_("Enter PIN"), [_("PIN: {stars}", stars="*" * len(self.pin_entry) or "_"), "", keys],
                        footer=self.message or _("Start: OK   Auto: erase   Collect: cancel"))

    def _confirm_view(self) -> MenuView:
        _ = self.words
        what = {"period": _("Reset the period meters?"),
                "ram": _("RAM CLEAR: erase every meter, credit and recall?"),
                "tour_open": _("Open the tournament? (its seed is drawn now and published when it closes)"),
                "tour_close": _("Close the tournament? (the ranking is final, prizes become handpays)")}[self.after_pin]
        return MenuView(_("Confirm"), [what], footer=_("Start: yes   any other button: no"))

    def _edit_view(self) -> MenuView:
        _ = self.words
        name = self._editing()
        lines = [f"{self.value_text(name, self.current(name))}  ->  {self.value_text(name, self.edit_value)}",
                 _("Range: {range}", range=self.range_text(name))]
        if name not in self.machine_names():
            lines.append(_("Game mathematics: takes effect after the next RAM clear"))
        return MenuView(_("Setting: {setting}", setting=_(SETTINGS[name].name)), lines,
                        footer=_("Draw/Stand: change   Start: save   Collect: cancel"))

    def _tour_edit_view(self) -> MenuView:
        _ = self.words
        name = tournament_field(self)
        return MenuView(_("Tournament: {field}", field=_(TOURNAMENT_FIELDS[name])),
                        [f"{tournament_choice_text(name, self.tournament_form[name], _)}  ->  "
                         f"{tournament_choice_text(name, self.edit_value, _)}"],
                        footer=_("Draw/Stand: change   Start: keep   Collect: cancel"))


Handler = Callable[[OperatorMenu, int, str, float], None]
M = OperatorMenu

# (state, button) -> what the press does; ANY: every other button. A page's own buttons
# (menupages.Page.keys) come first, its ANY after this table's named buttons.
KEYS: dict[tuple[State, str], Handler] = {
    (State.LIST, Button.DRAW): M._next_page, (State.LIST, Button.STAND): M._next_page, (State.LIST, Button.START): M._open_page,
    (State.PAGE, Button.COLLECT): M._close_page, (State.PAGE, Button.DRAW): M._line, (State.PAGE, Button.STAND): M._line,
    (State.PAGE, Button.START): M._page_start,
    **{(State.PIN, digit): M._digit for digit in PIN_DIGITS},
    (State.PIN, Button.AUTO): M._erase, (State.PIN, Button.COLLECT): M._browse, (State.PIN, Button.START): M._check_pin,
    (State.PIN_LOCKED, ANY): M._locked_cancel,
    (State.CONFIRM, Button.START): M._confirmed, (State.CONFIRM, ANY): M._browse,
    (State.EDIT, Button.DRAW): M._step, (State.EDIT, Button.STAND): M._step, (State.EDIT, Button.START): M._save,
    (State.EDIT, Button.COLLECT): M._browse,
    (State.TOUR_EDIT, Button.DRAW): M._step, (State.TOUR_EDIT, Button.STAND): M._step, (State.TOUR_EDIT, Button.START): M._keep,
    (State.TOUR_EDIT, Button.COLLECT): M._browse,
}

# what the PIN (or the menu already unlocked) leads to, by what Start asked for (``after_pin``)
UNLOCKED: dict[str, Callable[[OperatorMenu, float], None]] = {
    "edit": M._edit, "tour_edit": M._tour_edit, "hopper": M._hopper_test,
    "period": M._confirm, "ram": M._confirm, "tour_open": M._confirm, "tour_close": M._confirm,
}
# what a confirmation does, by what it asked
CONFIRMED: dict[str, Callable[[OperatorMenu, float], None]] = {
    "period": M._reset_period, "ram": M._ram_clear, "tour_open": M._open_tournament, "tour_close": M._close_tournament,
}

VIEWS: dict[State, Callable[[OperatorMenu], MenuView]] = {
    State.LIST: M._list_view, State.PAGE: M._page_view, State.PIN: M._pin_view, State.PIN_LOCKED: M._locked_view,
    State.CONFIRM: M._confirm_view, State.EDIT: M._edit_view, State.TOUR_EDIT: M._tour_edit_view,
}
