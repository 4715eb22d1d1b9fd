"""``cabinet bench farmer`` reads Eric Farmer's engine right: its answers, the overall EV in the
file it writes, and one clear reason when it cannot be built or read (the timing itself is a
benchmark's, never a test's; the engine is not in this repository, so a stand-in plays it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from machine.devtools.bench.farmer import FARMER_ANSWERS, FarmerUnavailable, farmer_build, farmer_run

# what strategy writes around its overall EV: the dealer's totals row also starts with "Total |"
FILE = ("rules  Total | 0.28192 | 0.14525 | 0.13926\n\n(per up card)\n     A  |   -35.795372910\n"
        "----\n  Total |   -0.402870236{tail}\n")


def stand_in(tmp_path: Path, text: str | None) -> Path:
    """A program that reads strategy's answers from stdin, keeps them, and writes ``text`` to
    the output file named in them (nothing when None)."""
    (tmp_path / "file.txt").write_text(text or "")
    prog = tmp_path / "strategy"
    write = f'cp "{tmp_path}/file.txt" "$name"' if text is not None else ":"
    prog.write_text(f'#!/bin/sh\ncat > "{tmp_path}/answers"\nname=$(sed -n 12p "{tmp_path}/answers")\n{write}\n')
    prog.chmod(0o755)
    return prog


@pytest.mark.parametrize("tail", ["", " +/- 1.154421030"])  # the spread is printed when there is no resplit
def test_the_overall_ev_is_read_from_the_total_row_of_the_file(tmp_path, tail):
    seconds, ev = farmer_run(stand_in(tmp_path, FILE.format(tail=tail)))
    assert ev == -0.402870236 and seconds > 0
    # 6 decks, S17, DOA, soft doubles, no double after a hit, DAS, resplit, no RSA, CDZ-, no surrender, 3:2
    assert (tmp_path / "answers").read_text() == FARMER_ANSWERS
    assert FARMER_ANSWERS.split("\n")[:11] == ["6", "n", "y", "y", "n", "y", "y", "n", "y", "n", "1.5"]
    assert FARMER_ANSWERS.endswith("out.txt\n0 0\n")  # the file, then "0 0" leaves the hand prompt


def test_no_overall_ev_is_one_clear_reason(tmp_path):
    with pytest.raises(FarmerUnavailable, match="ended with code 0 and no overall EV"):
        farmer_run(stand_in(tmp_path, None))


def test_a_folder_that_is_not_a_checkout_is_named(tmp_path):
    with pytest.raises(FarmerUnavailable, match=f"^{tmp_path} is not a checkout of possibly-wrong/blackjack"):
        farmer_build(tmp_path)
