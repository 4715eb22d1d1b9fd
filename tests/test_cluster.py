"""`cabinet simulate --cluster`: the seeded chunks on Dask distributed (machine.gamemath.cluster).

The figure for a seed is the plain path's, to the last bit, whatever runs the chunks: this
process, a pool of processes, numba's threads, or a local cluster's workers, one or two of
them. One local cluster of two worker processes serves the module (it takes seconds to start);
a run on "one worker" uses the first of them only. Skipped without the ``cluster`` extra.
"""

from __future__ import annotations

import dataclasses
import io
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from machine.cli import main  # noqa: E402
from machine.gamemath import cluster as cl  # noqa: E402
from machine.gamemath.ochko import sim as ochko_sim  # noqa: E402
from machine.profiles import load_profile  # noqa: E402

OCHKO = "game: ochko\n"


@pytest.fixture(scope="module")
def two() -> Iterator[cl.Cluster]:
    with cl.open_cluster("local", 2) as c:
        assert c.size == 2
        yield c


def one_of(c: cl.Cluster) -> cl.Cluster:
    return cl.Cluster(c.client, c.workers[:1])


def children() -> set[str]:
    """This process's child processes (a local cluster's workers are its children), less
    multiprocessing's resource tracker: started with the first spawned process, it stays for the
    life of its parent by design and ends with it."""
    pids = {pid for task in Path(f"/proc/{os.getpid()}/task").iterdir() for pid in _children_of(task).split()}
    return {pid for pid in pids if b"resource_tracker" not in _cmdline(pid)}


def _children_of(task: Path) -> str:
    try:
        return (task / "children").read_text()
    except OSError:  # the thread ended meanwhile (a cluster's client threads come and go)
        return ""


def _cmdline(pid: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:  # ended meanwhile
        return b"resource_tracker"


def run(argv, text, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# slow: the same simulation four ways: here, in a process pool, on one and on two Dask cluster workers
def test_the_engine_figure_is_the_same_here_in_processes_and_on_one_or_two_cluster_workers(two):
    """Ochko's engine simulator (its Auto tables are quick to load in a new process): 3 chunks."""
    rules = load_profile("ochko").rules
    plain = ochko_sim.simulate(rules, 4100, 2, 17, 1)
    pool = ochko_sim.simulate(rules, 4100, 2, 17, 2)
    on_one = ochko_sim.simulate(rules, 4100, 2, 17, cluster=one_of(two))
    on_two = ochko_sim.simulate(rules, 4100, 2, 17, cluster=two)
    assert plain.rounds == 4100 and plain.sum_x != 0
    assert dataclasses.astuple(pool) == dataclasses.astuple(plain)
    assert dataclasses.astuple(on_one) == dataclasses.astuple(plain)
    assert dataclasses.astuple(on_two) == dataclasses.astuple(plain)


def test_results_come_back_in_the_plans_order_not_as_workers_finish(two):
    """The first chunk is long, the others a round or two: the other worker ends them first."""
    from machine.gamemath.simulate import chunk_job

    rules = load_profile("ochko").rules
    jobs = [(ochko_sim.play_chunk, rules, n, 1, 1, c) for c, n in enumerate([3000, 1, 2, 3])]
    assert [t.rounds for t in two.map(chunk_job, jobs)] == [3000, 1, 2, 3]


def test_the_fast_figure_is_the_same_on_threads_and_on_one_or_two_cluster_workers(two, monkeypatch):
    pytest.importorskip("numba")
    from machine.gamemath.blackjack import fast as fastsim
    from tests.test_fastsim import SHARED_RULES  # its tables are in the run's cache folder

    monkeypatch.setattr(fastsim, "CLUSTER_CHUNKS", 1)  # three tasks for the two workers
    threads = [fastsim.fast_simulate(SHARED_RULES, 120_000, seed=5, workers=w, seats=2) for w in (1, 2)]
    on = [fastsim.fast_run(SHARED_RULES, 120_000, seed=5, seats=2, cluster=c) for c in (one_of(two), two)]
    assert [r.threads for r in on] == [1, 2]
    for figure in [threads[1]] + [r.tally for r in on]:
        assert dataclasses.astuple(figure) == dataclasses.astuple(threads[0])
    assert on[0].cards == on[1].cards > 0


def test_the_command_on_a_scheduler_address_prints_the_plain_figure(two, capsys, monkeypatch):
    args = ["simulate", "-", "--rounds", "4500", "--seats", "2", "--seed", "3"]
    code, plain, err = run([*args, "--workers", "1"], OCHKO, capsys, monkeypatch)
    assert code == 0, err
    address = two.client.scheduler.address
    assert address.startswith("tcp://127.0.0.1:")
    code, out, err = run([*args, "--cluster", address], OCHKO, capsys, monkeypatch)
    assert code == 0, err
    assert out == plain and "simulated RTP" in out
    assert "4500/4500 rounds" in err  # the progress bar
    code, out, err = run([*args, "--cluster", address, "--workers", "1"], OCHKO, capsys, monkeypatch)
    assert (code, out) == (0, plain)


def test_cluster_local_starts_its_workers_and_leaves_nothing_running(capsys, monkeypatch):
    before = children()
    args = ["simulate", "-", "--rounds", "2500", "--seed", "4"]
    code, plain, err = run([*args, "--workers", "1"], OCHKO, capsys, monkeypatch)
    assert code == 0, err
    code, out, err = run([*args, "--cluster", "local", "--workers", "1"], OCHKO, capsys, monkeypatch)
    assert (code, out) == (0, plain), err
    assert children() <= before


@pytest.mark.parametrize("address", ["nowhere", "tcp://", "http://host:8786", "tcp://host:99999", "tcp://host", ""])
def test_an_address_of_the_wrong_form_is_one_line(address, capsys, monkeypatch):
    code, out, err = run(["simulate", "-", "--rounds", "100", "--cluster", address], OCHKO, capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "tcp://host:8786" in err and "Traceback" not in err


def test_an_address_where_no_scheduler_answers_is_one_line_and_leaves_nothing_running(capsys, monkeypatch):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(cl, "CONNECT_TIMEOUT", 0.5)
    before = children()
    code, out, err = run(["simulate", "-", "--rounds", "100", "--cluster", f"tcp://127.0.0.1:{port}"], OCHKO,
                         capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "no Dask scheduler answered" in err
    assert children() <= before


def test_without_dask_the_command_says_how_to_install_it(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    code, out, err = run(["simulate", "-", "--rounds", "100", "--cluster", "local"], OCHKO, capsys, monkeypatch)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "pip install 'cabinet[cluster]'" in err


def test_fast_on_a_cluster_is_the_blackjack_familys_only(capsys, monkeypatch):
    code, out, err = run(["simulate", "-", "--rounds", "100", "--fast", "--cluster", "local"], OCHKO, capsys, monkeypatch)
    assert code == 2 and out == "" and err.count("\n") == 1 and "ochko" in err


