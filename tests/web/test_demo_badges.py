"""The board's rule badges name only the rules the edition takes and that are on: in
Attack, Attack-1999 and Extreme no "+4 on a stack may be challenged", "draw until
playable" or "no bluff" while the state has them false, and the colour and what the
person owes ("press the launcher 2×") stay in view, with no sideways scroller."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.web.screen import EngineTable
from tests.web.test_readable import open_page
from uno_core import actions as A
from uno_core import parse_card, position

SIZES = {"screen": {"width": 800, "height": 480}, "phone": {"width": 390, "height": 844}}
NAMES = ["Maximilian-Alexander", "Bartholomäus", "Dietlinde", "Konstantin"]


def hit_two(edition: str, **options) -> EngineTable:
    """`edition` just after North's red Hit-2: East (seat 2 on the screen) owes two presses."""
    state = position(edition, hands=["RH2 R5 B3", "R7 G2 Y4", "B5 B6", "Y1 Y9"], discard="R2",
                     turn=0, options=options)
    table = EngineTable(state, names=NAMES)
    table.act(A.Play(0, parse_card("RH2")))
    table.extra = {"screen_hands": {"1": ["G2", "R7", "Y4"]}}  # as `demo --serve` shows them
    return table


@pytest.mark.parametrize("edition", ["attack", "attack-1999", "extreme"])
def test_rules_the_edition_does_not_take_get_no_badge(page, served, edition):
    table = hit_two(edition)
    for name in ("stacked_draw4_challenge", "draw_until_playable", "no_bluff"):
        assert table.public_state()["options"].get(name) in (False, None)
    open_page(page, served(table), "?seat=2")
    expect(page.locator("#waiting")).to_contain_text("2×")
    expect(page.locator("#rules .badge.rule")).to_have_count(0)


def test_a_rule_that_is_on_still_gets_its_badge(page, served):
    open_page(page, served(hit_two("attack", seven_zero=True)), "?seat=2")
    expect(page.locator('#rules [data-rule="seven_zero"]')).to_have_text("7-0")
    expect(page.locator("#rules .badge.rule")).to_have_count(1)


@pytest.mark.parametrize("size", SIZES)
def test_the_colour_and_the_presses_owed_stay_in_view_without_a_sideways_scroller(page, served, size):
    page.set_viewport_size(SIZES[size])
    open_page(page, served(hit_two("attack")), "?seat=2")
    for sel in ("#current-colour", "#waiting"):
        expect(page.locator(sel)).to_be_in_viewport(ratio=1)
    expect(page.locator("#waiting")).to_contain_text("press the launcher 2×")
    covered = page.evaluate("""() => {
      const out = [];
      for (const sel of ["#current-colour", "#waiting"]) {
        const r = document.querySelector(sel).getBoundingClientRect();
        const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        if (!document.querySelector(sel).contains(hit)) out.push(sel);
      }
      return out;
    }""")
    assert covered == []
    wide = page.evaluate("""() => ["#centre", "#board", "html"].filter((sel) => {
      const e = document.querySelector(sel) ?? document.documentElement;
      return e.scrollWidth > e.clientWidth + 1;
    })""")
    assert wide == []


@pytest.mark.parametrize("size", SIZES)
def test_with_many_rules_on_the_top_area_still_has_no_sideways_scroller(page, served, size):
    page.set_viewport_size(SIZES[size])
    table = hit_two("attack", stack_draws="cross", seven_zero=True, jump_in=True, forced_play=True,
                    no_action_finish=True, turn_timer_s=30, false_uno_penalty=2)
    open_page(page, served(table), "?seat=2")
    expect(page.locator("#rules .badge.rule")).to_have_count(7)
    for sel in ("#current-colour", "#waiting"):
        expect(page.locator(sel)).to_be_in_viewport(ratio=1)
    wide = page.evaluate("""() => ["#centre", "#rules", "#board", "html"].filter((sel) => {
      const e = document.querySelector(sel) ?? document.documentElement;
      return e.scrollWidth > e.clientWidth + 1;
    })""")
    assert wide == []
