"""`cabinet round` as round-script.md defines it: JSON out, or one line and exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from machine.cli import main

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "round.yaml"


def run(script_text: str, capsys, monkeypatch) -> tuple[int, str, str]:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(script_text))
    code = main(["round", "-"])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_console_script_plays_the_example_round():
    proc = subprocess.run([sys.executable, "-m", "machine", "round", str(EXAMPLE)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["dealer"] == {"cards": ["AD", "8D"], "total": 19, "blackjack": False, "bust": False}
    s1 = result["seats"][0]
    assert s1["hands"][0]["cards"] == ["9S", "5C", "6H"]
    assert (s1["staked"], s1["returned"], s1["net"]) == (10, 20, 10)
    assert set(s1) >= {"seat", "bet", "insurance", "insurance_returned", "bonus", "hands", "staked", "returned", "net"}
    assert set(s1["hands"][0]) >= {
        "cards", "stake", "total", "soft", "blackjack", "bust", "doubled", "from_split", "result", "returned"
    }
    assert result["cards_used"] == 7


def test_json_scripts_are_read_too(capsys, monkeypatch):
    code, out, err = run(
        '{"game": "random-blackjack", "shoe": ["AS", "9H", "10S", "8D"], "seats": [{"bet": 10}]}', capsys, monkeypatch
    )
    assert code == 0 and err == ""
    assert json.loads(out)["seats"][0]["returned"] == 25


BAD_SCRIPTS = [
    ("game: random-blackjack\nshoe: [9S, 7H\n", "cabinet round: <stdin>:3: "),
    ("- just a list\n", "cabinet round: the script must be a mapping"),
    ("game: poker\nshoe: []\nseats: [{bet: 2}]\n", "cabinet round: game: no game profile 'poker'"),
    ("game: random-blackjack\nshoe: [9S, 7X]\nseats: [{bet: 2}]\n", "cabinet round: shoe: card '7X' is not a card code"),
    (
        "game: random-blackjack\nshoe: [AS, AS, AS, AS, AS, AS, AS]\nseats: [{bet: 2}]\n",
        "cabinet round: shoe: card AS appears 7 times, but a shoe of 6 decks holds only 6",
    ),
    (
        "game: random-blackjack\nrules: {decks: 1}\nshoe: [AS, AS]\nseats: [{bet: 2}]\n",
        "cabinet round: shoe: card AS appears 2 times, but a shoe of 1 deck holds only 1",
    ),
    ("game: random-blackjack\nshoe: [9S, 7H]\nseats: [{bet: 2}]\n", "cabinet round: the shoe ran out after 2 cards"),
    (
        "game: random-blackjack\nshoe: [9S, 7H, 2D, 3D]\nseats: [{bet: 2, actions: [hit]}]\n",
        "cabinet round: seat 1, hand 1: the actions ran out while the seat must decide (allowed: hit, stand)",
    ),
    (
        "game: random-blackjack\nshoe: [9S, 7H, 9D, TD]\nseats: [{bet: 2, actions: [stand, hit, hit]}]\n",
        "cabinet round: seat 1: 2 actions left over when the round ended: hit, hit",
    ),
    (
        "game: random-blackjack\nshoe: [9S, 7H, 8D]\nseats: [{bet: 2, actions: [split]}]\n",
        "cabinet round: seat 1, hand 1: split is not allowed: the two cards are not of equal value",
    ),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 3}]\n", "cabinet round: seat 1: bet 3 is not a multiple of 2"),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 0}]\n", "cabinet round: seat 1: bet 0 is below the minimum of 2"),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 502}]\n",
     "cabinet round: seat 1: bet 502 is above the maximum of 500"),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 2, actions: [fold]}]\n",
     "cabinet round: seats[0]: unknown action 'fold'"),
    ("game: random-blackjack\nshoe: [9S]\nseats: []\n", "cabinet round: seats: must be a list of 1 to 7 seats"),
    ("game: random-blackjack\nshoe: [9S]\nseats: [{bet: 2}]\nseat: 1\n", "cabinet round: unknown key 'seat'"),
    ("game: random-blackjack\nrules: {decks: 9}\nshoe: [9S]\nseats: [{bet: 2}]\n",
     "cabinet round: rules: decks: must be 0 to 8, not 9"),
    ("game: random-blackjack\nrules: {deck: 2}\nshoe: [9S]\nseats: [{bet: 2}]\n", "cabinet round: rules: deck: unknown setting"),
    ("game: random-blackjack\nrules: {hole_card: no}\nshoe: [9S]\nseats: [{bet: 2}]\n",
     "cabinet round: rules: hole_card: must be true or false, not 'no'"),
    ("game: random-blackjack\ngame: casino-blackjack\n", "cabinet round: <stdin>:2: duplicate key 'game' (first on line 1)"),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 2, insurance: maybe}]\n",
     "cabinet round: seats[0]: insurance must be true, false or auto"),
    ("game: random-blackjack\nshoe: [9S, 7H, 9D]\nseats: [{bet: 2, insurance: 1}]\n",
     "cabinet round: seats[0]: insurance must be true, false or auto, not 1"),
    ("game: random-blackjack\nrules: []\nshoe: [9S]\nseats: [{bet: 2}]\n", "cabinet round: rules: must be a mapping"),
]


@pytest.mark.parametrize("text, message", BAD_SCRIPTS, ids=[m.split(": ", 1)[1][:40] for _, m in BAD_SCRIPTS])
def test_a_bad_script_gives_one_line_on_stderr_nothing_on_stdout_and_status_2(capsys, monkeypatch, text, message):
    code, out, err = run(text, capsys, monkeypatch)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(message), err


def test_a_missing_file_is_named(capsys):
    assert main(["round", "/nonexistent/script.yaml"]) == 2
    assert capsys.readouterr().err.startswith("cabinet round: /nonexistent/script.yaml: cannot read")
