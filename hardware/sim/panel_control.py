"""The panel simulator's control language: one text line in, one text line out.

Owns: the commands of the control channel (docs/panel-protocol.md, "The simulator") and what
each asks of a simulated panel. Replies are ``OK``, ``OK <json>`` or ``ERR <reason>``. Never
does I/O and never touches the panel's state itself: it calls a ``SimulatedPanel``'s methods
(``PanelSimulator`` is one), which are safe to call from any thread.
"""

from __future__ import annotations

import json
from typing import Any, Protocol

HELP = (
    "commands: press SEAT BUTTON | release SEAT BUTTON | tap SEAT BUTTON | "
    "key operator|attendant on|off | door open|closed | lamps | state | "
    "disconnect [SECONDS] | reconnect | reboot | unpair | help | quit"
)
_ON_OFF = {"on": True, "off": False}
_DOOR = {"open": True, "closed": False, "close": False}


class SimulatedPanel(Protocol):
    def press(self, seat: int, button: str) -> None: ...
    def release(self, seat: int, button: str) -> None: ...
    def tap(self, seat: int, button: str) -> None: ...
    def set_key(self, name: str, on: bool) -> None: ...
    def set_door(self, is_open: bool) -> None: ...
    def lamps(self) -> dict[str, dict[str, str]]: ...
    def state(self) -> dict[str, Any]: ...
    def disconnect(self, seconds: float | None = None) -> None: ...
    def reconnect(self) -> None: ...
    def reboot(self) -> None: ...
    def unpair(self) -> None: ...


class CommandError(ValueError):
    pass


def _words(args: list[str], count: int, usage: str) -> list[str]:
    if len(args) != count:
        raise CommandError(f"usage: {usage}")
    return args


def _seat(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise CommandError(f"seat is a number, not {text!r}") from None


class Controller:
    """Applies control lines to a simulated panel; ``quit`` turns True on ``quit``."""

    def __init__(self, panel: SimulatedPanel) -> None:
        self.panel = panel
        self.quit = False

    def handle(self, line: str) -> str:
        words = line.split()
        if not words:
            return "ERR empty command"
        name, args = words[0].lower(), words[1:]
        try:
            reply = self._run(name, args)
        except (ValueError, RuntimeError) as exc:  # CommandError, bad names, a full queue
            return f"ERR {exc}"
        return "OK" if reply is None else f"OK {reply}"

    def _run(self, name: str, args: list[str]) -> str | None:
        panel = self.panel
        if name in ("press", "release", "tap"):
            seat, button = _words(args, 2, f"{name} SEAT BUTTON")
            getattr(panel, name)(_seat(seat), button)
        elif name == "key":
            key, pos = _words(args, 2, "key operator|attendant on|off")
            if pos.lower() not in _ON_OFF:
                raise CommandError(f"a key is on or off, not {pos!r}")
            panel.set_key(key.lower(), _ON_OFF[pos.lower()])
        elif name == "door":
            (pos,) = _words(args, 1, "door open|closed")
            if pos.lower() not in _DOOR:
                raise CommandError(f"the door is open or closed, not {pos!r}")
            panel.set_door(_DOOR[pos.lower()])
        elif name == "lamps":
            _words(args, 0, "lamps")
            return json.dumps(panel.lamps(), sort_keys=False)
        elif name == "state":
            _words(args, 0, "state")
            return json.dumps(panel.state(), sort_keys=False)
        elif name == "disconnect":
            if len(args) > 1:
                raise CommandError("usage: disconnect [SECONDS]")
            seconds = float(args[0]) if args else None
            if seconds is not None and seconds <= 0:
                raise CommandError(f"seconds is positive, not {args[0]}")
            panel.disconnect(seconds)
        elif name == "reconnect":
            _words(args, 0, "reconnect")
            panel.reconnect()
        elif name == "reboot":
            _words(args, 0, "reboot")
            panel.reboot()
        elif name == "unpair":
            _words(args, 0, "unpair")
            panel.unpair()
        elif name == "help":
            return HELP
        elif name == "quit":
            self.quit = True
        else:
            raise CommandError(f"unknown command {name!r}; {HELP}")
        return None
