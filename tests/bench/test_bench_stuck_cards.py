"""bench/hal_launcher.py's stuck-card figures: presses miscounted by timed pulses and by
edges, over presses with cards stuck together injected."""

from __future__ import annotations

import pytest

from bench import hal_launcher as bench


@pytest.mark.parametrize("calibrated", [True, False])
def test_timed_pulses_miss_fewer_stuck_cards_than_edges_and_never_add_one(calibrated):
    r = bench.measure_stuck_miscounts(400, calibrated=calibrated, stuck_rate=0.5)
    assert r["stuck"] > 0 and r["miscounted_by_edges"] == r["stuck"]
    assert r["miscounted"] < r["miscounted_by_edges"] and r["overcounted"] == 0


def test_the_bench_refuses_no_presses():
    with pytest.raises(ValueError, match="presses"):
        bench.measure_stuck_miscounts(0)
