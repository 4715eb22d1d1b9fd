"""Benchmarks, printed as figures (never asserted in the test suite).

Owns: ``cabinet bench NAME`` and ``tools/bench`` (all of them): ``run``, each benchmark in a
temporary cache folder of its own. The benchmarks live in a module per area and register
themselves by name (``common.bench``): ``journal`` (the core: journal, boot, crash, PIN),
``gamemath`` (rtp, auto, simulate, fastsim, cluster, variants, every game's math, startup,
simstart, exact), ``hardware`` (frames, payout, press), ``hhoppe`` and ``farmer`` (beside other
engines), ``sas`` (the SAS poll-to-reply time under play), ``money`` (notes, vouchers), ``firstrun``
(compile, suite, firstrun: a new user's first run). ``ORDER`` is the order ``cabinet bench`` runs them in with no name.
"""

from __future__ import annotations

import tempfile
from typing import Any

from machine.devtools.bench import farmer, firstrun, gamemath, hardware, hhoppe, journal, money, sas  # noqa: F401 - they register
from machine.devtools.bench.common import BENCHES, bench, set_env
from machine.devtools.journal_keeping import journal_keeping_bench
from machine.devtools.shufflestats import shuffle_bench

bench("journal-keeping")(journal_keeping_bench)  # (issue 24: the journal's bytes per game and the archive's pause)
bench("shuffle")(shuffle_bench)  # (issue 24: the shuffle through the regulators' tests at 99 %)

__all__ = ["BENCHES", "ORDER", "bench", "run"]

ORDER = ("journal-keeping", "journal", "boot", "crash", "rtp", "auto", "simulate", "fastsim", "cluster", "ochko",
         "variants", "frames", "payout", "press", "pin", "eenentwintig", "eenendertigen", "startup", "simstart", "hhoppe",
         "farmer", "exact", "shuffle", "sas", "notes", "vouchers", "compile", "suite", "firstrun")
"""Every benchmark, in the order ``BENCHES`` lists them (``cabinet bench`` with no name runs
them in it; a benchmark registered later comes after them)."""

_REGISTERED = dict(BENCHES)
BENCHES.clear()
BENCHES.update({name: _REGISTERED[name] for name in ORDER if name in _REGISTERED})
BENCHES.update(_REGISTERED)


def run(names: list[str], **options: Any) -> int:
    """Each benchmark with a cache folder of its own, empty (what it times is computed, not read
    from an earlier run's tables; ``startup`` times both). An option given (not None) goes to
    the benchmarks that take a parameter of its name (``rounds``, ``coins``, ``cluster``)."""
    import inspect

    for name in names or list(BENCHES):
        print(f"== {name}")
        with tempfile.TemporaryDirectory() as folder, set_env("CABINET_CACHE_DIR", folder):
            takes = inspect.signature(BENCHES[name]).parameters
            BENCHES[name](**{k: v for k, v in options.items() if v is not None and k in takes})
    return 0
