"""The card pad at the simulated table: a card tapped on the twin's pad (a simulated PN532
on a pty, read by the real driver) is the seat to act's play, journaled as the pad's;
what the pad refuses changes nothing and is said; a pad that fails is said once and
play goes on."""

from __future__ import annotations

import json
import time

import pytest

import uno_core as U
from firmware.api import requests as api
from firmware.cli import main
from firmware.sim.demo import sim_config
from firmware.sim.testbed import SimTable
from hal.sim.pad import chip_uid
from tests.firmware.pad_taps import (
    NAMES,
    Recorder,
    actions,
    number_card,
    part_status,
    refused,
    said,
    tap,
    turn,
    twin_daemon,
)


@pytest.fixture
def table(tmp_path):
    with SimTable(tmp_path, "classic", pad=True) as t:
        yield t


def test_a_tap_is_the_seat_to_acts_play_journaled_as_the_pads(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    card = number_card(table, seat, fitting=True)
    said = tap(table, table.world.pad_sim.tag_of(card))
    assert said["kind"] == "action" and said["action"] == {"type": "play", "seat": seat,
                                                          "card": card, **said["action"]}
    entry = actions(table)[-1]
    assert entry.payload["card"] == card
    assert entry.payload["by"] == {"role": "seat", "seat": seat, "via": "pad", "tags": [table.world.pad_sim.tag_of(card)]}
    assert table.state()["top"] == card
    status = table.controller.health()["pad"]
    assert status["ok"] and status["taps"] == 1


def test_a_card_held_on_the_pad_is_one_declaration(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    card = number_card(table, seat, fitting=True)
    before = len(actions(table))
    pad = table.world.pad_sim
    pad.hold(pad.tag_of(card))
    table.wait_for_event(lambda e: e.get("kind") == "action", since=len(table.events))
    # held on through many reads of the fast pace: still the one play
    deadline = table.controller.health()["pad"]["polls"] + 20
    while table.controller.health()["pad"]["polls"] < deadline:
        time.sleep(0.01)
    pad.lift()
    table.settle()
    assert len(actions(table)) == before + 1


def test_a_card_that_does_not_fit_is_refused_and_changes_nothing(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    card = number_card(table, seat, fitting=False)
    reason = refused(table, table.world.pad_sim.tag_of(card))
    assert "does not fit" in reason  # the engine's reason, as the screen and phones hear it


def test_the_pad_refuses_a_tag_it_laid_on_the_pile_this_round(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    card = number_card(table, seat, fitting=True)
    uid = table.world.pad_sim.tag_of(card)
    assert tap(table, uid)["kind"] == "action"
    table.play_until(lambda s: s["waiting"]["kind"] == "turn")
    assert refused(table, uid) == "that card is already on the pile"


def test_a_play_taken_back_leaves_the_pile_and_its_tag_plays_again(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    card = number_card(table, seat, fitting=True)
    uid = table.world.pad_sim.tag_of(card)
    assert tap(table, uid)["kind"] == "action"
    table.submit(api.Undo(seat))
    table.settle()
    again = tap(table, uid)
    assert again["kind"] == "action" and again["action"]["card"] == card


def test_the_pad_refuses_two_tags_at_once(table):
    turn(table)
    pad = table.world.pad_sim
    reason = refused(table, pad.tag_of("R1"), pad.tag_of("G2"))
    assert reason == "2 cards on the pad at once: tap one card at a time"


def test_the_pad_refuses_a_tag_it_does_not_know_naming_the_enrolment(table):
    turn(table)
    reason = refused(table, "04DEADBEEF0001")
    assert "unotable cards enroll" in reason and "04DEADBEEF0001" in reason


def test_a_chip_without_a_wild_is_refused(table):
    turn(table)
    assert "tap the wild first" in refused(table, chip_uid("R"))


def test_a_card_while_the_table_waits_for_a_press_names_whose_turn_it_is(tmp_path):
    table = SimTable(tmp_path, "attack", pad=True)
    st = table.play_until(lambda s: s["waiting"]["kind"] == "press")
    seat = st["waiting"]["seat"]
    try:
        assert refused(table, table.world.pad_sim.tag_of("R1")) == f"it is {NAMES[seat]}'s turn"
    finally:
        table.stop()


def test_a_wild_waits_for_its_colour_chip(table):
    st = turn(table)
    seat = st["waiting"]["seat"]
    pad = table.world.pad_sim
    said = tap(table, pad.tag_of("W"))
    assert said["kind"] == "pad_waits" and said["seat"] == seat
    assert part_status(table)["awaiting_chip"] == "W"
    said = tap(table, chip_uid("B"))
    assert said["kind"] == "action" and said["action"]["card"] == "W"
    assert said["action"]["colour"] == "B"
    assert actions(table)[-1].payload["by"]["via"] == "pad"


def test_a_card_that_names_a_seat_waits_for_that_seats_button(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, options={"seven_zero": True}) as table:
        st = turn(table)
        seat = st["waiting"]["seat"]
        seven = f"{table.call(lambda: table.controller.state.colour)}7"  # fits any pile
        said = tap(table, table.world.pad_sim.tag_of(seven))
        assert said["kind"] == "pad_waits" and said["wants"] == "seat"
        assert said["message"].startswith(f"{NAMES[seat]}: press the button of the seat")
        assert part_status(table)["awaiting_seat"] == seven
        other = (seat + 2) % 4
        since = len(table.events)
        table.world.seats_sim.press_seat(other)
        played = table.wait_for_event(lambda e: e.get("kind") == "action", since=since)
        assert played["action"]["card"] == seven and played["action"]["target"] == other
        assert actions(table)[-1].payload["by"] == {
            "role": "seat", "seat": seat, "via": "pad",
            "tags": [table.world.pad_sim.tag_of(seven)]}
        # the press named the target: no UNO was armed, nobody caught
        assert table.state()["uno_armed"] == []


def test_the_refusals_are_worded_in_german(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, language="de") as table:
        turn(table)
        reason = refused(table, "04DEADBEEF0001")
        assert reason.startswith("Das Lesefeld kennt diesen Aufkleber nicht")


def test_the_reader_unplugged_mid_match_is_said_once_and_play_goes_on(table):
    st = turn(table)
    pad = table.world.pad_sim
    since = len(table.events)
    pad.unplug()
    down = table.wait_for_event(lambda e: e.get("kind") == "pad", since=since)
    assert down["ok"] is False and "screen" in down["message"]
    step = st["step"]
    for _ in range(6):  # the bots play on by the API
        table.bot_step()
    assert table.state()["step"] > step
    assert [e for e in table.events[since:] if e.get("kind") == "pad"] == [down]
    pad.replug()
    up = table.wait_for_event(lambda e: e.get("kind") == "pad" and e["ok"], since=since)
    assert up["message"] == "the card pad answers again"


def test_the_pad_polls_fast_only_while_a_card_is_awaited(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        turn(table)
        assert table.controller.health()["pad"]["pace"] == "fast"
        table.play_until(lambda s: s["waiting"]["kind"] == "press")
        assert table.controller.health()["pad"]["pace"] == "idle"


def test_a_table_without_a_pad_has_no_pad_part(tmp_path):
    with SimTable(tmp_path, "classic") as table:
        assert table.controller.lookup("pad") is None
        assert "pad" not in table.controller.health()


def test_the_voice_says_the_pads_refusals_and_what_it_waits_for(tmp_path):
    speaker = Recorder()
    with SimTable(tmp_path, "classic", pad=True, speaker=speaker) as table:
        turn(table)
        tap(table, "04DEADBEEF0001")
        said(speaker, "the pad does not know this tag (04DEADBEEF0001): enrol it with "
                      "`unotable cards enroll`")
        tap(table, table.world.pad_sim.tag_of("W"))
        said(speaker, "tap a colour chip for the")


def test_a_classic_match_played_by_bots_tapping_declares_no_play_through_the_api(tmp_path):
    with SimTable(tmp_path, "classic", pad=True) as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "match-over",
                              max_steps=20000)
        plays = [e.payload for e in actions(table) if e.payload.get("type") == "play"]
        ways = [(p.get("by") or {}).get("via") for p in plays]
        assert st["stats"]["rounds"] > 1 and plays and ways == ["pad"] * len(plays)
        wilds = [p for p in plays if p["card"] in ("W", "W+4")]
        assert wilds and all(p["colour"] for p in wilds)  # each with its chip
        assert table.world.agree, table.world.mismatches
        status = part_status(table)
        assert status["refused"] == 0 and status["declared"] == len(plays)


def test_under_jump_in_a_tap_after_a_seats_own_button_is_that_seats_jump_in(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, options={"jump_in": True}) as table:
        st = turn(table)
        to_act = st["waiting"]["seat"]
        jumper = (to_act + 2) % 4
        top = st["top"]
        since = len(table.events)
        table.world.seats_sim.press_seat(jumper)
        said = table.wait_for_event(lambda e: e.get("kind") == "pad_waits", since=since)
        assert said["wants"] == "jump" and said["message"] == f"{NAMES[jumper]} jumps in: " \
            "tap the card now"
        pad = table.world.pad_sim
        played = tap(table, pad.tags_of(top)[-1])  # the top card's twin, out of turn
        assert played["kind"] == "action", played
        assert played["action"]["seat"] == jumper and played["action"]["card"] == top
        assert actions(table)[-1].payload["by"] == {"role": "seat", "seat": jumper, "via": "pad",
                                                    "tags": [pad.tags_of(top)[-1]]}


def test_a_jump_in_match_played_by_bots_tapping_agrees_with_the_world(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, options={"jump_in": True}) as table:
        table.play_until(lambda st: st["stats"]["rounds"] >= 2, max_steps=20000)
        plays = [e.payload for e in actions(table) if e.payload.get("type") == "play"]
        assert all((p.get("by") or {}).get("via") == "pad" for p in plays)
        assert any(e.get("wants") == "jump" for e in table.events)  # the bots jumped in
        assert table.world.agree, table.world.mismatches


def test_a_tap_after_the_jump_in_window_is_the_seat_to_acts(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, options={"jump_in": True}) as table:
        st = turn(table)
        to_act = st["waiting"]["seat"]
        since = len(table.events)
        table.world.seats_sim.press_seat((to_act + 2) % 4)
        table.wait_for_event(lambda e: e.get("wants") == "jump", since=since)
        table.pass_time(3.5)  # longer than the window (JUMP_WINDOW_S, 3 s)
        played = tap(table, table.world.pad_sim.tags_of(st["top"])[-1])
        assert played["kind"] == "action" and played["action"]["seat"] == to_act


@pytest.mark.parametrize("variant", tuple(U.EDITIONS))
def test_unotable_demo_pad_declares_every_play_through_the_pad(variant, capsys):
    assert main(["demo", "--pad", "--fast", "--json", "--variant", variant,
                 "--option", "jump_in=true", "--option", "seven_zero=true"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["world_agrees"] and summary["declared"]["pad"] > 0
    assert summary["declared"]["api"] == 0


def test_unotable_demo_without_the_pad_declares_every_play_by_the_api(capsys):
    assert main(["demo", "--fast", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["declared"]["pad"] == 0 and summary["declared"]["api"] > 0


def test_the_twin_of_a_config_with_a_pad_drives_a_simulated_pad(tmp_path):
    """`unotable run` with [sim] enabled and a [pad]: the twin builds its pad."""
    config = sim_config("classic", 4, 1, tmp_path / "journal.db", pad=True)
    with twin_daemon(config) as health:
        status = health()
        assert status["pad"]["cards"] == 108 and status["pad"]["chips"] == 4
