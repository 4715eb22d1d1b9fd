"""The table's sounds: what the journal just recorded, heard through pygame's mixer.

Owns: which records sound and how (``cues``: a card dealt, a bet placed, a win, a blackjack or
a 21, a bust, a coin in, the hopper paying, a tilt), and ``TableSound``: the mixer opened once
(no audio device, ``SDL_AUDIODRIVER=dummy`` or a failed init: silent, one log line), the WAVs
shipped beside this module (machine/display/sounds/, made by machine/devtools/soundgen.py),
the volume and mute in force, each sound started on a free channel and never waited for (a
frame never blocks on sound). Never changes anything the cabinet keeps.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

SOUNDS = ("card", "bet", "win", "blackjack", "bust", "coin", "hopper", "tilt")
FOLDER = Path(__file__).parent / "sounds"
CARD_EVENTS = ("card", "dealer_card", "closed_card", "dark_card", "deal", "card_turned", "dealer_reveal", "dark_reveal")
BET_BUTTONS = ("+2", "+10", "x2", "repeat", "max")  # a live press of one puts chips on the table
MOST_A_FRAME = 3  # a deal of many cards at once: no more than this many sounds start in one frame

log = logging.getLogger(__name__)


def cues(records: Iterable[Any]) -> list[str]:
    """The sounds a run of journal records asks for, in order, each once; a blackjack or a 21
    (the game's own totals in the seat's recall record) in place of the win; at most
    ``MOST_A_FRAME``, a tilt always among them."""
    out: list[str] = []
    for r in records:
        name = _cue(r.kind, r.data)
        if name is not None and name not in out:
            out.append(name)
    if "blackjack" in out and "win" in out:
        out.remove("win")
    if "tilt" in out[MOST_A_FRAME:]:
        return [*out[:MOST_A_FRAME - 1], "tilt"]
    return out[:MOST_A_FRAME]


ROUND_CUES = {"bet": "bet", "bust": "bust", "knock": "blackjack", **dict.fromkeys(CARD_EVENTS, "card")}
RECORD_CUES = {"coin": "coin", "payout_start": "hopper"}


def _cue(kind: str, d: dict[str, Any]) -> str | None:
    if kind == "round_event":
        k = d.get("kind", "")
        if k == "settle" and d.get("result") in ("win", "blackjack"):
            return "blackjack" if d["result"] == "blackjack" else "win"
        if k == "reveal" and d.get("won") and d.get("seat"):  # a seat's place won a game of places
            return "win"
        return ROUND_CUES.get(k)
    if kind == "game":  # a seat's hand of 21 (or a blackjack) at the settlement
        hands = (d.get("seat") or {}).get("hands", [])
        return "blackjack" if any(h.get("blackjack") or h.get("total") == 21 for h in hands) else None
    if (kind == "move" and d.get("kind") == "bet") or (kind == "press" and d.get("button") in BET_BUTTONS
                                                       and not d.get("ignored")):
        return "bet"
    if kind == "event":
        return "tilt" if d.get("event") == "tilt" else None
    return RECORD_CUES.get(kind)


@contextlib.contextmanager
def quiet_stderr() -> Iterator[None]:
    """The process's standard error (file descriptor 2) sent nowhere for the duration."""
    try:
        saved, null = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    except OSError:
        yield
        return
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


class TableSound:
    """The mixer and the table's sounds; silent when there is no audio to be had."""

    def __init__(self, folder: Path = FOLDER) -> None:
        self.sounds: dict[str, Any] = {}
        self.volume, self.muted = 1.0, False
        self.played: list[str] = []  # what was started, newest last (the tests listen here)
        self.heard: int | None = None  # the journal's last record already heard
        try:
            import pygame

            if not pygame.mixer.get_init():
                with quiet_stderr():  # the audio library's own lines about a missing device: ours says it once
                    pygame.mixer.init(frequency=22050, size=-16, channels=1, buffer=512)
            self.sounds = {n: pygame.mixer.Sound(str(folder / f"{n}.wav")) for n in SOUNDS}
        except Exception as exc:  # noqa: BLE001 (no device, no driver, no file: the table plays on in silence)
            log.warning("sound off: %s", exc)
            self.sounds = {}

    @property
    def silent(self) -> bool:
        return not self.sounds

    def setting(self, volume: int, muted: bool) -> None:
        """The operator's volume (0-100) and mute, in force from the next sound."""
        self.volume, self.muted = max(0, min(100, volume)) / 100, muted

    def hear(self, records: Iterable[Any]) -> None:
        """Start the sounds the records ask for; returns at once."""
        for name in cues(records):
            self.play(name)

    def play(self, name: str) -> None:
        self.played = [*self.played[-19:], name]
        sound = self.sounds.get(name)
        if sound is None or self.muted or self.volume <= 0:
            return
        sound.set_volume(self.volume)
        sound.play()  # on a free channel (none free: this one is dropped), never waited for

    def follow(self, journal: Any, volume: int, muted: bool) -> None:
        """Once a frame: the sounds of what the journal recorded since the last call (the first
        call only marks where the cabinet is: nothing from before the start sounds; a journal
        that starts again lower, a new one after a RAM clear, is heard from where it is)."""
        last = journal.last_seq
        if self.heard is not None and last > self.heard:
            self.setting(volume, muted)
            self.hear(journal.records(since=self.heard))
        self.heard = last
