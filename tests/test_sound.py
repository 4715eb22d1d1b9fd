"""The table's sounds (issue 23, item 7): WAVs the project makes itself and ships as package data,
heard from what the journal records, silent without an audio device, a volume and a mute the
operator sets in the menu (PIN, journaled)."""

from __future__ import annotations

import fnmatch
import logging
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from machine.devtools import soundgen
from machine.display import sound
from machine.display.sound import SOUNDS, TableSound, cues

from .cabinet_helpers import boot, stacked_shoes
from .test_operator_menu import PIN, enter_pin, goto, menu_for

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="module")
def _no_mixer_left_running() -> Iterator[None]:
    """After this file the worker keeps no mixer and no Sound: the mixer's audio thread holds
    SDL's audio lock at any instant, and a later test that forks this process (the crash test's
    cabinet children) deadlocked in the child when its garbage collector freed a Sound left
    here (Mix_FreeChunk waiting for that lock, which no thread of the child would ever release)."""
    yield
    import gc

    import pygame

    gc.collect()  # the Sounds of TableSounds gone: freed here, while the mixer is open
    pygame.mixer.quit()


def test_regenerating_the_sounds_gives_the_committed_bytes(tmp_path):
    written = soundgen.write_all(tmp_path)
    assert [p.name for p in written] == [f"{n}.wav" for n in SOUNDS] == sorted(
        (p.name for p in sound.FOLDER.glob("*.wav")), key=lambda n: SOUNDS.index(n[:-4]))
    for p in written:
        assert p.read_bytes() == (sound.FOLDER / p.name).read_bytes(), p.name


def test_each_sound_is_a_short_16_bit_mono_wav_that_is_not_silence():
    import wave
    from array import array

    for n in SOUNDS:
        with wave.open(str(sound.FOLDER / f"{n}.wav")) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, soundgen.RATE)
            assert 0.05 < w.getnframes() / w.getframerate() < 1.5, n
            samples = array("h", w.readframes(w.getnframes()))
        assert max(abs(s) for s in samples) > 3000, n


def test_the_package_data_carries_every_sound():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["machine"]
    for n in SOUNDS:
        assert any(fnmatch.fnmatch(f"display/sounds/{n}.wav", pattern) for pattern in data), n


class FakeSound:
    def __init__(self, name, log):
        self.name, self.log, self.volume = name, log, None

    def set_volume(self, v):
        self.volume = v

    def play(self):
        self.log.append((self.name, self.volume))


def listening(monkeypatch=None) -> tuple[TableSound, list]:
    heard: list = []
    s = TableSound()
    s.sounds = {n: FakeSound(n, heard) for n in SOUNDS}
    return s, heard


def test_a_round_a_coin_and_a_payout_are_heard_in_order(tmp_path):
    # seat 1: TS 8S (18) stands; seat 2: 9S 6H draws 5D 3C... dealer 7H: the rest of the shoe
    cab = boot(tmp_path, stacked_shoes("TS 9S 7H 8S 6H 5D 3C"))
    s, heard = listening()
    s.follow(cab.journal, 70, False)  # the start: nothing from before it sounds
    assert heard == []
    cab.coin(1, "EU200A", 0)
    s.follow(cab.journal, 70, False)
    assert heard == [("coin", 0.7)]
    cab.coin(2, "EU200A", 0)
    for n in (1, 2):
        cab.press(n, "+2", 0)
    for n in (1, 2):
        cab.press(n, "start", 1)
    heard.clear()
    s.follow(cab.journal, 70, False)
    assert [n for n, _ in heard] == ["coin", "bet", "card"]
    cab.press(1, "stand", 2)
    cab.press(2, "draw", 3)
    heard.clear()
    s.follow(cab.journal, 70, False)
    assert [n for n, _ in heard] == ["card"]
    cab.press(2, "stand", 4)
    heard.clear()
    s.follow(cab.journal, 70, False)
    assert [n for n, _ in heard] == ["card", "win"]


def test_which_records_sound():
    from machine.money.journal import Record

    def rec(record_kind, **data):
        return Record(1, record_kind, 1, data, "")

    assert cues([rec("round_event", kind="bust", seat=1, hand=0)]) == ["bust"]
    assert cues([rec("round_event", kind="settle", result="blackjack", seat=1, hand=0, amount=5)]) == ["blackjack"]
    assert cues([rec("round_event", kind="knock", seat=1, place=1)]) == ["blackjack"]  # 31!
    assert cues([rec("round_event", kind="settle", result="lose", seat=1, hand=0, amount=0)]) == []
    win = rec("round_event", kind="settle", result="win", seat=1, hand=0, amount=4)
    assert cues([win]) == ["win"]
    ochko = {"seat": {"hands": [{"cards": ["TS", "8S", "3S"], "total": 21, "blackjack": False}]}}
    assert cues([win, rec("game", **ochko)]) == ["blackjack"]  # a 21: the game's own total says so
    assert cues([rec("payout_start", coins=3, coin_value=20)]) == ["hopper"]
    assert cues([rec("press", button="+2")]) == ["bet"] and cues([rec("press", button="+2", ignored=True)]) == []
    assert cues([rec("event", event="tilt", code=150, reason="x")]) == ["tilt"]
    # a deal of many cards at once: at most three sounds a frame, a tilt always among them
    many = [rec("coin"), rec("round_event", kind="card"), rec("round_event", kind="bet", amount=2),
            rec("round_event", kind="bust"), rec("event", event="tilt")]
    assert cues(many) == ["coin", "card", "tilt"]


def test_muted_or_at_zero_nothing_plays_and_the_volume_is_the_operators(tmp_path):
    cab = boot(tmp_path)
    s, heard = listening()
    s.follow(cab.journal, 25, False)
    cab.coin(1, "EU200A", 0)
    s.follow(cab.journal, 25, False)
    assert heard == [("coin", 0.25)]
    cab.coin(1, "EU200A", 1)
    s.follow(cab.journal, 25, True)
    cab.coin(1, "EU200A", 2)
    s.follow(cab.journal, 0, False)
    assert heard == [("coin", 0.25)] and s.played[-2:] == ["coin", "coin"]


def test_without_an_audio_device_the_table_is_silent_and_says_so_once(monkeypatch, caplog, tmp_path):
    import pygame

    def no_device(*a, **k):
        raise pygame.error("No available audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", no_device)
    with caplog.at_level(logging.WARNING, logger="machine.display.sound"):
        s = TableSound()
    assert s.silent
    assert [r.getMessage() for r in caplog.records] == ["sound off: No available audio device"]
    cab = boot(tmp_path)
    s.follow(cab.journal, 70, False)
    cab.coin(1, "EU200A", 0)
    s.follow(cab.journal, 70, False)  # nothing to play it on: no error
    assert s.played == ["coin"]


def test_under_the_dummy_audio_driver_the_sounds_load_and_play_without_waiting(monkeypatch):
    import pygame

    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    s = TableSound()
    try:
        if s.silent:
            pytest.skip("this SDL has no dummy audio driver")
        assert sorted(s.sounds) == sorted(SOUNDS)
        for n in SOUNDS:
            s.play(n)
    finally:
        pygame.mixer.quit()


def test_volume_and_mute_are_settings_of_the_menu_behind_the_pin_and_journaled(tmp_path):
    cab = boot(tmp_path)
    menu = menu_for(cab)
    goto(menu, "Settings")
    lines = list(menu.view().lines)
    rows = {line.split("\t")[0]: line.split("\t")[1:] for line in lines}
    assert rows["Sound volume (per cent)"][:2] == ["70", "0-100"] and rows["Sound off"][:2] == ["no", "no / yes"]
    for _ in range(lines.index(next(line for line in lines if line.startswith("Sound off\t")))):
        menu.press(1, "draw", 0)
    menu.press(1, "start", 0)
    assert menu.mode == "pin"  # behind the PIN like every setting
    enter_pin(menu, PIN)
    menu.press(1, "draw", 0)  # no -> yes
    menu.press(1, "start", 0)
    assert cab.settings.sound_muted is True
    (rec,) = cab.journal.records("settings_change")
    assert rec.data == {"name": "sound_muted", "old": False, "new": True, "by": "operator"}
    cab.change_setting("sound_volume", 25, "operator")
    cab.journal.close()
    again = boot(tmp_path)  # both survive a restart
    assert (again.settings.sound_volume, again.settings.sound_muted) == (25, True)
    menu = menu_for(again)
    goto(menu, "Event log")
    details = [line.split("\t")[-1] for line in menu.view().lines if "\tSetting changed\t" in line]
    assert details == ["Sound volume (per cent): 70 -> 25", "Sound off: no -> yes"]  # the newest first
    menu.language = "ru"
    assert "Громкость звука (процентов): 70 -> 25" in [line.split("\t")[-1] for line in menu.view().lines]


@pytest.mark.timeout(120)
def test_the_windowed_cabinet_hears_what_its_journal_records(tmp_path, monkeypatch):
    """Through the real loop: the app's frame feeds the journal's new records to the sound."""
    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.config import parse_config
    from machine.operator.firststart import temporary

    from .helpers import two_seats

    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    cfg = temporary(parse_config(two_seats("games_enabled: [random-blackjack]"), "m.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=False)
    try:
        assert app.sound is not None
        app.frame()
        before = list(app.sound.played)
        with app.lock:
            app.cab.coin(1, "EU200A", 0.0)
        app.frame()
        assert app.sound.played == [*before, "coin"]
    finally:
        app.close()


@pytest.mark.parametrize("driver", [None, "nosuchdriver"])
def test_a_cabinet_without_audio_writes_one_line_about_it_and_nothing_else(driver):
    """The audio library's own complaints (ALSA's many lines) are not passed on: one line of ours."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "SDL_AUDIODRIVER"} | {"PYGAME_HIDE_SUPPORT_PROMPT": "1",
                                                                              "PYTHONPATH": str(ROOT)}
    if driver:
        env["SDL_AUDIODRIVER"] = driver
    code = "from machine.display.sound import TableSound; print(TableSound().silent)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    err = out.stderr.splitlines()
    if out.stdout.strip() == "True":
        assert len(err) == 1 and err[0].startswith("sound off: "), err
    else:  # this machine has a sound device: nothing to say
        assert err == []
