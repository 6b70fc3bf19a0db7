"""Match → another edition in `unotable demo --serve` starts a demo match of that edition
(a new simulated table on the same address), instead of "set [table] edition in the
config and restart"; a bad choice is refused and the match goes on."""

from __future__ import annotations

import contextlib
import time

from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import post, running, state


def served_again(demo: ScreenDemo, test, what: str, timeout: float = 30) -> dict:
    """The state once `test` holds, asked again while the demo moves to its new table."""
    deadline = time.monotonic() + timeout
    while True:
        st = None
        if demo.daemon.server is not None:  # none while the new table's server starts
            with contextlib.suppress(OSError):  # the old server closed, the new one starts
                st = state(demo)
        if st is not None and test(st):
            return st
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


def test_choosing_attack_on_the_match_sheet_deals_an_attack_demo(page, tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.5,
                      directory=tmp_path)
    with running(demo) as ended:
        page.goto(demo.url)
        expect(page.locator("#hand [data-hand]").first).to_be_visible(timeout=20000)
        status, answer = post(demo, "/api/admin/new-match", {"edition": "power", "seats": 4,
                                                               "options": {"bogus": 1}}, lang="de")
        assert status == 422 and answer["field"] == "options"
        assert (answer["key"], answer["values"]["problem"]["key"]) == (
            "refused.option", "refused.option.unknown_option")
        assert answer["reason"].startswith("Hausregel bogus: diese Hausregel gibt es nicht, nur: ")
        assert state(demo)["edition"] == "classic"  # refused: the match goes on
        page.click("#open-setup")
        page.select_option("#edition-select", "attack")
        seats = page.locator("#seats-input")
        seats.fill("4")
        seats.dispatch_event("change")
        page.click("#start")
        expect(page.locator("#sheet")).to_be_hidden()
        expect(page.locator("#error")).to_be_hidden()
        st = served_again(demo, lambda s: s.get("edition") == "attack" and s["screen_hands"]["0"],
                      "the attack demo dealt")
        assert st["seats"] == 4 and demo.world.edition == "attack"
        expect(page.locator("#edition")).to_have_text("attack", ignore_case=True)
        expect(page.locator("#hand [data-hand]")).to_have_count(len(st["screen_hands"]["0"]))
        assert ended["thread"].is_alive()
