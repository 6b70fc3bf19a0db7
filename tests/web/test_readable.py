"""The table's screen read from a metre away at 800x480: sizes, contrast and touch targets
as the browser computes them (getComputedStyle, getBoundingClientRect), the whole width
used, and a hand that cannot be tapped into a refusal."""

from __future__ import annotations

from playwright.sync_api import expect

from firmware.waits import PHASE_WAITS, Wait
from tests.web.screen import EngineTable
from uno_core import actions as A
from uno_core import parse_card, position

# every box the page draws for a selector: its font size in px, its box, and the WCAG
# contrast of its text against the first opaque background behind it
MEASURE = """(sel) => {
  const rgb = (c) => c.match(/[\\d.]+/g).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const bg = getComputedStyle(e).backgroundColor;
      if (rgb(bg)[3] !== 0) return bg;
    }
    return getComputedStyle(document.body).backgroundColor;
  };
  return [...document.querySelectorAll(sel)].filter((e) => e.getClientRects().length).map((e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    const [a, b] = [lum(cs.color), lum(behind(e))].sort((x, y) => y - x);
    return { text: e.textContent.trim(), font: parseFloat(cs.fontSize), contrast: (a + 0.05) / (b + 0.05),
             x: r.x, y: r.y, w: r.width, h: r.height, right: r.right, bottom: r.bottom };
  });
}"""

# what a finger taps; a checkbox is tapped through its label
TARGETS = "button, select, input:not([type=checkbox]), summary, label:has(input[type=checkbox])"


def measure(page, sel: str) -> list[dict]:
    return page.evaluate(MEASURE, sel)


def box(page, sel: str) -> dict:
    (found,) = measure(page, sel)
    return found


def open_page(page, server, query: str = "") -> None:
    page.goto(server.url + "/" + query)
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator(".seat[data-seat]").first).to_be_visible()


def four_seats(**kw) -> EngineTable:
    return EngineTable(position("power", hands=["R7 WT1 B3", "B4", "G5 G6 Y2 Y3 R1U", "R5 Y5 Y6 B9"],
                                discard="R2", towers={"U": 1, "N": 2, "O": 2}, turn=3,
                                scores=[120, 45, 0, 310], **kw),
                       names=["Ann", "Bob", "Cy", "Dee"])


def small_targets(page) -> list[tuple[str, float, float]]:
    return [(t["text"][:30], t["w"], t["h"]) for t in measure(page, TARGETS) if min(t["w"], t["h"]) < 48]


def test_names_counts_the_last_event_and_card_corners_read_from_a_metre(page, served):
    table = four_seats()
    server = served(table)
    open_page(page, server)
    server.do(lambda: table.act(A.Play(3, parse_card("R5"))))
    expect(page.locator("#notice")).to_have_text("Dee (seat 4) played red 5")
    names, counts = measure(page, ".seat[data-seat] .name"), measure(page, ".seat[data-seat] .count")
    assert [n["text"] for n in names] == ["▶ Ann 1", "Bob 2", "Cy 3", "Dee 4"]
    assert min(n["font"] for n in names) >= 24 and min(c["font"] for c in counts) >= 24
    notice = box(page, "#notice")
    assert notice["font"] >= 18 and notice["contrast"] >= 4.5
    assert box(page, "#top .cl")["font"] >= 16  # the colour letter in the card's corner
    page.click('[data-declare="R"]')  # the small cards of the picker
    corners = measure(page, ".grid .card .cl")
    assert len(corners) > 10 and min(c["font"] for c in corners) >= 16


def test_the_board_uses_the_whole_width(page, served):
    server = served(four_seats())
    open_page(page, server)
    centre, seats, notice = box(page, "#centre"), box(page, "#seats"), box(page, "#notice")
    rows = measure(page, "#seats > .seat")
    assert centre["right"] <= seats["x"] and seats["right"] >= 784  # side by side, to the edge
    scores = measure(page, ".seat .score")
    assert min(s["right"] for s in scores) >= 770  # the points stand at the right edge
    # the seat rows fill the right-hand column top to bottom, not its top third
    filled = rows[-1]["bottom"] - rows[0]["y"]
    assert filled >= 0.9 * seats["h"] and seats["w"] >= 480
    assert notice["w"] >= 780  # the last event has the whole width


def test_ten_seats_fit_without_scrolling_and_keep_their_size(page, served):
    table = EngineTable(position("classic", counts=[2] * 10, discard="R5", turn=0, mode="table"))
    server = served(table)
    open_page(page, server)
    expect(page.locator(".seat[data-seat]")).to_have_count(10)
    assert page.evaluate("(() => { const s = document.querySelector('#seats'); return s.scrollHeight <= s.clientHeight; })()")
    assert min(n["font"] for n in measure(page, ".seat .name")) >= 24
    assert page.evaluate("document.documentElement.scrollHeight") <= 480


def test_every_touch_target_is_at_least_48px(page, served):
    table = four_seats(exposed=1)
    table.extra["undoable"] = {"seat": 3, "card": "R5"}
    server = served(table)
    open_page(page, server)
    expect(page.locator("#catch")).to_be_visible()
    seen = len(measure(page, TARGETS))
    assert small_targets(page) == []  # the bar, the prompts, the colour buttons
    page.click('[data-declare="W"]')
    page.click('.grid [data-card="WT1"]')  # colours and towers to choose
    seen += len(measure(page, TARGETS))
    assert small_targets(page) == []
    page.click("#close")
    page.click("#open-setup")
    page.click("details summary")  # the house rules: selects, numbers, checkboxes
    seen += len(measure(page, TARGETS))
    assert small_targets(page) == []
    page.click("#close")
    page.click("#open-health")
    page.click("details summary")
    assert small_targets(page) == []
    assert seen > 40


def serve_hand(cards: str, **kw) -> EngineTable:
    table = EngineTable(position("power", hands=[cards, "G1 G2", "Y1 Y2"], discard="R5", turn=0, **kw))
    table.extra["screen_hands"] = {"0": cards.split()}  # demo --serve: the person's cards on the screen
    return table


def test_the_hand_is_disabled_while_something_physical_is_pending(page, served):
    table = serve_hand("R7 B3 G5 Y5 W+4 R1U R8")
    server = served(table)
    open_page(page, server, "?seat=1")
    hand = page.locator("[data-hand]")
    expect(hand).to_have_count(7)
    for waiting in ({"kind": "ejecting", "seat": 1, "job": "deal"}, {"kind": "press", "seat": 0, "presses": 2},
                    {"kind": "tower", "tower": "N", "seat": 1}, {"kind": "shuffle", "round_start": True},
                    {"kind": "paused", "reason": "paused"}):
        server.do(lambda w=waiting: (table.extra.update(waiting=w), table.publish({"kind": "changed"})))
        for i in range(7):
            expect(hand.nth(i)).to_be_disabled()
        expect(page.locator("[data-declare]").first).to_be_disabled()
    server.do(lambda: (table.extra.update(waiting={"kind": "turn", "seat": 0}), table.publish({"kind": "changed"})))
    for i in range(7):
        expect(hand.nth(i)).to_be_enabled()
    page.click('[data-hand="R7"]')
    page.click("#confirm")
    expect(page.locator("#top")).to_have_attribute("data-card", "R7")
    assert [r.card for r in table.requests] == ["R7"]


def test_only_the_waits_for_a_play_leave_the_hand_tappable(page, served):
    server = served(serve_hand("R7"))
    open_page(page, server)
    kinds = [str(w) for w in Wait]
    blocked = page.evaluate("""async (kinds) => {
        const rules = await import("/static/rules.js");
        return kinds.map((kind) => rules.playBlocked({ waiting: { kind }, phase: "play", owed: [] }));
    }""", kinds)
    plays = {PHASE_WAITS["play"], PHASE_WAITS["drawn"], PHASE_WAITS["extra"]}
    assert dict(zip(kinds, blocked, strict=True)) == {k: Wait(k) not in plays for k in kinds}


def test_a_hand_is_never_hidden_under_the_bar(page, served):
    table = serve_hand("R7 B3 G5 Y5 W+4 R1U R8")
    table.extra["undoable"] = {"seat": 0, "card": "R5"}  # a prompt in the middle too
    server = served(table)
    open_page(page, server, "?seat=1")
    expect(page.locator("[data-hand]")).to_have_count(7)
    expect(page.locator("#undo")).to_be_visible()
    bar, actions = box(page, "#bar"), box(page, "#actions")
    cards = measure(page, "[data-hand]")
    assert all(bar["bottom"] <= c["y"] and c["bottom"] <= actions["y"] and c["right"] <= 800 for c in cards)
    assert page.evaluate("document.documentElement.scrollHeight") <= 480
    assert min(c["font"] for c in measure(page, "[data-hand] .cl")) >= 16
    assert min(min(c["w"], c["h"]) for c in cards) >= 48
    # a long hand stays one row above the bar and scrolls sideways to its last card
    server2 = served(serve_hand("R7 B3 G5 Y5 W+4 R1U R8 B4 B5 B6 G7 G8 G9 Y6 Y7 Y3"))
    open_page(page, server2, "?seat=1")
    expect(page.locator("[data-hand]")).to_have_count(16)
    cards = measure(page, "[data-hand]")
    assert all(bar["bottom"] <= c["y"] and c["bottom"] <= actions["y"] for c in cards)
    page.locator('[data-hand="Y3"]').scroll_into_view_if_needed()
    assert box(page, '[data-hand="Y3"]')["right"] <= 800


def test_a_hand_card_that_does_not_fit_says_why_and_opens_no_picker(page, served):
    table = serve_hand("R7 B3 Y5 W+4")
    server = served(table)
    open_page(page, server, "?seat=1")
    expect(page.locator('[data-hand="B3"]')).to_have_class("cardbtn dim")
    expect(page.locator('[data-hand="Y5"]')).to_have_class("cardbtn")  # the same number fits
    page.click('[data-hand="B3"]')
    expect(page.locator("#error")).to_have_text("blue 3 does not fit: needs red or a 5")
    expect(page.locator("#sheet")).to_be_hidden()
    assert box(page, "#error")["bottom"] <= box(page, "#hand")["y"]  # the reason leaves the hand free
    assert box(page, "#error")["font"] >= 18
    assert table.requests == []
    page.click('[data-hand="W+4"]')  # a wild fits: on to its colour
    expect(page.locator("#sheet [data-choose-colour]")).to_have_count(4)
    expect(page.locator("#error")).to_be_hidden()


def test_the_short_reasons_name_what_fits(page, served):
    server = served(serve_hand("R7"))
    open_page(page, server)
    classic, power = {"edition": "classic"}, {"edition": "power"}
    cases = [({**classic, "top": "G+2", "colour": "G"}, "B3",
              "blue 3 does not fit: needs green or a Draw 2"),
             ({**classic, "top": "Y8", "colour": "Y"}, "RS",
              "red Skip does not fit: needs yellow or an 8"),
             ({**classic, "top": "W+4", "colour": "B"}, "R7", "red 7 does not fit: needs blue"),
             ({**power, "top": "R2N", "colour": "R"}, "R+2", "no Draw 2 on red 2 with tower N"),
             ({**power, "top": "R2N", "colour": "R"}, "B2", None)]
    said = page.evaluate("""async (cases) => {
        const rules = await import("/static/rules.js");
        rules.setCatalog(await (await fetch("/api/editions")).json());  // (the page's own)
        return cases.map(([state, card]) => rules.fitReason(state, card));
    }""", [[s, c] for s, c, _ in cases])
    assert said == [want for _, _, want in cases]
