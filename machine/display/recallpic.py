"""Drawing one recalled game (a ``Recall``) as a picture: the operator menu's recall page and the PNGs.

Owns: the picture's look: a red RECALL mark and the title, the game, its round and the credit
before, the rules in force, every step numbered in the order it happened (red suits in red),
the final cards drawn as cards (the house's and the seat's hands, or every place of a game of
places), each marked with the number of the step that dealt it, their results, and the stakes,
returns and credit after; the type made smaller (and the steps set in columns) until everything
fits the surface. ``recall_png`` writes one picture to a file. Never changes anything and never reads the journal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame

from machine.display.cardart import card_surface
from machine.display.palette import GOLD, RED, WHITE
from machine.operator.recall import Recall, dealt_at

BG = (18, 22, 34)
DIM = (170, 180, 205)
PANEL = (28, 34, 52)
MARK = (190, 30, 30)
RED_SUITS = ("♥", "♦")


def _words(surf: pygame.Surface, font: pygame.font.Font, text: str, x: float, y: float, color) -> float:
    """``text`` word by word, a card with a red suit in red; the x after it."""
    space = font.size(" ")[0]
    for word in text.split(" "):
        img = font.render(word, True, RED if any(s in word for s in RED_SUITS) and len(word) <= 4 else color)
        surf.blit(img, (int(x), int(y)))
        x += img.get_width() + space
    return x


def _fits(font: pygame.font.Font, lines: list[str], width: float) -> bool:
    return all(font.size(t)[0] <= width for t in lines)


def draw_recall(surf: pygame.Surface, rc: Recall, painter: Any, area: pygame.Rect | None = None) -> None:
    """``rc`` drawn into ``area`` of ``surf`` (the whole surface when None); ``painter``: a
    ``Renderer`` (its fonts and card art)."""
    area = area or surf.get_rect()
    s = area.height / 540
    pad = 12 * s
    pygame.draw.rect(surf, BG, area)
    # the mark and the title
    big = painter.font(max(10, int(24 * s)))
    mark = big.render("RECALL", True, WHITE)
    box = mark.get_rect(topleft=(int(area.x + pad), int(area.y + pad))).inflate(int(16 * s), int(6 * s))
    box.topleft = (int(area.x + pad), int(area.y + pad))
    pygame.draw.rect(surf, MARK, box, border_radius=int(4 * s))
    surf.blit(mark, mark.get_rect(center=box.center))
    title = rc.title.split(" - ", 1)[1] if " - " in rc.title and rc.title.startswith("RECALL") else rc.title
    tfont = painter.font(_size(painter, [title], int(20 * s), area.right - box.right - 2 * pad))
    surf.blit(tfont.render(title, True, GOLD), (int(box.right + pad), int(box.centery - tfont.get_height() / 2)))
    y = box.bottom + 8 * s
    # the game, the round, the credit before; the rules in force
    head = painter.font(_size(painter, rc.head, int(14 * s), area.width - 2 * pad))
    for line in rc.head:
        _words(surf, head, line, area.x + pad, y, WHITE)
        y += head.get_height()
    rules = painter.font(_size(painter, rc.rules, int(11 * s), area.width - 2 * pad))
    for i, line in enumerate(rc.rules):
        surf.blit(rules.render(line, True, DIM), (int(area.x + pad + (12 * s if i else 0)), int(y)))
        y += rules.get_height()
    y += 6 * s
    # the steps on the left, the final cards and the result on the right
    split = area.x + area.width * 0.56
    left = pygame.Rect(int(area.x + pad), int(y), int(split - area.x - 2 * pad), int(area.bottom - y - pad))
    _steps(surf, rc, painter, left, s)
    _table(surf, rc, painter, pygame.Rect(int(split), int(y), int(area.right - split - pad), int(area.bottom - y - pad)), s)


def _size(painter: Any, lines: list[str], size: int, width: float) -> int:
    while size > 7 and not _fits(painter.font(size), lines, width):
        size -= 1
    return size


def _steps(surf: pygame.Surface, rc: Recall, painter: Any, box: pygame.Rect, s: float) -> None:
    lines = [f"{i}. {st.text}" for i, st in enumerate(rc.steps, 1)]
    if not lines:
        return
    best = (0, 1)  # (type size, columns): the layout with the largest type
    for columns in (1, 2, 3):
        width = (box.width - (columns - 1) * 10 * s) / columns
        rows = -(-len(lines) // columns)
        size = int(14 * s)
        while size > 7 and (painter.font(size).get_height() * 1.1 * rows > box.height
                            or not _fits(painter.font(size), lines, width)):
            size -= 1
        best = max(best, (size, -columns))
    size, columns = best[0], -best[1]
    width = (box.width - (columns - 1) * 10 * s) / columns
    rows = -(-len(lines) // columns)
    font = painter.font(size)
    step_h = min(font.get_height() * 1.15, box.height / max(1, rows))
    for i, line in enumerate(lines):
        c, r = divmod(i, rows)
        x, y = box.x + c * (width + 10 * s), box.y + r * step_h
        color = GOLD if rc.steps[i].decision else WHITE
        _words(surf, font, line, x, y, color)


def _table(surf: pygame.Surface, rc: Recall, painter: Any, box: pygame.Rect, s: float) -> None:
    pygame.draw.rect(surf, PANEL, box, border_radius=int(6 * s))
    rows: list[tuple[str, tuple[str, ...], str]] = []  # label, cards, whose
    if rc.house:
        rows.append((f"{rc.house[0]} ({rc.house[2]})", rc.house[1], "house"))
    rows += [(label, cards, "seat") for cards, label in rc.hands]
    rows += [(f"{who}: {label}", cards, f"place {i}") for i, (who, cards, label) in enumerate(rc.places, 1)]
    used: set[int] = set()
    numbers = [dealt_at(rc, whose, cards, used) for _, cards, whose in rows]  # the step that dealt each card
    result_font = painter.font(_size(painter, rc.result, int(13 * s), box.width - 16 * s))
    result_h = len(rc.result) * result_font.get_height() + 10 * s
    label_font = painter.font(_size(painter, [r[0] for r in rows] or [""], int(13 * s), box.width - 16 * s))
    most = max((len(r[1]) for r in rows), default=1)
    room_h = (box.height - result_h - 8 * s) / max(1, len(rows)) - label_font.get_height() - 6 * s
    cw = int(max(12, min(56 * s, (box.width - 16 * s) / max(1.0, (most - 1) * 0.72 + 1), room_h * 56 / 80)))
    ch = int(cw * 80 / 56)
    y = box.y + 8 * s
    badge = painter.font(max(8, int(cw * 0.22)))
    for (label, cards, _whose), steps in zip(rows, numbers, strict=True):
        surf.blit(label_font.render(label, True, GOLD), (int(box.x + 8 * s), int(y)))
        y += label_font.get_height() + 2 * s
        for i, c in enumerate(cards):
            x = box.x + 8 * s + i * cw * 0.72
            surf.blit(card_surface(c, cw, ch, painter.font_path), (int(x), int(y)))
            if steps[i] is not None:  # the step that dealt it, on the card's visible corner
                _badge(surf, badge, str(steps[i]), x + cw * 0.2, y + ch - cw * 0.2)
        y += ch + 6 * s
    y = max(y, box.bottom - result_h)
    for line in rc.result:
        _words(surf, result_font, line, box.x + 8 * s, y, WHITE)
        y += result_font.get_height()


def _badge(surf: pygame.Surface, font: pygame.font.Font, text: str, cx: float, cy: float) -> None:
    img = font.render(text, True, WHITE)
    r = max(img.get_width(), img.get_height()) / 2 + 2
    pygame.draw.circle(surf, BG, (int(cx), int(cy)), int(r))
    pygame.draw.circle(surf, GOLD, (int(cx), int(cy)), int(r), width=1)
    surf.blit(img, img.get_rect(center=(int(cx), int(cy))))


def recall_png(rc: Recall, path: Path, size: tuple[int, int] = (1600, 1000)) -> None:
    """One recalled game drawn and written to ``path`` as PNG (headless: no window needed)."""
    from machine.display.draw import Renderer

    surf = pygame.Surface(size)
    draw_recall(surf, rc, Renderer())
    pygame.image.save(surf, str(path))

