"""A whole round declared through the page in a real browser; the page is checked after each step."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import actions as A
from uno_core import legal_actions
from uno_core.cards import format_card

NAMES = ["Ann", "Bob", "Cy"]


def declare(page, card: str, colour: str = "") -> None:
    """Tap the colour, tap the card, (wilds: tap the colour named), confirm."""
    page.click(f'[data-declare="{"W" if card.startswith("W") else card[0]}"]')
    page.click(f'.grid [data-card="{card}"]')
    if colour:
        page.click(f'[data-choose-colour="{colour}"]')
    page.click("#confirm")


def expect_board(page, table: EngineTable) -> None:
    s = table.state
    expect(page.locator("#top")).to_have_attribute("data-card", format_card(s.discard[-1]))
    expect(page.locator("#current-colour")).to_contain_text(f"{s.colour} ")
    for seat in range(s.n):
        row = page.locator(f'.seat[data-seat="{seat}"]')
        expect(row.locator(".count")).to_have_text(f"{s.counts[seat]} 🂠")
        expect(row.locator(".score")).to_have_text(f"{s.scores[seat]} pts")
    if s.to_act >= 0:
        expect(page.locator("#waiting")).to_contain_text(f"{NAMES[s.to_act]} (seat {s.to_act + 1})")


def test_a_whole_round_is_declared_through_the_page(page, served):
    table = EngineTable.new("classic", 3, seed=11, names=NAMES)
    server = served(table)
    page.goto(server.url)
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#edition")).to_have_text("classic")
    pick = random.Random(4)
    plays = draws = 0
    while table.state.round_no == 1:
        s = table.state
        seat = s.to_act
        expect_board(page, table)
        if s.phase == "first_colour":  # the first card turned was a wild
            server.do(lambda seat=seat: table.hardware(A.ChooseColour(seat, "B")))
            continue
        options = [a for a in legal_actions(s) if isinstance(a, A.Play) and a.seat == seat and not a.uno]
        if not options:  # the dispenser button: the table deals one card
            server.do(lambda seat=seat: table.hardware(A.Draw(seat)))
            draws += 1
            continue
        play = pick.choice(options)
        card = format_card(play.card)
        before = len(table.requests)
        declare(page, card, {"R": "R", "G": "G", "B": "B", "Y": "Y"}.get(play.colour, ""))
        expect(page.locator("#sheet")).to_be_hidden()
        assert len(table.requests) == before + 1 and table.requests[-1].card == card
        plays += 1
        if table.state.round_no == 1:
            expect(page.locator("#top")).to_have_attribute("data-card", card)
        if table.state.exposed == seat:  # down to one card: the player calls UNO on the screen
            row = page.locator(f'.seat[data-seat="{seat}"]')
            expect(row.locator(".badge")).to_have_text("UNO not called")
            page.click("#call-uno")
            expect(row.locator(".badge")).to_have_text("UNO")
            assert table.state.exposed == -1
    # the round is scored and the next one dealt: the page shows both
    expect(page.locator("#round")).to_contain_text("round 2")
    winner = max(range(3), key=lambda i: table.state.scores[i])
    assert table.state.scores[winner] > 0 and plays > 10 and draws > 0
    expect_board(page, table)
