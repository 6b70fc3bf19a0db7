"""The page says a seat the state leaves unnamed ("" in `names`) in its own words, and
takes every other name as a name: no text stands for "no name", not even "seat 9"."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import position


def test_an_unnamed_seat_is_said_in_the_pages_words_and_any_name_stays_a_name(page, shown):
    table = EngineTable(position("classic", hands=["R7 B3", "G1 G2", "Y1 Y2"], discard="RS", turn=1),
                        names=["Anna", "", "seat 9"])
    shown(table)
    expect(page.locator("#waiting")).to_have_text("Seat 2 to play")
    expect(page.locator("#declare")).to_have_text("Seat 2 played:")
    expect(page.locator('.seat[data-seat="1"] .name')).to_have_text("▶ Seat 2")
    expect(page.locator('.seat[data-seat="2"] .name')).to_have_text("seat 9 3")  # a person's name
    page.click("#open-setup")
    expect(page.locator('[data-name="1"]')).to_have_value("")
    expect(page.locator('[data-name="1"]')).to_have_attribute("placeholder", "Seat 2")
    expect(page.locator('[data-name="2"]')).to_have_value("seat 9")
    page.click("#close")
    page.click("#lang")
    expect(page.locator("#waiting")).to_have_text("Platz 2 ist dran")
    expect(page.locator("#declare")).to_have_text("Gelegt von Platz 2:")
    page.evaluate("localStorage.removeItem('unotable-lang')")
