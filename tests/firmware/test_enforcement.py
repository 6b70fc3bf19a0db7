"""The hardware enforces the rules (issue 4, point 2): each rule on the simulated table.

Every test runs the real daemon and controller on the twin (`firmware.sim.testbed`),
brings the seated bots to the situation, then acts like a person would: presses a
button, moves a tower, empties the hopper, jams the launcher.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from firmware.api import requests as api
from firmware.errors import Rejected
from firmware.sim.testbed import SimTable
from tests.firmware.conftest import post


@pytest.fixture
def table_factory(tmp_path, mock_factory):
    tables: list[SimTable] = []

    def make(variant: str = "classic", **kw) -> SimTable:
        table = SimTable(tmp_path / f"t{len(tables)}", variant, factory=mock_factory, **kw)
        tables.append(table)
        return table

    yield make
    for table in tables:
        table.stop()


def kinds(events, kind):
    return [e for e in events if e.get("kind") == kind]


def journaled_actions(table):
    return [e.payload for e in table.controller.journal.entries() if e.kind == "action"]


def waiting(kind, **match):
    def predicate(st):
        w = st["waiting"]
        return w["kind"] == kind and all(w.get(k) == v for k, v in match.items())
    return predicate


# ---------------------------------------------------------------- the launcher button
def test_launcher_fires_for_the_seat_that_owes_as_often_as_it_owes(table_factory):
    table = table_factory("attack")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "press"
                          and st["waiting"]["presses"] == 2)
    seat = st["waiting"]["seat"]
    before = [len(h) for h in table.world.hands]
    for left in (1, 0):
        table.world.seats_sim.press_launcher()
        st = table.settle()
        # the servo faces the hit seat, then the next player
        assert table.world.launcher_sim.aimed_seat() == st["waiting"]["seat"]
        if left:
            assert st["waiting"] == {**st["waiting"], "kind": "press", "seat": seat,
                                     "presses": left}
    assert not (st["waiting"]["kind"] == "press" and st["waiting"]["seat"] == seat)
    presses = [a for a in journaled_actions(table) if a["type"] == "press"][-2:]
    assert presses == [{"type": "press", "seat": seat}] * 2
    after = [len(h) for h in table.world.hands]
    ejected = sum(e["counted"] for e in kinds(table.events, "ejected")[-2:])
    assert after[seat] - before[seat] == ejected
    assert [a - b for i, (a, b) in enumerate(zip(after, before, strict=True)) if i != seat] == [0] * 3
    assert table.world.check(st) == []


def test_launcher_button_does_nothing_when_nobody_may_press(table_factory):
    table = table_factory("attack")
    table.play_until(waiting("turn"))
    table.submit(api.Admin("pause", {"reason": "pizza"}))
    seq, hopper = table.journal_seq, len(table.world.launcher_sim.stack)
    table.world.seats_sim.press_launcher()
    st = table.settle()
    refused = kinds(table.events, "refused")[-1]
    assert (refused["what"], refused["key"]) == ("launcher", "refused.waits")
    assert refused["values"]["message"]["reason"] == "pizza"  # the wait, as the state shows it
    assert table.call(lambda: table.controller.hw.panel.get_status()["buzzer"]) == "click"
    assert table.journal_seq == seq and len(table.world.launcher_sim.stack) == hopper
    assert st["waiting"]["kind"] == "paused"


def test_dispenser_deals_exactly_what_the_referee_says(table_factory):
    table = table_factory("classic")
    table.play_until(lambda st: st["stats"]["rounds"] >= 2)
    owed = [(f["seat"], f["count"]) for e in kinds(table.events, "action")
            for f in e["effects"] if f["type"] == "dispense"]
    dealt = [(e["seat"], e["counted"]) for e in kinds(table.events, "ejected")
             if e["job"] == "deal"]
    assert len(owed) > 28 and owed == dealt
    assert table.world.agree, table.world.mismatches


# ---------------------------------------------------------------- towers
def test_protected_seat_gets_nothing_and_the_table_names_the_tower(table_factory):
    table = table_factory("power", seed=2)
    st = table.settle()
    while not kinds(table.events, "protected"):
        before = st
        st = table.bot_step()
    protected = kinds(table.events, "protected")[-1]
    seat, tower = protected["seat"], protected["tower"]
    assert f"tower {tower} protects {st['names'][seat]} from" in protected["message"]
    assert st["towers"][tower] == seat
    assert st["hand_counts"][seat] == before["hand_counts"][seat]
    play = [e for e in kinds(table.events, "action") if any(
        f["type"] == "protection_used" for f in e["effects"])][-1]
    assert not [f for f in play["effects"] if f["type"] in ("dispense", "player_skipped")]


def test_capture_is_announced_and_the_next_turn_waits_for_the_tray(table_factory):
    table = table_factory("power")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "tower"
                          and st["waiting"]["seat"] is not None)
    tower, seat = st["waiting"]["tower"], st["waiting"]["seat"]
    assert kinds(table.events, "tower_capture")[-1]["message"] == f"move tower {tower} to {st['names'][seat]}"
    assert table.call(lambda: table.controller.hw.panel.get_status()["seats"][seat]["light"]) == "blink"
    assert st["towers"][tower] == seat  # ownership moved with the card
    seq = table.journal_seq
    with pytest.raises(Rejected) as err:
        table.submit(api.Challenge(0))
    assert (err.value.status, err.value.key) == (409, "refused.waits")
    waits = err.value.values["message"]
    assert (waits.kind, waits.tower, waits.slot) == ("tower", tower, seat)
    table.world.seats_sim.press_launcher()
    table.settle()
    refused = kinds(table.events, "refused")[-1]
    assert refused["key"] == "refused.waits" and refused["values"]["message"]["tower"] == tower
    assert table.journal_seq == seq
    table.world.move_tower(tower, seat)
    st = table.wait_for(lambda st: st["waiting"]["kind"] != "tower" or st["waiting"]["tower"] != tower)
    assert kinds(table.events, "tower_seen")[-1]["tower"] == tower
    assert st["towers_seen"][tower] == seat


def test_warn_mode_does_not_wait_for_the_tray(table_factory):
    table = table_factory("power", tower_confirm="warn")
    table.play_until(lambda st: kinds(table.events, "tower_capture"))
    st = table.settle()
    assert st["waiting"]["kind"] != "tower"


def test_admin_confirms_a_tower_for_a_broken_reader(table_factory):
    table = table_factory("power")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "tower"
                          and st["waiting"]["seat"] is not None)
    tower, seat = st["waiting"]["tower"], st["waiting"]["seat"]
    with pytest.raises(Rejected) as err:
        table.submit(api.Admin("override", {"kind": "tower-seen", "tower": tower,
                                            "seat": (seat + 1) % 4}))
    assert (err.value.key, err.value.values) == (
        "refused.no_tower_wait", {"tower": tower, "slot": (seat + 1) % 4})
    table.submit(api.Admin("override", {"kind": "tower-seen", "tower": tower, "seat": seat}))
    st = table.settle()
    assert st["waiting"].get("tower") != tower
    assert kinds(table.events, "tower_seen")[-1]["by"] == "admin"


def test_tower_moved_without_capture_raises_an_alarm_and_changes_nothing(table_factory):
    table = table_factory("power")
    st = table.play_until(waiting("turn"))
    owners = dict(st["towers"])
    table.world.move_tower("U", 2)
    st = table.wait_for(waiting("alarm"))
    assert st["towers"] == owners and st["alarm"]["expected"] == "neutral"
    assert "tower U moved to South without a capture" in st["waiting"]["message"]
    assert table.call(lambda: table.controller.hw.panel.get_status()["buzzer"]) == "alarm"
    with pytest.raises(Rejected):
        table.submit(api.Challenge(1))
    table.world.move_tower("U", "neutral")
    st = table.wait_for(lambda st: st["waiting"]["kind"] != "alarm")
    assert st["towers"] == owners and st["alarm"] is None


# ---------------------------------------------------------------- UNO and catch buttons
CATCH = {"forgotten_uno": "catch"}  # seed 000's catch window instead of classic's own rule


def test_classic_forgotten_uno_draws_two_with_the_play(table_factory):
    # classic's default: the call belongs before the card, so the table applies the
    # penalty itself: the play that leaves one card uncalled deals that seat two at once
    table = table_factory("classic", seed=3, forget_uno=0.5)
    table.play_until(lambda st: any(f["type"] == "uno_penalty" for e in kinds(
        table.events, "action") for f in e["effects"]))
    st = table.settle()
    action = next(e for e in kinds(table.events, "action")
                  if any(f["type"] == "uno_penalty" for f in e["effects"]))
    seat = action["action"]["seat"]
    assert action["action"]["type"] == "play" and not action["action"].get("uno")
    assert {"type": "uno_penalty", "seat": seat, "catcher": -1} in action["effects"]
    assert {"type": "dispense", "seat": seat, "count": 2} in action["effects"]
    assert st["uno_exposed"] is None
    assert table.world.agree, table.world.mismatches  # the dispenser dealt the two


def test_classic_late_call_or_catch_press_is_refused(table_factory):
    table = table_factory("classic", seed=3, forget_uno=0.5)
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                          and 1 in st["hand_counts"]
                          and st["hand_counts"].index(1) != st["waiting"]["seat"])
    one = st["hand_counts"].index(1)
    other = next(s for s in range(4) if s != one and st["hand_counts"][s] != 2)
    seq, counts = table.journal_seq, st["hand_counts"]
    for seat in (one, other):  # the late call, then a would-be catch
        table.world.seats_sim.press_seat(seat)
        st = table.settle()
        refused = kinds(table.events, "refused")[-1]
        assert refused["what"] == f"{st['names'][seat]}'s button"
        assert refused["key"] == "refused.nothing_to_call_at_play"  # says when UNO is called
        assert table.call(lambda: table.controller.hw.panel.get_status()["buzzer"]) == "click"
    assert table.journal_seq == seq and st["hand_counts"] == counts
    with pytest.raises(Rejected) as err:
        table.submit(api.Catch(other, one))
    assert err.value.key == "refusal.uno_at_play"


def test_another_seats_button_catches_a_forgotten_uno(table_factory):
    table = table_factory("classic", seed=3, forget_uno=0.5, options=CATCH)
    st = table.play_until(lambda st: st["uno_exposed"] is not None)
    exposed = st["uno_exposed"]
    catcher = (exposed + 1) % 4
    before = len(table.world.hands[exposed])
    table.world.seats_sim.press_seat(catcher)
    st = table.settle()
    assert st["uno_exposed"] is None
    assert len(table.world.hands[exposed]) == before + 2 == st["hand_counts"][exposed]
    assert journaled_actions(table)[-1] == {"type": "catch", "seat": catcher, "target": exposed}


def test_own_button_calls_uno_late_and_then_nobody_can_catch(table_factory):
    table = table_factory("classic", seed=3, forget_uno=0.5, options=CATCH)
    st = table.play_until(lambda st: st["uno_exposed"] is not None)
    exposed = st["uno_exposed"]
    table.world.seats_sim.press_seat(exposed)
    st = table.settle()
    assert st["uno_exposed"] is None and st["hand_counts"][exposed] == 1
    assert journaled_actions(table)[-1] == {"type": "call_uno", "seat": exposed}
    seq = table.journal_seq
    other = next(s for s in range(4) if s != exposed and st["hand_counts"][s] != 2)
    table.world.seats_sim.press_seat(other)
    table.settle()
    assert kinds(table.events, "refused")[-1]["key"] == "refused.nothing_to_call"
    assert table.journal_seq == seq


def test_catch_window_closes_when_the_next_player_acts(table_factory):
    table = table_factory("classic", seed=3, forget_uno=0.5, options=CATCH)
    st = table.play_until(lambda st: st["uno_exposed"] is not None)
    exposed = st["uno_exposed"]
    st = table.bot_act()  # the next player starts a turn before anyone catches
    assert st["uno_exposed"] is None
    count = st["hand_counts"][exposed]
    table.world.seats_sim.press_seat((exposed + 1) % 4)
    st = table.settle()
    assert st["hand_counts"][exposed] == count
    assert kinds(table.events, "refused")


def test_button_before_the_second_to_last_card_calls_uno_with_it(table_factory):
    table = table_factory("classic", seed=3, forget_uno=0.5)
    st = table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                          and st["hand_counts"][st["waiting"]["seat"]] == 2)
    seat = st["waiting"]["seat"]
    table.world.seats_sim.press_seat(seat)
    st = table.settle()
    assert st["uno_armed"] == [seat]
    st = table.bot_act()
    last = next(e for e in reversed(kinds(table.events, "action"))
                if e["action"]["type"] == "play")
    assert last["action"]["seat"] == seat and last["action"]["uno"] is True
    assert {"type": "uno_called", "seat": seat} in last["effects"]
    assert st["uno_exposed"] is None and st["uno_armed"] == []


# ---------------------------------------------------------------- launcher trouble
def test_empty_hopper_pauses_and_asks_for_a_reload(table_factory):
    table = table_factory("classic")
    st = table.play_until(waiting("turn"))
    seat = st["waiting"]["seat"]
    cards = table.world.launcher_sim.empty_hopper()
    table.world.seats_sim.press_launcher()
    st = table.settle()
    assert st["waiting"]["kind"] == "reload" and "reload" in st["waiting"]["message"]
    with pytest.raises(Rejected):
        table.submit(api.Challenge(seat))
    before = len(table.world.hands[seat])
    table.world.launcher_sim.load(cards)
    table.submit(api.Admin("resume", {}))
    st = table.settle()
    assert len(table.world.hands[seat]) == before + 1
    assert table.world.check(table.play_until(lambda st: st["waiting"]["kind"] == "turn")) == []


def test_jam_pauses_until_cleared_and_resumed(table_factory):
    table = table_factory("classic")
    st = table.play_until(waiting("turn"))
    seat = st["waiting"]["seat"]
    before = len(table.world.hands[seat])
    table.world.launcher_sim.inject_jam(clears_on_reverse=False)
    table.world.seats_sim.press_launcher()
    st = table.settle()
    assert st["waiting"]["kind"] == "jam"
    assert table.call(table.controller.health)["ok"] is False
    table.submit(api.Admin("resume", {}))  # not cleared: jams again
    assert table.settle()["waiting"]["kind"] == "jam"
    table.world.launcher_sim.clear_jam()
    table.submit(api.Admin("resume", {}))
    st = table.settle()
    assert st["waiting"]["kind"] != "jam" and len(table.world.hands[seat]) == before + 1
    assert table.call(table.controller.health)["ok"] is True


def test_a_double_feed_stops_the_game_until_the_extra_card_is_back(table_factory):
    table = table_factory("classic")
    st = table.play_until(waiting("turn"))
    seat = st["waiting"]["seat"]
    before = len(table.world.hands[seat])
    table.world.launcher_sim.inject_double_feed()
    table.world.seats_sim.press_launcher()  # draws one: two come out
    st = table.settle()
    assert st["waiting"]["kind"] == "extra-cards" and st["waiting"]["count"] == 1
    assert len(table.world.hands[seat]) == before + 2 and st["hand_counts"][seat] == before + 1
    with pytest.raises(Rejected):
        table.submit(api.Challenge(seat))
    table.bot_step()  # the player puts the extra card back and resumes
    st = table.play_until(waiting("turn"))
    assert table.world.check(st) == []


# ---------------------------------------------------------------- bad requests over HTTP
@pytest.mark.parametrize("body_for, status, key", [
    (lambda seat, st: {"seat": (seat + 1) % 4, "card": "W", "choices": {"color": "red"}},
     409, "refusal.not_your_turn.you"),
    (lambda seat, st: {"seat": seat, "card": "W"}, 422, "refusal.wild_colour"),
    (lambda seat, st: {"seat": 7, "card": "R1"}, 404, "refused.no_seat"),
])
def test_bad_plays_are_refused_with_a_reason_and_change_nothing(table_factory, body_for,
                                                                status, key):
    table = table_factory("classic")
    st = table.play_until(waiting("turn"))
    seat = st["waiting"]["seat"]
    seq = table.journal_seq
    code, body = post(table.url, "/api/play", body_for(seat, st))
    assert (code, body["key"]) == (status, key) and body["reason"], body
    after = table.settle()
    assert table.journal_seq == seq
    assert {k: v for k, v in after.items() if k != "stats"} == \
        {k: v for k, v in st.items() if k != "stats"}


def test_launcher_turns_to_face_the_player_whose_turn_it_is(table_factory):
    table = table_factory("extreme")
    faced = set()
    st = table.play_until(waiting("turn"))
    for _ in range(12):
        seat = st["waiting"]["seat"]
        assert table.world.launcher_sim.aimed_seat() == seat
        faced.add(seat)
        step = st["step"]
        st = table.play_until(lambda s, step=step: s["waiting"]["kind"] == "turn"
                              and s["step"] > step)
    assert len(faced) >= 3


# ---------------------------------------------------------------- the loop never waits on hardware
class _HangingReader:
    """A tray reader whose serial read hangs until released (a PN532 timing out)."""

    port = "/dev/hanging"
    firmware = None

    def __init__(self):
        import threading
        self.inside, self.release = threading.Event(), threading.Event()

    def read_tags(self):
        self.inside.set()
        self.release.wait(30)
        return []

    def get_status(self):
        return {"port": self.port}

    def close(self):
        self.release.set()


def test_health_and_play_go_on_while_a_tray_reader_hangs(table_factory):
    from firmware.controller.hardware import Hardware
    from hal.tray import Tray, parse_config

    reader = _HangingReader()

    def hanging_tray(hw):
        hw.tray.close()
        return Hardware(hw.launcher, hw.panel, Tray(parse_config({}), {"neutral": reader}))

    table = table_factory("classic", wrap_hardware=hanging_tray)
    try:
        assert reader.inside.wait(10)
        with urllib.request.urlopen(table.url + "/api/health", timeout=10) as resp:
            health = json.loads(resp.read())
        assert health["tray"]["reading"] == "neutral"  # the hanging reader is named
        st = table.play_until(waiting("turn"))  # the table plays on meanwhile
        assert st["hand_counts"] == [7, 7, 7, 7]
    finally:
        reader.release.set()


def test_tower_lifted_off_the_tray_without_a_capture_raises_the_alarm(table_factory):
    table = table_factory("power")
    st = table.play_until(waiting("turn"))
    owners, seq = dict(st["towers"]), table.journal_seq
    table.world.tray_sim.lift("N")  # someone takes the N tower off the neutral slot
    st = table.wait_for(waiting("alarm"))
    assert st["alarm"]["tower"] == "N" and st["alarm"]["slot"] is None
    assert "tower N was lifted off the neutral slot without a capture" in st["waiting"]["message"]
    assert table.call(lambda: table.controller.hw.panel.get_status()["buzzer"]) == "alarm"
    with pytest.raises(Rejected) as err:
        table.submit(api.Challenge(1))
    assert (err.value.status, err.value.key) == (409, "refused.waits")
    assert (err.value.values["message"].kind, err.value.values["message"].tower) == ("alarm", "N")
    table.world.tray_sim.place("N", "neutral")
    st = table.wait_for(lambda st: st["waiting"]["kind"] != "alarm")
    assert st["towers"] == owners and st["alarm"] is None and table.journal_seq == seq


def test_a_tower_lifted_to_carry_it_to_its_captor_raises_no_alarm(table_factory):
    table = table_factory("power")
    st = table.play_until(lambda st: st["waiting"]["kind"] == "tower"
                          and st["waiting"]["seat"] is not None)
    tower, seat = st["waiting"]["tower"], st["waiting"]["seat"]
    table.world.tray_sim.lift(tower)  # in the hand, on its way to the new owner
    st = table.wait_for(lambda st: st["towers_seen"][tower] is None)
    assert st["waiting"]["kind"] == "tower" and st["alarm"] is None
    assert not kinds(table.events, "alarm")
    table.world.move_tower(tower, seat)
    st = table.wait_for(lambda st: st["waiting"].get("tower") != tower)
    assert st["alarm"] is None and kinds(table.events, "tower_seen")[-1]["tower"] == tower


def test_the_alarm_stands_until_every_moved_tower_is_back(table_factory):
    table = table_factory("power")
    st = table.play_until(waiting("turn"))
    owners = dict(st["towers"])

    def moved(which, to, **event):
        """Move tower `which` to `to`, then wait for the table's event that says the tray
        saw it there."""
        since = len(table.events)
        table.world.move_tower(which, to)
        table.wait_for_event(lambda e: event.items() <= e.items(), since=since)
        return table.settle()

    moved("U", 2, kind="alarm", tower="U", slot=2)
    moved("N", 1, kind="alarm", tower="N", slot=1)
    st = moved("N", "neutral", kind="alarm_cleared", tower="N")  # N is back, U still is not
    assert st["waiting"]["kind"] == "alarm" and st["alarm"]["tower"] == "U"
    assert "put it back at the neutral slot" in st["waiting"]["message"]
    st = moved("U", "neutral", kind="alarm_cleared", tower="U")
    assert st["waiting"]["kind"] != "alarm"
    assert st["towers"] == owners and st["alarm"] is None
