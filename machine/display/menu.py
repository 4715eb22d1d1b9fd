"""Painting the operator menu (a ``MenuView``) onto a surface.

Owns: the menu's look: title, a table's column names and its lines (tab-separated columns,
each as wide as its widest cell, left or right aligned as the view says, the type made smaller
until the table fits the width: nothing is cut off at any screen size), the highlighted line,
game recall drawn with the real cards (a game of places: every place's final hand; the cards
made smaller until every hand fits), the footer with the button help. Its own words (the recall
labels) in the view's language. Never changes anything.
"""

from __future__ import annotations

from typing import Any

import pygame

from machine.display.draw import GOLD, WHITE, Renderer
from machine.operator.menuwords import MenuView

BG = (18, 22, 34)
DIM = (150, 160, 190)
HIGHLIGHT = (60, 70, 110)
FIGURES = "000,000"  # the narrowest a column of figures is drawn: the meters' columns stay put from page to page
FOOTER = (255, 230, 150)


def _fit(r: Renderer, text: str, size: int, width: float) -> int:
    """The largest type size up to ``size`` in which ``text`` is at most ``width`` pixels wide."""
    while size > 8 and r.font(size).size(text)[0] > width:
        size = max(8, int(size * min(0.95, width / max(1, r.font(size).size(text)[0]))))
    return size


def _blit(surf: pygame.Surface, r: Renderer, text: str, size: int, color, **where: Any) -> pygame.Rect:
    """The text as written (already in the operator's language: no second translation)."""
    img = r.font(size).render(text, True, color)
    rect = img.get_rect(**where)
    surf.blit(img, rect)
    return rect


def _columns(r: Renderer, rows: list[list[str]], size: int, gap: float, width: float, align: str
             ) -> tuple[int, list[float]]:
    """The type size and each column's width: every page in the one size (the title's scale
    below it), a column of figures (right-aligned) at least as wide as ``FIGURES`` so that the
    pages of one table keep their columns where they were, and where a table of names and
    figures has room, its first column (the names) takes it, the figures lined up at the right. Where the
    columns are too wide, the widest columns are narrowed to one limit (their cells written
    smaller, ``_row``); only where even that cannot fit them is the whole type made smaller."""
    while True:
        font = r.font(size)
        n = max(len(c) for c in rows)
        how = [align[j] if j < len(align) else ("l" if j == 0 else "r") for j in range(n)]
        right = [j > 0 and how[j] == "r" for j in range(n)]
        least = font.size(FIGURES)[0]
        widths: list[float] = [max([font.size(c[j])[0] for c in rows if j < len(c)] + [least if right[j] else 0])
                               for j in range(n)]
        room = width - gap * (n - 1)
        if how[0] == "l" and any(right) and sum(widths) < room:
            widths[0] += room - sum(widths)  # the figures at the right edge, page after page
        if sum(widths) <= room:
            return size, widths
        limit = _limit(widths, room)
        if limit >= 6 * size or size <= 8:
            return size, [min(w, limit) for w in widths]
        size = max(8, int(size * 0.93))


def _limit(widths: list[float], room: float) -> float:
    """The widest a column may be for all of them to fit ``room`` (the narrow ones untouched)."""
    rest, n = room, len(widths)
    for i, w in enumerate(sorted(widths)):
        if w * (n - i) >= rest:
            return rest / (n - i)
        rest -= w
    return max(widths)


def draw_menu(surf: pygame.Surface, view: MenuView, r: Renderer) -> None:
    W, H = surf.get_size()
    s = H / 540
    _ = r.words(view.language)
    surf.fill(BG)
    pygame.draw.rect(surf, GOLD, surf.get_rect(), width=max(2, int(3 * s)))
    _blit(surf, r, _("OPERATOR"), int(14 * s), DIM, topleft=(int(16 * s), int(10 * s)))
    _blit(surf, r, view.title, _fit(r, view.title, int(26 * s), W - 32 * s), GOLD, topleft=(int(16 * s), int(26 * s)))
    left, width = 20 * s, W - 40 * s
    footer_h = 30 * s
    if view.picture is not None:  # game recall: the game drawn step by step, marked RECALL
        from machine.display.recallpic import draw_recall

        draw_recall(surf, view.picture, r, pygame.Rect(int(8 * s), int(58 * s), int(W - 16 * s), int(H - footer_h - 62 * s)))
        _footer(surf, r, view.footer, s, footer_h)
        return
    y = 66 * s
    size = int(15 * s)
    table = [line.split("\t") for line in ([view.header] if view.header else []) + view.lines if "\t" in line]
    columns = max((len(c) for c in table), default=1)
    gap = max(10.0, 24 * min(1.0, 6 / columns)) * s  # closer columns when there are many (four or eight seats)
    if table:
        size, widths = _columns(r, table, size, gap, width, view.align)
    row_h = size + 6 * s
    if view.header:
        _row(surf, r, view.header.split("\t"), view.align, widths, left, y, size, gap, DIM)
        y += row_h
        pygame.draw.line(surf, DIM, (int(left), int(y - 3 * s)), (int(W - left), int(y - 3 * s)), max(1, int(s)))
    room = int((H - footer_h - y - 4 * s) // row_h)
    for i, line in enumerate(view.lines[:room]):
        if view.selected == i:
            pygame.draw.rect(surf, HIGHLIGHT, pygame.Rect(int(10 * s), int(y - 2 * s), int(W - 20 * s), int(row_h)))
        if "\t" in line:
            _row(surf, r, line.split("\t"), view.align, widths, left, y, size, gap, WHITE)
        elif line:
            _blit(surf, r, line, _fit(r, line, size, width), WHITE, topleft=(int(left), int(y)))
        y += row_h
    _footer(surf, r, view.footer, s, footer_h)


def _footer(surf: pygame.Surface, r: Renderer, footer: str, s: float, footer_h: float) -> None:
    W, H = surf.get_size()
    pygame.draw.rect(surf, (0, 0, 0), pygame.Rect(0, H - int(footer_h), W, int(footer_h)))
    _blit(surf, r, footer, _fit(r, footer, int(14 * s), W - 32 * s), FOOTER, midleft=(int(16 * s), H - int(footer_h / 2)))


def _row(surf, r: Renderer, cells: list[str], align: str, widths: list[float], left: float, y: float, size: int,
         gap: float, color) -> None:
    x = left
    for j, cell in enumerate(cells):
        how = align[j] if j < len(align) else ("l" if j == 0 else "r")
        fit = _fit(r, cell, size, widths[j])  # a cell of a narrowed column, smaller; the others as they are
        if how == "r":
            _blit(surf, r, cell, fit, color, topright=(int(x + widths[j]), int(y)))
        else:
            _blit(surf, r, cell, fit, color, topleft=(int(x), int(y)))
        x += widths[j] + gap


