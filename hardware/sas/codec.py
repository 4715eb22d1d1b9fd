"""SAS framing facts: the CRC, BCD meters and how long each long poll from the host is.

Owns: ``crc16_kermit`` (polynomial 0x1021 reflected, initial 0, sent low byte first),
``bcd``/``from_bcd``, ``with_crc``/``crc_ok`` and ``POLL_LENGTHS`` (command -> the whole
frame's length from the host, or ``VARIABLE`` when a length byte follows the command).
Pure; knows no machine state, no cabinet.
"""

from __future__ import annotations


def _table() -> tuple[int, ...]:
    out = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        out.append(crc)
    return tuple(out)


_TABLE = _table()


def crc16_kermit(data: bytes | bytearray) -> int:
    """The CRC-16/KERMIT of ``data`` (as an integer; on the wire low byte first)."""
    crc = 0
    for byte in data:
        crc = (crc >> 8) ^ _TABLE[(crc ^ byte) & 0xFF]
    return crc


def with_crc(frame: bytes) -> bytes:
    """``frame`` followed by its CRC, low byte first."""
    return frame + crc16_kermit(frame).to_bytes(2, "little")


def crc_ok(frame: bytes | bytearray) -> bool:
    """Whether the last two bytes of ``frame`` are the CRC of the rest."""
    return len(frame) >= 3 and crc16_kermit(frame[:-2]).to_bytes(2, "little") == bytes(frame[-2:])


def bcd(value: int, size: int) -> bytes:
    """``value`` as ``size`` bytes of packed BCD, most significant digit first. A value with
    more digits than fit keeps its low digits (a meter rolls over as the document says)."""
    if value < 0:
        raise ValueError(f"a meter is never negative: {value}")
    digits = f"{value % 10 ** (2 * size):0{2 * size}d}"
    return bytes(int(digits[i]) << 4 | int(digits[i + 1]) for i in range(0, 2 * size, 2))


def from_bcd(data: bytes | bytearray) -> int:
    """The integer packed BCD ``data`` holds (``ValueError`` on a nibble over 9)."""
    value = 0
    for byte in data:
        hi, lo = byte >> 4, byte & 0x0F
        if hi > 9 or lo > 9:
            raise ValueError(f"not BCD: {bytes(data).hex()}")
        value = value * 100 + hi * 10 + lo
    return value


VARIABLE = -1
# The whole frame the host sends, address and command and CRC included. Type R polls (two
# bytes, no CRC) ask for data; the others carry a CRC. Known lengths of polls this machine does
# not answer are here too, so framing by content skips them whole instead of misreading them.
POLL_LENGTHS: dict[int, int] = {
    **{c: 2 for c in (0x0F, *range(0x10, 0x21), 0x2A, 0x2B, 0x2C, *range(0x31, 0x46), 0x46, 0x47,
                      0x48, 0x49, 0x4A, 0x4F, 0x51, 0x54, 0x55, 0x56, 0x57, 0x7E, 0x1B, 0x3D)},
    **{c: 4 for c in (0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0A, 0x0B, 0x94)},
    0x0E: 5, 0x21: 6, 0x2D: 6, 0x2E: 6, 0x52: 6, 0x53: 6, 0xA0: 6, 0x09: 7, 0x08: 9, 0x7F: 11,
    0x4C: 10, 0x4D: 5, 0x50: 5,
    0x74: 8,
    0x2F: VARIABLE, 0x6F: VARIABLE, 0x7B: VARIABLE, 0x72: VARIABLE, 0x73: VARIABLE,
}
