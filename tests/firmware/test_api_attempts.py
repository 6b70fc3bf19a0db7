"""Failed logins slowed per address, on a virtual clock."""

from __future__ import annotations

import logging

import pytest

from firmware.api.attempts import Attempts
from hal.sim.clock import VirtualClock

HOME, OTHER = "192.168.1.50", "192.168.1.51"


@pytest.fixture
def clock():
    return VirtualClock()


def fail(attempts, address, times, clock=None, every=0.1):
    for _ in range(times):
        attempts.failed(address)
        if clock is not None:
            clock.advance(every)


def test_five_failures_make_the_address_wait_and_each_more_doubles_it_up_to_the_cap(clock):
    attempts = Attempts(allowed=5, window=60, base=1, cap=8, clock=clock)
    fail(attempts, HOME, 4)
    assert attempts.retry_after(HOME) is None  # four wrong tokens: still free to try
    attempts.failed(HOME)
    waits = [attempts.retry_after(HOME)]
    for _ in range(5):
        clock.advance(waits[-1])
        assert attempts.retry_after(HOME) is None  # the wait is over: one more try
        attempts.failed(HOME)
        waits.append(attempts.retry_after(HOME))
    assert waits == [1, 2, 4, 8, 8, 8]


def test_another_address_is_never_slowed(clock):
    attempts = Attempts(clock=clock)
    fail(attempts, HOME, 20)
    assert attempts.retry_after(HOME) is not None
    assert attempts.retry_after(OTHER) is None


def test_failures_spread_wider_than_the_window_never_add_up(clock):
    attempts = Attempts(allowed=5, window=60, clock=clock)
    fail(attempts, HOME, 20, clock, every=15)  # four per minute
    assert attempts.retry_after(HOME) is None


def test_a_quiet_address_is_forgiven(clock):
    attempts = Attempts(allowed=5, window=60, cap=60, forgive=600, clock=clock)
    fail(attempts, HOME, 8)
    clock.advance(601)
    attempts.failed(HOME)
    assert attempts.retry_after(HOME) is None  # one failure of a fresh start


def test_an_address_quiet_for_longer_than_the_window_but_not_forgive_keeps_waiting_longer(clock):
    attempts = Attempts(allowed=5, window=60, base=1, cap=60, forgive=600, clock=clock)
    fail(attempts, HOME, 7)  # waits of 1, 2, 4 s
    clock.advance(300)  # well past the window, short of forgiveness
    attempts.failed(HOME)
    assert attempts.retry_after(HOME) == 8  # the next doubling, not a fresh start


def test_failures_are_logged_at_most_once_a_second_with_the_count_held_back(clock, caplog):
    attempts = Attempts(clock=clock)
    with caplog.at_level(logging.WARNING, "firmware.api.attempts"):
        fail(attempts, HOME, 12, clock, every=0.25)  # 3 s of failures
    records = [r.getMessage() for r in caplog.records]
    assert len(records) == 3
    assert records[0].startswith(f"a wrong token from {HOME}: 1 failed")
    assert records[1].endswith("(and 3 more failed attempts since the last one logged)")


def test_the_addresses_remembered_are_bounded(clock):
    attempts = Attempts(addresses=3, clock=clock)
    for i in range(10):
        attempts.failed(f"10.0.0.{i}")
    assert len(attempts) == 3


def test_nonsense_limits_are_refused():
    with pytest.raises(ValueError):
        Attempts(allowed=0)
    with pytest.raises(ValueError):
        Attempts(base=10, cap=5)
