"""Shared fixtures, and the cache folder of the whole run.

Every test process (pytest, its xdist workers and the commands the tests start, which inherit
the environment) keeps its cached tables (``machine.gamemath.tablecache``) in one folder made
for the run before anything is collected, so each rule set's tables are computed once per run
and the user's own cache is never read or written. The folder is removed at the end.

Every test is also checked for what it leaves behind (``_leaves_nothing_behind``): a child
process, a file descriptor on a pty or serial port, or a thread still running after it ends is
a failure of that test.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator

import pytest

from machine.games.blackjack.rules import Rules
from machine.profiles import load_profile

_OWN_CACHE: list[str] = []  # the folder this process made (the controller's, or a lone run's)


def pytest_configure(config: pytest.Config) -> None:
    if not os.environ.get("PYTEST_XDIST_WORKER"):  # a worker inherits the controller's folder
        folder = tempfile.mkdtemp(prefix="cabinet-cache-")
        _OWN_CACHE.append(folder)
        os.environ["CABINET_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _OWN_CACHE:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def rb_rules() -> Rules:
    return load_profile("random-blackjack").rules


@pytest.fixture
def casino_rules() -> Rules:
    return load_profile("casino-blackjack").rules


RAM_FOLDER = "/dev/shm"  # a tmpfs on Linux


@pytest.fixture
def memory_tempdir(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """``tempfile``'s folders in memory for this test (``/dev/shm``, where there is one): for the
    crash tests, whose journals and device files are synced at every step, hundreds of times a
    kill point; on the disk those syncs were most of their time, and with four workers syncing at
    once they took several times longer. A SIGKILL leaves a file in memory exactly as on a disk
    (the kernel keeps what was written), so the kills prove the same. Only for tests that make
    their folders with ``tempfile`` and give no cabinet configuration one (the cabinet refuses a
    data_dir under /dev); pytest's own ``tmp_path`` stays where it was."""
    tmp_path_factory.getbasetemp()  # made before tempfile is pointed elsewhere
    if os.path.isdir(RAM_FOLDER) and os.access(RAM_FOLDER, os.W_OK | os.X_OK):
        monkeypatch.setattr(tempfile, "tempdir", RAM_FOLDER)


@pytest.fixture(autouse=True, scope="session")
def _test_key_file(tmp_path_factory: pytest.TempPathFactory) -> None:
    """``cabinet audit`` reads the test journals' key (tests.cabinet_helpers.TEST_KEY) from
    $CABINET_KEY, as an auditor would give a cabinet's key."""
    import os

    from tests.cabinet_helpers import TEST_KEY

    path = tmp_path_factory.mktemp("key") / "machine.key"
    path.write_text(TEST_KEY.hex() + "\n")
    path.chmod(0o600)
    os.environ["CABINET_KEY"] = str(path)


# -- what a test leaves behind ------------------------------------------------------------------

PORT_PREFIXES = ("/dev/pts/", "/dev/ptmx", "/dev/tty")  # a pty end or a serial port: a device link
LEAK_GRACE = 30.0  # seconds a stopping thread or process is given to be gone (a loaded machine is slow)
# A library's own daemon threads that live as long as the process by design, not a test's leak:
# distributed's offload executor and its event loop's thread are made on first use and kept for
# every later client of the process.
PROCESS_THREADS = ("Dask-Offload", "IO loop")


def children() -> set[int]:
    """This process's live child processes (zombies are reaped by their Popen, not leaked)."""
    me, out = os.getpid(), set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me and fields[0] != "Z":
            out.add(int(entry))
    return out


def ports() -> set[tuple[int, str]]:
    """The file descriptors this process holds on a pty or a serial port."""
    out = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith(PORT_PREFIXES):
            out.add((int(fd), target))
    return out


def threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate()
            if t.is_alive() and not (t.daemon and t.name.startswith(PROCESS_THREADS))}


def left_behind(before: tuple[set, set, set]) -> list[str]:
    had_procs, had_ports, had_threads = before
    out = [f"process {pid} ({_cmdline(pid)})" for pid in sorted(children() - had_procs)]
    out += [f"port fd {fd} on {target}" for fd, target in sorted(ports() - had_ports)]
    out += [f"thread {t.name!r}" for t in sorted(threads() - had_threads, key=lambda t: t.name)]
    return out


def _cmdline(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return "?"


@pytest.fixture(autouse=True)
def _leaves_nothing_behind() -> Iterator[None]:
    """A test that leaves a process, a port (pty or serial fd) or a thread behind fails, naming
    them (python-can's tests check that no bus leaked the same way). What wider fixtures opened
    before the test is the baseline; stopping things get ``LEAK_GRACE`` seconds to go."""
    before = (children(), ports(), threads())
    yield
    deadline = time.monotonic() + LEAK_GRACE
    while (left := left_behind(before)) and time.monotonic() < deadline:
        time.sleep(0.05)
    if left:
        pytest.fail("the test left behind: " + "; ".join(left), pytrace=False)
