"""Hostile and careless files: each refused in one line naming the file (and line), exit 2.

Issue 14, findings 9 and 10: an alias bomb, deep nesting, unhashable keys, huge files and huge
names in configuration and round scripts; and configurations `config check` used to accept.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from machine import yamlio
from machine.cli import main
from machine.operator.config import parse_config

BASE = (Path(__file__).resolve().parents[1] / "config" / "machine.yaml").read_text()

# ~0.4 KB: nine levels of nine aliases each, 9**10 values once expanded
BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
)


def refused(capsys, argv: list[str], *parts: str) -> str:
    """Run ``cabinet argv``: exit 2, nothing on stdout, one line on stderr holding ``parts``."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, err[:500]
    for part in parts:
        assert part in err, err[:500]
    return err


def config_check(tmp_path: Path, capsys, text: str, *parts: str) -> str:
    path = tmp_path / "machine.yaml"
    path.write_text(text)
    return refused(capsys, ["config", "check", str(path)], str(path), *parts)


def test_the_shipped_configuration_still_passes():
    assert parse_config(BASE, "machine.yaml").seats == 4  # `config check` itself: tests/test_config.py


# ---- finding 10: hostile YAML, through every reader ----


def test_an_alias_bomb_in_a_config_is_refused_at_once(tmp_path, capsys):
    config_check(tmp_path, capsys, BASE + "bomb:\n" + "".join("  " + line + "\n" for line in BOMB.splitlines()),
                 "alias bomb")


def test_an_alias_bomb_in_a_round_script_is_refused(tmp_path, capsys):
    path = tmp_path / "round.yaml"
    path.write_text("game: random-blackjack\n" + BOMB)
    refused(capsys, ["round", str(path)], f"{path}:", "alias bomb")


def test_too_many_aliases_are_refused():
    text = "a: &a 1\nb: [" + ", ".join(["*a"] * (yamlio.MAX_ALIASES + 1)) + "]\n"
    with pytest.raises(yamlio.YamlError, match=r"^f\.yaml:2: more than \d+ aliases"):
        yamlio.loads(text, "f.yaml")


def test_an_alias_inside_itself_is_refused():
    with pytest.raises(yamlio.YamlError, match=r"^f\.yaml:1: an alias refers to the value it is in"):
        yamlio.loads("a: &a [1, *a]\n", "f.yaml")


def test_aliases_nesting_past_the_depth_bound_are_refused():
    # each level is 10 deep and nests the one before: 10 levels of 10 = 100 > MAX_DEPTH
    text = "l0: &l0 1\n" + "".join(f"l{i}: &l{i} {'[' * 10}*l{i - 1}{']' * 10}\n" for i in range(1, 11))
    with pytest.raises(yamlio.YamlError, match=r"aliases nest this deeper than"):
        yamlio.loads(text, "f.yaml")


def test_deep_nesting_in_a_config_is_one_line_not_a_recursion_error(tmp_path, capsys):
    config_check(tmp_path, capsys, BASE + "deep: " + "[" * 5000 + "]" * 5000 + "\n", "nested deeper than")


def test_deep_nesting_in_a_round_script_is_one_line(tmp_path, capsys):
    path = tmp_path / "round.yaml"
    path.write_text("game: random-blackjack\nshoe: " + "[" * 5000 + "]" * 5000 + "\n")
    refused(capsys, ["round", str(path)], f"{path}:2: nested deeper than")


def test_an_unhashable_key_is_one_line_naming_its_line(tmp_path, capsys):
    config_check(tmp_path, capsys, BASE + "? [a, b]\n: 1\n", f":{BASE.count(chr(10)) + 1}: a list cannot be a key")
    path = tmp_path / "round.yaml"
    path.write_text("game: random-blackjack\n? {a: 1}\n: 1\n")
    refused(capsys, ["round", str(path)], f"{path}:2: a dict cannot be a key")


def test_a_file_over_the_size_bound_is_refused_unread(tmp_path, capsys):
    config_check(tmp_path, capsys, BASE + "# padding\n" * (yamlio.MAX_BYTES // 10 + 1), "too large")
    path = tmp_path / "round.yaml"
    path.write_text("game: random-blackjack\n" + "# padding\n" * (yamlio.MAX_BYTES // 10 + 1))
    refused(capsys, ["round", str(path)], str(path), "too large")


def test_a_huge_game_name_is_one_line(tmp_path, capsys):
    path = tmp_path / "round.yaml"
    path.write_text("game: " + "x" * (yamlio.MAX_SCALAR + 1) + "\n")
    refused(capsys, ["round", str(path)], f"{path}:1: a value of {yamlio.MAX_SCALAR + 1} characters")
    config_check(tmp_path, capsys, BASE.replace("game: random-blackjack", "game: " + "x" * 5_000_000, 1),
                 "too large")


def test_a_long_game_name_is_not_a_game_not_an_os_error(tmp_path, capsys):
    path = tmp_path / "round.yaml"
    path.write_text("game: " + "x" * 5000 + "\n")
    refused(capsys, ["round", str(path)], "a game name of 5000 characters is not a game profile name")
    long = "x" * 5000
    config_check(tmp_path, capsys, BASE.replace("game: random-blackjack", f"game: {long}", 1)
                 .replace("games_enabled: [", f"games_enabled: [{long}, ", 1), "a game name of 5000 characters")


# ---- finding 9: careless configurations `config check` accepted ----


def test_two_hoppers_at_one_address_are_refused(tmp_path, capsys):
    text = BASE.replace("      seats: [1, 2, 3, 4]", "      seats: [1, 2]\n    - address: 3\n      seats: [3, 4]")
    line = text.splitlines().index("    - address: 3", text.splitlines().index("    - address: 3") + 1) + 1
    config_check(tmp_path, capsys, text, f":{line}: devices.hoppers.1.address: hoppers 1 and 2 both use address 3")


def test_a_hopper_paying_a_seat_the_cabinet_does_not_have_is_refused(tmp_path, capsys):
    text = BASE.replace("      seats: [1, 2, 3, 4]", "      seats: [1, 2, 3, 4, 7]")
    line = text.splitlines().index("      seats: [1, 2, 3, 4, 7]") + 1
    config_check(tmp_path, capsys, text, f":{line}: devices.hoppers.0.seats.4: names seat 7, but the cabinet has 4 seats")


def test_no_coins_at_all_are_refused(tmp_path, capsys):
    text = BASE.replace("coins:                 # ccTalk coin id -> points\n  EU050A: 5\n  EU100A: 10\n  EU200A: 20\n",
                        "coins: {}\n")
    line = text.splitlines().index("coins: {}") + 1
    config_check(tmp_path, capsys, text, f":{line}: coins: ")


@pytest.mark.parametrize("field", ["betting_time", "decision_timeout"])
def test_a_time_below_one_second_is_refused(tmp_path, capsys, field):
    lines = BASE.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith(field + ":"))
    lines[n] = f"{field}: 1.0e-7"  # a float (1e-7, with no dot, is a string in YAML)
    config_check(tmp_path, capsys, "\n".join(lines) + "\n", f":{n + 1}: {field}: ")


@pytest.mark.parametrize("where", ["/dev/null", "/proc/self", "/sys", "FILE"])
def test_a_data_dir_that_cannot_be_the_journals_folder_is_refused(tmp_path, capsys, where):
    if where == "FILE":
        where = str(tmp_path / "a-file")
        Path(where).write_text("not a folder")
    lines = BASE.splitlines()
    n = next(i for i, line in enumerate(lines) if line.startswith("data_dir:"))
    lines[n] = f"data_dir: {where}"
    config_check(tmp_path, capsys, "\n".join(lines) + "\n", f":{n + 1}: data_dir: ")
