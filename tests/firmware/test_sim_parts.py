"""The simulated players' parts on their own, without a daemon: the world following the
table (`follow`), the crash soak's kill hook (`kill_hook`), the log (`Narrator`) and
the HTTP client (`api_client`) against the real API server."""

from __future__ import annotations

import io
from types import MappingProxyType, SimpleNamespace

import pytest
from test_api import with_api

from firmware.api import requests as api
from firmware.errors import Rejected
from firmware.sim.api_client import ApiClient
from firmware.sim.follow import catch_up, follow, follower
from firmware.sim.kill_hook import KillHook, request_kind
from firmware.sim.players import Narrator

# -- the world follows the table -------------------------------------------------------


def test_the_cards_an_ejection_puts_out_land_in_the_seats_hand(world):
    hw = world.hardware()
    try:
        listen = follower(world)  # as `unotable run` on the twin registers it
        listen({"kind": "ejecting", "seat": 1, "job": "deal", "intent": 1})
        assert world.ejection == 1
        assert hw.launcher.deal(3, seat=1).counted == 3
        follow(world, {"kind": "ejected", "seat": 1, "job": "deal", "counted": 3})
    finally:
        hw.close()
    assert len(world.hands[1]) == 3 and world.received[1] == world.hands[1]
    assert world.hands[0] == [] and world.ejection is None


def test_events_that_move_no_card_leave_the_world_alone(world):
    before = world.snapshot()
    for event in ({"kind": "tower_seen", "tower": "U", "slot": 1}, {"kind": "paused"}, {}):
        follow(world, event)
    assert world.snapshot() == before


def declare_r5_at_step_7(world):
    """Seat 0 lays R5 and is about to declare it when the daemon is killed."""
    world.hands = [["R5", "G1"], ["B2"]]
    world.discard = ["R3"]
    with world.change():
        world.set_pending({"step": 7, "undo": [[0, "R5"]]})
        world.lay(0, ["R5"])


def test_after_a_restart_a_declaration_the_referee_never_took_goes_back_into_the_hand(world):
    declare_r5_at_step_7(world)
    catch_up(world, 7, ejecting=False)  # the referee is still at step 7: not taken
    assert sorted(world.hands[0]) == ["G1", "R5"] and world.discard == ["R3"]
    assert world.pending is None


def test_after_a_restart_a_declaration_the_referee_took_stays_on_the_pile(world):
    declare_r5_at_step_7(world)
    catch_up(world, 8, ejecting=False)
    assert world.hands[0] == ["G1"] and world.discard == ["R3", "R5"]
    assert world.pending is None


def test_after_a_restart_a_first_card_turned_goes_aside_again(world):
    world.discard = ["G7"]
    world.set_pending({"step": 2, "aside": "G7"})
    catch_up(world, 2, ejecting=False)
    assert world.discard == [] and world.aside == ["G7"]


def test_an_ejection_the_world_never_heard_end_ends_only_when_nothing_ejects(world):
    world.ejection_started(0, "deal")
    catch_up(world, 3, ejecting=True)  # the referee still runs or recovers it
    assert world.ejection == 0
    catch_up(world, 3, ejecting=False)
    assert world.ejection is None and world.received[0] == []


# -- the kill hook ---------------------------------------------------------------------


@pytest.mark.parametrize(("request_", "kind"), [
    (api.Play(0, "R5"), "play"),
    (api.Reveal("G7"), "reveal-first"),
    (api.Reveal("G7", seat=1), "reveal-dealer"),
    (api.Admin("resume"), "admin-resume"),
    (api.Admin("override", MappingProxyType({"kind": "cards-out", "count": 1})),
     "override-cards-out"),
])
def test_requests_are_named_by_their_api_path(request_, kind):
    assert request_kind(request_) == kind


def test_the_hook_kills_right_after_the_nth_answer_of_its_kind_having_noted_the_table(world):
    killed = []
    table = {"step": 4, "hands": [2, 3]}
    hook = KillHook(world, ("play", 2), table=lambda: table, step=lambda: 4,
                    kill=lambda: killed.append(True))
    hook.answered(api.CallUno(0))  # another kind: not counted
    hook.answered(api.Play(0, "R5"))
    assert killed == [] and "answered" not in world.notes
    hook.answered(api.Play(1, "R6"))
    assert killed == [True]
    assert world.notes["answered"] == {"request": "play", "step": 4, "table": table}


def test_without_kill_after_nothing_is_noted_or_killed(world):
    hook = KillHook(world, None, table=dict, step=lambda: 0,
                    kill=lambda: pytest.fail("killed without kill_after"))
    hook.answered(api.Play(0, "R5"))
    assert world.notes == {}


def test_a_restart_that_brings_the_table_back_checks_out(world):
    world.notes["answered"] = {"request": "play", "step": 4, "table": {"step": 4}}
    KillHook(world, None, table=lambda: {"step": 4}, step=lambda: 4).check_answered()
    assert world.notes == {"answers_checked": 1} and world.agree


def test_a_restart_that_lost_an_answered_request_is_counted_and_named(world):
    world.notes["answered"] = {"request": "play", "step": 4, "table": {"step": 4, "hands": [1]}}
    KillHook(world, None, table=lambda: {"step": 3, "hands": [1]}, step=lambda: 3).check_answered()
    assert world.notes == {"answers_checked": 1, "answers_lost": 1} and not world.agree
    assert "play was answered before a kill" in world.mismatches[-1]
    assert world.mismatches[-1].endswith("the table's step")


# -- the log ---------------------------------------------------------------------------


def test_the_log_tells_ejections_and_actions_by_the_players_names():
    out = io.StringIO()
    narrator = Narrator(["Ann", "Bob"], SimpleNamespace(step=3), out)
    narrator.tell({"kind": "ejected", "job": "deal", "counted": 2, "seat": 1})
    narrator.tell({"kind": "ejecting", "seat": 1, "job": "deal"})  # nothing worth a line
    narrator.tell({"kind": "action", "action": {"type": "call_uno", "seat": 0}, "effects": []})
    assert out.getvalue() == "      dealt: 2 cards to Bob\n[3] Ann calls UNO\n"


def test_a_log_with_nowhere_to_write_stays_quiet():
    Narrator(["Ann"], SimpleNamespace(step=0), None).tell(
        {"kind": "new_match", "edition": "classic", "seats": 1, "names": ["Ann"]})


# -- talking HTTP ----------------------------------------------------------------------


def test_the_client_posts_as_a_screen_and_reads_the_answer_or_the_refusal():
    async def test(session, table, server):
        client = ApiClient()
        try:
            answer = await client.post(server.url, api.Play(0, "R7"))
            with pytest.raises(Rejected) as err:
                await client.post(server.url, api.CallUno(9))
        finally:
            await client.close()
        assert answer == {"next": 1} and table.log == [api.Play(0, "R7")]
        assert err.value.status == 404 and err.value.field == "seat"
        assert (err.value.key, err.value.values) == ("refused.no_seat", {"value": 10, "last": 3})

    with_api(test)
