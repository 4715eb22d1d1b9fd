"""The player screens' words: every message in every catalog, the games' English read back
through them, a font with every glyph, each seat in its own language, money from the
configured denomination, and what the screens say around a round (issue 13, items 1-3)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402
from babel.messages.extract import extract_from_file  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from machine.core.cabinet import CabinetSettings  # noqa: E402
from machine.devtools import scenes  # noqa: E402
from machine.display import gamewords  # noqa: E402
from machine.display.draw import FONT, Renderer  # noqa: E402
from machine.display.view import build_view  # noqa: E402
from machine.games.text import Text  # noqa: E402
from machine.i18n import LANGUAGES, LOCALE_DIR, Words  # noqa: E402
from machine.money.seatmoney import MoneySettings  # noqa: E402
from tests.cabinet_helpers import memory  # noqa: E402
from tests.helpers import stored_pin  # noqa: E402

DISPLAY = Path(__file__).parent.parent / "machine" / "display"
GAMES = Path(__file__).parent.parent / "machine" / "games"
PLAYER_SOURCES = ("view.py", "draw.py", "painter.py", "cards.py", "others.py", "notes.py", "screens.py", "places.py",
                  "tournament.py", "gamewords.py", "aftnotice.py")
FIELD = re.compile(r"\{\w+\}")


def player_messages() -> list[str]:
    """Every message the player screens show: the display's, and the message ids the games mark
    where they write them (``Text(...)``, ``N_(...)`` of ``machine.games.text``)."""
    out: list[str] = []
    sources = [(DISPLAY / name, {"_": None, "N_": None}) for name in PLAYER_SOURCES]
    sources += [(path, {"Text": None, "N_": None}) for path in sorted(GAMES.rglob("*.py"))]
    for path, keywords in sources:
        for _line, msg, _comments, _ctx in extract_from_file("python", str(path), keywords=keywords):
            if isinstance(msg, str) and msg not in out:
                out.append(msg)
    return out


def catalog(language: str) -> dict[str, str]:
    with (LOCALE_DIR / language / "LC_MESSAGES" / "player.po").open("rb") as f:
        return {str(m.id): str(m.string) for m in read_po(f) if m.id}


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_player_message_is_in_the_catalog_translated_with_the_same_fields(language):
    messages = player_messages()
    assert len(messages) > 150 and "Seat {seat} is deciding" in messages and "Lost {amount}" in messages
    po = catalog(language)
    missing = [m for m in messages if not po.get(m)]
    assert missing == [], f"player.po ({language}) lacks {missing}"
    wrong = [m for m in messages if sorted(FIELD.findall(m)) != sorted(FIELD.findall(po[m]))]
    assert wrong == [], f"player.po ({language}) changes the fields of {wrong}"
    assert [m for m in po if m not in messages] == []  # nothing stale


def _game_texts(view) -> list[str]:
    """Every text of a view that a game or the core wrote in English."""
    texts = [view.dealer_title, view.dealer_text, view.notice, *view.attract_lines]
    for seat in view.seats:
        texts += [h.total_text for h in seat.hands + seat.watching] + list(seat.labels.values()) + [seat.lock_detail]
    texts += [p.score_text for p in view.places]
    if view.tournament is not None:
        texts += [view.tournament.note, *view.tournament.keys, str(view.tournament.fields.get("variant", ""))]
    return [t for t in texts if t]


def test_every_text_the_games_show_in_the_scenes_is_read_back_into_a_message(tmp_path):
    nl = Words("nl")
    seen: set[str] = set()
    for i, make in enumerate(scenes.SCENES.values()):
        cab = make(tmp_path / str(i))
        seen.update(_game_texts(build_view(cab, scenes.SCENE_TIME)))
        cab.journal.close()
    assert {"Draw", "BANKER", "soft 17"} <= seen or {"DEALER", "TABLE"} <= seen
    assert [t for t in sorted(seen) if not gamewords.known(t)] == []
    notice = Text.joined(gamewords.SEP, [Text("Place {place} swapped", place=2), Text("Place {place} passed", place=3)])
    assert notice == "Place 2 swapped · Place 3 passed"  # the game's English, as cabinet round prints it
    assert gamewords.say(nl, notice) == "Plaats 2 ruilde · Plaats 3 paste"
    assert gamewords.say(nl, "Place 2 swapped") == "Place 2 swapped"  # English is never read back into a message
    # "bust": the Dutch manual's word (seed 003: "Een hand is verloren (Bust)")
    assert gamewords.say(nl, Text("bust {total}", total=24)) == "bust 24" and gamewords.say(nl, "20.5") == "20,5"
    assert gamewords.say(Words("ru"), Text("Blackjack pays {a} to {b}", a=3, b=2)) == "Блэкджек платит 3 к 2"
    assert gamewords.say(Words("nb"), "hopper: empty; 4 coin(s) owed") == "hopper: tom; 4 mynt(er) skyldig"
    assert gamewords.say(nl, "Door open | Panel offline") == "Deur open | Paneel niet verbonden"
    assert gamewords.say(nl, "not a known text") == "not a known text"  # drawn as written


def test_the_shipped_font_has_every_glyph_of_every_catalog():
    pygame.font.init()
    font = pygame.font.Font(str(FONT), 20)
    missing = font.render("\U000f0000", True, (255, 255, 255))  # a private-use code: the missing-glyph box
    box = pygame.image.tobytes(missing, "RGBA")
    chars = set("€æøåÆØÅ\u00a0\u202f·—0123456789")
    for language in LANGUAGES:
        if language != "en":
            chars.update("".join(catalog(language).values()))
        chars.update(Words(language).money(123456, 10))
    chars.update(" ".join(player_messages()))
    bad = sorted(c for c in chars if c.strip() and pygame.image.tobytes(font.render(c, True, (255, 255, 255)), "RGBA") == box)
    assert bad == []
    assert any(c in chars for c in "ЖЯёø€")  # the catalogs really hold Cyrillic, Norwegian and the euro


def _cabinet(tmp: Path, **settings):
    return scenes.open_cabinet(
        tmp / "journal.sqlite", scenes.load_profile("random-blackjack"),
        CabinetSettings(seats=4, money=settings.pop("money", MoneySettings()), **settings),
        lambda p: scenes.make_game(p, scenes._stand), scenes._stacked("9S TC 6H 9D 7H 8C 5S 4D 3H"), memory(tmp), create=True)


def test_each_seat_speaks_its_chosen_language_else_the_configured_one(tmp_path):
    cab = _cabinet(tmp_path, language="nb", denomination_cents=50)
    view = build_view(cab, 1.0, languages={2: "ru"})
    assert [s.language for s in view.seats] == ["nb", "ru", "nb", "nb"]
    assert view.denomination_cents == 50  # the configured denomination, not 0.10
    r = Renderer()
    r.draw_table(pygame.Surface((960, 540)), view, 1.0)
    assert set(r._words) >= {"nb", "ru"}  # a Words per language, kept
    cab.journal.close()


def test_the_configuration_allows_the_four_languages_and_hands_on_language_and_denomination():
    from machine.operator.config import DevicesConfig, MachineConfig

    devices = DevicesConfig(panel="sim", bus="sim")
    cfg = MachineConfig(language="ru", denomination_cents=25, operator_pin=stored_pin(), devices=devices)
    assert (cfg.cabinet_settings().language, cfg.cabinet_settings().denomination_cents) == ("ru", 25)
    with pytest.raises(ValueError):
        MachineConfig.model_validate({"language": "de"})


def test_the_screens_around_a_round(tmp_path):
    cab = _cabinet(tmp_path, betting_time=20.0, decision_timeout=30.0)
    for n in (1, 2, 3):
        cab.coin(n, "EU200A", 0)
        cab.coin(n, "EU200A", 0)
    cab.press(1, "+2", 1)
    view = build_view(cab, 6.0)
    assert view.betting_left == 15.0 and view.betting_time == 20.0  # counted from the first bet at 1 s
    one = view.seats[0]
    assert one.max_bet == 2 and one.max_note  # a quarter of the club meter, below the table's maximum
    cab.press(2, "+2", 1)
    cab.press(1, "start", 2)
    cab.press(2, "start", 2)
    view = build_view(cab, 3.0)
    assert view.decision_time == 30.0 and view.turn == 1
    three = view.seats[2]
    assert three.message == "Next round: wait"  # not "Place your bet": its bet lamps are dark
    assert view.seats[1].message == "Seat {seat} is deciding" and view.seats[1].fields == {"seat": 1}
    assert [h.cards for h in view.seats[1].watching] == [("9S", "9D")]  # the deciding seat's hand, for the others
    while cab.round is not None:
        cab.press(cab.round.pending.seat, "stand", 4)
    view = build_view(cab, 5.0)
    assert view.dealer_cards  # the last round's cards stay shown ...
    cab.press(2, "+2", 6)
    view = build_view(cab, 6.0)
    assert view.dealer_cards == () and view.dealer_text == ""  # ... until the next betting starts
    cab.journal.close()


def test_a_lost_hand_reads_lost_and_its_stake_and_the_hand_label_is_plain(tmp_path):
    r = Renderer(language="nl")
    from machine.games.interface import HandShown

    lost = HandShown(cards=("TS", "6H", "9C"), stake=10, total_text=Text("bust {total}", total=25), result="lose", returned=0)
    win = HandShown(cards=("TS", "QH"), stake=10, total_text="20", result="win", returned=20, doubled=True)
    assert (r.outcome(lost), r.outcome(win)) == ("Verloren 10", "Winst 10 (20 terug)")  # the net, then what came back
    assert r.hand_label(lost) == "Inzet 10  \u00b7  bust 25" and r.hand_label(win) == "Inzet 10, verdubbeld  \u00b7  20"


def test_a_leftover_below_the_smallest_coin_is_explained(tmp_path):
    cab = _cabinet(tmp_path, money=MoneySettings(hopper_coin=10, remainder="keep"))
    cab.coin(1, "EU050A", 0)  # 5 points: below the hopper's coin of 10, nothing Collect could pay
    seat = build_view(cab, 1.0).seats[0]
    assert seat.leftover == 5
    r = Renderer(language="en")
    text = r._("{money} is below the smallest coin: it stays on your credit to play", money=r.money(5, 10))
    assert text == "€0.50 is below the smallest coin: it stays on your credit to play"
    cab.journal.close()


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_seat_has_one_word_and_a_place_of_31_another(language):
    """Every message about seat N names it with the word of "Seat {seat}" (Dutch said "Plaats"
    in two and "Speler" elsewhere), and a place of eenendertigen has a word of its own, since the
    screen writes both side by side (Norwegian drew "Plass 2 · Plass 2")."""
    words = catalog(language)

    def word(msgstr: str, field: str) -> str:
        return msgstr.split(field)[0].strip().lower().split()[-1]

    seat, place = word(words["Seat {seat}"], "{seat}"), word(words["Place {place}"], "{place}")
    assert seat != place
    for msgid, msgstr in words.items():  # the word's stem, as Russian declines it («места»)
        if msgid.startswith("Seat {seat} "):
            assert seat[:4] in msgstr.lower() and place[:4] not in msgstr.lower(), (msgid, msgstr)
        if msgid.startswith("Place {place} "):
            assert place[:4] in msgstr.lower() and seat[:4] not in msgstr.lower(), (msgid, msgstr)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_a_button_named_in_a_sentence_has_the_name_its_legend_shows(language):
    """A sentence that names a button uses the legend the button shows in that language (the
    Russian and Norwegian "Insert coins to play, or Collect" kept the English "Collect" beside a
    button reading «Забрать» / "Ta ut"); Dutch keeps the seed's English names on both."""
    from machine.display.notes import BUTTON_LABELS

    words = catalog(language)
    wrong = []
    for name in (n for n in BUTTON_LABELS.values() if n in words and words[n] != n):
        wrong += [(msgid, msgstr) for msgid, msgstr in words.items()
                  if msgid != name and re.search(rf"\b{name}\b", msgid) and re.search(rf"\b{name}\b", msgstr)]
    assert wrong == []


def test_a_seat_the_host_holds_is_not_shown_the_betting_countdown(tmp_path):
    """Seats 1 and 2 have bet; the host shuts seat 2 down (SAS 01) and locks seat 3 for a
    transfer (SAS 74). The round starts without either: only seat 1 reads the countdown."""
    from tests.screen_words import notes

    cab = _cabinet(tmp_path, betting_time=20.0, decision_timeout=30.0)
    for n in (1, 2, 3):
        cab.coin(n, "EU200A", 0)
    cab.press(1, "+2", 1)
    cab.press(2, "+2", 1)
    assert cab.host_control(2, False, 2)
    cab.aft_lock(3, True)
    view = build_view(cab, 6.0)
    assert view.betting_left == 15.0 and [s.held for s in view.seats] == [False, True, True, False]
    shown = {n: notes(cab, n, 6.0, view=view) for n in (1, 2, 3)}
    assert "The round starts in 15 s" in shown[1]
    assert not [line for n in (2, 3) for line in shown[n] if "round starts" in line], shown
    cab.journal.close()


def test_a_text_too_wide_at_its_smallest_size_is_narrowed_to_its_width_never_past_it():
    """At 960x540 each seat's quarter gives a button 60 pixels: «Повтор ставки» at the smallest
    type ran past its button into the next one."""
    r = Renderer()
    surf = pygame.Surface((480, 270))
    for label in ("Повтор ставки", "Макс. ставка", "Repeat Bet"):
        drawn = r.text(surf, label, 7, (255, 255, 255), center=(240, 135), width=57, smallest=7)
        assert drawn.width <= 57 and drawn.height >= 8, label
    wide = r.text(surf, "Повтор ставки", 30, (255, 255, 255), center=(240, 135), width=400)
    assert wide.width == r.font(30).size("Повтор ставки")[0]  # what fits keeps its size and shape
