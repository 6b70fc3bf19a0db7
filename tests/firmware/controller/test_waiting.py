"""What the table waits for, on its own over the parts it reads: something physical
comes before the engine, in a fixed order, and the gate refuses with its words."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.controller.stops import Reload
from firmware.errors import Rejected
from firmware.waits import Wait
from uno_core import effects as E


def waiting_table(make_table, state, *, edition="power"):
    return make_table(state, "journal_watch", "ejections", "towers", "admin", "requests",
                      "waits", edition=edition, seats=3)


def power(**kw):
    return U.position("power", counts=[5, 5, 5], discard="R5", turn=1, mode="table", **kw)


def test_the_seat_to_act_is_asked_when_nothing_physical_waits(make_table):
    table = waiting_table(make_table, power())
    assert table.waits.waiting() == {"kind": Wait.TURN, "seat": 1, "message": "East: your turn"}
    assert table.waits.gate() is table.state


def test_a_pause_comes_before_a_stopped_launcher_before_an_alarm_before_a_capture(
        make_table):
    table = waiting_table(make_table, power())
    table.towers.adopt([E.TowerMoved("U", 2)], live=True)
    assert table.waits.waiting()["kind"] == Wait.TOWER
    table.towers._raise_alarm("N", 0, "alarm.moved", 0)
    assert table.waits.waiting()["kind"] == Wait.ALARM
    table.ejections.blocker = Reload()
    assert table.waits.waiting()["kind"] == Wait.RELOAD
    table.admin.effect({"action": "pause", "reason": "dinner"})
    assert table.waits.waiting() == {"kind": Wait.PAUSED, "reason": "dinner",
                                     "message": "paused (dinner): resume to go on"}
    with pytest.raises(Rejected) as refused:
        table.waits.gate()
    assert refused.value.key == "refused.waits"
    assert refused.value.values["message"].to_json(table.words)["reason"] == "dinner"
    table.admin.effect({"action": "resume"})  # ends the pause, not the reload
    assert table.waits.waiting()["kind"] == Wait.RELOAD
    table.admin.effect({"action": "resume"})
    assert table.waits.waiting()["kind"] == Wait.ALARM


def test_the_owed_presses_are_counted_out(make_table):
    s = U.position("attack", counts=[5, 5, 5], discard="R5", turn=1, mode="table")
    s, _ = U.apply(s, U.Play(1, U.parse_card("RH2")))
    table = waiting_table(make_table, s, edition="attack")
    assert table.waits.waiting() == {"kind": Wait.PRESS, "seat": 2, "presses": 2,
                                     "until_cards": False,
                                     "message": "South: press the launcher 2 more time(s)"}


def test_choosing_the_dealer_names_the_seats_still_to_turn_a_card(make_table):
    s = U.new_match("classic", 3, mode=U.TABLE)
    table = waiting_table(make_table, s, edition="classic")
    table.requests.replay_dealer_card({"seat": 1, "card": "B7"})
    assert table.waits.waiting()["missing"] == [0, 2]
    with pytest.raises(Rejected) as refused:
        table.waits.gate()  # the chance player's turn: only a reveal may pass
    assert refused.value.key == "refused.waits"
    assert refused.value.values["message"].kind == Wait.DEALER_CARDS
    assert table.waits.gate(chance_ok=True) is s


def test_no_match_and_a_match_over_say_so(make_table):
    table = waiting_table(make_table, power())
    table.state = None
    assert table.waits.waiting()["kind"] == Wait.NEW_MATCH
    with pytest.raises(Rejected) as refused:
        table.waits.gate()
    assert refused.value.key == "refused.no_match"
