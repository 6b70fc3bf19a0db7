"""Cards stuck together at the real table (the daemon on the twin): the hand the table
counts is the hand the player holds, and the screen says the cards were stuck."""

from __future__ import annotations

import pytest

from firmware.sim.testbed import SimTable


@pytest.fixture
def table_factory(tmp_path, mock_factory):
    tables: list[SimTable] = []

    def make(variant: str) -> SimTable:
        table = SimTable(tmp_path / f"t{len(tables)}", variant, factory=mock_factory)
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.stop()


def stuck_events(table):
    return [e for e in table.events if e.get("kind") == "stuck_cards"]


def test_a_press_that_ejects_two_stuck_cards_counts_both(table_factory):
    table = table_factory("attack")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "press")
    seat = st["waiting"]["seat"]
    before = len(table.world.hands[seat])
    sim = table.world.launcher_sim
    sim.inject_stuck_cards(2)
    for _ in range(10):  # the measured launcher ejects on some presses only
        table.world.seats_sim.press_launcher()
        st = table.settle()
        if stuck_events(table):
            break
    [event] = stuck_events(table)
    assert event["seat"] == seat and event["count"] == 1
    assert "stuck" in event["message"]
    # the table's count is the real hand, for the rest of the round
    assert st["hand_counts"][seat] == len(table.world.hands[seat]) > before + 1
    assert table.world.check(st) == []
    results = [e.payload for e in table.controller.journal.entries() if e.kind == "result"]
    assert results[-1]["stuck"] == 1


def test_a_deal_of_one_that_brings_a_stuck_card_stops_for_the_extra_card(table_factory):
    table = table_factory("classic")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    seat = st["waiting"]["seat"]
    before = len(table.world.hands[seat])
    table.world.launcher_sim.inject_stuck_cards(2)
    table.world.seats_sim.press_launcher()  # draws one: two come out, stuck together
    st = table.settle()
    assert st["waiting"]["kind"] == "extra-cards" and st["waiting"]["count"] == 1
    assert len(table.world.hands[seat]) == before + 2
    assert [e["count"] for e in stuck_events(table)] == [1]
