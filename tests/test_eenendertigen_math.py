"""Eenendertigen's strategy (Auto and the computer players): it knocks on 31, never passes a hand
a swap improves now, decides on what its place sees alone, deterministically; the simulator and
the refusals of the figures this game does not have."""

from __future__ import annotations

import random

import pytest

from machine.gamemath import eenendertigen as een
from machine.gamemath.engines import math_of
from machine.games.cards import deck, shuffle
from machine.games.eenendertigen.round import EenendertigenRound
from machine.profiles import load_profile

CLASSIC = load_profile("eenendertigen").rules
MODERN = load_profile("eenendertigen", {"variant": "modern"}).rules


def dealt(rules, hands: list[str], table: str, rest: str = "") -> EenendertigenRound:
    cards = [h.split() for h in hands]
    shoe = [cards[p][k] for k in range(3) for p in range(4)] + table.split() + rest.split()
    return EenendertigenRound.start(rules, shoe, [1, 2, 3, 4], [2] * 4)


def test_it_takes_31_when_a_move_makes_it():
    rnd = dealt(CLASSIC, ["AH KH 7C", "7S 8S 9S", "7D 8D 9D", "TC JC 8C"], "TS QH JD")
    assert een.auto_action(rnd) == "swap:3:2"
    rnd = dealt(MODERN, ["AH KH 7C", "7S 8S 9S", "7D 8D 9D", "TC JC 8C"], "QH", "2S 3S")
    assert een.auto_action(rnd) == "take_open:3"


def test_it_never_passes_a_hand_one_swap_improves_and_passes_a_good_hand_nothing_improves():
    rnd = dealt(CLASSIC, ["AH KH 7C", "7S 8S 9S", "7D 8D 9D", "TC JC 8C"], "9H 8H 7H")  # 21 -> 30 with 9H
    assert een.auto_action(rnd) == "swap:3:1"
    rnd = dealt(CLASSIC, ["AH KH TH", "7S 8S 9S", "7D 8D 9D", "TC JC 8C"], "7H 8H JD")  # 30: nothing beats it
    assert een.auto_action(rnd) == "pass"


def test_it_decides_on_what_its_place_sees_alone():
    """The other hands and the closed stack's order do not change the choice."""
    rng = random.Random(5)
    for _ in range(12):
        shoe = shuffle(deck(MODERN.ranks), rng)
        own = [shoe[0], shoe[4], shoe[8]]
        hidden = [c for i, c in enumerate(shoe) if i < 12 and i % 4] + shoe[13:]
        moved = shuffle(hidden, rng)
        other = list(shoe)
        slots = [i for i in range(len(shoe)) if (i < 12 and i % 4) or i >= 13]
        for i, c in zip(slots, moved, strict=True):
            other[i] = c
        a = EenendertigenRound.start(MODERN, shoe, [1, 2, 3, 4], [2] * 4)
        b = EenendertigenRound.start(MODERN, other, [1, 2, 3, 4], [2] * 4)
        assert a.places[0].cards == b.places[0].cards == own
        if any(p.knocked for p in a.places + b.places):
            continue  # a knock at the deal is announced to all: it changes what the place sees
        assert een.auto_action(a) == een.auto_action(b)


def test_the_same_deal_plays_the_same_round():
    shoe = shuffle(deck(CLASSIC.ranks), random.Random(9))
    a, b = een.play_round(CLASSIC, list(shoe)), een.play_round(CLASSIC, list(shoe))
    assert a.to_dict() == b.to_dict() and a.finished


def test_simulate_and_the_figure_this_game_has_not():
    math = math_of("eenendertigen")
    t = math.simulate(CLASSIC, 120, workers=1)
    assert t.rounds == 120 and t.bet == 240 and 0 < t.rtp < 3.5
    wins, rtp = math.win_rate(CLASSIC, 40)
    assert 0 < wins < 1 and rtp > 0
    with pytest.raises(ValueError, match="no exact return"):
        math.rtp_report(load_profile("eenendertigen"))


def test_the_commands_simulate_and_refuse_the_exact_return_in_one_line(tmp_path, capsys):
    from machine.cli import main

    script = tmp_path / "g.yaml"
    script.write_text("game: eenendertigen\nrules: {variant: modern}\n")
    assert main(["simulate", str(script), "--rounds", "4", "--workers", "1"]) == 0  # the line, not a figure
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("simulated RTP") and "against three computer players" in out[0]
    assert main(["rtp", str(script)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "no exact return" in captured.err
    assert main(["strategy", str(script)]) == 0
    assert "knocks" in capsys.readouterr().out
