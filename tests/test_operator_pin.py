"""The operator PIN (issue 14, finding 6): a slow salted hash with its own parameters, an
escalating lockout kept in the journal, no silent default, and `cabinet config pin`."""

from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import pytest

from machine.cli import main
from machine.core import pinlock
from machine.operator import pin
from machine.operator.config import ConfigError, load_config, parse_config
from machine.operator.menu import PAGES, OperatorMenu

from .cabinet_helpers import boot
from .helpers import stored_pin

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "config" / "machine.yaml").read_text()
PIN_LINE = next(line for line in BASE.splitlines() if line.startswith("operator_pin:"))
PIN_BUTTONS = {
    "1": "+2", "2": "+10", "3": "x2", "4": "repeat", "5": "max",
    "6": "draw", "7": "stand", "8": "double", "9": "split", "0": "insurance",
}


def try_pin(menu: OperatorMenu, digits: str, now: float) -> None:
    """From the Settings page: Start (a change asks for the PIN), the digits, Start."""
    if menu.mode == "browse":
        menu.press(1, "start", now)
    for d in digits:
        menu.press(1, PIN_BUTTONS[d], now)
    menu.press(1, "start", now)


def settings_menu(cab, stored: str | None = None) -> OperatorMenu:
    """A menu on the Settings page; the PIN ``stored`` (default: 2468, cheaply hashed)."""
    menu = OperatorMenu(cab, stored or stored_pin("2468"), "id")
    while PAGES[menu.cursor] != "Settings":
        menu.press(1, "draw", 0)
    menu.press(1, "start", 0)
    return menu


def events(cab, name: str) -> list[dict]:
    return [r.data for r in cab.journal.records("event") if r.data["event"] == name]


# -- the lockout --------------------------------------------------------------------------------


def test_the_lock_grows_from_30_s_after_three_free_wrong_pins_to_one_hour():
    assert [pinlock.lock_seconds(n) for n in range(1, 14)] == [
        0, 0, 0, 30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
    assert pinlock.lock_seconds(10_000) == 3600


def test_150_wrong_pins_then_the_right_one_is_refused_while_locked(tmp_path):
    cab = boot(tmp_path)
    menu = settings_menu(cab)
    for i in range(150):  # as fast as a panel sends them: 1.6 s for all
        try_pin(menu, f"{i:04d}", i * 0.01)
    # three were free, the fourth locked the entry for 30 s: the other 146 did nothing
    assert [e["wrong"] for e in events(cab, "pin_wrong")] == [1, 2, 3, 4]
    assert [(e["code"], e["wrong"], e["seconds"]) for e in events(cab, "pin_locked")] == [(175, 4, 30)]
    try_pin(menu, "2468", 2.0)  # the right PIN, still locked (until 30.03): nothing
    assert not menu.unlocked and menu.mode == "pin" and menu.lamps() == {"collect"}
    view = menu.view()
    assert view.lines[0] == "PIN locked: try again in 29 s" and view.footer == "Collect: cancel"
    menu.language = "nl"
    assert menu.view().lines[0] == "Pincode geblokkeerd: probeer het over 29 s opnieuw"
    assert cab.journal.records("settings_change") == [] and len(events(cab, "pin_wrong")) == 4
    # the lock over: the right PIN opens, and the count starts again
    try_pin(menu, "2468", 30.5)
    assert menu.unlocked and menu.mode == "edit" and cab.pin_locked_for(30.5) == 0
    assert cab.core.state.row.pin_lock == {}
    menu.press(1, "collect", 31)  # leave the edit; the next wrong PIN is a free one again
    menu.unlocked = False
    menu.press(1, "start", 31)
    try_pin(menu, "1111", 31)
    assert events(cab, "pin_wrong")[-1]["wrong"] == 1 and cab.pin_locked_for(31) == 0


def test_each_further_wrong_pin_doubles_the_lock(tmp_path):
    cab = boot(tmp_path)
    menu = settings_menu(cab)
    now = 0.0
    for _ in range(5):
        try_pin(menu, "1111", now)
        now += cab.pin_locked_for(now)  # wait the lock out
    assert [e["seconds"] for e in events(cab, "pin_locked")] == [30, 60]
    assert now == 90.0 and cab.pin_locked_for(now - 1) == 1.0


def test_too_few_digits_are_not_a_try(tmp_path):
    cab = boot(tmp_path)
    menu = settings_menu(cab)
    try_pin(menu, "12", 0)
    assert menu.mode == "pin" and menu.view().footer == "A PIN has 4 to 8 digits" and events(cab, "pin_wrong") == []


def test_the_lock_survives_a_restart(tmp_path):
    cab = boot(tmp_path)
    cab.tick(5.0, 1_000_000.0)  # the loop's clock and the wall clock
    menu = settings_menu(cab)
    for _ in range(4):
        try_pin(menu, "1111", 5.0)
    assert cab.pin_locked_for(5.0) == 30
    cab.tick(15.0, 1_000_010.0)  # 10 s of running time served, journaled
    cab.journal.close()
    again = boot(tmp_path)  # a power cut: the loop's clock starts again from 0, the wall clock went on
    assert again.pin_locked_for(0.0) == 20  # the time the cabinet was off serves none of the lock (issue 24, 15)
    again.tick(0.0, 1_000_100.0)
    assert again.pin_locked_for(0.0) == 20
    menu = settings_menu(again)
    try_pin(menu, "2468", 0.0)
    assert not menu.unlocked and menu.view().lines[0] == "PIN locked: try again in 20 s"
    again.tick(20.0, 1_000_120.0)
    try_pin(menu, "2468", 20.0)
    assert menu.unlocked
    # a wall clock set back cannot stretch a lock beyond what the count earned
    for _ in range(4):
        try_pin(settings_menu(again), "1111", 21.0)
    again.tick(22.0, 1.0)
    assert again.pin_locked_for(22.0) == 29


# -- the stored hash ------------------------------------------------------------------------------


def test_the_hash_is_scrypt_with_its_own_parameters_and_a_salt_of_its_own():
    one, two = pin.hash_pin("1234", n=16, r=1, p=1), pin.hash_pin("1234", n=16, r=1, p=1)
    assert one != two  # two machines with the same PIN store different strings
    for stored in (one, two):
        n, r, p, salt, digest = pin.parse(stored)
        assert (n, r, p, len(salt), len(digest)) == (16, 1, 1, 16, 32)
        assert digest == hashlib.scrypt(b"1234", salt=salt, n=16, r=1, p=1, dklen=32)
        assert digest.hex() != hashlib.sha256(b"cabinet-pin:1234").hexdigest()
        assert pin.check("1234", stored) and not pin.check("1235", stored)
    shipped = PIN_LINE.split(": ", 1)[1]  # the shipped configuration: PIN 1234 at full cost
    assert shipped.startswith("scrypt:16384:8:1:") and pin.check("1234", shipped)


@pytest.mark.parametrize("bad", [
    "ccdd07c2db4c03457456322c3d16b02514cdad4cf57ce63a49a71a54ba152567",  # the old SHA-256
    "scrypt:15:1:1:" + "00" * 16 + ":" + "00" * 32,  # N not a power of two
    "scrypt:1048576:8:1:" + "00" * 16 + ":" + "00" * 32,  # 1 GiB a check
    "scrypt:16:1:1:" + "00" * 16 + ":" + "00" * 31,
])
def test_a_stored_pin_that_is_not_one_is_refused(bad):
    with pytest.raises(pin.PinError):
        pin.parse(bad)


# -- no silent default ----------------------------------------------------------------------------


def test_a_configuration_without_a_pin_is_refused_naming_the_field(tmp_path, capsys):
    text = BASE.replace(PIN_LINE + "\n", "")
    top = BASE.splitlines().index("seats: 4") + 1  # where the settings begin (the comments above them)
    with pytest.raises(ConfigError) as err:
        parse_config(text, "m.yaml")
    assert err.value.problems == [f"m.yaml:{top}: operator_pin: no operator PIN is set (there is no default PIN): "
                                  "set one with `cabinet config pin m.yaml`"]
    path = tmp_path / "m.yaml"
    path.write_text(text)
    for argv in (["config", "check", str(path)], ["run", "--config", str(path), "--headless"]):
        assert main(argv) == 2
        out, errs = capsys.readouterr()
        assert out == "" and errs == f"cabinet {argv[0]}: {path}:{top}: operator_pin: no operator PIN is set (there is " \
            f"no default PIN): set one with `cabinet config pin {path}`\n"


def test_the_old_sha256_pin_is_refused_at_its_line(tmp_path):
    lines = BASE.splitlines()
    n = lines.index(PIN_LINE)
    lines[n] = "operator_pin_sha256: ccdd07c2db4c03457456322c3d16b02514cdad4cf57ce63a49a71a54ba152567"
    with pytest.raises(ConfigError) as err:
        parse_config("\n".join(lines) + "\n", "m.yaml")
    assert err.value.problems == [f"m.yaml:{n + 1}: operator_pin_sha256: the old one-round SHA-256 PIN hash is no longer "
                                  "accepted: remove this line and set a new PIN with `cabinet config pin m.yaml`"]


# -- cabinet config pin ---------------------------------------------------------------------------


def set_pin(monkeypatch, path: Path, stdin: str) -> int:
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(["config", "pin", str(path), "--pin-stdin"])


@pytest.fixture
def cheap(monkeypatch):
    """`cabinet config pin` at a test's cost (the string records it; the checks read it from there)."""
    real = pin.hash_pin
    monkeypatch.setattr(pin, "hash_pin", lambda p: real(p, n=16, r=1, p=1))


def test_config_pin_writes_a_working_pin_and_keeps_every_comment(tmp_path, monkeypatch, capsys, cheap):
    path = tmp_path / "machine.yaml"
    path.write_text(BASE.replace(PIN_LINE, PIN_LINE + "   # the hall's PIN"))
    assert set_pin(monkeypatch, path, "80861\n") == 0
    assert capsys.readouterr() == (f"{path}: operator PIN set\n", "")
    new = path.read_text()
    changed = [(a, b) for a, b in zip(BASE.splitlines(), new.splitlines(), strict=True) if a != b]
    assert len(changed) == 1 and changed[0][0] == PIN_LINE
    assert re.fullmatch(r"operator_pin: scrypt:16:1:1:[0-9a-f]{32}:[0-9a-f]{64}   # the hall's PIN", changed[0][1])
    stored = load_config(path).operator_pin
    assert pin.check("80861", stored) and not pin.check("1234", stored)
    cab = boot(tmp_path / "cab")
    menu = settings_menu(cab, stored)
    try_pin(menu, "80861", 0)
    assert menu.unlocked


def test_config_pin_replaces_the_old_sha256_line_or_adds_one(tmp_path, monkeypatch, capsys, cheap):
    old = tmp_path / "old.yaml"
    old.write_text(BASE.replace(PIN_LINE, "operator_pin_sha256: " + "ab" * 32))
    assert set_pin(monkeypatch, old, "4321\n") == 0
    assert "operator_pin_sha256" not in old.read_text() and pin.check("4321", load_config(old).operator_pin)
    none = tmp_path / "none.yaml"
    none.write_text(BASE.replace(PIN_LINE + "\n", "").rstrip("\n"))  # no newline at the end either
    assert set_pin(monkeypatch, none, "4321\n") == 0
    assert none.read_text().startswith(BASE.replace(PIN_LINE + "\n", "").rstrip("\n") + "\noperator_pin: scrypt:16:")
    assert pin.check("4321", load_config(none).operator_pin)


def test_config_pin_asks_twice_without_echo(tmp_path, monkeypatch, capsys, cheap):
    path = tmp_path / "machine.yaml"
    path.write_text(BASE)
    monkeypatch.setattr("sys.stdin", io.StringIO("2580\n"))  # not a terminal: refused, never echoed
    assert main(["config", "pin", str(path)]) == 2
    assert capsys.readouterr() == ("", "cabinet config: no terminal to ask the PIN on without echo: give it on one "
                                       "line with --pin-stdin\n")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    answers = iter(["2580", "2590"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))
    assert main(["config", "pin", str(path)]) == 2
    assert capsys.readouterr() == ("", "cabinet config: the two PINs differ: nothing changed\n")
    answers = iter(["2580", "2580"])
    assert main(["config", "pin", str(path)]) == 0
    assert pin.check("2580", load_config(path).operator_pin)


@pytest.mark.parametrize(("text", "stdin", "says"), [
    (None, "123\n", "a PIN is 4 to 8 digits (0-9)"),
    (None, "123456789\n", "a PIN is 4 to 8 digits (0-9)"),
    (None, "12a4\n", "a PIN is 4 to 8 digits (0-9)"),
    (None, "", "a PIN is 4 to 8 digits (0-9)"),
    ("seats: [4\n", "1234\n", "machine.yaml:"),
    ("- seats\n", "1234\n", "machine.yaml:1: the configuration must be a mapping of settings"),
    ("operator_pin: |\n  x\n", "1234\n", "machine.yaml:1: operator_pin: must be one line (a string), to be replaced"),
    ("operator_pin: x\noperator_pin_sha256: y\n", "1234\n", "machine.yaml:2: operator_pin_sha256: a second PIN setting"),
    ("", "1234\n", "machine.yaml: cannot read"),
])
def test_config_pin_refuses_bad_input_in_one_line(tmp_path, monkeypatch, capsys, cheap, text, stdin, says):
    path = tmp_path / "machine.yaml"
    if text != "":  # "": no file at all
        path.write_text(BASE if text is None else text)
    assert set_pin(monkeypatch, path, stdin) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("cabinet config: ") and says in err, err
    if text != "":
        assert path.read_text() == (BASE if text is None else text)  # nothing changed
