"""Issue 14, point 2: the daemon names a seat as the screen does. A refusal the table
gives (a seat's button pressed with nothing to call) reaches the screen naming the seat
by its name, never by the engine's 0-based number."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from firmware.sim.testbed import SimTable


def test_a_refusal_on_the_screen_names_the_seat_as_the_screen_does(page, tmp_path):
    with SimTable(tmp_path, "classic", players=3, seed=5) as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn"
                              and st["hand_counts"][1] > 2)
        page.goto(table.url)
        expect(page.locator("#conn")).to_have_text("live")
        name, count = st["names"][1], st["hand_counts"][1]  # engine seat 1: "East (seat 2)"
        expect(page.locator('.seat[data-seat="1"] .name')).to_contain_text(f"{name} 2")
        table.world.seats_sim.press_seat(1)  # UNO pressed with a full hand: refused
        table.settle()
        notice = page.locator("#notice")
        expect(notice).to_contain_text(f"{name} has {count} cards: nothing to call")
        assert not re.search(r"seat \d", notice.inner_text(), re.IGNORECASE)
        refused = [e for e in table.events if e["kind"] == "refused"][-1]
        assert refused["what"] == f"{name}'s button"
