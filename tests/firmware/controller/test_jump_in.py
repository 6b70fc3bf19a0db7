"""jump_in at the table, on its own: the first declaration the table receives wins, in
journal order; the same card declared by another seat right after is refused with a
reason naming both seats, and nothing is journaled for it."""

from __future__ import annotations

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.errors import Rejected


@pytest.fixture
def table(make_table):
    state = U.position("classic", counts=[5, 5, 5, 5], discard="R5", turn=0, mode="table")
    t = make_table(state, "journal_watch", "seats", "requests", seats=4)
    t.names = ["North", "East", "South", "West"]
    return t


def actions(table):
    return [e.payload for e in table.journal.entries() if e.kind == "action"]


def test_a_second_seat_with_the_same_card_right_after_a_jump_in_is_refused(table):
    table.requests.submit(api.Play(2, "R5", {}))  # South is not to act: a jump-in
    assert table.accepted == [U.Play(2, U.parse_card("R5"))]
    with pytest.raises(Rejected) as err:
        table.requests.submit(api.Play(1, "R5", {}))
    assert err.value.status == 409
    assert (err.value.key, err.value.values) == ("refused.jump_in_late", {"seat": 1, "first": 2})
    assert len(actions(table)) == 1


def test_after_anything_else_happened_the_same_card_goes_to_the_engine_again(table):
    table.requests.submit(api.Play(2, "R5", {}))
    table.step += 1  # another action was journaled since
    table.requests.submit(api.Play(1, "R5", {}))
    table.requests.submit(api.Play(3, "R6", {}))  # another card is the engine's to judge
    assert [a.seat for a in table.accepted] == [2, 1, 3]


def test_a_play_by_the_seat_to_act_is_no_jump_in(table):
    table.requests.submit(api.Play(0, "R5", {}))
    table.requests.submit(api.Play(1, "R5", {}))  # (the engine judges it: not the table)
    assert [a.seat for a in table.accepted] == [0, 1]


def test_the_seat_to_act_is_read_before_the_table_takes_the_play(table, monkeypatch):
    """The engine's apply changes the state it is given: a table that adopted the play in
    place must still see that North was to act, so East's play after is no late jump-in."""
    table.state = U.position("classic", counts=[5, 5, 5, 5], discard="R4", turn=0,
                             mode="table")  # both R5 unseen: each seat may lay one

    def accept_in_place(action, *, by=None):
        table.state, fx = U.apply(table.state, action)
        table.accepted.append(action)
        return fx

    monkeypatch.setattr(table, "accept", accept_in_place)
    table.requests.submit(api.Play(0, "R5", {}))
    table.requests.submit(api.Play(1, "R5", {}))
    assert [a.seat for a in table.accepted] == [0, 1]
