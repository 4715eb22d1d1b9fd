"""Work shared between this process and a forked copy of it, for the chart's columns.

Owns: ``on_two_processes`` (``[work(x) for x in items]``, the items taken in turn by this process
and by one child forked for them, the child's results sent back pickled). ``chart.chart_and_rtp``
uses it where the tables are compiled: its up cards' Python between kernel calls holds Python's
lock, so on two threads the columns took nearly as long as on one; two processes hold a lock
each. Never used where ``os.fork`` is missing, and never leaves a child behind: the child ends
with ``os._exit`` once its results are written (it runs no exit handler of the parent's), and a
parent whose own work failed kills it and waits for it before raising.

What the child computed stays in the child (its tables): the caller keeps only the results.
A child that fails (or is killed, even while writing its results) counts as having sent nothing,
and a fork refused by the system as no child: the parent then computes the child's items
itself, so that the error, if it is one, is raised here with its own traceback.
"""

from __future__ import annotations

import os
import signal
import threading
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")


def can_fork() -> bool:
    """Whether this system forks (not on Windows) and this is the process's main thread (a
    command's own work: never from a thread of a running cabinet, whose other threads could
    hold a lock the child would wait on for ever)."""
    return hasattr(os, "fork") and threading.current_thread() is threading.main_thread()


def on_two_processes(work: Callable[[_T], _R], items: Sequence[_T]) -> list[_R]:
    """``[work(x) for x in items]``, each item taken by the first of this process and a forked
    child to be free, in the order of ``items`` (a pipe holds one byte per item: a read takes
    one, atomically); the child's results come back pickled (floats to the bit)."""
    import pickle

    if len(items) > 255:
        raise ValueError("at most 255 items (one byte each)")
    tokens_r, tokens_w = os.pipe()
    os.write(tokens_w, bytes(range(len(items))))  # (well under the pipe's buffer: never blocks)
    os.close(tokens_w)
    results_r, results_w = os.pipe()
    with warnings.catch_warnings():
        # Python 3.12 warns when other threads exist (a command's progress line has one): the
        # child runs none of them and takes no lock of theirs (it computes, writes its pipe and
        # leaves through os._exit).
        warnings.filterwarnings("ignore", "This process .*is multi-threaded", DeprecationWarning)
        try:
            pid = os.fork()
        except OSError:  # no child to be had (EAGAIN, ENOMEM): every item here, one after another
            for fd in (tokens_r, results_r, results_w):
                os.close(fd)
            return [work(x) for x in items]
    if pid == 0:  # the child: never returns into the caller's code
        status = 1
        try:
            os.close(results_r)
            data = pickle.dumps(_take(work, items, tokens_r), pickle.HIGHEST_PROTOCOL)
            with os.fdopen(results_w, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(results_w)
    try:
        found = _take(work, items, tokens_r)
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        os.close(tokens_r)
        with os.fdopen(results_r, "rb") as back:
            data = back.read()
        _, status = os.waitpid(pid, 0)
    # only a child that ended well wrote all of its results: one killed while writing them left a
    # cut pickle, which counts as nothing sent
    theirs: dict[int, Any] = pickle.loads(data) if data and os.waitstatus_to_exitcode(status) == 0 else {}
    found.update(theirs)
    for i, x in enumerate(items):  # the child's items when it failed: computed (or raised) here
        if i not in found:
            found[i] = work(x)
    return [found[i] for i in range(len(items))]


def _take(work: Callable[[_T], _R], items: Sequence[_T], tokens: int) -> dict[int, _R]:
    """``work`` of each item whose byte this process reads from ``tokens``, until none is left."""
    done: dict[int, _R] = {}
    while byte := os.read(tokens, 1):
        done[byte[0]] = work(items[byte[0]])
    return done
