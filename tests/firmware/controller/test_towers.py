"""The tower watch on its own: captures awaited until the tray sees the tower at its new
owner, and the alarm when a tower moves without a capture."""

from __future__ import annotations

import uno_core as U
from firmware.controller.events import TrayChanged
from firmware.waits import Wait
from hal.tray import NEUTRAL, TowerPlaced, TowerRemoved
from uno_core import effects as E

OWNERS = {"U": 1, "N": 0}  # the other towers stand on the neutral slot


def said(stop, table):
    """A typed stop as the API says it (None: no stop)."""
    return None if stop is None else stop.to_json(table.words)


def watched(make_table, confirm="wait"):
    s = U.position("power", counts=[5, 5, 5], discard="R5", turn=0, mode="table",
                   towers=OWNERS)
    table = make_table(s, "towers", edition="power", seats=3, tower_confirm=confirm)
    for tower in ("U", "N", "O", "!"):  # where the tray sees them when the test begins
        tray(table, TowerPlaced(tower, OWNERS.get(tower, NEUTRAL)))
    table.events.clear()
    return table


def tray(table, event) -> None:
    table.loop.post(TrayChanged(event))
    table.loop.deliver()


def test_a_tower_lifted_while_the_table_waits_for_another_raises_the_alarm(make_table):
    table = watched(make_table)
    table.towers.adopt([E.TowerMoved("O", 2)], live=True)  # O is captured by seat 2
    tray(table, TowerRemoved("O", NEUTRAL))  # carried: no alarm
    assert table.towers.alarm is None and table.towers.awaited()
    tray(table, TowerRemoved("U", 1))  # U is taken from its owner without a capture
    alarm = table.towers.alarm
    assert alarm is not None and alarm.kind == Wait.ALARM
    assert alarm.message == ("tower U was lifted off East without a capture: put it back "
                             "at East")
    assert table.hw.panel.get_status()["buzzer"] == "alarm"
    assert table.kinds() == ["tower_lifted", "tower_lifted", "alarm"]
    tray(table, TowerPlaced("U", 1))  # put back: the alarm clears, the table goes on
    assert table.towers.alarm is None and table.kinds()[-1] == "alarm_cleared"
    assert table.settled == 1


def test_a_captured_tower_is_awaited_at_its_new_owner_until_the_tray_sees_it(make_table):
    table = watched(make_table)
    table.towers.adopt([E.TowerMoved("N", 2)], live=True)
    assert table.stats["tower_moves"] == 1 and table.towers.seats_awaited() == {2}
    assert said(table.towers.on_its_way(), table) == {
        "kind": Wait.TOWER, "tower": "N", "slot": 2, "seat": 2,
        "message": "move tower N to South"}
    tray(table, TowerRemoved("N", 0))
    tray(table, TowerPlaced("N", 2))
    assert said(table.towers.on_its_way(), table) is None and table.towers.alarm is None
    assert table.events[-1] == {"kind": "tower_seen", "tower": "N", "slot": 2, "by": "tray",
                                "step": 0}
    assert table.hw.panel.get_status()["seats"][2]["light"] is False


def test_a_tower_going_back_to_the_neutral_slot_is_said_in_the_trays_words(make_table):
    table = watched(make_table)
    table.towers.announce(E.TowerMoved("U", E.NEUTRAL))
    table.towers.adopt([E.TowerMoved("U", E.NEUTRAL)], live=True)
    assert table.events[-1]["slot"] == NEUTRAL
    assert table.events[-1]["message"] == "move tower U to the neutral slot"
    assert table.towers.waits == {"U": NEUTRAL}


def test_warn_mode_waits_for_no_capture_but_still_watches(make_table):
    table = watched(make_table, confirm="warn")
    table.towers.adopt([E.TowerMoved("N", 2)], live=True)
    assert said(table.towers.on_its_way(), table) is None and table.towers.seats_awaited() == {2}
    tray(table, TowerPlaced("O", 2))  # O moved without a capture
    assert table.towers.alarm is not None and table.towers.alarm.expected == NEUTRAL


def test_an_alarm_an_admin_accepts_stays_quiet_until_the_tower_changes_hands(make_table):
    table = watched(make_table)
    tray(table, TowerPlaced("O", 2))
    assert table.towers.alarm is not None
    assert table.towers.accept_alarm("clear-alarm") == {"cleared": True}
    assert [e.payload for e in table.journal.entries()] == [
        {"kind": "clear-alarm", "tower": "O", "slot": 2}]
    tray(table, TowerRemoved("O", 2))
    tray(table, TowerPlaced("O", 2))  # back where it was accepted: no alarm
    assert table.towers.alarm is None
    table.towers.adopt([E.TowerMoved("O", 0)], live=True)  # a capture ends the acceptance
    assert table.towers.get_status()["accepted"] == {}


def test_a_capture_to_the_slot_where_the_tray_already_sees_the_tower_is_not_awaited(make_table):
    table = watched(make_table)
    tray(table, TowerRemoved("N", 0))  # N is carried to South before its capture is declared
    tray(table, TowerPlaced("N", 2))
    table.towers.adopt([E.TowerMoved("N", 2)], live=True)
    assert table.towers.seats_awaited() == set() and said(table.towers.on_its_way(), table) is None
    assert "N" not in table.towers.get_status()["waits"]
