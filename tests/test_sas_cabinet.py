"""The cabinet on a SAS host, end to end: two seats on two pty links, robots playing.

A host of the tests' own (tests/sas_helpers.py) polls each seat's address on the master side of
a pty while the robots of the soak play through the simulators; every meter it reads is compared
with ``cabinet audit meters --json``, the exceptions with the games played, and what it asks
(01/02 shutdown and startup, 94, 7F) with the journal.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from hardware.sas.codec import bcd, crc_ok, from_bcd, with_crc
from hardware.sas.machine import CHIRP_AFTER

from machine.cli import main
from machine.devtools.harness import SimulatedCabinet
from machine.devtools.soak import Robot
from machine.operator.config import ConfigError, parse_config
from machine.operator.firststart import temporary
from machine.sas.rom import kermit_crc, program_bytes
from tests.e2e_helpers import ready, run_until
from tests.helpers import two_seats
from tests.sas_helpers import PtyHost, sas_children, wait_gone

pytestmark = pytest.mark.timeout(180)

ADDRESS = {1: 1, 2: 7}


def sas_config(paths: dict[int, str], *settings: str) -> str:
    links = "".join(f"\n    - {{port: {paths[n]}, address: {ADDRESS[n]}, seat: {n}}}" for n in paths)
    return two_seats("decision_timeout: 1.0", "betting_time: 2", *settings) + f"sas:\n  links:{links}\n"


def first_auto(rnd):
    return rnd.pending.options[0]


@contextlib.contextmanager
def cabinet(tmp_path: Path, *settings: str, devices_ready: bool = True) -> Iterator[tuple[SimulatedCabinet, dict[int, PtyHost]]]:
    hosts = {1: PtyHost(), 2: PtyHost()}
    cfg = temporary(parse_config(sas_config({n: h.path for n, h in hosts.items()}, *settings), "sas.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=first_auto)
    try:
        if devices_ready:
            ready(app)
        for n, h in hosts.items():  # the ports are served (the child process is up): 1A answers
            end = time.monotonic() + 60  # bounds a hang only
            while not h.long(ADDRESS[n], 0x1A):
                assert time.monotonic() < end, "the SAS port was never served"
        yield app, hosts
    finally:
        app.close()
        for h in hosts.values():
            h.close()


def audit_meters(app: SimulatedCabinet) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["audit", "meters", "--json", "--data", str(app.cfg.data_path(Path.cwd())),
                     "--key", app.cfg.memory.key_file]) == 0
    return json.loads(out.getvalue())


def play(app: SimulatedCabinet, robot: Robot, until, timeout: float = 60.0, hosts=None, seen=None) -> None:
    """Robots play until ``until()``; the hosts' general polls, between frames, gather exceptions."""
    end = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < end, "the robots did not get there"
        app.frame()
        robot.act(time.monotonic(), False)
        robot.attend(False)
        if hosts is not None:
            for n, h in hosts.items():
                code = h.general(ADDRESS[n])
                if code:
                    seen[n].append(code)
        time.sleep(0.003)


def settle(app: SimulatedCabinet) -> None:
    """No round, no payout: the meters stand still."""
    run_until(app, lambda: app.cab.round is None and not app.cab.is_paying(), timeout=30, what="the round's end")
    synced(app)


def synced(app: SimulatedCabinet) -> None:
    """One more frame, and the SAS ports serve what it sent (snapshots, exceptions)."""
    run_until(app, lambda: True)
    assert app.sas is not None
    app.sas.sync()


def games(app: SimulatedCabinet, n: int) -> int:
    return app.cab.seats[n].meters.get("games_played")


def test_config_check_refuses_duplicate_seats_addresses_out_of_range_and_missing_seats():
    base = two_seats()
    with pytest.raises(ConfigError) as err:
        parse_config(base + "sas:\n  links:\n    - {port: /dev/ttyS4, address: 0, seat: 1}\n", "m.yaml")
    assert [p for p in err.value.problems if "sas.links.0.address" in p and "greater than or equal to 1" in p]
    with pytest.raises(ConfigError) as err:
        parse_config(base + "sas:\n  links:\n    - {port: /dev/ttyS4, address: 128, seat: 1}\n", "m.yaml")
    assert len(err.value.problems) == 1 and "less than or equal to 127" in err.value.problems[0]
    with pytest.raises(ConfigError) as err:
        parse_config(base + "sas:\n  links:\n    - {port: /dev/ttyS4, address: 1, seat: 1}\n"
                     "    - {port: /dev/ttyS4, address: 1, seat: 2}\n"
                     "    - {port: /dev/ttyS5, address: 3, seat: 2}\n"
                     "    - {port: /dev/ttyS5, address: 4, seat: 3}\n", "m.yaml")
    assert err.value.problems == [
        "m.yaml:8: sas.links.1.address: address 1 on /dev/ttyS4 is already SAS link 1's (one address per machine on a port)",
        "m.yaml:9: sas.links.2.seat: seat 2 is already on SAS link 2 (a seat answers one host address)",
        "m.yaml:10: sas.links.3.seat: names seat 3, but the cabinet has 2 seats",
    ]
    cfg = parse_config(base + "sas:\n  links:\n    - {port: /dev/ttyS4, address: 1, seat: 1}\n"
                       "    - {port: /dev/ttyS4, address: 2, seat: 2}\n", "m.yaml")
    assert [(x.port, x.address, x.seat) for x in cfg.sas.links] == [("/dev/ttyS4", 1, 1), ("/dev/ttyS4", 2, 2)]


def test_the_shipped_configuration_has_no_sas_link():
    from machine.operator.config import load_config

    assert load_config(None).sas.links == []


def test_the_rom_signature_is_crc16_kermit_started_from_the_seed():
    def slow(data: bytes, crc: int) -> int:  # bit by bit, from the polynomial
        for byte in data:
            crc ^= byte
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        return crc

    data = bytes(range(256)) * 300
    for seed in (0, 1, 0x1234, 0xFFFF):
        assert kermit_crc(data, seed) == slow(data, seed)
    assert kermit_crc(bytes.fromhex("01210000")) == 0x455C  # the document's example: 5C 45 on the wire


def meter_check(host: PtyHost, address: int, seat: dict, lifetime: dict, games_enabled: list[str]) -> None:
    """Every meter poll of the mapping against the audit's figures for the seat."""
    m = lifetime.get
    want = {"cancelled": m("total_out", 0), "coin_in": m("total_bet", 0), "coin_out": m("total_won", 0),
            "drop": m("total_in", 0), "jackpot": m("handpay_out", 0), "games_played": m("games_played", 0),
            "games_won": m("games_won", 0), "games_lost": m("games_lost", 0)}
    assert host.meters(address, 0x1A, (4,)) == [seat["credit"] + seat["club"]]
    assert host.meters(address, 0x0F, (4,) * 6) == [want[k] for k in ("cancelled", "coin_in", "coin_out", "drop",
                                                                        "jackpot", "games_played")]
    for command, name in zip(range(0x10, 0x18), ("cancelled", "coin_in", "coin_out", "drop", "jackpot", "games_played",
                                                 "games_won", "games_lost"), strict=True):
        assert host.meters(address, command, (4,)) == [want[name]], hex(command)
    assert host.meters(address, 0x19, (4,) * 5) == [want[k] for k in ("coin_in", "coin_out", "drop", "jackpot",
                                                                        "games_played")]
    assert host.meters(address, 0x2A, (4,)) == [m("total_in", 0)]  # true coin in: the coins
    assert host.meters(address, 0x2B, (4,)) == [m("hopper_out", 0)]  # true coin out: the hopper's
    assert host.meters(address, 0x20, (4,)) == [0]  # no notes yet
    assert host.meters(address, 0x51, (2,)) == [len(games_enabled)]
    reply = host.long(address, 0x1F)  # the game in force, the denomination: EUR 0.10 is code 03
    assert crc_ok(reply) and reply[2:4] == b"BJ" and reply[7] == 0x03
    for number, game in enumerate(games_enabled, start=1):
        reply = host.long(address, 0x53, bcd(number, 2))
        assert crc_ok(reply) and reply[4:6] == b"BJ" and reply[6:9] == f"{number:03d}".encode(), reply.hex()
        reply = host.long(address, 0x52, bcd(number, 2))
        assert crc_ok(reply) and reply[2:4] == bcd(number, 2)
        assert [from_bcd(reply[4 + 4 * i:8 + 4 * i]) for i in range(4)] == [
            m(f"total_bet:{game}", 0), m(f"total_won:{game}", 0), 0, m(f"games_played:{game}", 0)]
        codes = bytes((0x00, 0x01, 0x05, 0x0C))
        reply = host.long(address, 0x2F, bytes((2 + len(codes),)) + bcd(number, 2) + codes)
        assert crc_ok(reply) and reply[3:5] == bcd(number, 2), reply.hex()
        body = reply[5:-2]
        got = {body[i]: from_bcd(body[i + 1:i + 5]) for i in range(0, len(body), 5)}
        assert got == {0x00: m(f"total_bet:{game}", 0), 0x01: m(f"total_won:{game}", 0),
                       0x05: m(f"games_played:{game}", 0), 0x0C: 0}
    reply = host.long(address, 0x56)  # the game numbers
    assert crc_ok(reply) and reply[3] == len(games_enabled)
    assert [from_bcd(reply[4 + 2 * i:6 + 2 * i]) for i in range(len(games_enabled))] == list(range(1, len(games_enabled) + 1))
    for command, size in ((0x1E, 6 * 4), (0x46, 4), *((c, 4) for c in range(0x31, 0x38))):  # no notes yet: zeros
        assert host.meters(address, command, (size,)) == [0], hex(command)
    reply = host.long(address, 0x48)
    assert crc_ok(reply) and reply[2:-2] == bytes(6)  # no note accepted yet: country, denomination, count
    # 6F: ten digits each, the seat's meters by two-byte code; a code not kept has size 0
    wide = (0x00, 0x01, 0x02, 0x04, 0x05, 0x0C, 0x22, 0x24, 0x1234)
    body = b"".join(c.to_bytes(2, "little") for c in wide)
    reply = host.long(address, 0x6F, bytes((2 + len(body),)) + bcd(0, 2) + body)
    assert crc_ok(reply), reply.hex()
    extended: dict[int, int | None] = {}
    at = 5
    while at < len(reply) - 2:
        code, size = int.from_bytes(reply[at:at + 2], "little"), reply[at + 2]
        extended[code] = from_bcd(reply[at + 3:at + 3 + size]) if size else None
        at += 3 + size
    assert extended == {0x00: want["coin_in"], 0x01: want["coin_out"], 0x02: want["jackpot"], 0x04: want["cancelled"],
                   0x05: want["games_played"], 0x0C: seat["credit"] + seat["club"],
                   0x22: want["coin_out"] + want["jackpot"], 0x24: want["drop"], 0x1234: None}
    reply = host.long(address, 0xA0, bcd(0, 2))  # features: meters when won, extended meters; no AFT
    assert crc_ok(reply) and reply[4:8] == bytes((0x00, 0x09, 0x00, 0x00)), reply.hex()
    reply = host.long(address, 0x3D)  # tickets: validation not configured
    assert crc_ok(reply) and reply[2:-2] == bytes(len(reply) - 4)
    codes = bytes((0x00, 0x01, 0x02, 0x04, 0x05, 0x06, 0x07, 0x0C, 0x24))
    reply = host.long(address, 0x2F, bytes((2 + len(codes),)) + bcd(0, 2) + codes)
    body = reply[5:-2]
    got = {body[i]: from_bcd(body[i + 1:i + 5]) for i in range(0, len(body), 5)}
    assert got == {0x00: want["coin_in"], 0x01: want["coin_out"], 0x02: want["jackpot"], 0x04: want["cancelled"],
                   0x05: want["games_played"], 0x06: want["games_won"], 0x07: want["games_lost"],
                   0x0C: seat["credit"] + seat["club"], 0x24: want["drop"]}


# slow: the robots play whole games in real time on the simulators while two hosts poll every meter
def test_two_seats_on_two_links_every_meter_poll_is_the_audits_and_each_game_raises_7e_and_7f(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        seen: dict[int, list[int]] = {1: [], 2: []}
        robot = Robot(app, random.Random(3))
        play(app, robot, lambda: min(games(app, 1), games(app, 2)) >= 3, hosts=hosts, seen=seen)
        settle(app)
        for n, h in hosts.items():  # what is still queued
            while code := h.general(ADDRESS[n]):
                seen[n].append(code)
        report = audit_meters(app)
        assert report["problems"] == []
        for n, h in hosts.items():
            seat = report["seats"][str(n)]
            assert seat["meters"]["lifetime"]["games_played"] >= 3
            meter_check(h, ADDRESS[n], seat, seat["meters"]["lifetime"], app.cfg.games_enabled)
            played = seat["meters"]["lifetime"]["games_played"]
            assert seen[n][0] == 0x17  # power applied, first start: no power lost before it
            assert seen[n].count(0x7E) == played and seen[n].count(0x7F) == played
            # 18: the seat's games since power-up and since the door closed (it never opened)
            assert h.meters(ADDRESS[n], 0x18, (2, 2)) == [played, played]
            assert h.meters(ADDRESS[n], 0x55, (2,)) == [app.cfg.games_enabled.index(app.cab.profile.game) + 1]
        # 21: one program, one signature on every seat for a seed; another for another seed
        for seed in (0x0000, 0xBEEF):
            want = kermit_crc(program_bytes(), seed).to_bytes(2, "little")
            for n, h in hosts.items():
                reply = h.long(ADDRESS[n], 0x21, seed.to_bytes(2, "little"))
                if reply == bytes((ADDRESS[n],)):  # acknowledged: delivered on a later general poll
                    end = time.monotonic() + 30  # (once it is computed: a loaded machine may take a while)
                    while reply[:2] != bytes((ADDRESS[n], 0x21)) and time.monotonic() < end:
                        time.sleep(0.05)
                        h.send(bytes((0x80 | ADDRESS[n],)))
                        reply = h.recv()
                assert reply == reply[:2] + want + reply[-2:] and crc_ok(reply) and reply[:2] == bytes((ADDRESS[n], 0x21))
        reply = hosts[2].long(7, 0x54)
        assert crc_ok(reply) and reply[3:6] == b"602" and reply[6:-2].decode().endswith("-2")


def events(app: SimulatedCabinet) -> list[str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["audit", "events", "--data", str(app.cfg.data_path(Path.cwd())), "--key", app.cfg.memory.key_file])
    return out.getvalue().splitlines()


# slow: the robots play in real time on the simulators around the shutdown and the startup
def test_01_shuts_a_seat_down_while_the_robots_play_and_02_starts_it_up_again(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        robot = Robot(app, random.Random(5))
        play(app, robot, lambda: min(games(app, 1), games(app, 2)) >= 1)
        assert hosts[1].long(1, 0x01) == b"\x01"  # acknowledged
        run_until(app, lambda: app.cab.seats[1].host_disabled, what="the shutdown")
        stopped_at = games(app, 1) + (1 if app.cab.in_round(1) else 0)  # a round already dealt plays out
        others = games(app, 2)
        play(app, robot, lambda: games(app, 2) >= others + 3)
        settle(app)
        assert games(app, 1) == stopped_at  # no new round on the shut-down seat, the other played on
        assert not app.cab.may_take_coins(1) and not {"start", "+2", "+10", "x2", "repeat", "max"} & set(app.cab.live(1))
        synced(app)
        with app.lock:
            money = app.cab.seats[1].money
        assert hosts[1].meters(1, 0x1A, (4,)) == [money.credit + money.club]  # 1A still answers
        from machine.display.view import build_view

        with app.lock:
            assert build_view(app.cab, time.monotonic()).seats[0].message == "Out of service"
        assert hosts[1].long(1, 0x02) == b"\x01"
        run_until(app, lambda: not app.cab.seats[1].host_disabled, what="the startup")
        play(app, robot, lambda: games(app, 1) >= stopped_at + 2)
        lines = events(app)
        off = [x for x in lines if "host_disabled" in x]
        on = [x for x in lines if "host_enabled" in x]
        assert len(off) == 1 and "seat 1" in off[0] and "disabled by the host" in off[0]
        assert len(on) == 1 and "seat 1" in on[0] and "enabled by the host" in on[0]


def test_noise_bad_crcs_and_other_addresses_change_nothing(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        h = hosts[1]
        while h.general(1):
            pass
        before = h.meters(1, 0x0F, (4,) * 6)
        h.send(bytes((0x01, 0x01, 0x00, 0x00)))  # 01 with a wrong CRC: silence, and no shutdown
        assert h.recv(timeout=0.2) == b""
        h.send(bytes((0x02, 0x01)) + bytes.fromhex("ffff"))  # another address's shutdown: not ours
        assert h.recv(timeout=0.2) == b""
        h.send(bytes((0x80,)))  # the global poll some hosts send first
        h.send(bytes.fromhex("7a55ee0134"))  # noise
        # the machine waits for a quiet line, then listens again: polled until it answers (on a
        # loaded machine its wait may end later than any fixed pause)
        end = time.monotonic() + 30
        while not h.long(1, 0x1A):
            assert time.monotonic() < end, "the machine never listened again after the noise"
        h.drain()
        for _ in range(20):
            run_until(app, lambda: True)
        assert not app.cab.seats[1].host_disabled and not app.cab.seats[2].host_disabled
        assert h.meters(1, 0x0F, (4,) * 6) == before
        assert h.general(1) == 0
        assert [x for x in events(app) if "host_" in x] == []


def test_94_resets_the_real_handpay_and_7f_sets_the_clock_without_moving_a_timer(tmp_path):
    with cabinet(tmp_path, "payout: handpay") as (app, hosts):
        h = hosts[1]
        while h.general(1):
            pass
        assert h.long(1, 0x94, crc=True)[:3] == bytes((1, 0x94, 0x02))  # no handpay pending
        app.sims.bus.control.coin(2, "EU200A")
        run_until(app, lambda: app.cab.seats[1].money.credit == 20, what="the coin")
        app.sims.panel.tap(1, "collect")
        run_until(app, lambda: app.cab.seats[1].lock == "handpay", what="the handpay")
        synced(app)
        assert h.general(1) == 0x51
        reply = h.long(1, 0x94, crc=True)
        assert reply[:3] == bytes((1, 0x94, 0x00)) and crc_ok(reply)
        run_until(app, lambda: app.cab.seats[1].lock is None, what="the remote reset")
        synced(app)
        assert h.general(1) == 0x52
        assert app.cab.seats[1].meters.get("handpay_out") == 20
        assert h.meters(1, 0x14, (4,)) == [20] and h.meters(1, 0x10, (4,)) == [20]  # jackpot, cancelled credits
        timers = (app.cab.core.state.row.betting_since, app.cab.core.state.row.decision_since)
        when = datetime(2031, 7, 4, 13, 45, 30)
        assert h.long(1, 0x7F, bcd(7042031, 4) + bcd(134530, 3)) == b"\x01"
        run_until(app, lambda: any("clock set by the host" in x for x in events(app)), what="the journaled clock")
        reply = h.long(1, 0x7E)
        got = datetime.strptime(f"{from_bcd(reply[2:6]):08d}{from_bcd(reply[6:9]):06d}", "%m%d%Y%H%M%S")
        assert 0 <= (got - when).total_seconds() < 5
        assert (app.cab.core.state.row.betting_since, app.cab.core.state.row.decision_since) == timers


# slow: the robots play in real time on the simulators while the hosts poll, one of them silent long enough
# to be chirped at
def test_the_door_reaches_every_seat_and_a_host_that_vanishes_is_chirped_at_then_answered(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        for n, h in hosts.items():
            while h.general(ADDRESS[n]):
                pass
        app.sims.panel.set_door(True)
        run_until(app, lambda: app.panel.door_open, what="the door")
        run_until(app, lambda: "door" in app.cab.pauses, what="the pause")
        app.sims.panel.set_door(False)
        run_until(app, lambda: "door" not in app.cab.pauses, what="the door closed")
        synced(app)
        quiet_since = 0.0
        for n, h in hosts.items():
            codes = [h.general(ADDRESS[n]) for _ in range(2)]
            quiet_since = time.monotonic() if n == 1 else quiet_since  # (before host 1's last poll went out)
            assert [*codes, h.general(ADDRESS[n])] == [0x11, 0x12, 0]
        # the host goes quiet: after 5 s the machine chirps its address every 200 ms. Heard until
        # three chirps came (not for a fixed time: on a loaded machine they may come late), and
        # none of them earlier than 5 s after the last poll.
        heard, heard_2, first = b"", b"", None
        end = time.monotonic() + 60
        while len(heard) < 3 or not heard_2:
            assert time.monotonic() < end, (heard, heard_2)
            run_until(app, lambda: True)
            time.sleep(0.02)
            heard += hosts[1].drain()
            heard_2 += hosts[2].drain()
            first = time.monotonic() if heard and first is None else first
        assert first is not None and first - quiet_since >= CHIRP_AFTER
        assert set(heard) == {1} and set(heard_2) == {7}
        # back: answered at once (a chirp sent just before the poll got there comes first, as a
        # host sees it, and is passed over)
        hosts[1].send(b"\x81")
        assert hosts[1].recv().lstrip(b"\x01") == b"\x00"
        assert hosts[1].meters(1, 0x15, (4,)) == [0]
        time.sleep(0.5)
        assert hosts[1].drain() == b""  # polled again: no more chirps


# slow: a real cabinet process plays its rounds in real time, then stays up answering SAS until SIGTERM
@pytest.mark.timeout(400)
def test_run_headless_stay_answers_sas_after_the_rounds_until_sigterm_then_checks_the_accounts(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    host = PtyHost()
    try:
        config = tmp_path / "machine.yaml"
        config.write_text(sas_config({1: host.path}))
        root = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": root}
        proc = subprocess.Popen([sys.executable, "-m", "machine", "run", "--config", str(config), "--headless",
                                 "--rounds", "2", "--stay"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env, cwd=tmp_path)
        try:
            end = time.monotonic() + 300
            line = ""
            assert proc.stderr is not None
            while "staying up idle" not in line:  # the rounds are played
                assert time.monotonic() < end and proc.poll() is None, proc.stderr.read()
                line = proc.stderr.readline()
            time.sleep(0.5)
            host.drain()
            played = host.meters(1, 0x15, (4,))[0]
            credits = host.meters(1, 0x1A, (4,))[0]
            time.sleep(1.0)
            assert host.meters(1, 0x15, (4,)) == [played]  # idle: nothing moves
            assert proc.poll() is None  # still up
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
        assert proc.returncode == 0, out
        assert out.splitlines()[-1] == "every meter and coin accounted for"
        seat1 = next(x for x in out.splitlines() if x.startswith("seat 1:"))
        assert f"lifetime: {played} games" in seat1 and played >= 2
        assert f"credit {credits}, club 0" in seat1
    finally:
        host.close()


def drain_exceptions(h: PtyHost, address: int) -> list[int]:
    got = []
    while code := h.general(address):
        got.append(code)
    return got


def test_tilts_options_and_a_restart_raise_their_exceptions_on_the_seat_they_concern(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        cab, sims = app.cab, app.sims
        for n, h in hosts.items():
            assert drain_exceptions(h, ADDRESS[n]) == [0x17]  # a first start: power applied, nothing lost
        sims.bus.control.coin(2, "EU200A", 5)
        run_until(app, lambda: cab.seats[1].money.credit == 100, what="coins")
        sims.bus.control.fault(3, "empty", 4)  # the hopper runs dry after 4 coins
        sims.panel.tap(1, "collect")
        run_until(app, lambda: cab.seats[1].lock == "tilt", timeout=30, what="the hopper fault")
        sims.bus.control.coin_error(11, 20)  # seat 2: a coin on a string
        run_until(app, lambda: cab.seats[2].lock == "tilt", what="the fraud tilt")
        with app.lock:
            cab.change_setting("betting_time", 5.0, "operator")
        synced(app)
        assert drain_exceptions(hosts[1], 1) == [0x23, 0x3C]  # hopper empty; operator changed options
        assert drain_exceptions(hosts[2], 7) == [0x2D, 0x3C]  # reverse coin-in (fraud); the options
    with cabinet(tmp_path, devices_ready=False) as (app, hosts):  # the same journal again: down in between
        for n, h in hosts.items():
            assert drain_exceptions(h, ADDRESS[n]) == [0x18, 0x17]
        assert hosts[1].meters(1, 0x18, (2, 2)) == [0, 0]  # no game since this power-up


def handpay_reply(address: int, points: int) -> bytes:
    """1B as the document lays it out: progressive group 00, level 80 (cancelled credits), the
    amount in credits (5 BCD), partial pay 0000, reset id 00 (the standard reset), ten unused bytes;
    all zeros without a handpay."""
    body = bytes((0x00, 0x80)) + bcd(points, 5) + bcd(0, 2) + b"\x00" + bytes(10) if points else bytes(20)
    return with_crc(bytes((address, 0x1B)) + body)


def test_1b_tells_the_host_the_journaled_handpay_and_again_after_a_restart_until_it_is_reset(tmp_path):
    with cabinet(tmp_path, "payout: handpay") as (app, hosts):
        h = hosts[1]
        assert drain_exceptions(h, 1) == [0x17]
        assert h.long(1, 0x1B) == handpay_reply(1, 0)  # none pending: zeros
        app.sims.bus.control.coin(2, "EU200A", 3)
        run_until(app, lambda: app.cab.seats[1].money.credit == 60, what="the coins")
        app.sims.panel.tap(1, "collect")
        run_until(app, lambda: app.cab.seats[1].lock == "handpay", what="the handpay")
        synced(app)
        assert app.cab.seats[1].handpay_owed == 60
        assert h.general(1) == 0x51
        assert h.long(1, 0x1B) == handpay_reply(1, 60)  # 60 points, as the meters count
        assert h.long(1, 0x1B) == handpay_reply(1, 60)  # a read changes nothing
        assert hosts[2].long(7, 0x1B) == handpay_reply(7, 0)  # the other seat has none
        h.send(bytes((2, 0x1B)))  # another address's 1B: not ours
        assert h.recv(timeout=0.2) == b""
        assert h.general(1) == 0
    with cabinet(tmp_path, "payout: handpay", devices_ready=False) as (app, hosts):  # down in between
        h = hosts[1]
        assert drain_exceptions(h, 1) == [0x51, 0x18, 0x17]  # still locked in it: 51 again, first
        assert drain_exceptions(hosts[2], 7) == [0x18, 0x17]
        assert h.long(1, 0x1B) == handpay_reply(1, 60)  # from the journal
        reply = h.long(1, 0x94, crc=True)
        assert reply == with_crc(bytes((1, 0x94, 0x00)))
        run_until(app, lambda: app.cab.seats[1].lock is None, what="the remote reset")
        synced(app)
        assert h.general(1) == 0x52
        assert h.long(1, 0x1B) == handpay_reply(1, 0)
        assert h.meters(1, 0x14, (4,)) == [60]


def test_the_clock_the_host_set_with_7f_is_in_force_again_after_a_restart(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        h = hosts[1]
        drain_exceptions(h, 1)
        assert h.long(1, 0x7F, bcd(7042031, 4) + bcd(134530, 3)) == b"\x01"
        run_until(app, lambda: sum("clock set by the host" in x for x in events(app)) == 1, what="the first")
        set_at = time.time()
        assert h.long(1, 0x7F, bcd(12252029, 4) + bcd(80000, 3)) == b"\x01"  # the last one is in force
        run_until(app, lambda: sum("clock set by the host" in x for x in events(app)) == 2, what="the second")
    when = datetime(2029, 12, 25, 8, 0, 0)
    with cabinet(tmp_path, devices_ready=False) as (app, hosts):  # no 7F since
        for n, address in ADDRESS.items():  # one clock for the cabinet: every seat reads it
            reply = hosts[n].long(address, 0x7E)
            read_at = time.time()
            assert crc_ok(reply) and reply[:2] == bytes((address, 0x7E)), reply.hex()
            got = datetime.strptime(f"{from_bcd(reply[2:6]):08d}{from_bcd(reply[6:9]):06d}", "%m%d%Y%H%M%S")
            late = (got - when).total_seconds() - (read_at - set_at)  # the host's time moved on as the wall did
            # Short by the time from the reply to the record's write (the offset is kept as the host's
            # time less the record's), which a loaded machine can stretch; without the offset kept
            # the clock would read the wall's time, years off.
            assert -15 < late <= 1, (got, read_at - set_at)


def test_a_pty_link_the_cabinet_makes_survives_a_host_that_closes_and_reopens_it(tmp_path):
    import os
    import tty

    path = tmp_path / "sas1"
    cfg = temporary(parse_config(two_seats() + f"sas:\n  links:\n    - {{port: 'pty://{path}', address: 3, seat: 2}}\n",
                                 "sas.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=first_auto)
    try:
        end = time.monotonic() + 20
        while not path.exists():
            assert time.monotonic() < end
            run_until(app, lambda: True)
        for _ in range(3):  # open, poll, close: as some hosts do between polls
            fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
            tty.setraw(fd)
            os.write(fd, bytes((3, 0x1A)))
            reply = b""
            end = time.monotonic() + 30  # bounds a hang only
            while len(reply) < 8 and time.monotonic() < end:
                reply += os.read(fd, 64)
            assert reply == with_crc(bytes((3, 0x1A)) + bcd(0, 4))
            os.close(fd)
    finally:
        app.close()


# the meters that only ever grow, as the host reads them in 0F
GROWING = ("cancelled", "coin_in", "coin_out", "drop", "jackpot", "games_played")


# slow: three starts of the real cabinet process, each polled for 1-4 s of play then SIGKILLed
@pytest.mark.timeout(400)
def test_meters_the_host_read_before_a_kill_are_never_higher_than_it_reads_after(tmp_path):
    import os
    import signal
    import subprocess
    import sys

    host = PtyHost()
    rng = random.Random(25)
    try:
        config = tmp_path / "machine.yaml"
        config.write_text(sas_config({1: host.path}) + f"memory: {{key_file: {tmp_path}/key/machine.key, "
                          f"head_stores: [{tmp_path}/heads]}}\n")
        root = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": root}
        seen: dict[str, int] = dict.fromkeys(GROWING, 0)
        for kill in range(3):
            proc = subprocess.Popen([sys.executable, "-m", "machine", "run", "--config", str(config), "--headless",
                                     "--rounds", "200", "--data", str(tmp_path / "data")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=tmp_path)
            try:
                end = time.monotonic() + 120
                first = None
                while first is None:  # the restarted cabinet answers: never below what was read before
                    assert time.monotonic() < end and proc.poll() is None
                    host.drain()
                    reply = host.long(1, 0x0F)
                    if len(reply) == 28 and crc_ok(reply):
                        first = dict(zip(GROWING, (from_bcd(reply[2 + 4 * i:6 + 4 * i]) for i in range(6)), strict=True))
                for k in GROWING:
                    assert first[k] >= seen[k], (kill, k, first[k], seen[k])
                stop = time.monotonic() + rng.uniform(1.0, 4.0)
                while time.monotonic() < stop:
                    reply = host.long(1, 0x0F)
                    if len(reply) == 28 and crc_ok(reply):
                        seen = dict(zip(GROWING, (from_bcd(reply[2 + 4 * i:6 + 4 * i]) for i in range(6)), strict=True))
                sas = sas_children(proc.pid)
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            assert len(sas) == 1
            wait_gone(sas)  # the SAS child sees its input close and ends (the next one's port is its own)
        assert seen["games_played"] > 0
    finally:
        host.close()


def test_real_time_reporting_carries_each_games_stake_coin_in_and_return_from_the_journal(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        h = hosts[2]
        drain_exceptions(h, 7)
        assert h.long(7, 0x0E, b"\x01", crc=True) == b"\x07"  # real-time event reporting on
        robot = Robot(app, random.Random(9))
        frames: list[bytes] = []
        end = time.monotonic() + 60
        while sum(1 for f in frames if f[2] == 0x7F) < 2:
            assert time.monotonic() < end
            app.frame()
            robot.act(time.monotonic(), False)
            robot.attend(False)
            h.send(b"\x87")
            reply = h.recv(quiet=0.01)
            if reply and reply[0] == 7 and len(reply) > 1:
                assert reply[1] == 0xFF and crc_ok(reply), reply.hex()
                frames.append(reply)
            time.sleep(0.003)
        games_of_seat = [r.data for r in app.cab.journal.records("game", seat=2)]
        starts = [r.data for r in app.cab.journal.records("round_start") if "2" in r.data["bets"]]
        started = [f for f in frames if f[2] == 0x7E]
        ended = [f for f in frames if f[2] == 0x7F]
        assert len(started) >= 2 and len(ended) >= 2
        for frame, start in zip(started, starts, strict=False):
            assert from_bcd(frame[3:5]) == start["bets"]["2"] and from_bcd(frame[5:9]) > 0
        for frame, game in zip(ended, games_of_seat, strict=False):
            assert from_bcd(frame[3:7]) == game["seat"]["returned"]


def test_a_ram_clear_raises_7a_and_the_meters_the_host_reads_start_again_from_zero(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        robot = Robot(app, random.Random(11))
        play(app, robot, lambda: games(app, 1) >= 1)
        settle(app)
        drain_exceptions(hosts[1], 1)
        assert hosts[1].meters(1, 0x15, (4,))[0] >= 1
        with app.lock:
            app.cab.ram_clear("operator")
        synced(app)
        assert drain_exceptions(hosts[1], 1) == [0x7A]
        assert hosts[1].meters(1, 0x0F, (4,) * 6) == [0] * 6
        assert hosts[1].meters(1, 0x18, (2, 2)) == [0, 0]


def test_a_seat_the_host_shut_down_takes_no_bet_coin_or_round_keeps_its_round_and_stays_down_over_a_restart(tmp_path):
    from tests.cabinet_helpers import boot, stacked_shoes

    cab = boot(tmp_path, stacked_shoes("9S TS 6H 7S 8D 4C TC 9C"))
    for n in (1, 2):
        assert cab.coin(n, "EU200A", now=0)
    assert cab.press(1, "+2", 1.0) and cab.press(2, "+2", 1.0)
    assert cab.press(2, "start", 1.5)
    assert cab.host_control(1, False, 2.0) and not cab.host_control(1, False, 2.1)  # once: journaled once
    assert not cab.may_take_coins(1) and cab.may_take_coins(2)
    assert not cab.press(1, "start", 2.2) and not cab.press(1, "+2", 2.2)  # no bet, no Start
    cab.tick(40.0)  # the betting time runs out: the round starts without the shut-down seat's bet
    assert cab.round is not None and not cab.in_round(1) and cab.in_round(2)
    assert cab.seats[1].money.bet == 2  # its bet stays on its meter (Collect gives it back)
    cab.journal.close()
    again = boot(tmp_path, stacked_shoes("2S 2D 2H 2C"))
    assert again.seats[1].host_disabled and not again.seats[2].host_disabled
    assert again.host_control(1, True, 0.0) and again.may_take_coins(1)
    events = [r.data["event"] for r in again.journal.records("event", seat=1)]
    assert events.count("host_disabled") == 1 and events.count("host_enabled") == 1
    again.journal.close()
