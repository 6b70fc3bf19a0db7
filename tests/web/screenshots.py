"""Take the screen's screenshots for the docs: `.venv/bin/python tests/web/screenshots.py`.

Serves positions of a Power match through the real API server, opens the page in
Debian's headless Chromium at 800x480 (the table's touchscreen) and 390x844 (a phone),
and writes PNGs into docs/screenshots/.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from firmware.sim.testbed import SimTable  # noqa: E402
from tests.web.conftest import chromium  # noqa: E402
from tests.web.screen import EngineTable, Served  # noqa: E402
from uno_core import Play, parse_card, position  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    state = position("power", hands=["R7 WT1 B3", "B4", "G5 G6 Y2 Y3 R1U", "R5 Y5 Y6 B9"],
                     discard="R2", towers={"U": 1, "N": 2, "O": 2}, turn=3,
                     scores=[120, 45, 0, 310], exposed=1)
    table = EngineTable(state, names=["Ann", "Bob", "Cy", "Dee"])
    server = Served(table)
    try:
        with sync_playwright() as pw:
            context = chromium(pw, tempfile.mkdtemp(prefix="unotable-shots-"))
            page = context.new_page()
            page.goto(server.url)
            expect(page.locator("#conn")).to_have_text("live")
            expect(page.locator("#open-health")).to_have_text("Health ✓")
            server.do(lambda: table.act(Play(3, parse_card("R5"))))  # the last event on the board
            expect(page.locator("#notice")).to_have_text("Dee (seat 4) played red 5")
            page.screenshot(path=OUT / "board.png")
            page.click('[data-declare="R"]')
            page.screenshot(path=OUT / "declare.png")
            page.click('[data-tab="W"]')
            page.click('.grid [data-card="WT1"]')
            page.click('[data-choose-colour="B"]')
            page.click('[data-tower="N"]')
            page.screenshot(path=OUT / "choices.png")
            page.click("#close")
            page.click("#open-setup")
            page.click("details summary")
            page.screenshot(path=OUT / "setup.png")
            ends_shots(page, table)
            german_shots(page, table, server)
            phone = context.new_page()
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(server.url)
            expect(phone.locator("#conn")).to_have_text("live")
            phone.screenshot(path=OUT / "phone.png", full_page=True)
            context.close()
    finally:
        server.close()
    serve_shot(OUT / "serve.png")
    phone_shots()
    fit_shots()
    for name in ("phone-seat.png", "phone-seat-360.png", "seats.png", "board-phones.png",
                 "phone-waiting.png", "board.png", "declare.png", "choices.png", "setup.png", "phone.png", "serve.png",
                 "round-end.png", "match-end.png", "board-de.png", "declare-de.png",
                 "round-end-de.png", "match-end-de.png"):
        print(OUT / name)
    return 0


def german_shots(page: Any, table: EngineTable, server: Served) -> None:
    """The board, the play sheet and the ends once more, the page switched to German."""
    page.goto(page.url)
    expect(page.locator("#conn")).to_have_text("live")
    page.click("#lang")
    event = {"kind": "action", "action": {"type": "play", "seat": 3, "card": "R5"}, "effects": []}
    server.do(lambda: table.publish(event))  # the last event on the board, as before
    expect(page.locator("#notice")).to_have_text("Dee (Platz 4): eine rote 5 gelegt")
    page.screenshot(path=OUT / "board-de.png")
    page.click('[data-declare="R"]')
    page.screenshot(path=OUT / "declare-de.png")
    page.click("#close")
    ends_shots(page, table, "-de")
    page.evaluate("localStorage.removeItem('unotable-lang')")


def ends_shots(page: Any, table: EngineTable, suffix: str = "") -> None:
    """The round's result while the table pauses, then the match's end with its chart."""
    # the winner scores the cards left in the other hands (winner_takes), so totals add up
    rounds = [{"round": 1, "winner": 2, "points": [40, 12, 0, 68], "scores": [0, 0, 120, 0]},
              {"round": 2, "winner": 1, "points": [80, 0, 45, 242], "scores": [0, 367, 120, 0]}]
    table.extra = {"rounds": rounds, "round_end": rounds[1],
                   "waiting": {"kind": "round-over", **rounds[1], "pause_s": 20}}
    page.goto(page.url)
    expect(page.locator("#round-end")).to_be_visible()
    page.screenshot(path=OUT / f"round-end{suffix}.png")
    rounds.append({"round": 3, "winner": 1, "points": [30, 0, 60, 190],
                   "scores": [0, 647, 120, 0]})
    table.extra = {"rounds": rounds, "round_end": None, "winners": [1],
                   "waiting": {"kind": "match-over", "winners": [1], "message": "match over"}}
    page.goto(page.url)
    expect(page.locator("#score-chart")).to_be_visible()
    page.screenshot(path=OUT / f"match-end{suffix}.png")
    table.extra = {}


def serve_shot(path: Path) -> None:
    """`unotable demo --serve`: the person's seat, their cards on the screen."""
    import threading
    import time

    from firmware.screen_demo import ScreenDemo

    with tempfile.TemporaryDirectory() as tmp:
        demo = ScreenDemo("power", 4, seed=3, person=0, port=0, fast=True, pace=0.0, directory=tmp)
        runner = threading.Thread(target=demo.run, kwargs={"signals": False}, daemon=True)
        runner.start()
        try:
            while demo.daemon.server is None or demo.daemon.server.port == 0:
                time.sleep(0.02)
            with sync_playwright() as pw:
                context = chromium(pw, tempfile.mkdtemp(prefix="unotable-shots-"))
                page = context.new_page()
                page.goto(demo.url)
                expect(page.locator("#waiting")).to_have_text("Your turn", timeout=20000)
                page.screenshot(path=path)
                context.close()
        finally:
            demo.stop()
            runner.join(20)


def phone_shots() -> None:
    """Issue 20: two players on their phones (390x844, 360x740) beside the table's screen
    (its Phones sheet showing one seat's code, a phone waiting for the owner's approval), on
    the real daemon over the twin."""
    from tests.web.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.web.phones import SMALL_PHONE, People, until_turn_with_a_play

    with tempfile.TemporaryDirectory() as tmp, SimTable(tmp, "classic", players=4, seed=5) as table, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        people = People(browser, table)
        screen = people.screen()
        east = people.phone(people.link(screen, 1))
        south = people.phone(people.link(screen, 2), SMALL_PHONE)
        until_turn_with_a_play(table, 1)
        expect(east.locator("#yours")).to_have_text("Your turn: lay your card, then declare it here")
        east.screenshot(path=OUT / "phone-seat.png")
        south.screenshot(path=OUT / "phone-seat-360.png")
        screen.click("#open-seats")
        screen.click('[data-show-code="3"]')  # one seat's code, on the owner's tap
        expect(screen.locator("[data-seat-code] svg.qr")).to_have_count(1)
        screen.screenshot(path=OUT / "seats.png")
        screen.click("#close")
        waiting = people.phone(people.link(screen, 1), SMALL_PHONE, joined=False)
        expect(waiting.locator("#waiting")).to_contain_text("this phone's code:")
        expect(screen.locator('#prompts [data-approve="1"]')).to_be_visible()
        screen.screenshot(path=OUT / "board-phones.png")
        waiting.screenshot(path=OUT / "phone-waiting.png")
        people.close()
        browser.close()


def fit_shots() -> None:
    """Every sheet and panel the fit test measures (tests/web/fit.py), at each size, in
    English, and in German on the smallest phone: docs/screenshots/fit/<sheet>-<size>[-de].png.
    A phone's page is taken whole, its pinned buttons put at its end for the picture."""
    from tests.web.fit import SIZES, SeatedServed, walk

    folder = OUT / "fit"
    folder.mkdir(exist_ok=True)
    runs = [(size, "en") for size in SIZES] + [("360x740", "de")]
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        context = chromium(pw, tempfile.mkdtemp(prefix="unotable-shots-"))
        servers: list[Served] = []

        def serve(table: EngineTable) -> Served:
            servers.append(SeatedServed(table, tempfile.mkdtemp(dir=tmp)))
            return servers[-1]

        for size, lang in runs:
            page = context.new_page()
            width, height = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            phone = width < 640

            def seen(name: str, page: Any = page, size: str = size, lang: str = lang, phone: bool = phone) -> None:
                path = folder / f"{name}-{size}{'' if lang == 'en' else '-de'}.png"
                if phone:
                    page.evaluate("document.querySelector('#actions').style.position = 'static'")
                    page.screenshot(path=path, full_page=True)
                    page.evaluate("document.querySelector('#actions').style.position = ''")
                else:
                    page.screenshot(path=path)

            walk(page, serve, lang, seen)
            page.close()
            while servers:
                servers.pop().close()
        context.close()


if __name__ == "__main__":
    raise SystemExit(main())
