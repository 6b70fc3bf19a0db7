"""Issue 24, a family's first evening, on the page: at the table's 800x480 and a phone's
390x844, in English and in German.

The refusal covers nothing needed and goes after a few seconds (the page's clock) or a
tap; the round end says who went out and what each hand gave; the match end has a chart
that reads and a button for a new match; the set-up sheet words every option in the
page's language, visible without hover; a power symbol is a tower, tower badges are big
enough and readable; German colour letters do not clash; the person's own buttons say
"your".
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from firmware.words.messages import MESSAGES, card_name
from tests.web.screen import EngineTable
from tests.web.test_readable import measure
from uno_core import actions as A
from uno_core import parse_card, position
from uno_core.options import OPTION_SPECS

SIZES = {"screen": {"width": 800, "height": 480}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(params=[(size, lang) for size in SIZES for lang in ("en", "de")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def looks(request, page):
    """(size, language) of this run: the page at that viewport, in that language."""
    size, lang = request.param
    page.set_viewport_size(SIZES[size])
    yield size, lang
    page.evaluate("localStorage.removeItem('unotable-lang')")


def open_in(page, server, lang: str, query: str = "") -> None:
    page.goto(server.url + "/" + query)
    page.evaluate(f"localStorage.setItem('unotable-lang', '{lang}')")
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("#conn")).to_have_text(MESSAGES[lang]["page.live"])


def words(lang: str, key: str, **values) -> str:
    return MESSAGES[lang][key].format(**values)


def overlaps(a: dict, b: dict) -> bool:
    return a["x"] < b["right"] and b["x"] < a["right"] and a["y"] < b["bottom"] and b["y"] < a["bottom"]


def power(**kw) -> EngineTable:
    return EngineTable(position("power", hands=["R7 WT1 B3 G7O", "B4", "G5 G6 Y2 Y3 R1U", "R5 Y5 Y6 B9"],
                                discard="R2", towers={"U": 1, "N": 2, "O": 0, "!": 0}, turn=0,
                                **kw), names=["Ann", "Bob", "Cy", "Dee"])


def test_a_refusal_covers_no_seat_row_chosen_card_or_tab_and_goes_by_itself(page, served, looks):
    size, lang = looks
    server = served(power())
    page.clock.install()
    open_in(page, server, lang)
    page.click('[data-declare="B"]')  # the picker: a card that does not fit is refused here
    page.click('.grid [data-card="B4"]')
    error = page.locator("#error")
    expect(error).to_be_visible()
    (shown,) = measure(page, "#error")
    for needed in measure(page, ".tabs .tab") + measure(page, ".sheet-head"):
        assert not overlaps(shown, needed), (needed["text"], shown)
    page.clock.run_for(7000)  # the refusal has been read: it goes
    expect(error).to_be_hidden()
    page.click('[data-tab="R"]')
    page.click('.grid [data-card="R7"]')  # a card that fits: chosen; the refusal was no block
    expect(page.locator(".chosen")).to_be_visible()
    page.click("#close")
    # on the board (the person's own hand): the refusal takes the last event's place
    open_in(page, server, lang, "?seat=2")
    server.table.extra = {"screen_hands": {"1": ["B4"]}}
    page.reload()
    page.click('#hand [data-hand="B4"]')  # not Bob's turn: refused, no picker
    expect(error).to_be_visible()
    (shown,) = measure(page, "#error")
    for needed in measure(page, ".seat") + measure(page, "#top") + measure(page, "#hand .cardbtn"):
        assert not overlaps(shown, needed), (needed["text"], shown)
    error.click()  # a tap dismisses it
    expect(error).to_be_hidden()
    server.table.extra = {}


def round_over(table: EngineTable, scoring: str = "winner_takes") -> dict:
    r = {"round": 1, "winner": 2, "points": [23, 12, 0, 161], "scores": [0, 0, 196, 0]}
    table.extra = {"rounds": [r], "round_end": r, "waiting": {"kind": "round-over", **r, "pause_s": 20}}
    return r


def test_the_round_end_says_who_went_out_and_what_each_hand_gave(page, served, looks):
    size, lang = looks
    table = power()
    r = round_over(table)
    open_in(page, served(table), lang)
    panel = page.locator("#round-end")
    expect(panel.locator("h2")).to_have_text(words(lang, "page.end.round_over", round=1, seat="Cy"))
    expect(panel.locator("#round-how")).to_have_text(
        words(lang, "page.end.takes", seat="Cy", points=196))
    loser = panel.locator('tr[data-seat="0"]')
    expect(loser.locator(".hand")).to_have_text(words(lang, "page.end.gave_to", points=23, seat="Cy"))
    expect(loser.locator(".points")).to_have_text("–")  # no "+23" beside a total of 0
    winner = panel.locator('tr[data-seat="2"]')
    expect(winner.locator(".hand")).to_have_text(words(lang, "page.end.went_out"))
    expect(winner.locator(".points")).to_have_text("+196")  # not "+0, total 196"
    expect(winner.locator(".total")).to_have_text(str(r["scores"][2]))
    (box,) = measure(page, "#next-round")
    assert box["bottom"] <= SIZES[size]["height"] + (10_000 if size == "phone" else 0)


def test_the_match_end_draws_lines_from_zero_to_the_goal_and_offers_a_new_match(page, served, looks):
    size, lang = looks
    table = power(options={"target_score": 200})
    r = {"round": 1, "winner": 2, "points": [23, 12, 0, 161], "scores": [0, 0, 196, 0]}
    table.extra = {"rounds": [r], "round_end": None, "winners": [2],
                   "waiting": {"kind": "match-over", "winners": [2], "message": "match over"}}
    open_in(page, served(table), lang)
    chart = page.locator("#match-end svg#score-chart")
    expect(chart).to_be_visible()
    # one round: still a line per seat (from 0 before the first round), not floating dots
    for seat in range(4):
        points = chart.locator(f"polyline.s{seat}").get_attribute("points").split()
        assert len(points) == 2
    expect(chart.locator("line.goal")).to_have_count(1)  # the target score's line
    expect(chart.locator("text", has_text="200")).to_have_count(1)
    button = page.locator("#new-match")
    expect(button).to_have_text(words(lang, "page.end.new_match"))
    button.scroll_into_view_if_needed()
    (box,) = measure(page, "#new-match")
    assert box["h"] >= 48 and box["bottom"] <= SIZES[size]["height"]
    button.click()
    expect(page.locator("#sheet")).to_have_attribute("data-kind", "setup")
    expect(page.locator("#start")).to_be_visible()


def test_the_set_up_words_every_option_in_the_pages_language_without_hover(page, served, looks):
    size, lang = looks
    server = served(power())
    open_in(page, server, lang)
    page.click("#open-setup")
    page.click("details summary")
    rows = page.locator("[data-option-row]")
    expect(rows.first).to_be_visible()
    for name in page.evaluate("[...document.querySelectorAll('[data-option-row]')].map((e) => e.dataset.optionRow)"):
        row = page.locator(f'[data-option-row="{name}"]')
        expect(row.locator(".label")).to_have_text(MESSAGES[lang][f"option.{name}"])
        help_ = row.locator(".help")
        expect(help_).to_have_text(MESSAGES[lang][f"option.{name}.help"])
        expect(help_).to_be_visible()  # on the sheet, not in a tooltip
        for choice in OPTION_SPECS[name].choices:
            expect(row.locator(f'option[value="{choice}"]')).to_have_text(
                MESSAGES[lang][f"option.{name}.{choice}"])
    text = page.locator("#sheet").inner_text()
    for raw in ("winner_takes", "at_play", "turn timer s", "seed 002", "Preset: seed", "_"):
        assert raw not in text, raw
    expect(page.locator("#preset-select option")).to_have_text(
        [MESSAGES[lang][f"preset.{p}"] for p in ("seed", "mattel", "party")])
    expect(page.locator("#preset-about")).to_have_text(MESSAGES[lang]["preset.seed.help"])


def test_a_power_symbol_is_a_tower_and_tower_badges_are_big_and_readable(page, served, looks):
    size, lang = looks
    server = served(power())
    open_in(page, server, lang)
    page.click('[data-declare="G"]')
    card = page.locator('.grid [data-card="G7O"]')
    expect(card.locator(".face")).to_have_text("7")  # not "7O", read as 70
    expect(card.locator(".sym")).to_have_text("♜O")
    page.click("#close")
    towers = measure(page, ".seat .tower")
    assert len(towers) == 4
    for tower in towers:
        assert tower["w"] >= 32 and tower["h"] >= 32, tower
        assert tower["contrast"] >= 4.5, tower


def test_german_colour_letters_do_not_clash_and_english_stay(page, served, looks):
    size, lang = looks
    server = served(power())
    open_in(page, server, lang)
    letters = {"en": ["R", "G", "B", "Y"], "de": ["Ro", "Gr", "Bl", "Ge"]}[lang]
    shapes = ["▲", "●", "■", "◆"]
    expect(page.locator("[data-declare]:not([data-declare=W])")).to_have_text(
        [f"{s} {x}" for s, x in zip(shapes, letters, strict=True)])
    page.click('[data-declare="Y"]')
    expect(page.locator('.grid [data-card="Y5"] .cl')).to_have_text(f"◆{letters[3]}")
    expect(page.locator(".tabs .tab")).to_have_text(
        [*(f"{s} {x}" for s, x in zip(shapes, letters, strict=True)), MESSAGES[lang]["page.wild"]])
    assert len(set(letters)) == 4


def test_the_persons_challenge_is_not_clipped_and_not_said_twice(page, served, looks):
    size, lang = looks
    table = EngineTable(position("classic", hands=["R7 B3 G2", "B4 B5", "W+4 G6"], discard="Y5",
                                 turn=2, options={"wild_draw4_restricted": True}),
                        names=["You", "East", "South"])
    table.act(A.Play(2, parse_card("W+4"), "B"))  # on the person: the challenge is theirs
    assert table.state.phase == "challenge" and table.state.to_act == 0
    table.extra = {"screen_hands": {"0": ["R7", "B3", "G2"]},
                   "waiting": {"kind": "challenge", "seat": 0, "message": "You: challenge"}}
    server = served(table)
    open_in(page, server, lang, "?seat=1")
    expect(page.locator("#challenge")).to_be_visible()
    expect(page.locator("#press-launcher")).to_have_text(MESSAGES[lang]["page.take_by_press"])
    height = SIZES[size]["height"] if size == "screen" else 10_000  # a phone scrolls
    for button in measure(page, "#prompts button, #actions button"):
        assert button["right"] <= SIZES[size]["width"] and button["bottom"] <= height, button
    clipped = page.evaluate("[...document.querySelectorAll('#prompts button, #actions button')]"
                            ".filter((b) => b.scrollWidth > b.clientWidth + 1)"
                            ".map((b) => b.textContent)")
    assert clipped == []
    (centre,) = measure(page, "#centre")  # every prompt in view, none scrolled out of #centre
    for button in measure(page, "#prompts button"):
        assert centre["y"] <= button["y"] and button["bottom"] <= centre["bottom"] + 1, button
    # "take the cards" once: the bar's launcher button, no second prompt saying it again
    expect(page.locator("#accept")).to_have_count(0)
    # the table's shared screen: both prompts, whole and in view
    open_in(page, server, lang)
    expect(page.locator("#accept")).to_have_text(MESSAGES[lang]["page.accept_yours"])  # not "You: …"
    (centre,) = measure(page, "#centre")
    for button in measure(page, "#prompts button"):
        assert centre["y"] <= button["y"] and button["bottom"] <= centre["bottom"] + 1, button
        assert button["right"] <= SIZES[size]["width"], button


def test_the_persons_own_buttons_say_your(page, served, looks):
    size, lang = looks
    table = EngineTable(position("classic", hands=["R7 B3 G2", "B4 B5", "G5 G6"], discard="R5",
                                 turn=0), names=["You", "East", "South"])
    server = served(table)
    table.extra = {"screen_hands": {"0": ["R7", "B3", "G2"]},
                   "undoable": {"seat": 0, "card": "R7"}}
    open_in(page, server, lang, "?seat=1")
    expect(page.locator("#waiting")).to_have_text(MESSAGES[lang]["page.turn_yours"])
    expect(page.locator("#undo")).to_have_text(words(lang, "page.undo_yours", card=card_name(parse_card("R7"), lang)))
    expect(page.locator("#declare")).to_have_text(MESSAGES[lang]["page.declared_yours"])
    names = page.locator(".seat .name")
    expect(names.nth(1)).to_contain_text({"en": "East", "de": "Ost"}[lang])  # the default names
    expect(names.first).to_contain_text(MESSAGES[lang]["page.you"])
