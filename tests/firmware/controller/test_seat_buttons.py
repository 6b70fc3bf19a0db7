"""The seat panel part on its own: a seat's button calls UNO late, arms it, or catches;
the launcher button presses for the seat to act; refused presses click."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.events import LauncherPressed, SeatPressed


def seated(make_table, state, **kw):
    return make_table(state, "seats", "requests", **kw)


def buzzer(table) -> str | None:
    return table.hw.panel.get_status()["buzzer"]


@pytest.mark.parametrize("pressed, action", [(2, U.CallUno(2)), (0, U.Catch(0, 2))],
                         ids=["its own button calls late", "another seat's button catches"])
def test_a_seat_open_to_a_catch(make_table, pressed, action):
    # seat 2 played down to one card without calling: it is open to a catch
    s = U.position("classic", counts=[5, 5, 1, 5], discard="R5", turn=3, mode="table",
                   exposed=2)
    table = seated(make_table, s)
    table.loop.post(SeatPressed(pressed))
    table.loop.deliver()
    assert table.accepted == [action]
    assert [e.kind for e in table.journal.entries()] == ["action"]


def test_a_seat_holding_two_cards_arms_its_call_once_and_its_play_carries_it(make_table):
    s = U.position("classic", counts=[5, 2, 5], discard="R5", turn=1, mode="table")
    table = seated(make_table, s)
    for _ in range(2):
        table.loop.post(SeatPressed(1))
    table.loop.deliver()
    assert table.accepted == [] and table.seats.get_status() == {"armed": [1]}
    assert [e.kind for e in table.journal.entries()] == ["arm"]  # journaled once
    assert table.kinds() == ["uno_armed", "uno_armed"]
    table.requests.submit(api.Play(1, "R7"))
    assert table.accepted == [U.Play(1, U.parse_card("R7"), uno=True)]
    table.seats.adopt(table.accepted[0])
    assert table.seats.armed == set()


def test_a_call_with_nothing_to_call_is_refused_with_a_click_and_the_reason(make_table):
    s = U.position("classic", counts=[5, 5, 5], discard="R5", turn=0, mode="table")
    table = seated(make_table, s)
    table.loop.post(SeatPressed(1))
    table.loop.post(SeatPressed(7))
    table.loop.deliver()
    assert table.accepted == [] and buzzer(table) == "click"
    assert [(e["what"], e["key"], e["values"]) for e in table.events] == [
        ("East's button", "refused.nothing_to_call_at_play", {"seat": 1, "count": 5}),
        ("seat 8's button", "refused.not_playing", {"seat": 7})]
    assert table.events[1]["reason"] == "seat 8 does not play in this match"  # worded here


@pytest.mark.parametrize("edition, action", [("classic", U.Draw(1)), ("attack", U.Press(1))])
def test_the_launcher_button_presses_for_the_seat_to_act(make_table, edition, action):
    state = U.position(edition, counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    table = seated(make_table, state, edition=edition, seats=3)
    table.loop.post(LauncherPressed())
    table.loop.deliver()
    assert table.accepted == [action]


def test_a_launcher_press_while_the_table_waits_is_refused(make_table):
    s = U.position("classic", counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    table = seated(make_table, s, seats=3)
    table.waits_for = "the launcher's hopper is empty"
    table.loop.post(LauncherPressed())
    table.loop.deliver()
    assert table.accepted == [] and buzzer(table) == "click"
    assert (table.events[0]["key"], table.events[0]["values"]) == (
        "refused.waits", {"message": "the launcher's hopper is empty"})


def test_the_seat_to_act_is_lit_and_seats_a_tower_goes_to_blink(make_table):
    s = U.position("classic", counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    table = seated(make_table, s, seats=3)
    table.seats.lights({2})
    lights = [seat["light"] for seat in table.hw.panel.get_status()["seats"][:3]]
    assert lights == [False, True, "blink"]
