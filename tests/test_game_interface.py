"""The cabinet drives the game only through the game interface: shoes, buttons, labels, Auto,
settlement, and the seat states the lamps follow."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from machine.core.cabinet import CabinetSettings, open_cabinet, random_shuffle
from machine.core.lamps import SEAT_STATES, transition_allowed
from machine.core.play import ShoeError
from machine.games.blackjack.game import BlackjackGame
from machine.games.cards import new_shoe
from machine.games.interface import Button, Decision, Game, GameRound
from machine.loop.payout import SeatLedger
from machine.profiles import load_profile

from .cabinet_helpers import boot, memory, stacked_shoes, stand_player


def bet_and_start(cab, n: int = 1, now: float = 0) -> None:
    assert cab.coin(n, "EU200A", now) and cab.press(n, "+2", now) and cab.press(n, "start", now)


def test_blackjack_game_implements_the_interface():
    game: Game = BlackjackGame(load_profile("random-blackjack"), stand_player)  # checked by mypy
    rnd = game.start(new_shoe(6), [2], [8], [3])
    assert isinstance(rnd, GameRound) and rnd.seat_numbers == [3]
    assert game.restore(rnd.to_dict()).to_dict() == rnd.to_dict()


def test_after_decks_change_and_a_ram_clear_the_shoe_has_the_new_number_of_decks(tmp_path):
    cab = boot(tmp_path, shoes=random_shuffle(random.Random(7)))
    bet_and_start(cab)
    (first,) = cab.journal.records("round_start")
    assert len(first.data["shoe"]) == 312
    while cab.round is not None:
        cab.press(1, "stand", 1)
    assert cab.change_setting("decks", 1, "operator") == "after the next RAM clear"
    cab.ram_clear("operator")
    bet_and_start(cab, now=2)
    latest = cab.journal.records("round_start")[-1]
    assert len(latest.data["shoe"]) == 52 and sorted(latest.data["shoe"]) == sorted(new_shoe(1))
    rnd = cab.round
    assert cab.game.new_shoe() == new_shoe(1) and rnd is not None and rnd.rules.decks == 1


def test_a_shuffler_that_deals_other_cards_than_the_games_shoe_is_refused(tmp_path):
    six_decks = lambda cards, round_no: random.Random(1).sample(new_shoe(6), 312)  # noqa: E731
    cab = boot(tmp_path, shoes=six_decks)
    cab.change_setting("decks", 1, "operator")
    cab.ram_clear("operator")
    assert cab.coin(1, "EU200A", 0) and cab.press(1, "+2", 0)
    inputs, club = cab.inputs, cab.seats[1].money.club
    with pytest.raises(ShoeError, match="312 cards.*52 cards"):
        cab.press(1, "start", 0)
    assert cab.round is None and cab.inputs == inputs and cab.seats[1].money.club == club
    assert not cab.journal.records("round_start")


@pytest.mark.parametrize(
    ("kind", "options", "expected"),
    [
        ("insurance", ("insure", "no_insurance"),
         {Button.INSURANCE: "insure", Button.STAND: "no_insurance", Button.AUTO: "auto"}),
        ("surrender", ("surrender", "continue"),
         {Button.INSURANCE: "surrender", Button.DRAW: "continue", Button.STAND: "continue", Button.AUTO: "auto"}),
        ("play", ("hit", "stand", "double"),
         {Button.DRAW: "hit", Button.STAND: "stand", Button.DOUBLE: "double", Button.AUTO: "auto"}),
        ("play", ("hit", "stand", "split", "surrender"),
         {Button.DRAW: "hit", Button.STAND: "stand", Button.SPLIT: "split", Button.INSURANCE: "surrender", Button.AUTO: "auto"}),
    ],
)
def test_each_button_stands_for_one_choice_of_the_decision(kind, options, expected):
    game = BlackjackGame(load_profile("casino-blackjack"), stand_player)
    d = Decision(1, 0 if kind == "play" else None, kind, options)
    assert {b: a for b in Button if (a := game.action_for(d, b)) is not None} == expected


def test_the_screen_writes_surrender_beside_the_insurance_button_where_surrender_is_offered():
    game = BlackjackGame(load_profile("casino-blackjack"), stand_player)
    labels = game.button_labels(Decision(1, 0, "play", ("hit", "stand", "surrender")))
    assert labels == {Button.DRAW: "Draw", Button.STAND: "Stand", Button.INSURANCE: "Surrender", Button.AUTO: "Auto"}
    labels = game.button_labels(Decision(1, None, "insurance", ("insure", "no_insurance")))
    assert labels == {Button.INSURANCE: "Insure", Button.STAND: "No insurance", Button.AUTO: "Auto"}


def test_the_attract_lines_say_what_the_rules_in_force_pay():
    def lines(game: str, **rules) -> list[str]:
        return BlackjackGame(load_profile(game, rules), stand_player).attract_lines()

    assert lines("random-blackjack") == ["Three sevens pay a bonus!", "Blackjack pays 3 to 2"]
    assert lines("casino-blackjack") == ["Blackjack pays 3 to 2"]
    assert lines("casino-blackjack", blackjack_pays="6:5") == ["Blackjack pays 6 to 5"]
    assert lines("random-blackjack", three_sevens_bonus=0, blackjack_pays=2) == ["Blackjack pays 2 to 1"]
    assert Fraction(6, 5) == load_profile("casino-blackjack", {"blackjack_pays": "6:5"}).rules.blackjack_pays


def test_late_surrender_is_taken_with_the_insurance_button_and_returns_half_the_bet(tmp_path):
    profile = load_profile("casino-blackjack", {"surrender": "late"})
    cab = open_cabinet(tmp_path / "j.sqlite", profile, CabinetSettings(seats=1),
                       lambda p: BlackjackGame(p, stand_player), stacked_shoes("TS 9C 6H 7D TD"), memory(tmp_path),
                       create=True)
    bet_and_start(cab)
    assert cab.live(1) == ["auto", "double", "draw", "insurance", "stand"]  # 16 against 9; Insurance: surrender
    assert cab.button_labels(1)[Button.INSURANCE] == "Surrender"
    assert cab.press(1, "insurance", 1) and cab.round is None
    (game,) = cab.journal.records("game", seat=1)
    assert game.data["seat"]["hands"][0]["result"] == "surrender" and game.data["seat"]["returned"] == 1
    assert game.data["dealer"]["cards"] == ["9C", "7D"]  # a hole card: no hand waits, the dealer only turns it
    assert cab.seats[1].money.club == 10 - 2 + 1 and cab.seats[1].meters.get("total_won") == 1


def _one_seat(tmp_path, rules: dict, top: str):
    profile = load_profile("casino-blackjack", rules)
    cab = open_cabinet(tmp_path / "j.sqlite", profile, CabinetSettings(seats=1),
                       lambda p: BlackjackGame(p, stand_player), stacked_shoes(top), memory(tmp_path), create=True)
    bet_and_start(cab)
    return cab


def _screen_labels(cab) -> dict[str, str]:
    from machine.display.view import build_view

    (seat,) = build_view(cab, 0).seats
    return {b: text for b, text in seat.labels.items() if b in seat.lamps}


def test_the_insurance_button_is_lit_for_surrender_only_where_surrender_is_offered(tmp_path):
    # casino-blackjack offers no surrender: seat TS 6H against 9C, the Insurance lamp stays dark
    cab = _one_seat(tmp_path / "none", {}, "TS 9C 6H 7D TD")
    assert Button.INSURANCE not in cab.live(1) and Button.INSURANCE not in cab.button_labels(1)
    assert "insurance" not in _screen_labels(cab)
    # late surrender: lit on the first decision, and the screen writes Surrender beside it ...
    cab = _one_seat(tmp_path / "late", {"surrender": "late"}, "TS 9C 6H 7D 2D")
    assert Button.INSURANCE in cab.live(1)
    assert _screen_labels(cab) == {"draw": "Draw", "stand": "Stand", "double": "Double", "insurance": "Surrender",
                                   "auto": "Auto"}
    # ... and dark again once the seat has drawn a card
    assert cab.press(1, "draw", 1) and cab.round is not None
    assert Button.INSURANCE not in cab.live(1) and "insurance" not in _screen_labels(cab)


def test_early_surrender_before_the_peek_is_offered_on_the_insurance_button_with_play_on_beside_draw_and_stand(
    tmp_path,
):
    cab = _one_seat(tmp_path, {"surrender": "early"}, "TS KC 6H 7D TD")  # 16 against a ten, before the peek
    assert cab.round.pending.kind == "surrender"
    assert _screen_labels(cab) == {"insurance": "Surrender", "draw": "Play on", "stand": "Play on", "auto": "Auto"}
    assert cab.press(1, "insurance", 1) and cab.round is None
    (game,) = cab.journal.records("game", seat=1)
    assert game.data["seat"]["hands"][0]["result"] == "surrender" and game.data["seat"]["returned"] == 1
    assert game.data["dealer"]["cards"] == ["KC", "7D"]  # nothing waits: the hole card is only turned


def test_stakes_come_from_the_events_and_counters_from_the_settlement(tmp_path):
    # seat 1 9S 9D against the up card AH: insurance (1 point), a split (2 points), both hands
    # take a ten and stand on 19; the dealer's second card TH makes a blackjack: insurance pays
    cab = boot(tmp_path, stacked_shoes("9S AH 9D TD TC TH"), settings=CabinetSettings(seats=1))
    assert cab.coin(1, "EU200A", 0) and cab.coin(1, "EU200A", 0) and cab.press(1, "+2", 0)
    assert cab.press(1, "start", 0) and cab.round.pending.kind == "insurance"
    assert cab.press(1, "insurance", 1)
    moves = [r.data["kind"] for r in cab.journal.records("move", seat=1)]
    assert moves[-1] == "insurance"
    assert cab.press(1, "split", 2)
    assert [r.data["kind"] for r in cab.journal.records("move", seat=1)][-1] == "split"
    while cab.round is not None:
        cab.press(1, "stand", 3)
    (game,) = cab.journal.records("game", seat=1)
    assert game.data["dealer"]["cards"] == ["AH", "TH"] and game.data["seat"]["returned"] == 3
    m = cab.seats[1].meters
    assert m.get("total_bet") == 2 + 1 + 2 and m.get("insurance_taken") == 1 and m.get("insurance_paid") == 3
    assert m.get("blackjacks") == 0 and m.get("games_played") == 1


# slow: a 1500-input random session on a journaled cabinet
def test_seat_states_move_only_along_the_table(tmp_path):
    """A long random session: every input moves each seat only along SEAT_TRANSITIONS."""
    from machine.money.seatmoney import MoneySettings

    rng = random.Random(11)
    cab = boot(tmp_path, shoes=random_shuffle(rng), settings=CabinetSettings(seats=3, money=MoneySettings(hopper_limit=60)))
    names = {row.name for row in SEAT_STATES}
    seen: set[tuple[str, str]] = set()
    buttons = [b.value for b in Button]
    t = 0.0
    for _ in range(1500):
        t += rng.choice((0.5, 2.0, 25.0))
        n = rng.randint(1, 3)
        before = {k: cab.seat_state(k) for k in cab.seats}

        def check(before: dict[int, str] = before) -> None:
            for k in cab.seats:
                after = cab.seat_state(k)
                assert after in names
                assert transition_allowed(before[k], after), f"seat {k}: {before[k]} -> {after}"
                seen.add((before[k], after))
                before[k] = after

        r = rng.random()
        if r < 0.15 and cab.may_take_coins(n):
            cab.coin(n, rng.choice(("EU050A", "EU200A")), t)
        elif r < 0.2 and cab.seat_state(n) == "paying":
            owed = cab.payouts_owed()[n]
            ledger = SeatLedger(cab, n)
            ledger.begin_payout(owed)
            ledger.payout_baseline(0, 0)
            paid = owed if rng.random() < 0.8 else owed - 1
            ledger.coins_paid(paid)
            ledger.end_payout(paid, owed - paid, None if paid == owed else "empty")
        elif r < 0.25:
            cab.attendant_clear(n) or cab.attendant_handpay_rest(n)
        elif r < 0.3:
            cab.coin_error(n, 5, "fraud", rng.random() < 0.2)
        else:
            cab.press(n, rng.choice(buttons), t)
        check()
        cab.tick(t)
        check()
    assert {("betting", "in_round"), ("ready", "paying"), ("paying", "ready"), ("in_round", "ready")} <= seen


def test_a_game_text_is_its_english_and_keeps_its_message_id_through_json_and_pickle():
    import json
    import pickle

    from machine.display.gamewords import say
    from machine.games.text import SEP, Text
    from machine.i18n import Words

    text = Text("Stakes {low} to {high}, up to the bank: it opens at {bank}", low=2, high=50, bank=100)
    assert text == "Stakes 2 to 50, up to the bank: it opens at 100" and json.dumps(text) == json.dumps(str(text))
    line = Text.joined(SEP, ["31!", Text("Place {place} wins", place=3)])
    for t in (text, line):
        back = pickle.loads(pickle.dumps(t))
        assert back == t and say(Words("nl"), back) == say(Words("nl"), t)
    assert say(Words("nl"), text) == "Inzet 2 tot 50, tot de bank: die opent met 100"
    assert say(Words("nl"), "Stakes 2 to 50, up to the bank: it opens at 100") == text  # no English read back
