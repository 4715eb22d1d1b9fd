"""``tools/run --headless --rounds N``: robot players on the simulated devices, then the audit.

Owns: a robot per seat that plays only through the simulators, as a person at the cabinet
would: it inserts coins and banknotes through the bus simulator's control channel, reads the lamps the
cabinet lit on the simulated panel (over the real panel link) and presses lit buttons —
random bets, Auto and random decisions, collects that pay out through the simulated hopper.
After N rounds on every seat it collects everything and checks that every meter, every coin and
every note is accounted for (the notes each validator's stacker holds are the notes credited).
Works on a fresh data folder so the accounts start at zero.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from hardware.buttons import BET_BUTTONS as BUTTONS_TO_BET
from hardware.buttons import PLAY_BUTTONS as PLAY
from hardware.buttons import Button
from hardware.links import is_simulated
from hardware.sim.launcher import SimProcess
from hardware.sim.panel import PanelSimulator

from machine.devtools.harness import SimulatedCabinet
from machine.operator.config import MachineConfig
from machine.operator.firststart import temporary
from machine.progress import Progress

BET_BUTTONS = tuple(b.value for b in BUTTONS_TO_BET)
# what a robot presses when the game asks it (Auto three times as often as each other button)
PLAY_BUTTONS = tuple(b.value for b in (Button.AUTO, Button.AUTO, *PLAY))


def _simulators(app: SimulatedCabinet) -> tuple[SimProcess, PanelSimulator]:
    """The bus and panel simulators the robots play through (soak starts only with both)."""
    if app.sims.bus is None or app.sims.panel is None:
        raise RuntimeError("soak needs the simulated bus and panel")
    return app.sims.bus, app.sims.panel


class Robot:
    def __init__(self, app: SimulatedCabinet, rng: random.Random):
        self.app, self.rng = app, rng
        self.bus, self.panel = _simulators(app)
        self.inserted: dict[int, int] = {n: 0 for n in app.cab.seats}  # points put in
        # A soak that goes on from an earlier one counts from where that one ended: after the
        # bus's first pass, which credits the coins that one pushed and its kill left unread in
        # an acceptor's buffer (they are that soak's, not this one's robots').
        end = time.monotonic() + 10.0
        while app.worker.passes == 0 and app.worker.error is None and time.monotonic() < end:
            time.sleep(0.01)
        with app.lock:
            self.before = {n: {k: s.meters.get(k) for k in COUNTED} for n, s in app.cab.seats.items()}
        self.next_act = {n: 0.0 for n in app.cab.seats}
        self.notes = app.cfg.note_values()
        self.box_before = {n: self.box(n) for n in app.cfg.devices.validators}
        self.first_seq = app.cab.journal.last_seq  # the vouchers of this soak are journaled after it

    def box(self, n: int) -> dict[str, int]:
        """The notes in seat ``n``'s validator's stacker, by bill id (its own count)."""
        text = self.bus.control.status(self.app.cfg.devices.validators[n])["box"]
        return {} if text == "empty" else {b: int(c) for b, _, c in (item.partition(":") for item in text.split("+"))}

    def notes_stacked(self, n: int) -> int:
        """Points of the notes seat ``n``'s validator stacked during this soak."""
        if n not in self.box_before:
            return 0
        now, before = self.box(n), self.box_before[n]
        return sum((c - before.get(b, 0)) * self.notes.get(b, 0) for b, c in now.items())

    def note(self, n: int, bill_id: str) -> None:
        self.bus.control.note(self.app.cfg.devices.validators[n], bill_id)

    def coin(self, n: int, coin_id: str) -> None:
        sim = self.bus
        addr = self.app.cfg.devices.acceptors[n]
        reply = sim.control.coin(addr, coin_id)
        if "credited=1" in reply:
            self.inserted[n] += self.app.cfg.coins[coin_id]

    def attend(self, wind_down: bool) -> None:
        """The attendant: clears tilts at any time (a soak that goes on from an earlier one finds
        the simulated devices where that one left them, in the state folder beside the data
        folder; a tilt still comes from a device fault or from that folder lost) and pays handpays
        when the robots wind down."""
        with self.app.lock:
            for n, s in self.app.cab.seats.items():
                if s.lock == "tilt" or (s.lock == "handpay" and wind_down):
                    if self.app.cab.is_paying(n):
                        continue
                    if s.lock == "tilt":
                        self.bus.control.refill(self.app.cfg.devices.hoppers[0].address, 500)
                    self.app.cab.attendant_clear(n)

    def act(self, now: float, wind_down: bool) -> None:
        lamps = self.panel.lamps()
        for n in self.app.cab.seats:
            if now < self.next_act[n]:
                continue
            lit = {b for b, state in lamps[str(n)].items() if state != "off"}
            self.next_act[n] = now + 0.03
            with self.app.lock:
                money = self.app.cab.seats[n].money
                credit, club, playing = money.credit, money.club, self.app.cab.in_round(n)
                may_coin = self.app.cab.may_take_coins(n) and not self.app.cab.is_paying()
            sim = self.panel
            if wind_down:
                if "collect" in lit:
                    sim.tap(n, "collect")
                    self.next_act[n] = now + 0.3
                elif playing and lit & set(PLAY_BUTTONS):
                    sim.tap(n, "auto" if "auto" in lit else sorted(lit & set(PLAY_BUTTONS))[0])
                continue
            in_play = set(PLAY_BUTTONS) | (set(BET_BUTTONS) | {"start"} if playing else set())
            if playing and lit & in_play:  # (at an idle cabinet Draw/Stand choose the game)
                choices = [b for b in (*PLAY_BUTTONS, *BET_BUTTONS, "start") if b in lit]  # bets: a bet decision
                sim.tap(n, self.rng.choice(choices))
                self.next_act[n] = now + 0.05
            elif not playing and credit < 10 and not lit & set(BET_BUTTONS) and club >= 30 and "collect" in lit:
                sim.tap(n, "collect")  # a game needs 10 points of credit: take the club meter back
                self.next_act[n] = now + 0.3
            elif not playing and (credit + club < 30 or credit < 10) and may_coin:
                if n in self.box_before and self.notes and self.rng.random() < NOTE_SHARE:
                    self.note(n, self.rng.choice(sorted(self.notes)))
                    self.next_act[n] = now + 0.6  # escrow, the cabinet's decision, the stacker
                else:
                    self.coin(n, self.rng.choice(list(self.app.cfg.coins)))
                    self.next_act[n] = now + 0.25  # give the acceptor poll time to credit it
            elif "start" in lit:
                sim.tap(n, "start")
            elif lit & set(BET_BUTTONS) and not playing:
                if club > 60 and self.rng.random() < 0.15 and "collect" in lit:
                    sim.tap(n, "collect")
                else:
                    sim.tap(n, self.rng.choice(sorted(lit & set(BET_BUTTONS))))


def soak(cfg: MachineConfig, base: Path, rounds: int, seed: int = 1, timeout: float | None = None,
         data: Path | None = None, stay: bool = False) -> int:
    """Play ``rounds`` rounds on every seat through the simulators; 0 when all is accounted for.

    ``data``: play on the journal there (a new folder is initialised), so a soak can stop and go
    on later; otherwise on a temporary one. ``stay``: after the rounds the cabinet stays up, idle
    (the SAS links answered, the frames run), until SIGTERM or SIGHUP, then checks. A journal it must not trust is a memory error
    (``CabinetLocked``), before anything is played.
    """
    if not (is_simulated(cfg.devices.bus) and is_simulated(cfg.devices.panel)):
        print("cabinet run --headless: needs the simulated devices (devices.bus and devices.panel: sim)", file=sys.stderr)
        return 2
    if data is not None:
        cfg = cfg.model_copy(update={"data_dir": str(data)})
        return _soak(cfg, base, rounds, seed, timeout, first_start=True, stay=stay)  # (new: when no witness knows a journal)
    with tempfile.TemporaryDirectory(prefix="cabinet-soak-") as tmp:
        return _soak(temporary(cfg, Path(tmp)), base, rounds, seed, timeout, stay=stay)


def _soak(cfg: MachineConfig, base: Path, rounds: int, seed: int, timeout: float | None, first_start: bool = False,
          stay: bool = False) -> int:
    app = SimulatedCabinet(cfg, base, headless=True, first_start=first_start)
    try:
        return _play(app, rounds, random.Random(seed), timeout or 60 + rounds * 6.0, stay)
    finally:
        app.close()


def _stay(app: SimulatedCabinet) -> None:
    """Idle frames until SIGTERM or SIGHUP (``cabinet run`` turns them into ``SystemExit``)."""
    print("soak: the rounds are played; staying up idle (SAS answered) until SIGTERM", file=sys.stderr, flush=True)
    try:
        while True:
            app.frame()
            time.sleep(0.01)
    except SystemExit as exc:
        if exc.code not in (128 + 15, 128 + 1):  # anything but SIGTERM / SIGHUP ends the run as it was
            raise


COUNTED = ("games_played", "total_in", "hopper_out", "hopper_extra_out", "handpay_out", "aft_in", "note_in_value",
           "voucher_out")
NOTE_SHARE = 0.15  # of a robot's money, put in as banknotes


def _games(app: SimulatedCabinet, robot: Robot) -> dict[int, int]:
    """Games each seat played in this soak."""
    with app.lock:
        return {n: s.meters.get("games_played") - robot.before[n]["games_played"] for n, s in app.cab.seats.items()}


def progress_line(games: dict[int, int], rounds: int, elapsed: float, collecting: bool = False) -> str:
    """``soak: games per seat 1: 12  2: 11  3: 13  4: 12 (of 20), 3.4 rounds/s`` (rounds/s: the
    games of a seat per second, averaged over the seats)."""
    per_seat = "  ".join(f"{n}: {g}" for n, g in sorted(games.items()))
    rate = sum(games.values()) / max(len(games), 1) / elapsed if elapsed > 0 else 0.0
    tail = ", collecting the credit" if collecting else ""
    return f"soak: games per seat {per_seat} (of {rounds}), {rate:.1f} rounds/s{tail}"


def _play(app: SimulatedCabinet, rounds: int, rng: random.Random, timeout: float, stay: bool = False) -> int:
    robot = Robot(app, rng)
    start = time.monotonic()
    wind_down = False
    progress = Progress()
    played_for: float | None = None
    while True:
        now = time.monotonic()
        if now - start > timeout:
            progress.done()
            print(f"soak: timed out after {timeout:.0f} s", file=sys.stderr)
            return _check(app, robot)
        app.frame()
        games = _games(app, robot)
        if not wind_down and min(games.values()) >= rounds:
            wind_down, played_for = True, now - start  # the rate is the playing's, not the collecting's
        robot.act(now, wind_down)
        if wind_down:
            with app.lock:
                idle = not app.cab.is_paying() and app.cab.round is None and all(
                    s.money.credit < app.cfg.hopper_coin and s.money.club == 0 and s.lock is None for s in app.cab.seats.values()
                )
            if idle:
                break
        robot.attend(wind_down)
        progress.show(progress_line(games, rounds, played_for or now - start, wind_down))
        time.sleep(0.005)
    progress.done(progress_line(games, rounds, played_for or time.monotonic() - start, True))
    if stay:
        _stay(app)
    return _check(app, robot)


def _vouchers(app: SimulatedCabinet, robot: Robot) -> list[str]:
    """The vouchers the simulated printer printed whole are the ones the journal paid, once each."""
    if app.sims.printer is None:
        return []
    with app.lock:
        paid = [r.data for r in app.cab.journal.records("event") if r.seq > robot.first_seq
                and r.data["event"] == "voucher_printed"]
        out = sum(s.meters.get("voucher_out") - robot.before[n]["voucher_out"] for n, s in app.cab.seats.items())
    on_paper = sorted(t.barcodes[0].data for t in app.sims.printer.printed() if t.complete and t.barcodes)
    print(f"vouchers printed {len(on_paper)} ({out} points)")
    problems = []
    if on_paper != sorted(e["number"] for e in paid):
        problems.append(f"vouchers on paper {on_paper} != vouchers the journal paid {sorted(e['number'] for e in paid)}")
    if sum(e["amount"] for e in paid) != out:
        problems.append(f"voucher_out {out} != the vouchers paid, {sum(e['amount'] for e in paid)} points")
    return problems


def _check(app: SimulatedCabinet, robot: Robot) -> int:
    problems: list[str] = []
    with app.lock:
        cab = app.cab
        problems += [f"journal: {p}" for p in cab.journal.verify()]
        total_in = total_hopper = total_handpay = total_notes = 0
        for n, s in cab.seats.items():
            m = s.meters.get
            ran = {k: m(k) - robot.before[n][k] for k in COUNTED}  # this soak's part
            if s.money.audit_problem():
                problems.append(f"seat {n}: {s.money.audit_problem()}")
            if s.lock == "memory_error":
                problems.append(f"seat {n}: memory error: {s.lock_detail}")
            stacked = robot.notes_stacked(n)
            if ran["note_in_value"] != stacked:
                problems.append(f"seat {n}: note_in_value {ran['note_in_value']} but its validator stacked {stacked}")
            if ran["total_in"] - ran["aft_in"] != robot.inserted[n] + stacked:  # a host's AFT transfers in are not the robot's
                problems.append(f"seat {n}: total_in {ran['total_in']} but the robot put in {robot.inserted[n]} in coins "
                                f"and {stacked} in notes")
            total_notes += stacked
            total_in += ran["total_in"]
            total_hopper += ran["hopper_out"] + ran["hopper_extra_out"]
            total_handpay += ran["handpay_out"]
            print(f"seat {n}: {ran['games_played']} games, in {ran['total_in']}, hopper {ran['hopper_out']}, "
                  f"handpay {ran['handpay_out']}; lifetime: {m('games_played')} games, bet {m('total_bet')}, "
                  f"won {m('total_won')}, credit {s.money.credit}, club {s.money.club}")
    left = 0
    for h in app.cfg.devices.hoppers:
        left += robot.bus.control.count(h.address, "left")
    if left * app.cfg.hopper_coin != total_hopper:
        problems.append(f"coins out of the hopper {left} x {app.cfg.hopper_coin} != hopper meters {total_hopper}")
    print(f"coins in {total_in - total_notes} points; notes in {total_notes} points; hopper paid {left} coins "
          f"({total_hopper} points); handpays {total_handpay} points")
    problems += _vouchers(app, robot)
    for p in problems:
        print(f"PROBLEM: {p}")
    print("every meter and coin accounted for" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1
