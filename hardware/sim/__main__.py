"""``python -m hardware.sim``: the ccTalk bus simulator as its own process.

Owns: the command line (see README.md). Prints ``LINK <path or url>`` then
``CONTROL <host:port or unix:path>`` on standard output and serves until ``quit`` on the
control channel (or a signal); with ``--state DIR`` the devices keep their counters and coins
there across restarts (``hardware/sim/state.py``); with ``--parent-pid`` also as soon as that process has ended,
however it ended (SIGKILL too), so a launcher never leaves a simulator behind. Errors in the
configuration: one line on standard error, exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any

from hardware.sim.config import ConfigError, build_bus, devices_of, load_file, parse_device_spec
from hardware.sim.server import SimServer, stderr_log
from hardware.sim.state import BusState

PARENT_POLL = 0.2  # seconds between two looks at whether the launcher is still there


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m hardware.sim",
        description="The ccTalk bus simulator. Prints 'LINK <path or url>' and "
        "'CONTROL <address>' on standard output; the control commands are in "
        "hardware/sim/README.md.",
    )
    p.add_argument("--link", default=None, help="pty (default) or socket://HOST:PORT to listen on")
    p.add_argument(
        "--control", default="127.0.0.1:0", help="HOST:PORT (default: a free port) or unix:PATH"
    )
    p.add_argument("--config", help="YAML or JSON file with devices (see README.md)")
    p.add_argument("--acceptor", action="append", default=[], metavar="ADDR[:k=v,...]")
    p.add_argument("--hopper", action="append", default=[], metavar="ADDR[:k=v,...]")
    p.add_argument("--validator", action="append", default=[], metavar="ADDR[:k=v,...]",
                   help="a bill validator: bills=EU0005A+EU0010A+..., capacity=, escrow_timeout=")
    p.add_argument(
        "--echo", action="store_true", default=None, help="echo the host's bytes (a real bus)"
    )
    p.add_argument("--checksum", choices=("sum8", "crc16"), default=None)
    p.add_argument("--seed", type=int, default=None, help="random seed (cipher keys, garbling)")
    p.add_argument("--verbose", action="store_true", help="log every packet on standard error")
    p.add_argument("--state", metavar="DIR", default=None,
                   help="keep the devices' counters and coins in DIR across restarts (cctalk-bus.json)")
    p.add_argument("--parent-pid", type=int, default=None, metavar="PID",
                   help="quit when this process (the launcher) has ended")
    return p


def watch_parent(pid: int, server: SimServer) -> threading.Thread:
    """Quit the server once process ``pid`` is no longer this process's parent: when a parent
    ends, however it ends, the kernel gives its children to init (or a subreaper). A look every
    ``PARENT_POLL`` seconds; needs nothing from the parent, so a SIGKILL of it is seen too."""

    def watch() -> None:
        while not server.controller.quit:
            if os.getppid() != pid:
                server.controller.quit = True
                return
            time.sleep(PARENT_POLL)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        data: dict[str, Any] = load_file(args.config) if args.config else {}
        devices = devices_of(data)
        devices += [("acceptor", parse_device_spec(s)) for s in args.acceptor]
        devices += [("hopper", parse_device_spec(s)) for s in args.hopper]
        devices += [("validator", parse_device_spec(s)) for s in args.validator]
        if not devices:
            devices = [("acceptor", {"address": 2}), ("hopper", {"address": 3})]
        bus = build_bus(
            devices,
            checksum=args.checksum or str(data.get("checksum", "sum8")),
            echo=bool(args.echo if args.echo is not None else data.get("echo", False)),
            seed=int(args.seed if args.seed is not None else data.get("seed", 0)),
        )
        state = None
        if args.state is not None:
            state = BusState(args.state, bus)
            state.restore(time.monotonic())
        server = SimServer(
            bus,
            link=args.link or str(data.get("link", "pty")),
            control=args.control,
            log=stderr_log if args.verbose else None,
            state=state,
        )
    except (ConfigError, ValueError, OSError) as exc:
        print(f"hardware.sim: {exc}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: setattr(server.controller, "quit", True))
    if args.parent_pid is not None:
        watch_parent(args.parent_pid, server)
    server.announce()
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
