"""No input gives a traceback (issue 24, finding 12): every command that reads a file or standard
input, fed random bytes, control characters and truncated YAML or JSON, ends with one clear
line and status 2 (or 0 where what it was given is valid).

Hypothesis with a fixed derandomised seed and a bounded number of examples per command, so a
run is reproducible and takes seconds; the inputs that must be refused are built so (a byte
that is not UTF-8, a control character, a strict prefix of a JSON object), the truncated YAML
files may also be valid.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from machine.cli import main

ROOT = Path(__file__).resolve().parents[1]
ROUND = (ROOT / "examples" / "round.yaml").read_text()
SESSION = ("game: random-blackjack\nsteps:\n  - coin: 100\n  - press: '+10'\n  - press: start\n"
           "    shoe: [9S, 7H, 8D, 5C, TS, 6H]\n    actions: [stand]\n  - press: collect\n")
PRICED = json.dumps({"game": "random-blackjack", "rules": {"decks": 6, "hole_card": False}})
FUZZ = settings(max_examples=25, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
CONTROL = [chr(c) for c in (*range(0, 9), 11, 12, *range(14, 32), 127)]

# every command that reads a script from a file or "-" (standard input)
SCRIPT_COMMANDS = {
    "round": ["round"],
    "session": ["session"],
    "rtp": ["rtp"],
    "strategy": ["strategy"],
    "simulate": ["simulate", "--rounds", "5", "--workers", "1"],
}


def config_text(tmp_path: Path) -> str:
    """The shipped configuration with its journal, key and head store in ``tmp_path``."""
    text = (ROOT / "config" / "machine.yaml").read_text()
    return (text.replace("data_dir: data ", f"data_dir: {tmp_path / 'data'} ")
            .replace("key_file: ~/.config/cabinet/machine.key", f"key_file: {tmp_path / 'key' / 'machine.key'}")
            .replace("head_stores: [~/.local/state/cabinet]", f"head_stores: [{tmp_path / 'heads'}]"))


def run(capsys, argv: list[str], stdin: bytes = b"") -> tuple[int, str]:
    real = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        status = main(argv)
    finally:
        sys.stdin = real
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    return status, err


def refused_in_one_line(status: int, err: str, *parts: str) -> None:
    assert status == 2, err
    assert err.count("\n") == 1, err
    for part in parts:
        assert part in err, err


def not_utf8(data: bytes) -> bytes:
    """``data`` with a byte that can never start or continue UTF-8 text put in."""
    return data[: len(data) // 2] + b"\xff" + data[len(data) // 2:]


with_bad_byte = st.binary(max_size=200).map(not_utf8)


def with_control(text: str):
    """``text`` with one control character (NUL, BEL, ESC, ...) put in at any place."""
    return st.tuples(st.integers(0, len(text)), st.sampled_from(CONTROL)).map(lambda p: text[: p[0]] + p[1] + text[p[0]:])


# -- standard input -------------------------------------------------------------------------


@pytest.mark.parametrize("command", SCRIPT_COMMANDS)
def test_bytes_that_are_not_utf8_on_standard_input_are_one_line(command, capsys):
    status, err = run(capsys, [*SCRIPT_COMMANDS[command][:1], "-", *SCRIPT_COMMANDS[command][1:]], b"game: x\xff\n")
    refused_in_one_line(status, err, "<stdin>:1: not UTF-8 text (byte 7, 0xff)")

    @FUZZ
    @given(data=with_bad_byte)
    def fuzz(data: bytes) -> None:
        refused_in_one_line(*run(capsys, [*SCRIPT_COMMANDS[command][:1], "-", *SCRIPT_COMMANDS[command][1:]], data),
                            "<stdin>:", "not UTF-8 text")

    fuzz()


@pytest.mark.parametrize("command", SCRIPT_COMMANDS)
def test_a_control_character_on_standard_input_is_one_line(command, capsys):
    @FUZZ
    @given(text=with_control(ROUND))
    def fuzz(text: str) -> None:
        status, err = run(capsys, [*SCRIPT_COMMANDS[command][:1], "-", *SCRIPT_COMMANDS[command][1:]], text.encode())
        refused_in_one_line(status, err, "<stdin>:", "the control character U+")

    fuzz()


# -- files ----------------------------------------------------------------------------------


@pytest.mark.parametrize("command", SCRIPT_COMMANDS)
def test_a_bel_in_a_script_file_names_the_file_and_line(command, tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("game: random-blackjack\nrules: {decks: 6}\x07\n")
    status, err = run(capsys, [*SCRIPT_COMMANDS[command][:1], str(path), *SCRIPT_COMMANDS[command][1:]])
    refused_in_one_line(status, err, f"{path}:2: column 18: the control character U+0007 (BEL)")


# slow: hypothesis gives each command 25 configurations with a control character and 25 with a bad byte
@pytest.mark.parametrize("argv", [
    ["config", "check"], ["config", "pin", "--pin-stdin"], ["config", "apply", "--pin-stdin"], ["init", "--config"],
    ["run", "--headless", "--rounds", "1", "--config"], ["archive", "--to", "/nonexistent/a.sqlite", "--config"],
    ["ram-clear", "--reason", "fuzz", "--yes", "--config"], ["screenshots", "/nonexistent/shots", "--config"],
], ids=lambda a: " ".join(a[:2]))
def test_a_control_character_or_a_bad_byte_in_the_configuration_is_one_line(argv, tmp_path, capsys):
    base = config_text(tmp_path)
    path = tmp_path / "machine.yaml"
    path.write_text(base.replace("seats: 4", "seats: 4\x07"))
    status, err = run(capsys, [*argv, str(path)], b"2468\n")
    refused_in_one_line(status, err, f"{path}:3: column 9: the control character U+0007 (BEL)")
    path.write_bytes(base.encode().replace(b"seats: 4", b"seats: 4\0"))
    refused_in_one_line(*run(capsys, [*argv, str(path)], b"2468\n"), f"{path}:3: column 9: the control character U+0000 (NUL)")

    @FUZZ
    @given(text=with_control(base), data=with_bad_byte)
    def fuzz(text: str, data: bytes) -> None:
        path.write_text(text)
        refused_in_one_line(*run(capsys, [*argv, str(path)], b"2468\n"), f"{path}:", "control character")
        path.write_bytes(data)
        refused_in_one_line(*run(capsys, [*argv, str(path)], b"2468\n"), f"{path}:", "not UTF-8 text")

    fuzz()
    assert not (tmp_path / "key").exists() and not (tmp_path / "data").exists()  # nothing was started


@pytest.mark.parametrize("command", SCRIPT_COMMANDS)
def test_random_bytes_and_truncated_json_in_a_script_file_are_refused(command, tmp_path, capsys):
    path = tmp_path / "s.json"

    @FUZZ
    @given(cut=st.integers(0, len(PRICED) - 1), data=st.binary(max_size=300))
    def fuzz(cut: int, data: bytes) -> None:
        path.write_text(PRICED[:cut])  # a strict prefix of a JSON object is never a whole one
        status, err = run(capsys, [*SCRIPT_COMMANDS[command][:1], str(path), *SCRIPT_COMMANDS[command][1:]])
        assert status == 2 and err.count("\n") == 1, err
        path.write_bytes(data)
        status, err = run(capsys, [*SCRIPT_COMMANDS[command][:1], str(path), *SCRIPT_COMMANDS[command][1:]])
        assert status == 2 and err.count("\n") >= 1, err  # a configuration-like text may list several problems

    fuzz()


@pytest.mark.parametrize("command, text", [("round", ROUND), ("session", SESSION)])
def test_truncated_yaml_scripts_play_or_are_refused(command, text, tmp_path, capsys):
    path = tmp_path / "s.yaml"

    @FUZZ
    @given(cut=st.integers(0, len(text)))
    def fuzz(cut: int) -> None:
        path.write_text(text[:cut])
        status, err = run(capsys, [command, str(path)])
        assert status in (0, 2), err
        assert (status == 0) == (err == ""), err

    fuzz()


def test_truncated_configurations_pass_or_are_refused(tmp_path, capsys, monkeypatch):
    import machine.gamemath.engines as engines

    monkeypatch.setattr(engines, "returns", lambda profile: (0.95, None))  # the figures: tests of their own
    base = config_text(tmp_path)
    path = tmp_path / "machine.yaml"

    @FUZZ
    @given(cut=st.integers(0, len(base)))
    def fuzz(cut: int) -> None:
        path.write_text(base[:cut])
        for argv in (["config", "check", str(path)], ["config", "pin", "--pin-stdin", str(path)]):
            status, err = run(capsys, argv, b"2468\n")
            assert status in (0, 2), err
            assert (status == 0) == (err == ""), err

    fuzz()
