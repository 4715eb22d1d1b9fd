"""The cards and hands of a player screen: the dealer's cards and words, the min/max card, the
header (the other seats' lines and hands: others.py), the seat's own hands with their stakes and outcomes, the deciding seat's
hand for the others to watch.

Owns those parts' layout (``CardsPainter``, one of ``draw.Renderer``'s bases). Never changes
the cabinet; never waits on anything.
"""

from __future__ import annotations

import pygame

from machine.display import others
from machine.display.painter import Painter
from machine.display.palette import DIM, FELT_DARK, GOLD, RED, WHITE
from machine.display.view import SeatView, TableView
from machine.i18n import N_

# the layout's heights at s = 1 (a 960x540 screen); everything scales with s
DEALER_SCALE = 0.8  # the dealer's cards beside the seat's own (full size)
HANDS_Y = 222
WATCH_Y = 100  # the deciding seat's hand, at the right below the min/max card
# a result in one convention for every game: what the hand won or lost on its stake (the net),
# then what came back to the credit, whenever anything did ("Win 3 (5 back)", "Lost 2")
OUTCOMES = {"win": N_("Win {net} ({back} back)"), "blackjack": N_("Blackjack: win {net} ({back} back)"),
            "push": N_("Push ({back} back)"), "lose": N_("Lost {amount}"), "lose_back": N_("Lost {net} ({back} back)"),
            "surrender": N_("Surrendered: lost {net} ({back} back)")}
MAX_NOTES = {  # why the MAX of the decision at hand is below the table's (SeatView.max_why)
    "club": N_("Max {bet}: a quarter of your club meter"), "bank": N_("Max {bet}: what the bank covers"),
    "credit": N_("Max {bet}: what your credit covers"),
}


class CardsPainter(Painter):
    """The dealer, the min/max card, the header and the hands of one seat's screen."""

    def _dealer(self, surf, view: TableView, now, s) -> None:
        W = surf.get_width()
        cw, ch = self.card_size(s * DEALER_SCALE)
        cards = list(view.dealer_cards)
        step = cw * 0.62
        x0 = W / 2 - (cw + step * (len(cards) - 1)) / 2
        top = 34 * s
        self.text(surf, self.tr(view.dealer_title), int(18 * s), DIM, center=(W / 2, 16 * s))
        if view.bank is not None:
            self.text(surf, self._("BANK {bank}", bank=self.num(view.bank)), int(22 * s), GOLD,
                      topright=(W - int(134 * s), int(12 * s)))
        if view.notice:
            self.text(surf, self.tr(view.notice), int(17 * s), GOLD, center=(W / 2, top + ch + 34 * s), width=W - 20 * s)
        for i, c in enumerate(cards):
            self._card(surf, c, x0 + i * step, top, s * DEALER_SCALE, ("dealer", i, c), now)
        if view.dealer_text:
            self.text(surf, self.tr(view.dealer_text), int(20 * s), WHITE, center=(W / 2, top + ch + 13 * s))

    def _minmax(self, surf, view: TableView, seat: SeatView, s) -> None:
        W = surf.get_width()
        r = pygame.Rect(0, 0, int(110 * s), int(56 * s))
        r.topright = (W - int(10 * s), int(10 * s))
        pygame.draw.rect(surf, WHITE, r, border_radius=int(6 * s))
        pygame.draw.rect(surf, GOLD, r, width=max(1, int(2 * s)), border_radius=int(6 * s))
        ink = (30, 30, 30)
        self.text(surf, self._("MIN {bet}", bet=self.num(seat.min_bet)), int(17 * s), ink,
                  center=(r.centerx, r.top + r.height * 0.3), width=r.width - 8 * s)
        top = self.num(seat.max_bet)
        self.text(surf, self._("MAX {bet}", bet=top), int(17 * s), ink, center=(r.centerx, r.top + r.height * 0.72),
                  width=r.width - 8 * s)
        why = seat.max_why or ("club" if seat.max_note else "")
        if why in MAX_NOTES:  # why the most is below the table's maximum
            self.text(surf, self._(MAX_NOTES[why], bet=top), int(14 * s), GOLD,
                      topright=(r.right, r.bottom + int(4 * s)), width=W * 0.45)

    def _header(self, surf, view: TableView, seat: SeatView, s, now: float) -> None:
        """"SEAT N", the game in force with its main pay rule, and the other seats with their hands
        as this seat may see them (others.py)."""
        r = self.text(surf, self._("SEAT {seat}", seat=seat.number), int(30 * s), GOLD, topleft=(int(12 * s), int(6 * s)))
        self.text(surf, self.tr(view.game_title), int(16 * s), GOLD, topleft=(r.right + int(10 * s), int(15 * s)),
                  width=(12 + others.WIDTH) * s - r.right - 10 * s)
        y = int(40 * s)
        for line in self.wrapped(self.tr(view.pay_rule), int(13 * s), others.WIDTH * s)[:1 if view.places else 2]:
            self.text(surf, line, int(13 * s), WHITE, topleft=(int(12 * s), y), width=others.WIDTH * s)
            y += int(16 * s)
        cw = self.card_size(s * DEALER_SCALE)[0]
        n = 0 if view.places else len(view.dealer_cards)  # the house's cards, centred: the strip stays left of them
        left = surf.get_width() / 2 - (cw + cw * 0.62 * (n - 1)) / 2 - 8 * s if n else None
        others.draw_others(self, surf, view, seat, now, s, right=left, top=y + 2 * s)

    def hand_label(self, hand) -> str:
        """"Bet 2 · 11": the hand's stake and total, plainly."""
        total = self.tr(hand.total_text)
        if not hand.stake:
            return total
        bet = self._("Bet {bet}, doubled", bet=self.num(hand.stake)) if hand.doubled else self._(
            "Bet {bet}", bet=self.num(hand.stake))
        return f"{bet}  \u00b7  {total}" if total else bet

    def outcome(self, hand) -> str:
        """"Win 10 (20 back)", "Push (10 back)", "Lost 10": the hand's net on its stake, then what
        came back (``returned``), the one convention of every game's results."""
        net, back = hand.returned - hand.stake, hand.returned
        key = hand.result
        if key in ("win", "blackjack") and net <= 0:  # a share of a tied win no larger than the stake
            key = "push" if net == 0 else "lose_back"
        elif key == "lose" and back:
            key = "lose_back"
        if key == "lose":
            return self._(OUTCOMES[key], amount=self.num(hand.stake))
        return self._(OUTCOMES[key], net=self.num(abs(net)), back=self.num(back))

    def _hands(self, surf, seat: SeatView, now, s) -> None:
        if not seat.hands:
            return
        W, H = surf.get_size()
        cw, ch = self.card_size(s)
        step = cw * 0.42
        widths = [cw + step * (len(h.cards) - 1) for h in seat.hands]
        gap = 40 * s
        total = sum(widths) + gap * (len(widths) - 1)
        x = W / 2 - total / 2
        y = HANDS_Y * s
        # a label as wide as its hand and the gap; a lone hand's as wide as half the screen, so a
        # long language's result ("Выигрыш 2 (возврат 4)") keeps its size
        room = [wdt + gap - 8 * s for wdt in widths] if len(widths) > 1 else [max(widths[0] + gap, W * 0.5)]
        for i, (hand, wdt) in enumerate(zip(seat.hands, widths, strict=True)):
            if hand.active:
                frame = pygame.Rect(x - 6 * s, y - 6 * s, wdt + 12 * s, ch + 12 * s)
                pygame.draw.rect(surf, GOLD, frame, width=max(2, int(3 * s)), border_radius=int(8 * s))
            for j, c in enumerate(hand.cards):
                self._card(surf, c, x + j * step, y, s, ("seat", seat.number, i, j, c), now)
            self.text(surf, self.hand_label(hand), int(17 * s), WHITE, center=(x + wdt / 2, y + ch + 14 * s), width=room[i])
            if hand.result:
                color = GOLD if hand.result in ("win", "blackjack") else DIM if hand.result in ("push", "surrender") else RED
                self.text(surf, self.outcome(hand), int(19 * s), color, center=(x + wdt / 2, y + ch + 35 * s), width=room[i])
            x += wdt + gap
        if seat.insurance:
            bet = self.num(seat.insurance)
            net, back = self.num(seat.insurance_returned - seat.insurance), self.num(seat.insurance_returned)
            line = (self._("Insurance {bet}: win {net} ({back} back)", bet=bet, net=net, back=back)
                    if seat.insurance_returned else self._("Insurance {bet}", bet=bet))
            self.text(surf, line, int(16 * s), GOLD, topleft=(int(12 * s), int(y + ch * 0.5)), width=W * 0.5 - total / 2 - 20 * s)

    def _watching(self, surf, view: TableView, seat: SeatView, now, s) -> None:
        """The deciding seat's hand, small, for every other seat to see (random-blackjack.md section 8)."""
        if not seat.watching or view.turn is None:
            return
        W = surf.get_width()
        ss = s * 0.45
        cw, ch = self.card_size(ss)
        box = pygame.Rect(0, 0, int(250 * s), int(ch + 44 * s))
        box.topright = (W - int(10 * s), int(WATCH_Y * s))
        pygame.draw.rect(surf, FELT_DARK, box, border_radius=int(8 * s))
        pygame.draw.rect(surf, GOLD, box, width=max(1, int(1 * s)), border_radius=int(8 * s))
        self.text(surf, self._("Seat {seat} plays", seat=view.turn), int(14 * s), GOLD,
                  topleft=(box.left + int(8 * s), box.top + int(4 * s)), width=box.width - 16 * s)
        x = box.left + 8 * s
        y = box.top + 22 * s
        for i, hand in enumerate(seat.watching):  # each hand's cards, its total below them
            wdt = cw + cw * 0.45 * (len(hand.cards) - 1)
            for j, c in enumerate(hand.cards):
                self._card(surf, c, x + j * cw * 0.45, y, ss, ("watch", view.turn, i, j, c), now)
            self.text(surf, self.tr(hand.total_text), int(13 * s), WHITE, center=(x + wdt / 2, y + ch + 9 * s),
                      width=wdt + 8 * s)
            x += wdt + 12 * s
