"""The table's screen in a real browser: Debian's headless Chromium driven by Playwright.

`browser` is one Chromium per test module (fresh user-data dir); every test gets a new
800x480 page. Not one per session: Playwright's sync API keeps its asyncio loop running
in the main thread for as long as it is started, so every later test that calls
asyncio.run() (tests/firmware/test_house_rules_api.py after tests/web/test_serve.py)
failed with "cannot be called from a running event loop". Per module, the loop is gone
once the module's browser tests are done, whatever order the modules run in. `served(table)` serves a table through the real API server (tests/web/screen.py);
`shown(table)` serves it and opens its screen.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.web.screen import EngineTable, Served

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREEN = {"width": 800, "height": 480}


def chromium(pw: Any, profile: str) -> Any:
    """Debian's headless Chromium at the screen's size, with its own user-data dir."""
    return pw.chromium.launch_persistent_context(
        profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True, viewport=SCREEN)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    profile = tempfile.mkdtemp(prefix="unotable-chromium-")
    with sync_playwright() as pw:
        context = chromium(pw, profile)
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def chrome() -> Iterator[Any]:
    """Chromium with a context per person (`browser` is one persistent context sharing
    one storage: two phones there would be one phone)."""
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = browser.new_page()
    page.set_default_timeout(5000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    page.close()
    assert errors == [], f"the page raised: {errors}"


@pytest.fixture
def served(closed_after: Callable[[Served], Served]) -> Callable[..., Served]:
    def serve(table: EngineTable, token: str | None = None) -> Served:
        return closed_after(Served(table, token=token))

    return serve


@pytest.fixture
def shown(page: Any, served: Callable[..., Served]) -> Callable[..., Served]:
    """`shown(table, "?seat=1")`: serve `table` and open its screen on `page` (the query
    after the path), once the page says it is live. Returns the server."""

    def show(table: EngineTable, query: str = "") -> Served:
        server = served(table)
        page.goto(server.url + "/" + query)
        expect(page.locator("#conn")).to_have_text("live")
        return server

    return show

