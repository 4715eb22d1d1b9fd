"""The main screens, set up on a real cabinet core and rendered headless to PNG files.

Owns: ``cabinet screenshots DIR`` and the scenes the screenshot tests compare: attract, betting,
a split hand, the insurance offer, a dealer blackjack, eight seats on narrow tiles with one
deciding, tilt and handpay, and the other games'
main moments (ochko's stake, a 21 held on every screen and the settlement; eenentwintig;
eenendertigen's swap, knock, reveal and modern discard, whose
computer players play the real Auto strategy; an eenendertigen tournament's name entry, a
participant's round beside the waiting seats' ranking list, the final list with its seed) and
the start-up screen while Auto's tables are prepared.
Each scene plays real inputs into a cabinet core on a throw-away journal with stacked shoes, so
a picture shows what the machine would really show.
"""

from __future__ import annotations

import os
import random
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine.core.cabinet import Cabinet, CabinetSettings, Shuffler, open_cabinet
from machine.games.blackjack.round import Round
from machine.games.cards import shuffle
from machine.games.catalog import make_game
from machine.loop.payout import SeatLedger
from machine.money.memory import Memory
from machine.money.seatmoney import MoneySettings
from machine.profiles import load_profile

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

SIZE = (1920, 1080)
SCENE_TIME = 8.0  # every scene is drawn at this clock reading (4 s after its last input)


def _stacked(*tops: str) -> Shuffler:
    def shoe(cards: list[str], n: int) -> list[str]:
        top = tops[n - 1].split() if n <= len(tops) else []
        rest = Counter(cards)
        rest.subtract(top)
        return top + shuffle(sorted(rest.elements()), random.Random(n))

    return shoe


def _stand(rnd: Round) -> str:
    d = rnd.pending
    assert d is not None
    return {"insurance": "no_insurance", "surrender": "continue"}.get(d.kind, "stand")


def _first_option(rnd) -> str:
    d = rnd.pending
    assert d is not None
    return str(d.options[0])


def _cabinet(
    tmp: Path, *tops: str, seats: int = 4, money: MoneySettings | None = None, game: str = "random-blackjack",
    rules: dict | None = None,
) -> Cabinet:
    settings = CabinetSettings(seats=seats, money=money or MoneySettings())
    auto: Callable[[Any], str] = _stand if game == "random-blackjack" else _first_option
    if game == "eenendertigen":  # its computer players play Auto: the real strategy, so the table is real
        from machine.gamemath.engines import auto_for

        auto = auto_for("eenendertigen")
    return open_cabinet(tmp / "journal.sqlite", load_profile(game, rules), settings,
                        lambda profile: make_game(profile, auto), _stacked(*tops), Memory.temporary(), create=True)


def _coins(cab: Cabinet, n: int, *ids: str) -> None:
    for c in ids:
        cab.coin(n, c, 0)


def scene_attract(tmp: Path) -> Cabinet:
    return _cabinet(tmp)


def scene_betting(tmp: Path) -> Cabinet:
    cab = _cabinet(tmp)
    _coins(cab, 1, "EU200A", "EU200A", "EU100A")
    _coins(cab, 2, "EU100A")
    cab.press(1, "+10", 1)
    cab.press(1, "+2", 1)
    cab.press(2, "max", 1)
    return cab


def _two_seat_round(
    tmp: Path, shoe: str, coins1: int, game: str = "random-blackjack", rules: dict | None = None
) -> Cabinet:
    """Seats 1 and 2 put in 2-euro coins, bet 2 and start a round dealt from ``shoe``."""
    cab = _cabinet(tmp, shoe, game=game, rules=rules)
    _coins(cab, 1, *["EU200A"] * coins1)
    _coins(cab, 2, "EU200A", "EU200A")
    for n in (1, 2):
        cab.press(n, "+2", 1)
    for n in (1, 2):
        cab.press(n, "start", 2)
    return cab


def scene_split(tmp: Path) -> Cabinet:
    # seat 1: 8 8 against a 6, split; left 8+3 doubled with 9 (stand done), right gets 8+Q: deciding
    cab = _two_seat_round(tmp, "8S 9C 6H 8D TD 3C 9S QH", 5)
    cab.press(1, "split", 3)
    cab.press(1, "double", 4)
    return cab


def scene_insurance(tmp: Path) -> Cabinet:
    return _two_seat_round(tmp, "9S TC AH 9D 7H", 3)


EIGHT_SHOE = "8S 9C 6H 8D TD 3C 9S QH 2C 3D 4H 5S 6C 7D"


def scene_eight_seats(tmp: Path) -> Cabinet:
    """Eight seats, each a narrow tile of the one window (machine/display/narrow.py): every
    seat bets 2; six draws later seats 1 to 5 are done and seat 6 decides on 12, its hand in
    the box of every other seat's tile."""
    cab = _cabinet(tmp, EIGHT_SHOE, seats=8)
    for n in range(1, 9):
        _coins(cab, n, "EU200A", "EU200A", "EU200A")
        cab.press(n, "+2", 1)
    for n in range(1, 9):
        cab.press(n, "start", 2)
    for i in range(6):
        assert cab.round is not None and cab.round.pending is not None
        cab.press(cab.round.pending.seat, "draw", 3 + i / 2)
    return cab


def scene_dealer_blackjack(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, "9S TC AH 9D 7H KD", 3)
    cab.press(1, "insurance", 3)
    cab.press(2, "stand", 3)  # declines insurance
    cab.press(1, "stand", 4)
    cab.press(2, "stand", 4)
    return cab


def scene_tilt(tmp: Path) -> Cabinet:
    cab = _cabinet(tmp)
    _coins(cab, 1, "EU200A", "EU200A", "EU200A")
    cab.press(1, "collect", 1)
    ledger = SeatLedger(cab, 1)  # the hopper pays 2 of 6 coins and runs empty
    ledger.begin_payout(6)
    ledger.payout_baseline(0, 0)
    ledger.coins_paid(2)
    ledger.end_payout(2, 4, "empty")
    _coins(cab, 2, "EU100A")
    return cab


def scene_handpay(tmp: Path) -> Cabinet:
    cab = _cabinet(tmp, money=MoneySettings(hopper_limit=50))
    _coins(cab, 1, *(["EU200A"] * 4))
    cab.press(1, "collect", 1)
    _coins(cab, 3, "EU200A")
    return cab


# -- ochko: the bank on every screen ------------------------------------------------------------
# seat 1 T, seat 2 9, the banker's up card 7; seat 1 stakes and draws A: 21, paid at once;
# seat 2 stakes, draws 8 (17) and says enough; the banker 7 K(4) 8 = 19 takes seat 2's stake.
OCHKO_SHOE = "TS 9H 7D AC 8S KD 8H"


def scene_ochko_stake(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, OCHKO_SHOE, 5, game="ochko")
    _coins(cab, 1, "EU200A", "EU200A")
    return cab


def scene_ochko_reveal(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, OCHKO_SHOE, 5, game="ochko")
    cab.press(1, "start", 7)  # stakes the 2 proposed: T + A = 21, shown to every seat, held until 9
    return cab


def scene_ochko_settled(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, OCHKO_SHOE, 5, game="ochko")
    cab.press(1, "start", 3)  # stakes the 2 proposed: T + A = 21, held on every screen until 5
    cab.press(2, "start", 5)
    cab.press(2, "stand", 6)
    return cab


# -- casino blackjack with late surrender (an operator's setting): seat 1 TS 6H against the up
# card TC, the hole card closed; Insurance stands for Surrender, its lamp lit on the first decision
def scene_surrender(tmp: Path) -> Cabinet:
    return _two_seat_round(tmp, "TS 9S TC 6H 6D 7C 2H", 5, game="casino-blackjack", rules={"surrender": "late"})


# -- eenentwintig: deal, then bet ----------------------------------------------------------------
# closed cards: seat 1 7S, seat 2 9H, the bank KD; open cards: seat 1 8D, seat 2 AC, the bank TC.
# Seat 1 washes its 7 + 8 for A A (20.5) and passes; seat 2 passes on 9 + A (20); the bank turns
# K(4) + T = 14, draws 8 and busts: both win.
EEN_SHOE = "7S 9H KD 8D AC TC AH AD 8C"


def scene_eenentwintig_bet(tmp: Path) -> Cabinet:
    return _two_seat_round(tmp, EEN_SHOE, 5, game="eenentwintig")


def scene_eenentwintig_wash(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, EEN_SHOE, 5, game="eenentwintig")
    cab.press(1, "start", 3)
    cab.press(2, "start", 3)
    return cab


def scene_eenentwintig_settled(tmp: Path) -> Cabinet:
    cab = scene_eenentwintig_wash(tmp)
    cab.press(1, "double", 4)  # Wash
    cab.press(1, "stand", 4)  # pass on 20.5
    cab.press(2, "stand", 4)
    return cab


# -- eenendertigen: seats 1 and 2 at places 1 and 2, computer players at places 3 and 4 ------------
# classic: place 1 AH 8C KH, place 2 7D 8D 9S, place 3 JC TS 7C, place 4 9C 8S JS; the table 9D QH 7S.
# Seat 1 frames its 8C and the table's QH (Draw, Split) and swaps them: AH QH KH is 31, it knocks;
# seat 2 has its one more turn and passes, the computer players theirs, and place 1 wins.
EEN31_CLASSIC = "AH 7D JC 9C 8C 8D TS 8S KH 9S 7C JS 9D QH 7S"
# modern: place 1 KS 5S 9D; the open card 2S, the stack's top QS. Seat 1 draws from the stack and
# chooses its discard seeing four cards, the 9D framed.
EEN31_MODERN = "KS 2C 3H 4D 5S 7C 8H 9H 9D 6C TD JH 2S QS"


def scene_eenendertigen_swap(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, EEN31_CLASSIC, 5, game="eenendertigen")
    cab.press(1, "draw", 3)  # the hand frame: card 1 -> 2
    cab.press(1, "split", 3)  # the table frame: card 1 -> 2
    return cab


def scene_eenendertigen_knock(tmp: Path) -> Cabinet:
    cab = scene_eenendertigen_swap(tmp)
    cab.press(1, "double", 4)  # swap 8C for QH: 31
    return cab


def scene_eenendertigen_reveal(tmp: Path) -> Cabinet:
    cab = scene_eenendertigen_knock(tmp)
    cab.press(2, "stand", 4)  # its one more turn: pass
    return cab


def scene_eenendertigen_discard(tmp: Path) -> Cabinet:
    cab = _two_seat_round(tmp, EEN31_MODERN, 5, game="eenendertigen", rules={"variant": "modern"})
    cab.press(1, "draw", 3)  # Draw from the stack: QS, four cards
    cab.press(1, "draw", 3)  # the hand frame: card 1 -> 2
    cab.press(1, "draw", 3)  # -> 3, the 9D
    return cab


# -- an eenendertigen tournament on a random-blackjack cabinet: real Auto play on the seed's decks -----
TOURNAMENT_SEED = "5eed" * 16


def _tournament(tmp: Path, entry: int, prizes: list[int], players: tuple[tuple[int, str, int], ...]) -> Cabinet:
    """A tournament in force; each (seat, name, rounds) enters with the panel's name keys and
    plays that many rounds (Auto; the second participant passes where it may)."""
    from machine.core.tournament import CHARACTERS
    from machine.gamemath.engines import auto_for

    settings = CabinetSettings(seats=4, games=(load_profile("eenendertigen"),))
    cab = open_cabinet(tmp / "journal.sqlite", load_profile("random-blackjack"), settings,
                       lambda profile: make_game(profile, auto_for(profile.engine)), _stacked(), Memory.temporary(),
                       create=True)
    cab.open_tournament("classic", entry, prizes, None, None, TOURNAMENT_SEED, 0.0, "operator")
    for i, (n, name, rounds) in enumerate(players):
        _coins(cab, n, "EU200A")
        _type_name(cab, n, name, CHARACTERS)
        cab.press(n, "start", 1)
        while (at := cab.tournament_seat()) is not None and at["progress"]["rounds"] < rounds:
            if cab.round is None:
                cab.press(n, "start", 2)
            else:
                cab.press(n, "stand" if i == 1 and cab.is_live(n, "stand") else "auto", 2)
    return cab


def _type_name(cab: Cabinet, n: int, name: str, characters: str) -> None:
    cab.press(n, "start", 1)
    for ch in name:
        while characters[cab.tournament_seat()["char"]] != ch:  # type: ignore[index]
            cab.press(n, "draw", 1)
        cab.press(n, "double", 1)


def scene_tournament_entry(tmp: Path) -> Cabinet:
    from machine.core.tournament import CHARACTERS

    cab = _tournament(tmp, 10, [200, 100, 50], ((1, "ANNA", 16), (2, "", 16)))
    _coins(cab, 3, "EU200A")
    _type_name(cab, 3, "JO", CHARACTERS)  # seat 3 types a name: J, O, and now stands on S
    for _ in range(4):
        cab.press(3, "draw", 3)
    return cab


def scene_tournament_playing(tmp: Path) -> Cabinet:
    cab = _tournament(tmp, 10, [200, 100, 50], ((1, "ANNA", 16), (2, "BOB", 3)))
    cab.press(2, "start", 4)  # round 4 of 16 dealt
    return cab


def scene_tournament_final(tmp: Path) -> Cabinet:
    cab = _tournament(tmp, 0, [], ((1, "ANNA", 16), (2, "BOB", 16), (3, "", 2)))
    for n in (1, 2, 3):
        cab.press(n, "collect", 4)  # the seats' credit back to the hopper: attract screens
        cab.chunk_begin(n, cab.payouts_owed()[n])
        cab.hopper_paid(n, cab.payouts_owed()[n])
        cab.chunk_end(n, 0, 0, None)
    cab.close_tournament("operator", 5)
    return cab


def scene_starting(tmp: Path) -> Cabinet:
    """The cabinet whose start-up screen is drawn (its game's title; ``STARTING_PROGRESS``: how far)."""
    return _cabinet(tmp)


SCENES: dict[str, Callable[[Path], Cabinet]] = {
    "attract": scene_attract,
    "betting": scene_betting,
    "split": scene_split,
    "insurance": scene_insurance,
    "dealer-blackjack": scene_dealer_blackjack,
    "eight-seats": scene_eight_seats,
    "tilt": scene_tilt,
    "handpay": scene_handpay,
    "surrender": scene_surrender,
    "ochko-stake": scene_ochko_stake,
    "ochko-reveal": scene_ochko_reveal,
    "ochko-settled": scene_ochko_settled,
    "eenentwintig-bet": scene_eenentwintig_bet,
    "eenentwintig-wash": scene_eenentwintig_wash,
    "eenentwintig-settled": scene_eenentwintig_settled,
    "eenendertigen-swap": scene_eenendertigen_swap,
    "eenendertigen-knock": scene_eenendertigen_knock,
    "eenendertigen-reveal": scene_eenendertigen_reveal,
    "eenendertigen-discard": scene_eenendertigen_discard,
    "tournament-entry": scene_tournament_entry,
    "tournament-playing": scene_tournament_playing,
    "tournament-final": scene_tournament_final,
    "starting": scene_starting,
}
STARTING_PROGRESS = (3, 10)  # the start-up screen's scene: Auto's tables, done of total (blackjack: up cards)


MENU_WALL = 1796155200.0  # the journal's record times in the menu scenes: 2026-12-01 20:00 UTC, one second a record
PIN_1234 = ("+2", "+10", "x2", "repeat")


def _menu(tmp: Path, *presses: str, on: str = "split", language: str = "en"):
    """A menu opened (play paused, as the loop does) on a cabinet that played scene ``on``, after
    ``presses`` (seat 1); the journal's record times made fixed so the pictures do not change."""
    from machine.display.gamewords import say
    from machine.operator.menu import OperatorMenu
    from machine.operator.pin import hash_pin

    cab = SCENES[on](tmp)
    for b in ("stand", "stand"):  # finish the round so recall and meters have a game
        if cab.round is not None and cab.round.pending is not None:
            cab.press(cab.round.pending.seat, b, 5)
    cab.pause("door", 5.2)  # the attendant opened the door, then turned the operator key
    cab.resume("door", 5.4)
    cab.pause("operator", 5.5)
    cab.operator_event("menu opened", 5.5)
    cab.journal.db.execute("UPDATE journal SET at = ? + seq", (MENU_WALL,))
    menu = OperatorMenu(cab, hash_pin("1234", n=16, r=1, p=1), "c645...b8bb (example)", language=language,
                        say=say)
    for b in presses:
        menu.press(1, b, 6)
    return cab, menu


MENU_SCENES: dict[str, tuple[str, ...]] = {
    "menu-main": (),
    "menu-meters": ("start",),
    "menu-meters-2": ("start", "draw"),  # the second page
    "menu-recall": ("draw", "start"),
    "menu-recall-eenentwintig": ("draw", "start"),
    "menu-recall-ochko": ("draw", "start"),
    "menu-recall-eenendertigen": ("draw", "start"),
    "menu-events": ("draw", "draw", "start"),
    "menu-settings": ("draw", "draw", "draw", "start"),
    "menu-pin": ("draw", "draw", "draw", "start", "start", "+2", "+10"),
    "menu-pin-locked": ("draw", "draw", "draw", "start", *(("start",) + ("+2",) * 4 + ("start",)) * 4, "start"),  # 4 wrong
    "menu-edit": ("draw", "draw", "draw", "start", "draw", "start", *PIN_1234, "start", "draw"),  # decision time
    "menu-hardware": ("draw", "draw", "draw", "draw", "start", "double"),
    "menu-confirm": ("draw", "draw", "draw", "draw", "draw", "start", "start", *PIN_1234, "start"),  # period reset
    "menu-ram": ("stand", "stand", "stand", "start"),
    "menu-software": ("stand", "stand", "start"),
    "menu-tournament": ("stand", "start", "draw", "draw"),  # the last page; the prizes line
    "menu-tournament-open": ("stand", "start"),  # a tournament in play: its ranking
}
MENU_ON = {  # the scene a menu scene is opened on (the split scene when not named here)
    "menu-recall-eenentwintig": "eenentwintig-settled",
    "menu-recall-ochko": "ochko-settled",
    "menu-recall-eenendertigen": "eenendertigen-reveal",
    "menu-tournament-open": "tournament-playing",
}


def render_scene(name: str, size: tuple[int, int] = SIZE, language: str = "en"):
    """Set up scene ``name`` and draw it headless; returns the pygame Surface."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from machine.display.draw import Renderer
    from machine.display.view import build_view

    pygame.font.init()
    surf = pygame.Surface(size)
    r = Renderer(language=language)
    with tempfile.TemporaryDirectory() as tmp:
        if name in MENU_SCENES:
            from machine.display.menu import draw_menu

            cab, menu = _menu(Path(tmp), *MENU_SCENES[name], on=MENU_ON.get(name, "split"), language=language)
            draw_menu(surf, menu.view(), r)
            cab.journal.close()
            return surf
        cab = SCENES[name](Path(tmp))
        if name == "starting":  # the start-up screen, while Auto's tables are prepared
            cab.journal.close()
            r.draw_starting_table(surf, len(cab.seats), cab.profile.title, language, *STARTING_PROGRESS)
            return surf
        view = build_view(cab, SCENE_TIME, languages=dict.fromkeys(cab.seats, language))
        cab.journal.close()
    r.draw_table(surf, view, now=SCENE_TIME - 10)  # cards first seen 10 s ago: no animation
    r.draw_table(surf, view, now=SCENE_TIME)
    return surf

