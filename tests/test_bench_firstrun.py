"""The first-run benchmarks (issue 27) are registered and read the reasons written beside slow tests."""

from __future__ import annotations

from machine.devtools.bench import BENCHES
from machine.devtools.bench.firstrun import slow_reason


def test_the_first_run_benchmarks_are_registered():
    assert {"compile", "suite", "firstrun"} <= set(BENCHES)


def test_a_slow_test_s_reason_is_read_from_the_comment_above_it_whole():
    reason = slow_reason("tests/test_sim_state.py::test_three_headless_runs_on_one_data_folder_neither_tilt_nor_forget"
                         "_the_devices")
    assert reason == ("three whole cabinet processes on one data folder (each starting the simulators) and an audit "
                      "after each: what carries over between processes is what is checked")
    assert slow_reason("tests/test_bench_firstrun.py::test_the_first_run_benchmarks_are_registered") == "(no reason written)"
    assert slow_reason("tests/no_such_file.py::test_x") == "(no reason written)"


def test_the_suite_benchmark_starts_as_many_workers_as_tools_test(tmp_path):
    from pathlib import Path

    from machine.devtools.bench.firstrun import suite_workers

    assert suite_workers(Path(__file__).resolve().parents[1]) == "4"
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "test").write_text('exec pytest -n "${PYTEST_WORKERS:-3}" --dist loadfile "$@"\n')
    assert suite_workers(tmp_path) == "3"
