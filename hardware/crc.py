"""CRC-16/CCITT, the cyclic redundancy check both serial protocols use.

Owns: the one implementation of the CCITT CRC (polynomial x^16 + x^12 + x^5 + 1, 0x1021,
most significant bit first, no reflection, no final xor) and its lookup table. Its users
differ only in the register's initial value: ccTalk's CRC-16 variant starts at 0
(``hardware.cctalk.codec.crc16``), the button panel's CRC-16/CCITT-FALSE at 0xFFFF
(``hardware.panel.codec.crc16_ccitt_false``). Pure; knows nothing of packets or frames.
"""

from __future__ import annotations


def _crc_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table.append(crc & 0xFFFF)
    return tuple(table)


_CRC_TABLE = _crc_table()


def crc16_ccitt(data: bytes | bytearray, init: int) -> int:
    """The CCITT CRC of ``data`` with the register starting at ``init``."""
    crc = init
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc
