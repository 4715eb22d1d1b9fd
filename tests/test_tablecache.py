"""Auto's tables on disk (machine.gamemath.tablecache): read back exactly, a stale, cut or edited
file computed again (never trusted, never a crash), written whole, and each game's tables
restored to the same values and decisions as a fresh build."""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import struct

import pytest

from machine.gamemath import tablecache
from machine.gamemath.blackjack import auto, dealer, game
from machine.gamemath.blackjack.shoe import hands_up_to
from machine.gamemath.eenentwintig import exact as e21
from machine.gamemath.ochko import exact as ochko_exact
from machine.profiles import load_profile

TABLES: dict[str, tablecache.Table] = {
    "rows": {(1, 2, 3): (0.1, -1e-300, 5e300), (0, 0, -7): (math.pi, 0.0, -0.0), (32767, -32768, 0): (1.5, 2.5, 3.5)},
    "one": {(4,): (math.nan,)},
    "empty": {},
}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def same(a: dict[str, tablecache.Table], b: dict[str, tablecache.Table]) -> bool:
    """Equal tables, in the same order, bit for bit (NaN equal to NaN, -0.0 told from 0.0)."""
    return tablecache.encode("", a) == tablecache.encode("", b)


def test_the_folder_is_the_variables_else_the_users_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path / "own"))
    assert tablecache.cache_dir() == tmp_path / "own"
    monkeypatch.delenv("CABINET_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert tablecache.cache_dir() == tmp_path / "xdg" / "cabinet"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert tablecache.cache_dir() == tmp_path / "home" / ".cache" / "cabinet"


def test_tables_read_back_bit_for_bit_and_a_file_is_written_whole(folder):
    tablecache.save("t", "k" * 64, TABLES)
    got = tablecache.load("t", "k" * 64)
    assert got is not None and same(got, TABLES)
    assert [p.name for p in folder.iterdir()] == [tablecache.path_of("t", "k" * 64).name]  # no temporary left
    tablecache.save("t", "k" * 64, {"one": {(4,): (2.0,)}})  # the same key again: replaced
    assert tablecache.load("t", "k" * 64) == {"one": {(4,): (2.0,)}}


def test_a_stale_key_reads_as_absent_and_the_keys_follow_rules_and_program(folder, monkeypatch):
    key = tablecache.rules_key("blackjack", {"decks": 6})
    tablecache.save("t", key, TABLES)
    other = tablecache.rules_key("blackjack", {"decks": 6}, 400_000)
    assert other != key and tablecache.path_of("t", other) != tablecache.path_of("t", key)
    assert tablecache.rules_key("blackjack", {"decks": 8}) != key
    assert tablecache.rules_key("ochko", {"decks": 6}) != key
    monkeypatch.setattr(tablecache, "program_digest", lambda: "0" * 64)  # a changed program
    assert tablecache.rules_key("blackjack", {"decks": 6}) != key
    # a file under the same name holding another key (the same rules, an older program): stale
    stale = tablecache.path_of("t", key).read_bytes().replace(key.encode(), key[:-1].encode() + b"x", 1)
    tablecache.path_of("t", key).write_bytes(stale)
    assert tablecache.load("t", key) is None


def test_a_cut_edited_or_foreign_file_reads_as_absent_never_a_crash(folder):
    key = "a" * 64
    tablecache.save("t", key, TABLES)
    path = tablecache.path_of("t", key)
    whole = path.read_bytes()
    spoilt = [whole[:n] for n in (0, 1, 10, len(tablecache.MAGIC) + 64, len(whole) // 2, len(whole) - 1)]
    spoilt += [whole[:i] + bytes([whole[i] ^ 1]) + whole[i + 1 :] for i in range(0, len(whole), 7)]  # one bit each
    spoilt += [whole + b"\0", os.urandom(len(whole)), tablecache.MAGIC + os.urandom(300)]
    for data in spoilt:
        path.write_bytes(data)
        assert tablecache.load("t", key) is None
    # content that passes the digest but is not tables: still absent
    for content in (b"{}\n", b"[[1, 2, 3]]\n", b'[["x", 2, 1, 1]]\n\0\0', b"[[\"x\", -1, 1, 1]]\n", b"not json\n"):
        path.write_bytes(tablecache.MAGIC + key.encode() + b"\n" + hashlib.sha256(content).hexdigest().encode() + b"\n" + content)
        assert tablecache.load("t", key) is None
    path.unlink()
    assert tablecache.load("t", key) is None


def test_a_folder_that_cannot_be_written_is_skipped(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("CABINET_CACHE_DIR", str(tmp_path / "file"))  # a file where the folder should be
    tablecache.save("t", "k" * 64, TABLES)
    assert tablecache.load("t", "k" * 64) is None


def counted_blackjack(monkeypatch) -> list[int]:
    """Blackjack's heavy work made cheap and counted: the dealer's outcomes and the split values
    (what prepare must compute, or read from the cache instead)."""
    calls: list[int] = []

    def probs_batch(shoe, up, hits_soft_17, comps):
        calls.append(up)
        return [tuple(float(up + i + c[0]) for i in range(7)) for c in comps]

    monkeypatch.setenv("CABINET_EXACT", "python")  # the pure-Python tables, whose dealer batch is counted here
    monkeypatch.setattr(dealer, "probs_batch", probs_batch)
    monkeypatch.setattr(game, "split_values", lambda table, *args: {p: float(p * table.up) for p in range(1, 11)})
    game.analysis.cache_clear()
    return calls


def test_prepare_leaves_the_tables_and_a_new_process_reads_them_or_rebuilds_a_stale_or_cut_file(folder, monkeypatch):
    calls = counted_blackjack(monkeypatch)
    rules = load_profile("casino-blackjack", {"decks": 0}).rules  # an infinite shoe: fewer hands to list
    try:
        built = auto.prepare(rules).tables()
        assert sorted(calls) == list(range(1, 11))  # every up card computed
        path = tablecache.path_of(game.TABLES, game.tables_key(rules))
        assert path.is_file()
        game.analysis.cache_clear()  # a new process
        calls.clear()
        warm = auto.prepare(rules)
        assert calls == [] and same(warm.tables(), built)  # read, not computed
        assert auto.action_values(rules, [10, 6], 7) == warm.first_values((0,) * 5 + (1, 0, 0, 0, 1), 7)

        path.write_bytes(path.read_bytes()[:-100])  # cut
        calls.clear()
        game.analysis.cache_clear()
        auto.prepare(rules)
        assert sorted(calls) == list(range(1, 11))  # computed again, and written whole again
        assert same(tablecache.load(game.TABLES, game.tables_key(rules)) or {}, built)

        calls.clear()
        monkeypatch.setattr(tablecache, "program_digest", lambda: "1" * 64)  # a new program: stale
        game.analysis.cache_clear()
        auto.prepare(rules)
        assert sorted(calls) == list(range(1, 11))
        assert tablecache.load(game.TABLES, game.tables_key(rules)) is not None  # the new key's file
    finally:
        game.analysis.cache_clear()  # no fake table left for later tests


def test_blackjack_tables_restored_give_the_same_values_and_decisions_on_every_state(folder):
    # an infinite shoe and one up card (the ace: insurance, the peek, the most to restore) keep it fast
    rules = load_profile("casino-blackjack", {"decks": 0}).rules
    fresh = game.Analysis(rules)
    fresh.splits(1)
    tablecache.save(game.TABLES, "k" * 64, fresh.tables())
    warm = game.Analysis(rules)
    assert warm.restore(tablecache.load(game.TABLES, "k" * 64) or {})
    assert same(warm.tables(), fresh.tables())
    assert not game.Analysis(rules).restore({"dealer1": {(1,) * 10: (0.0,)}, "splits": {}})  # not the shape: refused
    for up in (1,):
        assert warm.has_splits(up) and warm.splits(up) == fresh.splits(up)
        for hand in hands_up_to(None):
            if sum(hand) == 2:
                assert warm.first_decision(hand, up) == fresh.first_decision(hand, up)
                assert warm.first_values(hand, up) == fresh.first_values(hand, up)
                assert warm.insurance(hand, up) == fresh.insurance(hand, up)
            for split in (False, True):
                options = ("stand", "hit")
                assert warm.play(up).best(hand, split, options) == fresh.play(up).best(hand, split, options)


def test_ochko_values_restored_are_the_same_and_answer_every_decision(folder):
    fresh = ochko_exact.Analysis(1, True)
    for first in range(ochko_exact.NV):  # a finite deck's values against the ace
        fresh.first_card_ev(first, ochko_exact.ACE_I, False)
    hand = ochko_exact.plus(ochko_exact.plus(ochko_exact.ZERO, 6), 7)  # 9 + 10: 19, the dark card offered
    fresh.action_values(hand, 3, True)
    tablecache.save("t", "k" * 64, fresh.tables())
    warm = ochko_exact.Analysis(1, True)
    assert warm.restore(tablecache.load("t", "k" * 64) or {})
    assert warm._values == fresh._values and same(warm.tables(), fresh.tables())
    assert "dark" in warm.action_values(hand, 3, True)
    assert not ochko_exact.Analysis(0, True).restore(fresh.tables())  # an infinite deck keys by total: refused


def test_eenentwintig_values_restored_are_the_same(folder):
    rules = dataclasses.replace(load_profile("eenentwintig").rules, decks=0)  # an infinite deck: fast
    fresh = e21.Exact(rules)
    seven, eight = e21.INDEX[7], e21.INDEX[8]
    for i in range(8):
        fresh.choices(e21.plus(e21.plus(e21.ZERO, i), seven))  # every first hand with a seven (7 7: the split)
    fresh.choices(e21.plus(e21.plus(e21.ZERO, seven), eight))  # a 7 and an 8: the wash
    assert fresh.tables()["split"] and any(not math.isnan(v[3]) for v in fresh.tables()["first"].values())
    tablecache.save("t", "k" * 64, fresh.tables())
    warm = e21.Exact(rules)
    assert warm.restore(tablecache.load("t", "k" * 64) or {})
    assert warm._first == fresh._first and warm._hand == fresh._hand and warm._split == fresh._split
    assert warm.hands() == fresh.hands() and same(warm.tables(), fresh.tables())


def test_a_packed_table_is_written_as_the_dict_of_its_rows_and_a_short_one_refused():
    rows = TABLES["rows"]
    keys = b"".join(int(x).to_bytes(2, "little", signed=True) for k in rows for x in k)
    values = b"".join(struct.pack("<d", x) for v in rows.values() for x in v)
    packed = tablecache.Packed(3, 3, 3, keys, values)
    assert tablecache.encode("k", {**TABLES, "rows": packed}) == tablecache.encode("k", TABLES)
    with pytest.raises(ValueError, match="table rows: 3 rows"):
        tablecache.encode("k", {"rows": dataclasses.replace(packed, values=values[:-8])})


def test_blackjack_tables_saved_from_the_compiled_arrays_are_the_bytes_of_its_dicts(folder):
    pytest.importorskip("numba")
    rules = load_profile("casino-blackjack", {"decks": 2}).rules
    an = game.Analysis(rules)
    an.splits(6)
    an.table(1)
    assert an.table(6).dist_rows() is not None  # (compiled: saved from its arrays)
    packed = an.packed()
    assert isinstance(packed["dealer6"], tablecache.Packed)
    assert tablecache.encode("k", packed) == tablecache.encode("k", an.tables())
