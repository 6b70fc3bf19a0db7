"""A daemon on the twin playing match after match: the twin's records stay bounded.

The twin keeps records a real table has not (recent cards and motor changes, reader
commands, pin state histories). `bench/longrun.py` plays 1,000 matches in one daemon;
these records must fill up and then keep their size, or the process grows forever.
"""

import pytest

from bench.longrun import play_match
from firmware.sim.testbed import SimTable
from hal.sim.records import LOG_ENTRIES, PIN_HISTORY

MATCHES = 6


@pytest.mark.timeout(600)  # six whole matches: a minute alone, several on a loaded machine
def test_twin_records_fill_to_their_bound_and_stay_there_over_many_matches(tmp_path):
    table = SimTable(tmp_path, "classic", 4, seed=1)
    sizes = []
    try:
        for k in range(MATCHES):
            st = play_match(table, k, seed=1)
            assert table.world.check(st) == [] and table.world.agree
            sizes.append(table.world.records())
        cards_out = len(table.world.launcher_sim.exited)  # counts every card ever
    finally:
        assert table.stop() == 0
    last = sizes[-1]
    assert {bound for _kept, bound in last.values()} == {LOG_ENTRIES, PIN_HISTORY}
    assert all(kept <= bound for kept, bound in last.values())
    # the matches went past the bounds: the busiest records are full, not growing
    assert cards_out > LOG_ENTRIES
    assert last["launcher exited"][0] == LOG_ENTRIES
    assert max(kept for name, (kept, _b) in last.items() if name.startswith("pin")) == PIN_HISTORY
    full_before = {name for name, (kept, bound) in sizes[-3].items() if kept == bound}
    assert full_before and all(last[name][0] == last[name][1] for name in full_before)
    # no new record per match either: the records after the first match are all there is
    assert set(last) == set(sizes[0])
