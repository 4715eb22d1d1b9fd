"""1F and 53 report each game's return as the base percentage (four ASCII digits, XX.XX %).

A host found the cabinet answering ``0000`` (a game that returns nothing) for games whose exact
return the game math knows: the bridge now hands each game number's figure to the seats.
"""

from __future__ import annotations

import time

from hardware.sas.codec import crc_ok, with_crc
from hardware.sas.machine import SasMachine

from machine.profiles import load_profile
from machine.sas.bridge import base_percents
from machine.sas.rom import RomSignature
from machine.sas.source import HostClock, SeatSnapshot, SeatSource

GAMES = {1: "random-blackjack", 2: "swedish-pub-blackjack", 3: "spanish-21"}


def test_each_game_number_gets_its_exact_return_in_hundredths() -> None:
    profiles = {name: load_profile(name) for name in GAMES.values()}
    # random blackjack 98.98 %, Swedish pub 94.91 %, Spanish 21 99.20 % (cabinet rtp's figures)
    assert base_percents(profiles, {**GAMES, 4: "not-loaded"}) == {1: 9898, 2: 9491, 3: 9920}


def test_1f_and_53_carry_the_figure_on_the_wire() -> None:
    source = SeatSource(1, (1, 2, 3), "s-1", RomSignature(lambda: b""), HostClock(time.time), 10,
                        {1: 100}, {1: 9898, 2: 9491})
    source.snapshot = SeatSnapshot(selected=2)
    machine = SasMachine(1, source)
    machine.receive_data(bytes((1, 0x1F)), 0.0)
    reply = machine.data_to_send()
    assert len(reply) == 24 and crc_ok(reply)
    assert reply[4:7] == b"002" and reply[18:22] == b"9491"  # game 0: the game in force
    machine.receive_data(with_crc(bytes.fromhex("01530001")), 1.0)
    reply = machine.data_to_send()
    assert len(reply) == 26 and crc_ok(reply)
    assert reply[2:4] == b"\x00\x01" and reply[6:9] == b"001" and reply[10] == 100 and reply[20:24] == b"9898"
    machine.receive_data(with_crc(bytes.fromhex("01530003")), 2.0)
    assert machine.data_to_send()[20:24] == b"0000"  # a game whose return is not known
