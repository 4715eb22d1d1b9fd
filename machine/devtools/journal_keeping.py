"""``cabinet bench journal-keeping``: what the journal costs a game, and what archiving costs play.

Owns: one benchmark (registered in ``machine/devtools/bench.py``): durable 4-seat rounds on a
journal in a temporary folder, its bytes in use per game; then the cabinet's own archiving
(``machine/money/archive.py``) forced at once, run from a frame loop at 60 frames a second:
the export's time on its own thread, each deletion step's pause and the longest frame, beside
one coin's durable commit (a deletion step is one such commit). Prints
figures; asserts nothing a test should.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

FRAME = 1 / 60


def journal_keeping_bench(rounds: int = 400) -> None:
    """Bytes per game, then the archive's export time and its longest pause of a frame loop."""
    from machine.core.cabinet import CabinetSettings, open_cabinet
    from machine.devtools.crashtest import memory_of, shoes_for, simple_player
    from machine.games.blackjack import BlackjackGame
    from machine.games.rules import load_profile
    from machine.money.archive import JournalKeeper

    with tempfile.TemporaryDirectory() as tmp:
        cab = open_cabinet(Path(tmp) / "journal.sqlite", load_profile("random-blackjack"), CabinetSettings(seats=4),
                           lambda profile: BlackjackGame(profile, simple_player), shoes_for(1), memory_of(Path(tmp)),
                           create=True)
        k = JournalKeeper(cab.journal, Path(tmp) / "archive", seats=4, max_bytes=1, max_age=1e12,
                          idle=lambda: cab.round is None and not cab.is_paying(), check_every=0.0, min_records=1)
        empty = k.bytes_in_use()
        rng = random.Random(1)
        for r in range(rounds):
            for n in range(1, 5):
                if cab.seats[n].money.credit < 20:
                    cab.coin(n, "EU200A", now=float(r))
                cab.press(n, "+2", float(r))
            for n in range(1, 5):
                cab.press(n, "start", float(r))
            while cab.round is not None:
                d = cab.round.pending
                assert d is not None, "a round with no seat to decide has ended"
                cab.press(d.seat, rng.choice(["stand", "draw", "auto"]), float(r))
        games = sum(s.meters.get("games_played") for s in cab.seats.values())
        used, records = k.bytes_in_use(), cab.journal.last_seq
        print(f"journal: {(used - empty) / games:,.0f} bytes per game ({games} games of 4 seats, {records:,} records, "
              f"{used / 2**20:.1f} MiB in use, {(used - empty) / rounds:,.0f} bytes per round of 4)")
        commits = []
        for i in range(40):  # the pause a money event makes, for comparison: one durable commit
            t = time.perf_counter()
            cab.coin(1 + i % 4, "EU050A", now=float(rounds))
            commits.append(time.perf_counter() - t)
        frames: list[float] = []
        start = time.perf_counter()
        while not k.made and time.perf_counter() - start < 120:
            t = time.perf_counter()
            k.step(t, time.time())
            frames.append(time.perf_counter() - t)
            time.sleep(max(0.0, FRAME - frames[-1]))
        took = time.perf_counter() - start
        k.close()
        moved = cab.journal.anchor_seq
        pauses = sorted(k.pauses)
        print(f"archive: {moved:,} records moved in {took:.2f} s of frames, {len(pauses)} deletion steps; pause per step "
              f"median {statistics.median(pauses) * 1e3:.1f} ms, longest {pauses[-1] * 1e3:.1f} ms; longest frame step "
              f"{max(frames) * 1e3:.1f} ms (a frame is {FRAME * 1e3:.1f} ms); the journal keeps {records - moved:,} "
              f"records, {k.bytes_in_use() / 2**20:.1f} MiB in use" if pauses else "archive: nothing moved")
        problems = cab.journal.verify()
        print(f"one coin's commit, for comparison: median {statistics.median(commits) * 1e3:.1f} ms, "
              f"longest {max(commits) * 1e3:.1f} ms")
        print("journal and archive checked: " + ("OK" if not problems else problems[0]))
        cab.journal.close()
