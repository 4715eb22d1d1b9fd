"""The autouse check that no test leaves a process, a port or a thread behind (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

from tests.conftest import children, left_behind, ports, threads


def baseline() -> tuple[set, set, set]:
    return (children(), ports(), threads())


def test_a_pty_left_open_is_named_and_closing_it_clears_it():
    before = baseline()
    master, slave = os.openpty()
    try:
        left = left_behind(before)
        assert f"port fd {slave} on {os.ttyname(slave)}" in left and any(f"port fd {master} on" in x for x in left)
    finally:
        os.close(master)
        os.close(slave)
    assert left_behind(before) == []


def test_a_thread_still_running_is_named_until_it_ends():
    before = baseline()
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, name="forgotten worker")
    t.start()
    assert left_behind(before) == ["thread 'forgotten worker'"]
    stop.set()
    t.join()
    assert left_behind(before) == []


def test_a_child_process_still_running_is_named_until_it_is_gone():
    before = baseline()
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        end = time.monotonic() + 60  # bounds a hang only
        while True:  # named once it has run its program: just after the fork, its command line is still empty
            [line] = left_behind(before)
            if "time.sleep(60)" in line or time.monotonic() > end:
                break
            time.sleep(0.01)
        assert line.startswith(f"process {proc.pid} (") and "time.sleep(60)" in line
    finally:
        proc.kill()
        proc.wait()
    assert left_behind(before) == []
