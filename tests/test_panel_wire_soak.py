"""A man in the middle on the panel link of the real cabinet: a short soak (issue 24, "Done when").

The counterpart of the ccTalk soak in tests/test_device_wires.py: a device spliced between the
cabinet's ``PanelHost`` and the panel simulator, on a seeded schedule, flips bits, drops,
duplicates, floods, replays the panel's old authenticated frames and forges new ones (plain,
and under a guessed MAC) toward the host, and flips, drops and duplicates the host's frames
toward the panel, while robots play two seats through the panel's buttons and coins go in and
out on the (clean) bus. No press and no key turn reaches the core that the robots did not make
(fewer when frames are lost, in order), and no coin is lost or created: the acceptors' and the
hopper's own counts are the journal's.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from typing import Any

import pytest

from hardware.panel.codec import AUTH_VERSION, Frame, FrameDecoder, encode
from hardware.panel.messages import ButtonPressed, ButtonReleased, Door, KeySwitch, encode_message
from hardware.sim.panel import PanelSimulator

from machine.devtools.harness import SimulatedCabinet
from machine.operator.config import parse_config
from machine.operator.firststart import temporary
from tests.e2e_helpers import ready, run_until
from tests.helpers import two_seats

ROBOT_BUTTONS = ("+2", "+2", "+10", "start", "start", "draw", "stand", "stand", "double", "collect")
COINS = {"EU050A": 5, "EU100A": 10, "EU200A": 20}


class PanelMeddler:
    """Spliced into a simulated panel's wire before its link comes up. Toward the host (what the
    panel writes) and toward the panel (what the host wrote) it meddles with a write at random
    while ``on``; it knows the frames' layout, sequence numbers and counters, never the key."""

    TO_HOST = ("flip", "drop", "duplicate", "flood", "replay", "forge")
    TO_PANEL = ("flip", "drop", "duplicate")

    def __init__(self, sim: PanelSimulator, rng: random.Random) -> None:
        self.link = sim._link  # noqa: SLF001 - the wire itself, where a spliced device sits
        self.rng, self.on = rng, False
        self.decoder = FrameDecoder()
        self.seq = self.counter = 0
        self.old: list[bytes] = []  # the panel's writes seen so far (authenticated frames, valid once)
        self.done: Counter[str] = Counter()
        write, ready = self.link.write, self.link.ready

        def to_host(data: bytes) -> None:
            for frame in self.decoder.feed(data):
                self.seq = frame.seq or self.seq
                self.counter = max(self.counter, getattr(frame, "counter", 0))
            out = self._meddle(data, self.TO_HOST, "host") if self.on else data
            self.old.append(data)
            if out:
                write(out)

        def to_panel(fileobj: Any) -> bytes:
            data = ready(fileobj)
            return self._meddle(data, self.TO_PANEL, "panel") if data and self.on else data

        self.link.write = to_host  # type: ignore[method-assign]
        self.link.ready = to_panel  # type: ignore[method-assign]

    def _meddle(self, data: bytes, choices: tuple[str, ...], toward: str) -> bytes:
        if self.rng.random() > 0.25:
            return data
        what = self.rng.choice(choices)
        self.done[f"{what} to {toward}"] += 1
        if what == "flip":
            i = self.rng.randrange(len(data))
            return data[:i] + bytes((data[i] ^ (1 << self.rng.randrange(8)),)) + data[i + 1:]
        if what == "drop":
            return b""
        if what == "duplicate":
            return data + data
        if what == "flood":
            return bytes(self.rng.randrange(256) for _ in range(self.rng.randint(1, 60))) + data
        if what == "replay":  # an old write of the panel's: presses and releases among them
            return self.rng.choice(self.old[-40:]) + data
        return self.forged() + data

    def forged(self) -> bytes:
        """A press, a release or a key turn as the host expects the next frame: plain, and as an
        authenticated frame with the next counter and a MAC guessed; the CRC right on both."""
        rng = self.rng
        msg: Any = rng.choice([ButtonPressed(rng.randint(1, 2), rng.choice(ROBOT_BUTTONS)),
                               ButtonReleased(rng.randint(1, 2), "collect"),
                               KeySwitch(rng.choice(["attendant", "operator"]), True), Door(True)])
        kind, payload = encode_message(msg)
        self.seq = self.seq % 255 + 1
        self.counter += 1
        return encode(Frame(kind, self.seq, payload)) + encode(
            Frame(kind, self.seq, payload, AUTH_VERSION, self.counter, rng.randbytes(8)))


def stand_out(app: SimulatedCabinet) -> Any:
    """Stand on the pending decision of the round in play (Stand also declines insurance; a bet
    decision ends with the betting time); the decision, or None. Call with ``app.lock`` held."""
    rnd = app.cab.round
    pending = None if rnd is None else rnd.pending
    if pending is not None and app.cab.is_live(pending.seat, "stand"):
        app.cab.press(pending.seat, "stand", app.clock())
    return pending


def wind_down(app: SimulatedCabinet, collect: bool, timeout: float = 60.0) -> None:
    """Stand the round in play out, then (``collect``) press Collect on every seat until none has
    club points, a bet or a coin's worth of credit left unpaid. A press that does nothing is made
    again: the meddled link may still be down (the cabinet paused, every button dark), a press the
    robots left on the wire may have placed a bet, and a seat's first Collect may only move its
    club points onto the credit."""
    cab, end = app.cab, time.monotonic() + timeout
    coin = cab.settings.money.hopper_coin
    while True:
        with app.lock:
            pending, owed = stand_out(app), []
            in_round = cab.round is not None
            if collect and not in_round:
                owed = [n for n, s in cab.seats.items() if s.lock is None and not cab.is_paying(n)
                        and (s.money.club or s.money.bet or s.money.credit >= coin)]
                for n in owed:
                    if cab.is_live(n, "collect"):
                        cab.press(n, "collect", app.clock())
        if not in_round and not owed:
            return
        assert time.monotonic() < end, f"a round still waits on {pending}, or Collect not taken on {owed}; pauses {cab.pauses}"
        app.frame()
        time.sleep(0.005)


def is_subsequence(seen: list[str], made: list[str]) -> bool:
    it = iter(made)
    return all(any(s == m for m in it) for s in seen)


# slow: a soak in real time with a tampering relay on the panel link, then every coin counted
@pytest.mark.timeout(240)
@pytest.mark.parametrize("seed", [24])
def test_a_man_in_the_middle_on_the_panel_link_presses_nothing_and_creates_or_loses_no_coin(tmp_path, monkeypatch,
                                                                                             seed):
    rng = random.Random(seed)
    meddlers: list[PanelMeddler] = []
    start = PanelSimulator.start

    def spliced(self: PanelSimulator) -> PanelSimulator:
        meddlers.append(PanelMeddler(self, random.Random(seed)))
        return start(self)

    monkeypatch.setattr(PanelSimulator, "start", spliced)
    cfg = temporary(parse_config(two_seats("decision_timeout: 30", "betting_time: 3"), "soak.yaml"), tmp_path)
    app = SimulatedCabinet(cfg, tmp_path, headless=True)
    seen: dict[int, list[str]] = {1: [], 2: []}
    turned: list[Any] = []
    events = app.panel.events

    def watched() -> list[Any]:  # what the host hands the loop, i.e. what the core acts on
        out = events()
        for ev in out:
            if isinstance(ev, ButtonPressed):
                seen[ev.seat].append(ev.button)
            elif isinstance(ev, KeySwitch | Door) and (getattr(ev, "on", False) or getattr(ev, "open", False)):
                turned.append(ev)
        return out

    app.panel.events = watched
    made: dict[int, list[str]] = {1: [], 2: []}
    inserted = 0
    try:
        [meddler] = meddlers
        ready(app)
        cab = app.cab
        hopper = cfg.devices.hoppers[0].address
        control = app.sims.bus.control
        lifetime0 = int(control.status(hopper)["lifetime"])
        meddler.on = True
        # nine seconds of play at least, until every kind of meddling was done some times and more
        # than ten coins went in (a loaded machine plays fewer rounds in nine seconds: past them a
        # coin goes in at every tap until there were eleven); 60 s bound a hang
        end, limit = time.monotonic() + 9.0, time.monotonic() + 60
        while (time.monotonic() < end or inserted <= 10
               or not (sum(meddler.done.values()) > 40 and len(meddler.done) == 9)):
            assert time.monotonic() < limit, (meddler.done, inserted)
            seat = rng.randint(1, 2)
            with app.lock:  # while a hopper pays too: its coins are refused, read between the payout's polls
                low = cab.seats[seat].money.credit < 20
            if (low and inserted < 60) or (time.monotonic() >= end and inserted <= 10):
                app.coins.add(cfg.devices.acceptors[seat], rng.choice(list(COINS)), app.clock())
                inserted += 1
            button = rng.choice(ROBOT_BUTTONS)
            app.sims.panel.tap(seat, button)
            made[seat].append(button)
            for _ in range(rng.randint(3, 12)):
                app.frame()
                time.sleep(0.005)
        meddler.on = False
        # the robots' last word, given to the core directly: Stand for every decision of the round
        # they left (a lone seat's decisions have no time limit, and two seats' take up to 30 s
        # each), then Collect, which moves the club meter onto the credit, then pays. When the
        # robots lost every coin, one more goes in first: the soak ends in a payout. All once the
        # link is back (while it is down the cabinet is paused: buttons dark, coins refused).
        run_until(app, lambda: app.panel.link_up, timeout=30.0, what="the panel link back")
        wind_down(app, collect=False)
        coin = cab.settings.money.hopper_coin
        with app.lock:
            broke = all(s.money.credit + s.money.club + s.money.bet < coin for s in cab.seats.values())
        if broke:
            app.coins.add(cfg.devices.acceptors[1], "EU200A", app.clock())
            inserted += 1
            run_until(app, lambda: cab.seats[1].money.credit >= coin, what="the last coin")
        wind_down(app, collect=True)
        run_until(app, lambda: app.coins.waiting == 0 and not any(cab.is_paying(n) for n in cab.seats)
                  and app.panel.link_up, timeout=30.0, what="the coins in and the payouts done")

        def accounted() -> int:  # coins the journal has seen (run_until holds the lock): credited, or refused
            return (sum(s.meters.get(f"coin_in_count:{c}") for s in cab.seats.values() for c in COINS)
                    + sum(r.data["event"] == "coin_error" and r.data["name"] == "inhibited coin"
                          for r in cab.journal.records("event")))

        # the last refused coins reach the journal at the bus's next passes (every acceptor,
        # validator and hopper polled: a pass can outlast a few frames on a loaded machine)
        run_until(app, lambda: accounted() >= inserted, timeout=60.0, what="every coin in seen by the journal")
        assert sum(meddler.done.values()) > 40 and len(meddler.done) == 9, meddler.done
        # no press the robots did not make reached the core; none out of order
        for n in (1, 2):
            assert is_subsequence(seen[n], made[n]), (n, seen[n], made[n])
            assert len(seen[n]) > len(made[n]) // 2  # the link carried play, not only refusals
        assert turned == [] and app.panel.keys == {k: False for k in app.panel.keys}
        assert app.panel.stats["unauthenticated"] > 0  # the forged and replayed frames were refused
        with app.lock:
            credited = sum(s.meters.get(f"coin_in_count:{c}") for s in cab.seats.values() for c in COINS)
            taken = sum(int(control.status(a)["credits"]) for a in cfg.devices.acceptors.values())
            paid = sum(s.meters.get("hopper_out") + s.meters.get("hopper_extra_out") for s in cab.seats.values())
            lifetime = int(control.status(hopper)["lifetime"])
            refused = sum(r.data["event"] == "coin_error" and r.data["name"] == "inhibited coin"
                          for r in cab.journal.records("event"))  # in while a seat took none: returned
            assert credited == taken and taken + refused == inserted  # every coin taken credited once
            assert paid == (lifetime - lifetime0) * cab.settings.money.hopper_coin  # every coin out the journal's
            assert cab.hopper_counter(hopper) == lifetime
            assert cab.journal.verify() == []
            assert paid > 0 and inserted > 10  # a soak that took and paid coins
    finally:
        app.close()
