"""The button panel itself, as a pure model: switches and lamps over a ``PanelConnection``.

Owns: what a panel remembers and does: which buttons are held, the key and door switch
positions, the lamp of every button, reporting the switches when asked or when a new host
session starts, showing every lamp off while the link is down (a lamp is lit only while
pressing its button would do something, and with the host gone nothing would), and answering
NV_STORE / NV_READ from the non-volatile memory it is given (``NvMemory``; a panel given none
does not know those messages), and pairing: the link key kept in that memory authenticates every
frame (``hardware/panel/auth.py``), and PAIR replaces it only while the main door is open and the
operator key is on, which the panel itself sees (no host can claim them for it). Pure: time comes
in as ``now``; never does I/O, never reads a clock (the simulator's runner, ``sim.py``, does).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from hardware.panel.connection import LinkDown, LinkUp, PanelConnection
from hardware.panel.messages import (
    KEYS,
    ButtonPressed,
    ButtonReleased,
    Door,
    KeySwitch,
    LampState,
    NvRead,
    NvReply,
    NvStatus,
    NvStore,
    Pair,
    RequestState,
    SetLamp,
    SetSeatLamps,
    all_off,
    button_name,
    check_seat,
    unknown_name,
)


class NvMemory(Protocol):
    """Where a panel keeps the host's blob (``load``, None: nothing stored; ``save``) and its
    link key (``load_key``, None: never paired; ``save_key``).

    ``save`` and ``save_key`` raise ``OSError`` when the memory cannot be written.
    """

    def load(self) -> bytes | None: ...

    def save(self, blob: bytes) -> None: ...

    def load_key(self) -> bytes | None: ...

    def save_key(self, key: bytes | None) -> None: ...


class RamNv:
    """Non-volatile memory that lasts as long as this object (the simulator's process)."""

    def __init__(self, blob: bytes | None = None, key: bytes | None = None) -> None:
        self.blob = blob
        self.key = key

    def load(self) -> bytes | None:
        return self.blob

    def save(self, blob: bytes) -> None:
        self.blob = bytes(blob)

    def load_key(self) -> bytes | None:
        return self.key

    def save_key(self, key: bytes | None) -> None:
        self.key = None if key is None else bytes(key)


class PanelDevice:
    """One panel: ``seats`` seats of ``BUTTONS``, the cabinet's keys and door."""

    def __init__(
        self,
        panel_id: int = 1,
        seats: int = 4,
        *,
        keys: dict[str, bool] | None = None,
        door_open: bool = False,
        timing: Mapping[str, float] | None = None,
        nv: NvMemory | None = None,
    ) -> None:
        """``nv``: the panel's non-volatile memory for the host; None: a panel without one,
        which does not know the NV messages and cannot be paired. A link key in it (paired)
        authenticates the link from the start."""
        key = None if nv is None else nv.load_key()
        self.conn = PanelConnection(
            panel_id, seats, nv=nv is not None, key=key, **(timing or {})  # type: ignore[arg-type]
        )
        self.nv = nv
        self.panel_id = panel_id
        self.seats = seats
        self.keys: dict[str, bool] = {name: False for name in KEYS}
        self.keys.update(keys or {})
        self.door_open = door_open
        self.pressed: set[tuple[int, str]] = set()
        self.lamps: dict[int, dict[str, LampState]] = {s: all_off() for s in range(1, seats + 1)}
        self.lamp_commands = 0  # SetLamp and SetSeatLamps received
        self.state_reports = 0

    # -- the physical side -------------------------------------------------------------------

    def _seat(self, seat: int) -> int:
        seat = check_seat(seat)
        if seat > self.seats:
            raise ValueError(f"this panel has {self.seats} seats, not {seat}")
        return seat

    def press(self, seat: int, button: str, now: float) -> None:
        """A player pushes a button down."""
        key = (self._seat(seat), button_name(button))
        if key in self.pressed:
            raise ValueError(f"seat {seat} {button} is already pressed")
        self.pressed.add(key)
        self.conn.send(ButtonPressed(*key), now)

    def release(self, seat: int, button: str, now: float) -> None:
        """A player lets a button go."""
        key = (self._seat(seat), button_name(button))
        if key not in self.pressed:
            raise ValueError(f"seat {seat} {button} is not pressed")
        self.pressed.discard(key)
        self.conn.send(ButtonReleased(*key), now)

    def tap(self, seat: int, button: str, now: float) -> None:
        """Press and release."""
        self.press(seat, button, now)
        self.release(seat, button, now)

    def set_key(self, name: str, on: bool, now: float) -> None:
        """Turn a key switch; reported only when it changes."""
        if name not in self.keys:
            raise unknown_name("key", name, KEYS)
        if self.keys[name] != on:
            self.keys[name] = on
            self.conn.send(KeySwitch(name, on), now)

    def set_door(self, is_open: bool, now: float) -> None:
        """Open or close the main door; reported only when it changes."""
        if self.door_open != is_open:
            self.door_open = is_open
            self.conn.send(Door(is_open), now)

    def report_state(self, now: float) -> None:
        """Send every switch position (after ``RequestState`` or a new host session)."""
        for name, on in self.keys.items():
            self.conn.send(KeySwitch(name, on), now)
        self.conn.send(Door(self.door_open), now)
        self.state_reports += 1

    def shown_lamps(self) -> dict[int, dict[str, LampState]]:
        """What a player sees: the commanded lamps, or every lamp off while the link is down."""
        if self.conn.link_up:
            return {seat: dict(lamps) for seat, lamps in self.lamps.items()}
        return {seat: all_off() for seat in self.lamps}

    # -- the link side -----------------------------------------------------------------------

    @property
    def link_up(self) -> bool:
        return self.conn.link_up

    def receive_data(self, data: bytes, now: float) -> None:
        self.conn.receive_data(data, now)
        self._handle(now)

    def tick(self, now: float) -> None:
        self.conn.tick(now)
        self._handle(now)

    def data_to_send(self) -> bytes:
        return self.conn.data_to_send()

    def _handle(self, now: float) -> None:
        while (event := self.conn.next_event()) is not None:
            if isinstance(event, SetLamp):
                self.lamp_commands += 1
                if event.seat in self.lamps:
                    self.lamps[event.seat][event.button] = event.state
            elif isinstance(event, SetSeatLamps):
                self.lamp_commands += 1
                if event.seat in self.lamps:
                    self.lamps[event.seat] = event.as_dict()
            elif isinstance(event, RequestState):
                self.report_state(now)
            elif isinstance(event, LinkUp) and event.new_session:
                for seat in self.lamps:  # a new host: what the old one lit means nothing now
                    self.lamps[seat] = all_off()
                self.report_state(now)
            elif isinstance(event, Pair):
                reply = self._pair(event)
                self.conn.send_now(reply, now)
                if reply.status is NvStatus.STORED:  # the answer went under the old key
                    self.conn.rekey(event.key)
            elif isinstance(event, (NvStore, NvRead)):
                self.conn.send_now(self._nv_answer(event), now)
            elif isinstance(event, LinkDown):
                pass  # shown_lamps masks the lamps; the table stays for when the host is back

    def _pair(self, request: Pair) -> NvReply:
        """Keep the new link key, if someone at the open cabinet holds the operator's key."""
        assert self.nv is not None
        if not (self.door_open and self.keys["operator"]):
            return NvReply(request.request, NvStatus.REFUSED)
        try:
            self.nv.save_key(request.key)
        except (OSError, ValueError):
            return NvReply(request.request, NvStatus.FAILED)
        return NvReply(request.request, NvStatus.STORED)

    def unpair(self) -> None:
        """The pairing reset at the panel (a jumper on its board): the key is forgotten and the
        panel speaks plain frames until it is paired again."""
        if self.nv is not None:
            self.nv.save_key(None)
        self.conn.rekey(None)

    def _nv_answer(self, request: NvStore | NvRead) -> NvReply:
        assert self.nv is not None  # without NV memory the connection drops NV requests
        try:
            if isinstance(request, NvStore):
                self.nv.save(request.blob)
                return NvReply(request.request, NvStatus.STORED)
            blob = self.nv.load()
        except (OSError, ValueError):
            return NvReply(request.request, NvStatus.FAILED)
        if blob is None:
            return NvReply(request.request, NvStatus.NONE_STORED)
        return NvReply(request.request, NvStatus.BLOB, blob)
