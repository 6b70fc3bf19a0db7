"""The parts follow the events the coordinator announces, on the fake context: an
adopted action reaches only the parts that asked for its kind, a settle lights the
seats unless the launcher took the turn, the seats to blink come from the parts that
answer them, and the tray's view outlives a match."""

from __future__ import annotations

import uno_core as U
from firmware.controller.context import Adopted, MatchBegins, Settles, ShowTurn
from firmware.controller.engine_waits import Press, engine_wait, first_owed
from firmware.controller.events import TrayChanged
from firmware.waits import Wait
from hal.tray import NEUTRAL, ReaderDown, TowerPlaced
from uno_core import effects as E


def lights(table) -> list:
    return [seat["light"] for seat in table.hw.panel.get_status()["seats"]]


def classic(**kw):
    return U.position("classic", counts=[5, 2, 5, 5], discard="R5", turn=1, mode="table", **kw)


def test_an_adopted_press_reaches_the_launcher_but_not_the_seats_or_the_undo(make_table):
    s = U.position("attack", counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    table = make_table(s, "ejections", "seats", "undo", edition="attack", seats=3)
    table.seats.armed.add(1)
    new, fx = U.apply(s.clone(), U.Press(1))
    table.announce(Adopted(U.Press(1), fx, new, True, 7))
    assert [j.kind for j in table.ejections.jobs] == ["fire"]  # the launcher heard it
    assert table.seats.armed == {1} and table.undo.declared is None  # the others did not
    play = U.Play(1, U.parse_card("R7"))
    table.announce(Adopted(play, [], new, True, 8))
    assert table.seats.armed == set() and table.undo.declared.seq == 8


def test_a_settle_lights_nothing_showing_the_turn_lights_the_seat_to_act(make_table):
    """The coordinator shows the turn after a settle unless the launcher took it
    (`tests/firmware/test_controller_parts.py` holds the coordinator to that)."""
    table = make_table(classic(), "seats")
    table.announce(Settles())
    assert lights(table) == [False, False, False, False]
    table.announce(ShowTurn())
    assert lights(table) == [False, True, False, False]


def test_the_seats_to_blink_are_asked_of_the_parts_that_answer_them(make_table):
    s = U.position("power", counts=[5, 5, 5], discard="R5", turn=0, mode="table")
    table = make_table(s, "seats", "towers", edition="power", seats=3)
    table.towers.adopt([E.TowerMoved("N", 2)], live=True)  # N goes to seat 2: it blinks
    table.announce(ShowTurn())
    assert lights(table) == [True, False, "blink"]


def test_the_trays_view_outlives_a_match_and_says_what_the_tray_reports(make_table):
    s = U.position("power", counts=[5, 5, 5], discard="R5", turn=0, mode="table")
    table = make_table(s, "tray", edition="power", seats=3)
    table.loop.post(TrayChanged(TowerPlaced("U", NEUTRAL)))
    table.loop.post(TrayChanged(ReaderDown(2, "/dev/pts/9", "no answer")))
    table.loop.deliver()
    table.announce(MatchBegins(None))
    assert table.tray.get_status()["seen"]["U"] == NEUTRAL
    assert table.events[-1] == {"kind": "tray", "event": "ReaderDown", "slot": 2, "step": 0}


def test_a_seat_owing_presses_is_a_typed_wait_said_as_the_api_says_it(make_table):
    s = U.position("attack", counts=[5, 1, 5], discard="R5", turn=2, mode="table",
                   exposed=1, options={"forgotten_uno": "catch"})
    s, _fx = U.apply(s, U.Catch(2, 1))  # seat 1 forgot its UNO: it owes the penalty's presses
    owed = first_owed(s)
    assert owed is not None and owed.seat == 1 and owed.count > 0
    wait = engine_wait(s, {})
    assert wait == Press(1, owed.count, False)
    table = make_table(s, "waits", edition="attack", seats=3)
    assert table.waits.waiting() == wait.to_json(table.words) == {
        "kind": Wait.PRESS, "seat": 1, "presses": owed.count, "until_cards": False,
        "message": wait.to_json(table.words)["message"]}
    assert "East" in table.waits.waiting()["message"]
