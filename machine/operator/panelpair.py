"""Pairing the button panel with this cabinet: the panel link's key, and ``cabinet panel pair``.

Owns: the cabinet's copy of the link key (``panel_key_path``: beside the machine key, outside
the data folder, 32 random bytes in hex, mode 600); the key the cabinet's panel host speaks
(``link_key``: the paired one; an unpaired cabinet speaks under a key of its own that no panel
holds, so an unpaired or foreign panel stays offline rather than being trusted); the installer's
command (``pair_command``): a new key written beside the machine key as pending, handed to the
panel over its link (the panel takes it only with its main door open and its operator key on),
proved by a link that comes up under it, and only then made the cabinet's key; and
``RefusedFrames``, which journals (at most once a minute) how many panel frames failed
authentication, so the operator sees them in the event log.

Never opens the journal, never decides what a press means, never sends the key anywhere but the
panel's own link.
"""

from __future__ import annotations

import argparse
import os
import secrets
import stat
import sys
import time
from pathlib import Path
from typing import Any

from machine.operator.config import MachineConfig

KEY_BYTES = 32
LINK_WAIT = 2.5  # seconds a link is given to come up under a key
REPORT_EVERY = 60.0  # seconds between two journal events about refused frames


class PairingError(ValueError):
    """Pairing could not be done; the text is one line for the installer."""


def panel_key_path(cfg: MachineConfig, base: Path) -> Path:
    """Where the cabinet keeps the panel link key: beside the machine key (``machine.key`` ->
    ``machine-panel.key``), so that it is kept as the machine key is and never in the data folder."""
    key = cfg.key_path(base).expanduser()
    return key.with_name(f"{key.stem}-panel{key.suffix or '.key'}")


def read_key(path: Path) -> bytes | None:
    """The link key in ``path``; None when there is none; ``PairingError`` when it is not one
    (unreadable, open to other users, not 32 bytes of hex)."""
    try:
        st = path.stat()
        text = path.read_text().strip()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise PairingError(f"{path}: the panel link key cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    if st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise PairingError(f"{path}: the panel link key is open to other users (mode {stat.S_IMODE(st.st_mode):o}): chmod 600 it")
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise PairingError(f"{path}: not a panel link key ({KEY_BYTES} bytes in hex expected)")
    return key


def write_key(path: Path, key: bytes) -> None:
    """``key`` in ``path`` (mode 600), whole or not at all: written beside it, flushed, renamed."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(key.hex() + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def link_key(cfg: MachineConfig, base: Path) -> bytes:
    """The key the cabinet's panel host speaks: the paired one, or (never paired) one drawn now
    that no panel holds: the panel then stays offline, its frames counted as unauthenticated,
    until ``cabinet panel pair``. A cabinet never falls back to plain frames."""
    return read_key(panel_key_path(cfg, base)) or secrets.token_bytes(KEY_BYTES)


def simulated_panel_key(cfg: MachineConfig, base: Path) -> bytes:
    """The development harness installs its simulated panel paired: the cabinet's key, made
    now if the cabinet has none (what ``cabinet panel pair`` leaves on a real cabinet), also
    before a first start has made the machine key (the start opens the panel first)."""
    path = panel_key_path(cfg, base)
    key = read_key(path)
    if key is None:
        key = secrets.token_bytes(KEY_BYTES)
        write_key(path, key)
    return key


# -- cabinet panel pair ----------------------------------------------------------------------------


def _up(host: Any, wait: float = LINK_WAIT) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        host.poll()
        if host.link_up:
            return True
        time.sleep(0.005)
    return False


def pair_panel(cfg: MachineConfig, base: Path, url: str | None = None) -> str:
    """Pair the panel at ``url`` (default: ``devices.panel``) with this cabinet; the line to
    print. The panel must answer under the cabinet's key, a pairing left pending, or plain
    frames (never paired); it takes the new key only with its door open and operator key on."""
    from hardware.panel.host import PairingRefused, PanelHost, PanelNvError
    from hardware.transport import TransportError

    url = url or cfg.devices.panel
    if url == "sim":
        raise PairingError("devices.panel is sim: cabinet run pairs its simulated panel itself; give --panel URL")
    path = panel_key_path(cfg, base)
    pending = path.with_name(path.name + ".pending")
    new = read_key(pending)
    if new is None:
        new = secrets.token_bytes(KEY_BYTES)
        write_key(pending, new)  # first: a pairing cut after the panel took it is finished by the next
    tries: list[tuple[str, bytes | None]] = [("pending", new)]
    if (old := read_key(path)) is not None:
        tries.append(("paired", old))
    tries.append(("never paired", None))
    for what, key in tries:
        try:
            host = PanelHost(url, key=key)
        except TransportError as exc:
            raise PairingError(f"{url}: {exc}") from None
        try:
            if not _up(host):
                continue
            if what != "pending":
                try:
                    host.pair(new)
                except PairingRefused as exc:
                    raise PairingError(f"{url}: {exc}") from None
                except PanelNvError as exc:  # no answer: perhaps only the answer was lost
                    host.close()
                    host = PanelHost(url, key=new)
                    if not _up(host):
                        raise PairingError(f"{url}: {exc}") from None
                if not host.link_up and not _up(host):
                    raise PairingError(f"{url}: the panel took the key but its link did not come up under it: "
                                       "run cabinet panel pair again")
            panel = host.panel
        finally:
            host.close()
        os.replace(pending, path)
        where = f"panel {panel.panel_id}, {panel.seats} seats" if panel is not None else "the panel"
        return f"{url}: {where}, paired with this cabinet (its key: {path})"
    raise PairingError(f"{url}: no panel answers, neither under this cabinet's key nor as a panel never paired "
                       "(a panel paired with another cabinet: reset its pairing on its board first)")


def pair_command(args: argparse.Namespace) -> int:
    """``cabinet panel pair [--config FILE] [--panel URL]``."""
    from machine.operator.config import load_config

    cfg = load_config(args.config)
    try:
        print(pair_panel(cfg, Path.cwd(), args.panel))
    except PairingError as exc:
        print(f"cabinet panel pair: {exc}", file=sys.stderr)
        return 1
    return 0


# -- what the operator sees ------------------------------------------------------------------------


class RefusedFrames:
    """Journals the panel frames that failed authentication (``unauthenticated``: a forger, a
    panel paired with another cabinet or never paired), at most once every ``REPORT_EVERY``
    seconds, as one operator event with the count since the last."""

    def __init__(self) -> None:
        self.reported = 0
        self._last = -REPORT_EVERY

    def check(self, panel: Any, cab: Any, now: float) -> None:
        """After a poll: ``panel`` a ``PanelHost``, ``cab`` the cabinet (the caller holds its lock)."""
        count = panel.stats.get("unauthenticated", 0)
        if count > self.reported and now - self._last >= REPORT_EVERY:
            cab.operator_event("panel frames refused", now, count=count - self.reported, total=count)
            self.reported, self._last = count, now
