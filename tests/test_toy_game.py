"""A game that lives in the tests only (``tests/toygame``), registered in the game catalog for
the test and taken out after, played through the cabinet core (money, the journal across a
power cut, recall) and through ``cabinet round``: adding a game touches no line of the product."""

from __future__ import annotations

import json

import pytest

from machine.cli import main
from machine.core.cabinet import CabinetSettings, open_cabinet
from machine.display.view import build_view
from machine.gamemath.engines import auto_for
from machine.games import catalog
from machine.games.catalog import make_game
from machine.money.audit import gather
from machine.operator.reports import as_text
from machine.profiles import load_profile

from .cabinet_helpers import TEST_KEY, memory, stacked_shoes
from .toygame import ENGINE, PROFILE


@pytest.fixture
def toy(tmp_path, monkeypatch):
    config = tmp_path / "config"
    (config / "games").mkdir(parents=True)
    (config / "games" / "toy.yaml").write_text(PROFILE)
    monkeypatch.setenv("CABINET_CONFIG", str(config))
    catalog.register(ENGINE)
    yield
    catalog.unregister(ENGINE.name)


def boot(tmp, shoes):
    return open_cabinet(tmp / "journal.sqlite", load_profile("toy"), CabinetSettings(seats=2),
                        lambda p: make_game(p, auto_for(p.engine)), shoes, memory(tmp), create=True)


def test_the_toy_game_plays_a_round_with_money_through_a_power_cut_and_is_recalled(toy, tmp_path):
    # seat 1 5S, seat 2 9H, the house JD (closed); seat 1 swaps for AC, seat 2 stands:
    # AC beats JD (2 back and 2 won), 9H loses to it
    shoes = stacked_shoes("5S 9H JD AC")
    cab = boot(tmp_path, shoes)
    assert cab.profile.rules.max_bet == 20  # the profile file's rules
    for n in (1, 2):
        assert cab.coin(n, "EU200A", 0) and cab.press(n, "+2", 0)
    clubs = {n: cab.seats[n].money.club for n in (1, 2)}
    for n in (1, 2):
        cab.press(n, "start", 1)
    assert cab.round is not None and cab.round.pending.options == ("swap", "stand")
    assert {n: cab.seats[n].money.club for n in (1, 2)} == {n: clubs[n] - 2 for n in (1, 2)}
    assert cab.round.shown().dealer_cards == ("??",)
    view = build_view(cab, 1.0)  # the screens read only what the round shows (the toy has no seat())
    assert [(v.bet, v.insurance, v.hands[0].cards) for v in view.seats] == [(2, 0, ("5S",)), (2, 0, ("9H",))]
    assert view.dealer_cards == ("??",) and view.dealer_title == "HOUSE"
    assert cab.press(1, "draw", 2)
    before = cab.round.to_dict()
    cab.journal.close()

    cab = boot(tmp_path, stacked_shoes("2S 2H 2D 2C"))  # a power cut: the round comes back as it was
    assert cab.round is not None and cab.round.to_dict() == before
    assert cab.press(2, "stand", 3)
    assert cab.round is None
    assert {n: cab.seats[n].money.club for n in (1, 2)} == {1: clubs[1] + 2, 2: clubs[2] - 2}
    assert cab.seats[1].meters.get("games_played:toy") == 1
    record = cab.journal.records("game", seat=1)[-1].data
    assert record["dealer"]["cards"] == ["JD"] and record["seat"]["hands"][0]["cards"] == ["AC"]
    assert [d["action"] for d in record["decisions"]] == ["swap"]
    cab.journal.close()

    recall = as_text(gather(tmp_path / "journal.sqlite", TEST_KEY), "recall")
    assert "game 1 (toy): bet 2  dealer JD (11)  hands AC (14, win 4)  decisions swap  staked 2 returned 4" in recall
    assert "game 1 (toy): bet 2  dealer JD (11)  hands 9H (9, lose 0)  decisions stand  staked 2 returned 0" in recall


def test_the_toy_game_plays_cabinet_round_from_a_script_file_with_auto(toy, tmp_path, capsys):
    script = tmp_path / "toy.yaml"
    script.write_text("game: toy\nshoe: [4S, KH, 9D, 3C]\nseats:\n  - {bet: 4, actions: [auto]}\n"
                      "  - {bet: 20, actions: [stand]}\n")
    assert main(["round", str(script)]) == 0
    out = json.loads(capsys.readouterr().out)
    # seat 1 holds 4S: Auto swaps it for 3C, still below the house's 9D; seat 2's KH beats it
    assert out["dealer"]["cards"] == ["9D"] and out["cards_used"] == 4
    assert [(s["hands"][0]["cards"], s["hands"][0]["result"], s["returned"]) for s in out["seats"]] == [
        (["3C"], "lose", 0), (["KH"], "win", 40)]


def test_the_toy_game_is_known_only_while_it_is_registered(toy):
    assert "toy" in catalog.names()
    catalog.unregister("toy")
    assert "toy" not in catalog.names()
    with pytest.raises(ValueError, match="no game math for engine 'toy'"):
        auto_for("toy")
    catalog.register(ENGINE)
