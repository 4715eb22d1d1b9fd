"""The operator menu: key-gated, PIN-guarded, every change journaled and in the audit export."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest

from machine.devtools.harness import SimulatedCabinet
from machine.display.gamewords import say
from machine.money.audit import gather
from machine.operator import menupages
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from machine.operator.menu import PAGES, OperatorMenu
from machine.operator.reports import as_csv

from .cabinet_helpers import TEST_KEY, boot, memory
from .helpers import stored_pin, two_seats

PIN = "2468"
PIN_BUTTONS = {
    "1": "+2", "2": "+10", "3": "x2", "4": "repeat", "5": "max",
    "6": "draw", "7": "stand", "8": "double", "9": "split", "0": "insurance",
}


def menu_for(cab) -> OperatorMenu:
    return OperatorMenu(cab, stored_pin(PIN), "test-id", say=say)


def goto(menu: OperatorMenu, page: str) -> None:
    while menu.page is not None:
        menu.press(1, "collect", 0)
    for _ in range(PAGES.index(page) - menu.cursor if PAGES.index(page) >= menu.cursor else len(PAGES)):
        if PAGES[menu.cursor] == page:
            break
        menu.press(1, "draw", 0)
    assert PAGES[menu.cursor] == page
    menu.press(1, "start", 0)


def enter_pin(menu: OperatorMenu, pin: str) -> None:
    assert menu.mode == "pin"
    for d in pin:
        menu.press(1, PIN_BUTTONS[d], 0)
    menu.press(1, "start", 0)


def test_a_wrong_pin_changes_nothing_and_is_logged(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    goto(menu, "Settings")
    menu.press(1, "start", 0)  # change betting_time: the PIN first
    enter_pin(menu, "1111")
    assert menu.mode == "browse" and "Wrong PIN" in menu.view().footer
    assert cab.settings.betting_time == 20.0
    assert [(r.data["code"], r.data["wrong"]) for r in cab.journal.records("event") if r.data["event"] == "pin_wrong"] \
        == [(174, 1)]
    assert not cab.journal.records("settings_change")


def test_a_setting_change_is_journaled_with_old_and_new_value_and_is_in_the_export(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    goto(menu, "Settings")
    menu.press(1, "start", 0)
    enter_pin(menu, PIN)
    assert menu.mode == "edit" and menu.edit_value == 20.0
    menu.press(1, "draw", 0)  # 20 -> 30
    menu.press(1, "start", 0)
    assert cab.settings.betting_time == 30.0
    (rec,) = cab.journal.records("settings_change")
    assert rec.data == {"name": "betting_time", "old": 20.0, "new": 30.0, "by": "operator"}
    cab.journal.close()
    csv = as_csv(gather(tmp_path / "journal.sqlite", TEST_KEY), "events")
    assert "settings_changed" in csv and "by=operator; name=betting_time; new=30.0; old=20.0" in csv
    again = boot(tmp_path)  # the change survives a restart
    assert again.settings.betting_time == 30.0


def test_a_setting_of_the_game_mathematics_waits_for_a_ram_clear(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    goto(menu, "Settings")
    for _ in range(list(menu.view().lines).index(next(line for line in menu.view().lines if line.startswith("Decks\t")))):
        menu.press(1, "draw", 0)
    menu.press(1, "start", 0)
    enter_pin(menu, PIN)
    menu.press(1, "draw", 0)  # 6 -> 8
    menu.press(1, "start", 0)
    assert "after the next RAM clear" in menu.view().footer
    assert cab.rules.decks == 6 and cab.pending_rules == {"decks": 8}
    goto(menu, "RAM clear")
    menu.press(1, "start", 0)  # the PIN was given in this opening of the menu: straight to confirm
    assert menu.mode == "confirm"
    menu.press(1, "start", 0)
    assert cab.rules.decks == 8 and cab.pending_rules == {} and cab.cabinet_meters.get("ram_clears") == 1


def test_a_ram_clear_needs_the_confirmation(tmp_path):
    cab = boot(tmp_path)
    cab.coin(1, "EU200A", 0)
    menu = menu_for(cab)
    goto(menu, "RAM clear")
    menu.press(1, "start", 0)
    enter_pin(menu, PIN)
    menu.press(1, "collect", 0)  # anything but Start: no
    assert cab.seats[1].money.credit == 20
    menu.press(1, "start", 0)
    menu.press(1, "start", 0)
    assert cab.seats[1].money.credit == 0 and cab.seats[1].meters.get("total_in") == 0


def test_the_period_reset_leaves_the_lifetime_meters(tmp_path):
    cab = boot(tmp_path)
    cab.coin(1, "EU200A", 0)
    menu = menu_for(cab)
    goto(menu, "Period meter reset")
    menu.press(1, "start", 0)
    enter_pin(menu, PIN)
    menu.press(1, "start", 0)
    m = cab.seats[1].meters
    assert m.get("total_in") == 20 and m.get("total_in", period=True) == 0
    assert cab.cabinet_meters.get("period_resets") == 1


def test_the_pages_show_meters_recall_events_and_identity(tmp_path):
    cab = boot(tmp_path)
    cab.coin(1, "EU200A", 0)
    menu = menu_for(cab)
    goto(menu, "Meters")
    view = menu.view()
    total_in = next(line for line in view.lines if line.startswith("Money in"))
    assert total_in.split("\t") == ["Money in", "20", "€2.00", "20", "€2.00", "20", "0"]  # lifetime, period, seats 1 and 2
    goto(menu, "Event log")
    assert any("\t100\tPower up\tcabinet\t" in line for line in menu.view().lines)
    goto(menu, "Software")
    assert menu.view().lines == ["SHA-256 of the program files:", "test-id"]
    goto(menu, "Game recall")
    assert menu.view().lines == ["no games since the last RAM clear"]


# -- through the real panel link: nothing in the menu is reachable without the operator key --------



@pytest.mark.timeout(120)
def test_without_the_operator_key_no_button_combination_reaches_the_menu(tmp_path):
    cfg = temporary(parse_config(two_seats(pin=PIN), "t.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=lambda rnd: rnd.pending.options[-1])
    try:
        rng = random.Random(5)
        buttons = ["+2", "+10", "x2", "repeat", "max", "start", "draw", "stand", "double", "split", "insurance", "auto",
                   "collect"]
        end = time.monotonic() + 60  # bounds a hang only
        while not app.panel.link_up and time.monotonic() < end:
            app.frame()
        assert app.panel.link_up
        app.sims.bus.control.coin(2, "EU200A", 3)
        held: set[tuple[int, str]] = set()
        for _ in range(300):  # mashing, holding and releasing at random instants
            seat, b = rng.randint(1, 2), rng.choice(buttons)
            if (seat, b) in held:
                app.sims.panel.release(seat, b)
                held.discard((seat, b))
            else:
                app.sims.panel.press(seat, b)
                held.add((seat, b))
            if rng.random() < 0.5:
                app.frame()
            assert app.menu is None
        for seat, b in held:
            app.sims.panel.release(seat, b)
        for _ in range(50):
            app.frame()
        kinds = {r.kind for r in app.cab.journal.records()}
        assert not kinds & {"settings_change", "ram_clear", "period_reset", "hopper_test"}
        # with the key the menu opens, play pauses, and a wrong PIN through the panel is logged
        app.sims.panel.set_key("operator", True)
        end = time.monotonic() + 60  # bounds a hang only
        while app.menu is None and time.monotonic() < end:
            app.frame()
        assert app.menu is not None and "operator" in app.cab.pauses
        for b in ("draw", "draw", "draw", "start", "start", "+2", "+2", "+2", "+2", "start"):  # Settings, change, PIN 1111
            app.sims.panel.tap(1, b)
            for _ in range(20):
                app.frame()
                time.sleep(0.002)
        end = time.monotonic() + 60  # the last taps may still be on their way on a loaded machine
        while not any(r.data["event"] == "pin_wrong" for r in app.cab.journal.records("event")) \
                and time.monotonic() < end:
            app.frame()
            time.sleep(0.002)
        assert any(r.data["event"] == "pin_wrong" for r in app.cab.journal.records("event"))
        app.sims.panel.set_key("operator", False)
        end = time.monotonic() + 60  # bounds a hang only
        while app.menu is not None and time.monotonic() < end:
            app.frame()
        assert app.menu is None and "operator" not in app.cab.pauses
    finally:
        app.close()


def test_the_settings_page_offers_only_the_settings_of_the_game_in_force(tmp_path):
    # ochko has no dealer and no soft 17: the page must not ask the rules for one (it crashed)
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.games.catalog import make_game
    from machine.operator.menu import OperatorMenu
    from machine.profiles import load_profile

    from .cabinet_helpers import stacked_shoes

    def menu_on(game: str, seats: int, folder):
        cab = open_cabinet(folder / "journal.sqlite", load_profile(game), CabinetSettings(seats=seats),
                           lambda p: make_game(p, lambda rnd: "stand"), stacked_shoes(), memory(folder), create=True)
        return cab, OperatorMenu(cab, stored_pin("1234"), "x")

    (tmp_path / "a").mkdir()
    cab, menu = menu_on("ochko", 2, tmp_path / "a")
    for b in ("draw", "draw", "draw", "start"):
        menu.press(1, b, 1)
    names = [line.split("\t")[0] for line in menu.view().lines]
    assert "Decks" in names and "Dealer hits soft 17" not in names
    cab.journal.close()
    # a blackjack game on five seats: one deck is not offered (config check refuses it too)
    (tmp_path / "b").mkdir()
    cab, menu = menu_on("casino-blackjack", 5, tmp_path / "b")
    assert menu._choices("decks") == (2, 4, 6, 8)
    cab.journal.close()


def test_the_games_range_names_up_to_three_games_and_counts_more(tmp_path, monkeypatch):
    """The Settings page's Game range: up to three titles, else how many (nine titles in one cell
    were drawn in 6-pixel type)."""
    cab = boot(tmp_path)
    menu = menu_for(cab)
    enabled = ["random-blackjack", "ochko"]
    monkeypatch.setattr(type(cab), "games_enabled", property(lambda self: list(enabled)))
    assert menu.range_text("game") == " / ".join(menu.game_title(g) for g in enabled)
    enabled += ["eenentwintig", "spanish-21"]
    assert menu.range_text("game") == "one of the 4 enabled games"
    cab.journal.close()


# -- the operator's language, the settings table, paging, the event log's times (issue 13) -----------

MENU_SOURCES = ("machine/operator/menu.py", "machine/operator/menupages.py", "machine/operator/menuwords.py",
                "machine/display/menu.py", "machine/operator/recall.py", "machine/operator/recallwords.py",
                "machine/cli/auditrecall.py")


def _menu_messages() -> set[str]:
    from pathlib import Path

    from babel.messages.extract import extract_from_file

    root = Path(__file__).resolve().parents[1]
    found = [m[1] for src in MENU_SOURCES for m in extract_from_file("python", str(root / src), keywords={"_": None, "N_": None})]
    return {m for m in found if isinstance(m, str)}


@pytest.mark.parametrize("language", ["nl", "nb", "ru"])
def test_every_message_of_the_menu_is_in_the_operator_catalog_with_its_fields(language):
    import string
    from pathlib import Path

    from babel.messages.pofile import read_po

    from machine.i18n import LOCALE_DIR

    with Path(LOCALE_DIR / language / "LC_MESSAGES" / "operator.po").open("rb") as f:
        catalog = {m.id: m.string for m in read_po(f) if m.id}
    messages = _menu_messages()
    assert len(messages) > 200  # the extraction found the menu's words
    assert sorted(m for m in messages if not catalog.get(m)) == []
    assert sorted(set(catalog) - messages) == []  # nothing left over that the menu no longer says
    fields = lambda text: sorted(f for _, f, _, _ in string.Formatter().parse(text) if f is not None)  # noqa: E731
    assert [m for m in messages if fields(m) != fields(catalog[m])] == []


def test_the_settings_page_shows_human_names_units_ranges_and_translated_values(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    goto(menu, "Settings")
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in menu.view().lines}
    assert rows["Decision time"] == ["15 s", "10-30 s", ""]
    assert rows["Dealer hits soft 17"] == ["no", "no / yes", ""]
    assert rows["Credit limit (no coins taken above)"][0] == "10,000 points = €1,000.00"  # 10 cents a point
    menu.language = "nl"
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in menu.view().lines}
    assert rows["Dealer trekt bij zacht 17"] == ["nee", "nee / ja", ""]
    assert rows["Beslistijd"][0] == "15 s" and rows["Creditlimiet (daarboven geen munten)"][0] == "10.000 punten = €\xa01.000,00"
    menu.language = "ru"
    assert menu.view().title == "Настройки" and menu.view().footer.startswith("Ещё/Хватит")


def test_the_meters_page_in_pages_with_money_at_the_cabinets_denomination(tmp_path, monkeypatch):
    cab = boot(tmp_path)
    cab.coin(1, "EU200A", 0)
    cab.core.settings = dataclasses.replace(cab.core.settings, denomination_cents=25)  # a 25-cent point
    menu = menu_for(cab)
    goto(menu, "Meters")
    first = menu.view()
    assert first.header.split("\t")[:4] == ["Meter", "Lifetime", "", "Period"] and "page 1 of 2" in first.title
    assert first.lines[0].split("\t")[:3] == ["Money in", "20", "€5.00"]
    assert len(first.lines) == 18 and "Draw: next page" in first.footer
    menu.press(1, "draw", 0)
    second = menu.view()
    assert "page 2 of 2" in second.title and second.lines[0].startswith("Power-ups\t")  # rows of notes and vouchers on page 1
    menu.press(1, "draw", 0)  # no third page: stays on the last
    assert menu.view().lines == second.lines
    assert any(line.startswith("Credit / club now\t") and line.endswith("\t20 / 0\t0 / 0") for line in second.lines)


def test_the_event_log_has_date_and_time_and_opening_the_menu_is_no_tilt(tmp_path):
    import time as clock

    cab = boot(tmp_path)
    cab.pause("operator", 1.0)  # what the loop does when the key turns
    cab.operator_event("menu opened", 1.0)
    menu = menu_for(cab)
    goto(menu, "Event log")
    lines = menu.view().lines
    when, code, event, where, detail = lines[0].split("\t")
    assert (code, event, where, detail) == ("170", "Operator: menu opened", "cabinet", "")
    assert lines[1].split("\t")[1:] == ["172", "Play paused", "cabinet", "reason: operator"]
    assert abs(clock.mktime(clock.strptime(when, "%Y-%m-%d %H:%M:%S")) - clock.time()) < 60
    assert not any("\tTilt\t" in line for line in lines)
    menu.language = "nb"
    assert menu.view().lines[1].split("\t")[1:] == ["172", "Spillet satt på pause", "maskin", "årsak: operatør"]


@pytest.mark.parametrize("scene,expected", [
    ("menu-recall", ["    4. Seat 1, hand 1: split (player)", "    6. Seat 1, hand 1: double (player)",
                     "    9. Seat 1, hand 2: stand (player)"]),
    ("menu-recall-ochko", ["    4. Seat 1: stake 2 (player)"]),
    ("menu-recall-eenentwintig", ["    5. Seat 1: stake 2 (player)", "    7. Seat 1: wash (player)",
                                  "   11. Seat 1: pass (player)"]),
    ("menu-recall-eenendertigen", ["   16. Place 1 (seat 1): swap hand card 2 for table card 2: took Q♥, gave 8♣ (player)"]),
])
def test_recall_reads_every_game_in_words(tmp_path, scene, expected):
    from machine.devtools.scenes import MENU_ON, MENU_SCENES, _menu

    cab, menu = _menu(tmp_path, *MENU_SCENES[scene], on=MENU_ON.get(scene, "split"))
    view = menu.view()
    assert [line for line in view.lines if "(player)" in line] == expected and view.picture is not None
    assert view.lines[0] == "RECALL - seat 1 - game 1 of the last 1" and view.picture is not None
    assert not any(":1:" in line or ":2:" in line for line in view.lines)  # no action codes
    menu.language = "ru"
    assert menu.view().title == "История игр — место 1" and menu.view().lines[0] == "RECALL - место 1 - игра 1 из последних 1"
    cab.journal.close()


def test_the_event_log_pages_from_the_newest(tmp_path):
    cab = boot(tmp_path)
    for i in range(30):
        cab.operator_event("wrong PIN", float(i))
    menu = menu_for(cab)
    goto(menu, "Event log")
    first = menu.view()
    assert "page 1 of 2" in first.title and len(first.lines) == 18 and first.header.startswith("Date and time\tCode")
    assert all("\t170\tOperator: wrong PIN\tcabinet\t" in line for line in first.lines)
    menu.press(1, "draw", 0)  # older
    second = menu.view()
    assert "page 2 of 2" in second.title and second.lines[-1].split("\t")[1:4] == ["100", "Power up", "cabinet"]
    menu.press(1, "stand", 0)  # newer
    assert menu.view().lines == first.lines


def test_the_operator_menu_has_its_own_language_setting():
    from machine.operator.config import ConfigError

    base = two_seats()
    assert parse_config(base, "m.yaml").operator_language is None  # the menu then speaks `language`
    assert parse_config(base + "operator_language: ru\n", "m.yaml").operator_language == "ru"
    with pytest.raises(ConfigError, match="operator_language"):
        parse_config(base + "operator_language: fr\n", "m.yaml")


def test_a_setting_change_in_the_event_log_reads_as_the_settings_page_writes_it(tmp_path):
    cab = boot(tmp_path)
    cab.change_setting("dealer_hits_soft_17", True, "operator")
    cab.change_setting("decision_timeout", 20.0, "operator")
    menu = menu_for(cab)
    goto(menu, "Event log")
    details = [line.split("\t")[-1] for line in menu.view().lines[:2]]
    assert details == ["Decision time: 15 s -> 20 s", "Dealer hits soft 17: no -> yes (after the next RAM clear)"]
    menu.language = "nl"
    assert menu.view().lines[1].split("\t")[-1] == "Dealer trekt bij zacht 17: nee -> ja (na de volgende RAM-wissing)"


def test_an_events_detail_reads_the_cores_words_in_the_operators_language(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    menu.language = "nl"
    detail = menupages.detail(menu, {"code": 150, "event": "tilt", "reason": "hopper: empty; 3 coin(s) owed"})
    assert detail == "reden: hopper: leeg; 3 munt(en) nog te betalen"


# -- the menu as a table of (state, button) -> handler, with a registry of pages (issue 22) -----------


def test_a_registered_page_is_listed_shown_and_answers_its_own_buttons(tmp_path):
    from machine.operator.menuwords import MenuView

    pressed = []
    toy = menupages.Page("Toy page", lambda menu: MenuView("Toy", [f"seat {menu.recall_seat}"], footer="toy footer"),
                         start=lambda menu: "period", keys={"x2": lambda menu, seat, button, now: pressed.append(seat)})
    menupages.register(toy)
    try:
        menu = menu_for(boot(tmp_path))
        assert menu.view().lines[-1] == "Toy page"
        menu.press(1, "stand", 0)  # from the first page back round to the last: the toy's
        menu.press(1, "start", 0)
        assert (menu.view().title, menu.view().lines, menu.view().footer) == ("Toy", ["seat 1"], "toy footer")
        menu.press(2, "x2", 0)
        assert pressed == [2] and menu.lamps() == {"draw", "stand", "start", "collect"}
        menu.press(1, "start", 0)  # what its Start asks for, after the PIN
        assert menu.mode == "pin" and menu.after_pin == "period"
    finally:
        menupages.unregister("Toy page")
    assert menupages.names() == PAGES


def test_a_button_the_table_has_no_row_for_changes_nothing(tmp_path):
    menu = menu_for(boot(tmp_path))
    for button in ("double", "split", "insurance", "auto", "collect", "+2", "x2"):
        menu.press(1, button, 0)  # the list of pages: only Draw, Stand and Start do something
        assert (menu.page, menu.cursor, menu.mode, menu.message) == (None, 0, "browse", "")
    goto(menu, "Settings")
    menu.press(1, "start", 0)
    enter_pin(menu, PIN)
    assert menu.mode == "edit" and menu.edit_value == 20.0
    for button in ("double", "+2", "auto", "insurance"):
        menu.press(1, button, 0)  # editing: only Draw, Stand, Start and Collect
        assert (menu.mode, menu.edit_value) == ("edit", 20.0)
    menu.press(1, "collect", 0)
    assert menu.mode == "browse" and menu.cab.settings.betting_time == 20.0


def test_every_state_has_a_view_and_rows_in_the_table():
    from machine.operator.menu import KEYS, VIEWS, State

    assert set(VIEWS) == set(State)
    assert {state for state, _ in KEYS} == set(State)


@pytest.mark.parametrize("language,name,detail", [
    ("en", "Operator: button panel frames refused", "count: 3, total: 5"),
    ("nl", "Operator: frames van het knoppenpaneel geweigerd", "aantal: 3, totaal: 5"),
    ("nb", "Operatør: rammer fra knappepanelet avvist", "antall: 3, totalt: 5"),
    ("ru", "Оператор: кадры панели кнопок отклонены", "количество: 3, всего: 5"),
])
def test_refused_panel_frames_and_a_failed_archive_read_in_words(tmp_path, language, name, detail):
    cab = boot(tmp_path)
    cab.operator_event("panel frames refused", 1.0, count=3, total=5)
    cab.operator_event("journal archive failed", 2.0, reason="disk full")
    menu = menu_for(cab)
    menu.language = language
    goto(menu, "Event log")
    archive, frames = (line.split("\t")[2:] for line in menu.view().lines[:2])
    assert frames == [name, {"en": "cabinet", "nl": "kast", "nb": "maskin", "ru": "автомат"}[language], detail]
    assert archive[0] == {"en": "Operator: journal archive failed", "nl": "Operator: archiveren van het journaal mislukt",
                          "nb": "Operatør: arkivering av journalen mislyktes",
                          "ru": "Оператор: архивирование журнала не удалось"}[language]
    assert archive[2].endswith(": disk full")
