"""The coordinator builds a part only when the table needs it (issue 22, point 5) and
gathers what the parts report without naming them (point 3): on the real daemon over the
twin (`SimTable`)."""

from __future__ import annotations

import pytest

from firmware.api import requests as api
from firmware.controller.context import Settles, ShowTurn
from firmware.controller.turn_timer import TurnTimer
from firmware.sim.testbed import SimTable
from tests.firmware.test_voice_table import Recorder


@pytest.fixture
def table_factory(tmp_path):
    tables: list[SimTable] = []

    def make(variant: str = "classic", **kw) -> SimTable:
        table = SimTable(tmp_path / f"t{len(tables)}", variant, **kw)  # its own mock pins
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.stop()


def built(table: SimTable) -> list[str]:
    return table.call(lambda: sorted(table.controller.hub.named))


def test_a_classic_table_without_a_timer_builds_no_tower_watch_and_no_turn_timer(table_factory):
    table = table_factory("classic")
    names = built(table)
    assert "towers" not in names and "turn_timer" not in names
    st = table.state()
    assert st["towers_seen"] is None and st["turn_timer"] is None and st["alarm"] is None
    assert st["stats"]["tower_moves"] == 0  # the count is there, nobody to count it


def test_a_power_table_watches_its_towers(table_factory):
    table = table_factory("power")
    assert "towers" in built(table) and "turn_timer" not in built(table)
    assert set(table.state()["towers_seen"]) == {"U", "N", "O", "!"}


def test_the_turn_timer_is_built_for_a_match_that_sets_it_and_dropped_after(table_factory):
    table = table_factory("classic", options={"turn_timer_s": 30})
    timer = table.call(lambda: table.controller.lookup("turn_timer"))
    assert isinstance(timer, TurnTimer)
    table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    assert table.state()["turn_timer"]["left_s"] == 30.0
    table.submit(api.Admin("new-match", {"edition": "classic", "seats": 4, "options": {}}))
    st = table.settle()
    assert "turn_timer" not in built(table) and st["turn_timer"] is None
    # the old timer's events reach nobody: the loop's dispatcher for them has no handler
    assert table.call(lambda: table.controller.hub._dropped_on) != {}
    assert all(not handlers for handlers in
               table.call(lambda: table.controller.hub._dropped_on).values())


def test_the_voice_is_hooked_only_when_it_is_enabled(table_factory):
    quiet = table_factory("classic")
    speaker = Recorder()
    loud = table_factory("classic", speaker=speaker)
    assert len(quiet.call(lambda: quiet.controller.listeners)) \
        == len(loud.call(lambda: loud.controller.listeners)) - 1
    loud.play_until(lambda st: st["waiting"]["kind"] == "turn")
    assert speaker.said  # the one listener more is the voice, and it speaks


def test_the_journaled_view_gathers_every_parts_share(table_factory):
    table = table_factory("power")
    view = table.call(table.controller.journaled_view)
    for key in ("paused", "blocker", "turned", "jobs", "armed", "dealer_cards", "declared",
                "rounds", "round_pause", "accepted"):
        assert key in view, key
    assert view["stats"] == table.state()["stats"]


def test_the_turn_is_shown_after_a_settle_unless_the_launcher_took_it(table_factory):
    """One settle: the parts start what is owed (`Settles`), and only when the launcher
    did not start do they show whose turn it is (`ShowTurn`: lights, then the aim)."""
    table = table_factory("attack")
    table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    ctl = table.controller
    shown: list[bool] = []
    starts = [False]

    def register() -> None:
        ctl.hub.subscribe("test", Settles, lambda e: starts[0])  # answers: it started
        ctl.hub.subscribe("test", ShowTurn, lambda e: shown.append(True))

    table.call(register)
    table.call(ctl.settle)
    starts[0] = True
    table.call(ctl.settle)
    assert shown == [True]
    lit = [seat["light"] for seat in table.call(ctl.hw.panel.get_status)["seats"]]
    to_act = table.state()["to_act"]
    assert to_act >= 0 and lit == [seat == to_act for seat in range(len(lit))]
