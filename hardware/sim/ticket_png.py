"""A printed ticket as a picture: what the simulated printer's paper shows, as a PNG.

Owns: drawing a ticket's lines (alignment, emphasis, double size) and its ITF barcode with the
digits under it on a strip of 80 mm paper (576 dots at 203 dpi), with pygame, headless. Never
parses ESC/POS (``hardware/printer/escpos.py`` does) and never knows what a ticket means.
"""

from __future__ import annotations

import os
from pathlib import Path

from hardware.printer.escpos import BARCODE_ITF, CENTRE, RIGHT, Barcode, Line, itf_modules

WIDTH, MARGIN, LINE = 576, 16, 30  # dots
FONT = Path(__file__).resolve().parents[2] / "machine" / "display" / "fonts" / "DejaVuSans-Bold.ttf"
SIZES = {1: 20, 2: 38}
BARCODE_MARK = "\x00barcode:"  # a line that stands for the ticket's barcode number N


def _pygame():
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def render(lines: list[Line], barcodes: list[Barcode], path: Path) -> Path:
    """Draw the ticket and save it at ``path`` (its folder is made); returns ``path``."""
    pg = _pygame()
    fonts = {s: pg.font.Font(str(FONT), px) for s, px in SIZES.items()}
    height = MARGIN * 2
    for ln in lines:
        height += _barcode_height(barcodes, ln) or LINE * ln.size
    surface = pg.Surface((WIDTH, height))
    surface.fill((252, 250, 244))
    y = MARGIN
    ink = (20, 20, 20)
    for ln in lines:
        bar = _barcode_of(barcodes, ln)
        if bar is not None:
            y = _draw_barcode(pg, surface, fonts[1], bar, y, ink)
            continue
        if ln.text:
            img = fonts[ln.size].render(ln.text, True, ink)
            if not ln.bold:  # the one font is bold: plain text a little lighter
                img.set_alpha(200)
            x = MARGIN if ln.align not in (CENTRE, RIGHT) else (
                (WIDTH - img.get_width()) // 2 if ln.align == CENTRE else WIDTH - MARGIN - img.get_width())
            surface.blit(img, (max(0, x), y))
        y += LINE * ln.size
    path.parent.mkdir(parents=True, exist_ok=True)
    pg.image.save(surface, str(path))
    return path


def _barcode_of(barcodes: list[Barcode], ln: Line) -> Barcode | None:
    if ln.text.startswith(BARCODE_MARK):
        return barcodes[int(ln.text[len(BARCODE_MARK):])]
    return None


def _barcode_height(barcodes: list[Barcode], ln: Line) -> int:
    bar = _barcode_of(barcodes, ln)
    return 0 if bar is None else bar.height + LINE + 8


def _draw_barcode(pg, surface, font, bar: Barcode, y: int, ink) -> int:
    if bar.kind == BARCODE_ITF:
        modules = itf_modules(bar.data)
        total = sum(w for _b, w in modules) * bar.width
        x = (WIDTH - total) // 2
        for is_bar, w in modules:
            if is_bar:
                pg.draw.rect(surface, (0, 0, 0), (x, y, w * bar.width, bar.height))
            x += w * bar.width
    digits = font.render(bar.data, True, ink)
    surface.blit(digits, ((WIDTH - digits.get_width()) // 2, y + bar.height + 4))
    return y + bar.height + LINE + 8
