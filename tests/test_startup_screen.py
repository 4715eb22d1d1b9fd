"""The start-up screen (issue 15, item 2): a windowed cabinet opens its screens first and, while
Auto's tables of the game in force are prepared (seconds on a cold start), every seat's screen
shows the game's title and how far the tables are, in the cabinet's player language; a headless
start shows nothing; a failed start leaves no window behind."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.display.draw import GOLD, Renderer  # noqa: E402
from machine.i18n import LANGUAGES  # noqa: E402
from machine.operator.config import parse_config  # noqa: E402
from machine.operator.firststart import temporary  # noqa: E402
from tests.helpers import two_seats  # noqa: E402

PREPARING = {  # "Preparing the game: 3 of 10" as each language writes it
    "en": "Preparing the game: 3 of 10",
    "nl": "Het spel wordt voorbereid: 3 van 10",
    "nb": "Spillet gjøres klart: 3 av 10",
    "ru": "Подготовка игры: 3 из 10",
}
STARTING = {
    "en": "One moment: the cabinet is starting",
    "nl": "Een ogenblik: de automaat start op",
    "nb": "Et øyeblikk: automaten starter",
    "ru": "Минутку: автомат запускается",
}


def written(monkeypatch) -> list[str]:
    """The words each ``Renderer.text`` call draws from now on."""
    said: list[str] = []
    text = Renderer.text

    def record(self, surf, msg, *args, **kw):
        said.append(msg)
        return text(self, surf, msg, *args, **kw)

    monkeypatch.setattr(Renderer, "text", record)
    return said


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_start_up_screen_says_how_far_the_tables_are_in_each_language(language, monkeypatch):
    said = written(monkeypatch)
    surf = pygame.Surface((960, 540))
    r = Renderer(language="en")
    r.draw_starting(surf, "Random Blackjack", language, 3, 10)
    assert said == ["RANDOM BLACKJACK", PREPARING[language]]
    # the bar (60 % of the width, centred at 62 % of the height) is 3/10 gold, the rest black
    y = int(540 * 0.62)
    assert surf.get_at((192 + 20, y))[:3] == GOLD and surf.get_at((192 + 150, y))[:3] == GOLD
    assert surf.get_at((192 + 200, y))[:3] == (0, 0, 0) and surf.get_at((768 - 20, y))[:3] == (0, 0, 0)
    said.clear()
    r.draw_starting(surf, "Ochko", language)  # nothing reported yet (or the tables came from the cache)
    ochko = "ОЧКО" if language == "ru" else "OCHKO"  # the game's name in the language that has one
    assert said == [ochko, STARTING[language]]
    said.clear()
    r.draw_starting(surf, "Ochko", language, 1, 1)  # a game prepared in one step: no count
    assert said == [ochko, PREPARING[language].split(":")[0]]
    assert surf.get_at((768 - 20, y))[:3] == GOLD


def cabinet_config(tmp_path, *settings: str):
    return temporary(parse_config(two_seats("games_enabled: [random-blackjack]", *settings), "m.yaml"), tmp_path)


def test_progress_reaches_every_seats_screen_as_it_comes(tmp_path, monkeypatch):
    """Screens.starting draws a frame per report, on every seat's tile, and pumps the window's
    events (so the desktop never calls it "not responding")."""
    from machine.display.screens import Screens

    cfg = cabinet_config(tmp_path, "language: nb")
    screens = Screens(cfg, "Random Blackjack")
    drawn: list[tuple] = []
    monkeypatch.setattr(Renderer, "draw_starting", lambda self, surf, *a, now=None: drawn.append((surf.get_size(), *a)))
    pumped = []
    monkeypatch.setattr(pygame.event, "pump", lambda: pumped.append(1))
    flips = []
    monkeypatch.setattr(Screens, "_flip", lambda self: flips.append(1))
    for done in range(11):
        screens.starting("Random Blackjack", done, 10)
    tile = (cfg.display.width // 2, cfg.display.height)
    assert drawn == [(tile, "Random Blackjack", "nb", done, 10) for done in range(11) for _seat in (1, 2)]
    assert len(flips) == len(pumped) == 11
    screens.close()
    assert not pygame.display.get_init()


def test_the_window_answers_while_the_tables_take_long_between_two_reports(tmp_path, monkeypatch):
    """The tables are prepared in a thread of their own; the screens' thread pumps the window's
    events every ``every`` seconds, and draws each new report, however long the engine goes
    without one (blackjack: most of the work before its first up card)."""
    import threading
    import time

    from machine.display.screens import Screens

    screens = Screens(cabinet_config(tmp_path, "language: nl"), "Random Blackjack")
    log: list[object] = []
    monkeypatch.setattr(Screens, "_pump", staticmethod(lambda: log.append("pump")))
    nows: list[float | None] = []

    def draw(self, surf, title, language, done, total, now=None):
        log.append((title, language, done, total))
        nows.append(now)

    monkeypatch.setattr(Renderer, "draw_starting", draw)
    workers: list[str] = []

    zero = ("Random Blackjack", "nl", 0, 10)

    def answered() -> bool:  # five pumps and five frames (two tiles each) since the first report was drawn,
        first = log.index(zero) if zero in log else len(log)  # drawn over 0.3 s or more
        moments = [n for n in nows if n is not None]
        return log[first + 2:].count("pump") >= 5 and log[first:].count(zero) >= 10 and moments[-1] - moments[0] >= 0.3

    def tables() -> None:
        workers.append(threading.current_thread().name)
        screens.starting("Random Blackjack", 0, 10)
        # a long stretch without a report: 0.3 s at least, and until the window has answered (on a
        # loaded machine the screens' thread may get fewer ticks in 0.3 s; 30 s only bounds a hang)
        time.sleep(0.3)
        end = time.monotonic() + 30
        while not answered() and time.monotonic() < end:
            time.sleep(0.01)
        for done in range(1, 11):
            screens.starting("Random Blackjack", done, 10)

    screens.while_starting(tables, every=0.02)
    assert workers == ["auto-tables-start"]
    drawn = [x for x in log if x != "pump"]
    assert drawn[-2:] == [("Random Blackjack", "nl", 10, 10)] * 2  # the last report, on both seats' tiles
    first, last = log.index(("Random Blackjack", "nl", 0, 10)), log.index(("Random Blackjack", "nl", 10, 10))
    assert log[first + 2:last].count("pump") >= 5  # the window answered while no report came
    # and the screen was drawn anew meanwhile, each frame later than the last: its bar moves
    stretch = [x for x in log[first:last] if x == ("Random Blackjack", "nl", 0, 10)]
    assert len(stretch) >= 10  # two tiles a frame, five frames or more
    moments = [n for n in nows if n is not None]
    assert len(moments) == len(nows) and moments == sorted(moments) and moments[-1] - moments[0] >= 0.25
    screens.close()


def test_the_start_up_bar_moves_while_no_report_comes():
    """Issue 23: "Preparing the game: 0 of 10" sat still for the 20-odd seconds a cold start
    spends before blackjack's first up card; a light now runs along the bar's unfilled part,
    so two moments of one report are two different pictures (and a done bar stays still)."""
    r = Renderer(language="en")
    a, b = pygame.Surface((960, 540)), pygame.Surface((960, 540))
    r.draw_starting(a, "Random Blackjack", "en", 0, 10, now=0.2)
    r.draw_starting(b, "Random Blackjack", "en", 0, 10, now=1.0)
    y = int(540 * 0.62)
    row = [(a.get_at((x, y))[:3], b.get_at((x, y))[:3]) for x in range(200, 760)]
    assert sum(pa != pb for pa, pb in row) > 40
    assert any(pa != (0, 0, 0) for pa, _pb in row) and any(pb != (0, 0, 0) for _pa, pb in row)
    r.draw_starting(a, "Random Blackjack", "en", 10, 10, now=0.2)
    r.draw_starting(b, "Random Blackjack", "en", 10, 10, now=1.0)
    assert all(a.get_at((x, y)) == b.get_at((x, y)) for x in range(200, 760))


def test_what_the_tables_raise_is_raised_to_the_start(tmp_path):
    from machine.display.screens import Screens

    screens = Screens(cabinet_config(tmp_path), "Random Blackjack")

    def tables() -> None:
        raise MemoryError("no room for the tables")

    with pytest.raises(MemoryError, match="no room for the tables"):
        screens.while_starting(tables, every=0.01)
    screens.close()


@pytest.mark.timeout(60)
def test_a_windowed_start_shows_the_tables_progress_and_a_headless_one_nothing(tmp_path, monkeypatch):
    """Through the real start: the wiring hands the engine a progress callback that reaches the
    screens, with the title of the game in force; headless, the engine gets none."""
    from machine.devtools.harness import SimulatedCabinet
    from machine.display.screens import Screens
    from machine.gamemath import engines

    asked: list[object] = []

    def fake_prepare(profile, progress=None):  # Auto's tables, as the blackjack engine reports them
        asked.append(progress)
        if progress is not None:
            for done in range(11):
                progress(done, 10)

    monkeypatch.setattr(engines, "prepare", fake_prepare)
    shown: list[tuple] = []
    monkeypatch.setattr(Screens, "starting", lambda self, title, done=None, total=None: shown.append((title, done, total)))
    cfg = cabinet_config(tmp_path, "language: ru")
    app = SimulatedCabinet(cfg, tmp_path, headless=False)
    try:
        title = app.cab.profile.title
        assert shown == [(title, None, None)] + [(title, done, 10) for done in range(11)]
        assert len(asked) == 1
        app.frame()  # then the table, as before
    finally:
        app.close()
    asked.clear()
    shown.clear()
    app = SimulatedCabinet(cfg, tmp_path, headless=True)
    app.close()
    assert asked == [None] and shown == []


@pytest.mark.timeout(60)
def test_a_start_that_fails_while_the_tables_are_prepared_leaves_no_window(tmp_path, monkeypatch):
    from machine.devtools.harness import SimulatedCabinet
    from machine.gamemath import engines

    def broken(profile, progress=None):
        assert progress is not None  # the window shows the start
        progress(1, 10)
        raise RuntimeError("no room for the tables")

    monkeypatch.setattr(engines, "prepare", broken)
    with pytest.raises(RuntimeError, match="no room for the tables"):
        SimulatedCabinet(cabinet_config(tmp_path), tmp_path, headless=False)
    assert not pygame.display.get_init()
