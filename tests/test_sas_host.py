"""The project's own SAS host against the machine side: polls built byte for byte, replies
parsed (exceptions, ACK/NACK, fixed and variable frames, real-time events, bad CRCs), the
blocking host over a socketpair and a pty, and ``cabinet sas poll`` over a pty link."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime

import pytest

from hardware.sas.codec import with_crc
from hardware.sas.host import NoReply, ReplyReader, SasHost, describe, general_poll, long_poll
from hardware.sas.link import PtyLink
from hardware.sas.machine import SasMachine
from hardware.sas.port import SasPort
from hardware.transport import SerialTransport

from tests.test_sas import Meters


def test_polls_carry_the_crc_and_the_wakeup_bit_on_the_first_byte_only() -> None:
    assert general_poll(1).data == b"\x81" and general_poll(1).wakeup == (True,)
    assert long_poll(1, 0x1A).data == b"\x01\x1a"  # type R: no CRC
    poll = long_poll(1, 0x21, b"\x00\x00")
    assert poll.data == bytes.fromhex("012100005c45")
    assert poll.wakeup == (True, False, False, False, False, False)
    assert long_poll(3, 0x01).data == with_crc(b"\x03\x01")
    with pytest.raises(ValueError):
        general_poll(0)


def test_the_reader_knows_each_reply_shape() -> None:
    assert ReplyReader(1, None).feed(b"\x11").kind == "exception"
    reader = ReplyReader(1, 0x1A)
    assert reader.feed(b"\x01\x1a\x00\x00") is None
    reply = reader.feed(with_crc(b"\x01\x1a\x00\x00\x12\x34")[4:] + b"\x01")
    assert reply is not None and (reply.kind, reply.code, reply.data) == ("frame", 0x1A, b"\x00\x00\x12\x34")
    assert reader.rest == b"\x01"
    variable = with_crc(b"\x01\x54\x07602AB12")
    reply = ReplyReader(1, 0x54).feed(variable)
    assert reply is not None and reply.data == b"602AB12"
    assert ReplyReader(1, 0x01).feed(b"\x01").kind == "ack"
    assert ReplyReader(1, 0x52).feed(b"\x81").kind == "nack"
    bad = bytearray(with_crc(b"\x01\x1a\x00\x00\x12\x34"))
    bad[-1] ^= 1
    assert ReplyReader(1, 0x1A).feed(bytes(bad)).kind == "bad_crc"
    event = with_crc(b"\x01\xff\x7f\x00\x00\x01\x50")
    reply = ReplyReader(1, None).feed(event)
    assert reply is not None and (reply.kind, reply.code, reply.data) == ("event", 0x7F, b"\x00\x00\x01\x50")
    assert describe(reply) == "event 7F game ended 00000150"


def test_a_chirp_just_before_the_reply_is_passed_over() -> None:
    reader = ReplyReader(1, 0x1A)
    reply = reader.feed(b"\x01\x01" + with_crc(b"\x01\x1a\x00\x00\x12\x34"))
    assert reply is not None and reply.data == b"\x00\x00\x12\x34" and reader.chirps == 2
    general = ReplyReader(1, None)
    reply = general.feed(b"\x01\x11")
    assert reply is not None and (reply.kind, reply.code, general.chirps) == ("exception", 0x11, 1)
    signature = ReplyReader(1, None).feed(with_crc(b"\x01\x21\x34\x12"))
    assert signature is not None and (signature.kind, signature.code, signature.data) == ("frame", 0x21, b"\x34\x12")


class SocketLink:
    """One end of a socketpair as a transport."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def read(self, size: int, timeout: float) -> bytes:
        self.sock.settimeout(max(timeout, 1e-6))
        try:
            return self.sock.recv(size)
        except TimeoutError:
            return b""

    def close(self) -> None:
        self.sock.close()


@contextlib.contextmanager
def serve(port: SasPort, after: Callable[[], None] | None = None) -> Iterator[None]:
    """Pump ``port`` in a thread (and ``after`` each step, in that thread: the cabinet's part)."""
    stop = threading.Event()

    def loop() -> None:
        while not stop.is_set():
            port.pump(0.01)
            if after is not None:
                after()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(2)


@pytest.fixture
def socket_host() -> Iterator[tuple[SasHost, SasMachine]]:
    a, b = socket.socketpair()
    machine = SasMachine(1, Meters())
    port = SasPort(SocketLink(b), [machine])
    with serve(port):
        yield SasHost(SocketLink(a), 1, timeout=2.0), machine
    a.close()
    b.close()


def test_the_host_reads_meters_and_exceptions_over_a_socketpair(socket_host) -> None:
    host, machine = socket_host
    meters = host.meters()
    assert meters["current credits"] == 1234 and meters["coin in"] == 12345678
    assert meters["games since power up"] == 5 and meters["true coin out"] == 41
    machine.post_exception(0x11)
    assert describe(host.general()) == "exception 11 slot door opened"
    assert describe(host.general()) == "exception 00 no activity"
    assert host.long(0x01).kind == "ack"
    assert host.long(0x52, b"\x00\x09").kind == "nack"


def test_a_machine_that_does_not_answer_is_no_reply() -> None:
    a, b = socket.socketpair()
    host = SasHost(SocketLink(a), 1, timeout=0.2)
    with pytest.raises(NoReply):
        host.general()
    a.close()
    b.close()


@pytest.fixture
def pty_link(tmp_path) -> Iterator[tuple[str, SasMachine]]:
    path = str(tmp_path / "sas1")
    link = PtyLink(path)
    machine = SasMachine(1, Meters())
    with serve(SasPort(link, [machine])):
        yield path, machine
    link.close()


def test_a_host_that_closes_and_reopens_the_pty_finds_the_machine_serving(pty_link) -> None:
    path, machine = pty_link
    for _round in range(3):
        transport = SerialTransport(path, baudrate=19200)
        try:
            host = SasHost(transport, 1, timeout=2.0)
            reply = host.long(0x1A)
            assert (reply.kind, reply.data) == ("frame", b"\x00\x00\x12\x34")
        finally:
            transport.close()
    assert os.path.islink(path)


def test_cabinet_sas_poll_prints_meters_and_events(pty_link, capsys) -> None:
    from machine.cli.commands import build_parser

    path, machine = pty_link
    machine.post_exception(0x7E)
    machine.post_exception(0x12)
    args = build_parser().parse_args(["sas", "poll", path, "--meters", "--events", "0.3"])
    assert args.func(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "meter current_credits 1234" in lines
    assert "meter coin_in 12345678" in lines and "meter games_lost 47" in lines
    assert lines[-2:] == ["exception 7E game started", "exception 12 slot door closed"]


def test_cabinet_sas_poll_says_in_one_line_when_nobody_answers(tmp_path, capsys) -> None:
    from machine.cli.commands import build_parser
    from machine.cli.common import Unreachable

    link = PtyLink(str(tmp_path / "mute"))
    try:
        args = build_parser().parse_args(["sas", "poll", str(tmp_path / "mute"), "--timeout-ms", "50"])
        with pytest.raises(Unreachable, match="address 1 did not answer"):
            args.func(args)
    finally:
        link.close()


def test_a_host_that_reconnects_over_tcp_finds_the_machine_serving() -> None:
    from hardware.sas.link import ListenLink, open_sas_link

    link = open_sas_link("listen://127.0.0.1:0")
    assert isinstance(link, ListenLink)
    host_name, port = link.address
    machine = SasMachine(1, Meters())
    try:
        with serve(SasPort(link, [machine])):  # the machine chirps: it was never polled
            for _round in range(2):
                transport = SerialTransport(f"socket://{host_name}:{port}", baudrate=19200)
                try:
                    reply = SasHost(transport, 1, timeout=2.0).long(0x1A)
                    assert (reply.kind, reply.data) == ("frame", b"\x00\x00\x12\x34")
                finally:
                    transport.close()
    finally:
        link.close()


def test_the_host_moves_credit_by_aft_through_a_machine_and_reads_the_result(socket_host) -> None:
    from hardware.sas.host import aft_interrogate_poll, aft_lock_poll, aft_transfer_poll, parse_aft_transfer

    from tests.test_sas_aft import Cashless

    host, machine = socket_host
    machine.source = source = Cashless()  # AFT reads the new source too
    lock = host.exchange(aft_lock_poll(1, 0x00, 0x01, 500), 0x74)
    assert lock.kind == "frame" and lock.data[4] == 0x00  # locked
    reply = host.exchange(aft_transfer_poll(1, "HOST-1", 2500, asset=0x01020304), 0x72)
    pending = parse_aft_transfer(reply.data)
    assert (pending.status, pending.cents, pending.transaction_id, pending.completed) == (0x40, 2500, "HOST-1", "")
    source.values["aft_in"] = 250
    machine.aft.confirm("HOST-1", 250, datetime(2026, 12, 2, 1, 2, 3))
    done = parse_aft_transfer(host.exchange(aft_interrogate_poll(1), 0x72).data)
    assert (done.status, done.completed) == (0x00, "12022026010203")
    again = parse_aft_transfer(host.exchange(aft_transfer_poll(1, "HOST-1", 2500, asset=0x01020304), 0x72).data)
    assert again == done


def test_cabinet_sas_transfer_waits_for_the_cabinet_and_prints_one_line(tmp_path, capsys) -> None:
    from machine.cli.commands import build_parser
    from machine.cli.common import CommandError
    from tests.test_sas_aft import Cashless

    path = str(tmp_path / "sas1")
    link = PtyLink(path)
    source = Cashless()
    machine = SasMachine(1, source, now=time.monotonic())
    try:
        with serve(SasPort(link, [machine]), lambda: _confirm_when_asked(machine, source)):
            args = build_parser().parse_args(["sas", "transfer", path, "--to-seat", "2500", "--id", "CLI-1",
                                              "--asset", str(0x01020304)])
            assert args.func(args) == 0
            assert capsys.readouterr().out == "aft CLI-1 00 full transfer cents 2500 completed 12022026010203\n"
            args = build_parser().parse_args(["sas", "transfer", path, "--from-seat", "100", "--id", "CLI-2",
                                              "--asset", "7", "--wait", "0"])
            assert args.func(args) == 1  # another machine's asset number: refused
            assert capsys.readouterr().out == "aft CLI-2 93 refused cents 100 completed -\n"
            args = build_parser().parse_args(["sas", "transfer", path, "--to-seat", "1", "--id", "x" * 21,
                                              "--asset", "7"])
            with pytest.raises(CommandError, match="1 to 20 ASCII"):
                args.func(args)
    finally:
        link.close()


def _confirm_when_asked(machine: SasMachine, source: Meters) -> None:
    """The cabinet's part, on the port's thread: journal (here: meter) a transfer, confirm it."""
    from hardware.sas.aft import AftTransfer

    while (event := machine.next_event()) is not None:
        if isinstance(event, AftTransfer):
            source.values["aft_in"] = event.points
            machine.aft.confirm(event.transaction_id, event.points, datetime(2026, 12, 2, 1, 2, 3))


def test_the_host_acknowledges_each_good_answer_and_repeats_after_a_bad_one() -> None:
    class Garbling(SocketLink):
        """Flips a bit of the first real-time answer the machine sends."""

        garbled = False

        def write(self, data: bytes) -> None:
            if not self.garbled and data[:2] == b"\x01\xff":
                self.garbled = True
                data = data[:-1] + bytes((data[-1] ^ 1,))
            super().write(data)

    a, b = socket.socketpair()
    machine = SasMachine(1, Meters(), now=time.monotonic(), implied_nack=True)
    machine.real_time = True
    for code in (0x11, 0x12):
        machine.post_exception(code)
    with serve(SasPort(Garbling(b), [machine])):
        host = SasHost(SocketLink(a), 1, timeout=2.0)
        assert host.general().kind == "bad_crc"
        assert describe(host.general()) == "event 11 slot door opened"  # sent again on the NACK
        assert describe(host.general()) == "event 12 slot door closed"
        assert describe(host.general()) == "exception 00 no activity"
    assert machine.counters["resent"] == 1
    a.close()
    b.close()
