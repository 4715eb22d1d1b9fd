"""The ``devices`` and ``panel`` commands: ``devices scan``, what answers on a real ccTalk bus;
``panel pair``, a new link key for the button panel (``machine/operator/panelpair.py``).

Owns: choosing the link (``--bus`` or the configuration's), scanning it and printing each
device found, as a line or JSON; status 1 when nobody answered. The scan lives in
``hardware/cctalk/scan.py``. Never reaches a simulator (a ``sim`` bus is refused).
"""

from __future__ import annotations

import argparse
import json
import sys

from machine.cli.common import CommandError


def scan_command(args: argparse.Namespace) -> int:
    from hardware.cctalk.codec import Checksum
    from hardware.cctalk.host import CctalkBus
    from hardware.cctalk.scan import scan

    url, echo, checksum = args.bus, args.echo, args.checksum
    if url is None or echo is None or checksum is None:
        from machine.operator.config import load_config

        devices = load_config(args.config).devices
        url = devices.bus if url is None else url
        echo = devices.bus_echo if echo is None else echo
        checksum = devices.bus_checksum if checksum is None else checksum
    from hardware.links import is_simulated

    if is_simulated(url):
        raise CommandError(f"the configuration's bus is {url!r} (a simulator): name the link to scan with --bus URL")
    timeout = args.timeout_ms / 1000
    try:
        with CctalkBus.open(url, echo=echo, checksum=Checksum(checksum), timeout=max(timeout, 0.2)) as bus:
            found = scan(bus, method=args.method, timeout=timeout, wait=args.poll_wait_ms / 1000)
    except OSError as exc:  # TransportError: the link could not be opened, or went away
        raise CommandError(str(exc)) from None
    if args.json:
        print(json.dumps([d.as_dict() for d in found], indent=2))
    else:
        for device in found:
            print(device.line())
    if not found:
        print(f"cabinet devices scan: no ccTalk device answered on {url}", file=sys.stderr)
        return 1
    return 0


def pair_command(args: argparse.Namespace) -> int:
    from machine.operator.panelpair import pair_command as pair

    return pair(args)
