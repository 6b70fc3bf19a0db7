"""A +4 challenged in `unotable demo --serve` is judged on the hand: the person who
challenged a bot's Wild Draw 4 sees that bot's cards (the twin knows them), the cards of
the colour before the +4 marked, next to Guilty and Innocent."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import persons_wait, play_turn, post, running, state, wait_for


def test_the_person_who_challenges_a_bots_plus_four_sees_its_hand(page, tmp_path):
    demo = ScreenDemo("classic", 3, seed=3, person=0, port=0, fast=True, pace=0.0,
                      options={"wild_draw4_restricted": True}, directory=tmp_path)
    with running(demo) as ended:
        deadline = time.monotonic() + 90
        while not ((st := state(demo))["waiting"]["kind"] == "challenge"
                   and st["waiting"].get("seat") == 0):
            assert time.monotonic() < deadline, "no bot played a +4 on the person"
            if persons_wait(st):
                play_turn(demo, st)
            time.sleep(0.01)
        assert post(demo, "/api/challenge", {"seat": 0})[0] == 200
        st = wait_for(demo, lambda s: s["phase"] == "verdict", "the verdict")
        player = st["challenge"]["player"]
        held = sorted(demo.world.hands[player])
        colour = st["challenge"]["colour"]
        page.goto(demo.url)
        shown = page.locator("#challenged-hand")
        expect(shown).to_be_visible()
        expect(shown.locator(".label")).to_contain_text(f"{st['names'][player]}'s hand")
        assert sorted(shown.locator("[data-challenged]").evaluate_all(
            "els => els.map((e) => e.dataset.challenged)")) == held
        fitting = [c for c in held if c[0] == colour]
        expect(shown.locator("[data-fits]")).to_have_count(len(fitting))
        expect(page.locator("#guilty")).to_be_visible()
        page.click("#guilty" if fitting else "#innocent")
        wait_for(demo, lambda s: s["phase"] != "verdict", "the verdict taken")
        assert ended["thread"].is_alive() and demo.world.agree, demo.world.mismatches
