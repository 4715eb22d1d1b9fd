"""What each seat's screen may see of the other seats, step by step through scripted rounds,
as ``build_view`` gives it to the drawing code (and as the drawing paints it): ochko's closed
cards never on another seat's screen until a 21, a bust or the settlement, a 21 or a bust held
on every screen before play moves on; eenentwintig's open cards on every screen; blackjack all
open; eenendertigen's hands hidden until the round ends."""

from __future__ import annotations

import pygame

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.display.draw import Renderer
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.games.interface import FACE_DOWN
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes

D = FACE_DOWN


def boot(tmp, profile, shoes, seats=2, **settings):
    return open_cabinet(tmp / "journal.sqlite", load_profile(profile), CabinetSettings(seats=seats, **settings),
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


def test_ochko_a_21_and_a_bust_are_shown_to_every_seat_at_once_and_held_before_play_moves_on(tmp_path):
    # seat 1 AS, seat 2 TD, the banker's open 7H; seat 1 stakes, AH: two aces, 21 at once;
    # seat 2 stakes, 9C (19), draws KC: 23, a bust at once, the round's end.
    cab = boot(tmp_path, "ochko", stacked_shoes("AS TD 7H AH 9C KC 6H TC"))
    both_in(cab)
    cab.press(1, "start", 2)
    assert seen(cab, 2)[1] == {1: [(("AS", "AH"), "21")]}  # the 21 shown to seat 2 at once
    assert seen(cab, 1)[1] == {2: [((D,), "")]}
    assert cab.revealing == {1}  # held: seat 2's stake waits until every screen has shown it
    view = build_view(cab, 2)
    assert (view.revealing, view.seats[1].message, view.seats[1].fields) == ({1}, "Seat {seat} shows its cards", {"seat": 1})
    assert cab.live(2) == [] and not cab.press(2, "start", 3)  # dark, and a press in the hold does nothing
    assert cab.decision_time_left(3) == 20.0  # its clock (a stake: the betting time) starts when the hold ends
    cab.tick(4)  # 2 s after the 21
    assert cab.revealing == frozenset() and cab.live(2) and cab.decision_time_left(4) == 20.0
    assert seen(cab, 2)[1] == {1: [(("AS", "AH"), "21")]}  # and it stays shown for the rest of the round
    assert cab.press(2, "start", 4)
    assert seen(cab, 1)[1] == {2: [((D, D), "")]}
    cab.press(2, "draw", 5)
    assert cab.round is None and cab.revealing == frozenset()  # the round's end: no hold, every hand shown
    assert seen(cab, 1)[1] == {2: [(("TD", "9C", "KC"), "bust 23")]}
    assert seen(cab, 2)[1] == {1: [(("AS", "AH"), "21")]}


def test_ochko_a_bust_mid_round_is_held_and_a_seat_outside_the_round_sees_what_the_others_see(tmp_path):
    # seats 1 and 2 play, seat 3 only watches: seat 1 TS, seat 2 9S, the banker's open 7H;
    # seat 1 stakes, 9D (19), draws 8C: 27, bust; seat 2 stakes, QS (12), stands; the banker 6H: 13, TC: 23.
    cab = boot(tmp_path, "ochko", stacked_shoes("TS 9S 7H 9D 8C QS 6H TC"), seats=3)
    both_in(cab)
    assert seen(cab, 3) == ([(D,)], {1: [((D,), "")], 2: [((D,), "")]})
    cab.press(1, "start", 2)
    assert seen(cab, 3) == ([(D, D)], {1: [((D, D), "")], 2: [((D,), "")]})
    assert seen(cab, 2)[1] == {1: [((D, D), "")]}
    cab.press(1, "draw", 3)
    assert cab.revealing == {1}
    for viewer in (2, 3):
        assert seen(cab, viewer)[1][1] == [(("TS", "9D", "8C"), "bust 27")]
        assert build_view(cab, 3).seats[viewer - 1].message == "Seat {seat} shows its cards"
    assert seen(cab, 3)[1][2] == [((D,), "")]  # seat 2's closed card stays closed
    assert build_view(cab, 3).seats[0].message == "Bust"  # seat 1's own screen says its own result
    assert not cab.press(2, "start", 4.9)
    assert cab.press(2, "start", 5)  # the hold served without a tick: the press ends it
    assert seen(cab, 3)[1][2] == [((D, D), "")]
    cab.press(2, "stand", 6)
    assert cab.round is None
    settled = {1: [(("TS", "9D", "8C"), "bust 27")], 2: [(("9S", "QS"), "12")]}
    for viewer, other in ((1, 2), (2, 1), (3, 1), (3, 2)):
        assert seen(cab, viewer)[1][other] == settled[other]


def test_ochko_the_hold_changes_no_result_and_no_order_of_the_journal(tmp_path):
    # the same round with and without the hold: the same events, results and records in the same order
    def play(folder, hold):
        folder.mkdir()
        cab = boot(folder, "ochko", stacked_shoes("AS TD 7H AH 9C KC 6H TC"), reveal_hold=hold)
        both_in(cab)
        cab.press(1, "start", 2)
        cab.tick(4)
        cab.press(2, "start", 4)
        cab.press(2, "draw", 5)
        assert cab.round is None
        records = cab.journal.records()
        # every record in the same order; each one's data the same but the journal's id and the
        # rows' digests (the cabinet row keeps when the next decision's clock started)
        return [r.kind for r in records], [(r.kind, r.seat, r.data) for r in records if r.kind not in ("init", "rows")]

    assert play(tmp_path / "held", 2.0) == play(tmp_path / "not", 0.0)


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


def own(cab, n):
    """Seat ``n``'s hands as its own screen shows them: (cards, total)."""
    return [(h.cards, h.total_text) for h in build_view(cab, 0).seats[n - 1].hands]


def test_blackjack_every_hand_is_open_to_every_seat_at_every_step(tmp_path):
    # seat 1 TS 8S (18) stands; seat 2 9S 5D (14) hits 3C (17), stands; the dealer 7H KH: 17
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("TS 9S 7H 8S 5D 3C KH"))
    both_in(cab)
    steps = [(1, "stand"), (2, "draw"), (2, "stand")]
    for t, (n, button) in enumerate(steps, start=2):
        for viewer, other in ((1, 2), (2, 1)):
            assert seen(cab, viewer)[1] == {other: own(cab, other)}  # as its own seat sees it
        assert seen(cab, 3 - n)[0] == [own(cab, n)[0][0]]  # the deciding seat's hand, watched
        cab.press(n, button, t)
    assert cab.round is None
    assert seen(cab, 1)[1] == {2: [(("9S", "5D", "3C"), "17")]}
    assert seen(cab, 2)[1] == {1: [(("TS", "8S"), "18")]}


def test_eenendertigen_no_seat_sees_another_seats_hand_until_the_round_ends(tmp_path):
    cab = boot(tmp_path, "eenendertigen", stacked_shoes(""))
    both_in(cab)
    t = 2.0
    while cab.round is not None:
        for viewer, other in ((1, 2), (2, 1)):
            assert seen(cab, viewer) == ([], {other: [((D, D, D), "")]})
            assert D not in own(cab, viewer)[0][0]  # its own hand open to itself
        cab.press(cab.round.pending.seat, "auto", t)
        t += 1
    for viewer, other in ((1, 2), (2, 1)):
        assert seen(cab, viewer)[1] == {other: own(cab, other)} and D not in own(cab, other)[0][0]


def drawn_others(cab, viewer, now=10.0):
    """The cards seat ``viewer``'s screen paints in its other-seats strip (1280x720), by seat."""
    r = Renderer()
    r.draw_seat(pygame.Surface((1280, 720)), build_view(cab, now), viewer, now)
    out: dict[int, list[str]] = {}
    for key in r._seen:
        if key[0] == "other":
            out.setdefault(key[1], []).append(key[-1])
    return out


def test_the_screens_draw_the_others_hands_as_the_game_lets_them_see_them(tmp_path):
    pygame.font.init()
    cab = boot(tmp_path, "ochko", stacked_shoes("TS 9S 7H 8S QS KH 6H TC"))
    both_in(cab)
    cab.press(1, "start", 2)
    assert drawn_others(cab, 2) == {1: [D, D]} and drawn_others(cab, 1) == {2: [D]}  # backs only
    cab.press(1, "stand", 3)
    cab.press(2, "start", 4)
    cab.press(2, "draw", 5)
    cab.press(2, "stand", 6)
    assert drawn_others(cab, 1) == {2: ["9S", "QS", "KH"]} and drawn_others(cab, 2) == {1: ["TS", "8S"]}
    cab2 = boot(tmp_path / "een", "eenentwintig", stacked_shoes("7S 9H KD 8D AC TC AH AD 8C"))
    both_in(cab2)
    assert drawn_others(cab2, 1) == {2: [D, "AC"]}  # the open card on every screen from the deal on
