"""In `unotable demo --serve`, Undo is offered only where it is allowed: the person may take
back their own declaration, never a bot's (the twin laid its cards; the table answers 403),
on the person's page and on the owner's page alike."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import base, persons_wait, play_turn, post, running, state


def test_undo_is_offered_for_the_persons_play_and_never_for_a_bots(page, tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.4,
                      directory=tmp_path)
    with running(demo):
        page.goto(base(demo) + "/")  # the owner's page: no seat of its own
        expect(page.locator("#conn")).to_have_text("live")
        bots_plays = persons = 0
        undone = False  # the person takes back one play (each undo gives the turn back)
        deadline = time.monotonic() + 60
        while (bots_plays < 3 or persons < 1) and time.monotonic() < deadline:
            st = state(demo)
            last = demo.controller.lookup("undo").undoable() if demo.controller else None
            if last and last["seat"] != 0:
                bots_plays += 1  # the table could take it back; the demo must not offer it
                assert st["undoable"] is None, st["undoable"]
                expect(page.locator("#undo")).to_have_count(0)
            if st["undoable"] and st["undoable"]["seat"] == 0:
                persons += 1
            if persons_wait(st):
                play_turn(demo, st)
                after = state(demo)
                if after["undoable"] and after["undoable"]["seat"] == 0 and not undone:
                    persons += 1
                    status, body = post(demo, "/api/undo", {"seat": 0})
                    # taken back, unless a bot's move came between (a busy machine)
                    assert status == 200 or body["key"] == "undo.went_on", body
                    undone = status == 200
            time.sleep(0.05)
        assert bots_plays >= 3 and persons >= 1
        assert demo.world.agree, demo.world.mismatches
