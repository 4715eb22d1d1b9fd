"""The button panel's messages: names, wire ids and payloads (docs/panel-protocol.md).

Owns: the button, key, door and lamp names used by the Python API and their ids on the wire;
one frozen dataclass per message (the NV ones carry a blob of up to 64 bytes for the panel's
non-volatile memory); and the translation between a message and its
``(type, payload)`` pair. Never frames bytes (that is ``codec.py``), never numbers or
acknowledges anything (that is ``connection.py``), never does I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from hardware.panel.buttons import Button

PROTOCOL_VERSION = 1
MAX_SEATS = 8

# Per seat, in wire-id order (id = index + 1): the names of hardware/panel/buttons.py.
BUTTONS: tuple[str, ...] = tuple(b.value for b in Button)
BUTTON_IDS: dict[str, int] = {name: i + 1 for i, name in enumerate(BUTTONS)}
KEYS: tuple[str, ...] = ("operator", "attendant")
KEY_IDS: dict[str, int] = {name: i + 1 for i, name in enumerate(KEYS)}
DOORS: tuple[str, ...] = ("main",)
DOOR_IDS: dict[str, int] = {name: i + 1 for i, name in enumerate(DOORS)}


class LampState(enum.StrEnum):
    """What a lamp shows. Wire codes: off 0, on 1, blink 2 (2 Hz, 50 % duty)."""

    OFF = "off"
    ON = "on"
    BLINK = "blink"


LAMP_CODES: dict[LampState, int] = {LampState.OFF: 0, LampState.ON: 1, LampState.BLINK: 2}
_LAMP_OF_CODE = {code: state for state, code in LAMP_CODES.items()}


class MsgType(enum.IntEnum):
    """The message type byte of a frame."""

    HELLO = 0x01  # panel -> host
    HOST_HELLO = 0x02  # host -> panel
    HEARTBEAT = 0x03  # both
    ACK = 0x04  # both
    BUTTON_DOWN = 0x10  # panel -> host, sequenced
    BUTTON_UP = 0x11  # panel -> host, sequenced
    KEY = 0x12  # panel -> host, sequenced
    DOOR = 0x13  # panel -> host, sequenced
    LAMP = 0x20  # host -> panel, sequenced
    SEAT_LAMPS = 0x21  # host -> panel, sequenced
    REQUEST_STATE = 0x22  # host -> panel, sequenced
    NV_STORE = 0x30  # host -> panel, not sequenced: keep a blob in non-volatile memory
    NV_READ = 0x31  # host -> panel, not sequenced: what is kept there
    NV_REPLY = 0x32  # panel -> host, not sequenced: the answer to either
    PAIR = 0x33  # host -> panel, not sequenced: keep this link key (answered by NV_REPLY)


class MessageError(ValueError):
    """A frame whose type or payload is not a valid message."""


def unknown_name(what: str, name: object, names: Iterable[str]) -> ValueError:
    """The error for a ``what`` (button, key, door) called ``name`` that is not in ``names``."""
    return ValueError(f"unknown {what} {name!r}; {what}s are {', '.join(names)}")


def button_name(button: str) -> str:
    """``button`` checked against ``BUTTONS`` (case-insensitive); ``ValueError`` otherwise."""
    name = str(button).lower()
    if name not in BUTTON_IDS:
        raise unknown_name("button", button, BUTTONS)
    return name


def all_off() -> dict[str, LampState]:
    """Every lamp of a seat off, in ``BUTTONS`` order."""
    return {b: LampState.OFF for b in BUTTONS}


def _check_ack(ack: int) -> None:
    if not 0 <= ack <= 255:
        raise ValueError(f"an ack is a sequence number 0..255, not {ack}")


def _check_name(what: str, name: str, ids: Mapping[str, int]) -> None:
    if name not in ids:
        raise unknown_name(what, name, ids)


def check_seat(seat: int) -> int:
    """``seat`` as an int in 1..MAX_SEATS; ``ValueError`` otherwise."""
    if isinstance(seat, bool) or int(seat) != seat or not 1 <= int(seat) <= MAX_SEATS:
        raise ValueError(f"seat is 1..{MAX_SEATS}, not {seat!r}")
    return int(seat)


def lamp_state(state: LampState | str | bool) -> LampState:
    """A lamp state from ``LampState``, ``"off"/"on"/"blink"`` or a bool."""
    if isinstance(state, bool):
        return LampState.ON if state else LampState.OFF
    try:
        return LampState(str(state).lower())
    except ValueError:
        raise ValueError(f"a lamp is off, on or blink, not {state!r}") from None


# -- messages ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hello:
    """Panel -> host: who the panel is, and the host session it has adopted (0: none yet);
    on an authenticated link also the nonce it drew for that session (None: a plain link,
    whose HELLO has no nonce)."""

    panel_id: int
    seats: int
    session: int = 0
    version: int = PROTOCOL_VERSION
    nonce: int | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.panel_id <= 0xFFFF or not 1 <= self.seats <= MAX_SEATS:
            raise ValueError(f"panel id is 0..65535 and seats 1..{MAX_SEATS}: {self!r}")
        if not 0 <= self.session <= 0xFFFFFFFF or not 0 <= self.version <= 255:
            raise ValueError(f"session is 32 bits and version a byte: {self!r}")
        if self.nonce is not None and not 0 <= self.nonce <= 0xFFFFFFFF:
            raise ValueError(f"the nonce is 32 bits: {self!r}")


@dataclass(frozen=True)
class HostHello:
    """Host -> panel: start (or confirm) host session ``session`` (never 0); on an
    authenticated link also ``echo``, the nonce of the panel's latest HELLO it answers (None: a
    plain link, whose HOST_HELLO has no echo)."""

    session: int
    version: int = PROTOCOL_VERSION
    echo: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.session <= 0xFFFFFFFF or not 0 <= self.version <= 255:
            raise ValueError(f"host session is 1..2**32-1 and version a byte: {self!r}")
        if self.echo is not None and not 0 <= self.echo <= 0xFFFFFFFF:
            raise ValueError(f"the echo is 32 bits: {self!r}")


@dataclass(frozen=True)
class Heartbeat:
    """Both ways when nothing else was sent for a while; carries the cumulative ack."""

    ack: int = 0

    def __post_init__(self) -> None:
        _check_ack(self.ack)


@dataclass(frozen=True)
class Ack:
    """Both ways: every sequenced frame up to and including ``ack`` has been delivered."""

    ack: int

    def __post_init__(self) -> None:
        _check_ack(self.ack)


@dataclass(frozen=True)
class _ButtonEvent:
    """Panel -> host: a seat's button went down or up (the two are distinct messages)."""

    seat: int
    button: str

    def __post_init__(self) -> None:
        check_seat(self.seat)
        _check_name("button", self.button, BUTTON_IDS)


@dataclass(frozen=True)
class ButtonPressed(_ButtonEvent):
    """Panel -> host: a button went down."""


@dataclass(frozen=True)
class ButtonReleased(_ButtonEvent):
    """Panel -> host: a button came up."""


@dataclass(frozen=True)
class KeySwitch:
    """A key switch's position (a level, reported on change and on request)."""

    name: str
    on: bool

    def __post_init__(self) -> None:
        _check_name("key", self.name, KEY_IDS)


@dataclass(frozen=True)
class Door:
    """A door switch's position (a level, reported on change and on request)."""

    open: bool
    name: str = "main"

    def __post_init__(self) -> None:
        _check_name("door", self.name, DOOR_IDS)


@dataclass(frozen=True)
class SetLamp:
    """Host -> panel: one lamp."""

    seat: int
    button: str
    state: LampState

    def __post_init__(self) -> None:
        check_seat(self.seat)
        _check_name("button", self.button, BUTTON_IDS)
        if not isinstance(self.state, LampState):
            raise ValueError(f"lamp state must be a LampState, not {self.state!r}")


@dataclass(frozen=True)
class SetSeatLamps:
    """Host -> panel: every lamp of a seat, in ``BUTTONS`` order."""

    seat: int
    states: tuple[LampState, ...]

    def __post_init__(self) -> None:
        check_seat(self.seat)
        if len(self.states) != len(BUTTONS) or not all(
            isinstance(x, LampState) for x in self.states
        ):
            raise ValueError(f"a seat has {len(BUTTONS)} LampStates, not {self.states!r}")

    def as_dict(self) -> dict[str, LampState]:
        return dict(zip(BUTTONS, self.states, strict=True))


@dataclass(frozen=True)
class RequestState:
    """Host -> panel: report every key and door position now."""


NV_MAX_BLOB = 64  # bytes a panel keeps in its non-volatile memory for the host


class NvStatus(enum.IntEnum):
    """NV_REPLY's status byte."""

    STORED = 0  # NV_STORE: the blob is written (and read back) in non-volatile memory
    BLOB = 1  # NV_READ: the kept blob follows
    NONE_STORED = 2  # NV_READ: nothing was ever stored
    FAILED = 3  # NV_STORE: the memory could not be written; NV_READ: it could not be read
    REFUSED = 4  # PAIR: the main door is closed or the operator key is off, at the panel


def _check_request(request: int) -> None:
    if not 1 <= request <= 255:
        raise ValueError(f"an NV request id is 1..255, not {request}")


def _check_blob(blob: bytes) -> None:
    if not isinstance(blob, bytes) or len(blob) > NV_MAX_BLOB:
        raise ValueError(f"an NV blob is at most {NV_MAX_BLOB} bytes, not {blob!r}")


@dataclass(frozen=True)
class NvStore:
    """Host -> panel: keep ``blob`` (0..64 bytes) in non-volatile memory, replacing any other."""

    request: int
    blob: bytes

    def __post_init__(self) -> None:
        _check_request(self.request)
        _check_blob(self.blob)


@dataclass(frozen=True)
class NvRead:
    """Host -> panel: send back the blob kept in non-volatile memory."""

    request: int

    def __post_init__(self) -> None:
        _check_request(self.request)


PAIR_KEY_BYTES = 32


@dataclass(frozen=True)
class Pair:
    """Host -> panel: from now on authenticate the link under ``key`` (32 bytes), kept in the
    panel's non-volatile memory. The panel takes it only with its main door open and its
    operator key on (someone at the open cabinet with the operator's key)."""

    request: int
    key: bytes = field(repr=False)

    def __post_init__(self) -> None:
        _check_request(self.request)
        if not isinstance(self.key, bytes) or len(self.key) != PAIR_KEY_BYTES:
            raise ValueError(f"a link key is {PAIR_KEY_BYTES} bytes")


@dataclass(frozen=True)
class NvReply:
    """Panel -> host: the answer to the NV_STORE or NV_READ with the same ``request`` id."""

    request: int
    status: NvStatus
    blob: bytes = b""

    def __post_init__(self) -> None:
        _check_request(self.request)
        _check_blob(self.blob)
        if self.blob and self.status is not NvStatus.BLOB:
            raise ValueError(f"only an NV reply with status BLOB carries a blob: {self!r}")


Message = (
    Hello | HostHello | Heartbeat | Ack | ButtonPressed | ButtonReleased | KeySwitch | Door
    | SetLamp | SetSeatLamps | RequestState | NvStore | NvRead | NvReply | Pair
)
PANEL_EVENTS = (ButtonPressed, ButtonReleased, KeySwitch, Door)  # sequenced, panel -> host
HOST_COMMANDS = (SetLamp, SetSeatLamps, RequestState)  # sequenced, host -> panel
SEQUENCED = PANEL_EVENTS + HOST_COMMANDS
NV_REQUESTS = (NvStore, NvRead, Pair)  # not sequenced, host -> panel: answered by an NvReply
SEQUENCED_TYPES = frozenset(
    {MsgType.BUTTON_DOWN, MsgType.BUTTON_UP, MsgType.KEY, MsgType.DOOR, MsgType.LAMP,
     MsgType.SEAT_LAMPS, MsgType.REQUEST_STATE}
)
PAYLOAD_SIZES: dict[MsgType, int] = {  # authenticated: HELLO 12 (the nonce), HOST_HELLO 9 (the echo)
    MsgType.HELLO: 8, MsgType.HOST_HELLO: 5, MsgType.HEARTBEAT: 1, MsgType.ACK: 1,
    MsgType.BUTTON_DOWN: 2, MsgType.BUTTON_UP: 2, MsgType.KEY: 2, MsgType.DOOR: 2,
    MsgType.LAMP: 3, MsgType.SEAT_LAMPS: 1 + len(BUTTONS), MsgType.REQUEST_STATE: 0,
}
# Messages whose payload ends in a blob: (fewest, most) payload bytes.
PAYLOAD_RANGES: dict[MsgType, tuple[int, int]] = {
    MsgType.NV_STORE: (1, 1 + NV_MAX_BLOB), MsgType.NV_READ: (1, 1),
    MsgType.NV_REPLY: (2, 2 + NV_MAX_BLOB), MsgType.PAIR: (1 + PAIR_KEY_BYTES, 1 + PAIR_KEY_BYTES),
}


def encode_message(msg: Message) -> tuple[MsgType, bytes]:
    """The type byte and payload of ``msg``."""
    match msg:
        case Hello(panel_id, seats, session, version, nonce):
            nonce_bytes = b"" if nonce is None else nonce.to_bytes(4, "big")
            return MsgType.HELLO, bytes((version,)) + panel_id.to_bytes(2, "big") + bytes(
                (seats,)
            ) + session.to_bytes(4, "big") + nonce_bytes
        case HostHello(session, version, echo):
            echo_bytes = b"" if echo is None else echo.to_bytes(4, "big")
            return MsgType.HOST_HELLO, bytes((version,)) + session.to_bytes(4, "big") + echo_bytes
        case Heartbeat(ack):
            return MsgType.HEARTBEAT, bytes((ack,))
        case Ack(ack):
            return MsgType.ACK, bytes((ack,))
        case ButtonPressed(seat, button):
            return MsgType.BUTTON_DOWN, bytes((seat, BUTTON_IDS[button]))
        case ButtonReleased(seat, button):
            return MsgType.BUTTON_UP, bytes((seat, BUTTON_IDS[button]))
        case KeySwitch(name, on):
            return MsgType.KEY, bytes((KEY_IDS[name], int(on)))
        case Door(is_open, name):
            return MsgType.DOOR, bytes((DOOR_IDS[name], int(is_open)))
        case SetLamp(seat, button, state):
            return MsgType.LAMP, bytes((seat, BUTTON_IDS[button], LAMP_CODES[state]))
        case SetSeatLamps(seat, states):
            return MsgType.SEAT_LAMPS, bytes((seat,)) + bytes(LAMP_CODES[s] for s in states)
        case RequestState():
            return MsgType.REQUEST_STATE, b""
        case NvStore(request, blob):
            return MsgType.NV_STORE, bytes((request,)) + blob
        case NvRead(request):
            return MsgType.NV_READ, bytes((request,))
        case NvReply(request, status, blob):
            return MsgType.NV_REPLY, bytes((request, status)) + blob
        case Pair(request, key):
            return MsgType.PAIR, bytes((request,)) + key
    raise TypeError(f"not a panel message: {msg!r}")


def _seat(value: int) -> int:
    if not 1 <= value <= MAX_SEATS:
        raise MessageError(f"seat {value} out of range")
    return value


def _named(table: tuple[str, ...], value: int, what: str) -> str:
    if not 1 <= value <= len(table):
        raise MessageError(f"unknown {what} id {value}")
    return table[value - 1]


def _flag(value: int) -> bool:
    if value > 1:
        raise MessageError(f"a switch is 0 or 1, not {value}")
    return bool(value)


def _lamp(value: int) -> LampState:
    if value not in _LAMP_OF_CODE:
        raise MessageError(f"unknown lamp state {value}")
    return _LAMP_OF_CODE[value]


def _nv_message(kind: MsgType, p: bytes) -> Message:
    if p[0] == 0:
        raise MessageError(f"{kind.name}: request id 0")
    if kind is MsgType.NV_STORE:
        return NvStore(p[0], bytes(p[1:]))
    if kind is MsgType.NV_READ:
        return NvRead(p[0])
    if kind is MsgType.PAIR:
        return Pair(p[0], bytes(p[1:]))
    try:
        status = NvStatus(p[1])
    except ValueError:
        raise MessageError(f"NV_REPLY: unknown status {p[1]}") from None
    if len(p) > 2 and status is not NvStatus.BLOB:
        raise MessageError(f"NV_REPLY: status {status.name} with a blob")
    return NvReply(p[0], status, bytes(p[2:]))


def decode_message(type_byte: int, payload: bytes) -> Message:
    """The message a frame carries; ``MessageError`` for an unknown type or a bad payload."""
    try:
        kind = MsgType(type_byte)
    except ValueError:
        raise MessageError(f"unknown message type 0x{type_byte:02x}") from None
    lo, hi = PAYLOAD_RANGES.get(kind) or (PAYLOAD_SIZES[kind],) * 2
    if (kind, len(payload)) in ((MsgType.HELLO, 12), (MsgType.HOST_HELLO, 9)):  # authenticated
        lo = hi = len(payload)
    if not lo <= len(payload) <= hi:
        size = f"{lo}" if lo == hi else f"{lo}..{hi}"
        raise MessageError(f"{kind.name}: payload of {len(payload)} bytes, not {size}")
    p = payload
    if kind in PAYLOAD_RANGES:
        return _nv_message(kind, p)
    if kind is MsgType.HELLO:
        if not 1 <= p[3] <= MAX_SEATS:
            raise MessageError(f"HELLO: {p[3]} seats")
        nonce = int.from_bytes(p[8:12], "big") if len(p) == 12 else None
        return Hello(int.from_bytes(p[1:3], "big"), p[3], int.from_bytes(p[4:8], "big"), p[0], nonce)
    if kind is MsgType.HOST_HELLO:
        session = int.from_bytes(p[1:5], "big")
        if session == 0:
            raise MessageError("HOST_HELLO: session 0")
        return HostHello(session, p[0], int.from_bytes(p[5:9], "big") if len(p) == 9 else None)
    if kind is MsgType.HEARTBEAT:
        return Heartbeat(p[0])
    if kind is MsgType.ACK:
        return Ack(p[0])
    if kind is MsgType.BUTTON_DOWN:
        return ButtonPressed(_seat(p[0]), _named(BUTTONS, p[1], "button"))
    if kind is MsgType.BUTTON_UP:
        return ButtonReleased(_seat(p[0]), _named(BUTTONS, p[1], "button"))
    if kind is MsgType.KEY:
        return KeySwitch(_named(KEYS, p[0], "key"), _flag(p[1]))
    if kind is MsgType.DOOR:
        return Door(_flag(p[1]), _named(DOORS, p[0], "door"))
    if kind is MsgType.LAMP:
        return SetLamp(_seat(p[0]), _named(BUTTONS, p[1], "button"), _lamp(p[2]))
    if kind is MsgType.SEAT_LAMPS:
        return SetSeatLamps(_seat(p[0]), tuple(_lamp(b) for b in p[1:]))
    return RequestState()
