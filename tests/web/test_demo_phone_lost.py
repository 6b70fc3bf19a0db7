"""A phone that lost its seat in `unotable demo --serve` says so and how to join again,
and shows none of that seat's cards, nor "connecting…" forever."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from firmware.words.messages import MESSAGES
from tests.web.demo_person import base, running

EN = MESSAGES["en"]


def test_a_phone_whose_seat_was_released_shows_no_cards_and_says_how_to_join(page, browser, tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.5,
                      directory=tmp_path)
    with running(demo):
        page.goto(base(demo) + "/")  # the owner's screen
        expect(page.locator("#conn")).to_have_text("live")
        page.click("#open-seats")
        page.click('[data-show-code="0"]')
        code = page.locator('[data-seat-code="0"]')
        expect(code.locator("svg.qr")).to_be_visible()
        link = urlsplit(code.get_attribute("data-url"))
        phone = browser.new_page()
        try:
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(f"{base(demo)}{link.path}#{link.fragment}")
            expect(phone.locator("#me")).to_be_visible()
            expect(phone.locator("#hand [data-hand]").first).to_be_visible()  # the seat's cards
            page.click('[data-seat-code="0"] [data-revoke="0"]')  # the owner releases the seat
            expect(phone.locator("#waiting")).to_have_text(EN["page.phone.lost"])
            expect(phone.locator("#hand")).to_be_hidden()
            expect(phone.locator("#conn")).to_be_hidden()
            phone.wait_for_timeout(1000)  # and it stays so: no stream it tries again
            expect(phone.locator("#hand")).to_be_hidden()
            expect(phone.locator("#waiting")).to_have_text(EN["page.phone.lost"])
        finally:
            phone.close()
