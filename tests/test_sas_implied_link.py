"""A link configured with ``implied_nack: true`` serves its host by the document's implied ACK/NACK.

docs/sas.md says the cabinet turns implied NACK on for the links whose hosts follow the document;
these tests hold the configuration, the bridge's spec and the child's machine to it.
"""

from __future__ import annotations

import time

from machine.operator.sasconfig import SasConfig
from machine.sas.bridge import link_spec
from machine.sas.server import ServerProcess, snapshot_data
from machine.sas.source import SeatSnapshot
from tests.sas_helpers import PtyHost

POWER_APPLIED = 0x17


def test_the_link_s_choice_is_read_and_handed_to_the_child() -> None:
    sas = SasConfig.model_validate({"links": [{"port": "pty:///tmp/x1", "address": 1, "seat": 1, "implied_nack": True},
                                              {"port": "pty:///tmp/x2", "address": 2, "seat": 2}]})
    assert [link_spec(x, "ab12cd34") for x in sas.links] == [
        {"port": "pty:///tmp/x1", "address": 1, "seat": 1, "implied_nack": True, "serial": "ab12cd34-1"},
        {"port": "pty:///tmp/x2", "address": 2, "seat": 2, "implied_nack": False, "serial": "ab12cd34-2"}]


def _serve(host: PtyHost, implied_nack: bool) -> ServerProcess:
    link = {"port": host.path, "address": 1, "seat": 1, "serial": "s-1", "implied_nack": implied_nack}
    return ServerProcess({"links": [link], "games": [1], "cents": 10, "exceptions": [POWER_APPLIED, POWER_APPLIED],
                          "max_bets": {}, "snapshots": {"1": snapshot_data(SeatSnapshot())}})


def _first_answer(host: PtyHost) -> int | None:
    end = time.monotonic() + 60  # bounds a hang only
    while time.monotonic() < end:  # the child starting up: silence until its port is served
        code = host.general(1)
        if code is not None:
            return code
    return None


def test_a_repeated_general_poll_is_answered_again_on_an_implied_nack_link() -> None:
    host = PtyHost()
    server = _serve(host, implied_nack=True)
    try:
        assert _first_answer(host) == POWER_APPLIED
        assert host.general(1) == POWER_APPLIED  # the same poll again: an implied NACK, the same answer
        host.send(b"\x80")  # the host moves on: an implied ACK
        assert host.general(1) == POWER_APPLIED  # the second one queued
        host.send(b"\x80")
        assert host.general(1) == 0
    finally:
        server.close()
        host.close()


def test_without_the_choice_each_general_poll_takes_the_next_exception() -> None:
    host = PtyHost()
    server = _serve(host, implied_nack=False)
    try:
        assert _first_answer(host) == POWER_APPLIED
        assert host.general(1) == POWER_APPLIED
        assert host.general(1) == 0
    finally:
        server.close()
        host.close()
