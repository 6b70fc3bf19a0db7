"""`unotable demo --serve` shows each round's result until the person taps "next round":
no bot taps it for them, and on a German table at 800x480 and at phone size the
"Nächste Runde" button is in view, not cut off below the fold of a scrolling panel."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from firmware.words.messages import MESSAGES
from tests.web.demo_person import play_turn, running, state, wait_for

SIZES = {"screen": {"width": 800, "height": 480}, "phone": {"width": 390, "height": 844}}


def play_to_round_end(demo: ScreenDemo) -> dict:
    deadline = time.monotonic() + 120
    while (st := state(demo))["waiting"]["kind"] != "round-over":
        assert time.monotonic() < deadline, "the round never ended"
        if st["waiting"].get("seat") == 0:
            play_turn(demo, st)
        time.sleep(0.01)
    return st


def reachable(page, sel: str) -> bool:
    """The element is where a finger lands: its middle is in the viewport and not under
    anything else (a scrolling panel that cut it off would hide it)."""
    return page.evaluate("""(sel) => {
      const e = document.querySelector(sel);
      const r = e.getBoundingClientRect();
      const x = r.x + r.width / 2, y = r.y + r.height / 2;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
      return e.contains(document.elementFromPoint(x, y));
    }""", sel)


@pytest.mark.parametrize("size", SIZES)
def test_the_round_result_stays_until_the_person_taps_next_round(page, tmp_path, size):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.0,
                      directory=tmp_path)
    with running(demo) as ended:
        page.set_viewport_size(SIZES[size])
        page.goto(demo.url)
        page.evaluate("localStorage.setItem('unotable-lang', 'de')")
        st = play_to_round_end(demo)
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        button = page.locator("#round-end #next-round")
        expect(button).to_have_text(MESSAGES["de"]["page.end.next_round"])
        assert reachable(page, "#round-end #next-round")
        time.sleep(1.5)  # the bots, at no pace, would have tapped "next round" long ago
        assert state(demo)["waiting"]["kind"] == "round-over"
        assert st["waiting"].get("pause_s") == 0  # only the person's tap ends it
        button.click()
        expect(page.locator("#ends")).to_be_hidden()
        wait_for(demo, lambda s: s["round_end"] is None and len(s["rounds"]) == 1,
                 "the next round after the tap")
        assert ended["thread"].is_alive() and demo.world.agree, demo.world.mismatches


LONGEST = ["Maximilian-Alexander", "Bartholomäus-Benedikt", "Dietlinde-Friederike", "Konstantin-Leopold"]


@pytest.mark.parametrize("size", [(800, 480), (390, 844), (360, 740)], ids=str)
def test_naechste_runde_is_in_reach_with_four_long_names_in_german(page, served, size):
    from tests.web.screen import EngineTable
    from uno_core import position

    table = EngineTable(position("power", hands=["R7 WT1 B3", "B4", "G5 G6 Y2 Y3 R1U", "R5 Y5 Y6 B9"],
                                 discard="R2", towers={"U": 1, "N": 2, "O": 2}, turn=3),
                        names=[n[:24] for n in LONGEST])
    r = {"round": 2, "winner": 1, "points": [80, 0, 45, 242], "scores": [0, 367, 120, 0]}
    table.extra = {"rounds": [r], "round_end": r, "waiting": {"kind": "round-over", **r, "pause_s": 0}}
    page.set_viewport_size({"width": size[0], "height": size[1]})
    server = served(table)
    page.goto(server.url + "/")
    page.evaluate("localStorage.setItem('unotable-lang', 'de')")
    page.reload()
    expect(page.locator("#round-end #next-round")).to_have_text("Nächste Runde")
    assert reachable(page, "#round-end #next-round")
