"""Cashless transfers end to end: the project's SAS host (hardware/sas/host.py) on a pty, the
cabinet's child serving it, the core journaling each transfer before the machine calls it done.

In, out, a replay answered with its first result, over the operator's limits, out more than the
credit, AFT off, the meters (audit and SAS 6F's A0/A1/B8/B9), the seat's screen, and a kill at
every journal step of a transfer (never applied twice, never lost, finished at the next start).
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hardware.sas.codec import from_bcd
from hardware.sas.host import SasHost, aft_interrogate_poll, aft_transfer_poll, long_poll, parse_aft_transfer

from machine.core.aft import AftLimits
from machine.display.view import build_view
from machine.i18n import Money, Words
from machine.operator.config import ConfigError, parse_config
from tests.helpers import two_seats
from tests.test_sas_cabinet import audit_meters, cabinet, events, synced

pytestmark = pytest.mark.timeout(180)

AFT = ("aft:\n  enabled: true\n  transfer_in_limit: 100\n  daily_in_limit: 140\n  transfer_out_limit: 40\n"
       "  assets: {1: 1001, 2: 1002}\n")


class MasterLink:
    """The host's end of a test pty as the project's host reads and writes a link."""

    def __init__(self, fd: int) -> None:
        self.fd = fd

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def read(self, size: int, timeout: float) -> bytes:
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return b""
        with contextlib.suppress(BlockingIOError):
            return os.read(self.fd, size)
        return b""


def transfer(app, host: SasHost, tid: str, cents: int, to_seat: bool = True, asset: int = 1001,
             partial: bool = False):
    """72 as the host sends it; while the answer is pending the cabinet's frames run (it journals
    the transfer), then the host interrogates until it is no longer pending."""
    reply = parse_aft_transfer(host.exchange(aft_transfer_poll(1, tid, cents, to_seat=to_seat, asset=asset,
                                                               partial=partial), 0x72).data)
    end = time.monotonic() + 60  # bounds a hang only
    while reply.status == 0x40:
        assert time.monotonic() < end, "the transfer stayed pending"
        app.frame()
        app.sas.sync()
        reply = parse_aft_transfer(host.exchange(aft_interrogate_poll(1), 0x72).data)
    return reply


def aft_meters(host: SasHost) -> list[int]:
    """6F's A0, A1, B8, B9 of the whole seat (game 0)."""
    codes = bytes.fromhex("a000a100b800b900")
    reply = host.exchange(long_poll(1, 0x6F, bytes((2 + len(codes),)) + bytes(2) + codes), 0x6F)
    body, out = reply.data[2:], []
    while body:
        size = body[2]
        out.append(from_bcd(body[3:3 + size]))
        body = body[3 + size:]
    return out


def test_in_out_replay_limits_credit_screen_meters_and_events(tmp_path):
    with cabinet(tmp_path, AFT) as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=5.0)
        first = transfer(app, host, "IN-1", 500)  # €5.00 = 50 points of 10 cents
        assert (first.status, first.cents, first.transaction_id) == (0x00, 500, "IN-1") and first.completed
        seat = app.cab.seats[1]
        assert seat.money.credit == 50
        view = build_view(app.cab, time.monotonic()).seats[0]
        assert (view.message, view.fields) == ("{amount} transferred in", {"amount": Money(50, 10)})
        assert [Words(lang)(view.message, **view.fields) for lang in ("en", "nl", "nb", "ru")] == [
            "€5.00 transferred in", "€\xa05,00 bijgeschreven", "5,00\xa0€ overført inn", "5,00\xa0€ зачислено"]
        again = transfer(app, host, "IN-1", 900)  # the same id, another amount: the first result, nothing moved
        assert (again.status, again.cents, again.completed) == (0x00, 500, first.completed)
        assert seat.money.credit == 50
        assert transfer(app, host, "IN-2", 1100).status == 0x84  # 110 points: over the 100 per transfer
        assert transfer(app, host, "IN-3", 1000).status == 0x84  # 50 + 100 over the 140 a day
        assert transfer(app, host, "OUT-1", 600, to_seat=False).status == 0x83  # more than the 50 there
        assert transfer(app, host, "OUT-2", 450, to_seat=False).status == 0x84  # over the 40 per transfer out
        assert transfer(app, host, "IN-4", 500, asset=1002).status == 0x93  # seat 2's asset number
        out = transfer(app, host, "OUT-3", 300, to_seat=False)
        assert (out.status, out.cents) == (0x00, 300)
        assert seat.money.credit == 20
        view = build_view(app.cab, time.monotonic()).seats[0]
        assert (view.message, view.fields) == ("{amount} transferred out", {"amount": Money(30, 10)})
        synced(app)
        assert aft_meters(host) == [500, 1, 300, 1]
        life = audit_meters(app)["seats"]["1"]["meters"]["lifetime"]
        assert {k: life[k] for k in ("aft_in", "aft_in_count", "aft_out", "aft_out_count", "total_in", "total_out")} \
            == {"aft_in": 50, "aft_in_count": 1, "aft_out": 30, "aft_out_count": 1, "total_in": 50, "total_out": 30}
        cab_life = audit_meters(app)["cabinet"]["lifetime"]
        assert (cab_life["aft_in"], cab_life["aft_out"]) == (50, 30)
        drop = host.exchange(long_poll(1, 0x13), 0x13).data  # drop: coins only, never AFT
        assert from_bcd(drop[:4]) == 0
        lines = events(app)
        assert len([x for x in lines if " aft_in " in x and "transferred in by the host" in x]) == 1
        assert len([x for x in lines if " aft_out " in x and "points=30" in x]) == 1
        assert app.cab.journal.records("aft_refused", seat=1)[-1].data["status"] == 0x84


def test_a_limit_raised_in_the_operator_menu_lets_the_hosts_next_transfer_through(tmp_path):
    """The menu's change reaches both checks of a transfer: the cabinet's and the child's, which
    refuses over the limit the last snapshot told it (sent again once the change is journaled)."""
    from machine.display.gamewords import say
    from machine.operator.menu import OperatorMenu
    from tests.helpers import stored_pin
    from tests.test_operator_menu import PIN, enter_pin, goto

    with cabinet(tmp_path, AFT.replace("daily_in_limit: 140", "daily_in_limit: 5000")) as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=1.0)
        assert transfer(app, host, "IN-1", 1500).status == 0x84  # 150 points: over the configured 100
        menu = OperatorMenu(app.cab, stored_pin(PIN), "test-id", say=say)
        with app.lock:  # as the loop presses it: between frames, holding the cabinet
            goto(menu, "Settings")
            names = [line.split("\t")[0] for line in menu.view().lines]
            for _ in range(names.index("AFT limit per transfer in")):
                menu.press(1, "draw", 0)
            menu.press(1, "start", 0)
            enter_pin(menu, PIN)
            menu.press(1, "draw", 0)  # 100 (the configuration's, none of the choices) -> 1,000
            menu.press(1, "start", 0)
        assert app.cab.journal.records("settings_change")[-1].data == {
            "name": "transfer_in_limit", "old": 100, "new": 1000, "by": "operator"}
        synced(app)
        done = transfer(app, host, "IN-2", 1500)
        assert (done.status, done.cents) == (0x00, 1500)
        assert app.cab.seats[1].money.credit == 150


def test_aft_off_answers_no_aft_poll(tmp_path):
    with cabinet(tmp_path) as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=0.3)
        with pytest.raises(OSError):
            host.exchange(aft_transfer_poll(1, "IN-1", 500, asset=1001), 0x72)
        assert app.cab.seats[1].money.credit == 0


def test_config_check_wants_links_and_an_asset_per_linked_seat():
    base = two_seats()
    with pytest.raises(ConfigError) as err:
        parse_config(base + "sas:\n  links:\n    - {port: /dev/ttyS4, address: 1, seat: 1}\n"
                     "    - {port: /dev/ttyS4, address: 2, seat: 2}\n"
                     "aft:\n  enabled: true\n  daily_in_limit: 10\n  assets: {1: 7, 3: 7}\n", "m.yaml")
    assert err.value.problems == [
        "m.yaml:12: aft.assets: seat 2 is on a SAS link but has no asset number (seat: number)",
        "m.yaml:12: aft.assets.3: names seat 3, but the cabinet has 2 seats",
        "m.yaml:12: aft.assets.3: asset number 7 is seat 1's already",
        "m.yaml:11: aft.daily_in_limit: 10 is below transfer_in_limit 5000 (no transfer could reach the limit)",
    ]
    with pytest.raises(ConfigError) as err:
        parse_config(base + "aft:\n  enabled: true\n", "m.yaml")
    assert err.value.problems == ["m.yaml:6: aft.enabled: AFT is on but no seat has a SAS link (sas.links)"]


# -- kills --------------------------------------------------------------------------------------

LIMITS = AftLimits(1000, 5000, 1000)


def _child(data: Path, kill_at: int, script: list[tuple[str, bool, int]]) -> None:
    from machine.devtools.crashtest import memory_of
    from tests.aft_kill_helpers import boot

    steps = 0

    def hook(where: str) -> None:
        nonlocal steps
        steps += 1
        if steps >= kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    cab = boot(data, memory_of(data), hook)
    for n in cab.seats:
        cab.aft_resume(n, 0.0)
    for tid, to_seat, points in script:
        cab.aft_transfer(1, tid, to_seat, points, False, LIMITS, 1.0, "2026-12-02T01:00:00")
    cab.journal.close()


def _run(data: Path, kill_at: int, script) -> bool:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            _child(data, kill_at, script)
        except BaseException:
            code = 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 3)
    return os.WIFSIGNALED(status)


# slow: a cabinet killed at every step of a transfer, each time restarted and replayed
def test_a_kill_at_every_step_of_a_transfer_applies_it_once_or_not_at_all_then_the_replay_finishes(tmp_path):
    from machine.devtools.crashtest import memory_of
    from tests.aft_kill_helpers import boot, coins

    script = [("IN-1", True, 70), ("OUT-1", False, 30), ("IN-1", True, 70)]
    base = tmp_path / "base"
    base.mkdir()
    coins(base, 20)
    assert not _run(base, 10**9, script)  # uninterrupted: 20 + 70 - 30
    kill_at, kills = 1, 0
    while True:
        data = tmp_path / f"k{kill_at}"
        data.mkdir()
        coins(data, 20)
        killed = _run(data, kill_at, script)
        if not killed:
            break
        kills += 1
        cab = boot(data, memory_of(data), None)  # after the cut: before the host's repeat
        credit = cab.seats[1].money.credit
        done = [r.data["id"] for r in cab.journal.records("aft", seat=1)]
        assert len(done) == len(set(done)), done  # never applied twice
        assert credit == 20 + (70 if "IN-1" in done else 0) - (30 if "OUT-1" in done else 0), (kill_at, credit, done)
        cab.journal.close()
        assert not _run(data, 10**9, script)  # the restart finishes what was pending; the host repeats all
        cab = boot(data, memory_of(data), None)
        assert cab.seats[1].money.credit == 60, kill_at
        assert cab.seats[1].meters.get("aft_in") == 70 and cab.seats[1].meters.get("aft_out") == 30
        assert not cab.journal.verify()
        cab.journal.close()
        kill_at += 1
    assert kills >= 10


def test_after_a_restart_a_replay_gets_its_first_result_and_the_registration_is_kept(tmp_path):
    from hardware.sas.host import aft_register_poll

    key = bytes(range(1, 21))
    with cabinet(tmp_path, AFT + "  registration_required: true\n") as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=5.0)
        assert transfer(app, host, "IN-0", 200).status == 0x88  # not registered yet: refused by the cabinet
        host.exchange(aft_register_poll(1, 0x00), 0x73)
        reg = host.exchange(aft_register_poll(1, 0x01, asset=1001, key=key, pos_id=9), 0x73).data
        assert reg[0] == 0x01
        for _ in range(5):
            app.frame()
        first = transfer(app, host, "IN-1", 400)
        assert first.status == 0x00 and app.cab.seats[1].money.credit == 40
    with cabinet(tmp_path, AFT + "  registration_required: true\n") as (app, hosts):
        host = SasHost(MasterLink(hosts[1].master), 1, timeout=5.0)
        reg = host.exchange(aft_register_poll(1, 0xFF), 0x73).data
        assert (reg[0], int.from_bytes(reg[1:5], "little"), reg[5:25]) == (0x01, 1001, key)
        again = transfer(app, host, "IN-1", 400)
        assert (again.status, again.cents, again.completed) == (0x00, 400, first.completed)
        assert app.cab.seats[1].money.credit == 40
        assert [r.data["id"] for r in app.cab.journal.records("aft", seat=1)] == ["IN-1"]
        assert transfer(app, host, "IN-2", 100).status == 0x00  # registered still: the cabinet lets it through
        assert app.cab.seats[1].money.credit == 50


# slow: four starts of the real cabinet process (each plays a round a seat before it stays up), three SIGKILLed
# mid-transfer, the host repeating each transfer until it reads it completed
def test_sigkills_around_transfers_of_a_running_cabinet_never_apply_one_twice_nor_lose_one(tmp_path):
    """The real cabinet (``run --headless --stay``) killed at random instants after the host sent
    a transfer; restarted, the host repeats each id until it reads it completed. Each is applied
    exactly once, and the soak's accounts close (coins and AFT apart)."""
    import random

    from tests.sas_helpers import PtyHost, sas_children, wait_gone
    from tests.test_sas_cabinet import sas_config

    rng = random.Random(26)
    pty = PtyHost()
    host = SasHost(MasterLink(pty.master), 1, timeout=5.0)
    config = tmp_path / "machine.yaml"
    config.write_text(sas_config({1: pty.path}) + AFT.replace("transfer_in_limit: 100", "transfer_in_limit: 1000")
                      .replace("daily_in_limit: 140", "daily_in_limit: 100000")
                      + f"memory: {{key_file: {tmp_path}/key/machine.key, head_stores: [{tmp_path}/heads]}}\n")
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": root}

    def start() -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-m", "machine", "run", "--config", str(config), "--headless",
                                 "--rounds", "1", "--stay", "--data", str(tmp_path / "data")],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
        end, line = time.monotonic() + 120, ""
        assert proc.stderr is not None
        while "staying up idle" not in line:
            assert time.monotonic() < end and proc.poll() is None
            line = proc.stderr.readline()
        return proc

    def until_done(tid: str) -> None:
        end = time.monotonic() + 60  # bounds a hang only
        while True:
            assert time.monotonic() < end, tid
            with contextlib.suppress(OSError):
                reply = parse_aft_transfer(host.exchange(aft_transfer_poll(1, tid, 500, asset=1001), 0x72).data)
                while reply.status == 0x40 and time.monotonic() < end:
                    time.sleep(0.05)
                    reply = parse_aft_transfer(host.exchange(aft_interrogate_poll(1), 0x72).data)
                if reply.transaction_id == tid and reply.status == 0x00:
                    return
            time.sleep(0.1)

    ids = [f"K{i}" for i in range(4)]
    try:
        for tid in ids[:3]:
            proc = start()
            try:
                pty.drain()
                host.exchange(aft_transfer_poll(1, tid, 500, asset=1001), 0x72)  # pending at once
                sas = sas_children(proc.pid)
                time.sleep(rng.uniform(0.0, 0.15))  # the kill: before, during or after its journaling
                proc.send_signal(signal.SIGKILL)
                proc.wait(timeout=30)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                for pipe in (proc.stdout, proc.stderr):
                    if pipe is not None:
                        pipe.close()
            assert len(sas) == 1
            wait_gone(sas)  # the SAS child sees its input close and ends (the next one's port is its own)
        proc = start()
        try:
            for tid in ids:  # the host repeats each killed one (and one more), until each reads completed
                until_done(tid)
            assert aft_meters(host) == [500 * len(ids), len(ids), 0, 0]
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            if proc.stderr is not None:
                proc.stderr.close()
        assert out.splitlines()[-1] == "every meter and coin accounted for", out
    finally:
        pty.close()


def test_the_menus_meters_show_the_transfers_once_there_are_some(tmp_path):
    from tests.cabinet_helpers import boot
    from tests.test_operator_menu import goto, menu_for

    cab = boot(tmp_path)
    cab.coin(1, "EU200A", 0)
    menu = menu_for(cab)
    goto(menu, "Meters")
    assert not [line for line in menu.view().lines if "(AFT)" in line]  # none yet: the page as it was
    assert cab.aft_transfer(2, "T1", True, 70, False, LIMITS, 1.0, "2026-12-02T01:00:00")["status"] == 0
    assert cab.aft_transfer(1, "T2", False, 15, False, LIMITS, 2.0, "2026-12-02T01:00:01")["status"] == 0
    rows = []
    for _ in range(3):
        rows += menu.view().lines
        menu.press(1, "draw", 0)
    got = {line.split("\t")[0]: line.split("\t")[1:] for line in rows if "(AFT)" in line}
    assert got == {"Transferred in (AFT)": ["70", "€7.00", "70", "€7.00", "0", "70"],
                   "Transfers in (AFT)": ["1", "", "1", "", "0", "1"],
                   "Transferred out (AFT)": ["15", "€1.50", "15", "€1.50", "15", "0"],
                   "Transfers out (AFT)": ["1", "", "1", "", "1", "0"]}
    assert cab.seats[1].money.credit == 5 and cab.seats[2].money.credit == 70
    assert cab.seats[1].meters.get("total_out") == 15 and not cab.seats[1].money.audit_problem()


def test_the_projects_host_command_transfers_over_a_pty_the_cabinet_makes(tmp_path):
    from machine.devtools.harness import SimulatedCabinet
    from machine.operator.firststart import temporary
    from tests.e2e_helpers import ready
    from tests.test_sas_cabinet import first_auto, sas_config

    path = tmp_path / "sas1"
    cfg = temporary(parse_config(sas_config({1: f"pty://{path}"}) + AFT, "sas.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True, auto=first_auto)
    try:
        ready(app)
        root = str(Path(__file__).resolve().parents[1])
        env = {**os.environ, "PYTHONPATH": root}

        def command(*args: str) -> tuple[int, str]:
            proc = subprocess.Popen([sys.executable, "-m", "machine", "sas", "transfer", str(path), *args,
                                     "--asset", "1001"], stdout=subprocess.PIPE, text=True, env=env)
            end = time.monotonic() + 60
            while proc.poll() is None:  # the cabinet's frames journal the transfer while the host waits
                assert time.monotonic() < end
                app.frame()
                time.sleep(0.005)
            out, _ = proc.communicate()
            return proc.returncode, out.strip()

        end = time.monotonic() + 20
        while not path.exists():
            assert time.monotonic() < end
            app.frame()
        rc, out = command("--to-seat", "500", "--id", "CLI-1")
        assert rc == 0 and out.startswith("aft CLI-1 00 ") and " cents 500 completed " in out, out
        assert app.cab.seats[1].money.credit == 50
        rc, again = command("--to-seat", "500", "--id", "CLI-1")
        assert (rc, again) == (0, out) and app.cab.seats[1].money.credit == 50
        rc, out = command("--from-seat", "200", "--id", "CLI-2")
        assert rc == 0 and out.startswith("aft CLI-2 00 ") and app.cab.seats[1].money.credit == 30
        rc, out = command("--from-seat", "900", "--id", "CLI-3")
        assert rc == 1 and out.startswith("aft CLI-3 83 "), out
    finally:
        app.close()
