"""The simulated bill validator against the real driver on the bus in memory (its own time):
escrow and its timeout, routing an empty escrow, a full stacker, and what a restart keeps."""

from __future__ import annotations

from hardware.cctalk.validator import ESCROW_EMPTY, ROUTE_REFUSED, ROUTED, BillValidator, NoteEscrow, NoteStacked, NoteStatus
from hardware.sim.bill_device import SimBillValidator
from hardware.sim.virtual import VirtualSim

VALUES = {"EU0005A": 50, "EU0010A": 100, "EU0020A": 200, "EU0050A": 500}


def started(args: list[str]) -> tuple[VirtualSim, BillValidator]:
    sim = VirtualSim(args)
    val = BillValidator(sim.bus(), 40, values=VALUES)
    val.start()
    val.set_accepting(True)
    return sim, val


def test_start_up_reads_bill_ids_and_scaling_and_enables_only_the_priced_notes():
    sim, val = started(["--validator", "40"])
    assert val.bill_ids == {1: "EU0005A", 2: "EU0010A", 3: "EU0020A", 4: "EU0050A", 5: "EU0100A"}
    assert val.enabled_types == frozenset({1, 2, 3, 4})  # EUR 100 is no note the cabinet takes
    assert sim.control.status(40)["inhibits"] == "15" and sim.control.note(40, "EU0100A") == "refused:4 counter=1"


def test_a_note_waits_in_escrow_until_routed_and_goes_back_after_the_escrow_timeout():
    sim, val = started(["--validator", "40:escrow_timeout=30"])
    sim.control.note(40, "EU0020A")
    assert val.poll() == (NoteEscrow(40, 3, "EU0020A", 200),)
    assert val.route(True) == ROUTED and val.poll() == (NoteStacked(40, 3, "EU0020A", 200),)
    assert val.route(True) == ESCROW_EMPTY  # nothing waits now
    sim.control.note(40, "EU0010A")
    val.poll()
    sim.clock.advance(31)  # the host never decided
    assert val.poll() == (NoteStatus(40, 1, "status", "bill returned from escrow"),)
    assert sim.control.status(40)["box"] == "EU0020A:1"


def test_a_full_stacker_refuses_the_route_and_gives_the_note_back():
    sim, val = started(["--validator", "40:capacity=1"])
    sim.control.note(40, "EU0005A")
    val.poll()
    val.route(True)
    assert [type(e).__name__ for e in val.poll()] == ["NoteStacked", "NoteStatus"]  # and then: stacker full
    dev = sim.sim.device(40)
    assert isinstance(dev, SimBillValidator) and dev.stacked == 1
    dev.stacked = 0  # someone made room behind its back: the next note waits in escrow...
    sim.control.note(40, "EU0005A")
    val.poll()
    dev.stacked = 1  # ...and the box is full again when the host routes it
    assert val.route(True) == ROUTE_REFUSED
    assert val.poll() == (NoteStatus(40, 1, "status", "bill returned from escrow"),)


def test_what_a_powered_validator_keeps_comes_back_after_a_restart_of_its_simulator():
    sim, val = started(["--validator", "40"])
    sim.control.note(40, "EU0010A")
    val.poll()
    dev = sim.sim.device(40)
    assert isinstance(dev, SimBillValidator)
    kept = dev.memory(0.0)
    again = SimBillValidator(address=40, serial=dev.serial)
    again.restore(kept, 5.0)
    assert (again.counter, again.escrow, again.master_enabled, again.box) == (1, 2, True, {})


def test_a_counter_that_went_back_credits_nothing_and_is_a_counter_fault():
    from hardware.cctalk.acceptor import CounterFault, CreditTracker

    sim, val = started(["--validator", "40"])
    for _ in range(3):
        sim.control.note(40, "EU0010A")
        val.poll()
        val.route(True)
        val.poll()
    assert sim.control.status(40)["counter"] == "6"
    val.tracker = CreditTracker(9)  # the journal followed it to 9: the device's 6 is behind (an old reply, another unit)
    sim.control.note(40, "EU0010A")
    assert val.poll() == (CounterFault(40, 9, 7, 253),)  # 7 after 9: not 253 new events
    assert val.poll() == ()  # and 7 is the baseline from now on: none of it is credited later
