"""Issue 20, who is who at the table: two players on their phones (390x844 and 360x740)
beside the table's own screen, on the real daemon over the twin.

Each phone opens its seat's link from the table's screen (the Phones sheet), claims the
seat and keeps the device token; it declares only for its own seat, in as many taps as on
the table's screen; what one phone does, the table's screen shows; a tampered request
from a phone for another seat is refused (403); a phone that sleeps or loses the Wi-Fi
joins again by itself, and a declaration whose answer was lost is sent again with the same
Idempotency-Key and taken once; a second phone for a held seat waits for the owner.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from firmware.sim.testbed import SimTable
from firmware.words.messages import MESSAGES
from tests.firmware.conftest import request
from tests.web.phones import (
    PHONE,
    SMALL_PHONE,
    People,
    declare,
    forged,
    token_of,
    until_turn_with_a_play,
)
from tests.web.test_readable import measure, small_targets
from uno_core import format_card

EN = MESSAGES["en"]


@pytest.fixture
def people(chrome: Any, tmp_path: Any) -> Iterator[People]:
    with SimTable(tmp_path, "classic", players=4, seed=5) as table:
        people = People(chrome, table)
        yield people
        people.close()
    assert people.errors == [], f"a page raised: {people.errors}"


def plays_of(table: SimTable, seat: int) -> list[str]:
    return [e["action"]["card"] for e in table.events
            if e.get("kind") == "action" and e["action"]["type"] == "play" and e["action"]["seat"] == seat]


def test_two_phones_play_their_own_seats_and_the_table_shows_both(people: People):
    table = people.table
    screen = people.screen()
    east = people.phone(people.link(screen, 1))  # seat 2 on the screen (API seat 1)
    south = people.phone(people.link(screen, 2), SMALL_PHONE)  # seat 3
    for phone, seat in ((east, 1), (south, 2)):
        assert "#join" not in phone.url and token_of(phone)  # the secret left the address bar
        expect(phone.locator("#me")).to_have_text(table.state()["names"][seat])
    # the table's screen: which seats are on a phone
    expect(screen.locator('[data-phone="1"]')).to_be_visible()
    expect(screen.locator('[data-phone="2"]')).to_be_visible()
    expect(screen.locator('[data-phone="0"]')).to_have_count(0)

    st, play = until_turn_with_a_play(table, 1)
    expect(east.locator("#yours")).to_have_text(EN["page.phone.turn"])
    expect(south.locator("#yours")).to_have_text(EN["page.phone.nothing"])
    expect(south.locator("[data-declare]")).to_have_count(0)  # not South's turn: nothing to declare
    table.world.lay(1, [format_card(play.card)])
    card = declare(east, play)  # colour, card, Play: as on the table's screen
    expect(east.locator("#sheet")).to_be_hidden()
    expect(screen.locator("#top")).to_have_attribute("data-card", card)
    expect(screen.locator('.seat[data-seat="1"] .count')).to_have_text(f"{st['hand_counts'][1] - 1} 🂠")
    assert plays_of(table, 1)[-1] == card

    # South holds two cards: UNO! on its phone, before its second-to-last card
    until_turn_with_a_play(table, 2, holding=2)
    expect(south.locator("#yours")).to_have_text(EN["page.phone.turn_uno"])
    for button in east.locator("#actions button, #prompts button").all():  # nothing for South on East's phone
        assert not button.is_visible() or "South" not in button.inner_text()
    expect(east.locator("#arm-uno, [data-declare], #challenge, #pass")).to_have_count(0)
    south.click("#arm-uno")
    expect(south.locator("#arm-uno")).to_have_text(EN["page.uno_said"])
    expect(screen.locator('[data-uno-said="2"]')).to_have_text(EN["page.uno_said"])
    assert 2 in table.state()["uno_armed"]


def test_a_forged_request_from_a_phone_for_another_seat_is_refused(people: People):
    table = people.table
    screen = people.screen()
    east = people.phone(people.link(screen, 1))
    st, play = until_turn_with_a_play(table, 2)  # South's turn: East's page tries to play for it
    before = table.state()
    status, answer = forged(east, "/api/play", {"seat": 2, "card": "R5"})
    assert status == 403 and answer["reason"], answer  # the reason names the seats (the door's words)
    status, answer = forged(east, "/api/uno", {"seat": 2})
    assert status == 403, answer
    status, answer = forged(east, "/api/admin/new-match", {"edition": "classic", "seats": 4})
    assert (status, answer["key"]) == (403, "role.owners_only"), answer
    after = table.state()
    assert (after["hand_counts"], after["top"], after["uno_armed"]) == (
        before["hand_counts"], before["top"], before["uno_armed"])


def test_a_phone_that_sleeps_joins_again_and_a_lost_answer_is_not_a_second_play(people: People):
    table = people.table
    screen = people.screen()
    east = people.phone(people.link(screen, 1))
    # the Wi-Fi goes (or the phone sleeps): it says so, and comes back by itself
    east.context.set_offline(True)
    expect(east.locator("#conn")).to_have_text(EN["page.reconnecting"])
    expect(screen.locator("#conn")).to_have_text(EN["page.live"])  # the table's screen goes on
    east.context.set_offline(False)
    expect(east.locator("#conn")).to_have_text(EN["page.live"])
    expect(screen.locator('[data-phone="1"]')).to_be_visible()

    st, play = until_turn_with_a_play(table, 1)
    keys: list[str] = []
    east.on("request", lambda r: keys.append(r.headers.get("idempotency-key", ""))
            if r.url.endswith("/api/play") else None)

    def lose_the_first_answer(route: Any) -> None:  # the table takes it, the phone never hears
        if len(keys) == 1:
            route.fetch()
            route.abort("internetdisconnected")
        else:
            route.continue_()

    east.route("**/api/play", lose_the_first_answer)
    table.world.lay(1, [format_card(play.card)])
    card = declare(east, play)
    expect(east.locator("#sheet")).to_be_hidden()  # the page sent it again; the table said yes
    expect(east.locator("#conn")).to_have_text(EN["page.live"])
    expect(screen.locator("#top")).to_have_attribute("data-card", card)
    assert len(keys) == 2 and keys[0] == keys[1] and len(keys[0]) >= 16, keys
    assert plays_of(table, 1).count(card) == 1
    assert table.state()["hand_counts"][1] == st["hand_counts"][1] - 1


def test_a_second_phone_for_a_held_seat_waits_for_the_owner(people: People):
    screen = people.screen()
    first = people.phone(people.link(screen, 1))
    second = people.phone(people.link(screen, 1), joined=False)
    expect(second.locator("#waiting")).to_have_attribute("data-code", re.compile(r"^\d{4}$"))
    code = second.locator("#waiting").get_attribute("data-code")
    expect(second.locator("#waiting")).to_have_text(EN["page.phone.waiting"].format(code=code))
    expect(second.locator("#conn")).to_have_text(EN["page.connecting"])  # not yet in: nothing to reconnect
    streams: list[str] = []
    second.on("websocket", lambda ws: streams.append(ws.url))
    second.context.set_offline(True)  # the Wi-Fi comes and goes while it waits: still no stream
    second.context.set_offline(False)
    expect(second.locator("#waiting")).to_have_text(EN["page.phone.waiting"].format(code=code))
    assert streams == []
    approve = screen.locator('#prompts [data-approve="1"]')
    expect(approve).to_have_text(EN["page.seats.approve_seat"].format(seat="East", code=code))
    expect(screen.locator('[data-asks="1"]')).to_be_visible()
    approve.click()
    expect(second.locator("#conn")).to_have_text(EN["page.live"])
    expect(second.locator("#me")).to_have_text("East")
    assert len(streams) == 1 and "token=" in streams[0]  # its stream, once it holds the seat
    expect(first.locator("#waiting")).to_have_text(EN["page.phone.lost"])  # its token is gone
    assert token_of(first) is None
    # a third phone, refused on the Phones sheet
    third = people.phone(people.link(screen, 1), joined=False)
    expect(third.locator("#waiting")).to_have_attribute("data-code", re.compile(r"^\d{4}$"))
    screen.click("#open-seats")
    screen.click('[data-seat-code="1"] [data-refuse="1"]')
    expect(third.locator("#waiting")).to_contain_text("refused")
    assert token_of(third) is None
    expect(second.locator("#conn")).to_have_text(EN["page.live"])
    # the owner releases the seat: its phone is told, the seat's code works again
    screen.click('[data-seat-code="1"] [data-revoke="1"]')
    expect(second.locator("#waiting")).to_have_text(EN["page.phone.lost"])
    expect(screen.locator('[data-seat-code="1"] .status')).to_have_text(EN["page.seats.free"])
    screen.click('[data-show-code="1"]')
    expect(screen.locator('[data-seat-code="1"] svg.qr')).to_be_visible()


def test_the_phones_sheet_shows_one_seats_code_on_a_tap_until_it_served_or_a_minute_passed(people: People):
    screen = people.screen(clock=True)
    screen.click("#open-seats")
    expect(screen.locator("[data-show-code]")).to_have_count(4)
    expect(screen.locator("svg.qr")).to_have_count(0)  # no code until the owner taps a seat
    assert screen.locator("[data-url]").count() == 0 and "#join=" not in screen.content()
    screen.click('[data-show-code="1"]')
    expect(screen.locator('[data-seat-code="1"] svg.qr')).to_be_visible()
    screen.click('[data-show-code="2"]')  # another seat's: the first goes
    expect(screen.locator("svg.qr")).to_have_count(1)
    expect(screen.locator('[data-seat-code="2"] svg.qr')).to_be_visible()
    url = urlsplit(screen.locator('[data-seat-code="2"]').get_attribute("data-url"))
    assert "#join=" in screen.content()  # the one shown, and only it
    # South's player scans it: the seat is taken, the code goes from the screen
    south = people.phone(f"{people.table.url}{url.path}#{url.fragment}")
    expect(south.locator("#me")).to_be_visible()
    expect(screen.locator("svg.qr")).to_have_count(0)
    expect(screen.locator('[data-seat-code="2"] .status')).to_have_text(EN["page.seats.on_phone"])
    # a code nobody scans goes after a minute
    screen.click('[data-show-code="3"]')
    expect(screen.locator('[data-seat-code="3"] svg.qr')).to_be_visible()
    screen.clock.run_for("00:59")
    expect(screen.locator('[data-seat-code="3"] svg.qr')).to_be_visible()
    screen.clock.run_for("00:02")
    expect(screen.locator("svg.qr")).to_have_count(0)
    assert "#join=" not in screen.content()


def test_a_phone_whose_address_must_wait_asks_again_and_joins(people: People):
    screen = people.screen()
    link = people.link(screen, 3)
    phone = people._page(PHONE, phone=True)
    claims: list[int] = []
    phone.on("response", lambda r: claims.append(r.status) if r.url.endswith("/api/seats/claim") else None)

    def guessed_just_before(route: Any) -> None:  # someone on this address guessed: it must wait
        if not claims:
            for _ in range(5):
                assert request(people.table.url, "POST", "/api/seats/claim", {"seat": 3, "join": "a-guess"})[0] == 403
        route.continue_()

    phone.route("**/api/seats/claim", guessed_just_before)
    phone.goto(link)
    expect(phone.locator("#me")).to_have_text("West")  # not "refused": it asked again
    assert claims[0] == 429 and claims[-1] == 200, claims


def test_the_phones_read_well_and_the_codes_are_big_on_the_tables_screen(people: People):
    table = people.table
    screen = people.screen()
    phones = {"390x844": people.phone(people.link(screen, 1)),
              "360x740": people.phone(people.link(screen, 2), SMALL_PHONE)}
    until_turn_with_a_play(table, 1)  # in play: East to play, South waiting
    for name, phone in phones.items():
        width = (PHONE if name == "390x844" else SMALL_PHONE)["width"]
        expect(phone.locator(".seat")).to_have_count(4)  # hand counts, towers and scores of every seat
        assert phone.evaluate("document.documentElement.scrollWidth") <= width, name
        assert small_targets(phone) == [], name
        for sel, least in (("#me", 20), ("#yours", 20), (".seat .name", 20), (".seat .count", 20), ("#top .face", 32)):
            for found in measure(phone, sel):
                assert found["font"] >= least and found["contrast"] >= 4.5, (name, sel, found)
                assert found["right"] <= width, (name, sel, found)
    for sel in ("#actions [data-declare]",):  # East declares in the bottom bar, as on the table's screen
        assert len(measure(phones["390x844"], sel)) == 5
    # the table's screen, during play: the Phones sheet shows the code of the seat tapped,
    # big enough to scan from a metre away (a 33-module code at 240 px: 7 px a module)
    expect(screen.locator("#open-seats")).to_be_visible()
    screen.click("#open-seats")
    screen.click('[data-show-code="3"]')
    expect(screen.locator("[data-seat-code] svg.qr")).to_have_count(1)
    for code in measure(screen, "[data-seat-code] svg.qr"):
        assert code["w"] >= 200 and code["h"] >= 200 and code["right"] <= 800, code
    # served on loopback (a test): the sheet says no phone could open these links
    expect(screen.locator("#seats-unreachable")).to_have_text(EN["page.seats.unreachable"])
    expect(screen.locator('[data-seat-code="1"] .status')).to_have_text(EN["page.seats.on_phone"])
    expect(screen.locator('[data-seat-code="0"] .status')).to_have_text(EN["page.seats.free"])
    assert small_targets(screen) == []


def test_a_phone_says_how_many_presses_its_seat_owes(chrome: Any, tmp_path: Any):
    with SimTable(tmp_path, "attack", players=4, seed=5) as table:  # a launcher: presses owed
        people = People(chrome, table)
        screen = people.screen()
        south = people.phone(people.link(screen, 2), SMALL_PHONE)
        st = table.play_until(lambda st: st["waiting"]["kind"] == "press" and st["waiting"]["seat"] == 2)
        count = st["waiting"]["presses"]
        expect(south.locator("#yours")).to_have_text(
            EN["page.phone.press_one"] if count == 1 else EN["page.phone.press"].format(count=count))
        expect(south.locator("#waiting")).to_be_hidden()  # said once, in the phone's words
        expect(screen.locator("#waiting")).to_have_text(f"South (seat 3): press the launcher {count}×")
        people.close()
    assert people.errors == [], people.errors


def test_a_phone_calls_its_own_uno_and_another_catches_a_forgotten_one(chrome: Any, tmp_path: Any):
    # attack: a forgotten UNO may be caught; the bots forget every call
    with SimTable(tmp_path, "attack", players=4, seed=5, forget_uno=1.0) as table:
        people = People(chrome, table)
        screen = people.screen()
        east = people.phone(people.link(screen, 1))
        south = people.phone(people.link(screen, 2), SMALL_PHONE)
        st = table.play_until(lambda st: st.get("uno_exposed") == 1)
        expect(east.locator("#yours")).to_have_text(EN["page.phone.uno_now"])
        expect(east.locator("#call-uno")).to_be_visible()
        expect(east.locator("#catch")).to_have_count(0)  # no catching yourself
        catch = south.locator("#catch")
        expect(catch).to_have_text(EN["page.catch"].format(seat="East"))
        expect(south.locator("#call-uno")).to_have_count(0)  # East's call is East's
        catch.click()
        expect(south.locator("#catch")).to_have_count(0)
        after = table.settle()
        assert after.get("uno_exposed") is None
        caught = [e for e in table.events if e.get("kind") == "action" and e["action"]["type"] == "catch"]
        assert caught and caught[-1]["action"]["seat"] == 2 and caught[-1]["action"]["target"] == 1
        expect(screen.locator('.seat[data-seat="1"] .badge.warn')).to_have_count(0)
        people.close()
    assert st["uno_exposed"] == 1 and people.errors == [], people.errors
