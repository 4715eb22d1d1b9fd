"""The AFT limits as operator settings: on the Settings page only with AFT on, changed after the
PIN, journaled like every setting, in force at once for the next transfer the host asks (never
for one already journaled), kept over a restart (the journal's value over the configuration's),
and never a day's limit in below the limit of one transfer in."""

from __future__ import annotations

import pytest

from machine.core import aft
from machine.display.gamewords import say
from machine.money.audit import gather
from machine.operator.config import parse_config
from machine.operator.menu import OperatorMenu
from machine.operator.reports import as_csv, as_text
from machine.sas.aft import CabinetAft

from .cabinet_helpers import TEST_KEY, boot
from .helpers import stored_pin, two_seats
from .test_operator_menu import PIN, enter_pin, goto

LINKS = "sas:\n  links:\n    - {port: /dev/ttyS4, address: 1, seat: 1}\n"
AFT_ON = "aft:\n  enabled: true\n  assets: {1: 1001}\n"  # the shipped limits: 5,000 / 20,000 a day / 10,000 out
NAMES = {"transfer_in_limit": "AFT limit per transfer in", "daily_in_limit": "AFT limit in per seat per day",
         "transfer_out_limit": "AFT limit per transfer out", "registration_required": "AFT only on seats the host registered"}


def settings(aft_section: str = AFT_ON):
    return parse_config(two_seats() + LINKS + aft_section, "m.yaml").cabinet_settings()


def menu_for(cab) -> OperatorMenu:
    return OperatorMenu(cab, stored_pin(PIN), "test-id", say=say)


def edit(menu: OperatorMenu, label: str, *steps: str, pin: bool = True) -> None:
    """On the Settings page: the line ``label``, Start (the PIN if asked), the steps, Start to save."""
    goto(menu, "Settings")
    names = [line.split("\t")[0] for line in menu.view().lines]
    for _ in range(names.index(label)):
        menu.press(1, "draw", 0)
    menu.press(1, "start", 0)
    if menu.mode == "pin":
        enter_pin(menu, PIN)
    assert menu.mode == "edit"
    for b in steps:
        menu.press(1, b, 0)
    menu.press(1, "start", 0)


def host_transfer(cab, tid: str, points: int, to_seat: bool = True) -> tuple[str, int]:
    """The host's 72 as the SAS bridge hands it to the core: (what the child is told, status)."""
    reply = CabinetAft(cab, {1: 1001}).asked(1, "aft_transfer", {"id": tid, "to_seat": to_seat, "points": points,
                                                                 "partial": False}, 1.0)
    assert reply is not None
    return ("aft_done", reply["result"]["status"]) if "aft_done" in reply else ("aft_refuse", reply["status"])


def test_the_aft_settings_are_on_the_settings_page_only_with_aft_on(tmp_path):
    (tmp_path / "off").mkdir()
    cab = boot(tmp_path / "off", settings=settings(""))
    goto(menu := menu_for(cab), "Settings")
    assert not set(NAMES.values()) & {line.split("\t")[0] for line in menu.view().lines}
    with pytest.raises(ValueError, match=r"^AFT is off \(aft.enabled in the configuration\): transfer_in_limit cannot"):
        cab.change_setting("transfer_in_limit", 1000, "operator")
    cab.journal.close()
    (tmp_path / "on").mkdir()
    cab = boot(tmp_path / "on", settings=settings())
    goto(menu := menu_for(cab), "Settings")
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in menu.view().lines}
    assert [rows[NAMES[n]] for n in NAMES] == [
        ["5,000 points = €500.00", "500-20,000 points", ""], ["20,000 points = €2,000.00", "1,000-100,000 points", ""],
        ["10,000 points = €1,000.00", "500-20,000 points", ""], ["no", "no / yes", ""]]
    names = list(rows)  # beside the money settings, before the game's mathematics
    assert names.index("Leftover below one coin") + 1 == names.index(NAMES["transfer_in_limit"])
    assert names.index(NAMES["registration_required"]) + 1 == names.index("Decks")


def test_a_limit_changed_in_the_menu_is_journaled_and_limits_the_next_transfer_and_a_restart_keeps_it(tmp_path):
    cab = boot(tmp_path, settings=settings())
    assert host_transfer(cab, "IN-1", 2500) == ("aft_done", aft.FULL)  # under the configured 5,000
    menu = menu_for(cab)
    edit(menu, NAMES["transfer_in_limit"], "stand")  # 5,000 -> 2,000
    assert menu.view().footer == "AFT limit per transfer in set to 2,000 points = €200.00 (changed)"
    (rec,) = cab.journal.records("settings_change")
    assert rec.data == {"name": "transfer_in_limit", "old": 5000, "new": 2000, "by": "operator"}
    (event,) = [r.data for r in cab.journal.records("event") if r.data["event"] == "settings_changed"]
    assert event == {"event": "settings_changed", "code": 171, "name": "transfer_in_limit", "old": 5000, "new": 2000,
                     "by": "operator"}
    assert host_transfer(cab, "IN-2", 2500) == ("aft_refuse", aft.OVER_LIMIT)  # the next transfer: the new limit
    assert host_transfer(cab, "IN-3", 2000) == ("aft_done", aft.FULL)
    edit(menu, NAMES["registration_required"], "draw")  # no -> yes: the host has registered no seat
    assert host_transfer(cab, "IN-4", 100) == ("aft_refuse", aft.NOT_REGISTERED)
    assert cab.seats[1].money.credit == 4500
    cab.journal.close()
    again = boot(tmp_path, settings=settings())  # the configuration still says 5,000 and no registration
    assert again.settings.aft == aft.AftLimits(2000, 20000, 10000, True)
    assert menu_for(again).current("transfer_in_limit") == 2000
    again.change_setting("registration_required", False, "operator")
    assert host_transfer(again, "IN-5", 2500) == ("aft_refuse", aft.OVER_LIMIT)
    assert host_transfer(again, "IN-6", 2000) == ("aft_done", aft.FULL)
    again.journal.close()
    off = boot(tmp_path, settings=settings(""))  # AFT off in the configuration: the journal's limits wait unused
    assert off.settings.aft is None and off.core.state.row.overrides["transfer_in_limit"] == 2000
    off.journal.close()


def test_a_days_limit_below_the_limit_of_one_transfer_is_refused_with_a_clear_message(tmp_path):
    cab = boot(tmp_path, settings=settings())
    menu = menu_for(cab)
    edit(menu, NAMES["daily_in_limit"], "stand", "stand", "stand")  # 20,000 -> 10,000 -> 5,000 -> 2,000
    assert menu.view().footer == ("Not changed: the AFT limit per day (2,000) may not be below the limit per transfer in "
                                  "(5,000)")
    menu.language = "nl"
    edit(menu, "AFT-limiet per overboeking naar de stoel", "draw", "draw")  # 5,000 -> 10,000 -> 20,000: fine
    edit(menu, "AFT-limiet per overboeking naar de stoel", "draw")  # 20,000 -> 500 (around): fine
    edit(menu, "AFT-limiet naar de stoel per dag", "stand", "stand", "stand", "stand")  # 20,000 -> 1,000: not below 500
    assert cab.settings.aft == aft.AftLimits(500, 1000, 10000)
    edit(menu, "AFT-limiet per overboeking naar de stoel", "draw", "draw")  # 500 -> 2,000: above the day's 1,000
    assert menu.view().footer == ("Niet gewijzigd: de AFT-limiet per dag (1.000) mag niet lager zijn dan de limiet per "
                                  "overboeking naar de stoel (2.000)")
    for language, expected in (("nb", "Ikke endret: AFT-grensen per dag (1\xa0000) kan ikke være lavere enn grensen per "
                                      "overføring inn (2\xa0000)"),
                               ("ru", "Не изменено: дневной предел AFT (1\xa0000) не может быть ниже предела одного "
                                      "зачисления (2\xa0000)")):
        menu.language = language
        edit(menu, menu.words(NAMES["transfer_in_limit"]), "draw", "draw")
        assert menu.view().footer == expected
    assert cab.settings.aft == aft.AftLimits(500, 1000, 10000)  # nothing changed by the refusals
    assert [r.data["name"] for r in cab.journal.records("settings_change")] == [
        "transfer_in_limit", "transfer_in_limit", "daily_in_limit"]
    with pytest.raises(ValueError, match=r"^daily_in_limit 1000 would be below transfer_in_limit 2000 \(no transfer"):
        cab.change_setting("transfer_in_limit", 2000, "operator")  # the core refuses it too, whoever asks
    with pytest.raises(ValueError, match=r"^transfer_out_limit: 0 is not a limit"):
        cab.change_setting("transfer_out_limit", 0, "operator")
    assert len(cab.journal.records("settings_change")) == 3
    cab.change_setting("daily_in_limit", 500, "operator")  # equal to the limit of one transfer: allowed
    assert cab.settings.aft.daily_in == 500


def test_a_transfer_journaled_before_a_change_ends_under_the_limits_it_was_asked_under(tmp_path):
    """A power cut between the host's request (journaled, checked) and its completion: the limit
    lowered after the restart does not refuse what was already accepted; the next one it does."""
    cab = boot(tmp_path, settings=settings())
    pending = {"id": "IN-1", "to_seat": True, "points": 4000, "partial": False, "when": "2026-12-02T01:00:00",
               "limits": [5000, 20000, 10000]}
    with cab.core.tx("aft_request", pending, 1):  # the first of aft_transfer's two transactions, then the cut
        aft.request(cab.core, 1, pending)
    cab.journal.close()
    again = boot(tmp_path, settings=settings())
    edit(menu_for(again), NAMES["transfer_in_limit"], "stand", "stand")  # 5,000 -> 1,000
    assert again.settings.aft.transfer_in == 1000
    result = again.aft_resume(1, 2.0)
    assert result is not None and (result["status"], result["points"]) == (aft.FULL, 4000)
    assert again.seats[1].money.credit == 4000
    assert host_transfer(again, "IN-2", 4000) == ("aft_refuse", aft.OVER_LIMIT)


def test_the_event_log_and_the_audit_name_an_aft_change_in_every_language(tmp_path):
    cab = boot(tmp_path, settings=settings())
    cab.change_setting("transfer_out_limit", 2000, "operator")
    cab.change_setting("registration_required", True, "operator")
    menu = menu_for(cab)
    goto(menu, "Event log")
    texts = {}
    for language in ("en", "nl", "nb", "ru"):
        menu.language = language
        texts[language] = [line.split("\t")[-1] for line in menu.view().lines[:2]]
    assert texts == {
        "en": ["AFT only on seats the host registered: no -> yes",
               "AFT limit per transfer out: 10,000 points = €1,000.00 -> 2,000 points = €200.00"],
        "nl": ["AFT alleen op stoelen die de host registreerde: nee -> ja",
               "AFT-limiet per overboeking naar de host: 10.000 punten = €\xa01.000,00 -> 2.000 punten = €\xa0200,00"],
        "nb": ["AFT bare på plasser verten har registrert: nei -> ja",
               "AFT-grense per overføring ut: 10\xa0000 poeng = 1\xa0000,00\xa0€ -> 2\xa0000 poeng = 200,00\xa0€"],
        "ru": ["AFT только на местах, зарегистрированных хостом: нет -> да",
               "Предел AFT на одно списание: 10\xa0000 очк. = 1\xa0000,00\xa0€ -> 2\xa0000 очк. = 200,00\xa0€"],
    }
    cab.journal.close()
    report = gather(tmp_path / "journal.sqlite", TEST_KEY)  # the audit: the configuration's names, as recorded
    assert "settings_changed     cabinet  by=operator, name=transfer_out_limit, new=2000, old=10000" in as_text(report, "events")
    assert "by=operator; name=registration_required; new=True; old=False" in as_csv(report, "events")
