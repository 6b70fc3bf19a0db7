"""A redraw keeps what the person is doing: while the demo's bots play and every move
redraws the page, a person typing at 180 ms a key keeps the field's text, caret and
focus; an open fold stays open when the edition changes; a sheet keeps its scroll; a
seat's phone keeps the tab it chose and the button in focus. On the table's page, the
person's page (`/?seat=1`) and a seat's phone (`/seat/N`)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import play_turn, post, running, state

KEY_MS = 180  # a person's typing pace
PERSON = 0  # the person's seat (seat 1 on the page)


class Demo:
    """`unotable demo --serve` with the person's decisions sent as their page would, so
    the bots play on and every move pushes a state to the pages."""

    def __init__(self, demo: ScreenDemo) -> None:
        self.demo = demo
        self.url = demo.daemon.server.url  # type: ignore[union-attr]
        self.person_plays = threading.Event()
        self.person_plays.set()
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._person, daemon=True)
        self.thread.start()

    def _person(self) -> None:
        while not self.done.is_set():
            st = state(self.demo)
            if self.person_plays.is_set() and st["waiting"].get("seat") == PERSON:
                play_turn(self.demo, st, PERSON)
            time.sleep(0.05)

    def step(self) -> int:
        return int(state(self.demo)["step"])

    def close(self) -> None:
        self.done.set()
        self.thread.join(10)


@pytest.fixture
def demo(tmp_path: Any) -> Iterator[Demo]:
    screen = ScreenDemo("classic", 4, seed=12, person=PERSON, port=0, fast=True, pace=0.25,
                        directory=tmp_path)
    with running(screen):
        table = Demo(screen)
        try:
            yield table
        finally:
            table.close()


def until(page: Any, js: str, what: str, timeout: float = 30) -> None:
    """Wait until `js` is true on `page` (asked from outside: the page's CSP forbids eval)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(js):
        assert time.monotonic() < deadline, f"never: {what}"
        page.wait_for_timeout(50)


def redrawn(page: Any, demo: Demo, moves: int = 3) -> None:
    """Wait until the page has shown `moves` more of the bots' moves."""
    target = demo.step() + moves
    until(page, f"(window.unotable.state?.step ?? 0) >= {target}", f"{moves} more moves shown")


def focused(page: Any) -> dict[str, str]:
    """The data attributes of the element in focus, which say which field or tab it is."""
    return dict(page.evaluate("({ ...document.activeElement?.dataset })"))


def the_set_up_keeps_what_is_typed(page: Any, demo: Demo) -> None:
    page.click("#open-setup")
    sheet = page.locator("#sheet")
    name = sheet.locator("[data-name='1']")
    name.click()
    page.keyboard.press("Control+a")  # over the name the table has for the seat
    before = demo.step()
    page.keyboard.type("Annabel", delay=KEY_MS)
    page.keyboard.press("Home")  # the caret moves; what follows goes where it stands
    page.keyboard.type("Dr ", delay=KEY_MS)
    assert demo.step() >= before + 3, "the bots did not play while the person typed"
    redrawn(page, demo)
    expect(name).to_have_value("Dr Annabel")
    assert focused(page) == {"name": "1"}

    sheet.locator("details summary").click()  # the house rules
    number = sheet.locator("[data-option='target_score']")
    number.click()
    page.keyboard.press("Control+a")
    page.keyboard.type("350", delay=KEY_MS)
    redrawn(page, demo)
    expect(number).to_have_value("350")
    assert focused(page) == {"option": "target_score"}

    page.locator("#edition-select").select_option("power")
    redrawn(page, demo)
    expect(sheet.locator("details")).to_have_attribute("open", "")  # the fold stays open
    expect(page.locator("#edition-select")).to_have_value("power")
    expect(name).to_have_value("Dr Annabel")

    sheet.evaluate("el => { el.scrollTop = el.scrollHeight; }")
    scrolled = sheet.evaluate("el => el.scrollTop")
    assert scrolled > 0
    redrawn(page, demo)
    assert sheet.evaluate("el => el.scrollTop") == scrolled


def test_the_tables_page_keeps_typing_folds_and_scroll_while_the_bots_play(page, demo):
    page.goto(demo.url + "/")
    expect(page.locator("#conn")).to_have_text("live")
    the_set_up_keeps_what_is_typed(page, demo)


def test_the_persons_page_keeps_typing_folds_and_scroll_while_the_bots_play(page, demo):
    page.goto(demo.url + "/?seat=1")
    expect(page.locator("#conn")).to_have_text("live")
    the_set_up_keeps_what_is_typed(page, demo)


def test_a_seats_phone_keeps_its_tab_and_focus_while_the_table_moves(page, browser, demo):
    demo.person_plays.clear()  # the person decides on their phone
    page.goto(demo.url + "/")  # the owner's screen: the seat's link, then pauses
    expect(page.locator("#conn")).to_have_text("live")
    page.click("#open-seats")
    code = page.locator(f'[data-seat-code="{PERSON + 1}"]')
    expect(code.locator("svg.qr")).to_be_visible()
    link = urlsplit(code.get_attribute("data-url"))
    page.click("#close")
    phone = browser.new_page()
    try:
        phone.set_viewport_size({"width": 390, "height": 844})
        phone.goto(f"{demo.url}{link.path}#{link.fragment}")
        expect(phone.locator("#me")).to_be_visible()
        phone.locator('[data-declare="G"]').click(timeout=30000)  # the person's turn: green
        tab = phone.locator('#sheet [data-tab="B"]')
        tab.focus()
        phone.keyboard.press("Enter")  # blue, chosen from the keyboard
        expect(tab).to_have_class("tab c-B on")
        for _ in range(3):  # the owner pauses and resumes: the phone shows each
            assert post(demo.demo, "/api/admin/pause", {})[0] == 200
            until(phone, "window.unotable.state.waiting.kind === 'paused'", "the pause shown")
            assert post(demo.demo, "/api/admin/resume", {})[0] == 200
            until(phone, "window.unotable.state.waiting.kind === 'turn'", "the turn shown again")
        expect(tab).to_have_class("tab c-B on")
        assert focused(phone) == {"tab": "B"}
    finally:
        phone.close()
        demo.person_plays.set()
