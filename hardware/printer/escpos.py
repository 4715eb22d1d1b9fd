"""ESC/POS, the part a voucher needs: encoding a ticket, reading the real-time status, and parsing.

Owns: the byte sequences of the commands a voucher uses (ESC @ initialise, ESC t code page,
ESC a justification, ESC E emphasis, GS ! character size, LF and ESC d feed, GS h / GS w / GS H
and GS k barcode (function B: ITF, CODE128), GS V cut), the real-time status request DLE EOT
n and the meaning of its four answers (offline, cover open, paper end, cutter error,
unrecoverable error), and ``EscPosParser``, which turns a stream of those bytes back into the
ticket's lines, barcode and cut (what a simulated printer prints). Pure: bytes in, bytes or
values out; never does I/O, never keeps state beyond a parser's partial command.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

ESC, GS, DLE, EOT, LF = 0x1B, 0x1D, 0x10, 0x04, 0x0A
LEFT, CENTRE, RIGHT = 0, 1, 2
BARCODE_ITF, BARCODE_CODE128 = 70, 73  # GS k function B system numbers
HRI_BELOW = 2
CUT_PARTIAL = 66  # GS V 66 n: feed n and cut (partial)
# ESC t n: the code pages a voucher is written in, and Python's name for each
CODE_PAGES = {19: "cp858", 17: "cp866"}  # PC858 (Western European with the euro sign), PC866 (Cyrillic)
CODE_PAGE_OF_LANGUAGE = {"en": 19, "nl": 19, "nb": 19, "ru": 17}


class EscPosError(ValueError):
    """A ticket or a status byte this module cannot encode or read."""


# --- encoding --------------------------------------------------------------------------------


class Ticket:
    """A ticket's bytes, built line by line: ``Ticket("nl").line("...", bold=True).cut().data``."""

    def __init__(self, language: str = "en") -> None:
        self.page = CODE_PAGE_OF_LANGUAGE.get(language, 19)
        self.buf = bytearray((ESC, 0x40, ESC, 0x74, self.page))

    def line(self, text: str, *, align: int = LEFT, bold: bool = False, size: int = 1) -> Ticket:
        """One line of text (no control characters); ``size``: 1 normal, 2 double width and height."""
        if any(ord(c) < 0x20 for c in text):
            raise EscPosError(f"a control character in a ticket line: {text!r}")
        if size not in (1, 2):
            raise EscPosError(f"character size 1 or 2, not {size}")
        self.buf += bytes((ESC, 0x61, align, ESC, 0x45, 1 if bold else 0, GS, 0x21, 0x11 if size == 2 else 0))
        self.buf += text.encode(CODE_PAGES[self.page], errors="replace") + bytes((LF,))
        return self

    def feed(self, lines: int = 1) -> Ticket:
        self.buf += bytes((ESC, 0x64, lines))
        return self

    def barcode(self, digits: str, *, kind: int = BARCODE_ITF, height: int = 80, width: int = 2) -> Ticket:
        """A barcode (ITF: an even number of digits), centred, its digits printed below it."""
        if kind == BARCODE_ITF and (not digits.isdigit() or len(digits) % 2):
            raise EscPosError(f"ITF encodes an even number of digits, not {digits!r}")
        if not 1 <= len(digits) <= 255:
            raise EscPosError("a barcode of 1 to 255 characters")
        self.buf += bytes((ESC, 0x61, CENTRE, GS, 0x68, height, GS, 0x77, width, GS, 0x48, HRI_BELOW))
        self.buf += bytes((GS, 0x6B, kind, len(digits))) + digits.encode("ascii")
        self.buf += bytes((LF,))
        return self

    def cut(self) -> Ticket:
        self.buf += bytes((GS, 0x56, CUT_PARTIAL, 3))
        return self

    @property
    def data(self) -> bytes:
        return bytes(self.buf)


# --- real-time status (DLE EOT n) -------------------------------------------------------------

STATUS_REQUESTS = (1, 2, 3, 4)  # printer, offline cause, error cause, paper roll sensor
FIXED_BITS, FIXED_MASK = 0x12, 0x93  # bits 1 and 4 are 1, bits 0 and 7 are 0 in every answer


def status_request(n: int) -> bytes:
    if n not in STATUS_REQUESTS:
        raise EscPosError(f"DLE EOT n: n is 1 to 4, not {n}")
    return bytes((DLE, EOT, n))


@dataclass(frozen=True)
class PrinterStatus:
    """What the four DLE EOT answers say; ``fault`` is the first reason the printer cannot print."""

    offline: bool = False
    cover_open: bool = False
    paper_out: bool = False
    paper_near_end: bool = False
    cutter_error: bool = False
    unrecoverable: bool = False

    @property
    def fault(self) -> str | None:
        if self.paper_out:
            return "paper out"
        if self.cutter_error or self.unrecoverable:
            return "jam"
        if self.cover_open:
            return "cover open"
        if self.offline:
            return "offline"
        return None

    def encode(self) -> bytes:
        """The four answer bytes, as a printer sends them to DLE EOT 1, 2, 3 and 4."""
        b1 = FIXED_BITS | (0x08 if self.offline else 0)
        b2 = FIXED_BITS | (0x04 if self.cover_open else 0) | (0x20 if self.paper_out else 0) | (
            0x40 if self.cutter_error or self.unrecoverable else 0)
        b3 = FIXED_BITS | (0x08 if self.cutter_error else 0) | (0x20 if self.unrecoverable else 0)
        b4 = FIXED_BITS | (0x0C if self.paper_near_end else 0) | (0x60 if self.paper_out else 0)
        return bytes((b1, b2, b3, b4))

    @classmethod
    def decode(cls, answers: bytes) -> PrinterStatus:
        if len(answers) != 4 or any(b & FIXED_MASK != FIXED_BITS for b in answers):
            raise EscPosError(f"not four DLE EOT answers: {answers.hex(' ')}")
        b1, b2, b3, b4 = answers
        return cls(offline=bool(b1 & 0x08), cover_open=bool(b2 & 0x04), paper_out=bool(b4 & 0x60),
                   paper_near_end=bool(b4 & 0x0C), cutter_error=bool(b3 & 0x08), unrecoverable=bool(b3 & 0x20))


# --- parsing (the simulated printer) ------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    text: str
    align: int
    bold: bool
    size: int


@dataclass(frozen=True)
class Barcode:
    kind: int
    data: str
    height: int
    width: int


@dataclass(frozen=True)
class Feed:
    lines: int


@dataclass(frozen=True)
class Cut:
    pass


@dataclass(frozen=True)
class StatusRequest:
    n: int


Printed = Line | Barcode | Feed | Cut | StatusRequest

# the data bytes after each command's prefix (the commands this parser knows)
_FIXED = {(ESC, 0x40): 0, (ESC, 0x74): 1, (ESC, 0x61): 1, (ESC, 0x45): 1, (ESC, 0x64): 1, (GS, 0x21): 1,
          (GS, 0x68): 1, (GS, 0x77): 1, (GS, 0x48): 1, (GS, 0x56): 2, (DLE, EOT): 1}


@dataclass
class EscPosParser:
    """Bytes in, what the printer does out; unknown commands are ``EscPosError``."""

    page: int = 19
    align: int = LEFT
    bold: bool = False
    size: int = 1
    height: int = 162
    width: int = 3
    _buf: bytearray = field(default_factory=bytearray)
    _text: bytearray = field(default_factory=bytearray)

    def feed(self, data: bytes) -> Iterator[Printed]:
        self._buf += data
        while self._buf:
            b = self._buf[0]
            if b == LF:
                del self._buf[0]
                yield self._line()
            elif b in (ESC, GS, DLE):
                got = self._command()
                if got is None:
                    return  # wait for the rest of the command
                yield from got
            else:
                self._text.append(b)
                del self._buf[0]

    def _line(self) -> Line:
        text = bytes(self._text).decode(CODE_PAGES.get(self.page, "cp858"), errors="replace")
        self._text.clear()
        return Line(text, self.align, self.bold, self.size)

    def _command(self) -> list[Printed] | None:
        if len(self._buf) < 2:
            return None
        key = (self._buf[0], self._buf[1])
        if key == (GS, 0x6B):
            if len(self._buf) < 4 or len(self._buf) < 4 + self._buf[3]:
                return None
            kind, n = self._buf[2], self._buf[3]
            digits = bytes(self._buf[4:4 + n]).decode("ascii", errors="replace")
            del self._buf[:4 + n]
            return [Barcode(kind, digits, self.height, self.width)]
        if key not in _FIXED:
            raise EscPosError(f"unknown ESC/POS command {bytes(self._buf[:2]).hex(' ')}")
        need = 2 + _FIXED[key]
        if len(self._buf) < need:
            return None
        args = bytes(self._buf[2:need])
        del self._buf[:need]
        return self._apply(key, args)

    def _apply(self, key: tuple[int, int], args: bytes) -> list[Printed]:
        if key == (ESC, 0x40):
            self.page, self.align, self.bold, self.size = 19, LEFT, False, 1
        elif key == (ESC, 0x74):
            if args[0] not in CODE_PAGES:
                raise EscPosError(f"code page {args[0]} is not one this printer has")
            self.page = args[0]
        elif key == (ESC, 0x61):
            self.align = args[0] % 3
        elif key == (ESC, 0x45):
            self.bold = bool(args[0] & 1)
        elif key == (GS, 0x21):
            self.size = 2 if args[0] & 0x11 else 1
        elif key == (ESC, 0x64):
            return [Feed(args[0])]
        elif key == (GS, 0x68):
            self.height = args[0]
        elif key == (GS, 0x77):
            self.width = args[0]
        elif key == (GS, 0x56):
            return [Cut()]
        elif key == (DLE, EOT):
            return [StatusRequest(args[0])]
        return []


# --- ITF (interleaved 2 of 5): the bars a printer draws ------------------------------------------

_ITF_DIGITS = ("nnwwn", "wnnnw", "nwnnw", "wwnnn", "nnwnw", "wnwnn", "nwwnn", "nnnww", "wnnwn", "nwnwn")


def itf_modules(digits: str, wide: int = 3) -> list[tuple[bool, int]]:
    """ITF's elements as (bar?, width in narrow modules): start, each digit pair, stop."""
    if not digits.isdigit() or len(digits) % 2:
        raise EscPosError(f"ITF encodes an even number of digits, not {digits!r}")
    out: list[tuple[bool, int]] = [(True, 1), (False, 1), (True, 1), (False, 1)]  # start
    for a, b in zip(digits[::2], digits[1::2], strict=True):
        for bar, space in zip(_ITF_DIGITS[int(a)], _ITF_DIGITS[int(b)], strict=True):
            out += [(True, wide if bar == "w" else 1), (False, wide if space == "w" else 1)]
    out += [(True, wide), (False, 1), (True, 1)]  # stop
    return out


def itf_decode(modules: list[tuple[bool, int]]) -> str:
    """The digits of ITF elements (the inverse of ``itf_modules``), for a test to read a barcode back."""
    inner = modules[4:-3]
    digits = []
    for i in range(0, len(inner), 10):
        chunk = inner[i:i + 10]
        bars = "".join("w" if w > 1 else "n" for _b, w in chunk[0::2])
        spaces = "".join("w" if w > 1 else "n" for _b, w in chunk[1::2])
        digits += [str(_ITF_DIGITS.index(bars)), str(_ITF_DIGITS.index(spaces))]
    return "".join(digits)
