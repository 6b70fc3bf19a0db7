"""The page's side of issue 20 that any table shows: the Idempotency-Key on every POST and
the same key again after a lost answer, a new stream when the page comes back from the
background, and a seat's page opened without its link (or with a token the table does not
know). The phones themselves, on the real daemon: test_phone_seats.py."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from firmware.api import Play
from firmware.words.messages import MESSAGES
from tests.web.screen import EngineTable
from uno_core import position

EN = MESSAGES["en"]


def classic() -> EngineTable:
    return EngineTable(position("classic", hands=["R7 B3 G2", "R8 G5 B1", "Y1 Y2", "G9 G8"],
                                discard="R5", turn=0), names=["Ann", "Bob", "Cy", "Dee"])


def test_a_declaration_whose_request_was_lost_goes_again_with_the_same_key(page, shown):
    table = classic()
    shown(table)
    sent: list[dict] = []
    page.on("request", lambda r: sent.append({"url": r.url, "key": r.headers.get("idempotency-key")})
            if r.method == "POST" else None)
    lost = []

    def drop_the_first(route):  # the Wi-Fi went just as it left: the table never saw it
        if not lost:
            lost.append(route.request.post_data)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    page.route("**/api/play", drop_the_first)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()  # sent again once back, and taken
    plays = [r for r in table.requests if isinstance(r, Play)]
    assert len(plays) == 1 and plays[0].card == "R7"
    keys = [s["key"] for s in sent if s["url"].endswith("/api/play")]
    assert len(keys) == 2 and keys[0] == keys[1] and plays[0].key == keys[0]
    assert json.loads(lost[0]) == {"seat": 0, "card": "R7"}
    # another declaration: another key; every POST carries one
    page.click("#open-setup")
    page.click("#pause")
    expect(page.locator("#waiting")).to_have_text(EN["page.paused"])
    others = [s["key"] for s in sent if not s["url"].endswith("/api/play")]
    assert others and all(k and k != keys[0] for k in others) and len(set(others)) == len(others)


def test_play_tapped_again_while_the_table_is_away_is_still_one_declaration(page, shown):
    table = classic()
    shown(table)
    keys: list[str] = []
    page.on("request", lambda r: keys.append(r.headers.get("idempotency-key"))
            if r.url.endswith("/api/play") else None)
    away = [True]
    page.route("**/api/play", lambda route: route.abort("internetdisconnected") if away[0] else route.continue_())
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    page.click("#confirm")
    expect(page.locator("#error")).to_have_text(EN["page.no_answer"].format(error=EN["page.sending_again"]))
    page.click("#confirm")  # nothing seems to happen: the player taps Play again
    away[0] = False
    expect(page.locator("#sheet")).to_be_hidden(timeout=10000)
    assert [r.card for r in table.requests if isinstance(r, Play)] == ["R7"]
    assert len(set(keys)) == 1 and len(keys) >= 2, keys


def test_a_page_back_from_the_background_opens_a_new_stream(page, served):
    server = served(classic())
    page.clock.install()
    page.goto(server.url)
    expect(page.locator("#conn")).to_have_text(EN["page.live"])
    streams = []
    page.on("websocket", lambda ws: streams.append(ws.url))

    def visibility(state: str) -> None:
        page.evaluate("""(state) => {
          Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
          document.dispatchEvent(new Event('visibilitychange'));
        }""", state)

    visibility("hidden")
    page.clock.fast_forward("00:30")  # the phone slept half a minute: its socket may be dead
    visibility("visible")
    expect(page.locator("#conn")).to_have_text(EN["page.live"])
    assert len(streams) == 1
    visibility("hidden")  # a glance away: the stream that is open stays
    visibility("visible")
    page.clock.run_for(1000)
    assert len(streams) == 1


def test_a_seats_page_without_its_link_says_to_scan_the_code_and_offers_nothing(page, served):
    server = served(classic())
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/seat/1")
    expect(page.locator("#waiting")).to_have_text(EN["page.phone.no_link"])
    for owners in ("#open-setup", "#open-health", "#open-seats"):
        expect(page.locator(owners)).to_be_hidden()
    expect(page.locator("#actions button, #prompts button, .seat")).to_have_count(0)
    # a token this table does not know: forgotten, and the page says the seat is not its own
    page.evaluate("localStorage.setItem(`unotable-seat:${location.host}:1`, 'not-a-token')")
    page.reload()
    expect(page.locator("#waiting")).to_have_text(EN["page.phone.lost"])
    assert page.evaluate("localStorage.getItem(`unotable-seat:${location.host}:1`)") is None


def test_a_seats_page_loads_without_the_tables_token_and_holds_no_secret(page, served):
    server = served(classic(), token="the-owners-token")
    answer = page.request.get(server.url + "/seat/2")
    assert answer.status == 200 and "the-owners-token" not in answer.text()
    assert page.request.get(server.url + "/api/state").status == 401  # the API still needs a token
    assert page.request.get(server.url + "/seat/two").status != 200  # only a seat number is the page
    page.goto(server.url + "/seat/2")
    expect(page.locator("#waiting")).to_have_text(EN["page.phone.no_link"])
