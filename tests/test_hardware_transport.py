"""The serial transport over pyserial URLs, without any device."""

from __future__ import annotations

import contextlib

import pytest

from hardware.cctalk.host import CctalkBus, NoReply
from hardware.links import LinkError, is_simulated, open_transport, parse_link
from hardware.transport import SerialTransport, TransportError

pytestmark = pytest.mark.timeout(30)


def test_loop_url_reads_back_what_was_written_and_times_out_empty():
    with contextlib.closing(open_transport("loop://")) as link:
        link.write(b"\x02\x00\x01\xf2\x0b")
        assert link.read(64, 0.5) == b"\x02\x00\x01\xf2\x0b"
        assert link.read(64, 0.01) == b""


def test_a_link_that_cannot_be_opened_is_a_transport_error_naming_it():
    with pytest.raises(TransportError, match="/nonexistent/tty: cannot open"):
        SerialTransport("/nonexistent/tty")


def test_a_bus_that_only_hears_its_own_echo_gets_no_reply():
    with (
        CctalkBus.open("loop://", link="loop", echo=True, timeout=0.02, retries=1) as bus,
        pytest.raises(NoReply, match="^loop: address 2: no reply to header 254 after 2 tries"),
    ):
        bus.request(2, 254)


def test_the_registry_opens_a_device_path_and_a_serial_url_alike():
    import os
    import tty

    master, slave = os.openpty()
    try:
        tty.setraw(slave)
        name = os.ttyname(slave)
        for url in (name, f"serial://{name}"):
            with contextlib.closing(open_transport(url)) as link:
                link.write(b"\x02\x00\x01\xfe\xff")
                assert os.read(master, 64) == b"\x02\x00\x01\xfe\xff"
    finally:
        os.close(master)
        os.close(slave)


@pytest.mark.parametrize("url", ["sim", "sim://"])
def test_a_simulated_link_is_reached_only_through_its_simulator(url):
    assert is_simulated(url) and not is_simulated("/dev/ttyUSB0") and not is_simulated("socket://h:1")
    with pytest.raises(TransportError, match="^sim: a simulator's link exists only while its simulator runs"):
        open_transport(url)


@pytest.mark.parametrize(("url", "why"), [("bogus://x", "no backend for bogus://"), ("ttyUSB0", "neither a device path"),
                                          ("serial://", "names no device")])
def test_a_link_no_backend_serves_is_a_transport_error_naming_it(url, why):
    with pytest.raises(TransportError, match=f"^{url}: {why}"):
        open_transport(url)
    with pytest.raises(LinkError):
        parse_link(url)


def test_a_socket_link_whose_far_end_reset_it_closes_its_socket_too():
    """pyserial's ``socket://`` close leaves the socket open when its shutdown fails (the far
    end reset the connection, as a killed simulator does); the transport closes it itself."""
    import socket
    import struct

    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        link = SerialTransport(f"socket://127.0.0.1:{port}")
        peer, _ = server.accept()
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        peer.close()  # linger 0: a reset, not a clean close
        inner = link._port._socket
        with contextlib.suppress(TransportError):
            for _ in range(100):  # until the reset has arrived
                link.write(b"\x00")
        link.close()
        assert inner.fileno() == -1
