"""The standings page a TV by the bar shows, in Debian's Chromium: served by
`unotable results` from what two tables published on a real mosquitto."""

from __future__ import annotations

import shutil
import tempfile
import urllib.request

from playwright.sync_api import expect, sync_playwright

from tests.mqtt.broker import Broker
from tests.mqtt.collector_process import CollectorProcess, wait_for_count
from tests.mqtt.results_samples import TABLE_A, TABLE_B, a_match, a_round, publish

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TV = {"width": 1280, "height": 720}


def test_the_tv_shows_players_and_tables(broker: Broker, collector: CollectorProcess) -> None:
    publish(broker, [a_round(TABLE_A, 1, "Anna"), a_round(TABLE_A, 2, "Anna"),
                     a_match(TABLE_A, 2, "Anna"), a_round(TABLE_B, 1, "<b>Ben</b>")])
    wait_for_count(collector.db, 4)
    url = f"http://127.0.0.1:{collector.port}/"
    profile = tempfile.mkdtemp(prefix="unotable-tv-")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport=TV)
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(url)
            players = page.locator("#players tr")
            expect(players).to_have_count(3)  # the header and two players
            expect(players.nth(1)).to_contain_text("Anna")
            expect(players.nth(1).locator("td")).to_have_text(["1", "Anna", "1", "2", "30"])
            expect(players.nth(2).locator("td").nth(1)).to_have_text("<b>Ben</b>")  # as text
            tables = page.locator("#tables tr")
            expect(tables).to_have_count(3)
            expect(tables.nth(1).locator("td")).to_have_text(
                ["Bar 1", "1", "2", "Anna", "Anna 510, Ben 80, Cleo 20"])
            expect(tables.nth(2).locator("td").first).to_have_text("Window")
            page.set_viewport_size(TV)
            assert page.evaluate("document.documentElement.scrollWidth") <= TV["width"]
            browser.close()
            assert errors == []
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    with urllib.request.urlopen(url + "standings.json") as answer:
        assert answer.headers["Content-Type"].startswith("application/json")
