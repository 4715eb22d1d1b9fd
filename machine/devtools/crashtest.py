"""The crash test: kill the cabinet process at random instants and check nothing is lost.

Owns: a deterministic scripted play (coins, bet buttons, starts, decisions, timeouts, collects,
hopper payouts, hopper faults, hopper tests and attendant keys on several seats), the start-up
comparison of the hopper's count with the journal's (a kill point of its own), a file-backed hopper that
keeps its own counters the way a real hopper does across a power cut, the child process that
runs the real cabinet core on a journal and SIGKILLs itself at a chosen disk-touching instant,
and the comparison of the final meters, recall, payouts and coins against an uninterrupted
run. The script has banknotes too, through simulated bill validators that keep their memory across a
kill (``crashnotes.py``): what their stackers hold must be what the journal credited. ``cabinet
crashtest --kills N [--seed S]`` runs it.

The child is a ``fork`` of this process, so a kill point costs milliseconds, not a Python
start-up; it is a real ``SIGKILL`` of a real process all the same.
"""

from __future__ import annotations

import gc
import json
import os
import random
import secrets
import signal
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from machine.core.cabinet import Cabinet, CabinetSettings, Shuffler, open_cabinet
from machine.devtools.aftcrash import apply_aft, resume, with_aft
from machine.devtools.crashnotes import ADDRESS, FileValidators, add_notes
from machine.devtools.crashvouchers import FilePrinter, paper_problems
from machine.games.blackjack.game import BlackjackGame
from machine.games.blackjack.round import Round
from machine.games.cards import shuffle
from machine.loop.payout import HopperTestLedger, check_counter, run_payouts
from machine.money.memory import FileHeadStore, Memory
from machine.money.seatmoney import MoneySettings
from machine.operator.noteconfig import default_notes
from machine.profiles import load_profile
from machine.progress import Progress

SEATS = 3
SCRIPT_LENGTH = 140
COIN_IDS = ("EU050A", "EU100A", "EU200A")
BET_PRESSES = ("+2", "+10", "x2", "repeat", "max", "start", "start")
PLAY_PRESSES = ("draw", "stand", "double", "split", "insurance", "auto", "stand")


def simple_player(rnd: Round) -> str:
    """A deterministic stand-in player for timeouts in the crash test (not the cabinet's Auto)."""
    d = rnd.pending
    assert d is not None
    if d.kind != "play":
        return "no_insurance" if d.kind == "insurance" else "continue"
    hand = rnd.seat(d.seat).hands[d.hand or 0]
    return "hit" if hand.total < 12 and "hit" in d.options else "stand"


def make_script(seed: int, seats: int = SEATS, length: int = SCRIPT_LENGTH) -> list[tuple[Any, ...]]:
    """A reproducible list of inputs ``(kind, seat, arg, time)``."""
    rng = random.Random(seed)
    t = 0.0
    out: list[tuple[Any, ...]] = []
    for _ in range(length):
        t += rng.choice((0.5, 1.0, 2.0, 4.0, 16.0, 21.0))
        seat = rng.randint(1, seats)
        r = rng.random()
        if r < 0.15:
            out.append(("coin", seat, rng.choice(COIN_IDS), t))
        elif r < 0.45:
            out.append(("press", seat, rng.choice(BET_PRESSES), t))
        elif r < 0.78:
            out.append(("press", seat, rng.choice(PLAY_PRESSES), t))
        elif r < 0.88:
            out.append(("press", seat, "collect", t))
        elif r < 0.94:
            out.append(("attendant", seat, rng.choice(("clear", "handpay_rest")), t))
        elif r < 0.97:
            out.append(("refill", seat, rng.choice((3, 8, 40)), t))
        elif r < 0.985:
            out.append(("tick", seat, None, t))
        else:  # the operator menu's hopper test (its seat is not used)
            out.append(("hopper_test", seat, None, t))
    return with_aft(out, seed, seats)  # the host's cashless transfers among them (machine/devtools/aftcrash.py)


@dataclass(frozen=True)
class ChunkResult:
    paid: int
    unpaid: int
    resolved: bool = True


class FileHopper:
    """A hopper whose coin level and lifetime count survive a kill, as a real hopper's do.

    It speaks the payout-ledger protocol of the real driver (hardware/cctalk/hopper.py) in the
    simplest way: each coin is written (atomically, fsync'd) as it leaves, and only afterwards
    reported, so a kill between the two is the "coin out, not yet credited" case that
    ``reconcile`` settles from the lifetime count.
    """

    address = 3  # the journal follows its lifetime count under this ccTalk address

    def __init__(self, path: Path, hook: Callable[[str], None]):
        self.path = path
        self.hook = hook
        if path.exists():
            d = json.loads(path.read_text())
            self.level, self.lifetime = d["level"], d["lifetime"]
        else:
            self.level, self.lifetime = 12, 0
            self._save()

    def _save(self) -> None:
        tmp = self.path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            json.dump({"level": self.level, "lifetime": self.lifetime}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)

    def _dispense_one(self) -> bool:
        if self.level <= 0:
            return False
        self.hook("hopper_before_coin")
        self.level -= 1
        self.lifetime += 1
        self._save()
        self.hook("hopper_after_coin")
        return True

    def payout(self, coins: int, ledger) -> ChunkResult:
        ledger.begin_payout(coins)
        ledger.payout_baseline(self.lifetime, 0)
        for paid in range(coins):
            if not self._dispense_one():
                ledger.end_payout(paid, coins - paid, "empty")
                return ChunkResult(paid, coins - paid)
            ledger.coins_paid(1)
        ledger.end_payout(coins, 0, None)
        return ChunkResult(coins, 0)

    def reconcile(self, pending, ledger) -> ChunkResult:
        credited = pending.credited
        if pending.lifetime_before is not None:
            out = self.lifetime - pending.lifetime_before
            if out > credited:
                ledger.coins_paid(out - credited)
                credited = out
        unpaid = pending.requested - credited
        ledger.end_payout(credited, unpaid, "power cut" if unpaid else None)
        return ChunkResult(credited, unpaid)

    def lifetime_now(self, *, settle: bool = False) -> int:
        return self.lifetime

    def set_level(self, level: int) -> None:
        """An attendant refill to a level (idempotent, so a replayed refill changes nothing)."""
        self.level = max(self.level, level)
        self._save()


ALL_SEATS = list(range(1, SEATS + 1))


def drive_payouts(cab: Cabinet, hopper: FileHopper) -> None:
    """Carry out every payout the cabinet owes, through the same code as the cabinet loop."""
    run_payouts(cab, hopper)
    check_counter(cab, hopper, ALL_SEATS)


def hopper_test(cab: Cabinet, hopper: FileHopper) -> None:
    """The operator menu's hopper test, through the same ledger as the cabinet loop."""
    hopper.payout(1, HopperTestLedger(cab, hopper.address, ALL_SEATS))
    check_counter(cab, hopper, ALL_SEATS, when="after the hopper test")


def shoes_for(seed: int) -> Shuffler:
    """A reproducible shuffle of the game's shoe for each round (the same after a restart)."""
    return lambda cards, round_no: shuffle(cards, random.Random(seed * 7919 + round_no))


SETTINGS = CabinetSettings(seats=SEATS, money=MoneySettings(hopper_limit=150), note_values=default_notes(10),
                           credit_limit=1500, note_max={3: 200}, vouchers=True)


def apply(cab: Cabinet, hopper: FileHopper, step: tuple[Any, ...]) -> None:
    kind, seat, arg, t = step
    if kind == "coin":
        if cab.may_take_coins(seat):
            cab.coin(seat, arg, t)
    elif kind == "press":
        cab.press(seat, arg, t)
    elif kind == "attendant":
        if arg == "clear":
            cab.attendant_clear(seat)
        else:
            cab.attendant_handpay_rest(seat)
    elif kind == "refill":
        hopper.set_level(arg)
    elif kind == "hopper_test":
        hopper_test(cab, hopper)
    elif kind == "aft":
        apply_aft(cab, seat, arg, t)
    cab.tick(t)


KEY = secrets.token_bytes(32)  # the machine key of this crash test's journals (the children are forks)


def memory_of(data: Path, key: bytes = KEY) -> Memory:
    """A scenario's memory: the key, and its head store in a file beside the journal (a kill
    leaves it as a power cut would)."""
    return Memory(key, (FileHeadStore(data / "heads", data / "journal.sqlite"),))


def run_child(data: Path, seed: int, kill_at: int | None, auto: Callable[[Round], str] = simple_player,
              key: bytes = KEY) -> None:
    """Boot the cabinet from ``data`` and play the script on from where the journal says."""
    steps = 0
    label = data / "label"

    def hook(where: str) -> None:
        nonlocal steps
        steps += 1
        if kill_at is not None and steps >= kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    label.write_text("boot")
    cab = open_cabinet(data / "journal.sqlite", load_profile("random-blackjack"), SETTINGS,
                       lambda profile: BlackjackGame(profile, auto), shoes_for(seed), memory_of(data, key), hook,
                       create=True)
    hopper = FileHopper(data / "hopper.json", hook)
    validators = FileValidators(data, SEATS, SETTINGS.note_values, hook)
    printer = FilePrinter(data, hook)
    label.write_text("device counters")  # before anything else: the hopper's count against the journal's
    check_counter(cab, hopper, ALL_SEATS, when="at start-up")
    label.write_text("aft")
    resume(cab)  # a transfer journaled as pending when the kill came: finished now
    validators.start()
    validators.resume(cab.validator_counters())
    script = add_notes(make_script(seed), seed, SEATS)
    if cab.cursor < len(script) and script[cab.cursor][0] == "note" and validators.inserted(script[cab.cursor][3]):
        cab.cursor += 1  # a kill after the step's note went in, before the cabinet saw it: the step goes on here
    label.write_text("note")  # a note a kill left in escrow is routed as the journal decided
    validators.drive(cab)
    if cab.cursor:  # the clock ticks on after a restart: a timeout the cut interrupted happens now
        label.write_text("timeout")
        cab.tick(script[cab.cursor - 1][3])
    label.write_text("payout")
    drive_payouts(cab, hopper)
    label.write_text("voucher")  # a voucher a kill cut mid-print: printed again as a duplicate of its number
    printer.drive(cab)
    for i in range(cab.cursor, len(script)):
        label.write_text(_label(script[i]))
        cab.cursor = i + 1
        if script[i][0] == "note":
            validators.step(cab, script[i])
        else:
            apply(cab, hopper, script[i])
        label.write_text("payout")
        drive_payouts(cab, hopper)
        label.write_text("voucher")
        printer.drive(cab)
    cab.journal.close()


def _label(step: tuple[Any, ...]) -> str:
    kind, _seat, arg, _t = step
    if kind == "press":
        if arg in ("start",):
            return "deal"
        if arg == "collect":
            return "collect"
        if arg in PLAY_PRESSES:
            return "decision/settlement"
        return "bet"
    return {"coin": "coin", "note": "note", "attendant": "attendant", "refill": "refill", "tick": "timeout",
            "hopper_test": "hopper test", "aft": "aft"}[kind]


def final_state(data: Path) -> dict[str, Any]:
    """What must be the same after any crashes: meters, money, recall, payouts, coins out."""
    from machine.money.journal import Journal

    j = Journal(data / "journal.sqlite", KEY, readonly=True)
    try:
        cab = j.get("cabinet")
        seats = {n: j.get(f"seat/{n}") for n in range(1, cab["seats"] + 1)}
        recall = [(r.seat, r.data) for r in j.records("game")]
        events = [r.data for r in j.records("event")]
        lifetime = cab["meters"]["lifetime"]
        out = {
            "hopper_meters": {k: lifetime.get(k, 0) for k in ("hopper_test_coins", "hopper_out_unexplained")},
            "hopper_counters": cab.get("hopper_counters", {}),
            "hopper_test": cab.get("hopper_test"),
            "seats": seats,
            "round": j.get("round"),
            "payouts": j.get("payouts"),
            "round_no": cab["round_no"],
            "cursor": cab["cursor"],
            "recall": recall,
            "problems": j.verify(),
        }
    finally:
        j.close()
    out["hopper"] = json.loads((data / "hopper.json").read_text())
    paper = json.loads((data / "paper.json").read_text()) if (data / "paper.json").exists() else []
    out["vouchers_printed"] = sorted({(t["seat"], t["count"], t["amount"]) for t in paper})  # the same in every run
    out["paper_problems"] = paper_problems(paper, events)
    kept = data / "validators.json"
    out["notes_stacked"] = json.loads(kept.read_text())["stacked_points"] if kept.exists() else {}
    out["notes_credited"] = {str(ADDRESS + n - 1): s["meters"]["lifetime"]["note_in_value"]
                             for n, s in out["seats"].items() if s["meters"]["lifetime"].get("note_in_value")}
    coin_value = SETTINGS.money.hopper_coin
    paid = sum(s["meters"]["lifetime"].get("hopper_out", 0) for s in out["seats"].values())
    out["coins_credited"] = paid // coin_value + out["hopper_meters"]["hopper_test_coins"]
    return out


def _fork_child(data: Path, seed: int, kill_at: int | None) -> bool:
    """Run a child; True when it was killed, False when it finished the script. The child never
    frees what it inherited (``gc.freeze`` before the fork): a finalizer of the parent's garbage
    may wait for a lock a thread of the parent held at the fork (a pygame Sound of an earlier
    test froze a child in SDL's audio lock), and no thread of the child would ever release it."""
    gc.freeze()
    pid = os.fork()
    if pid != 0:
        gc.unfreeze()
    if pid == 0:  # the child: never return into the parent's code
        code = 0
        try:
            run_child(data, seed, kill_at)
        except BaseException:
            import traceback

            traceback.print_exc()
            code = 3
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        return True
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return False
    raise RuntimeError(f"the cabinet child failed (status {status}); see its traceback above")


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += differences(a.get(k), b.get(k), f"{path}/{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += differences(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: {a!r} != {b!r}"]


@dataclass
class CrashReport:
    kills: int = 0
    discrepancies: int = 0
    scenarios: int = 0
    where: Counter = field(default_factory=Counter)
    details: list[str] = field(default_factory=list)


def crashtest(
    kills: int, seed: int = 1, progress: Callable[[CrashReport], None] | None = None, max_gap: int = 90
) -> CrashReport:
    """Run scenarios until ``kills`` kill points have been taken; compare each to its reference."""
    rng = random.Random(seed)
    report = CrashReport()
    with tempfile.TemporaryDirectory(prefix="crashtest-") as tmp:
        while report.kills < kills:
            report.scenarios += 1
            scenario = rng.randrange(2**31)
            ref, crash = Path(tmp) / f"ref{report.scenarios}", Path(tmp) / f"crash{report.scenarios}"
            ref.mkdir()
            crash.mkdir()
            _fork_child(ref, scenario, None)
            while True:
                kill_at = rng.randint(1, max_gap) if report.kills < kills else None
                if not _fork_child(crash, scenario, kill_at):
                    break
                report.kills += 1
                report.where[(crash / "label").read_text()] += 1
                if progress:
                    progress(report)
            want, got = final_state(ref), final_state(crash)
            diffs = differences(want, got)
            diffs += [f"paper: {p}" for p in got["paper_problems"]]
            if got["notes_stacked"] != got["notes_credited"]:
                diffs.append(f"notes stacked {got['notes_stacked']} != notes credited {got['notes_credited']}")
            if got["hopper"]["lifetime"] != got["coins_credited"]:
                diffs.append(f"coins out {got['hopper']['lifetime']} != coins credited {got['coins_credited']}")
            if got["hopper_counters"] != {str(FileHopper.address): got["hopper"]["lifetime"]}:
                diffs.append(f"the journal's hopper count {got['hopper_counters']} != the hopper's {got['hopper']['lifetime']}")
            report.discrepancies += len(diffs)
            report.details += [f"scenario {scenario}: {d}" for d in diffs[:5]]
    return report


def progress_line(r: CrashReport, kills: int) -> str:
    return f"crash test: kill point {r.kills} of {kills}, scenario {r.scenarios}, {r.discrepancies} discrepancies so far"


def main(kills: int, seed: int) -> int:
    progress = Progress()

    def show(r: CrashReport) -> None:
        progress.show(progress_line(r, kills), force=r.kills == kills)

    report = crashtest(kills, seed, progress=show)
    progress.done()
    for where, n in sorted(report.where.items()):
        print(f"  killed mid-{where}: {n}")
    for d in report.details[:20]:
        print(f"  {d}")
    print(f"{report.kills} kill points, {report.discrepancies} discrepancies")
    return 0 if report.discrepancies == 0 else 1
