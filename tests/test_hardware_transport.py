"""The serial transport over pyserial URLs, without any device."""

from __future__ import annotations

import pytest

from hardware.cctalk.host import CctalkBus, NoReply
from hardware.transport import SerialTransport, TransportError, open_transport

pytestmark = pytest.mark.timeout(30)


def test_loop_url_reads_back_what_was_written_and_times_out_empty():
    with open_transport("loop://") as link:
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
