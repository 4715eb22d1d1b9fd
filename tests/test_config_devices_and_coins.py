"""What a configuration file must say outright (refused by ``config check`` and by every command
that loads it, naming file, line and field): its devices (never simulated ones by default), a coin
acceptor for every seat, and coin points that come to each coin's face value at the denomination."""

from __future__ import annotations

from pathlib import Path

import pytest

from machine.cli import main
from machine.operator.config import face_value, parse_config

BASE = (Path(__file__).resolve().parents[1] / "config" / "machine.yaml").read_text()
SAY = "write the devices the cabinet drives, e.g. `devices: {bus: sim, panel: sim}` for the simulators"


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


def refused(tmp_path: Path, capsys, text: str, argv: tuple[str, ...] = ("config", "check")) -> list[str]:
    """The lines ``cabinet`` refuses the file with (nothing on standard output, status 2)."""
    path = tmp_path / "machine.yaml"
    path.write_text(text)
    args = [*argv, str(path)] if argv == ("config", "check") else [*argv, "--config", str(path)]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.replace(f"cabinet {argv[0]}: ", "").replace(str(path), "F").splitlines()


@pytest.mark.parametrize("text", ["", "# nothing set\n"])
def test_an_empty_file_is_refused_not_taken_for_simulated_devices(tmp_path, capsys, text):
    assert refused(tmp_path, capsys, text) == [f"F:1: the configuration is empty: {SAY}"]


def test_a_file_without_devices_is_refused_by_check_and_by_run(tmp_path, capsys):
    text = BASE[: BASE.index("devices:")]  # everything else as shipped
    assert refused(tmp_path, capsys, text) == [f"F:1: devices: missing: {SAY}"]
    assert refused(tmp_path, capsys, text, ("run", "--headless")) == [f"F:1: devices: missing: {SAY}"]
    assert parse_config(text + "devices: {bus: sim, panel: sim}\n", "m.yaml").devices.bus == "sim"  # said: fine


def test_a_seat_without_a_coin_acceptor_is_refused(tmp_path, capsys):
    text = BASE.replace("acceptors: {1: 2, 2: 11, 3: 12, 4: 13}", "acceptors: {1: 2, 2: 11, 4: 13}")
    n = line_of(text, "  acceptors:")
    assert refused(tmp_path, capsys, text) == [
        f"F:{n}: devices.acceptors: seat 3 has no coin acceptor (every seat takes its coins through its own: seat -> address)"
    ]


def test_the_coin_ids_name_their_face_value_in_cents():
    assert [face_value(c) for c in ("EU050A", "EU100A", "EU200A", "GB020B", "X.5", "EU1000")] == [50, 100, 200, 20, None, None]


def test_a_denomination_changed_without_the_coin_points_is_refused_at_each_coin(tmp_path, capsys):
    text = BASE.replace("denomination_cents: 10", "denomination_cents: 25")  # a EUR 1 coin would be 250 cents
    assert refused(tmp_path, capsys, text) == [
        f"F:{line_of(text, '  EU050A:')}: coins.EU050A: 5 points x denomination_cents 25 = 125 cents, but EU050A is a "
        "50 cent coin: 2 points at this denomination",
        f"F:{line_of(text, '  EU100A:')}: coins.EU100A: 10 points x denomination_cents 25 = 250 cents, but EU100A is a "
        "100 cent coin: 4 points at this denomination",
        f"F:{line_of(text, '  EU200A:')}: coins.EU200A: 20 points x denomination_cents 25 = 500 cents, but EU200A is a "
        "200 cent coin: 8 points at this denomination",
        f"F:{line_of(text, 'hopper_coin:')}: hopper_coin: 10 points x denomination_cents 25 = 250 cents, which is none "
        "of the coins (EU050A 50, EU100A 100, EU200A 200 cents)",
    ]
    # the denomination with every coin's points (and the hopper coin) at it passes
    fixed = text.replace("EU050A: 5", "EU050A: 2").replace("EU100A: 10", "EU100A: 4").replace("EU200A: 20", "EU200A: 8")
    assert parse_config(fixed.replace("hopper_coin: 10 ", "hopper_coin: 4 "), "m.yaml").denomination_cents == 25


def test_a_coin_worth_no_whole_number_of_points_is_refused(tmp_path, capsys):
    text = BASE.replace("denomination_cents: 10", "denomination_cents: 20").replace("EU100A: 10", "EU100A: 5")
    text = text.replace("EU200A: 20", "EU200A: 10").replace("hopper_coin: 10 ", "hopper_coin: 5 ")
    assert refused(tmp_path, capsys, text) == [
        f"F:{line_of(text, '  EU050A:')}: coins.EU050A: 5 points x denomination_cents 20 = 100 cents, but EU050A is a "
        "50 cent coin: no whole number of points at this denomination",
    ]


LINK_SAY = ("missing: name the link (there is no default device): a device path (/dev/ttyUSB0), a URL "
            "(socket://HOST:PORT), or sim for its simulator")


def test_devices_with_no_links_is_refused_naming_each_missing_link(tmp_path, capsys):
    text = BASE[: BASE.index("devices:")] + "devices: {}\n"
    n = line_of(text, "devices:")
    assert refused(tmp_path, capsys, text) == [f"F:{n}: devices.panel: {LINK_SAY}", f"F:{n}: devices.bus: {LINK_SAY}"]


def test_a_real_bus_is_never_paired_with_a_simulated_panel_by_default(tmp_path, capsys):
    text = BASE[: BASE.index("devices:")] + "devices: {bus: /dev/ttyUSB9}\n"
    assert refused(tmp_path, capsys, text) == [f"F:{line_of(text, 'devices:')}: devices.panel: {LINK_SAY}"]


def test_a_link_no_backend_serves_is_refused_at_its_line(tmp_path, capsys):
    text = BASE.replace("  bus: sim ", "  bus: sock://10.0.0.2:7 ").replace("  panel: sim ", "  panel: ttyUSB0 ")
    accepted = ("a device path (/dev/ttyUSB0), serial:///dev/ttyUSB0, socket://HOST:PORT, rfc2217://HOST:PORT, loop://, "
                "pty:///PATH, ninebit:///dev/ttyS0, listen://HOST:PORT, or sim (the simulators)")
    assert refused(tmp_path, capsys, text) == [
        f"F:{line_of(text, '  panel:')}: devices.panel: ttyUSB0: neither a device path nor a URL, the links are {accepted}",
        f"F:{line_of(text, '  bus:')}: devices.bus: sock://10.0.0.2:7: no backend for sock://, the links are {accepted}",
    ]


@pytest.mark.parametrize("bus", ["/dev/ttyUSB0", "serial:///dev/ttyUSB0", "socket://127.0.0.1:7001", "sim", "sim://"])
def test_every_link_a_backend_serves_is_accepted(bus):
    text = BASE.replace("  bus: sim ", f"  bus: {bus} ")
    assert parse_config(text, "m.yaml").devices.bus == bus
