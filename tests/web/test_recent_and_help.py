"""The strip of the last five plays (newest first, on the board and on a 360 px phone) and
the "what does this do" sheet, worded from the rules engine's card kinds and towers."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.fit import NAMES, open_page, power_table
from tests.web.screen import EngineTable
from uno_core import Play, parse_card, position

PLAYS = [(0, "R1"), (1, "R4"), (2, "R7"), (3, "R8"), (0, "R3"), (1, "R6")]


def red_run() -> EngineTable:
    state = position("classic", hands=["R1 R3 G1", "R4 R6 G2", "R7 R9 G3", "R8 R2 G4"],
                     discard="R5", turn=0)
    return EngineTable(state, names=list(NAMES))


def test_the_strip_shows_the_last_five_plays_newest_first(page, served):
    table = red_run()
    server = served(table)
    open_page(page, server, "en")
    for seat, card in PLAYS:
        server.do(lambda s=seat, c=card: table.act(Play(s, parse_card(c))))
    plays = page.locator("#recent .play")
    expect(plays).to_have_count(5)
    cards = [plays.nth(i).locator(".card").get_attribute("title") for i in range(5)]
    assert cards[0] == f"{NAMES[1]} played red 6"  # the newest first, whole in its title
    assert [plays.nth(i).get_attribute("data-seat") for i in range(5)] == ["1", "0", "3", "2", "1"]
    expect(plays.first).to_have_class("play newest")


def test_the_strip_fits_a_360_px_phone_and_a_new_match_empties_it(page, served):
    page.set_viewport_size({"width": 360, "height": 740})
    table = red_run()
    server = served(table)
    open_page(page, server, "de")
    for seat, card in PLAYS:
        server.do(lambda s=seat, c=card: table.act(Play(s, parse_card(c))))
    plays = page.locator("#recent .play")
    expect(plays).to_have_count(5)
    title = plays.first.locator(".card").get_attribute("title") or ""
    assert title.startswith(f"{NAMES[1]}: ") and "6" in title  # the card as the German sheet names it
    for i in range(5):
        box = plays.nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    server.do(lambda: table.publish({"kind": "new_match", "edition": "classic", "seats": 4}))
    expect(plays).to_have_count(0)


def test_what_the_power_cards_and_towers_do_in_english_and_german(page, served):
    server = served(power_table())
    open_page(page, server, "en")
    page.click("#open-help")
    expect(page.locator('[data-help-kind="T2"] .does')).to_contain_text("You take 2 towers.")
    expect(page.locator('[data-help-kind="+2"] .does')).to_contain_text("The next player draws 2 cards.")
    expect(page.locator('[data-help-kind="R"] .does')).to_contain_text("The direction of play turns.")
    expect(page.locator('[data-help-tower="N"] .does')).to_have_text("Protects the seat that holds it against Draw 2.")
    page.click("#close")
    page.click("#lang")
    page.click("#open-help")
    expect(page.locator('[data-help-kind="T2"] .does')).to_contain_text("Du nimmst 2 Türme.")
    expect(page.locator('[data-help-tower="U"] .does')).to_have_text("Schützt den Platz, der ihn hat, vor der Karte „Zieh 1“.")


def test_what_attacks_cards_do_says_the_launcher_and_the_chosen_player(page, served):
    state = position("attack", hands=["R1 R3", "B4 B5", "G5", "Y1 Y2"], discard="R2")
    server = served(EngineTable(state))
    open_page(page, server, "en")
    page.click("#open-help")
    expect(page.locator('[data-help-kind="H2"] .does')).to_contain_text("The next player presses the launcher 2 times.")
    expect(page.locator('[data-help-kind="WAA"] .does')).to_contain_text("The player you choose presses the launcher 2 times.")
    expect(page.locator('[data-help-kind="DA"] .does')).to_contain_text("You lay all your other cards of its colour with it.")
    expect(page.locator("[data-help-tower]")).to_have_count(0)


def test_ten_seats_keep_their_rows_without_scrolling_beside_the_strip(page, served):
    state = position("classic", counts=[3] * 10, discard="R5", turn=0, mode="table")
    table = EngineTable(state)
    server = served(table)
    open_page(page, server, "en")
    for seat, card in enumerate(["R1", "R4", "R7", "R8", "R3"]):
        server.do(lambda s=seat, c=card: table.act(Play(s, parse_card(c))))
    expect(page.locator("#recent .play")).to_have_count(5)
    assert page.evaluate("(() => { const s = document.querySelector('#seats'); return s.scrollHeight <= s.clientHeight; })()")
    for i in range(5):
        box = page.locator("#recent .play").nth(i).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 800 and box["y"] + box["height"] <= 480
    assert page.locator("#recent .play .num").first.is_visible()
