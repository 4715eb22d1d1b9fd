"""What a seat's screen says of money and time, driven through the core with scripted rounds:
the bet decision's time limit (a lone seat's too), the MIN/MAX card's real limit, a result's
net and what came back, "€X paid" after a payout, and the words where no bet button is live."""

from __future__ import annotations

from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games.catalog import make_game
from machine.money.seatmoney import MoneySettings
from machine.profiles import load_profile

from .cabinet_helpers import memory, stacked_shoes
from .screen_words import notes, screen, words


def boot(tmp, profile, shoes=None, seats=2, **settings):
    return open_cabinet(tmp / "journal.sqlite", load_profile(profile), CabinetSettings(seats=seats, **settings),
                        lambda p: make_game(p, auto_for(p.engine)), shoes or stacked_shoes(), memory(tmp), create=True)


def test_a_lone_seats_bet_decision_ends_with_the_betting_time_taking_the_minimum(tmp_path):
    cab = boot(tmp_path, "eenentwintig", stacked_shoes("7S KD 8D TC AH AD 8C"), seats=1, betting_time=20.0)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+10", 0) and cab.press(1, "start", 1)
    assert cab.round is not None and cab.round.pending.kind == "bet"
    assert cab.decision_time_left(11.0) == 10.0  # the betting time counts, from the deal
    view = build_view(cab, 11.0)
    assert (view.countdown, view.decision_time) == (10.0, 20.0)
    cab.tick(20.9)
    assert cab.round.pending.kind == "bet"
    cab.tick(21.0)
    assert cab.round is not None and cab.round.pending.kind != "bet"  # the seat plays on with the minimum
    assert cab.core.state.round_meta["decisions"] == [
        {"seat": 1, "hand": None, "kind": "bet", "action": "bet:2", "by": "timeout"}]


# -- the MIN/MAX card: the limit of the decision at hand ---------------------------------------------


def big_club(tmp, profile, shoes, seats=2):
    """Seats whose club meter takes 500 points when a game opens: a quarter of it (124) is above the bank."""
    money = MoneySettings(game_fee=500, hopper_limit=100_000)
    return boot(tmp, profile, shoes, seats=seats, money=money, coin_values={"EU200A": 1000})


def test_the_max_card_gives_the_options_limit_when_eenentwintig_bets_after_the_deal(tmp_path):
    cab = boot(tmp_path, "eenentwintig", stacked_shoes("7S 9H KD 8D AC TC AH AD 8C"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    cab.press(1, "start", 1)
    cab.press(2, "start", 1)
    one = build_view(cab, 2).seats[0]
    assert (one.min_bet, one.max_bet, one.max_why) == (2, 2, "club")  # a quarter of its 10 club points
    assert {"MIN 2", "MAX 2", "Max 2: a quarter of your club meter"} <= set(words(cab, 1, 2))
    cab.journal.close()
    rich = big_club(tmp_path / "rich", "eenentwintig", stacked_shoes("7S 9H KD 8D AC TC AH AD 8C"))
    for n in (1, 2):
        assert rich.coin(n, "EU200A", 0) and rich.press(n, "+2", 0)
    rich.press(1, "start", 1)
    rich.press(2, "start", 1)
    assert rich.bet_limits(1) == (2, 10, "")  # the game's options: 2 to 10
    assert "MAX 10" in words(rich, 1, 2) and not [t for t in words(rich, 1, 2) if t.startswith("Max 10:")]


def test_the_max_card_gives_ochkos_uncovered_bank(tmp_path):
    # seat 1 TS, seat 2 9S, the banker's 7H; seat 1 stakes 40 and gets 8S (18), stands; seat 2 may
    # stake only what the bank still covers: 100 - 40 = 60
    cab = big_club(tmp_path, "ochko", stacked_shoes("TS 9S 7H 8S QS KH 6H TC"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    cab.press(1, "start", 1)
    cab.press(2, "start", 1)
    assert cab.round.pending.seat == 1 and cab.bet_limits(1) == (2, 100, "bank")
    assert {"MAX 100", "Max 100: what the bank covers"} <= set(words(cab, 1, 2))
    for _ in range(19):  # the proposal up to 40
        cab.press(1, "+2", 2)
    assert cab.proposal(1) == 40
    cab.press(1, "start", 3)
    cab.press(1, "stand", 4)
    assert cab.round.pending.seat == 2 and cab.bet_limits(2) == (2, 60, "bank")
    assert {"MAX 60", "Max 60: what the bank covers"} <= set(words(cab, 2, 5))


def test_the_max_card_never_reads_max_dash(tmp_path):
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("9S 6H 7S TC 9C"))
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+2", 0) and cab.press(1, "start", 1)
    assert cab.bet_limits(1) == (2, 500, "")  # its bet in play: the table's limits
    assert cab.bet_limits(2) == (2, 500, "")  # no credit yet: the table's limits
    for n in (1, 2):
        shown = words(cab, n, 2)
        assert "MIN 2" in shown and "MAX 500" in shown and "MAX -" not in shown


# -- results: the net, then what came back ------------------------------------------------------------


def outcomes(cab, n, now):
    return [t for t in words(cab, n, now) if t.split()[0] in ("Win", "Lost", "Push", "Blackjack:", "Surrendered:", "Won")]


def test_every_game_writes_a_result_as_the_net_and_what_came_back(tmp_path):
    from machine.devtools import scenes

    # blackjack: seat 1 AS KS against 6H: a blackjack on 2 nets 3, 5 back; seat 2 9H 9C (18) against 6H TC 9C (bust)
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("AS 9H 6H KS 9C TC 9D"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    cab.press(1, "start", 1)
    cab.press(2, "start", 1)
    while cab.round is not None:
        cab.press(cab.round.pending.seat, "stand", 2)
    assert outcomes(cab, 1, 3) == ["Blackjack: win 3 (5 back)"]
    assert outcomes(cab, 2, 3) == ["Win 2 (4 back)"]
    cab.journal.close()
    seen = {}
    for name in ("eenentwintig-settled", "ochko-settled", "eenendertigen-reveal", "dealer-blackjack"):
        cab = scenes.SCENES[name](tmp_path / name)
        seen[name] = [outcomes(cab, n, scenes.SCENE_TIME) for n in (1, 2)]
        cab.journal.close()
    assert seen == {
        "eenentwintig-settled": [["Win 2 (4 back)"], ["Win 2 (4 back)"]],
        "ochko-settled": [["Win 2 (4 back)"], ["Lost 2"]],
        "eenendertigen-reveal": [["Win 5 (7 back)"], ["Won (7 back)", "Lost 2"]],  # seat 2 sees place 1's win too
        "dealer-blackjack": [["Lost 2"], ["Lost 2"]],
    }


def test_a_push_and_a_surrender_say_what_came_back():
    from machine.display.draw import Renderer
    from machine.games.interface import HandShown

    r = Renderer(language="en")
    push = HandShown(cards=("TS", "8H"), stake=4, total_text="18", result="push", returned=4)
    gave_up = HandShown(cards=("TS", "6H"), stake=4, total_text="16", result="surrender", returned=2)
    shared = HandShown(cards=("AS", "KS", "QS"), stake=4, total_text="31", result="win", returned=3)  # a tie's share
    assert [r.outcome(h) for h in (push, gave_up, shared)] == [
        "Push (4 back)", "Surrendered: lost 2 (2 back)", "Lost 1 (3 back)"]


# -- a payout's end, the words where no bet button is lit, no old result over an empty table ----------


def test_a_payout_ends_with_what_was_paid_until_the_seats_next_action(tmp_path):
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("9S 6H 7S TC 9C"))
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+2", 0) and cab.press(1, "start", 1)
    cab.press(1, "stand", 2)  # 16 against 6H TC 9C: the dealer busts, 4 back
    assert cab.round is None and outcomes(cab, 1, 3) == ["Win 2 (4 back)"]
    assert cab.press(1, "collect", 4)  # the club meter to the credit meter: 22 points
    assert cab.press(1, "collect", 4)  # 22 points: two 10-point coins, 2 stay below the smallest coin
    assert words(cab, 1, 4).count("Paying out") == 1 and outcomes(cab, 1, 4) == []  # the old result goes
    cab.chunk_begin(1, 2)
    cab.hopper_paid(1, 2)
    cab.chunk_end(1, 2, 0, None)
    view = build_view(cab, 5)
    assert (view.seats[0].message, view.seats[0].paid, view.seats[0].hands) == ("{money} paid", 20, ())
    assert "\u20ac2.00 paid" in words(cab, 1, 5) and "2,00\xa0\u20ac utbetalt" in words(cab, 1, 5, language="nb")
    cab.tick(60)
    assert "\u20ac2.00 paid" in words(cab, 1, 60)  # time alone does not take it away
    assert cab.coin(1, "EU200A", 61)  # the seat's next action
    assert build_view(cab, 61).seats[0].message == "Place your bet"
    assert cab.journal.get("seat/1")["money"]["credit"] == 22 and "paid" not in cab.journal.get("seat/1")


def test_a_handpay_ends_with_its_amount_paid(tmp_path):
    cab = boot(tmp_path, "random-blackjack", money=MoneySettings(payout="handpay"))
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "collect", 1) and cab.seats[1].lock == "handpay"
    assert cab.attendant_clear(1)
    assert cab.journal.get("seat/1")["paid"] == 20  # journaled with the seat: a power cut keeps it
    assert "\u20ac2.00 paid" in words(cab, 1, 2)


def test_place_your_bet_only_where_a_bet_button_is_lit(tmp_path):
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("9S 9H 6H 7S 8C TC 9C"), seats=3)
    assert cab.coin(3, "EU050A", 0)  # 5 points: below the credit to play, below the smallest coin
    assert not set(cab.live(3)) & {"+2", "+10", "max"}
    assert build_view(cab, 0).seats[2].message == "Insert coins"
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0)
    assert build_view(cab, 0).seats[0].message == "Place your bet" and "+2" in cab.live(1)
    assert cab.press(1, "+2", 1) and cab.press(1, "start", 2) and cab.round is not None
    assert "+2" not in cab.live(2) and build_view(cab, 3).seats[1].message == "Next round: wait"
    cab.journal.close()
    paid = boot(tmp_path / "b", "random-blackjack", money=MoneySettings(min_credit_to_play=30))
    assert paid.coin(1, "EU200A", 0) and "collect" in paid.live(1) and "+2" not in paid.live(1)
    assert build_view(paid, 0).seats[0].message == "Insert coins to play, or Collect"


def test_no_old_result_stays_once_the_next_betting_starts(tmp_path):
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("9S 9H 6H 7S 8C TC 9C"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    cab.press(1, "start", 1)
    cab.press(2, "start", 1)
    while cab.round is not None:
        cab.press(cab.round.pending.seat, "stand", 2)
    assert build_view(cab, 3).seats[0].hands and outcomes(cab, 1, 3)
    assert cab.press(2, "+2", 4)  # the next betting: the dealer's cards go, and seat 1's old result with them
    view = build_view(cab, 5)
    assert view.dealer_cards == () and view.seats[0].hands == () and view.seats[0].message == "Place your bet"
    assert outcomes(cab, 1, 5) == [] and screen(cab, 1, 5).cards == []


# -- notes never over the cards; player words on a lock screen -----------------------------------------


def test_notes_are_drawn_clear_of_every_card_and_label(tmp_path):
    import dataclasses

    from machine.devtools import scenes

    for name in ("split", "eenendertigen-swap", "ochko-stake", "eenentwintig-settled"):
        cab = scenes.SCENES[name](tmp_path / name)
        view = build_view(cab, scenes.SCENE_TIME)
        one = dataclasses.replace(view.seats[0], leftover=8, choice_held_by=2, state="ready")  # the longest notes there are
        view = dataclasses.replace(view, seats=(one, *view.seats[1:]), betting_left=12.0)
        for size in ((960, 540), (1920, 1080), (480, 270)):
            r = screen(cab, 1, scenes.SCENE_TIME, size=size, view=view)
            note = r.note_rects[1]
            assert notes(cab, 1, scenes.SCENE_TIME, size=size, view=view) == [
                "\u20ac0.80 is below the smallest coin: it stays on your credit to play", "The round starts in 12 s",
                "Seat 2 holds credit: the game cannot be changed now"]
            assert r.cards and not [c for c in r.cards if c.colliderect(note)], (name, size)
            labels = [rect for text, rect in r.texts if rect != note and rect.bottom <= size[1] - 112 * size[1] / 540]
            assert not [t for t in labels if t.colliderect(note)], (name, size)  # nor any text above the meters
        cab.journal.close()


def test_a_locked_seat_reads_player_words_never_the_internal_reason(tmp_path):
    from machine.devtools import scenes

    cab = scenes.SCENES["tilt"](tmp_path)
    detail = str(cab.seats[1].lock_detail)
    assert detail and cab.seats[1].lock == "tilt"
    shown = words(cab, 1, scenes.SCENE_TIME)
    assert "This seat has stopped: the attendant will put it right" in shown and detail not in shown
    assert words(cab, 1, scenes.SCENE_TIME, language="ru")[-2] == "Это место остановлено: служащий зала всё исправит"
    assert cab.journal.records("event", seat=1, last=1)[0].data["reason"] == detail  # the event log keeps it


def test_the_memory_error_screen_says_no_path_and_no_record_number():
    import pygame

    from tests.screen_words import Seen

    r = Seen("en")
    detail = "memory error: the journal failed its check: /var/lib/cabinet/journal.sqlite: record 1234: bad tag"
    r.draw_memory_error(pygame.Surface((960, 540)), detail)
    shown = " ".join(t for t, _ in r.texts)
    assert "journal.sqlite" not in shown and "1234" not in shown
    assert shown == ("MEMORY ERROR The cabinet cannot trust its memory and will not play until the operator "
                     "has checked it Call the operator")


def test_insurance_reads_in_the_same_convention(tmp_path):
    # seat 1 TS 9S against the dealer's ace; it insures 1 of its 2; the dealer's KD: a blackjack
    cab = boot(tmp_path, "random-blackjack", stacked_shoes("TS AH 9S KD"), seats=1)
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+2", 0) and cab.press(1, "start", 1)
    assert cab.round.pending.kind == "insurance" and cab.press(1, "insurance", 2)
    while cab.round is not None:
        cab.press(1, "stand", 3)
    shown = words(cab, 1, 4)
    assert "Insurance 1: win 2 (3 back)" in shown and "Lost 2" in shown
