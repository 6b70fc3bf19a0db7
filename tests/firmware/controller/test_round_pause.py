"""The pause after a round, on its own: the round's result is kept and shown, a tap or
the timer on the loop's clock ends the pause (journaled), and a replay of the journal
comes back to the pause or past it."""

from __future__ import annotations

from dataclasses import replace

import pytest

import uno_core as U
from firmware.controller.context import Adopted, RoundEnded
from firmware.controller.round_end import NEXT_ROUND, RoundPauseOver
from firmware.errors import Rejected
from firmware.waits import Wait
from uno_core import effects as E

ROUND_1 = [E.RoundOver(1, (12, 0, 30), (12, 0, 30))]
ROUND_2_ENDS_MATCH = [E.RoundOver(0, (0, 7, 500), (12, 7, 530)),
                      E.MatchOver((1,), (12, 7, 530))]


def said(stop, table):
    """A typed stop as the API says it (None: no stop)."""
    return None if stop is None else stop.to_json(table.words)


def ends(table, fx, *, live=True):
    """As the coordinator announces an adopted action: its round's end, if any, or (no
    round over) the shuffle that starts the next round."""
    over = next((e for e in fx if isinstance(e, E.RoundOver)), None)
    if over is None:
        table.announce(Adopted(U.Shuffle(()), fx, table.state, live, None))
    else:
        table.announce(RoundEnded(over, live, any(isinstance(e, E.MatchOver) for e in fx)))


def pausing_table(make_table, *, pause_s: float = 20):
    state = U.position("classic", counts=[3, 0, 2], discard="R5", turn=1, mode="table")
    table = make_table(state, "journal_watch", "ejections", "round_end", seats=3)
    table.config = replace(table.config, table=replace(table.config.table, round_pause_s=pause_s))
    table.names = ["Ann", "Bo", "Cy"]
    return table


def entry_kinds(table):
    return [(e.kind, e.payload) for e in table.journal.entries()
            if e.kind == NEXT_ROUND]


def test_a_round_end_pauses_with_who_went_out_the_points_and_the_totals(make_table):
    table = pausing_table(make_table)
    ends(table, ROUND_1)
    wait = said(table.round_end.pause_wait(), table)
    assert wait["kind"] == Wait.ROUND_OVER
    assert (wait["round"], wait["winner"], wait["points"], wait["scores"]) == (
        1, 1, [12, 0, 30], [12, 0, 30])
    assert wait["message"] == ("round 1 is over: Bo went out; the next round starts in 20 s, "
                               "or tap next round")
    assert table.round_end.get_status() == {
        "rounds": [{"round": 1, "winner": 1, "points": [12, 0, 30], "scores": [12, 0, 30]}],
        "round_pause": 1}


def test_a_tap_ends_the_pause_once_and_is_journaled_first(make_table):
    table = pausing_table(make_table)
    ends(table, ROUND_1)
    assert table.round_end.next_round() == {"next_round": 1, "step": 0}
    assert entry_kinds(table) == [(NEXT_ROUND, {"round": 1, "by": "tap"})]
    assert said(table.round_end.pause_wait(), table) is None and table.settled == 1
    assert table.kinds() == ["next_round"]
    with pytest.raises(Rejected) as refused:
        table.round_end.next_round()
    assert refused.value.key == "refused.no_pause"
    assert len(entry_kinds(table)) == 1  # the refusal wrote nothing


def test_the_timer_ends_the_pause_on_the_loops_clock_and_a_stale_one_does_nothing(make_table):
    table = pausing_table(make_table, pause_s=20)
    ends(table, ROUND_1)
    table.round_end.settle()
    assert table.loop.timers == [(20, RoundPauseOver(1))]
    table.loop.handlers[RoundPauseOver](RoundPauseOver(1))
    assert entry_kinds(table) == [(NEXT_ROUND, {"round": 1, "by": "timer"})]
    assert said(table.round_end.pause_wait(), table) is None
    table.loop.handlers[RoundPauseOver](RoundPauseOver(1))  # posted before a tap: too late
    assert len(entry_kinds(table)) == 1


def test_a_pause_of_0_waits_for_the_tap_alone(make_table):
    table = pausing_table(make_table, pause_s=0)
    ends(table, ROUND_1)
    table.round_end.settle()
    assert table.loop.timers == []
    assert said(table.round_end.pause_wait(), table)["message"] == (
        "round 1 is over: Bo went out; tap next round")


def test_the_round_that_ends_the_match_is_kept_without_a_pause(make_table):
    table = pausing_table(make_table)
    round_end = table.round_end
    ends(table, ROUND_1)
    round_end.replay({"round": 1, "by": "tap"})
    ends(table, ROUND_2_ENDS_MATCH)
    assert said(round_end.pause_wait(), table) is None
    assert [r["scores"] for r in round_end.rounds] == [[12, 0, 30], [12, 7, 530]]


def test_a_replay_comes_back_to_the_pause_or_past_it(make_table):
    """As the coordinator replays: the action that ended the round, then a
    ``next_round`` entry or (a journal from before the pause) the next action."""
    table = pausing_table(make_table)
    round_end = table.round_end
    ends(table, ROUND_1)
    # no next_round yet: a crash comes back here
    assert said(round_end.pause_wait(), table) is not None
    round_end.replay({"round": 0, "by": "tap"})  # not this round's
    assert said(round_end.pause_wait(), table) is not None
    ends(table, [], live=False)  # the table went on without the entry
    assert said(round_end.pause_wait(), table) is None
    round_end.reset()
    assert round_end.get_status() == {"rounds": [], "round_pause": None}
