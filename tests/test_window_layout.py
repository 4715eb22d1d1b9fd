"""The seats' windows (``display.layout: windows``): their places from the configuration, the
configuration's checks with file:line, and the one-line refusal when there is no display."""

from __future__ import annotations

import pytest

from machine.cli import main
from machine.display import screens
from machine.display.screens import NO_DISPLAY, WINDOWPOS_CENTERED_DISPLAY, DisplayError, WindowPlace, window_places
from machine.operator.config import ConfigError, DisplayConfig, parse_config

from .helpers import pin_setting

HD, SMALL = (1920, 1080), (1280, 720)
SIMULATED = "devices: {bus: sim, panel: sim}\n" + pin_setting()  # a configuration names its devices and its PIN


def display(text: str) -> DisplayConfig:
    return parse_config("display:\n  layout: windows\n" + text + SIMULATED, "m.yaml").display


def test_without_places_the_windows_tile_the_first_display_side_by_side_or_in_a_grid():
    assert window_places(display(""), 4, [HD]) == [
        WindowPlace((0, 0), (960, 540)), WindowPlace((960, 0), (960, 540)),
        WindowPlace((0, 540), (960, 540)), WindowPlace((960, 540), (960, 540)),
    ]
    assert window_places(DisplayConfig(layout="windows"), 2, [SMALL]) == [
        WindowPlace((0, 0), (640, 540)), WindowPlace((640, 0), (640, 540)),
    ]
    six = window_places(DisplayConfig(layout="windows"), 6, [HD])
    assert [p.position for p in six] == [(0, 0), (640, 0), (1280, 0), (0, 540), (640, 540), (1280, 540)]
    assert {p.size for p in six} == {(640, 540)}


def test_each_window_on_its_display_or_at_its_position_fullscreen_when_asked():
    d = display("  windows:\n    - {display: 1}\n    - {x: -1280, y: 40}\n    - {}\n    - {display: 1, fullscreen: true}\n")
    centred_on_1 = (WINDOWPOS_CENTERED_DISPLAY | 1,) * 2
    assert window_places(d, 4, [HD, SMALL]) == [
        WindowPlace(centred_on_1, (960, 540)),
        WindowPlace((-1280, 40), (960, 540)),
        WindowPlace((0, 540), (960, 540)),
        WindowPlace(centred_on_1, SMALL, True),
    ]
    gone = r"^display.windows.0: display 1 does not exist \(this desktop has 1 display, from 0\)$"
    with pytest.raises(DisplayError, match=gone):
        window_places(d, 4, [HD])


@pytest.mark.parametrize(("windows", "problem"), [
    ("    - {x: 5}\n", "m.yaml:5: display.windows.0: a position needs both x and y"),
    ("    - {display: 0, x: 1, y: 2}\n",
     "m.yaml:5: display.windows.0: a window goes on a display or at a position (x, y), not both"),
    ("    - {display: -1}\n", "m.yaml:5: display.windows.0.display: Input should be greater than or equal to 0"),
    ("    - {screen: 1}\n", "m.yaml:5: display.windows.0.screen: unknown setting"),
    ("    - {display: 0}\n", "m.yaml:4: display.windows: one entry per seat: 1 given for a cabinet of 2 seats"),
])
def test_a_bad_window_entry_is_named_with_its_file_and_line(windows, problem):
    with pytest.raises(ConfigError) as exc:
        parse_config("seats: 2\ndisplay:\n  layout: windows\n  windows:\n" + windows + SIMULATED, "m.yaml")
    assert problem in exc.value.problems


def test_windows_are_refused_with_the_tiles_layout():
    with pytest.raises(ConfigError) as exc:
        parse_config("display:\n  windows:\n    - {display: 0}\n" + SIMULATED, "m.yaml")
    assert exc.value.problems == [
        "m.yaml:2: display.windows: places the seats' windows of layout: windows (layout is tiles here)"
    ]


def test_no_display_is_one_line_and_exit_2_before_the_simulators_start(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from hardware.sim.launcher import SimProcess

    from machine.loop import wiring

    started: list[SimProcess] = []
    start = SimProcess.start.__func__

    def spy(cls, *args, **kwargs):
        started.append(start(cls, *args, **kwargs))
        return started[-1]

    monkeypatch.setattr(SimProcess, "start", classmethod(spy))
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)  # Auto's tables: not what this is about
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "offscreen")  # what SDL falls back to
    monkeypatch.chdir(tmp_path)
    assert main(["run"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"cabinet run: {NO_DISPLAY}\n"
    assert started == []  # refused before the bus simulator (or anything else) starts


def test_a_driver_the_user_asked_for_is_not_refused(monkeypatch):
    import pygame

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "dummy")
    screens.open_display()  # no DisplayError
