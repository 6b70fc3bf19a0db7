"""House rules on the whole simulated table (issue 12, point 4): the daemon, the twin's
devices on mock pins, the bots' world. The loop's timers run on a virtual clock the test
moves (nothing sleeps)."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.controller.turn_timer import TIMEOUT, WARNING_BUZZ
from firmware.sim.testbed import SimTable
from hal.sim.clock import VirtualClock

TIMER = {"turn_timer_s": 10, "timeout_action": "draw"}


def entries(table, kind):
    ctl = table.controller
    return table.call(lambda: [e.payload for e in ctl.journal.entries(match_id=ctl.match.id)
                               if e.kind == kind])


def advance(table, clock, seconds):
    clock.advance(seconds)  # the loop's timers post their events from here
    return table.settle()


@pytest.fixture
def timed(tmp_path, mock_factory):
    clock = VirtualClock()
    table = SimTable(tmp_path, "classic", seed=4, factory=mock_factory, options=TIMER,
                     clock=clock)
    yield table, clock
    table.stop()


def test_a_timeout_draws_for_the_seat_after_the_warning_and_the_world_agrees(timed):
    table, clock = timed
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    seat, step, held = st["waiting"]["seat"], st["step"], st["hand_counts"][st["waiting"]["seat"]]
    assert st["turn_timer"] == {"step": step, "seat": seat, "left_s": 10.0, "warning": False}
    st = advance(table, clock, 5)  # the last 5 s: the seat's light blinks, the buzzer beeps
    panel = table.call(table.controller.hw.panel.get_status)
    assert panel["seats"][seat]["light"] == "blink" and panel["buzzer"] == list(WARNING_BUZZ)
    assert st["turn_timer"]["warning"] is True and st["step"] == step
    st = advance(table, clock, 5)
    assert st["hand_counts"][seat] == held + 1  # the launcher dealt the card drawn
    assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "draw"}]
    assert U.action_from_dict(entries(table, "action")[step]) == U.Draw(seat)
    kinds = [e["kind"] for e in table.events]
    assert kinds.index("turn_warning") < kinds.index("turn_timeout")
    assert table.world.check(st) == [] and table.world.agree


def test_a_restart_after_a_timeout_does_not_apply_it_twice(tmp_path):
    clock = VirtualClock()
    options = {"turn_timer_s": 10, "timeout_action": "warn"}
    table = SimTable(tmp_path, "classic", seed=4, options=options, clock=clock)
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        seat, step = st["waiting"]["seat"], st["step"]
        st = advance(table, clock, 10)
        assert st["step"] == step and st["turn_timer"] is None  # warned, nothing applied
        assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "warn"}]
    finally:
        table.stop()
    clock = VirtualClock()
    table = SimTable(tmp_path, "classic", seed=4, options=options, clock=clock)
    try:
        st = advance(table, clock, 30)
        assert st["step"] == step and st["turn_timer"] is None  # the same decision: no timer
        assert entries(table, TIMEOUT) == [{"step": step, "seat": seat, "action": "warn"}]
        assert [e["kind"] for e in table.events].count("turn_timeout") == 0
        st = table.bot_act()  # the seat decides at last: the next decision is timed again
        assert st["turn_timer"] is not None and st["turn_timer"]["step"] == st["step"]
    finally:
        table.stop()
