"""The host's 7F clock setting is kept in a state row: the journal archiving its record away
(it keeps only the last games and money moves) does not take the offset with it."""

from __future__ import annotations

from datetime import datetime, timedelta

from machine.sas.bridge import host_clock_offset
from tests.cabinet_helpers import boot
from tests.test_journal_keeps_itself import keeper, play_rounds, run_frames, small_checkpoints  # noqa: F401


def test_the_offset_of_the_hosts_7f_clock_setting_survives_the_journals_own_archive(tmp_path, small_checkpoints):  # noqa: F811
    cab = boot(tmp_path)
    when = datetime.now().replace(microsecond=0) + timedelta(days=400)
    cab.host_clock_set(1, when.isoformat(), 0.0)
    before = host_clock_offset(cab.journal)
    assert before > 86400 * 399
    play_rounds(cab, 12)  # more than the keeper's last 3 games of each seat
    k = keeper(cab, tmp_path)
    run_frames(k)
    assert k.made
    assert abs(host_clock_offset(cab.journal) - before) < 5, host_clock_offset(cab.journal)
