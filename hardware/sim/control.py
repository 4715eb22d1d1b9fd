"""The simulator's control language: one text line in, one text line out.

Owns: the commands of the control channel (documented in README.md) and what each does to the
simulated bus: insert coins, report coin errors, refill, inject and clear faults, cut and
restore power, report a device's state. Pure: a line and ``now`` in, ``OK ...`` or
``ERR ...`` out; never does I/O, never reads a clock.
"""

from __future__ import annotations

from hardware.sim.bill_device import SimBillValidator
from hardware.sim.cctalk_bus import SimulatedBus
from hardware.sim.cctalk_devices import SimCoinAcceptor, SimDevice, SimHopper

HOPPER_FAULTS = ("empty", "jam", "opto", "extra", "runaway")
COMMS_FAULTS = ("noreply", "late", "garble")
DEFAULT_LATE = 0.25  # seconds: longer than the host's default 0.2 s reply timeout

HELP = (
    "commands: coin ADDR COINID [COUNT] | coin_error ADDR CODE [COUNT] | refill ADDR N | spill ADDR N | "
    "note ADDR BILLID | note_pull ADDR | note_jam ADDR | stacker ADDR full|remove|insert | "
    "fault ADDR empty|jam|opto [AFTER] | fault ADDR extra|runaway|powercut | "
    "fault ADDR noreply [HEADER] | fault ADDR late [SECONDS] | fault ADDR garble [PROB] | "
    "clear ADDR | power ADDR on|off | reset ADDR | speed ADDR COINS_PER_S | status ADDR | "
    "stats | help | quit"
)


class CommandError(ValueError):
    pass


class Controller:
    """Applies control commands to a simulated bus."""

    def __init__(self, bus: SimulatedBus) -> None:
        self.bus = bus
        self.quit = False

    def handle(self, line: str, now: float) -> str:
        words = line.split()
        if not words:
            return "ERR empty command"
        name, args = words[0].lower(), words[1:]
        method = getattr(self, f"_cmd_{name}", None)
        if method is None:
            return f"ERR unknown command {name!r}; {HELP}"
        try:
            reply = method(args, now)
        except CommandError as exc:
            return f"ERR {exc}"
        except (ValueError, KeyError, IndexError) as exc:
            return f"ERR {name}: {exc}"
        return "OK" if not reply else f"OK {reply}"

    # -- helpers -------------------------------------------------------------------------------

    def _device(self, args: list[str], kind: type[SimDevice] = SimDevice) -> SimDevice:
        if not args:
            raise CommandError("address missing")
        dev = self.bus.device(int(args[0]))
        if not isinstance(dev, kind):
            raise CommandError(f"address {args[0]} is a {dev.category}, not a {kind.__name__}")
        return dev

    def _acceptor(self, args: list[str]) -> SimCoinAcceptor:
        dev = self._device(args, SimCoinAcceptor)
        assert isinstance(dev, SimCoinAcceptor)
        return dev

    def _validator(self, args: list[str]) -> SimBillValidator:
        dev = self._device(args, SimBillValidator)
        assert isinstance(dev, SimBillValidator)
        return dev

    def _hopper(self, args: list[str]) -> SimHopper:
        dev = self._device(args, SimHopper)
        assert isinstance(dev, SimHopper)
        return dev

    @staticmethod
    def _count(args: list[str], index: int, default: int = 1) -> int:
        value = int(args[index]) if len(args) > index else default
        if value < 0:
            raise CommandError(f"a count is not negative: {value}")
        return value

    # -- commands ------------------------------------------------------------------------------

    def _cmd_help(self, args: list[str], now: float) -> str:
        return HELP

    def _cmd_quit(self, args: list[str], now: float) -> str:
        self.quit = True
        return "bye"

    def _cmd_coin(self, args: list[str], now: float) -> str:
        acc = self._acceptor(args)
        if len(args) < 2:
            raise CommandError("coin ADDR COINID [COUNT]")
        events = [acc.insert(args[1]) for _ in range(self._count(args, 2))]
        credited = sum(1 for ev in events if ev.is_credit)
        return f"credited={credited} rejected={len(events) - credited} counter={acc.counter}"

    def _cmd_coin_error(self, args: list[str], now: float) -> str:
        acc = self._acceptor(args)
        if len(args) < 2:
            raise CommandError("coin_error ADDR CODE [COUNT]")
        for _ in range(self._count(args, 2)):
            acc.error(int(args[1]))
        return f"counter={acc.counter}"

    def _cmd_note(self, args: list[str], now: float) -> str:
        val = self._validator(args)
        if len(args) < 2:
            raise CommandError("note ADDR BILLID")
        ev = val.insert(args[1], now)
        held = "escrow" if ev.a and ev.b == 1 else "stacked" if ev.a else f"refused:{ev.b}"
        return f"{held} counter={val.counter}"

    def _cmd_note_pull(self, args: list[str], now: float) -> str:
        val = self._validator(args)
        if not val.pull_back(now):
            raise CommandError(f"validator {val.address}: no note in escrow to pull back")
        return f"counter={val.counter}"

    def _cmd_note_jam(self, args: list[str], now: float) -> str:
        val = self._validator(args)
        val.jam(now)
        return f"counter={val.counter}"

    def _cmd_stacker(self, args: list[str], now: float) -> str:
        val = self._validator(args)
        if len(args) < 2:
            raise CommandError("stacker ADDR full|remove|insert")
        val.stacker(args[1].lower(), now)
        return f"stacked={val.stacked} counter={val.counter}"

    def _cmd_refill(self, args: list[str], now: float) -> str:
        hop = self._hopper(args)
        hop.refill(self._count(args, 1, default=0), now)
        return f"level={hop.level}"

    def _cmd_spill(self, args: list[str], now: float) -> str:
        hop = self._hopper(args)
        left = hop.spill(self._count(args, 1, default=0), now)
        return f"left={left} lifetime={hop.lifetime}"

    def _cmd_speed(self, args: list[str], now: float) -> str:
        hop = self._hopper(args)
        speed = float(args[1])
        if speed <= 0:
            raise CommandError("speed is a positive number of coins per second")
        hop.advance(now)
        hop.speed = speed
        return f"speed={speed:g}"

    def _cmd_fault(self, args: list[str], now: float) -> str:
        dev = self._device(args)
        if len(args) < 2:
            raise CommandError("fault ADDR KIND [ARG]")
        kind, arg = args[1].lower(), args[2] if len(args) > 2 else None
        faults = self.bus.faults[dev.address]
        if kind == "powercut":
            dev.power_off(now)
        elif kind == "noreply":
            faults.noreply = True
            if arg is not None:
                faults.noreply_headers.add(int(arg))
        elif kind == "late":
            faults.late = float(arg) if arg is not None else DEFAULT_LATE
        elif kind == "garble":
            prob = float(arg) if arg is not None else 0.5
            if not 0 <= prob <= 1:
                raise CommandError("garble probability is between 0 and 1")
            faults.garble = prob
        elif kind in HOPPER_FAULTS:
            hop = self._hopper(args)
            hop.inject(kind, int(arg) if arg is not None else None, now)
        else:
            known = ", ".join((*HOPPER_FAULTS, *COMMS_FAULTS, "powercut"))
            raise CommandError(f"unknown fault {kind!r}: {known}")
        return kind

    def _cmd_clear(self, args: list[str], now: float) -> str:
        dev = self._device(args)
        faults = self.bus.faults[dev.address]
        faults.noreply, faults.late, faults.garble = False, 0.0, 0.0
        faults.noreply_headers.clear()
        if isinstance(dev, SimHopper | SimBillValidator):
            dev.clear(now)
        elif not dev.powered:
            dev.power_on(now)
        return ""

    def _cmd_power(self, args: list[str], now: float) -> str:
        dev = self._device(args)
        state = args[1].lower() if len(args) > 1 else ""
        if state == "on":
            if not dev.powered:
                dev.power_on(now)
        elif state == "off":
            dev.power_off(now)
        else:
            raise CommandError("power ADDR on|off")
        return state

    def _cmd_reset(self, args: list[str], now: float) -> str:
        dev = self._device(args)
        dev.power_off(now)
        dev.power_on(now)
        return ""

    def _cmd_status(self, args: list[str], now: float) -> str:
        dev = self._device(args)
        return " ".join(f"{k}={str(v).replace(' ', '_')}" for k, v in dev.status(now).items())

    def _cmd_stats(self, args: list[str], now: float) -> str:
        return f"requests={self.bus.requests} discarded={self.bus.discarded}"
