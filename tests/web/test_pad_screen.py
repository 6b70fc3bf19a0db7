"""A table with a card pad, on the real daemon over the twin, seen in Chromium: the seat to
act is told to tap its card on the pad (on the table's screen and on its own phone) while
its own declaration on the screen stays; a wild waits for a colour chip, said on both, and
a Discard All for its other cards and its player's button; the strip of the last plays
says which came by the pad and which by the screen, in English and German, and all of it
fits the 800x480 screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from firmware.sim.testbed import SimTable
from firmware.words.messages import COLOURS, MESSAGES, card_name
from hal.sim.pad import chip_uid
from tests.firmware.test_pad_on_screen import tap, turn, turn_with_a_number
from tests.firmware.test_pad_plays import colour_now, free_tag
from tests.web.fit import problems
from tests.web.phones import People, declare, playable
from uno_core import format_card, parse_card
from uno_core.cards import COLOUR_NAMES

EN, DE = MESSAGES["en"], MESSAGES["de"]
NAMES = ("North", "East", "South", "West")
GERMAN_NAMES = ("Nord", "Ost", "Süd", "West")


def gathered(chrome: Any, tmp_path: Any, edition: str) -> Iterator[People]:
    with SimTable(tmp_path, edition, pad=True) as table:
        people = People(chrome, table)
        yield people
        people.close()
    assert people.errors == [], f"a page raised: {people.errors}"


@pytest.fixture
def people(chrome: Any, tmp_path: Any) -> Iterator[People]:
    yield from gathered(chrome, tmp_path, "classic")


@pytest.fixture
def attack_people(chrome: Any, tmp_path: Any) -> Iterator[People]:
    """People at an Attack table (it has Discard All)."""
    yield from gathered(chrome, tmp_path, "attack")


def seat(number: int) -> str:
    return f"{NAMES[number]} (seat {number + 1})"


def test_the_seat_to_act_is_told_to_tap_its_card_and_the_strip_says_the_way_in(people):
    table = people.table
    screen = people.screen()
    to_act, card = turn_with_a_number(table)
    waiting = screen.locator("#waiting")
    expect(waiting).to_have_text(f"{seat(to_act)}: tap your card on the pad")
    expect(screen.locator(f'[data-declare="{card[0]}"]')).to_be_enabled()  # the screen still declares
    assert problems(screen) == []

    table.world.lay(to_act, [card])
    assert tap(table, table.world.pad_sim.tag_of(card))["kind"] == "action"
    newest = screen.locator("#recent .play").first
    expect(newest.locator(".way")).to_have_text("card pad")
    expect(newest.locator(".way")).to_have_attribute("data-way", "pad")
    name = str(card_name(parse_card(card), "en", "classic"))
    expect(newest).to_have_attribute("title", f"{NAMES[to_act]} played {name} — card pad")

    # the next seat declares on the screen instead: taken, and the strip says so
    to_act, _ = turn_with_a_number(table)
    expect(waiting).to_have_text(f"{seat(to_act)}: tap your card on the pad")
    play = playable(table, to_act)[0]
    table.world.lay(to_act, [format_card(play.card)])
    declare(screen, play)
    expect(screen.locator("#sheet")).to_be_hidden()
    expect(newest.locator(".way")).to_have_text("screen")
    expect(screen.locator("#recent .play").nth(1).locator(".way")).to_have_text("card pad")
    assert problems(screen) == []

    screen.click("#lang")
    expect(newest.locator(".way")).to_have_text(DE["page.way.screen"])
    expect(screen.locator("#recent .play").nth(1).locator(".way")).to_have_text(DE["page.way.pad"])
    to_act = turn(table)["waiting"]["seat"]
    expect(waiting).to_have_text(f"{GERMAN_NAMES[to_act]} (Platz {to_act + 1}): leg deine Karte auf das Lesefeld")
    assert problems(screen) == []
    assert table.world.agree, table.world.mismatches


def test_the_seats_phone_says_tap_your_card_and_a_wild_waits_for_a_chip_on_both(people):
    table = people.table
    screen = people.screen()
    to_act = turn(table)["waiting"]["seat"]
    phone = people.phone(people.link(screen, to_act))
    other = people.phone(people.link(screen, (to_act + 1) % 4))
    expect(phone.locator("#yours")).to_have_text(EN["page.phone.turn_pad"])
    expect(phone.locator("[data-declare]").first).to_be_visible()  # its own declaration stays
    expect(other.locator("#yours")).to_have_text(EN["page.phone.nothing"])
    expect(other.locator("#waiting")).to_have_text(f"{seat(to_act)} to play")  # no pad words for another seat

    said = tap(table, table.world.pad_sim.tag_of("W"))
    assert said["kind"] == "pad_waits" and said["wants"] == "colour"
    wild = str(card_name(parse_card("W"), "en", "classic"))
    expect(screen.locator("#waiting")).to_have_text(f"{seat(to_act)}: tap a colour chip on the pad for the {wild}")
    expect(phone.locator("#yours")).to_have_text(f"tap a colour chip on the pad for the {wild}")

    assert tap(table, chip_uid("B"))["kind"] == "action"
    expect(screen.locator("#top")).to_have_attribute("data-card", "W")
    expect(phone.locator("#yours")).to_have_text(EN["page.phone.nothing"])
    expect(other.locator("#yours")).to_have_text(EN["page.phone.turn_pad"])
    expect(phone.locator("#recent .play").first.locator(".way")).to_have_text("card pad")


def test_a_discard_all_tapped_is_told_to_tap_its_cards_then_press_the_button(attack_people):
    table = attack_people.table
    screen = attack_people.screen()
    to_act = turn(table)["waiting"]["seat"]
    phone = attack_people.phone(attack_people.link(screen, to_act))
    colour = colour_now(table)
    discard_all = f"{colour}DA"
    assert tap(table, free_tag(table, discard_all))["kind"] == "pad_waits"
    name = str(card_name(parse_card(discard_all), "en", "attack"))
    what = (f"tap the other {COLOUR_NAMES[colour]} cards the {name} lays on the pad, then "
            "press your own seat's button")
    expect(screen.locator("#waiting")).to_have_text(f"{seat(to_act)}: {what}")
    expect(phone.locator("#yours")).to_have_text(what)
    assert problems(screen) == []

    screen.click("#lang")
    german = str(card_name(parse_card(discard_all), "de", "attack"))
    expect(screen.locator("#waiting")).to_have_text(
        f"{GERMAN_NAMES[to_act]} (Platz {to_act + 1}): Die übrigen Karten der Farbe "
        f"{COLOURS['de'][colour]}, die die {german} ablegt, auf das Lesefeld legen, dann "
        "die Taste des eigenen Platzes drücken")
    assert problems(screen) == []
