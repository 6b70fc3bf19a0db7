"""The one clock type: `now()` for intervals, `wall()` for timestamps, both virtual in tests."""

from __future__ import annotations

import threading

from hal.sim.clock import VirtualClock


def test_virtual_wall_time_is_its_epoch_plus_the_time_that_passed():
    clock = VirtualClock(10.0, epoch=1_700_000_000.0)
    assert (clock.now(), clock.wall()) == (10.0, 1_700_000_010.0)
    clock.advance(2.5)
    assert (clock.now(), clock.wall()) == (12.5, 1_700_000_012.5)


def test_waiting_moves_both_readings_together():
    clock = VirtualClock()
    assert clock.wait(threading.Event(), 4.0) is False
    assert clock.now() == clock.wall() == 4.0

