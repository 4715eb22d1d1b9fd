"""What each seat's screen may see of the other seats, step by step through scripted rounds,
as ``build_view`` gives it to the drawing code: ochko's closed cards never on another seat's
screen until a 21, a bust or the settlement; eenentwintig's open cards on every screen."""

from __future__ import annotations

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.games.interface import FACE_DOWN
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes

D = FACE_DOWN


def boot(tmp, profile, shoes):
    return open_cabinet(tmp / "journal.sqlite", load_profile(profile), CabinetSettings(seats=2),
                        lambda p: make_game(p, auto_for(p.engine)), shoes, memory(tmp), create=True)


def seen(cab, viewer):
    """What ``viewer``'s screen holds of the other seats: (the watched hands, every other seat's)."""
    seat = build_view(cab, 0.0).seats[viewer - 1]
    return ([h.cards for h in seat.watching],
            {o: [(h.cards, h.total_text) for h in hands] for o, hands in seat.others.items()})


def both_in(cab, t=1):
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    for n in (1, 2):
        cab.press(n, "start", t)


def test_ochko_a_seat_never_sees_another_seats_closed_cards_until_the_settlement(tmp_path):
    # seat 1 TS, seat 2 9S, the banker's open 7H; seat 1 stakes, 8S (18), stands; seat 2 stakes,
    # QS (12), draws KH (16), stands; the banker 6H (13) draws TC: 23, a bust.
    cab = boot(tmp_path, "ochko", stacked_shoes("TS 9S 7H 8S QS KH 6H TC"))
    both_in(cab)
    assert seen(cab, 2) == ([(D,)], {1: [((D,), "")]})  # seat 1 stakes: seat 2 sees a closed card
    assert seen(cab, 1) == ([], {2: [((D,), "")]})
    assert build_view(cab, 0).seats[0].hands[0].cards == ("TS",)  # its own card, seen by its seat only
    cab.press(1, "start", 2)
    assert seen(cab, 2) == ([(D, D)], {1: [((D, D), "")]})  # seat 1 plays T♠ 8♠: two closed cards
    cab.press(1, "stand", 3)
    assert seen(cab, 1) == ([(D,)], {2: [((D,), "")]})
    assert seen(cab, 2) == ([], {1: [((D, D), "")]})  # seat 1 waits for the banker: still closed
    cab.press(2, "start", 4)
    cab.press(2, "draw", 5)
    assert seen(cab, 1) == ([(D, D, D)], {2: [((D, D, D), "")]})
    cab.press(2, "stand", 6)
    assert cab.round is None  # settled: every hand on every screen
    assert seen(cab, 1)[1] == {2: [(("9S", "QS", "KH"), "16")]}
    assert seen(cab, 2)[1] == {1: [(("TS", "8S"), "18")]}


def test_ochko_a_21_and_a_bust_are_shown_to_every_seat_at_once(tmp_path):
    # seat 1 AS, seat 2 TD, the banker's open 7H; seat 1 stakes, AH: two aces, 21 at once;
    # seat 2 stakes, 9C (19), draws KC: 23, a bust at once.
    cab = boot(tmp_path, "ochko", stacked_shoes("AS TD 7H AH 9C KC 6H TC"))
    both_in(cab)
    cab.press(1, "start", 2)
    assert seen(cab, 2)[1] == {1: [(("AS", "AH"), "21")]}  # the 21 shown while seat 2 stakes
    assert seen(cab, 1)[1] == {2: [((D,), "")]}
    cab.press(2, "start", 3)
    assert seen(cab, 1)[1] == {2: [((D, D), "")]}
    cab.press(2, "draw", 4)
    assert cab.round is None
    assert seen(cab, 1)[1] == {2: [(("TD", "9C", "KC"), "bust 23")]}


def test_eenentwintig_every_seats_open_card_is_on_every_screen_and_all_at_the_end(tmp_path):
    # closed: seat 1 7S, seat 2 9H, the bank KD; open: seat 1 8D, seat 2 AC, the bank TC; seat 1
    # washes 7 + 8 for A A (20.5) and passes, seat 2 passes on 9 + A (20); the bank K T 8: bust.
    cab = boot(tmp_path, "eenentwintig", stacked_shoes("7S 9H KD 8D AC TC AH AD 8C"))
    both_in(cab)
    assert seen(cab, 2)[1] == {1: [((D, "8D"), "")]}  # the bets: the open card for all, the closed for none
    assert seen(cab, 1)[1] == {2: [((D, "AC"), "")]}
    assert build_view(cab, 0).dealer_cards == (D, D)
    cab.press(1, "start", 3)
    cab.press(2, "start", 3)  # every bet is in: the closed cards turned for all
    assert seen(cab, 2) == ([("7S", "8D")], {1: [(("7S", "8D"), "15")]})
    assert seen(cab, 1)[1] == {2: [(("9H", "AC"), "soft 20")]}
    cab.press(1, "double", 4)  # Wash
    cab.press(1, "stand", 4)
    assert seen(cab, 1) == ([("9H", "AC")], {2: [(("9H", "AC"), "soft 20")]})
    cab.press(2, "stand", 4)
    assert cab.round is None  # the settlement: the bank's and every seat's cards and scores
    view = build_view(cab, 0)
    assert (view.dealer_cards, view.dealer_text) == (("KD", "TC", "8C"), "bust 22")
    assert seen(cab, 1)[1] == {2: [(("9H", "AC"), "soft 20")]}
    assert seen(cab, 2)[1] == {1: [(("AH", "AD"), "20.5")]}
