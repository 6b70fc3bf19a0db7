"""At phone width, a page that shows its seat's cards (`demo --serve`, a seat's phone) gives
the seats' list the whole width: names that fit are not cut ("Be…", "Diete…")."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import post, running, wait_for

NAMES = ["Bernadette", "Dietlinde", "Maximilian", "Konstantin"]


@pytest.mark.parametrize("width,height", [(390, 844), (360, 740)])
def test_names_are_whole_on_a_phone_that_shows_its_cards(page, tmp_path, width, height):
    demo = ScreenDemo("classic", 4, seed=12, person=0, port=0, fast=True, pace=0.5,
                      directory=tmp_path)
    with running(demo):
        assert post(demo, "/api/admin/new-match", {"names": NAMES})[0] == 200
        wait_for(demo, lambda s: s["names"] == NAMES and s["screen_hands"]["0"], "the new match dealt")
        page.set_viewport_size({"width": width, "height": height})
        page.goto(demo.url)
        expect(page.locator("#hand [data-hand]").first).to_be_visible()
        expect(page.locator(".seat .name").first).to_contain_text(NAMES[0])
        seats = page.locator("#seats").bounding_box()
        assert seats["width"] >= width - 32  # the list spans the phone, bar its margins
        cut = page.evaluate("""() => [...document.querySelectorAll('.seat .name')]
          .filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent)""")
        assert cut == []
