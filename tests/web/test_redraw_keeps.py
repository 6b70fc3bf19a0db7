"""A redraw keeps what the person is doing: while the demo's bots play and every move
redraws the page, a person typing at 180 ms a key keeps the field's text, caret and
focus; an open fold stays open when the edition changes and the edition stays chosen;
a sheet keeps its scroll; the hand being entered keeps its cards, its tab and the
focus; a seat's phone keeps the tab it chose and the focus. On the table's page, the
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
from tests.web.demo_person import persons_wait, play_turn, post, running, state

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
        self.leaves: set[str] = set()  # the waits the person answers on the page in the test
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._person, daemon=True)
        self.thread.start()

    def _person(self) -> None:
        while not self.done.is_set():
            st = state(self.demo)
            w = st["waiting"]
            if self.person_plays.is_set() and persons_wait(st, PERSON) and w["kind"] not in self.leaves:
                play_turn(self.demo, st, PERSON)
            time.sleep(0.05)

    def step(self) -> int:
        return int(state(self.demo)["step"])

    def close(self) -> None:
        self.done.set()
        self.thread.join(10)


@pytest.fixture
def demo(tmp_path: Any, request: Any) -> Iterator[Demo]:
    pace = getattr(request, "param", 0.25)  # seconds between the bots' moves
    screen = ScreenDemo("classic", 4, seed=12, person=PERSON, port=0, fast=True, pace=pace,
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


def paused_and_resumed(page: Any, demo: Demo, back_to: str) -> None:
    """The owner pauses and resumes three times; `page` shows each."""
    for _ in range(3):
        assert post(demo.demo, "/api/admin/pause", {})[0] == 200
        until(page, "window.unotable.state.waiting.kind === 'paused'", "the pause shown")
        assert post(demo.demo, "/api/admin/resume", {})[0] == 200
        until(page, f"window.unotable.state.waiting.kind === '{back_to}'", "the wait shown again")


@pytest.mark.parametrize("demo", [0.02], indirect=True)  # to the round's end soon
def test_the_persons_hand_entry_keeps_its_cards_tab_and_focus(page, demo):
    demo.leaves.add("hand")  # the person enters their hand on the page
    page.goto(demo.url + "/?seat=1")
    expect(page.locator("#conn")).to_have_text("live")
    page.locator("#enter-hand").click(timeout=120000)  # the round is over: the cards left
    entered = page.locator("#sheet [data-entered]")
    count = entered.count()
    assert count >= 2
    entered.first.click()  # one taken back
    expect(entered).to_have_count(count - 1)
    tab = page.locator('#sheet [data-tab="Y"]')
    tab.focus()
    page.keyboard.press("Enter")
    expect(tab).to_have_class("tab c-Y on")
    paused_and_resumed(page, demo, "hand")
    expect(entered).to_have_count(count - 1)
    expect(tab).to_have_class("tab c-Y on")
    assert focused(page) == {"tab": "Y"}


def test_a_seats_phone_keeps_its_tab_and_focus_while_the_table_moves(page, browser, demo):
    demo.person_plays.clear()  # the person decides on their phone
    page.goto(demo.url + "/")  # the owner's screen: the seat's link, then pauses
    expect(page.locator("#conn")).to_have_text("live")
    page.click("#open-seats")
    page.click(f'[data-show-code="{PERSON + 1}"]')  # one seat's code at a time, on a tap
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
        paused_and_resumed(phone, demo, "turn")
        expect(tab).to_have_class("tab c-B on")
        assert focused(phone) == {"tab": "B"}
    finally:
        phone.close()
        demo.person_plays.set()
