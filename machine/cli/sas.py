"""The ``sas`` commands: ``sas poll PORT``, the project's own SAS host pointed at a machine.

Owns: opening the link (a device path, a pty, ``socket://``), polling one address and printing
what it answers in plain lines: ``meter NAME VALUE`` for ``--meters``, one line per exception
or real-time event for ``--events SECONDS`` (and one general poll when neither is asked).
Status 1 when the address never answers. The host itself is ``hardware/sas/host.py``; never
changes anything on the machine (only read polls and general polls are sent).
"""

from __future__ import annotations

import argparse
import time

from machine.cli.common import CommandError, Unreachable


def poll_command(args: argparse.Namespace) -> int:
    from hardware.links import is_simulated
    from hardware.sas.host import NoReply, SasHost, describe
    from hardware.sas.link import open_sas_host_link

    if is_simulated(args.port):
        raise CommandError(f"{args.port!r} is a simulator: name a serial port, pty or socket:// URL")
    try:
        link = open_sas_host_link(args.port)
    except OSError as exc:
        raise Unreachable(str(exc)) from None
    host = SasHost(link, args.address, timeout=args.timeout_ms / 1000)
    answered = False
    try:
        if args.meters:
            meters = host.meters()
            answered = answered or bool(meters)
            for name, value in meters.items():
                print(f"meter {name.replace(' ', '_')} {value}")
        if args.events is not None or not args.meters:
            end = time.monotonic() + (args.events or 0)
            while True:
                try:
                    reply = host.general()
                    answered = True
                    if reply.kind != "exception" or reply.code != 0 or args.events is None:
                        print(describe(reply), flush=True)
                except NoReply:
                    pass
                if time.monotonic() >= end:
                    break
                time.sleep(0.04)
    finally:
        link.close()
    if not answered:
        raise Unreachable(f"cabinet sas poll: address {args.address} did not answer on {args.port}")
    return 0
