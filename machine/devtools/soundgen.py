"""The table's sounds, made here from numbers: ``cabinet``'s WAV files under machine/display/sounds/.

Owns: what each sound is (``SOUNDS``: a card dealt, a bet placed, a win, a blackjack or 21, a
bust, a coin in, the hopper paying, a tilt), each built from sine tones, noise from a fixed
seed and simple envelopes with the standard library only (``wave``, ``math``, ``array``,
``random.Random`` seeded: the same bytes on every machine), and ``write_all`` (python -m
machine.devtools.soundgen [DIR]). Never plays anything; never runs in the cabinet (the WAVs are
committed as package data).
"""

from __future__ import annotations

import math
import random
import sys
import wave
from array import array
from collections.abc import Callable
from pathlib import Path

RATE = 22050  # samples a second, mono, 16 bit
FADE = 0.01  # seconds of fade at the end of every part: no click when a tone stops
OUT = Path(__file__).resolve().parents[1] / "display" / "sounds"


def _tone(freq: float, seconds: float, volume: float = 0.5, decay: float = 6.0, attack: float = 0.005) -> list[float]:
    n = int(RATE * seconds)
    out = []
    for i in range(n):
        t = i / RATE
        env = min(1.0, t / attack) * math.exp(-decay * t)
        out.append(volume * env * math.sin(2 * math.pi * freq * t))
    return _faded(out)


def _faded(part: list[float]) -> list[float]:
    n = min(len(part), int(RATE * FADE))
    for i in range(n):
        part[len(part) - n + i] *= 1 - (i + 1) / n
    return part


def _noise(seconds: float, volume: float, decay: float, seed: int, smooth: float = 0.0) -> list[float]:
    rng = random.Random(seed)
    last, out = 0.0, []
    for i in range(int(RATE * seconds)):
        x = rng.uniform(-1.0, 1.0)
        last = smooth * last + (1 - smooth) * x
        out.append(volume * math.exp(-decay * i / RATE) * last)
    return _faded(out)


def _mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Parts laid on one track, each from its start in seconds."""
    end = max(int(at * RATE) + len(p) for at, p in parts)
    out = [0.0] * end
    for at, p in parts:
        first = int(at * RATE)
        for i, v in enumerate(p):
            out[first + i] += v
    return out


def card() -> list[float]:  # a card slid onto the felt: a short soft burst
    return _noise(0.09, 0.55, 45.0, seed=1, smooth=0.55)


def bet() -> list[float]:  # chips set down: two quick clicks
    return _mix((0.0, _tone(2400, 0.05, 0.35, 70)), (0.045, _tone(2100, 0.06, 0.3, 60)), (0.0, _noise(0.03, 0.2, 120, seed=2)))


def win() -> list[float]:  # a rising major arpeggio
    return _mix(*((0.09 * i, _tone(f, 0.35, 0.3, 7)) for i, f in enumerate((523.25, 659.25, 783.99, 1046.5))))


def blackjack() -> list[float]:  # a brighter fanfare: the arpeggio twice, an octave apart, and a held top
    notes = (523.25, 659.25, 783.99, 1046.5, 1318.5, 1568.0)
    return _mix(*((0.07 * i, _tone(f, 0.4, 0.25, 6)) for i, f in enumerate(notes)), (0.45, _tone(2093.0, 0.5, 0.2, 4)))


def bust() -> list[float]:  # a falling pair of low tones
    return _mix((0.0, _tone(392.0, 0.22, 0.4, 9)), (0.16, _tone(261.6, 0.35, 0.4, 7)))


def coin() -> list[float]:  # a coin dropped in: a bright ring with a second partial
    return _mix((0.0, _tone(3520, 0.25, 0.3, 14)), (0.0, _tone(5280, 0.18, 0.15, 20)), (0.0, _noise(0.02, 0.2, 150, seed=3)))


def hopper() -> list[float]:  # the hopper paying: a quick run of coin clinks
    return _mix(*((0.07 * i, _tone(3000 + 180 * (i % 3), 0.09, 0.25, 40)) for i in range(6)),
                (0.0, _noise(0.45, 0.06, 3, seed=4, smooth=0.3)))


def tilt() -> list[float]:  # an alarm: two alternating tones, three times
    return _mix(*((0.24 * i + 0.12 * j, _tone(880 if j == 0 else 660, 0.12, 0.35, 2, attack=0.01))
                  for i in range(3) for j in (0, 1)))


SOUNDS: dict[str, Callable[[], list[float]]] = {
    "card": card, "bet": bet, "win": win, "blackjack": blackjack, "bust": bust, "coin": coin, "hopper": hopper, "tilt": tilt,
}


def wav_bytes(samples: list[float]) -> bytes:
    """The samples as a 16-bit mono WAV file, clipped to full scale."""
    import io

    pcm = array("h", (max(-32767, min(32767, round(v * 32767))) for v in samples))
    if sys.byteorder == "big":
        pcm.byteswap()
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(pcm.tobytes())
    return buf.getvalue()


def write_all(folder: Path = OUT) -> list[Path]:
    """Every sound as ``<name>.wav`` in ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in SOUNDS.items():
        path = folder / f"{name}.wav"
        path.write_bytes(wav_bytes(make()))
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT):
        print(p)
