"""The operator menu's pages: what each one shows, what Start asks for there, its own buttons.

Owns: the registry of pages (``register``, ``unregister``, ``names()`` in the menu's order): each ``Page`` has
its name (English, shown translated), the function that builds its ``MenuView`` from the menu's
state, what Start on it asks for after the PIN (``start``: "edit", "period", "ram", "hopper",
the Tournament page's open, close or change), the buttons it answers itself (``keys``: game
recall's next seat, the hardware test's any button) and the lamps it lights. A page reads the
cabinet and the menu; it changes nothing but the menu's own cursor and the buttons it answers.
Never draws (machine/display/menu.py does) and never imports the display: the core's words in an
event's detail are translated by the function the menu was given (``OperatorMenu.say``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hardware.buttons import Button

from machine.core.aft import METERS as AFT_METERS
from machine.i18n import N_
from machine.money.meters import CABINET_METERS, GAME_METERS, SEAT_METERS, per_game, total
from machine.operator.menuwords import (
    BUTTON_NAMES,
    DETAIL_WIDTH,
    DETAIL_WORDS,
    EVENT_NAMES,
    EVENTS_KEPT,
    METER_NAMES,
    MONEY_METERS,
    ROWS,
    SETTINGS,
    TOURNAMENT_FIELDS,
    TOURNAMENT_FORM,
    VARIANTS,
    MenuView,
    cut,
    tournament_choice_text,
    when_text,
)

if TYPE_CHECKING:
    from machine.operator.menu import OperatorMenu

Key = Callable[["OperatorMenu", int, str, float], None]  # a press the page answers: (menu, seat, button, now)
ANY = "*"  # in ``Page.keys``: any button the page does not name and the menu's table does not take
BROWSE_LAMPS = frozenset({Button.DRAW, Button.STAND, Button.START, Button.COLLECT})


@dataclass(frozen=True)
class Page:
    """One page of the menu (see the module's docstring)."""

    name: str
    view: Callable[[OperatorMenu], MenuView]
    start: Callable[[OperatorMenu], str] | None = None
    keys: dict[str, Key] = field(default_factory=dict)
    lamps: Callable[[OperatorMenu], set[str]] = lambda menu: set(BROWSE_LAMPS)


_PAGES: dict[str, Page] = {}


def register(page: Page) -> None:
    """Add a page at the end of the menu (or replace the page of that name where it is)."""
    _PAGES[page.name] = page


def unregister(name: str) -> None:
    """Take a page out of the menu (a test's page, after the test)."""
    _PAGES.pop(name, None)


def page(name: str) -> Page:
    return _PAGES[name]


def names() -> tuple[str, ...]:
    """The pages' names in the menu's order."""
    return tuple(_PAGES)


def tournament_field(menu: OperatorMenu) -> str:
    return list(TOURNAMENT_FORM)[min(menu.cursor, len(TOURNAMENT_FORM) - 1)]

def tournament_action(menu: OperatorMenu) -> str:
    """What Start on the Tournament page asks for (after the PIN)."""
    if menu.cab.tournament is not None:
        return "tour_close"
    return "tour_open" if menu.cursor >= len(TOURNAMENT_FORM) else "tour_edit"


def ranking(menu: OperatorMenu, rows: list[dict[str, Any]]) -> list[str]:
    _ = menu.words
    return ["\t".join((str(r["rank"]), r["name"], _.number(r["score"]), str(r["rounds"]))) for r in rows]

def tournament_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    t = menu.cab.tournament
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
                 *ranking(menu, t["ranking"])]
        return MenuView(_("Tournament"), lines, 2, footer=_("Start: close   Collect: back"), align="rlrr")
    fields = [f"{_(TOURNAMENT_FIELDS[name])}\t{tournament_choice_text(name, menu.tournament_form[name], _)}"
              for name in TOURNAMENT_FORM]
    lines = [*fields, _("Open the tournament (PIN)")]
    last = menu.cab.last_tournament
    if last is not None:
        lines += ["", _("Last: tournament {id} ({variant}), seed {seed}", id=last["id"],
                        variant=_(VARIANTS.get(last["variant"], last["variant"])), seed=last["seed"]),
                  header, *ranking(menu, last["ranking"])]
    return MenuView(_("Tournament (eenendertigen)"), lines, min(menu.cursor, len(TOURNAMENT_FORM)),
                    footer=_("Draw/Stand: line   Start: change or open (PIN)   Collect: back"), align="llrr")

# -- settings -----------------------------------------------------------------------------------


def paged(menu: OperatorMenu, rows: list[str]) -> tuple[list[str], str]:
    """The rows of the page the cursor is on (the cursor is kept on a page that exists), and
    "page 2 of 3"."""
    _ = menu.words
    pages = max(1, -(-len(rows) // ROWS))
    menu.cursor = min(menu.cursor, pages - 1)
    return rows[menu.cursor * ROWS:(menu.cursor + 1) * ROWS], _("page {page} of {pages}", page=menu.cursor + 1,
                                                                   pages=pages)

def meters_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    seats = menu.cab.seats
    cents = menu.cents_per_point
    life = {**total(s.meters for s in seats.values()), **menu.cab.cabinet_meters.lifetime}
    names = [n for n in SEAT_METERS if n != "handpays"] + list(CABINET_METERS) + [m for m in AFT_METERS if m in life]
    per = {**total((s.meters for s in seats.values()), period=True), **menu.cab.cabinet_meters.period}

    def row(label: str, meter: str, lifetime: int, period: int, by_seat: list[str]) -> str:
        money = meter in MONEY_METERS
        return "\t".join([label, _.number(lifetime), _.money(lifetime, cents) if money else "",
                          _.number(period), _.money(period, cents) if money else "", *by_seat])

    rows = []
    for m in names:
        by_seat = [] if m in CABINET_METERS else [_.number(s.meters.get(m)) for s in seats.values()]
        rows.append(row(_(METER_NAMES.get(m, m)), m, life.get(m, 0), per.get(m, 0), by_seat))
    for key in sorted(k for k in life if k.startswith(("note_in_count:", "note_in_value:"))):  # per note
        meter, _sep, bill = key.partition(":")
        by_seat = [_.number(s.meters.get(key)) for s in seats.values()]
        rows.append(row(f"{_(METER_NAMES[meter])}: {bill}", meter, life.get(key, 0), per.get(key, 0), by_seat))
    rows.append("\t".join([_("Credit / club now"), "", "", "", ""]
                          + [f"{_.number(s.money.credit)} / {_.number(s.money.club)}" for s in seats.values()]))
    life_games, per_games = per_game(life), per_game(per)
    for game in life_games:
        for m in GAME_METERS:
            rows.append(row(f"{menu.game_title(game)}: {_(METER_NAMES[m])}", m, life_games[game][m],
                            per_games.get(game, {}).get(m, 0), []))
    shown, page = paged(menu, rows)
    header = "\t".join([_("Meter"), _("Lifetime"), "", _("Period"), ""] + [_("Seat {seat}", seat=n) for n in seats])
    return MenuView(_("Meters (points and money)  -  {page}", page=page), shown, header=header,
                    footer=_("Draw: next page   Stand: previous page   Collect: back"))

def recall_page(menu: OperatorMenu) -> MenuView:
    """The seat's games, the newest first, one at a time: step by step in words and as a picture
    (machine/operator/recall.py, machine/display/recallpic.py), marked RECALL."""
    from machine.money.recalled import with_events
    from machine.operator.recall import recall_of, recall_text

    _ = menu.words
    games = menu.cab.journal.records("game", seat=menu.recall_seat, last=menu.cab.settings.recall_games,
                                     since=menu.cab.journal.last_of("ram_clear"))
    title = _("Game recall - seat {seat}", seat=menu.recall_seat)
    if not games:
        return MenuView(title, [_("no games since the last RAM clear")],
                        footer=_("+2: next seat   Collect: back"))
    i = min(menu.cursor, len(games) - 1)
    menu.cursor = i
    g = with_events(menu.cab.journal, games[-1 - i])
    rc = recall_of(g, _, i + 1, len(games), menu.cents_per_point, when_text(g["at"]))
    return MenuView(title, recall_text(rc), picture=rc,
                    footer=_("Draw: older   Stand: newer   +2: next seat   Collect: back"))

def setting_value(menu: OperatorMenu, name: str, value: Any) -> str:
    """A recorded value of a setting as the Settings page writes it (as recorded when it cannot)."""
    try:
        current = menu.current(name)
        value = value in (True, "True") if isinstance(current, bool) else type(current)(value)  # rules: as text
        return menu.value_text(name, value)
    except (KeyError, TypeError, ValueError):
        return str(value)

def detail(menu: OperatorMenu, data: dict[str, Any]) -> str:
    _ = menu.words
    if data.get("event") == "settings_changed" and data.get("name") in SETTINGS:
        name = data["name"]
        text = _("{setting}: {old} -> {new}", setting=_(SETTINGS[name].name), old=setting_value(menu, name, data.get("old")),
                 new=setting_value(menu, name, data.get("new")))
        if data.get("after_ram_clear"):
            text += " (" + _("after the next RAM clear") + ")"
        return cut(text, DETAIL_WIDTH * 2)
    parts = []
    for k, v in data.items():
        if k in ("code", "event"):
            continue
        if isinstance(v, str):  # the core's words (a tilt's reason, a hopper fault) as the screens read them
            value = _(DETAIL_WORDS[v]) if v in DETAIL_WORDS else menu.say(_, v)
        else:
            value = str(v)
        parts.append(f"{_(DETAIL_WORDS[k]) if k in DETAIL_WORDS else k}: {value}")
    return cut(", ".join(parts), DETAIL_WIDTH)

def event_log_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    rows = []
    for r in reversed(menu.cab.journal.records("event", last=EVENTS_KEPT)):
        d = r.data
        where = _("Seat {seat}", seat=r.seat) if r.seat else _("cabinet")
        name = _(EVENT_NAMES.get(d["event"], d["event"]))
        if d["event"] == "operator" and "what" in d:
            name = _("Operator: {what}", what=_(DETAIL_WORDS.get(d["what"], d["what"])))
            d = {k: v for k, v in d.items() if k != "what"}
        rows.append("\t".join([when_text(r.at), str(d["code"]), name, where, detail(menu, d)]))
    shown, page = paged(menu, rows)
    header = "\t".join([_("Date and time"), _("Code"), _("Event"), _("Where"), _("Detail")])
    return MenuView(_("Event log (newest first)  -  {page}", page=page), shown or [_("no events")], header=header,
                    align="lrlll", footer=_("Draw: older   Stand: newer   Collect: back"))

def settings_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    lines = []
    for name in menu.editable():
        if name == "game":
            later = _("when no seat has a bet: {game}", game=menu.game_title(menu.cab.pending_game)) \
                if menu.cab.pending_game else ""
            lines.append("\t".join([_(SETTINGS[name].name), menu.game_title(menu.cab.profile.game),
                                    menu.range_text(name), later]))
            continue
        value = menu.current(name) if name not in menu.cab.pending_rules else getattr(menu.cab.rules, name)
        pending = (_("after the next RAM clear: {value}", value=menu.value_text(name, menu.cab.pending_rules[name]))
                   if name in menu.cab.pending_rules else "")
        lines.append("\t".join([_(SETTINGS[name].name), menu.value_text(name, value), menu.range_text(name), pending]))
    header = "\t".join([_("Setting"), _("Value"), _("Range"), ""])
    return MenuView(_("Settings"), lines, min(menu.cursor, len(lines) - 1), header=header, align="llll",
                    footer=_("Draw/Stand: line   Start: change (PIN)   Collect: back"))

def hardware_test_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    if menu.pressed:
        seat, button = menu.pressed.split(":")
        last = _("Seat {seat}: {button}", seat=seat, button=_(BUTTON_NAMES.get(button, button)))
    else:
        last = "-"
    lines = [_("Press any button on any seat: its lamp lights and it shows here."),
             _("last button: {button}", button=last),
             _("Start: hopper test payout of one coin (PIN needed)")]
    return MenuView(_("Hardware test"), lines, footer=_("Start: hopper test (PIN)   Collect: back"))

def period_reset_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    return MenuView(_("Period meter reset"), [_("Start: reset the period meters (PIN and confirmation)")],
                    footer=_("Start: reset (PIN)   Collect: back"))

def ram_clear_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    return MenuView(_("RAM clear"), [_("Start: clear every meter, credit, club and recall (PIN and confirmation)"),
                                     _("The journal keeps its hash chain; the clear is recorded.")],
                    footer=_("Start: RAM clear (PIN)   Collect: back"))

def software_page(menu: OperatorMenu) -> MenuView:
    _ = menu.words
    return MenuView(_("Software identity"), [_("SHA-256 of the program files:"), menu.software_id or _("unknown")],
                    footer=_("Collect: back"))


# -- the pages' own buttons ----------------------------------------------------------------------


def next_recall_seat(menu: OperatorMenu, seat: int, button: str, now: float) -> None:
    menu.recall_seat = menu.recall_seat % len(menu.cab.seats) + 1
    menu.cursor = 0


def hardware_pressed(menu: OperatorMenu, seat: int, button: str, now: float) -> None:
    menu.pressed = f"{seat}:{button}"


def hardware_lamps(menu: OperatorMenu) -> set[str]:
    """The hardware test lights the last button pressed, nothing else."""
    return {menu.pressed.split(":")[1]} if menu.pressed else set()


def always(action: str) -> Callable[[OperatorMenu], str]:
    return lambda menu: action


for _page in (
    Page(N_("Meters"), meters_page),
    Page(N_("Game recall"), recall_page, keys={Button.PLUS_2: next_recall_seat, Button.PLUS_10: next_recall_seat},
         lamps=lambda menu: set(BROWSE_LAMPS) | {Button.PLUS_2}),
    Page(N_("Event log"), event_log_page),
    Page(N_("Settings"), settings_page, start=always("edit")),
    Page(N_("Hardware test"), hardware_test_page, start=always("hopper"),
         keys={Button.DRAW: hardware_pressed, Button.STAND: hardware_pressed, ANY: hardware_pressed}, lamps=hardware_lamps),
    Page(N_("Period meter reset"), period_reset_page, start=always("period")),
    Page(N_("RAM clear"), ram_clear_page, start=always("ram")),
    Page(N_("Software"), software_page),
    Page(N_("Tournament"), tournament_page, start=tournament_action),
):
    register(_page)
