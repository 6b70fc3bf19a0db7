"""Helpers for the phone tests: a Chromium of their own (a context per phone, each with its
own storage, as two people's phones are), the table's screen, and a seat's phone joined
from the link the table's screen shows (its "Phones" sheet)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import expect

from firmware.sim.players import private_view
from firmware.sim.testbed import SimTable
from uno_core import Play, format_card, legal_actions

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 800, "height": 480}


class People:
    """The people at the table: a table's screen and phones, each in its own browser context."""

    def __init__(self, chrome: Any, table: SimTable) -> None:
        self.chrome = chrome
        self.table = table
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def _page(self, size: dict[str, int], phone: bool) -> Any:
        context = self.chrome.new_context(viewport=size, is_mobile=phone, has_touch=phone)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(8000)
        page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        return page

    def screen(self, *, clock: bool = False) -> Any:
        """The table's own screen at 800x480 (the owner: loopback, no [api] token);
        `clock`: with Playwright's clock, which the test moves on (`page.clock`)."""
        page = self._page(SCREEN, phone=False)
        if clock:
            page.clock.install()
        page.goto(self.table.url)
        expect(page.locator("#conn")).to_have_text("live")
        return page

    def link(self, screen: Any, seat: int) -> str:
        """Seat `seat`'s link as the screen's Phones sheet shows it (on this test's address:
        the link names the table's LAN address, which a test on loopback cannot open)."""
        screen.click("#open-seats")
        screen.click(f'[data-show-code="{seat}"]')  # one seat's code at a time, on a tap
        code = screen.locator(f'[data-seat-code="{seat}"]')
        expect(code.locator("svg.qr")).to_be_visible()
        url = urlsplit(code.get_attribute("data-url"))
        screen.click("#close")
        assert url.path == f"/seat/{seat}" and url.fragment.startswith("join=")
        return f"{self.table.url}{url.path}#{url.fragment}"

    def phone(self, link: str, size: dict[str, int] = PHONE, *, joined: bool = True) -> Any:
        page = self._page(size, phone=True)
        page.goto(link)
        if joined:
            expect(page.locator("#conn")).to_have_text("live")
            expect(page.locator("#me")).to_be_visible()
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


def token_of(page: Any) -> str | None:
    """The device token the phone's page keeps (localStorage, per table and seat)."""
    return page.evaluate("Object.entries(localStorage).find(([k]) => k.startsWith('unotable-seat:'))?.[1] ?? null")


def forged(page: Any, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """POST from the phone's page with its own token, as a tampered page would."""
    return tuple(page.evaluate(
        """async ([path, body]) => {
          const token = Object.entries(localStorage).find(([k]) => k.startsWith('unotable-seat:'))[1];
          const r = await fetch(path, { method: 'POST', body: JSON.stringify(body),
            headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
          return [r.status, await r.json()];
        }""", [path, body]))


def playable(table: SimTable, seat: int) -> list[Play]:
    """The plays `seat` could lay now from the cards in front of it (the twin's world)."""
    world = table.world
    view = table.call(lambda: private_view(table.controller.state, seat, world.hands[seat],
                                           world.received.get(seat, [])))
    return [a for a in legal_actions(view) if isinstance(a, Play) and a.seat == seat and not a.uno]


def until_turn_with_a_play(table: SimTable, seat: int, holding: int | None = None) -> tuple[dict, Play]:
    """Let the bots play until `seat` is to play and has a card to lay (holding `holding`
    cards, when given)."""
    for _ in range(400):
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and st["waiting"]["seat"] == seat
                              and (holding is None or st["hand_counts"][seat] == holding))
        options = playable(table, seat)
        if options:
            return st, options[0]
        table.bot_step()  # nothing to lay: the bot presses the launcher for it
    raise AssertionError(f"seat {seat} never had a card to play")


def declare(page: Any, play: Play) -> str:
    """Declare `play` on a page in as many taps as the table's screen takes: colour, card,
    (a wild's colour), Play."""
    card = format_card(play.card)
    page.click(f'[data-declare="{"W" if card.startswith("W") else card[0]}"]')
    page.click(f'.grid [data-card="{card}"]')
    if play.colour:
        page.click(f'[data-choose-colour="{play.colour}"]')
    page.click("#confirm")
    return card
