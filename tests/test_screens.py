"""The main screens, rendered headless and compared with the reference images in the repo.

Regenerate the references after a deliberate change of the screens with
``.venv/bin/cabinet screenshots tests/comparison_images`` (English, full size) and, for each
other language L, ``.venv/bin/cabinet screenshots tests/comparison_images/L --language L --size
960x540``; look at them before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from machine.devtools.scenes import MENU_SCENES, SCENES, render_scene  # noqa: E402

REFERENCES = Path(__file__).parent / "comparison_images"


def difference(a: pygame.Surface, b: pygame.Surface) -> tuple[float, float]:
    """Mean absolute channel difference, and the share of pixels differing by more than 48."""
    import array

    assert a.get_size() == b.get_size()
    pa = array.array("B", pygame.image.tobytes(a, "RGB"))
    pb = array.array("B", pygame.image.tobytes(b, "RGB"))
    total = 0
    far = 0
    for i in range(0, len(pa), 3):
        d = abs(pa[i] - pb[i]) + abs(pa[i + 1] - pb[i + 1]) + abs(pa[i + 2] - pb[i + 2])
        total += d
        if d > 48:
            far += 1
    n = len(pa) // 3
    return total / (3 * n), far / n


@pytest.mark.parametrize("name", list(SCENES) + list(MENU_SCENES))
def test_screen_matches_its_reference_image(name):
    size = (960, 540)  # half size keeps the pure-Python comparison quick
    got = render_scene(name, size=(1920, 1080))
    want = pygame.image.load(str(REFERENCES / f"{name}.png"))
    mean, share = difference(pygame.transform.smoothscale(got, size), pygame.transform.smoothscale(want, size))
    assert mean < 1.5 and share < 0.005, f"{name}: mean difference {mean:.2f}, {share:.2%} of pixels far off"


OTHER_LANGUAGES = ("nl", "nb", "ru")
SMALL = (960, 540)  # the other languages' references: ``cabinet screenshots DIR --language L --size 960x540``


def quick_difference(a: pygame.Surface, b: pygame.Surface) -> tuple[float, float]:
    """``difference``, with numpy where the fast extra installed it (else the pure-Python loop)."""
    try:
        import numpy as np
    except ImportError:
        return difference(a, b)
    assert a.get_size() == b.get_size()
    pa = np.frombuffer(pygame.image.tobytes(a, "RGB"), np.uint8).reshape(-1, 3).astype(np.int16)
    pb = np.frombuffer(pygame.image.tobytes(b, "RGB"), np.uint8).reshape(-1, 3).astype(np.int16)
    d = np.abs(pa - pb).sum(axis=1)
    return float(d.mean() / 3), float((d > 48).mean())


# slow: every player and menu scene drawn at full size in one language and compared with its reference picture
@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_every_screen_matches_its_reference_in_the_other_languages(language):
    names = list(SCENES) + list(MENU_SCENES)
    assert sorted(p.stem for p in (REFERENCES / language).glob("*.png")) == sorted(names)  # none missing, none stale
    off = []
    for name in names:
        got = pygame.transform.smoothscale(render_scene(name, size=SMALL, language=language), (480, 270))
        want = pygame.transform.smoothscale(pygame.image.load(str(REFERENCES / language / f"{name}.png")), (480, 270))
        mean, share = quick_difference(got, want)
        if not (mean < 1.5 and share < 0.005):  # another language differs by 4-6 % of pixels
            off.append(f"{name}: mean difference {mean:.2f}, {share:.2%} of pixels far off")
    assert not off, f"{language}: " + "; ".join(off)


def test_the_comparison_sees_a_different_screen():
    a = pygame.transform.smoothscale(render_scene("betting"), (480, 270))
    b = pygame.transform.smoothscale(render_scene("tilt"), (480, 270))
    mean, share = difference(a, b)
    assert share > 0.005


def test_the_screens_speak_dutch_when_the_configuration_says_nl():
    from machine.display.gamewords import say
    from machine.games.text import Text
    from machine.i18n import Words

    dutch = Words("nl")
    assert dutch("Place your bet") == "Plaats uw inzet"
    assert dutch("Seat {seat}: {state}, bet {bet}", seat=2, state=dutch("playing"), bet=6) == "Speler 2: speelt, inzet 6"
    soft = Text("soft {total}", total=17)
    assert say(dutch, soft) == "zacht 17" and say(Words("en"), soft) == "soft 17"
    assert Words("en")("Place your bet") == "Place your bet"
    en = pygame.transform.smoothscale(render_scene("split"), (480, 270))
    nl = pygame.transform.smoothscale(render_scene("split", language="nl"), (480, 270))
    mean, share = difference(en, nl)
    assert 0 < share < 0.05  # the words differ, the table does not


# slow: every player scene drawn at 1280x720
def test_every_player_scene_renders_in_every_language_at_720p():
    """Each scene in one of the other three languages by turn (all four: the screenshots a
    person looks at), at the smaller window size."""
    from machine.devtools.scenes import SCENES
    from machine.i18n import LANGUAGES

    for i, name in enumerate(SCENES):
        language = LANGUAGES[1 + i % 3]
        got = render_scene(name, size=(1280, 720), language=language)
        # the felt, drawn: a point of the first tile's felt, of four tiles (640 wide) and of eight (320)
        assert got.get_size() == (1280, 720) and got.get_at((300, 200)) != (0, 0, 0, 255)


def test_a_long_banner_is_written_on_lines_of_its_own_never_cut_at_the_tiles_edges():
    # the attendant key's help is wider than a tile at 1280x720: each part of the banner gets a
    # line, shrunk to the tile, so the tile's edge columns inside the banner stay the banner's red
    import tempfile

    from machine.devtools import scenes
    from machine.display.draw import Renderer
    from machine.display.screens import banner_text
    from machine.display.view import build_view

    surf = pygame.Surface((640, 360))
    with tempfile.TemporaryDirectory() as tmp:
        cab = scenes.SCENES["betting"](Path(tmp))
        view = build_view(cab, scenes.SCENE_TIME, banner=banner_text(["attendant", "door open"], ["hopper"]),
                          languages=dict.fromkeys(cab.seats, "ru"))
        cab.journal.close()
    Renderer(language="ru").draw_seat(surf, view, 1, scenes.SCENE_TIME)
    for x in (3, 636):
        red = [y for y in range(360) if surf.get_at((x, y))[:3] == (150, 20, 20)]
        assert red == list(range(red[0], red[0] + len(red))), x  # no letter at the edge
        assert len(red) >= 45  # three lines (one line is 27 pixels at this size)
