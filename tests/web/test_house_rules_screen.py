"""House rules on the screen (issue 12): the set-up sheet's control per option and its
presets, built from GET /api/editions; a badge on the board for each rule in force, the
draw stack pending and the turn timer, naming seats as the table does."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from firmware.api import Play
from tests.web.screen import EngineTable
from tests.web.test_readable import open_page
from uno_core import Draw, apply, position
from uno_core import Play as EnginePlay
from uno_core.cards import parse_card

NAMES = ["North", "East", "South"]


def opened(page, served, *, turn=0, names=None):
    """A classic position served to the page, which shows it live: (table, server)."""
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5",
                                 turn=turn), names=names)
    server = served(table)
    open_page(page, server)
    return table, server


def test_the_set_up_offers_a_control_per_option_and_starts_with_the_timer_chosen(page, served):
    table, server = opened(page, served)
    expect(page.locator("#rules")).to_be_empty()  # the seed's rules: no badge
    page.click("#open-setup")
    expect(page.locator("#preset-select option")).to_have_text(["As printed in the rules", "Mattel's official rules", "Party"])
    page.click("details summary")
    timer = page.locator('[data-option="turn_timer_s"]')
    expect(timer).to_have_attribute("type", "number")
    expect(timer).to_have_attribute("max", "600")
    expect(page.locator('[data-option="timeout_action"] option')).to_have_text(
        ["the player draws", "the player passes", "only a warning"])
    expect(page.locator('[data-option="jump_in"]')).to_have_attribute("type", "checkbox")
    expect(page.locator('[data-option="stack_draws"] option')).to_have_text(
        ["no", "the same kind", "any draw card", "upwards only: +4 on +2"])
    timer.fill("30")
    timer.dispatch_event("change")
    page.select_option('[data-option="timeout_action"]', "pass")
    page.click("#start")
    expect(page.locator("#sheet")).to_be_hidden()
    assert table.state.options.turn_timer_s == 30 and table.state.options.timeout_action == "pass"
    expect(page.locator('#rules [data-rule="turn_timer_s"]')).to_have_text("turn timer 30 s")


def test_choosing_a_preset_sets_its_rules_in_the_form(page, served):
    table, server = opened(page, served)
    page.click("#open-setup")
    page.select_option("#preset-select", "party")
    page.click("details summary")
    expect(page.locator('[data-option="stack_draws"]')).to_have_value("cross")
    expect(page.locator('[data-option="seven_zero"]')).to_be_checked()
    expect(page.locator('[data-option="jump_in"]')).to_be_checked()
    page.select_option("#edition-select", "attack")  # the preset follows the edition
    expect(page.locator('[data-option="jump_in"]')).to_be_checked()
    page.select_option("#preset-select", "seed")
    expect(page.locator('[data-option="jump_in"]')).not_to_be_checked()
    page.select_option("#edition-select", "classic")
    page.select_option("#preset-select", "party")
    page.click("#start")
    expect(page.locator("#sheet")).to_be_hidden()
    assert table.requests[-1].params["preset"] == "party"
    options = table.state.options
    assert (options.stack_draws, options.seven_zero, options.jump_in) == ("cross", True, True)
    expect(page.locator("#rules .rule")).to_have_text(["stacking: any draw card", "7-0", "jump-in"])


def test_the_board_shows_the_stack_pending_and_the_turn_timer_by_seat_name(page, served):
    table, server = opened(page, served, turn=1, names=NAMES)
    server.do(lambda: (table.extra.update(stack={"count": 6, "unit": "cards", "seat": 1}),
                       table.publish({"kind": "changed"})))
    expect(page.locator("#stack-badge")).to_have_text("stack: +6 pending, East")
    server.do(lambda: (table.extra.update(stack={"count": 4, "unit": "presses", "seat": 2},
                                          turn_timer={"step": 3, "seat": 2, "left_s": 4.0,
                                                      "warning": True}),
                       table.publish({"kind": "changed"})))
    expect(page.locator("#stack-badge")).to_have_text("stack: 4 presses pending, South")
    expect(page.locator("#timer-badge")).to_have_text(re.compile(r"South: [34] s left"))
    expect(page.locator("#timer-badge")).to_have_class("badge warn")
    page.click("#lang")  # the badges are worded in the screen's language
    expect(page.locator("#stack-badge")).to_have_text("Stapel: 4-mal drücken für Süd")  # names in German


def test_every_seat_but_the_one_to_act_may_jump_in_with_the_top_cards_twin(page, served):
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "R5 Y2 Y3"], discard="R5",
                                 turn=0, options={"jump_in": True}), names=NAMES)
    server = served(table)
    open_page(page, server)
    expect(page.locator("#jump-in-label")).to_have_text("Jump in with red 5:")
    expect(page.locator("[data-jump-in]")).to_have_text(["East", "South"])
    page.click('[data-jump-in="2"]')
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()
    assert table.requests[-1] == Play(2, "R5", {})
    assert table.state.to_act == 0 and table.state.counts == (2, 2, 2)  # on from the jumper
    expect(page.locator('#rules [data-rule="jump_in"]')).to_have_text("jump-in")


def test_a_seven_asks_whom_to_swap_with_and_the_notice_says_to_swap(page, served):
    table = EngineTable(position("classic", hands=["R7 R8 G3", "G1 G2", "Y1 Y2 Y3 Y4"],
                                 discard="R5", turn=0, options={"seven_zero": True}),
                        names=NAMES)
    server = served(table)
    open_page(page, server)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    expect(page.locator(".choice .label")).to_have_text("Swap hands with:")
    expect(page.locator("#confirm")).to_be_disabled()
    page.click('[data-target="2"]')
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()
    assert table.requests[-1] == Play(0, "R7", {"target": 2})
    assert table.state.counts == (4, 2, 2)
    expect(page.locator("#notice")).to_contain_text(
        "— North (seat 1) trades hands with South (seat 3).")


def test_drawing_until_playable_offers_no_keeping_the_drawn_card(page, served):
    state = position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="B5", pile="G3 Y9 R1",
                     turn=0, options={"draw_until_playable": True})
    state, _ = apply(state, Draw(0))  # the drawn card does not fit: the seat draws again
    table = EngineTable(state, names=NAMES)
    open_page(page, served(table))
    expect(page.locator("#waiting")).to_contain_text(
        "play the drawn card if it fits, else draw again")
    expect(page.locator("#pass")).to_have_count(0)  # keeping it is not allowed


def test_without_the_rule_the_drawn_card_may_be_kept(page, served):
    state = position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="B5", pile="B9 B7 B3",
                     turn=0, options={"draw_then_play": True})
    state, _ = apply(state, Draw(0))
    table = EngineTable(state, names=NAMES)
    open_page(page, served(table))
    expect(page.locator("#waiting")).to_contain_text("play the drawn card or keep it")
    expect(page.locator("#pass")).to_have_count(1)


def test_every_jump_in_button_of_a_crowded_board_stays_on_the_800x480_screen(page, served):
    # a +2 stack pending, three rule badges, the timer and a jump-in for three seats at once
    state = position("classic", hands=["R+2 R3 G4 B7", "B+2 Y5 G6 R9", "Y1 Y2 B3 G1",
                                       "G2 G3 Y7 B1"], discard="R5", turn=0,
                     options={"stack_draws": "cross", "jump_in": True, "seven_zero": True,
                              "turn_timer_s": 30})
    state, _ = apply(state, EnginePlay(0, parse_card("R+2")))
    table = EngineTable(state, names=["North", "East", "South", "West"])
    table.extra["turn_timer"] = {"step": 1, "seat": 1, "left_s": 25, "warning": False}
    open_page(page, served(table))
    expect(page.locator("#stack-badge")).to_have_text("stack: +2 pending, East")
    expect(page.locator("#timer-badge")).to_be_visible()
    buttons = page.locator("[data-jump-in]")
    expect(buttons).to_have_count(3)
    for i in range(3):
        box = buttons.nth(i).bounding_box()
        assert box is not None and box["height"] >= 48
        # nothing clips or covers it: the page's topmost element at its centre is the button
        on_top = page.evaluate("([x, y]) => document.elementFromPoint(x, y)?.dataset.jumpIn ?? null",
                               [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert on_top == str(i if i < 1 else i + 1)  # seats 0, 2, 3 (1 is to act)
