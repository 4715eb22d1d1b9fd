"""``cabinet run`` that cannot start: one line on standard error, nothing on standard output, the
exit status of its kind (1: a port, device or journal that cannot be reached or is in use; 2: the
configuration), and nothing it started left behind."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

from machine.cli import main
from machine.display import screens
from machine.loop import wiring
from machine.money import journal
from machine.operator.config import load_config
from machine.operator.firststart import init_cabinet

SHIPPED = (Path(__file__).resolve().parents[1] / "config" / "machine.yaml").read_text()


def config(tmp_path: Path, *, bus: str = "sim", panel: str = "sim", data: str = "data", init: bool = True) -> Path:
    """The shipped configuration with these links, its data and memory in ``tmp_path`` (the run's
    folder), the cabinet initialised there (``init``) as ``cabinet init`` does."""
    text = SHIPPED.replace("bus: sim ", f"bus: {bus} ").replace("panel: sim ", f"panel: {panel} ")
    text = text.replace("data_dir: data ", f"data_dir: {data} ")
    text = text.replace("key_file: ~/.config/cabinet/", f"key_file: {tmp_path}/key/").replace(
        "head_stores: [~/.local/state/cabinet]", f"head_stores: [{tmp_path}/usb]")
    lines = [("games_enabled: [random-blackjack]" if ln.startswith("games_enabled:") else ln) for ln in text.splitlines()]
    path = tmp_path / "machine.yaml"
    path.write_text("\n".join(lines) + "\n")
    if init:
        init_cabinet(load_config(str(path)), tmp_path)
    return path


def tagged(tag: str) -> dict[int, str]:
    """The other processes whose environment holds ``CABINET_TEST_TAG=tag`` (what a test
    started, and what those started in turn), each with its command line."""
    mark = f"CABINET_TEST_TAG={tag}".encode()
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            env = Path(f"/proc/{pid}/environ").read_bytes()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:  # gone meanwhile
            continue
        if int(pid) != os.getpid() and mark in env.split(b"\0"):
            found[int(pid)] = cmd.replace(b"\0", b" ").decode(errors="replace")
    return found


@pytest.fixture
def quick(monkeypatch, tmp_path):
    """No Auto tables (not what these are about), the run in ``tmp_path`` with no video driver
    asked for (a dummy one is refused) and a display taken as there (each failure here comes
    before the window would open); afterwards no thread and no process it started is left."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv("CABINET_TEST_TAG", tag)
    monkeypatch.setattr(wiring, "prepare_auto", lambda *args: None)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(screens, "open_display", lambda: None)
    monkeypatch.chdir(tmp_path)
    before = set(threading.enumerate())
    yield
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not left, f"threads left running: {left}"
    assert gone(tag, within=0) == {}


def one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)
    assert "Traceback" not in err
    return err.rstrip("\n")


@pytest.mark.parametrize(("bus", "said"), [
    ("/dev/ttyNONE", "cabinet run: devices.bus: /dev/ttyNONE: cannot open: "),
    ("socket://127.0.0.1:1", "cabinet run: devices.bus: socket://127.0.0.1:1: cannot open: "),
    ("loop://", "cabinet run: devices.bus: loop://: ccTalk bus: address 2: no reply: expected a 'Coin Acceptor' device"),
])
def test_a_bus_that_cannot_be_reached_is_one_line_and_status_1(tmp_path, capsys, quick, bus, said):
    assert main(["run", "--config", str(config(tmp_path, bus=bus))]) == 1
    assert one_line(capsys).startswith(said)


def test_a_data_dir_that_cannot_be_made_is_one_line_and_status_2(tmp_path, capsys, quick):
    (tmp_path / "afile").write_text("")
    data = tmp_path / "afile" / "data"  # under a file: no folder can be made there (even as root)
    path = config(tmp_path, data=str(data), init=False)
    assert main(["run", "--init", "--config", str(path)]) == 2  # tools/run's first start makes the folder
    assert one_line(capsys) == (f"cabinet run: {path}: data_dir {data}: cannot make the journal's folder {data}: "
                                "Not a directory")


def test_a_journal_another_process_holds_is_one_line_and_status_1(tmp_path, capsys, quick, monkeypatch):
    connect = sqlite3.connect
    monkeypatch.setattr(journal.sqlite3, "connect", lambda *a, **k: connect(*a, **{**k, "timeout": 0.05}))
    path = config(tmp_path)
    holder = connect(tmp_path / "data" / "journal.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process in the middle of writing it
    try:
        assert main(["run", "--config", str(path)]) == 1
    finally:
        holder.close()
    assert one_line(capsys) == (f"cabinet run: {tmp_path / 'data' / 'journal.sqlite'}: the journal is in use by another "
                                "process (another cabinet on this data_dir?): database is locked")


def test_a_failed_start_on_the_simulators_stops_them(tmp_path, capsys, quick):
    (tmp_path / "afile").write_text("")
    path = config(tmp_path, data=str(tmp_path / "afile" / "data"), init=False)  # bus and panel: sim
    assert main(["run", "--init", "--config", str(path)]) == 2
    assert "cannot make the journal's folder" in one_line(capsys)  # and (the fixture) no simulator left


# -- the real process, killed ---------------------------------------------------------------------


def start_soak(tmp_path: Path, tag: str) -> subprocess.Popen[bytes]:
    """``cabinet run --headless`` as its own process (what ``tools/run --headless`` execs), once
    its bus simulator runs and the cabinet has opened its journal (temporary folders go into
    ``tmp_path``)."""
    env = {**os.environ, "CABINET_TEST_TAG": tag, "TMPDIR": str(tmp_path), "SDL_VIDEODRIVER": "dummy",
           "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.Popen([sys.executable, "-m", "machine", "run", "--headless", "--rounds", "1000",
                             "--config", str(config(tmp_path))], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while not (any("hardware.sim" in c for c in tagged(tag).values())
               and list(tmp_path.glob("cabinet-soak-*/data/journal.sqlite"))):
        assert proc.poll() is None, proc.communicate()[1].decode()
        assert time.monotonic() < deadline, "the bus simulator did not start"
        time.sleep(0.05)
    return proc


def gone(tag: str, within: float = 30.0) -> dict[int, str]:
    """The processes of ``tag`` still running after ``within`` seconds, killed (so that a failing
    test leaves nothing behind either). The default only bounds a hang: a simulator looks for its
    parent every ``PARENT_POLL`` s, and on a loaded machine its look and its exit may come late."""
    deadline = time.monotonic() + within
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left


def test_sigkill_of_the_cabinet_leaves_no_simulator_running(tmp_path):
    tag = uuid.uuid4().hex
    proc = start_soak(tmp_path, tag)
    proc.kill()  # SIGKILL: nothing of the cabinet runs after it; the simulator sees its parent gone
    proc.wait()
    assert proc.stderr is not None
    proc.stderr.close()
    assert gone(tag) == {}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_stops_the_simulator_and_removes_the_temporary_journal(tmp_path, sig):
    tag = uuid.uuid4().hex
    proc = start_soak(tmp_path, tag)
    assert [p.name for p in tmp_path.glob("cabinet-soak-*")]  # the soak's journal folder is there
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert gone(tag, within=1.0) == {}
    assert proc.returncode == 128 + sig, err.decode()
    assert "Traceback" not in err.decode()
    assert list(tmp_path.glob("cabinet-soak-*")) == []


# -- no display to be seen ------------------------------------------------------------------------


@pytest.mark.timeout(30)  # (before: the invisible window ran until closed)
@pytest.mark.parametrize("driver", ["dummy", "offscreen", "Dummy"])
def test_a_window_no_one_can_see_is_refused_before_anything_starts(tmp_path, capsys, quick, monkeypatch, driver):
    monkeypatch.setenv("SDL_VIDEODRIVER", driver)
    assert main(["run", "--init", "--config", str(config(tmp_path, init=False))]) == 2  # bus and panel: sim
    assert one_line(capsys) == (f"cabinet run: SDL_VIDEODRIVER={driver.lower()} draws nowhere a person sees: unset it "
                                "to use the display, or run with --headless")
    assert not (tmp_path / "data").exists()  # nothing started, not even the journal


def test_no_display_at_all_is_one_line_from_the_real_process(tmp_path):
    tag = uuid.uuid4().hex
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(CABINET_TEST_TAG=tag, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, "-m", "machine", "run", "--config", str(config(tmp_path))], cwd=tmp_path,
                          env=env, capture_output=True, timeout=120)
    assert (done.returncode, done.stdout) == (2, b"")
    assert done.stderr.decode() == "cabinet run: no display: set DISPLAY or run with --headless\n"
    assert gone(tag, within=0) == {}
