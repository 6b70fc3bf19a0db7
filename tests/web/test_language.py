"""Issue 14, point 4: the screen speaks the table's language, and a switch on the page
changes it for this browser (kept across a reload). German card names are the seeds'."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import position


def test_the_page_switches_to_german_and_keeps_it(page, shown):
    table = EngineTable(position("classic", hands=["R7 B3", "G1 G2", "Y1 Y2"], discard="RS", turn=1),
                        names=["Anna", "Ben", "Cleo"])
    shown(table)
    expect(page.locator("#waiting")).to_have_text("Ben (seat 2) to play")
    expect(page.locator("#top")).to_have_attribute("title", "red Skip")
    page.click("#lang")
    expect(page.locator("#waiting")).to_have_text("Ben (Platz 2) ist dran")
    expect(page.locator("#top")).to_have_attribute("title", "rote Aussetzen")
    expect(page.locator("#declare")).to_have_text("Ben hat gelegt:")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.reload()  # the choice is this browser's
    expect(page.locator("#waiting")).to_have_text("Ben (Platz 2) ist dran")
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    expect(page.locator("#chosen-name")).to_have_text("rote 7")
    page.click("#close")
    page.click("#lang")
    expect(page.locator("#waiting")).to_have_text("Ben (seat 2) to play")
    page.evaluate("localStorage.removeItem('unotable-lang')")


def test_the_messages_endpoint_names_a_bad_language(served):
    server = served(EngineTable(position("classic", hands=["R7", "G1", "Y1"], discard="RS", turn=0)))
    with urllib.request.urlopen(server.url + "/api/messages", timeout=5) as answer:
        body = json.load(answer)
    assert body["language"] == body["table_language"] == "en"
    assert body["cards"]["classic"]["W+4"] == "Wild Draw 4"
    with urllib.request.urlopen(server.url + "/api/messages?lang=de", timeout=5) as answer:
        body = json.load(answer)
    assert body["cards"]["classic"]["W+4"] == "Zieh 4 + Farbenwahl"
    assert body["messages"]["page.turn"] == "{seat} ist dran"
    try:
        urllib.request.urlopen(server.url + "/api/messages?lang=fr", timeout=5)
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert json.loads(exc.read())["reason"] == "lang 'fr' is not a language of the table (known: en, de)"
    else:
        raise AssertionError("lang=fr was accepted")
