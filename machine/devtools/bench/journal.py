"""Benchmarks of the cabinet's core: money durability, start-up on a long journal, the crash
test, the operator PIN. Prints figures; asserts nothing.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from machine.devtools.bench.common import bench, percentile


@bench("journal")
def journal_bench(rounds: int = 300) -> None:
    """Commit latency of one money event, and whole rounds per second, with full durability."""
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.devtools.crashtest import memory_of, shoes_for, simple_player
    from machine.games.blackjack.game import BlackjackGame
    from machine.profiles import load_profile

    with tempfile.TemporaryDirectory() as tmp:
        journal = Path(tmp) / "journal.sqlite"
        memory = memory_of(Path(tmp))  # the head written to a file after every commit, as on a cabinet
        cab = open_cabinet(journal, load_profile("random-blackjack"), CabinetSettings(seats=4),
                           lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory, create=True)
        lat = []
        for i in range(500):
            t = time.perf_counter()
            cab.coin(1 + i % 4, "EU100A", now=0)
            lat.append(time.perf_counter() - t)
        print(f"journal commit (one coin, WAL, synchronous=FULL): median {statistics.median(lat) * 1e3:.2f} ms, "
              f"p99 {percentile(lat, 99) * 1e3:.2f} ms")
        rng = random.Random(1)
        t0 = time.perf_counter()
        txs = cab.inputs
        for r in range(rounds):
            now = float(r)
            for n in range(1, 5):
                cab.press(n, "+2", now)
            for n in range(1, 5):
                cab.press(n, "start", now)
            while cab.round is not None:
                d = cab.round.pending
                assert d is not None, "a round with no seat to decide has ended"
                cab.press(d.seat, rng.choice(["stand", "draw", "auto"]), now)
        dt = time.perf_counter() - t0
        print(f"durable 4-seat rounds: {rounds / dt:.1f} rounds/s ({(cab.inputs - txs) / dt:.0f} transactions/s)")


@bench("boot")
def boot_bench(records: int = 10_000_000) -> None:
    """Start-up on a journal of ``records`` records (years of play): it checks the last window from
    a checkpoint, so its time does not grow with the journal's age."""
    import sqlite3

    from machine.core.cabinet import Cabinet, CabinetSettings, open_cabinet
    from machine.devtools.crashtest import memory_of, shoes_for, simple_player
    from machine.games.blackjack.game import BlackjackGame
    from machine.money import journal as jm
    from machine.money.memory import Head
    from machine.profiles import load_profile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite"
        memory = memory_of(Path(tmp))

        def boot() -> tuple[float, Cabinet]:
            t = time.perf_counter()
            cab = open_cabinet(path, load_profile("random-blackjack"), CabinetSettings(seats=4),
                               lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory, create=True)
            return time.perf_counter() - t, cab

        _, cab = boot()
        for n in range(1, 5):
            cab.coin(n, "EU200A", now=0)
        cab.journal.close()
        small, cab = boot()
        journal_id = cab.journal.journal_id
        cab.journal.close()
        # years of play, written straight into the file as the journal would have: each record
        # chained under the key, a checkpoint every CHECKPOINT_EVERY records
        t = time.perf_counter()
        db = sqlite3.connect(path, isolation_level=None)
        seq, prev = db.execute("SELECT seq, mac FROM journal ORDER BY seq DESC LIMIT 1").fetchone()
        index = {k: [s, jm.digest(v)] for k, s, v in db.execute("SELECT key, seq, value FROM state")}
        text_of = jm.record_text  # (looked up once: the loop is hot)
        mac = jm.Keyed(memory.key)
        end = seq + records
        while seq < end:
            batch = []
            for _ in range(min(100_000, end - seq)):
                seq += 1
                if seq % jm.CHECKPOINT_EVERY == 0:
                    kind, seat, text = jm.CHECKPOINT, None, jm.canon({"rows": index})
                else:
                    kind, seat, text = "round_event", 1 + seq % 4, f'{{"card":"TS","event":"hit","hand":0,"n":{seq}}}'
                prev = mac(text_of(prev, seq, kind, seat, text))
                batch.append((seq, kind, seat, text, prev))
            db.execute("BEGIN")
            db.executemany("INSERT INTO journal (seq, kind, seat, data, mac) VALUES (?, ?, ?, ?, ?)", batch)
            db.execute("COMMIT")
        db.close()
        for store in memory.heads:
            store.write(Head(journal_id, seq, prev), memory.key)
        built = time.perf_counter() - t
        size = sum(f.stat().st_size for f in Path(tmp).glob("journal.sqlite*")) / 2**30
        big, cab = boot()
        assert cab.seats[1].money.credit == 20
        cab.journal.close()
        print(f"start-up (journal check from a checkpoint, every meter restored, power-up journaled): "
              f"{small * 1e3:.0f} ms on a new journal, {big * 1e3:.0f} ms on {records:,} records ({size:.1f} GiB; "
              f"written in {built:.0f} s)")


@bench("crash")
def crash_bench(kills: int = 10_000) -> None:
    """The crash test at the issue's size: ``kills`` SIGKILLs at journal, head, hopper and
    device-counter writes and during start-up, each run compared with an uninterrupted one."""
    from machine.devtools.crashtest import main as crash_main

    crash_main(kills, seed=7)


@bench("pin")
def pin_bench(checks: int = 10) -> None:
    """One operator PIN check at the stored cost, and what guessing all 10 000 four-digit PINs costs."""
    from machine.core import pinlock
    from machine.operator import pin

    stored = pin.hash_pin("1234")
    times = []
    for i in range(checks):
        t = time.perf_counter()
        pin.check(f"{i:04d}", stored)
        times.append(time.perf_counter() - t)
    each = statistics.median(times)
    wait = sum(pinlock.lock_seconds(n) for n in range(1, 10_001))
    print(f"operator PIN check (scrypt N={pin.SCRYPT_N} r={pin.SCRYPT_R} p={pin.SCRYPT_P}): median {each * 1e3:.0f} ms; "
          f"10 000 PINs offline from a copied configuration: {10_000 * each / 60:.0f} min of one core; "
          f"at the panel through the lockout: {wait / 86400:.0f} days")
