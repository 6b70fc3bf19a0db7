"""Issue 14, point 4: the screen speaks the table's language, and a switch on the page
changes it for this browser (kept across a reload). German card names are the seeds'."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

from playwright.sync_api import expect

from firmware.sim.testbed import SimTable
from firmware.words.messages import DEFAULT_NAMES
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
    expect(page.locator("#top")).to_have_attribute("title", "rote Aussetzen-Karte")
    expect(page.locator("#declare")).to_have_text("Gelegt von Ben:")
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
    assert body["cards"]["classic"]["W+4"] == "Zieh-4-Farbenwahl-Karte"
    assert body["messages"]["page.turn"] == "{seat} ist dran"
    try:
        urllib.request.urlopen(server.url + "/api/messages?lang=fr", timeout=5)
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        answer = json.loads(exc.read())
        assert (answer["field"], answer["key"], answer["values"]) == (
            "lang", "field.enum", {"choices": ["en", "de"], "value": "'fr'"})
    else:
        raise AssertionError("lang=fr was accepted")


def german(page) -> None:
    """Switch the page to German (this browser keeps it until `english`)."""
    page.click("#lang")
    expect(page.locator("html")).to_have_attribute("lang", "de")


def english(page) -> None:
    page.evaluate("localStorage.removeItem('unotable-lang')")


def no_raw_keys(page) -> None:
    """Every text the page shows came out of the catalog: no key is left unworded."""
    shown = page.evaluate("document.body.innerText + ' ' + [...document.querySelectorAll('[title], [aria-label]')]"
                          ".map((e) => `${e.title} ${e.getAttribute('aria-label')}`).join(' ')")
    assert not re.search(r"\b(page|rule|wait|refused)\.[a-z_]", shown), shown


def test_in_german_the_event_line_refusals_and_reasons_are_german(page, served):
    table = EngineTable(position("classic", hands=["R7 B3 Y5", "G1 G2", "Y1 Y2"], discard="R5", turn=0),
                        names=["Anna", "Ben", "Cleo"])
    table.extra["screen_hands"] = {"0": ["R7", "B3", "Y5"]}  # demo --serve: Anna's cards on the screen
    server = served(table)
    page.goto(server.url + "/?seat=1")
    expect(page.locator("#conn")).to_have_text("live")
    try:
        german(page)
        expect(page.locator("#conn")).to_have_text("Verbunden")
        expect(page.locator("#notice")).to_have_attribute("aria-label", "Letztes Ereignis")
        page.click('[data-hand="B3"]')  # the page's own reason: B3 does not fit
        expect(page.locator("#error")).to_have_text("Die blaue 3 passt nicht: nur Rot oder 5")
        assert table.requests == []
        page.click('[data-declare="R"]')  # the daemon's refusal, in the page's language
        page.click('.grid [data-card="R9"]')
        page.click("#confirm")
        expect(page.locator("#error")).to_have_text("Du hast keine rote 9")
        page.click("#close")
        page.click('[data-hand="R7"]')
        page.click("#confirm")
        expect(page.locator("#notice")).to_have_text("Anna (Platz 1): eine rote 7 gelegt")
        expect(page.locator("#waiting")).to_have_text("Ben (Platz 2) ist dran")
        server.do(lambda: table.publish({"kind": "ejected", "seat": 2, "counted": 2}))
        expect(page.locator("#notice")).to_have_text("2 Karten für Cleo (Platz 3)")
        no_raw_keys(page)
        page.click("#open-health")
        expect(page.locator("#sheet .title")).to_have_text("Hardware: alles in Ordnung")
        no_raw_keys(page)
    finally:
        english(page)


def test_in_german_the_round_end_panel_is_german(page, tmp_path):
    with SimTable(tmp_path, "classic", players=2, seed=3) as table:  # an English table
        st = table.play_until(lambda st: st["waiting"]["kind"] == "round-over")
        winner = DEFAULT_NAMES["de"].get(*[st["names"][st["round_end"]["winner"]]] * 2)
        page.goto(table.url)
        expect(page.locator("#round-end")).to_be_visible()
        try:
            german(page)
            panel = page.locator("#round-end")
            expect(panel.locator("h2")).to_have_text(f"Runde 1 ist vorbei: {winner} hat keine Karten mehr")
            expect(panel.locator("th")).to_have_text(["", "Karten übrig", "Punkte", "Gesamt"])
            expect(panel.locator("#next-round")).to_have_text("Nächste Runde")
            expect(page.locator("#waiting")).to_contain_text(
                "In 20 s beginnt die nächste Runde, oder gleich „Nächste Runde“ antippen")
            no_raw_keys(page)
            page.click("#next-round")
            expect(page.locator("#ends")).to_be_hidden()
            expect(page.locator("#notice")).to_have_text("Runde 1 ist vorbei: die nächste Runde beginnt")
            status = page.evaluate("""async () => {
                const r = await fetch("/api/next-round", {method: "POST", body: "{}",
                    headers: {"Content-Type": "application/json", "Accept-Language": "de"}});
                return [r.status, (await r.json()).reason];
            }""")
            assert status == [409, "Keine Runde ist vorbei: es gibt keine Pause zu beenden"]
        finally:
            english(page)


def test_in_german_the_neutral_place_and_the_table_take_their_case(page, served):
    """„auf den neutralen Platz stellen", „steht nicht mehr auf dem neutralen Platz": the
    page's `t` fills the case form a sentence asks for; the demo's person is „Du"."""
    table = EngineTable(position("power", hands=["R7 R9", "R8 G2"], discard="R5", turn=0),
                        names=["Ann", "You"])
    server = served(table)
    page.goto(server.url + "/")
    expect(page.locator("#conn")).to_have_text("live")
    try:
        german(page)
        for event, text in [
            ({"kind": "tower_capture", "tower": "U", "slot": "neutral"},
             "Turm U auf den neutralen Platz stellen"),
            ({"kind": "tower_lifted", "tower": "U", "slot": "neutral"},
             "Turm U steht nicht mehr auf dem neutralen Platz"),
            ({"kind": "tray", "event": "ReaderDown", "slot": 1},
             "Ein Leser des Bretts antwortet nicht mehr: Du (Platz 2)"),
        ]:
            server.do(lambda event=event: table.publish(event))
            expect(page.locator("#notice")).to_have_text(text)
        no_raw_keys(page)
    finally:
        english(page)
