"""Painting the operator menu (a ``MenuView``) onto a surface.

Owns: the menu's look: title, lines (tab-separated columns line up), the highlighted line,
game recall drawn with the real cards (a game of places: every place's final hand), the
footer with the button help. Never changes anything.
"""

from __future__ import annotations

import pygame

from machine.display.cardart import card_surface
from machine.display.draw import GOLD, WHITE, Renderer
from machine.operator.menu import MenuView

BG = (18, 22, 34)


def draw_menu(surf: pygame.Surface, view: MenuView, r: Renderer) -> None:
    W, H = surf.get_size()
    s = H / 540
    surf.fill(BG)
    pygame.draw.rect(surf, GOLD, surf.get_rect(), width=max(2, int(3 * s)))
    r.text(surf, "OPERATOR", int(14 * s), (150, 160, 190), topleft=(int(16 * s), int(10 * s)))
    r.text(surf, view.title, int(26 * s), GOLD, topleft=(int(16 * s), int(26 * s)))
    y = 64 * s
    size = int(15 * s)
    col_w = W / 11
    for i, line in enumerate(view.lines[:26]):
        if view.selected == i:
            pygame.draw.rect(surf, (60, 70, 110), pygame.Rect(int(10 * s), int(y - 2 * s), int(W - 20 * s), int(size + 6 * s)))
        cells = line.split("\t")
        if len(cells) == 1:
            r.text(surf, line, size, WHITE, topleft=(int(20 * s), int(y)))
        else:
            r.text(surf, cells[0], size, WHITE, topleft=(int(20 * s), int(y)))
            for j, cell in enumerate(cells[1:]):
                r.text(surf, cell, size, WHITE, topright=(int(W * 0.22 + (j + 1) * col_w), int(y)))
        y += size + 6 * s
    if view.recall:
        _recall_cards(surf, view.recall, r, s, y + 10 * s)
    pygame.draw.rect(surf, (0, 0, 0), pygame.Rect(0, H - int(30 * s), W, int(30 * s)))
    r.text(surf, view.footer, int(14 * s), (255, 230, 150), topleft=(int(16 * s), H - int(24 * s)))


def _recall_cards(surf, game, r: Renderer, s: float, y: float) -> None:
    cw, ch = int(56 * s), int(80 * s)
    x = 20 * s
    if "dealer" not in game and "places" in game:  # a game of places: every place's final hand
        _recall_places(surf, game, r, s, y)
        return
    title = str(game.get("dealer_title", "DEALER")).capitalize()
    r.text(surf, f"{title} ({game['dealer']['total']})", int(15 * s), GOLD, topleft=(int(x), int(y)))
    for i, c in enumerate(game["dealer"]["cards"]):
        surf.blit(card_surface(c, cw, ch, r.font_path), (int(x + i * cw * 0.7), int(y + 20 * s)))
    x = 20 * s + max(4, len(game["dealer"]["cards"]) + 2) * cw * 0.7
    for hand in game["seat"]["hands"]:
        label = f"{hand['total']}  stake {hand.get('stake', game['seat'].get('bet', 0))}  {hand['result']} {hand['returned']}"
        r.text(surf, label, int(15 * s), GOLD, topleft=(int(x), int(y)))
        for i, c in enumerate(hand["cards"]):
            surf.blit(card_surface(c, cw, ch, r.font_path), (int(x + i * cw * 0.7), int(y + 20 * s)))
        x += (len(hand["cards"]) + 2) * cw * 0.7


def _recall_places(surf, game, r: Renderer, s: float, y: float) -> None:
    """Every place of a game of places with its final cards, score and result, in a row."""
    cw, ch = int(56 * s), int(80 * s)
    x = 20 * s
    winners = game.get("winners", [])
    for p in game["places"]:
        who = "computer" if p["seat"] is None else f"seat {p['seat']}"
        won = p["place"] in winners
        result = ("  WIN " + str(p["returned"]) if p["seat"] is not None else "  WIN") if won else ""
        knock = "  31!" if p.get("knocked") else ""
        r.text(surf, f"P{p['place']} {who}", int(14 * s), GOLD if p["seat"] == game["seat"]["seat"] else WHITE,
               topleft=(int(x), int(y)))
        r.text(surf, f"{p['score']}{knock}{result}", int(14 * s), GOLD if won else WHITE, topleft=(int(x), int(y + 17 * s)))
        for i, c in enumerate(p["cards"]):
            surf.blit(card_surface(c, cw, ch, r.font_path), (int(x + i * cw * 0.7), int(y + 38 * s)))
        x += (len(p["cards"]) + 2) * cw * 0.7
