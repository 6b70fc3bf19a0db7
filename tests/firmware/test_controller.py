"""The controller's `Table` interface: requests that do not fit are refused with a
reason (and the right status), and change nothing."""

from __future__ import annotations

import pytest

from firmware.api import requests as api
from firmware.errors import Rejected
from firmware.sim.testbed import SimTable


@pytest.fixture
def table(tmp_path, mock_factory):
    t = SimTable(tmp_path, "power", seed=2, factory=mock_factory)
    yield t
    t.stop()


def refused(table, request):
    before_seq, before = table.journal_seq, table.state()
    with pytest.raises(Rejected) as err:
        table.submit(request)
    assert table.journal_seq == before_seq
    assert table.state() == before
    return err.value


def test_a_new_table_waits_for_the_towers_then_the_dealer_cards_of_every_seat(table):
    st = table.state()
    if st["waiting"]["kind"] == "tower":  # until the tray has seen them on the neutral slot
        assert st["waiting"]["slot"] == "neutral"
        st = table.wait_for(lambda st: st["waiting"]["kind"] != "tower")
    assert st["waiting"]["kind"] == "dealer-cards" and st["waiting"]["missing"] == [0, 1, 2, 3]
    assert st["hand_counts"] == [0, 0, 0, 0] and st["names"] == ["North", "East", "South", "West"]
    err = refused(table, api.Reveal("R5"))
    assert err.status == 422 and err.field == "seat"
    assert table.submit(api.Reveal("R5", 0)) == {"missing": [1, 2, 3], "step": 0}


def test_requests_that_do_not_fit_are_refused_with_a_reason(table):
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    seat = st["waiting"]["seat"]
    other = (seat + 1) % 4
    cases = [
        (api.Play(other, "R1"), 409, "refusal.not_your_turn.you", {"seat": other, "to_act": seat}),
        (api.Play(seat, "W+4", {"color": "blue", "target": other}), 422, "refusal.no_target", {}),
        (api.Play(seat, f"{st['colour']}T2", {"towers": ("U",)}), 422, "refusal.towers",
         {"count": 2}),
        (api.Hands(seat, ("R1",)), 422, "refusal.hand_entry_not_now", {}),
        (api.Decide(seat, "pass"), 422, "refusal.pass_not_now", {}),
        (api.Decide(seat, "guilty"), 422, "refusal.verdict_not_now", {}),
        (api.Reveal("R1"), 409, "refused.no_reveal", {}),
        (api.Catch(seat, other), 422, "refusal.no_catch", {"seat": other}),
        (api.CallUno(seat), 422, "refused.nothing_to_call", {"seat": seat}),
        (api.Play(9, "R1"), 404, "refused.no_seat", {"value": 10}),  # as the screen counts
        (api.Admin("resume", {}), 409, "refused.nothing_to_resume", {}),
        (api.Admin("override", {"kind": "clear-alarm"}), 409, "refused.no_alarm", {}),
        (api.Admin("override", {"kind": "tower-seen", "tower": "U", "seat": 1}), 409,
         "refused.no_tower_wait", {"tower": "U", "slot": 1}),
        (api.Admin("new-match", {"edition": "classic", "seats": 6}), 422, "refused.buttons",
         {"seats": 6, "buttons": 4}),
        (api.Admin("new-match", {"edition": "power", "seats": 4,
                                 "options": {"no_such_rule": 1}}), 422, "refused.option",
         {"option": "no_such_rule"}),
    ]
    for request, status, key, values in cases:
        err = refused(table, request)
        assert (err.status, err.key) == (status, key), (request, err.key, err.values)
        assert values.items() <= err.values.items(), (request, err.values)


def test_paused_table_refuses_everything_but_resume(table):
    table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    table.submit(api.Admin("pause", {"reason": "pizza"}))
    err = refused(table, api.Admin("pause", {}))
    assert err.key == "refused.already_paused"
    err = refused(table, api.Challenge(0))
    assert (err.status, err.key) == (409, "refused.waits")
    assert err.values["message"].reason == "pizza"
    table.submit(api.Admin("resume", {}))
    assert table.state()["waiting"]["kind"] == "turn"


def test_new_match_starts_over_in_the_journal(table):
    table.play_until(lambda st: st["waiting"]["kind"] == "turn")
    result = table.submit(api.Admin("new-match", {"edition": "extreme", "seats": 3,
                                                  "names": ["A", "B", "C"]}))
    st = table.state()
    assert result == {"match": 2} and st["edition"] == "extreme" and st["seats"] == 3
    assert st["names"] == ["A", "B", "C"] and st["step"] == 0
    assert st["waiting"]["kind"] == "dealer-cards"


def test_bots_leave_a_human_seat_to_the_person_sitting_there(tmp_path, mock_factory):
    import asyncio
    import time

    table = SimTable(tmp_path / "h", "classic", seed=3, factory=mock_factory)
    try:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        human = st["waiting"]["seat"]
        bots = table.bots
        bots.human_seats = frozenset({human})
        task = table.call(lambda: table.daemon.loop.spawn(bots.run()))
        time.sleep(0.3)
        assert table.state()["step"] == st["step"]  # nobody plays for the person
        table.world.seats_sim.press_launcher()  # the person draws
        later = table.wait_for(lambda s: s["step"] > st["step"] + 2
                               and s["waiting"].get("seat") == human)
        assert later["waiting"]["kind"] in ("turn", "press", "hand")
        actors = {e["action"].get("seat") for e in table.events if e.get("kind") == "action"
                  and e["step"] > st["step"] + 1}
        assert human not in actors or later["waiting"]["kind"] == "hand"
    finally:
        async def cancel() -> None:
            task.cancel()
            await asyncio.sleep(0)
        table.on_loop(cancel)
        table.stop()
