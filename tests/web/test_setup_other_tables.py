"""Issue 23: the set-up sheet offers the rules other tables play (it reads
GET /api/editions, so a declared option appears there), and a match starts with them."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import position


def test_the_setup_sheet_offers_the_new_options_and_starts_a_match_with_them(page, shown):
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5",
                                 turn=0))
    shown(table)
    page.click("#open-setup")
    page.select_option("#edition-select", "classic")
    page.click("details summary")
    expect(page.locator('[data-option="jump_in_wilds"]')).not_to_be_checked()
    expect(page.locator('[data-option="false_uno_penalty"]')).to_have_value("0")
    page.check('[data-option="no_draw_finish"]')
    page.select_option('[data-option="stack_draws"]', "up")
    page.fill('[data-option="false_uno_penalty"]', "2")
    page.dispatch_event('[data-option="false_uno_penalty"]', "change")
    page.click("#start")
    expect(page.locator("#edition")).to_have_text("classic")
    options = table.state.options
    assert (options.no_draw_finish, options.stack_draws, options.false_uno_penalty) == (
        True, "up", 2)
