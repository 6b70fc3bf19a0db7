"""A pause holds the whole table: paused during a round's result, the round-pause timer
waits however long the pause lasts, and after Resume runs on with the time it had left;
a restart during the pause keeps holding it. The timer runs on the twin's virtual clock."""

from __future__ import annotations

from firmware.api import requests as api
from firmware.sim.testbed import SimTable
from firmware.waits import Wait

PAUSE_S = 20.0  # the default `[table] round_pause_s` the twin's config keeps


def at_round_end(st) -> bool:
    return st["waiting"]["kind"] == Wait.ROUND_OVER


def test_a_pause_during_a_rounds_result_holds_it_and_resume_runs_on_with_the_time_left(tmp_path):
    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        shown = table.play_until(at_round_end)["round_end"]
        assert table.config.table.round_pause_s == PAUSE_S
        table.pass_time(5)  # 15 s are left when the owner pauses
        table.submit(api.Admin("pause", {}))
        st = table.pass_time(61)
        assert st["waiting"]["kind"] == Wait.PAUSED
        assert st["round_end"] == shown and st["rounds"] == [shown]  # the same round's result
        table.submit(api.Admin("resume", {}))
        assert table.pass_time(14)["round_end"] == shown
        table.pass_time(1)
        assert table.wait_for(lambda st: st["round_end"] is None)["rounds"] == [shown]
    finally:
        table.stop()


def test_a_restart_during_the_pause_still_holds_the_rounds_result(tmp_path):
    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        shown = table.play_until(at_round_end)["round_end"]
        table.submit(api.Admin("pause", {}))
    finally:
        table.stop()
    table = SimTable(tmp_path, "classic", players=3, seed=4)
    try:
        st = table.pass_time(61)
        assert st["waiting"]["kind"] == Wait.PAUSED and st["round_end"] == shown
        table.submit(api.Admin("resume", {}))
        assert table.pass_time(PAUSE_S - 1)["round_end"] == shown  # afresh after a restart
        table.pass_time(1)
        assert table.wait_for(lambda st: st["round_end"] is None)["rounds"] == [shown]
    finally:
        table.stop()
