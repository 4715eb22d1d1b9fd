"""Card faces and backs, drawn by the program (no image files): rank glyphs and suit shapes.

Owns: painting one card onto a surface at a rectangle. Suits are drawn as shapes, so no font
needs the suit symbols. Never knows the game.
"""

from __future__ import annotations

import functools

import pygame

RED = (200, 20, 30)
BLACK = (20, 20, 24)
RANK_TEXT = {"T": "10"}


def _heart(surf: pygame.Surface, cx: float, cy: float, r: float, color) -> None:
    rr = max(1, int(r * 0.52))
    pygame.draw.circle(surf, color, (int(cx - r * 0.48), int(cy - r * 0.2)), rr)
    pygame.draw.circle(surf, color, (int(cx + r * 0.48), int(cy - r * 0.2)), rr)
    pygame.draw.polygon(surf, color, [(cx - r * 0.98, cy - r * 0.05), (cx + r * 0.98, cy - r * 0.05), (cx, cy + r)])


def _diamond(surf, cx, cy, r, color) -> None:
    pygame.draw.polygon(surf, color, [(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)])


def _spade(surf, cx, cy, r, color) -> None:
    rr = max(1, int(r * 0.5))
    pygame.draw.circle(surf, color, (int(cx - r * 0.46), int(cy + r * 0.15)), rr)
    pygame.draw.circle(surf, color, (int(cx + r * 0.46), int(cy + r * 0.15)), rr)
    pygame.draw.polygon(surf, color, [(cx - r * 0.95, cy + r * 0.05), (cx + r * 0.95, cy + r * 0.05), (cx, cy - r)])
    pygame.draw.polygon(surf, color, [(cx, cy + r * 0.2), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)])


def _club(surf, cx, cy, r, color) -> None:
    rr = max(1, int(r * 0.42))
    pygame.draw.circle(surf, color, (int(cx), int(cy - r * 0.48)), rr)
    pygame.draw.circle(surf, color, (int(cx - r * 0.5), int(cy + r * 0.12)), rr)
    pygame.draw.circle(surf, color, (int(cx + r * 0.5), int(cy + r * 0.12)), rr)
    pygame.draw.polygon(surf, color, [(cx, cy), (cx - r * 0.35, cy + r), (cx + r * 0.35, cy + r)])


SUIT_SHAPES = {"H": (_heart, RED), "D": (_diamond, RED), "S": (_spade, BLACK), "C": (_club, BLACK)}


@functools.lru_cache(maxsize=512)
def card_surface(code: str | None, w: int, h: int, font_path: str | None) -> pygame.Surface:
    """A card face (``code`` like "AS") or, for None, a card back; cached by size."""
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = max(3, w // 10)
    rect = pygame.Rect(0, 0, w, h)
    if code is None:
        pygame.draw.rect(surf, (25, 55, 140), rect, border_radius=radius)
        inner = rect.inflate(-w // 6, -w // 6)
        pygame.draw.rect(surf, (200, 210, 240), inner, width=max(1, w // 30), border_radius=radius // 2)
        step = max(4, w // 8)
        for x in range(inner.left, inner.right, step):
            end = (min(inner.right - 2, x + inner.height), inner.bottom - 2)
            pygame.draw.line(surf, (60, 95, 190), (x, inner.top + 2), end, 1)
        pygame.draw.rect(surf, (10, 20, 60), rect, width=max(1, w // 40), border_radius=radius)
        return surf
    pygame.draw.rect(surf, (252, 252, 248), rect, border_radius=radius)
    pygame.draw.rect(surf, (90, 90, 90), rect, width=max(1, w // 45), border_radius=radius)
    rank, suit = code[0], code[1]
    shape, color = SUIT_SHAPES[suit]
    font = pygame.font.Font(font_path, max(8, int(h * 0.24)))
    label = font.render(RANK_TEXT.get(rank, rank), True, color)
    surf.blit(label, (int(w * 0.08), int(h * 0.04)))
    shape(surf, w * 0.08 + label.get_width() / 2, h * 0.04 + label.get_height() + h * 0.07, h * 0.065, color)
    shape(surf, w / 2, h * 0.6, h * 0.2, color)
    small = pygame.transform.rotate(label, 180)
    surf.blit(small, (w - small.get_width() - int(w * 0.08), h - small.get_height() - int(h * 0.04)))
    return surf
