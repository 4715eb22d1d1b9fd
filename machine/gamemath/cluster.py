"""Simulations past one machine: ``cabinet simulate --cluster ADDRESS`` on Dask distributed.

Owns: reaching a Dask scheduler (``tcp://host:8786``) or starting a local cluster of worker
processes on this machine (``local``), handing the simulators' seeded chunk plans to its workers
and giving their results back in the plan's order, and closing all it started. What a worker is
sent is a chunk's plan (the rules, the rounds, the seats, the seed and the chunk's number, or the
fast path's per-chunk seeds), never a shoe: the worker deals the shoes from the seed as the plain
path does, so a seed gives the same figure whatever the engine and the number of workers. Never
plays a round itself, keeps no rule and no figure of its own; Dask is an optional extra
(``pip install 'cabinet[cluster]'``), imported only here and only when a cluster is asked for.

Why Dask and not Ray: Dask distributed installs from plain pip wheels of pure Python (Ray's
wheels are large and bring a runtime of its own), its client is ordinary Python, a
``LocalCluster`` runs comfortably on a two-core machine, and a real cluster is two commands
(``dask scheduler``, ``dask worker ADDRESS``) on machines with the project installed
(``docs/cluster.md``).
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any

CONNECT_TIMEOUT = 10.0
"""Seconds to reach a scheduler, and for it to have a worker, before giving up."""

_ADDRESS = re.compile(r"(tcp://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


class ClusterError(RuntimeError):
    """No cluster to run on (Dask missing, a bad or unreachable address): one line."""


class Cluster:
    """A Dask client and the workers a run may use (all, or the first ``workers`` of them)."""

    def __init__(self, client: Any, workers: Sequence[str]):
        self.client = client
        self.workers = list(workers)

    @property
    def size(self) -> int:
        return len(self.workers)

    def map(self, fn: Callable[[Any], Any], jobs: Sequence[Any]) -> Iterator[Any]:
        """``fn`` on each job on the workers; the results in the jobs' order (a figure is added
        up in the plan's order, as on one machine), each future let go once read."""
        futures = self.client.map(fn, list(jobs), pure=False, workers=self.workers, allow_other_workers=False)
        try:
            for i, f in enumerate(futures):
                yield f.result()
                futures[i] = None
                f.release()
        finally:
            for f in futures:
                if f is not None:
                    f.cancel()

    def warm(self, fn: Callable[..., Any], *args: Any) -> None:
        """Run ``fn(*args)`` once in every worker the run may use (compile, build tables)."""
        self.client.run(fn, *args, workers=self.workers)


def _dask() -> tuple[Any, Any]:
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: pip install 'cabinet[cluster]'") from None
    return Client, LocalCluster


def check_address(address: str) -> None:
    """Refuse, in one line, an ADDRESS that is neither ``local`` nor ``[tcp://]host:port``."""
    m = _ADDRESS.fullmatch(address)
    if address != "local" and (m is None or not 0 < int(m.group(3)) < 65536):
        raise ClusterError(f"--cluster {address!r}: give 'local' or a Dask scheduler's address, tcp://host:8786")


@contextmanager
def open_cluster(address: str, workers: int | None = None, timeout: float | None = None) -> Iterator[Cluster]:
    """A cluster to run on: ``local`` starts ``workers`` worker processes here (default: one per
    core), one thread each; any other ADDRESS is an existing scheduler, of whose workers the
    first ``workers`` (default: all) are used. Everything started here is closed on leaving,
    also when it fails."""
    check_address(address)
    Client, LocalCluster = _dask()
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    with ExitStack() as stack:
        try:
            if address == "local":
                local = LocalCluster(
                    n_workers=workers or os.cpu_count() or 1, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, scheduler_kwargs={"dashboard": False, "dashboard_address": ":0"},
                    silence_logs=logging.ERROR,
                )
                stack.callback(local.close)
                client = Client(local, set_as_default=False, timeout=timeout)
            else:
                client = Client(address, set_as_default=False, timeout=timeout)
        except (OSError, TimeoutError) as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ClusterError(f"--cluster {address}: no Dask scheduler answered ({first})") from None
        stack.callback(client.close)
        try:
            client.wait_for_workers(1, timeout=timeout)
        except (OSError, TimeoutError):
            raise ClusterError(f"--cluster {address}: the scheduler has no worker after {timeout:g} s") from None
        names = sorted(client.scheduler_info(n_workers=-1)["workers"])
        yield Cluster(client, names[:workers] if workers else names)
