"""The compiled exact analysis (``machine.gamemath.blackjack.exact_fast``) against the pure-Python one.

The compiled tables must price every hand as ``table.Play`` does: the split values and every
first-decision value of each shipped blackjack-engine profile (one deck, to keep the pure-Python
side quick; an infinite deck too) agree to 1e-12 for three up cards that cover a hole card's
peek, a plain up card and a dealer blackjack by a ten. A cabinet that reads the tables back from
the cache folder plays them with the pure-Python ``Play``: it must decide exactly as the process
that computed them, to the last bit. The dealer's outcomes are checked against a brute-force walk
over the dealer's ordered draws.
"""

from __future__ import annotations

import os
from fractions import Fraction

import pytest

pytest.importorskip("numba")

from machine.gamemath.blackjack import exact_fast, game  # noqa: E402
from machine.gamemath.blackjack.game import Analysis, first_deals  # noqa: E402
from machine.gamemath.blackjack.shoe import from_values, shoe_of  # noqa: E402
from machine.gamemath.blackjack.table import Play, UpTable  # noqa: E402
from machine.games.blackjack import scoring as bj  # noqa: E402
from machine.profiles import load_profile  # noqa: E402

PROFILES = [
    ("random-blackjack", {"decks": 1}),  # no hole card, three sevens, the joint limit, charlie off
    ("casino-blackjack", {}),  # one deck, hole card, peek
    ("european-blackjack", {"decks": 1}),  # the first split hand valued apart
    ("swedish-pub-blackjack", {"decks": 1}),  # the dealer wins ties on 17-19
    ("spanish-21", {"decks": 1}),  # 48-card decks, the player's 21 wins
    ("random-blackjack", {"decks": 0}),  # the infinite deck
]
UPS = (1, 6, 10)


def analysis_of(rules, monkeypatch, compiled: bool) -> Analysis:
    if compiled:
        monkeypatch.delenv("CABINET_EXACT", raising=False)
    else:
        monkeypatch.setenv("CABINET_EXACT", "python")
    an = Analysis(rules)
    for up in UPS:
        an.splits(up)
    assert all((an.table(up).fast is not None) == compiled for up in UPS)
    return an


@pytest.mark.parametrize(("profile", "over"), PROFILES, ids=[f"{p}-{o}" for p, o in PROFILES])
def test_the_compiled_tables_price_every_first_decision_as_the_pure_python_ones(profile, over, monkeypatch):
    rules = load_profile(profile, over).rules
    fast = analysis_of(rules, monkeypatch, True)
    pure = analysis_of(rules, monkeypatch, False)
    for up in UPS:
        for p, v in pure.splits(up).items():
            w = fast.splits(up)[p]
            assert (v is None) == (w is None), (up, p)
            if v is not None:
                assert w == pytest.approx(v, abs=1e-12), (up, p)
        for hand, _ in first_deals(fast.shoe, up):
            a, b = pure.first_values(hand, up), fast.first_values(hand, up)
            assert a.keys() == b.keys()
            for action in a:
                assert b[action] == pytest.approx(a[action], abs=1e-12), (up, hand, action)
            # three cards: the values of hitting and standing on, as a split hand or not
            for v in range(1, 11):
                three = tuple(c + (i == v - 1) for i, c in enumerate(hand))
                if bj.counts_hard_total(three) < 21 and fast.table(up).fits(three):
                    for split in (False, True):
                        assert fast.play(up).hit(three, split) == pytest.approx(pure.play(up).hit(three, split), abs=1e-12)


@pytest.mark.parametrize(("profile", "over"), PROFILES[:3], ids=[p for p, _ in PROFILES[:3]])
def test_tables_read_back_from_the_cache_decide_as_the_process_that_computed_them(profile, over, monkeypatch):
    """The cache folder keeps the compiled tables' dealer outcomes and split values; the
    pure-Python plays that read them give the very same values (same bits), so a cabinet plays
    the same whether its tables were computed now or read back."""
    rules = load_profile(profile, over).rules
    computed = analysis_of(rules, monkeypatch, True)
    for up in range(1, 11):
        computed.splits(up)
    restored = Analysis(rules)
    assert restored.restore(computed.tables())
    for up in range(1, 11):
        assert isinstance(restored.play(up), Play)
        for hand, _ in first_deals(computed.shoe, up):
            assert restored.first_values(hand, up) == computed.first_values(hand, up), (up, hand)
            assert restored.first_decision(hand, up) == computed.first_decision(hand, up)


def brute_dealer(rules, up: int, removed: tuple[int, ...]) -> list[Fraction]:
    """The dealer's outcomes by walking every ordered draw from the shoe (exact fractions)."""
    shoe = shoe_of(rules)
    left = [f - r - (1 if v == up else 0) for v, (f, r) in enumerate(zip(shoe.full, removed, strict=True), 1)]
    out = [Fraction(0)] * 7

    def walk(hard: int, ace: bool, n: int, p: Fraction) -> None:
        total, soft = bj.hand_score(hard, ace, False)
        if not bj.dealer_draws(total, soft, rules.dealer_hits_soft_17):
            o = 6 if bj.is_natural(n, hard, ace) else 5 if total > 21 else total - 17
            out[o] += p
            return
        size = sum(left)
        for v in range(1, 11):
            if left[v - 1]:
                q = p * Fraction(left[v - 1], size)
                left[v - 1] -= 1
                walk(hard + v, ace or v == 1, n + 1, q)
                left[v - 1] += 1

    walk(up, up == 1, 1, Fraction(1))
    if rules.hole_card:
        out[6] = Fraction(0)
    return out


@pytest.mark.parametrize("up", [1, 2, 7, 10])
def test_the_dealers_outcomes_are_those_of_every_ordered_draw(up, monkeypatch):
    monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile("casino-blackjack").rules  # one deck: removals change the odds most
    table = UpTable(rules, up)
    assert table.fast is not None
    removals = [from_values(h) for h in ([10, 6], [1, 1], [7, 7, 7], [2, 3, 4, 5], [10, 10, 1], [5, 5, 5, 5, 1])]
    got = table.fast.dealer(removals)
    for removal, row in zip(removals, got, strict=True):
        want = brute_dealer(rules, up, removal)
        assert list(row) == pytest.approx([float(w) for w in want], abs=1e-14), removal


def test_the_figures_are_the_same_bits_on_one_thread_or_several(monkeypatch):
    monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile("casino-blackjack", {"decks": 2}).rules
    one, two = Analysis(rules), Analysis(rules)
    assert one.compute_all(1) and two.compute_all(2)
    assert not one.compute_all(1)  # nothing left to compute
    for up in range(1, 11):
        assert one.splits(up) == two.splits(up)
    game.analysis.cache_clear()


def test_no_garbage_collection_while_the_tables_are_computed_and_the_collector_as_it_was_after(monkeypatch):
    import gc

    monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile("casino-blackjack", {"decks": 2}).rules
    one, two = Analysis(rules), Analysis(rules)
    passes: list[int] = []

    def counted(phase, info):
        if phase == "start":
            passes.append(info["generation"])

    gc.callbacks.append(counted)
    try:
        assert gc.isenabled()
        assert one.compute_all(2)
        assert len(passes) <= 1 and gc.isenabled()  # (one pass may come once enabled again, as it returns)
        passes.clear()
        gc.disable()
        assert two.compute_all(1)
        assert passes == [] and not gc.isenabled()  # (disabled before: left so)
    finally:
        gc.enable()
        gc.callbacks.remove(counted)


def test_without_numba_or_when_told_the_tables_are_pure_python(monkeypatch):
    monkeypatch.setenv("CABINET_EXACT", "python")
    rules = load_profile("casino-blackjack").rules
    table = UpTable(rules, 6)
    assert table.fast is None and isinstance(table.play(), Play)
    monkeypatch.delenv("CABINET_EXACT")
    table = UpTable(rules, 6)
    assert isinstance(table.fast, exact_fast.FastTable) and isinstance(table.play(), exact_fast.FastPlay)


@pytest.mark.parametrize("workers", [1, 2])
def test_computing_every_up_card_reports_its_progress(workers, monkeypatch):
    monkeypatch.delenv("CABINET_EXACT", raising=False)
    seen: list[tuple[int, int]] = []
    an = Analysis(load_profile("casino-blackjack").rules)
    assert an.compute_all(workers, lambda done, of: seen.append((done, of)))
    assert seen == [(k, 10) for k in range(11)]
    seen.clear()
    assert not an.compute_all(workers, lambda done, of: seen.append((done, of))) and seen == []


# slow: a chart's exact return computed twice, once in pure Python (the reference for the compiled one)
@pytest.mark.parametrize(("profile", "over"), [PROFILES[2]], ids=[PROFILES[2][0]])
def test_a_charts_return_is_the_same_compiled_or_pure_python(profile, over, monkeypatch):
    """A chart's policy is not Auto's: the compiled plays ask it once per hand and follow it."""
    from machine.gamemath.blackjack.chart import basic_strategy, chart_rtp

    rules = load_profile(profile, over).rules
    figures = {}
    for mode in ("python", "compiled"):
        if mode == "python":
            monkeypatch.setenv("CABINET_EXACT", "python")
        else:
            monkeypatch.delenv("CABINET_EXACT", raising=False)
        game.analysis.cache_clear()
        chart = basic_strategy(rules)
        figures[mode] = (chart, chart_rtp(rules, chart))
    (c1, r1), (c2, r2) = figures["python"], figures["compiled"]
    assert c1 == c2
    assert r2.rtp == pytest.approx(r1.rtp, abs=1e-12)
    for part, v in r1.breakdown.items():
        assert r2.breakdown[part] == pytest.approx(v, abs=1e-12), part
    game.analysis.cache_clear()


def test_two_threads_on_one_tables_split_values_get_the_values_of_one(monkeypatch):
    """A thread preparing the tables and an Auto decision may work on the same up card: the
    compiled plays' dealer outcomes pass through a "requested" state that the other thread
    must never read as computed (it read zeros, and wrong split values went to the cache)."""
    import threading

    from machine.gamemath.blackjack.split import split_values

    monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile("random-blackjack", {"decks": 1}).rules
    ref = Analysis(rules)
    want = {up: ref.splits(up) for up in (1, 10)}
    for _ in range(4):
        an = Analysis(rules)
        got: dict[tuple[int, int], dict] = {}

        def work(k: int, an: Analysis = an, got: dict = got) -> None:
            for up in (1, 10):
                other = (an.policy(up, first=False), "auto-other")
                got[(k, up)] = split_values(an.table(up), an.policy(up), "auto", other)

        threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for (_, up), values in got.items():
            assert values == want[up], up


@pytest.mark.parametrize(("profile", "over"), [("random-blackjack", {"decks": 1}), ("casino-blackjack", {"decks": 6})])
def test_the_kernels_hand_arrays_say_each_hands_totals_cards_children_and_bonus(profile, over, monkeypatch):
    from machine.gamemath.blackjack.choices import doubles_to_sevens_bonus, stands_on_sevens_bonus
    from machine.gamemath.blackjack.exact_layout import CARDS, CHILD, TDOUBLE, TOTAL
    from machine.gamemath.blackjack.shoe import hands_up_to, plus, score

    monkeypatch.delenv("CABINET_EXACT", raising=False)
    rules = load_profile(profile, over).rules
    ft = exact_fast.FastTable(UpTable(rules, 7))
    limit = ft.t.left_after_up()
    assert ft.hands == list(hands_up_to(None if limit is None else tuple(min(m, 21 // v) for v, m in enumerate(limit, 1))))
    assert ft.H.shape == (ft.n, CHILD + 10) and ft.H.flags.c_contiguous and ft.C.flags.c_contiguous
    bonus = float(rules.three_sevens_bonus)
    for i, h in enumerate(ft.hands):
        assert ft.index[h] == i and tuple(ft.C[i]) == h
        assert (ft.H[i, TOTAL], ft.H[i, CARDS], ft.H[i, TDOUBLE]) == (
            score(h)[0], sum(h), score(h, rules.double_makes_aces_hard)[0])
        assert [ft.index.get(plus(h, v), -1) for v in range(1, 11)] == list(ft.H[i, CHILD:])
        assert list(ft.F[i]) == [stands_on_sevens_bonus(bonus, h, False), stands_on_sevens_bonus(bonus, h, True),
                                 doubles_to_sevens_bonus(bonus, h, False), doubles_to_sevens_bonus(bonus, h, True)]
    assert ft.F.any() == (profile == "random-blackjack")  # (random blackjack's three sevens are there to see)


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts the process's threads in /proc")
def test_a_process_of_the_compiled_analysis_starts_no_blas_threads():
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    probe = ("import os; import machine.gamemath.blackjack.exact_fast; "
             "print(os.environ['OPENBLAS_NUM_THREADS'], len(os.listdir('/proc/self/task')))")
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["1", "1"]  # (OpenBLAS's threads would spin on the cores the analysis's threads use)
    env["OPENBLAS_NUM_THREADS"] = "2"  # a value the user set is kept
    out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split()[0] == "2"


def test_on_threads_gives_each_result_in_order_and_takes_the_items_in_order():
    taken: list[int] = []
    seen: list[int] = []

    def square(x: int) -> int:
        taken.append(x)
        return x * x

    assert game.on_threads(square, [5, 3, 9, 1], 2, seen.append) == [25, 9, 81, 1]
    assert sorted(taken) == [1, 3, 5, 9] and seen == [1, 2, 3, 4]
    taken.clear()
    assert game.on_threads(square, [5, 3, 9, 1], 1) == [25, 9, 81, 1] and taken == [5, 3, 9, 1]


def test_on_threads_raises_the_works_exception_and_starts_no_item_after_it():
    started: list[int] = []

    def work(x: int) -> int:
        started.append(x)
        if x == 2:
            raise ValueError("two")
        return x

    with pytest.raises(ValueError, match="two"):
        game.on_threads(work, [2, 4, 6, 8, 10, 12], 1)
    assert started == [2]
