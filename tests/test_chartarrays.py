"""The chart's sums from the compiled arrays (``chartarrays``) and its work shared per up card
(``chart.chart_and_rtp``, ``chart.each_up``) against the per-hand definitions, to the bit.

The chart's cells are chosen by comparing sums over thousands of hands: the arrays must give
the sums the per-hand loop gives, bit for bit (the weights from exact integers rounded once, the
sums added hand after hand), or a near tie could flip a cell. ``cabinet strategy`` prices the
chart column by column on threads: the figures must be those of ``basic_strategy`` then
``chart_rtp`` on one thread.
"""

from __future__ import annotations

from math import comb

import pytest

np = pytest.importorskip("numpy")

from machine.gamemath.blackjack import chart, game  # noqa: E402
from machine.gamemath.blackjack.game import Analysis  # noqa: E402
from machine.gamemath.blackjack.shoe import ZERO, hands_up_to, score, size  # noqa: E402
from machine.profiles import load_profile  # noqa: E402

try:
    from machine.gamemath.blackjack.exact_fast import FastPlay
except ImportError:  # neither the ahead-of-time module nor numba: nothing is compiled here
    pytest.skip("the exact analysis's kernels are not compiled here", allow_module_level=True)

RULES = [
    ("random-blackjack", {"decks": 6, "hole_card": True}),  # six decks: products of binomials past 2**53
    ("casino-blackjack", {}),  # one deck
    ("casino-blackjack", {"decks": 8, "dealer_hits_soft_17": True, "surrender": "late"}),
    ("spanish-21", {"decks": 2}),  # no tens among the ranks
    ("random-blackjack", {"decks": 0}),  # the infinite deck: multinomials times powers
]
IDS = [f"{p}-{o}" for p, o in RULES]


def compiled_analysis(profile: str, over: dict, monkeypatch) -> Analysis:
    monkeypatch.delenv("CABINET_EXACT", raising=False)
    an = Analysis(load_profile(profile, over).rules)
    if an.table(1).fast is None:
        pytest.skip("the exact analysis's kernels are not compiled here")
    return an


def weight(an: Analysis, hand, up: int) -> float:
    """The chance of being dealt ``hand`` against ``up`` (any order), as the chart defines it."""
    shoe = an.shoe
    if shoe.infinite:
        q = shoe.next_probs(ZERO)
        mult, n = 1, 0
        for c in hand:
            n += c
            mult *= comb(n, c)
        w = float(mult)
        for i, c in enumerate(hand):
            w *= q[i] ** c
        return w
    left = list(shoe.full)
    left[up - 1] -= 1
    num = 1
    for i, c in enumerate(hand):
        num *= comb(left[i], c)
    return num / comb(sum(left), size(hand))


@pytest.mark.parametrize(("profile", "over"), RULES, ids=IDS)
def test_the_sums_over_hands_of_three_cards_or_more_are_the_per_hand_loops_to_the_bit(profile, over, monkeypatch):
    from machine.gamemath.blackjack.chartarrays import multi_sums

    an = compiled_analysis(profile, over, monkeypatch)
    for up in (1, 6, 10):
        t = an.table(up)
        play = t.play()
        assert isinstance(play, FastPlay)
        want: dict = {}
        for hand in hands_up_to(t.left_after_up(), min_cards=3):
            total, soft = score(hand)
            if total >= 21:
                continue
            w = weight(an, hand, up)
            acc = want.setdefault((total, soft), {"stand": 0.0, "hit": 0.0})
            acc["stand"] += w * play.stand(hand)
            acc["hit"] += w * play.hit(hand, True)
        assert multi_sums(an.shoe, up, play) == want, up


@pytest.mark.parametrize(("profile", "over"), RULES, ids=IDS)
def test_the_deal_weights_are_the_charts_per_hand_weights_to_the_bit(profile, over, monkeypatch):
    """Six decks and more: numerators and denominators past 2**53, where rounding each to a
    float first parts a few hundred weights from the exact quotient in their last bit."""
    from machine.gamemath.blackjack.chartarrays import deal_weights

    an = compiled_analysis(profile, over, monkeypatch)
    for up in (1, 10):
        ft = an.table(up).fast
        assert ft is not None
        got = deal_weights(an.shoe, up, ft.C)
        assert got.tolist() == [weight(an, hand, up) for hand in ft.hands], up


@pytest.mark.parametrize(("profile", "over"), RULES[:2], ids=IDS[:2])
def test_a_charts_hit_or_stand_from_the_arrays_is_what_its_policy_answers_for_every_hand(profile, over, monkeypatch):
    from machine.gamemath.blackjack.chartarrays import chart_hits

    an = compiled_analysis(profile, over, monkeypatch)
    game.analysis.cache_clear()
    c = chart.basic_strategy(an.rules)
    for up in chart.UPS:
        ft = an.table(up).fast
        assert ft is not None
        rows = tuple({t: row[up] for t, row in table.items()} for table in (c.hard, c.soft, c.multi_hard, c.multi_soft))
        got = chart_hits(ft, rows, lambda code: chart.resolve(code, ("stand", "hit")) == "hit")
        asked = ft.policy_hits(c.policy(up))  # the policy asked hand by hand
        assert got.dtype == asked.dtype and np.array_equal(got, asked), up
        assert got[:, 0].any() and not got[:, 0].all()
    game.analysis.cache_clear()


@pytest.mark.parametrize(("profile", "over", "mode"), [
    (*RULES[0], "compiled"), (*RULES[2], "compiled"), (*RULES[4], "compiled"),
    ("european-blackjack", {}, "compiled"),  # the first split hand valued apart
    ("casino-blackjack", {"surrender": "early"}, "python"),
])
def test_the_chart_priced_column_by_column_in_two_processes_or_on_threads_is_basic_strategy_then_chart_rtp(
    profile, over, mode, monkeypatch
):
    if mode == "python":
        monkeypatch.setenv("CABINET_EXACT", "python")
    else:
        monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile(profile, over).rules
    game.analysis.cache_clear()
    c1 = chart.basic_strategy(rules)
    r1 = chart.chart_rtp(rules, c1)
    figures = []
    for cores, forks in ((1, True), (2, True), (2, False)):  # one process; a forked child beside it; threads
        monkeypatch.setattr(chart.os, "cpu_count", lambda cores=cores: cores)
        monkeypatch.setattr(chart, "can_fork", lambda forks=forks: forks)
        game.analysis.cache_clear()
        figures.append(chart.chart_and_rtp(rules))
    game.analysis.cache_clear()
    for c2, r2 in figures:
        assert c2 == c1
        assert c2.text() == c1.text()
        assert (r2.rtp, r2.house_edge) == (r1.rtp, r1.house_edge)  # the same bits
        assert r2.breakdown == r1.breakdown and r2.frequency == r1.frequency and r2.by_up_card == r1.by_up_card


def test_the_chart_is_computed_with_the_kernels_when_the_tables_on_disk_would_be_played_in_python(
    tmp_path, monkeypatch
):
    """Tables read back from the cache folder are played by the pure-Python ``table.Play``
    (seconds for six decks): with the kernels compiled, ``cabinet strategy`` computes afresh
    with them instead, to the same figures."""
    from machine.gamemath.blackjack import auto, table

    monkeypatch.delenv("CABINET_EXACT", raising=False)
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path))
    rules = load_profile("casino-blackjack", {"decks": 2}).rules
    game.analysis.cache_clear()
    want = chart.chart_and_rtp(rules)
    game.analysis.cache_clear()
    auto.prepare(rules)  # the tables left in the cache folder
    game.analysis.cache_clear()
    assert game.analysis(rules).table(2).fast is None  # read back: the pure-Python plays
    monkeypatch.setattr(table.Play, "stand", lambda self, hand: pytest.fail("a pure-Python play"))
    got = chart.chart_and_rtp(rules)
    game.analysis.cache_clear()
    assert got[0] == want[0]
    assert (got[1].rtp, got[1].breakdown) == (want[1].rtp, want[1].breakdown)


def test_two_processes_give_each_result_in_order_the_childs_to_the_bit():
    import os
    import select

    from machine.gamemath.blackjack.forked import on_two_processes

    # The parent's items wait (10 s at most) until the child has done one, so the child always
    # has some: with a sleep alone, a child scheduled late on a busy machine could have none.
    parent = os.getpid()
    gate_r, gate_w = os.pipe()

    def work(x: int) -> tuple[int, float, dict[int, tuple[str, float]]]:
        if os.getpid() == parent:
            select.select([gate_r], [], [], 10.0)
        else:
            os.write(gate_w, b"!")
        return os.getpid(), x / 7.0, {x: (str(x), x * 0.1)}

    items = list(range(12))
    try:
        got = on_two_processes(work, items)
    finally:
        os.close(gate_r)
        os.close(gate_w)
    assert [(v, d) for _, v, d in got] == [(x / 7.0, {x: (str(x), x * 0.1)}) for x in items]
    assert {pid for pid, _, _ in got} - {os.getpid()}  # some items were the child's


def test_a_failing_child_leaves_its_items_to_the_parent_and_a_failing_parent_its_child_reaped(monkeypatch):
    import os
    import select

    from machine.gamemath.blackjack.forked import on_two_processes

    parent = os.getpid()

    def child_fails(x: int) -> int:
        if os.getpid() != parent:
            raise RuntimeError("the child's")
        return -x

    assert on_two_processes(child_fails, [1, 2, 3, 4]) == [-1, -2, -3, -4]

    # The child waits in its first item until the parent has failed (or 10 s), so the parent
    # always has an item of its own to fail on: without the gate a quick child could take all
    # four before the parent read a token, and nothing would fail.
    gate_r, gate_w = os.pipe()

    def parent_fails(x: int) -> int:
        if os.getpid() == parent:
            os.write(gate_w, b"!")
            raise ValueError("the parent's")
        select.select([gate_r], [], [], 10.0)
        return x

    forked: list[int] = []
    fork = os.fork

    def recorded_fork() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(os, "fork", recorded_fork)
    try:
        with pytest.raises(ValueError, match="the parent's"):
            on_two_processes(parent_fails, [1, 2, 3, 4])
    finally:
        os.close(gate_r)
        os.close(gate_w)
    assert len(forked) == 1
    with pytest.raises(ChildProcessError):
        os.waitpid(forked[0], os.WNOHANG)  # the child was reaped: none left behind


def test_a_child_killed_while_writing_its_results_counts_as_having_sent_none(monkeypatch):
    """A child killed mid-write (the OOM killer) leaves a cut pickle: its items are computed
    again here, not unpickled into a traceback."""
    import os
    import signal

    from machine.gamemath.blackjack.forked import on_two_processes

    parent = os.getpid()
    fdopen = os.fdopen

    class CutWriter:  # the child's end of the results pipe: half of the results, then killed
        def __init__(self, fd: int) -> None:
            self.file = fdopen(fd, "wb")

        def __enter__(self) -> CutWriter:
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def write(self, data: bytes) -> None:
            self.file.write(data[: len(data) // 2])
            self.file.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    def cut_in_the_child(fd: int, mode: str = "r"):
        return fdopen(fd, mode) if os.getpid() == parent or "w" not in mode else CutWriter(fd)

    monkeypatch.setattr(os, "fdopen", cut_in_the_child)
    # the parent's one item waits for nothing; the child takes the other and writes 1 MiB
    assert on_two_processes(lambda x: bytes([x]) * (1 << 20), [1, 2]) == [b"\x01" * (1 << 20), b"\x02" * (1 << 20)]


def test_a_fork_the_system_refuses_computes_every_item_here_and_leaves_no_pipe_open(monkeypatch):
    import errno
    import os

    from machine.gamemath.blackjack.forked import on_two_processes

    def refused() -> int:
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", refused)
    before = sorted(os.listdir("/proc/self/fd"))
    assert on_two_processes(lambda x: x * 3, [1, 2, 3]) == [3, 6, 9]
    assert sorted(os.listdir("/proc/self/fd")) == before


def test_only_the_main_thread_of_a_process_forks_a_child_for_the_columns():
    """A thread of a running cabinet (the bus, SAS, the screens beside it) never forks: a lock
    another thread held at the fork would stay held in the child for ever."""
    import threading

    from machine.gamemath.blackjack import forked

    seen: list[bool] = []
    worker = threading.Thread(target=lambda: seen.append(forked.can_fork()))
    worker.start()
    worker.join()
    assert seen == [False] and forked.can_fork() is hasattr(__import__("os"), "fork")
