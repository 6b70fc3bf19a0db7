"""Issue 14, point 1: the pause after a round survives a crash. Stopped during the pause,
the daemon comes back to the same pause (nothing journaled twice, no round lost); stopped
right after the pause ended, it has continued exactly once. The pause's timer runs on the
table's one clock (the twin's virtual clock), so no test sleeps through it."""

from __future__ import annotations

import pytest

from firmware.api import requests as api
from firmware.controller.round_end import NEXT_ROUND
from firmware.errors import Rejected
from firmware.journal.store import Journal
from firmware.sim.testbed import SimTable
from firmware.waits import Wait

PAUSE_S = 20.0  # the default `[table] round_pause_s` the twin's config keeps


def at_round_end(st) -> bool:
    return st["waiting"]["kind"] == Wait.ROUND_OVER


def journal(directory):
    with Journal.open(directory / "journal.db", readonly=True) as j:  # beside the daemon
        return [(e.kind, e.payload) for e in j.entries()]


def next_rounds(entries):
    return [payload for kind, payload in entries if kind == NEXT_ROUND]


def test_stopped_during_the_round_end_pause_it_comes_back_to_the_same_pause(tmp_path):
    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        st = table.play_until(at_round_end)
        assert table.config.table.round_pause_s == PAUSE_S
        paused = st["round_end"]
        assert at_round_end(table.pass_time(PAUSE_S / 2))  # half the pause passes; the power fails
    finally:
        table.stop()
    before = journal(tmp_path)
    assert next_rounds(before) == []

    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        st = table.settle()
        assert st["waiting"]["kind"] == Wait.ROUND_OVER and st["round_end"] == paused
        assert st["rounds"] == [paused]  # the round's result once, not lost, not doubled
        assert journal(tmp_path) == before  # the restart wrote nothing
        # the timer starts afresh after a restart
        assert table.pass_time(PAUSE_S - 1)["waiting"]["kind"] == Wait.ROUND_OVER
        table.pass_time(1)
        st = table.wait_for(lambda st: st["round_end"] is None)
        assert next_rounds(journal(tmp_path)) == [{"round": paused["round"], "by": "timer"}]
        with pytest.raises(Rejected) as refused:
            table.submit(api.NextRound())  # a late tap: the round went on once
        assert refused.value.key == "refused.no_pause"
        assert len(next_rounds(journal(tmp_path))) == 1 and st["rounds"] == [paused]
    finally:
        table.stop()


def test_stopped_right_after_next_round_it_has_continued_exactly_once(tmp_path):
    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        paused = table.play_until(at_round_end)["round_end"]
        assert table.submit(api.NextRound())["next_round"] == paused["round"]
    finally:
        table.stop()
    before = journal(tmp_path)
    assert next_rounds(before) == [{"round": paused["round"], "by": "tap"}]

    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        st = table.settle()
        assert st["round_end"] is None and st["waiting"]["kind"] != Wait.ROUND_OVER
        assert st["rounds"] == [paused]
        table.pass_time(PAUSE_S)  # no timer of the old pause is left to fire
        st = table.play_until(lambda st: st["round"] == paused["round"] + 1 and st["phase"] == "play")
        assert next_rounds(journal(tmp_path)) == next_rounds(before)
        assert st["rounds"] == [paused] and table.world.agree, table.world.mismatches
    finally:
        table.stop()
