"""`unotable demo --serve --lan`: the demo serves the local network, prints each seat's QR
code in the terminal with its link, and the owner's link opens the person's page with the
Phones button; a phone that opens a printed link joins its seat."""

from __future__ import annotations

import threading
import time
from urllib.parse import urlsplit

from playwright.sync_api import expect

from firmware.qr import qr_text
from firmware.screen_demo import ScreenDemo
from firmware.seat_keys import lan_address
from tests.web.demo_person import running


class Terminal:
    """What the demo printed, written from the table's loop, read from the test."""

    def __init__(self) -> None:
        self.text = ""
        self.lock = threading.Lock()

    def write(self, text: str) -> int:
        with self.lock:
            self.text += text
        return len(text)

    def flush(self) -> None:
        return None


def printed(term: Terminal, what: str) -> str:
    deadline = time.monotonic() + 20
    while what not in term.text:
        assert time.monotonic() < deadline, f"never printed: {what}\n{term.text}"
        time.sleep(0.02)
    return term.text


def test_the_demo_on_the_network_prints_every_seats_code_and_a_phone_joins(page, browser, tmp_path):
    term = Terminal()
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.5,
                      directory=tmp_path, out=term, lan=True)  # type: ignore[arg-type]
    with running(demo):
        text = printed(term, "the table's screen:")
        address = lan_address("0.0.0.0")
        links = {}
        for line in text.splitlines():
            if line.startswith("seat ") and ": scan the code with a phone, or open " in line:
                links[int(line.split()[1])] = line.rsplit(" ", 1)[1]
        assert sorted(links) == [1, 2, 3]
        for seat, url in links.items():
            parts = urlsplit(url)
            assert parts.hostname == address and parts.path == f"/seat/{seat - 1}"
            assert parts.fragment.startswith("join=")
            assert qr_text(url).rstrip("\n") in text  # the code holds the printed link
        assert "seat 1 (your seat)" in text and "seat 2 (East, a bot plays it)" in text

        page.goto(demo.url)  # the owner's link: the person's page, with the Phones button
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#hand")).to_be_visible()
        expect(page.locator("#open-seats")).to_be_visible()
        page.click("#open-seats")
        expect(page.locator("[data-seat-code]")).to_have_count(3)
        expect(page.locator("#seats-unreachable")).to_have_count(0)
        page.click("#close")

        phone = browser.new_page()
        try:
            phone.set_viewport_size({"width": 390, "height": 844})
            phone.goto(links[2])  # a phone scans East's code
            expect(phone.locator("#me")).to_be_visible()
            expect(phone.locator("#me")).to_have_text("East")
        finally:
            phone.close()


def test_lan_is_refused_without_serve(capsys):
    from firmware.cli import main

    assert main(["demo", "--lan"]) == 2
    err = capsys.readouterr().err
    assert "--lan: only with --serve" in err and len(err.strip().splitlines()) == 1, err


def test_the_demo_on_this_machine_only_says_how_to_serve_phones(page, tmp_path):
    from firmware.words.messages import MESSAGES

    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.5,
                      directory=tmp_path)
    with running(demo):
        page.goto(demo.url)
        expect(page.locator("#conn")).to_have_text("live")
        page.click("#open-seats")  # the person is the demo's owner: their page has the button
        expect(page.locator("#seats-unreachable")).to_have_text(
            MESSAGES["en"]["page.seats.unreachable_demo"])
