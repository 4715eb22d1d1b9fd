"""The panel's non-volatile memory for the journal's head: NV_STORE / NV_READ / NV_REPLY, from
the bytes on the wire to ``PanelHost.store_head`` / ``read_head`` against the simulator over a
pty, including a panel that does not know the messages and a restart of the simulator."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hardware.panel.codec import Frame, FrameDecoder, encode
from hardware.panel.connection import HostConnection, PanelConnection
from hardware.panel.host import NV_RETRY, NV_TRIES, NvNotSupported, PanelHost, PanelOffline
from hardware.panel.messages import (
    ButtonPressed,
    MessageError,
    MsgType,
    NvRead,
    NvReply,
    NvStatus,
    NvStore,
    decode_message,
    encode_message,
)
from hardware.sim.panel import PanelSimulator

from tests.test_panel_sim import SimProcess

HEAD = bytes(range(64))  # the most a panel keeps


def wire(msg, seq: int = 0) -> bytes:
    kind, payload = encode_message(msg)
    return encode(Frame(kind, seq, payload))


def test_nv_messages_on_the_wire_as_the_protocol_document_gives_them() -> None:
    assert wire(NvRead(1)).hex(" ") == "7e 01 01 31 00 01 2f 5d 7e"
    assert wire(NvStore(2, b"\x00\x07")).hex(" ") == "7e 03 01 30 00 02 00 07 7d 5e 85 7e"
    assert wire(NvReply(1, NvStatus.NONE_STORED)).hex(" ") == "7e 02 01 32 00 01 02 fd f3 7e"


@pytest.mark.parametrize(
    "msg",
    [NvStore(1, b""), NvStore(255, HEAD), NvRead(7), NvReply(3, NvStatus.STORED),
     NvReply(4, NvStatus.BLOB, HEAD), NvReply(5, NvStatus.BLOB, b""),
     NvReply(6, NvStatus.NONE_STORED), NvReply(7, NvStatus.FAILED)],
)
def test_every_nv_message_survives_the_wire(msg) -> None:
    (frame,) = FrameDecoder().feed(wire(msg))
    assert decode_message(frame.type, frame.payload) == msg


@pytest.mark.parametrize(
    "kind, payload",
    [(MsgType.NV_STORE, bytes(66)), (MsgType.NV_STORE, b"\x00"), (MsgType.NV_READ, b"\x01\x02"),
     (MsgType.NV_REPLY, b"\x01\x09"), (MsgType.NV_REPLY, b"\x01\x00\x05")],
)
def test_a_bad_nv_payload_is_a_bad_message(kind, payload) -> None:
    with pytest.raises(MessageError):
        decode_message(kind, payload)


def test_a_blob_over_64_bytes_is_refused_before_anything_is_sent() -> None:
    with pytest.raises(ValueError, match="at most 64 bytes"):
        NvStore(1, bytes(65))


def _established() -> tuple[HostConnection, PanelConnection]:
    host, panel = HostConnection(session=9), PanelConnection(nv=False)
    for now in (0.0, 0.3, 0.6):
        host.tick(now)
        panel.receive_data(host.data_to_send(), now)
        host.receive_data(panel.data_to_send(), now)
    assert host.link_up and panel.link_up
    return host, panel


def test_a_panel_without_nv_drops_the_request_as_an_unknown_message_and_carries_on() -> None:
    host, panel = _established()
    panel.events()
    assert host.send_now(NvStore(1, b"head"), 1.0)
    panel.receive_data(host.data_to_send(), 1.0)
    assert panel.events() == [] and panel.stats["bad_message"] == 1
    panel.send(ButtonPressed(1, "start"), 1.1)  # the sequenced streams are untouched
    host.receive_data(panel.data_to_send(), 1.1)
    assert ButtonPressed(1, "start") in host.events()


# --- end to end: PanelHost and the simulator over a pty ---------------------------------------


def _connected(link: str) -> PanelHost:
    host = PanelHost(link)
    deadline = time.monotonic() + 30  # bounds a hang only
    while not host.link_up:
        assert time.monotonic() < deadline, "the panel link did not come up"
        host.poll()
        time.sleep(0.002)
    return host


@pytest.fixture
def nv_file(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "panel-memory.json")


@pytest.mark.timeout(120)
def test_the_head_is_stored_read_back_and_survives_a_restart_of_the_simulator(nv_file) -> None:
    sim = SimProcess("--nv-file", nv_file)
    try:
        with _connected(sim.link) as host:
            assert host.read_head() is None  # nothing stored yet
            host.store_head(HEAD)
            assert host.read_head() == HEAD and host.nv_supported is True
            host.store_head(b"seq=41")  # replaces it
            assert host.read_head() == b"seq=41"
    finally:
        assert sim.close() == 0
    assert json.loads(Path(nv_file).read_text())["head"] == b"seq=41".hex()
    sim = SimProcess("--nv-file", nv_file)  # the panel powered up again
    try:
        with _connected(sim.link) as host:
            assert host.read_head() == b"seq=41"
    finally:
        assert sim.close() == 0


@pytest.mark.timeout(120)
def test_a_panel_that_does_not_know_the_messages_is_reported_not_supported(monkeypatch) -> None:
    sim = SimProcess("--no-nv")
    try:
        with _connected(sim.link) as host:
            start = time.monotonic()
            with pytest.raises(NvNotSupported):
                host.store_head(b"head")
            # it waits out its whole timeout (the upper bound only catches a hang: the scheduler
            # of a loaded machine may add to the wait, never take from it)
            assert NV_RETRY * NV_TRIES <= time.monotonic() - start < NV_RETRY * NV_TRIES + 15
            assert host.nv_supported is False and host.link_up
            with monkeypatch.context() as m:  # remembered: no second wait, not one look at the clock
                m.setattr(host, "clock", lambda: pytest.fail("waited again"))
                with pytest.raises(NvNotSupported):
                    host.read_head()
            assert sim.cmd("tap 1 start") == "OK"  # the panel works on as before
            deadline = time.monotonic() + 30  # bounds a hang only
            while ButtonPressed(1, "start") not in host.events():
                assert time.monotonic() < deadline
                host.poll()
                time.sleep(0.002)
            assert sim.data("state")["stats"]["bad_message"] >= 1
    finally:
        assert sim.close() == 0


@pytest.mark.timeout(120)
def test_embedded_in_memory_with_the_host_polled_by_its_thread() -> None:
    with PanelSimulator(seats=2) as sim, _connected(sim.link_url) as host:
        host.start()
        host.store_head(b"\x7e\x7d head with flag bytes")
        assert host.read_head() == b"\x7e\x7d head with flag bytes"
        sim.reboot()  # a power cycle: the memory is non-volatile
        deadline = time.monotonic() + 30  # bounds a hang only
        while True:
            try:
                assert host.read_head() == b"\x7e\x7d head with flag bytes"
                break
            except PanelOffline:
                assert time.monotonic() < deadline
                time.sleep(0.05)


@pytest.mark.timeout(120)
def test_an_offline_panel_says_so() -> None:
    with PanelSimulator(seats=2) as sim, _connected(sim.link_url) as host:
        sim.disconnect()
        deadline = time.monotonic() + 30  # bounds a hang only
        while host.link_up:
            assert time.monotonic() < deadline
            host.poll()
            time.sleep(0.01)
        with pytest.raises(PanelOffline, match="panel offline"):
            host.store_head(b"head")
