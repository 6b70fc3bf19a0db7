"""The turn timer on its own (house rules turn_timer_s / timeout_action): a timer per
decision on the loop's clock (the fake loop's: nothing sleeps), the warning on the seat's
light and the buzzer (mock pins), the timeout's action journaled like any other, and a
journal replay that never applies a timeout twice."""

from __future__ import annotations

import uno_core as U
from firmware.controller.turn_timer import (
    TIMEOUT,
    WARNING_BUZZ,
    TurnTimeout,
    TurnTimer,
    TurnWarning,
    timeout_action,
    warning_left,
)
from firmware.waits import Wait

PARTS = ("journal_watch", "ejections", "towers", "seats", "admin", "round_end", "waits",
         "turn_timer")


def timed_table(make_table, *, edition="classic", limit=30, how="draw", state=None):
    options = {"turn_timer_s": limit, "timeout_action": how}
    state = state or U.position(edition, counts=[3, 3, 3], discard="R5", turn=1, mode="table",
                                options=options)
    table = make_table(state, *PARTS, edition=edition, seats=3)
    table.names = ["Ann", "Bo", "Cy"]
    return table


def journaled(table, kind):
    return [e.payload for e in table.journal.entries() if e.kind == kind]


def fire(table, event):
    table.loop.handlers[type(event)](event)


def test_a_timer_runs_for_the_seat_to_act_and_says_what_is_left(make_table):
    table = timed_table(make_table, limit=30)
    table.turn_timer.settle()
    assert table.loop.timers == [(25, TurnWarning(0, 1)), (30, TurnTimeout(0, 1))]
    table.loop.clock = 12.0
    assert table.turn_timer.get_status()["turn_timer"] == {
        "step": 0, "seat": 1, "left_s": 18.0, "warning": False}
    table.turn_timer.settle()  # the same decision: the same timer goes on
    assert len(table.loop.timers) == 2


def test_a_short_timer_warns_after_half_its_time_or_not_at_all(make_table):
    # a warning at the start of the turn ("2 seconds left" on every turn) tells nothing
    assert [warning_left(limit) for limit in (1, 2, 3, 4, 6, 10, 30)] == [
        None, None, None, 2, 3, 5, 5]
    table = timed_table(make_table, limit=6)
    table.turn_timer.settle()
    assert table.loop.timers == [(3, TurnWarning(0, 1)), (6, TurnTimeout(0, 1))]
    fire(table, TurnWarning(0, 1))
    (event,) = [e for e in table.events if e["kind"] == "turn_warning"]
    assert event["message"] == "Bo: 3 seconds left" and event["left_s"] == 3
    assert table.hw.panel.get_status()["buzzer"] == [0.1, 0.9, 3]  # no beep past the end


def test_a_timer_of_3_seconds_runs_without_a_warning(make_table):
    table = timed_table(make_table, limit=3)
    table.turn_timer.settle()
    assert table.loop.timers == [(3, TurnTimeout(0, 1))]


def test_no_timer_when_the_option_is_off(make_table):
    table = timed_table(make_table, limit=0)
    table.turn_timer.settle()
    assert table.loop.timers == [] and table.turn_timer.get_status()["turn_timer"] is None


def test_the_last_seconds_blink_the_seats_light_and_beep_the_buzzer(make_table):
    table = timed_table(make_table)
    table.turn_timer.settle()
    fire(table, TurnWarning(0, 1))
    panel = table.hw.panel.get_status()
    assert panel["buzzer"] == list(WARNING_BUZZ)
    assert table.turn_timer.blinking() == {1}
    table.seats.lights(table.turn_timer.blinking())  # what the coordinator's settle does
    assert [s["light"] for s in table.hw.panel.get_status()["seats"]] == [False, "blink", False]
    (event,) = [e for e in table.events if e["kind"] == "turn_warning"]
    assert event["seat"] == 1 and event["message"] == "Bo: 5 seconds left"


def test_a_timeout_draws_for_the_seat_and_journals_it_after_the_action(make_table):
    table = timed_table(make_table, how="draw")
    table.turn_timer.settle()
    fire(table, TurnTimeout(0, 1))
    assert table.accepted == [U.Draw(1)]
    kinds = [e.kind for e in table.journal.entries()]
    assert kinds[-2:] == ["action", TIMEOUT]
    assert journaled(table, TIMEOUT) == [{"step": 0, "seat": 1, "action": "draw"}]
    (event,) = [e for e in table.events if e["kind"] == "turn_timeout"]
    assert event["applied"] == U.action_to_dict(U.Draw(1))
    assert event["message"] == "Bo ran out of time and draws"
    assert table.hw.panel.get_status()["buzzer"] == "error"


def test_pass_keeps_a_drawn_card_and_draws_where_a_pass_is_not_legal(make_table):
    s = U.position("power", counts=[3, 3, 3], discard="R5", turn=1, mode="table",
                   options={"turn_timer_s": 30, "timeout_action": "pass"})
    assert timeout_action(s, 1, "pass") == U.Draw(1)  # at the start of a turn one must draw
    drawn, _ = U.apply(s.clone(), U.Draw(1))
    assert drawn.phase == "drawn"
    assert timeout_action(drawn, 1, "pass") == U.Pass(1)
    assert timeout_action(drawn, 1, "draw") == U.Pass(1)  # no second draw: the card is kept
    assert timeout_action(drawn, 1, "warn") is None


def test_warn_only_warns_and_a_replay_does_not_warn_again(make_table):
    table = timed_table(make_table, how="warn")
    table.turn_timer.settle()
    fire(table, TurnTimeout(0, 1))
    assert table.accepted == []
    assert journaled(table, TIMEOUT) == [{"step": 0, "seat": 1, "action": "warn"}]
    # a restart: the part rebuilt from the journal starts no timer for that decision
    table.loop.handlers.clear()
    again = TurnTimer(table)
    for payload in journaled(table, TIMEOUT):
        again.replay(payload)
    table.loop.timers.clear()
    again.settle()
    assert table.loop.timers == [] and again.get_status()["timed_out"] == [0, 1]
    table.step = 1  # the seat acts: its next decision is timed again
    again.settle()
    assert table.loop.timers == [(25, TurnWarning(1, 1)), (30, TurnTimeout(1, 1))]


def test_a_decision_taken_in_time_cancels_the_timer_and_its_late_event_does_nothing(make_table):
    table = timed_table(make_table)
    table.turn_timer.settle()
    table.step = 1  # the seat played: the table settles after every action
    table.turn_timer.settle()
    assert TurnTimeout(0, 1) in table.loop.cancelled
    fire(table, TurnTimeout(0, 1))  # already posted before the play
    fire(table, TurnWarning(0, 1))
    assert table.accepted == [] and journaled(table, TIMEOUT) == []
    assert table.hw.panel.get_status()["buzzer"] is None


def test_a_pause_stops_the_timer_and_the_resumed_decision_gets_a_fresh_one(make_table):
    table = timed_table(make_table)
    table.turn_timer.settle()
    table.admin.paused = "admin"
    assert table.waits.waiting()["kind"] == Wait.PAUSED
    table.turn_timer.settle()
    assert table.turn_timer.get_status()["turn_timer"] is None
    fire(table, TurnTimeout(0, 1))
    assert table.accepted == []
    table.admin.paused = None
    table.loop.clock = 100.0
    table.turn_timer.settle()
    assert table.turn_timer.get_status()["turn_timer"]["left_s"] == 30.0
