"""The ``sas`` commands: ``sas poll PORT``, the project's own SAS host pointed at a machine.

Owns: opening the link (a device path, a pty, ``socket://``), polling one address and printing
what it answers in plain lines: ``meter NAME VALUE`` for ``--meters``, one line per exception
or real-time event for ``--events SECONDS`` (and one general poll when neither is asked);
status 1 when the address never answers. ``sas transfer``: one AFT transfer and its result in
one line (status 1 unless it completed). The host itself is ``hardware/sas/host.py``; ``poll``
never changes anything on the machine (only read polls and general polls are sent).
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


TRANSFER_WORDS = {0x00: "full transfer", 0x01: "partial transfer", 0x40: "pending", 0xFF: "no transfer"}


def transfer_command(args: argparse.Namespace) -> int:
    """``sas transfer PORT``: one AFT transfer (to the seat or from it), then interrogations
    until it is no longer pending; prints ``aft ID STATUS WORDS cents N completed STAMP``."""
    from hardware.links import is_simulated
    from hardware.sas.host import NoReply, SasHost, aft_interrogate_poll, aft_transfer_poll, parse_aft_transfer
    from hardware.sas.link import open_sas_host_link

    if is_simulated(args.port):
        raise CommandError(f"{args.port!r} is a simulator: name a serial port, pty or socket:// URL")
    try:
        key = bytes.fromhex(args.key) if args.key else bytes(20)
    except ValueError:
        raise CommandError(f"--key {args.key}: not hexadecimal") from None
    if len(key) != 20:
        raise CommandError(f"--key: 20 bytes (40 hex digits), not {len(key)}")
    if args.to_seat is None and args.from_seat is None:
        raise CommandError("cabinet sas transfer: say --to-seat CENTS or --from-seat CENTS")
    to_seat = args.to_seat is not None
    if not (1 <= len(args.id) <= 20 and args.id.isascii()):
        raise CommandError(f"--id {args.id!r}: 1 to 20 ASCII characters")
    cents = args.to_seat if to_seat else args.from_seat
    try:
        link = open_sas_host_link(args.port)
    except OSError as exc:
        raise Unreachable(str(exc)) from None
    host = SasHost(link, args.address, timeout=args.timeout_ms / 1000)
    try:
        poll = aft_transfer_poll(args.address, args.id, cents, to_seat=to_seat, partial=args.partial,
                                 asset=args.asset, key=key)
        reply = host.exchange(poll, 0x72)
        deadline = time.monotonic() + args.wait
        while reply.kind == "frame" and parse_aft_transfer(reply.data).status == 0x40 and time.monotonic() < deadline:
            time.sleep(0.1)
            reply = host.exchange(aft_interrogate_poll(args.address), 0x72)
    except NoReply:
        raise Unreachable(f"cabinet sas transfer: address {args.address} did not answer on {args.port}") from None
    finally:
        link.close()
    if reply.kind != "frame":
        raise Unreachable(f"cabinet sas transfer: address {args.address} answered {reply.kind.replace('_', ' ')}")
    result = parse_aft_transfer(reply.data)
    words = TRANSFER_WORDS.get(result.status, "refused")
    print(f"aft {result.transaction_id or args.id} {result.status:02X} {words} cents {result.cents} "
          f"completed {result.completed or '-'}")
    return 0 if result.status in (0x00, 0x01) else 1
