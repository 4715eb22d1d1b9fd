"""The panel link authenticated (issue 24, finding 5): a MAC on every frame under the key paired
at installation, a frame counter and the panel's nonce inside it, so that a spliced device can
neither press a button nor turn a key, and no frame is taken twice or in another session.

The pure state machines on injected time, with a man in the middle on the line who knows the
protocol but not the key: forged frames (right checksum, right sequence number), replays in the
same session, after the sequence number has wrapped and into a new session, frames reflected
back to their sender, and pairing (PAIR) as the panel takes it or refuses it.
"""

from __future__ import annotations

import random

import pytest

from hardware.panel.auth import KEY_BYTES, MAC_BYTES, frame_mac
from hardware.panel.codec import AUTH_VERSION, Frame, FrameDecoder, encode
from hardware.panel.connection import HostConnection, LinkDown, LinkUp, PanelConnection
from hardware.panel.messages import (
    ButtonPressed,
    ButtonReleased,
    Hello,
    KeySwitch,
    LampState,
    Message,
    MsgType,
    NvReply,
    NvStatus,
    NvStore,
    Pair,
    SetLamp,
    decode_message,
    encode_message,
)
from hardware.panel.testing import ConnectionPair, FaultyLine
from hardware.sim.panel_device import PanelDevice, RamNv

KEY = bytes(range(KEY_BYTES))
OTHER = bytes(KEY_BYTES)


def _nonces(seed: int = 7):
    rng = random.Random(seed)
    return lambda: rng.getrandbits(32)


def _pair(host_key: bytes | None = KEY, panel_key: bytes | None = KEY, session: int = 100):
    host = HostConnection(session=session, key=host_key)
    panel = PanelConnection(panel_id=9, seats=4, key=panel_key, nonces=_nonces())
    return host, panel, ConnectionPair(host, panel)


def _up(pair: ConnectionPair) -> None:
    pair.run_until(lambda: pair.host.link_up and pair.panel.link_up, 2.0)


class Tap:
    """What went over the line, frame by frame, as a man in the middle reads it."""

    def __init__(self, pair: ConnectionPair) -> None:
        self.pair = pair
        self.to_host: list[bytes] = []
        self.to_panel: list[bytes] = []
        for line, seen in ((pair.to_host, self.to_host), (pair.to_panel, self.to_panel)):
            write = line.write

            def spy(data: bytes, now: float, write=write, seen=seen) -> None:
                seen.extend(b"\x7e" + chunk + b"\x7e" for chunk in data.split(b"\x7e") if chunk)
                write(data, now)

            line.write = spy  # type: ignore[method-assign]

    @staticmethod
    def frames(raw: list[bytes]) -> list[tuple[bytes, Frame]]:
        out = []
        for chunk in raw:
            frames = FrameDecoder().feed(chunk)
            out += [(chunk, f) for f in frames]
        return out


def _message(frame: Frame):
    return decode_message(frame.type, frame.payload)


def _inputs(events) -> list:
    return [e for e in events if isinstance(e, (ButtonPressed, ButtonReleased, KeySwitch))]


def _last_seq(tap: Tap) -> int:
    return max((f.seq for _, f in Tap.frames(tap.to_host) if f.seq), default=0)


def test_every_frame_of_a_paired_link_carries_a_counter_and_a_mac() -> None:
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    panel.send(ButtonPressed(1, "start"), pair.now)
    pair.run(0.05)
    assert ButtonPressed(1, "start") in _inputs(host.events())
    frames = [f for _, f in Tap.frames(tap.to_host + tap.to_panel)]
    assert frames and all(f.version == AUTH_VERSION and len(f.mac) == MAC_BYTES for f in frames)
    hello = next(_message(f) for _, f in Tap.frames(tap.to_host) if f.type == MsgType.HELLO and _message(f).session)
    assert hello.nonce is not None  # the panel's nonce for the session, in its HELLO
    assert host.stats["unauthenticated"] == panel.stats["unauthenticated"] == 0


@pytest.mark.parametrize("authenticated", [False, True])
def test_a_forged_key_and_collect_with_the_right_checksum_and_sequence_press_nothing(authenticated) -> None:
    """Finding 5: the spliced device sends ``KEY attendant on`` and seat 1 ``collect`` with the
    sequence numbers the host expects next and a valid CRC (and, framed as version 2, a counter
    above the panel's and a MAC it had to guess)."""
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    panel.send(ButtonPressed(2, "start"), pair.now)
    pair.run(0.1)
    host.events()
    seq = _last_seq(tap)
    counter = max(f.counter for _, f in Tap.frames(tap.to_host))
    forged: Frame
    messages: tuple[Message, ...] = (KeySwitch("attendant", True), ButtonPressed(1, "collect"), ButtonReleased(1, "collect"))
    for i, msg in enumerate(messages):
        kind, payload = encode_message(msg)
        if authenticated:
            forged = Frame(kind, seq + 1 + i, payload, AUTH_VERSION, counter + 1 + i, random.Random(i).randbytes(MAC_BYTES))
        else:
            forged = Frame(kind, seq + 1 + i, payload)
        host.receive_data(encode(forged), pair.now)
    assert _inputs(host.events()) == []
    assert host.stats["unauthenticated"] == 3 and host.stats["delivered"] == 1
    panel.send(ButtonPressed(1, "stand"), pair.now)  # the real panel is not put out of step
    pair.run(0.1)
    assert _inputs(host.events()) == [ButtonPressed(1, "stand")]


def test_a_frame_replayed_in_its_session_is_refused_even_after_the_sequence_number_wrapped() -> None:
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    panel.send(KeySwitch("attendant", True), pair.now)
    pair.run(0.05)
    assert KeySwitch("attendant", True) in host.events()
    [(raw, key_frame)] = [(r, f) for r, f in Tap.frames(tap.to_host) if f.type == MsgType.KEY and _message(f).name == "attendant"
                          and _message(f).on]
    host.receive_data(raw, pair.now)  # at once
    assert _inputs(host.events()) == [] and host.stats["stale"] >= 1
    for _ in range(127):  # 254 frames: the sequence number wraps past 255 to the replay's again
        panel.send(ButtonPressed(3, "+2"), pair.now)
        panel.send(ButtonReleased(3, "+2"), pair.now)
        pair.run(0.02)
    assert len(_inputs(host.events())) == 254
    assert host._expected == key_frame.seq  # noqa: SLF001 - the replay has the number the host waits for
    host.receive_data(raw, pair.now)
    assert _inputs(host.events()) == []
    assert host.stats["unauthenticated"] == 0  # authentic, but old: stale, not forged


def test_frames_of_an_earlier_session_are_refused_in_the_next() -> None:
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    panel.send(KeySwitch("attendant", True), pair.now)
    pair.run(0.05)
    host.send(SetLamp(1, "collect", LampState.ON), pair.now)
    assert host.send_now(NvStore(1, b"old head"), pair.now)
    pair.run(0.05)
    panel.events()
    old_to_host = [r for r, f in Tap.frames(tap.to_host) if f.seq]
    old_to_panel = [r for r, f in Tap.frames(tap.to_panel) if f.type in (MsgType.LAMP, MsgType.NV_STORE)]
    again = HostConnection(session=555, key=KEY)  # the cabinet restarted
    pair.host = again
    pair.run_until(lambda: again.link_up and panel.link_up and panel.host_session == 555, 3.0)
    again.events()
    panel.events()
    for raw in old_to_host:
        again.receive_data(raw, pair.now)
    for raw in old_to_panel:
        panel.receive_data(raw, pair.now)
    assert _inputs(again.events()) == []
    assert not [e for e in panel.events() if isinstance(e, (SetLamp, NvStore))]


def test_old_hellos_replayed_start_no_session_and_carry_no_old_frame_into_one() -> None:
    """The panel takes a new session only from a HOST_HELLO that echoes the nonce of its latest
    HELLO, drawn afresh for every session; the host ends its session only for a HELLO of its own
    session with another nonce. Old hellos played again change nothing, on either end."""
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    assert host.send_now(NvStore(1, b"old head"), pair.now)
    pair.run(0.05)
    assert any(isinstance(e, NvStore) for e in panel.events())
    to_panel = [r for r, f in Tap.frames(tap.to_panel) if f.type in (MsgType.HOST_HELLO, MsgType.NV_STORE)]
    to_host = [r for r, f in Tap.frames(tap.to_host) if f.type == MsgType.HELLO]
    fresh = PanelConnection(panel_id=9, seats=4, key=KEY, nonces=_nonces(99))  # the panel powered up again
    for raw in to_panel:
        fresh.receive_data(raw, pair.now)
    assert fresh.host_session == 0 and not fresh.established  # no session from an old hello
    assert not [e for e in fresh.events() if isinstance(e, NvStore)]
    host.events()
    for raw in to_host:  # HELLO(0) and the HELLO that established the session, again
        host.receive_data(raw, pair.now)
    pair.run(0.5)
    assert host.link_up and host.session == 100 and host.stats["panel_restarts"] == 0
    assert not [e for e in host.events() if isinstance(e, LinkDown)]
    for raw in to_panel:  # and the host's to the panel that is there
        panel.receive_data(raw, pair.now)
    pair.run(0.5)
    assert panel.link_up and panel.host_session == 100 and panel.stats["host_restarts"] == 0
    assert not [e for e in panel.events() if isinstance(e, (LinkDown, NvStore))]


def test_a_frame_sent_back_to_its_sender_is_refused() -> None:
    host, panel, pair = _pair()
    tap = Tap(pair)
    _up(pair)
    host.send(SetLamp(1, "start", LampState.ON), pair.now)
    pair.run(0.05)
    [lamp] = [r for r, f in Tap.frames(tap.to_panel) if f.type == MsgType.LAMP]
    frame = FrameDecoder().feed(lamp)[0]
    as_if_panel = Frame(MsgType.BUTTON_DOWN, frame.seq, bytes((1, 6)), AUTH_VERSION, frame.counter, frame.mac)
    host.receive_data(encode(as_if_panel), pair.now)
    host.receive_data(lamp, pair.now)
    assert _inputs(host.events()) == [] and host.stats["unauthenticated"] == 2


@pytest.mark.parametrize("host_key, panel_key", [(KEY, None), (None, KEY), (KEY, OTHER)])
def test_ends_that_do_not_share_a_key_never_bring_the_link_up(host_key, panel_key) -> None:
    host, panel, pair = _pair(host_key, panel_key)
    pair.run(1.0)
    assert not host.link_up and not panel.link_up
    assert host.stats["unauthenticated"] + panel.stats["unauthenticated"] > 0


def test_the_mac_is_hmac_sha256_over_direction_session_nonce_counter_and_frame() -> None:
    import hashlib
    import hmac

    covered = bytes((2, AUTH_VERSION, 0x10, 5, 1, 6))
    want = hmac.new(KEY, b"P" + (100).to_bytes(4, "big") + (7).to_bytes(4, "big") + (3).to_bytes(4, "big") + covered,
                    hashlib.sha256).digest()[:8]
    assert frame_mac(KEY, b"P", 100, 7, 3, covered) == want
    frame = Frame(0x10, 5, bytes((1, 6)), AUTH_VERSION, 3, want)
    assert encode(frame)[1:5] == covered[:4] and FrameDecoder().feed(encode(frame)) == [frame]


def test_the_documented_authenticated_frame() -> None:
    key = bytes(range(32))
    covered = bytes.fromhex("020210050106")
    mac = frame_mac(key, b"P", 0x12345678, 0xCAFEF00D, 1, covered)
    assert mac.hex(" ").upper() == "36 E2 82 EF 14 1B DE F7"
    wire = encode(Frame(0x10, 5, bytes((1, 6)), AUTH_VERSION, 1, mac))
    assert wire.hex(" ").upper() == "7E 02 02 10 05 01 06 00 00 00 01 36 E2 82 EF 14 1B DE F7 E9 D7 7E"


def test_a_plain_hello_is_the_old_one_and_a_paired_one_adds_the_nonce() -> None:
    assert encode_message(Hello(1, 4, 0)) == (MsgType.HELLO, bytes.fromhex("0100010400000000"))
    kind, payload = encode_message(Hello(1, 4, 0x12345678, nonce=0xCAFEF00D))
    assert payload.hex() == "010001041234567" + "8cafef00d" and decode_message(kind, payload).nonce == 0xCAFEF00D


# -- pairing: PAIR, as the panel takes or refuses it -------------------------------------------------


def _device_pair(memory: RamNv, host_key: bytes | None = None):
    device = PanelDevice(9, 4, nv=memory)
    host = HostConnection(session=300, key=host_key)
    return device, host, ConnectionPair(host, device)


def test_the_panel_takes_a_link_key_only_with_its_door_open_and_its_operator_key_on() -> None:
    memory = RamNv()
    device, host, pair = _device_pair(memory)
    _up(pair)
    replies = []
    for request, (door, operator) in enumerate([(False, False), (True, False), (False, True)], start=1):
        device.door_open, device.keys["operator"] = door, operator
        assert host.send_now(Pair(request, KEY), pair.now)
        pair.run(0.05)
        replies += [e for e in host.events() if isinstance(e, NvReply)]
    assert [r.status for r in replies] == [NvStatus.REFUSED] * 3 and memory.key is None
    device.door_open = device.keys["operator"] = True
    assert host.send_now(Pair(9, KEY), pair.now)
    pair.run(0.05)
    events = host.events()
    assert NvReply(9, NvStatus.STORED) in events and memory.key == KEY
    assert device.conn.authenticated and not device.link_up  # a new session, under the key
    host.rekey(KEY)
    pair.run_until(lambda: host.link_up and device.link_up, 2.0)
    assert isinstance(next(e for e in host.events() if isinstance(e, LinkDown)), LinkDown)
    again = PanelDevice(9, 4, nv=memory)  # powered up again: the key is in its memory
    assert again.conn.authenticated


def test_a_paired_panel_takes_a_new_key_only_from_a_host_that_holds_the_old_one() -> None:
    memory = RamNv(key=KEY)
    device, stranger, pair = _device_pair(memory, host_key=None)
    device.door_open = device.keys["operator"] = True
    pair.run(1.0)
    assert not stranger.send_now(Pair(1, OTHER), pair.now)  # no session: nothing goes out
    stranger.established = True  # a forger who skips the handshake and sends PAIR anyway
    stranger.send_now(Pair(1, OTHER), pair.now)
    pair.run(0.1)
    assert memory.key == KEY and device.conn.stats["unauthenticated"] > 0
    owner = HostConnection(session=301, key=KEY)
    pair.host = owner
    _up(pair)
    assert owner.send_now(Pair(2, OTHER), pair.now)
    pair.run(0.05)
    assert NvReply(2, NvStatus.STORED) in owner.events() and memory.key == OTHER


# -- a paired link keeps every guarantee of the plain one ------------------------------------------


class ReplayingLine(FaultyLine):
    """A bad line with a man in the middle who also plays old frames of this line again."""

    def __init__(self, rng: random.Random, replay: float, **faults: float) -> None:
        super().__init__(rng, **faults)
        self.replay = replay
        self.seen: list[bytes] = []

    def write(self, data: bytes, now: float) -> None:
        self.seen += [b"\x7e" + c + b"\x7e" for c in data.split(b"\x7e") if c]
        if self.seen and self.rng.random() < self.replay:
            data = self.rng.choice(self.seen) + data
        super().write(data, now)


@pytest.mark.parametrize("seed", range(8))
def test_a_bad_line_that_replays_old_frames_loses_doubles_and_invents_no_press(seed: int) -> None:
    rng = random.Random(seed)
    host = HostConnection(session=7, key=KEY)
    panel = PanelConnection(seats=4, key=KEY, nonces=_nonces(seed))
    faults = dict(drop=0.1, duplicate=0.1, corrupt=0.1, truncate=0.05, garbage=0.1, latency=0.003)
    pair = ConnectionPair(host, panel, to_panel=ReplayingLine(random.Random(seed * 2), 0.3, **faults),
                          to_host=ReplayingLine(random.Random(seed * 2 + 1), 0.3, **faults))
    sent: list[ButtonPressed | ButtonReleased] = []
    for _ in range(150):
        seat, button = rng.randint(1, 4), rng.choice(("start", "collect", "+2", "auto"))
        sent += [ButtonPressed(seat, button), ButtonReleased(seat, button)]
    lamps = [SetLamp(rng.randint(1, 4), "start", rng.choice(list(LampState))) for _ in range(100)]
    for i, event in enumerate(sent):
        panel.send(event, pair.now)
        if i < len(lamps):
            host.send(lamps[i], pair.now)
        pair.run(rng.choice([0.0, 0.005, 0.02]))
    pair.run_until(lambda: panel.pending == 0 and host.pending == 0, 30.0)
    assert _inputs(host.events()) == sent  # exactly once, in order
    assert [e for e in panel.events() if isinstance(e, SetLamp)] == lamps
    assert host.stats["stale"] + panel.stats["stale"] > 0  # the replays, refused


def test_a_paired_panel_that_restarts_and_a_host_that_restarts_come_back_under_the_key() -> None:
    memory = RamNv(key=KEY)
    host = HostConnection(session=50, key=KEY)
    pair = ConnectionPair(host, PanelDevice(2, 2, nv=memory))
    _up(pair)
    host.events()
    pair.panel = panel = PanelDevice(2, 2, nv=memory)  # power cycle: the key is in its memory
    pair.run_until(lambda: host.link_up and panel.link_up and host.stats["panel_restarts"] == 1, 2.0)
    pair.run(0.3)
    assert host.session == 51 and panel.conn.host_session == 51
    assert host.events()[:2] == [LinkDown("restart"), LinkUp(new_session=True, panel_id=2, seats=2)]
    pair.host = host = HostConnection(session=900, key=KEY)  # the cabinet restarted
    pair.run_until(lambda: host.link_up and panel.link_up and panel.conn.host_session == 900, 2.0)
    panel.press(1, "start", pair.now)
    pair.run(0.1)
    assert ButtonPressed(1, "start") in host.events()
    assert host.stats["unauthenticated"] == panel.conn.stats["unauthenticated"] == 0
