"""SAS links: the parity marks a real UART delivers decoded into wakeup flags, the termios
settings of space and mark parity, which class a configured port opens, and the flags reaching
the machine through ``SasPort``."""

from __future__ import annotations

import termios

import pytest

from hardware.links import parse_link
from hardware.sas.codec import with_crc
from hardware.sas.link import CMSPAR, NineBitSerial, ParmrkDecoder, PtyLink, is_real_uart, ninebit_attrs, open_sas_link
from hardware.sas.machine import SasMachine
from hardware.sas.port import SasPort
from hardware.transport import SerialTransport

from tests.test_sas import Meters


def test_parmrk_wakeup_bytes_and_literal_ff() -> None:
    d = ParmrkDecoder()
    # a general poll 0x81 with the wakeup bit, then a long poll 01 1A, the 01 woken
    assert d.feed(b"\xff\x00\x81\xff\x00\x01\x1a") == (b"\x81\x01\x1a", [True, True, False])
    # a literal FF in data (a CRC byte), then an ordinary byte
    assert d.feed(b"\xff\xff\x12") == (b"\xff\x12", [False, False])


def test_parmrk_sequences_split_across_reads_are_carried_over() -> None:
    d = ParmrkDecoder()
    assert d.feed(b"\x05\xff") == (b"\x05", [False])
    assert d.feed(b"\x00") == (b"", [])
    assert d.feed(b"\x81\xff") == (b"\x81", [True])
    assert d.feed(b"\xff") == (b"\xff", [False])
    # FF followed by something PARMRK never makes: the FF is data
    assert d.feed(b"\xff\x07") == (b"\xff\x07", [False, False])


def test_ninebit_attributes_space_and_mark() -> None:
    base = [termios.ISTRIP | termios.ICRNL, termios.OPOST, termios.CS7 | termios.CSTOPB,
            termios.ICANON | termios.ECHO, termios.B9600, termios.B9600, [b"\x00"] * 32]
    space = ninebit_attrs(base, mark=False)
    mark = ninebit_attrs(base, mark=True)
    assert space[0] & termios.INPCK and space[0] & termios.PARMRK and not space[0] & termios.ISTRIP
    assert not space[0] & termios.ICRNL and space[1] == 0 and space[3] == 0
    assert space[2] & termios.CSIZE == termios.CS8 and not space[2] & termios.CSTOPB
    assert space[2] & termios.PARENB and space[2] & CMSPAR and not space[2] & termios.PARODD
    assert mark[2] & termios.PARODD and mark[2] & CMSPAR
    assert space[4] == space[5] == termios.B19200
    assert space[6][termios.VMIN] == 0 and space[6][termios.VTIME] == 0


def test_which_class_a_configured_port_opens(tmp_path) -> None:
    assert is_real_uart("/dev/ttyS4") and is_real_uart("/dev/ttyUSB0")
    assert not is_real_uart("/dev/pts/3") and not is_real_uart(str(tmp_path / "x"))
    assert parse_link("pty:///tmp/sas1").backend.cls == "PtyLink"
    assert parse_link("ninebit:///dev/ttyS4").target == "/dev/ttyS4"
    link = open_sas_link(f"pty://{tmp_path / 'sas1'}")
    try:
        assert isinstance(link, PtyLink)
        # a pty path is opened by the registry, framed by content
        host_side = open_sas_link(str(tmp_path / "sas1"))
        assert isinstance(host_side, SerialTransport)
        host_side.close()
    finally:
        link.close()


def test_a_pty_cannot_keep_stick_parity_so_ninebit_frames_by_content(tmp_path) -> None:
    link = PtyLink(str(tmp_path / "p"))
    try:
        port = NineBitSerial(link.slave_name)
        try:
            assert port.marks is False  # Linux clears parity on a pty
            link.write(b"\x81")
            assert port.read_marked(16, 1.0) == (b"\x81", None)
        finally:
            port.close()
    finally:
        link.close()


class MarkedLink:
    """A link reporting the ninth bit, as NineBitSerial does on a real UART."""

    def __init__(self, chunks: list[tuple[bytes, list[bool]]]) -> None:
        self.chunks = chunks
        self.written = bytearray()

    def read_marked(self, size: int, timeout: float) -> tuple[bytes, list[bool] | None]:
        return self.chunks.pop(0) if self.chunks else (b"", None)

    def read(self, size: int, timeout: float) -> bytes:
        raise AssertionError("a marked link is read with read_marked")

    def write(self, data: bytes) -> None:
        self.written += data


def test_the_port_hands_wakeup_flags_to_the_machine() -> None:
    # 0x81 without its wakeup bit is data (noise in idle); with it, a general poll
    link = MarkedLink([(b"\x81", [False]), (b"\x81", [True]), (b"\x01\x1a", [True, False])])
    port = SasPort(link, [SasMachine(1, Meters())], clock=lambda: 1.0)
    for _ in range(3):
        port.pump()
    assert bytes(link.written) == b"\x00" + with_crc(bytes.fromhex("011a00001234"))


def test_a_failing_link_is_counted_and_the_port_keeps_serving() -> None:
    class Flaky(MarkedLink):
        def read_marked(self, size: int, timeout: float) -> tuple[bytes, list[bool] | None]:
            if not self.chunks:
                raise OSError("EIO")
            return super().read_marked(size, timeout)

    link = Flaky([])
    port = SasPort(link, [SasMachine(1, Meters())], clock=lambda: 1.0)
    port.pump()
    link.chunks.append((b"\x81", [True]))
    port.pump()
    assert port.errors == 1 and bytes(link.written) == b"\x00"


@pytest.mark.parametrize("url", ["socket://127.0.0.1:1"])
def test_a_socket_url_that_cannot_connect_is_a_transport_error(url) -> None:
    from hardware.transport import TransportError

    with pytest.raises(TransportError):
        open_sas_link(url)


def test_a_host_s_poll_goes_out_with_mark_parity_on_the_wakeup_byte_only(tmp_path, monkeypatch) -> None:
    link = PtyLink(str(tmp_path / "p"))
    try:
        port = NineBitSerial(link.slave_name)
        sets: list[bool] = []
        real = termios.tcsetattr

        def recording(fd: int, when: int, attrs: list) -> None:
            if fd == port.fileno():  # only this port's settings (another test may open one)
                sets.append(bool(attrs[2] & termios.PARODD))
            real(fd, when, attrs)

        monkeypatch.setattr(termios, "tcsetattr", recording)
        try:
            port.write_poll(b"\x01\x1a", [True, False])
        finally:
            port.close()
        assert sets == [True, False, False]  # mark for 01, space for 1A, space after
        got = b""
        while len(got) < 2 and (chunk := link.read(16, 1.0)):  # the two writes may come apart
            got += chunk
        assert got == b"\x01\x1a"
    finally:
        link.close()
