"""The controller's trust paths, each against a fault once planted in it and passed by
every other test: a tower set down at the wrong seat, a press that counted more cards
than the pile holds, a seat one past the last."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.controller.events import SeatPressed, TrayChanged
from firmware.errors import Rejected
from hal.ejection import fixed_model
from hal.tray import NEUTRAL, TowerPlaced, TowerRemoved
from uno_core import effects as E


def tray(table, event) -> None:
    table.loop.post(TrayChanged(event))
    table.loop.deliver()


def test_a_captured_tower_set_down_at_the_wrong_seat_has_not_arrived(make_table):
    s = U.position("power", counts=[5, 5, 5], discard="R5", turn=0, mode="table",
                   towers={"U": 1})
    table = make_table(s, "towers", edition="power", seats=3)
    for tower, slot in (("U", 1), ("N", NEUTRAL), ("O", NEUTRAL), ("!", NEUTRAL)):
        tray(table, TowerPlaced(tower, slot))
    table.towers.adopt([E.TowerMoved("N", 2)], live=True)  # seat 2 captured N
    tray(table, TowerRemoved("N", NEUTRAL))
    tray(table, TowerPlaced("N", 0))  # set down before seat 0, not seat 2
    wait = table.towers.on_its_way()
    assert (wait.tower, wait.slot) == ("N", 2)
    assert table.towers.seats_awaited() == {2}
    assert "tower_seen" not in table.kinds()
    tray(table, TowerRemoved("N", 0))
    tray(table, TowerPlaced("N", 2))
    assert table.towers.on_its_way() is None and table.kinds()[-1] == "tower_seen"


def test_a_double_feed_on_the_last_card_journals_a_press_the_replay_can_apply(make_table):
    # 112 cards: 1 on the discard pile, 110 in hands, 1 left in the launcher's pile
    s = U.position("attack", counts=[37, 37, 36], discard="R5", turn=1, mode="table")
    assert s.pile_count == 1
    s, fx = U.apply(s, U.Press(1))
    table = make_table(s, "ejections", edition="attack", seats=3)
    sim = table.world.launcher_sim
    sim.load(range(5))  # a card the referee does not know of sits in the hopper
    sim.inject_double_feed()
    ej = table.ejections
    ej.launcher.model = fixed_model(1)
    ej.adopt(U.Press(1), fx, s)
    assert ej.pump() is True
    table.loop.run_spawned()
    assert len(sim.cards_at(1)) == 2  # two came out of a pile of one
    [action] = [e.payload for e in table.journal.entries() if e.kind == "action"]
    replayed, _ = U.apply(s, U.action_from_dict(action))  # what a restart replays
    assert action == U.action_to_dict(U.Eject(1)) and replayed.pile_count == 0


@pytest.mark.parametrize("request_", [
    api.CallUno(3), api.Catch(3, 0), api.Catch(0, 3), api.Play(3, "R5", {}), api.Undo(3),
    api.Challenge(3),
], ids=["call", "catch by", "catch of", "play", "undo", "challenge"])
def test_seat_n_of_n_seats_is_refused_404_before_the_rules(make_table, request_):
    s = U.position("classic", counts=[5, 5, 5], discard="R5", turn=0, mode="table")
    table = make_table(s, "seats", "requests", "ejections", "undo", seats=3)
    with pytest.raises(Rejected) as refused:
        table.requests.submit(request_)
    assert (refused.value.status, refused.value.key, refused.value.values["last"]) == (
        404, "refused.no_seat", 3)
    assert table.accepted == [] and list(table.journal.entries()) == []


def test_a_spare_seat_button_is_refused_and_the_table_goes_on(make_table):
    """A match of three seats at a table wired for four: the fourth button is pressed."""
    s = U.position("classic", counts=[5, 5, 1], discard="R5", turn=0, mode="table",
                   exposed=2)
    table = make_table(s, "seats", "requests", seats=4)
    assert table.hw.panel.config.seats == 4 and s.n == 3
    table.loop.post(SeatPressed(3))
    table.loop.deliver()
    assert table.accepted == [] and table.kinds() == ["refused"]
    table.loop.post(SeatPressed(0))  # the table still hears its seats
    table.loop.deliver()
    assert table.accepted == [U.Catch(0, 2)]
