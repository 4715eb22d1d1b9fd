"""The operator menu's words and tables: what it calls each setting, meter, event and button.

Owns: the settings the menu can change and their values (``EDITABLE``, ``SETTINGS``), the
meters', events' and buttons' human names, the recall's words for decisions, the Tournament
page's form, the PIN digits on the seat buttons, the page sizes, and ``MenuView``, what a page
shows (plain text lines in the operator's language). Everything here is data and pure text
functions: no cabinet, no state, no drawing (machine/display/menu.py draws a ``MenuView``).
The words are English marked with ``N_``; the menu translates them (machine/i18n.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from hardware.buttons import Button

from machine.i18n import N_, Words

PIN_DIGITS: dict[str, str] = {
    Button.PLUS_2: "1", Button.PLUS_10: "2", Button.TIMES_2: "3", Button.REPEAT: "4", Button.MAX: "5",
    Button.DRAW: "6", Button.STAND: "7", Button.DOUBLE: "8", Button.SPLIT: "9", Button.INSURANCE: "0",
}
ROWS = 18  # table rows on one page of the meters or the event log (fits 1280x720 and 1920x1080)
EVENTS_KEPT = 200  # the newest events the log pages through
DETAIL_WIDTH = 48  # characters of an event's detail before it is cut with "..."
# The pages, by the names the code and the tests use; each is shown translated
EDITABLE: dict[str, tuple[Any, ...]] = {
    "betting_time": (10.0, 15.0, 20.0, 30.0, 45.0, 60.0),
    "decision_timeout": (10.0, 15.0, 20.0, 30.0),
    "credit_limit": (1000, 5000, 10000),
    "payout": ("hopper", "handpay", "voucher"),  # voucher: only with a ticket printer (menu.py)
    "hopper_limit": (500, 1000, 2000, 5000),
    "remainder": ("keep", "handpay"),
    # AFT (cashless transfers with the host), only while aft.enabled: at once, for the transfers asked after
    "transfer_in_limit": (500, 1000, 2000, 5000, 10000, 20000),
    "daily_in_limit": (1000, 2000, 5000, 10000, 20000, 50000, 100000),  # never below transfer_in_limit
    "transfer_out_limit": (500, 1000, 2000, 5000, 10000, 20000),
    "registration_required": (False, True),
    "decks": (1, 2, 4, 6, 8),  # game mathematics: after a RAM clear
    "dealer_hits_soft_17": (False, True),  # game mathematics: after a RAM clear
    "game": (),  # one of the enabled games; in force when no seat has a bet or a hand
    "sound_volume": (0, 10, 25, 50, 70, 100),  # the table's sounds, in per cent
    "sound_muted": (False, True),
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
    "transfer_in_limit": Setting(N_("AFT limit per transfer in"), "points"),
    "daily_in_limit": Setting(N_("AFT limit in per seat per day"), "points"),
    "transfer_out_limit": Setting(N_("AFT limit per transfer out"), "points"),
    "registration_required": Setting(N_("AFT only on seats the host registered"), "yes/no"),
    "decks": Setting(N_("Decks"), "count"),
    "dealer_hits_soft_17": Setting(N_("Dealer hits soft 17"), "yes/no"),
    "game": Setting(N_("Game"), "game"),
    "sound_volume": Setting(N_("Sound volume (per cent)"), "count"),
    "sound_muted": Setting(N_("Sound off"), "yes/no"),
}
CHOICES = {"hopper": N_("hopper"), "handpay": N_("handpay"), "keep": N_("kept on the credit meter"),
           "voucher": N_("voucher")}

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
    "note_in_count": N_("Banknotes in"), "note_in_value": N_("Banknotes in, value"),
    "voucher_out": N_("Paid by voucher"), "vouchers_out": N_("Vouchers printed"),
    "aft_in": N_("Transferred in (AFT)"), "aft_in_count": N_("Transfers in (AFT)"),
    "aft_out": N_("Transferred out (AFT)"), "aft_out_count": N_("Transfers out (AFT)"),
}
MONEY_METERS = frozenset({"total_in", "hopper_out", "handpay_out", "total_out", "total_bet", "total_won",
                          "insurance_taken", "insurance_paid", "tournament_entries", "tournament_prizes",
                          "hopper_out_unexplained", "note_in_value", "voucher_out", "aft_in", "aft_out"})

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
    "aft_in": N_("Transfer in by the host (AFT)"), "aft_out": N_("Transfer out to the host (AFT)"),
    "note_returned": N_("Banknote returned"), "note_rejected": N_("Banknote rejected"),
    "note_fraud": N_("Banknote fraud attempt"), "note_fault": N_("Bill validator fault"),
    "note_counter_fault": N_("Bill validator counter fault"),
    "note_stacked_unasked": N_("Banknote stacked without acceptance"), "note_status": N_("Bill validator status"),
    "voucher_issued": N_("Voucher issued"), "voucher_printed": N_("Voucher printed"),
    "voucher_to_handpay": N_("Voucher failed: handpay"), "voucher_reprint": N_("Voucher printed again"),
    "sas_validation_read": N_("Voucher read by the host (SAS)"),
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
    "ordinal": N_("ordinal"), "wrong": N_("wrong in a row"), "seconds": N_("seconds"),
    "hopper": N_("hopper"), "address": N_("address"), "journal": N_("journal"), "device": N_("device"),
    "events": N_("events"), "lost": N_("lost"), "detail": N_("detail"),
    "at start-up": N_("at start-up"), "after a payout": N_("after a payout"), "before a payout": N_("before a payout"),
    "before the hopper test": N_("before the hopper test"), "after the hopper test": N_("after the hopper test"),
    "gone from the acceptor's buffer: their coins cannot be credited":
        N_("gone from the acceptor's buffer: their coins cannot be credited"),
    "still in the acceptor's buffer: credited": N_("still in the acceptor's buffer: credited"),
    "panel frames refused": N_("button panel frames refused"), "total": N_("total"),
    "journal archive failed": N_("journal archive failed"),
}
BUTTON_NAMES: dict[str, str] = {
    Button.REPEAT: N_("Repeat Bet"), Button.MAX: N_("Max Bet"), Button.START: N_("Start"), Button.DRAW: N_("Draw"),
    Button.STAND: N_("Stand"), Button.DOUBLE: N_("Double"), Button.SPLIT: N_("Split"), Button.INSURANCE: N_("Insurance"),
    Button.AUTO: N_("Auto"), Button.COLLECT: N_("Collect"),
}
# Recall: who decided and what


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


def cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def when_text(at: float | None) -> str:
    """A journal record's time as the cabinet's local date and time ("2026-12-01 08:31:05")."""
    return "-" if at is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


@dataclass
class MenuView:
    title: str
    lines: list[str]
    selected: int | None = None  # index into lines that is highlighted
    footer: str = ""
    header: str = ""  # the column names of a table (tab-separated like its lines)
    align: str = ""  # per column: "l" left or "r" right (default: the first left, the others right)
    language: str = "en"  # what the drawing writes its own words in (recall's labels)
    picture: Any = None  # a recalled game (machine/operator/recall.py's Recall) drawn instead of the lines
