"""The payout bench: the real driver against the simulator process, timed.

Owns: ``bench_payout``, which starts the simulator on a pty, identifies the hopper, pays N coins
through the real ``Hopper.payout`` and measures the wall time T against the hopper-limited time
H = N / speed (the time the coins need to leave at the hopper's dispense speed), and the bus
load. The goal is T / H <= 1.05: the host adds no measurable delay. Real time is read here
(it is what is being measured), nowhere in the driver.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from hardware.cctalk.hopper import Hopper
from hardware.cctalk.host import CctalkBus
from hardware.cctalk.ledger import MemoryLedger
from hardware.sim.launcher import SimProcess


@dataclass(frozen=True)
class BenchResult:
    coins: int
    seconds: float  # T: the payout procedure, from begin_payout to end_payout
    hopper_seconds: float  # H: coins / dispense speed
    ratio: float  # T / H
    polls_per_second: float  # requests on the bus during the payout, per second
    paid: int
    fault: str | None

    def lines(self) -> list[str]:
        payout = (
            f"payout of {self.coins} coins: {self.seconds:.2f} s, "
            f"hopper-limited time {self.hopper_seconds:.2f} s, ratio {self.ratio:.3f}"
        )
        # the payout line comes last: `cabinet bench payout` ends with it
        return [f"bus load: {self.polls_per_second:.1f} requests/s during the payout", payout]


def bench_payout(
    coins: int = 50,
    *,
    speed: float = 8.0,
    poll_interval: float = 0.1,
    sim_args: tuple[str, ...] = (),
) -> BenchResult:
    """Pay ``coins`` from a simulated hopper (``speed`` coins/s) over a pty; time it."""
    args = ["--hopper", f"3:speed={speed},level={coins + 10}", *sim_args]
    with SimProcess.start(args) as sim, CctalkBus.open(sim.link, link="bench") as bus:
        hopper = Hopper(bus, 3, poll_interval=poll_interval)
        hopper.start()
        ledger = MemoryLedger()
        before = bus.exchanges
        start = time.monotonic()
        result = hopper.payout(coins, ledger)
        seconds = time.monotonic() - start
        requests = bus.exchanges - before
        left = sim.control.count(3, "left")
    if left != result.paid:
        raise RuntimeError(f"bench: driver says {result.paid} paid, simulator says {left} left")
    hopper_seconds = coins / speed
    return BenchResult(
        coins=coins,
        seconds=seconds,
        hopper_seconds=hopper_seconds,
        ratio=seconds / hopper_seconds,
        polls_per_second=requests / seconds if seconds else 0.0,
        paid=result.paid,
        fault=result.fault,
    )


def main(coins: int = 50) -> int:
    """Print the bench lines (for ``cabinet bench payout``)."""
    result = bench_payout(coins)
    for line in result.lines():
        print(line)
    return 0 if result.fault is None and result.paid == coins else 1
