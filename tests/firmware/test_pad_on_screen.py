"""What the screen and the phones learn of the card pad from the public state: whether the
pad answers and what it waits for from which seat (``pad``), and the last plays with the
way each came in (``recent``, ``way``), read over the real API of a daemon on the twin."""

from __future__ import annotations

import uno_core as U
from firmware.api import requests as api
from firmware.sim.players import bot
from firmware.sim.testbed import SimTable
from hal.sim.pad import chip_uid
from tests.firmware.conftest import post, request
from tests.firmware.pad_taps import fits, part_status, tap
from tests.firmware.test_pad_plays import capture_all_towers, colour_now, free_tag, unseen_numbers
from uno_core.matching import free_towers


def turn(table: SimTable) -> dict:
    return table.play_until(lambda st: st["waiting"]["kind"] == "turn")


def public(table: SimTable) -> dict:
    """The state as the page reads it (GET /api/state: the strip of plays included)."""
    status, st = request(table.url, "GET", "/api/state")
    assert status == 200, st
    return st


def turn_with_a_number(table: SimTable) -> tuple[int, str]:
    """Let the bots act until the seat to act holds a number card that fits: (seat, card)."""
    for _ in range(200):
        seat = turn(table)["waiting"]["seat"]
        card = next((c for c in table.world.hands[seat]
                     if U.parse_card(c).kind == "#" and fits(table, seat, c)), None)
        if card is not None:
            return seat, card
        table.bot_step()  # nothing to lay: the bot presses the launcher for it
    raise AssertionError("no seat ever held a number card that fits")


def play_by(table: SimTable, way: str) -> tuple[int, str]:
    """The seat to act lays a number card and declares it by `way`: (seat, card)."""
    seat, card = turn_with_a_number(table)
    table.world.lay(seat, [card])
    if way == "pad":
        assert tap(table, table.world.pad_sim.tag_of(card))["kind"] == "action"
    elif way == "screen":  # the table's own screen: the owner on loopback, no token
        assert post(table.url, "/api/play", {"seat": seat, "card": card})[0] == 200
    elif way == "phone":
        table.submit(api.Play(seat, card, by=api.Who("seat", seat, "phone")))
    else:
        table.submit(api.Play(seat, card, by=bot(seat)))
    table.settle()
    return seat, card


def test_the_state_says_the_pad_waits_for_the_seat_to_acts_card_then_a_wilds_chip(tmp_path):
    with SimTable(tmp_path, "classic", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        assert public(table)["pad"] == {"ok": True, "wants": "card", "seat": seat, "card": None, "left": None}
        said = tap(table, table.world.pad_sim.tag_of("W"))
        assert said["kind"] == "pad_waits"
        assert public(table)["pad"] == {"ok": True, "wants": "colour", "seat": seat, "card": "W", "left": None}
        assert tap(table, chip_uid("G"))["kind"] == "action"
        assert public(table)["pad"]["card"] is None  # the wild is played: it waits no more


def test_the_state_says_a_card_that_names_a_seat_waits_for_a_seats_button(tmp_path):
    with SimTable(tmp_path, "classic", pad=True, options={"seven_zero": True}) as table:
        seat = turn(table)["waiting"]["seat"]
        seven = f"{table.call(lambda: table.controller.state.colour)}7"  # fits any pile
        assert tap(table, table.world.pad_sim.tag_of(seven))["kind"] == "pad_waits"
        assert public(table)["pad"] == {"ok": True, "wants": "seat", "seat": seat, "card": seven, "left": None}
        since = len(table.events)
        table.world.seats_sim.press_seat((seat + 2) % 4)
        table.wait_for_event(lambda e: e.get("kind") == "action", since=since)
        table.settle()
        assert public(table)["pad"]["wants"] != "seat"


def test_the_state_says_a_discard_all_waits_for_its_cards_until_the_button(tmp_path):
    with SimTable(tmp_path, "attack", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        colour = colour_now(table)
        discard_all = f"{colour}DA"
        assert tap(table, free_tag(table, discard_all))["kind"] == "pad_waits"
        waits = {"ok": True, "wants": "cards", "seat": seat, "card": discard_all, "left": None}
        assert public(table)["pad"] == waits
        assert tap(table, free_tag(table, unseen_numbers(table, "attack", colour)[0]))["kind"] \
            == "pad_read"
        assert public(table)["pad"] == waits  # any number more: its player's button ends it


def test_the_state_says_how_many_towers_a_card_still_takes(tmp_path):
    with SimTable(tmp_path, "power", pad=True) as table:
        seat = turn(table)["waiting"]["seat"]
        free = table.call(lambda: free_towers(table.controller.state, seat))
        take2 = f"{colour_now(table)}T2"
        assert tap(table, free_tag(table, take2))["kind"] == "pad_waits"
        assert public(table)["pad"] == {"ok": True, "wants": "towers", "seat": seat,
                                        "card": take2, "left": 2}
        assert tap(table, table.world.tray_sim.towers[free[0]])["kind"] == "pad_waits"
        assert public(table)["pad"]["left"] == 1


def test_the_state_says_how_many_cards_the_four_tower_discard_still_lays(tmp_path):
    with SimTable(tmp_path, "power", pad=True) as table:
        seat = capture_all_towers(table)
        count = table.call(lambda: table.controller.state.counts[seat])
        assert count > 2  # (seed 1) a first card leaves more to lay
        assert public(table)["pad"]["wants"] is None  # the screen's own words ask for it
        first = unseen_numbers(table, "power", "R", plain=True)[0]
        assert tap(table, free_tag(table, first))["kind"] == "pad_waits"
        assert part_status(table)["waits"]["card"] == ""
        assert public(table)["pad"] == {"ok": True, "wants": "cards", "seat": seat,
                                        "card": None, "left": count - 2}


def test_a_pad_that_fails_waits_for_nothing_and_a_table_without_one_has_none(tmp_path):
    with SimTable(tmp_path / "pad", "classic", pad=True) as table:
        turn(table)
        since = len(table.events)
        table.world.pad_sim.unplug()
        table.wait_for_event(lambda e: e.get("kind") == "pad", since=since)
        table.settle()
        assert public(table)["pad"] == {"ok": False, "wants": None, "seat": None, "card": None, "left": None}
    with SimTable(tmp_path / "none", "classic") as table:
        turn(table)
        assert public(table)["pad"] is None


def test_the_last_five_plays_say_the_way_each_came_in_newest_first(tmp_path):
    with SimTable(tmp_path, "classic", pad=True) as table:
        ways = ["pad", "screen", "phone", "bot", "pad", "screen"]
        played = [(*play_by(table, way), way) for way in ways]
        recent = public(table)["recent"]
        # every play of the stream, the bots' taps between these included
        plays = [(e["action"]["seat"], e["action"]["card"], e["way"]) for e in table.events
                 if e.get("kind") == "action" and e["action"]["type"] == "play"]
        assert set(played) <= set(plays)
        assert len(plays) > 5 and len(recent) == 5
        assert [(p["seat"], p["card"], p["way"]) for p in recent] == plays[::-1][:5]
        assert recent[0]["way"] == "screen" and recent[0]["card"] == played[-1][1]
        assert table.world.agree, table.world.mismatches
