"""The table's screen in a real browser: what it shows, what it refuses, what it sends."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.screen import EngineTable
from uno_core import Play, format_card, parse_card, position
from uno_core import actions as A


def confirm(page) -> None:
    """Tap the confirm button and wait until the table accepted (the sheet closes)."""
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()


def test_a_card_that_does_not_match_is_refused_on_the_screen_without_asking_the_table(page, shown):
    table = EngineTable(position("classic", hands=["R7 B3 W", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    shown(table)
    page.click('[data-declare="B"]')
    expect(page.locator('.grid [data-card="B3"]')).to_have_class("cardbtn dim")  # the picker greys it out
    page.click('.grid [data-card="B3"]')
    expect(page.locator("#error")).to_have_text("blue 3 matches neither colour red nor red 5")
    assert table.requests == [] and format_card(table.state.discard[-1]) == "R5"
    # what only the table knows is its to say, to the seat that asked: it does not hold R9
    page.click('[data-tab="R"]')
    page.click('.grid [data-card="R9"]')
    page.click("#confirm")
    expect(page.locator("#error")).to_have_text("you do not hold red 9")
    expect(page.locator("#sheet")).to_be_visible()
    assert len(table.requests) == 1 and table.state.counts == (3, 2, 2)


def test_a_seat_bound_screen_refuses_to_play_out_of_turn(page, shown):
    table = EngineTable(position("classic", hands=["R7 R9", "R8 G2", "Y1 Y2"], discard="R5", turn=0))
    table.extra["screen_hands"] = {"1": ["G2", "R8"]}  # demo --serve shows the seat's cards
    server = shown(table, "?seat=2")
    expect(page.locator("[data-declare]")).to_have_count(0)  # not this seat's turn
    page.click('[data-hand="R8"]')
    expect(page.locator("#error")).to_have_text("it is Seat 1's turn, not Seat 2's")
    assert table.requests == []
    server.do(lambda: table.act(A.Play(0, parse_card("R7"), uno=True)))
    expect(page.locator("[data-declare]")).to_have_count(5)


def test_wild_and_targeted_cards_ask_for_colour_and_target_seat(page, shown):
    table = EngineTable(position("attack", hands=["WAA R3 R4", "G1 G2", "Y1 Y2"], discard="R5", turn=0),
                        names=["Ann", "Bob", "Cy"])
    shown(table)
    page.click('[data-declare="W"]')
    page.click('.grid [data-card="WAA"]')
    expect(page.locator("#confirm")).to_be_disabled()
    expect(page.locator("#confirm")).to_have_text("choose a colour, a target seat")
    expect(page.locator('[data-target="0"]')).to_have_count(0)  # not yourself
    page.click('[data-choose-colour="G"]')
    page.click('[data-target="2"]')
    confirm(page)
    assert dict(table.requests[-1].choices) == {"color": "green", "target": 2}
    expect(page.locator("#current-colour")).to_have_text("● green")
    expect(page.locator("#waiting")).to_have_text("Cy (seat 3): press the launcher 2×")


def test_discard_all_lists_the_cards_laid_with_it(page, shown):
    table = EngineTable(position("attack", hands=["RDA R3 G2", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    shown(table)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="RDA"]')
    page.click('.grid [data-card="R3"]')
    page.click('.grid [data-card="R4"]')
    page.click('.grid [data-card="R9"]')  # a third would leave no card for the Discard All itself
    expect(page.locator("#error")).to_have_text("Seat 1: not that many cards in hand")
    assert page.locator("[data-laid]").evaluate_all("els => els.map(e => e.dataset.laid)") == ["R3", "R4"]
    page.click('[data-laid="R4"]')  # tapped by mistake: tap it again to take it back
    confirm(page)
    assert dict(table.requests[-1].choices) == {"cards": ("R3",)}
    expect(page.locator('.seat[data-seat="0"] .count')).to_have_text("1 🂠")


def test_take_two_towers_asks_which_towers_and_the_board_shows_who_holds_them(page, shown):
    table = EngineTable(position("power", hands=["RT2 G5", "B3 B4", "Y5 Y6"], discard="R5",
                                 towers={"U": 1, "N": 2}, turn=0))
    shown(table)
    expect(page.locator('.seat[data-seat="1"] .tower')).to_have_text(["U"])
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="RT2"]')
    expect(page.locator("[data-tower]")).to_have_text(
        ["U (Seat 2)", "N (Seat 3)", "O (neutral)", "! (neutral)"])
    page.click('[data-tower="U"]')
    page.click('[data-tower="N"]')
    page.click('[data-tower="O"]')  # only two: the first one picked is let go
    confirm(page)
    assert dict(table.requests[-1].choices) == {"towers": ["N", "O"]}
    expect(page.locator('.seat[data-seat="0"] .tower')).to_have_text(["N", "O"])
    expect(page.locator('.seat[data-seat="1"] .tower')).to_have_text(["U"])
    expect(page.locator(".seat.neutral .tower")).to_have_text(["!"])


def test_a_power_symbol_card_forbids_its_action_and_says_why(page, shown):
    table = EngineTable(position("power", hands=["R+2 G5", "B3 B4", "Y5 Y6"], discard="R2N", turn=0))
    shown(table)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R+2"]')
    expect(page.locator("#error")).to_have_text("no Draw 2 on red 2 with tower N")
    assert table.requests == []


def test_forgotten_uno_is_caught_by_the_seat_chosen_on_the_screen(page, shown):
    # seed 000's catch window (option forgotten_uno="catch"; classic's own rule: below)
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0,
                                 options={"forgotten_uno": "catch"}))
    shown(table)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    confirm(page)
    expect(page.locator('.seat[data-seat="0"] .badge')).to_have_text("UNO not called")
    page.click("#catch")
    page.click('[data-catcher="2"]')
    expect(page.locator('.seat[data-seat="0"] .count')).to_have_text("3 🂠")  # 1 + 2 penalty cards
    expect(page.locator('.seat[data-seat="0"] .badge')).to_have_count(0)
    assert table.requests[-1].seat == 2 and table.requests[-1].target == 0


def test_classic_uno_is_said_before_the_card_a_forgotten_one_costs_two_at_once(page, shown):
    table = EngineTable(position("classic", hands=["R7 R8", "R1 G2", "Y1 Y2"], discard="R5", turn=0))
    shown(table)
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    confirm(page)
    expect(page.locator('.seat[data-seat="0"] .count')).to_have_text("3 🂠")  # 1 + 2 at once
    expect(page.locator("#notice")).to_have_text("Seat 1 played red 7 without calling UNO: draws 2")
    expect(page.locator("#catch")).to_have_count(0)  # nobody catches, nothing to call late
    expect(page.locator("#call-uno")).to_have_count(0)
    # the next seat with two cards says UNO before laying its card: no penalty
    page.click("#arm-uno")
    expect(page.locator("#arm-uno")).to_have_text("UNO said ✓")
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R1"]')
    confirm(page)
    expect(page.locator('.seat[data-seat="1"] .count')).to_have_text("1 🂠")
    expect(page.locator('.seat[data-seat="1"] .badge')).to_have_text("UNO")


def test_wild_draw_four_is_challenged_from_the_screen(page, shown):
    table = EngineTable(position("classic", hands=["W+4 R3 R4", "G1 G2", "Y1 Y2"], discard="R5", turn=0,
                                 options={"wild_draw4_restricted": True}))
    shown(table)
    page.click('[data-declare="W"]')
    page.click('.grid [data-card="W+4"]')
    page.click('[data-choose-colour="B"]')
    confirm(page)
    expect(page.locator("#waiting")).to_have_text("Seat 2: challenge the Wild Draw 4 or take the cards")
    page.click("#challenge")
    # seat 0 held red cards: guilty, takes 4 (the engine knows the hand in simulation)
    expect(page.locator('.seat[data-seat="0"] .count')).to_have_text("6 🂠")
    expect(page.locator("#waiting")).to_have_text("Seat 2 to play")


def test_end_of_round_hands_are_entered_card_by_card_and_scored(page, shown):
    table = EngineTable(position("classic", counts=[1, 2, 1], discard="R5", turn=0, mode="table"))
    server = shown(table)
    server.do(lambda: table.act(Play(0, parse_card("R7"))))
    expect(page.locator("#waiting")).to_have_text("Seat 1 went out — Seat 2: enter the cards left in your hand")
    page.click("#enter-hand")
    page.click('[data-tab="W"]')
    page.click('.grid [data-card="W+4"]')
    expect(page.locator("#confirm")).to_be_disabled()
    page.click('[data-tab="G"]')
    page.click('.grid [data-card="G9"]')
    page.click('.grid [data-card="G8"]')  # one too many
    expect(page.locator("#error")).to_have_text("Seat 2: 2 cards in hand")
    page.click('[data-entered="G9"]')  # tap an entered card to take it back
    page.click('.grid [data-card="G8"]')
    confirm(page)
    assert table.requests[-1].cards == ("W+4", "G8")
    page.click("#enter-hand")
    page.click('[data-tab="Y"]')
    page.click('.grid [data-card="YS"]')
    confirm(page)
    # the round winner scores 70 + 8 + 20 and the next round starts
    expect(page.locator('.seat[data-seat="0"] .score')).to_have_text("98 pts")
    expect(page.locator("#round")).to_contain_text("round 2")


def test_what_the_table_waits_for_is_spelled_out(page, shown):
    table = EngineTable(position("power", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    server = shown(table)
    expect(page.locator("#waiting")).to_have_text("Seat 1 to play")
    for waiting, text in [
        ({"kind": "press", "seat": 2, "presses": 2}, "Seat 3: press the launcher 2×"),
        ({"kind": "tower", "tower": "N", "seat": 1}, "move the N tower to Seat 2"),
        ({"kind": "reload"}, "reload the launcher, then press resume"),
        ({"kind": "jam"}, "jam: clear it and press resume"),
    ]:
        server.do(lambda w=waiting: (table.extra.update(waiting=w), table.publish({"kind": "changed"})))
        expect(page.locator("#waiting")).to_have_text(text)


def test_match_setup_names_options_pause_resume_and_health(page, shown):
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    shown(table)
    expect(page.locator("#open-health")).to_have_text("Health ✓")
    page.click("#open-setup")
    page.select_option("#edition-select", "power")
    page.fill("#seats-input", "4")
    page.dispatch_event("#seats-input", "change")
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"]):
        page.fill(f'[data-name="{seat}"]', name)
    page.click("details summary")
    expect(page.locator('[data-option="wild_draw4_restricted"]')).to_be_checked()
    page.uncheck('[data-option="wild_draw4_restricted"]')
    page.fill('[data-option="target_score"]', "250")
    page.dispatch_event('[data-option="target_score"]', "change")
    page.click("#start")
    expect(page.locator("#edition")).to_have_text("power")
    expect(page.locator(".seat[data-seat] .name")).to_contain_text(["Ann", "Bob", "Cy", "Dee"])
    expect(page.locator("#round")).to_have_text("round 1 · to 250")
    assert table.state.options.wild_draw4_restricted is False and table.state.n == 4
    page.click("#open-setup")
    page.click("#pause")
    page.click("#close")
    expect(page.locator("#waiting")).to_have_text("paused")
    page.click("#resume")
    expect(page.locator("#waiting")).not_to_have_text("paused")
    # the launcher reports a fault: the health button turns red and its sheet says what
    table.health = lambda: {"ok": False, "launcher": {"ok": False, "error": "jammed"},
                            "tray": {"ok": True, "readers": 5}}
    expect(page.locator("#open-health")).to_have_text("Health ✗")
    page.click("#open-health")
    expect(page.locator('[data-device="launcher"]')).to_have_text("launcher✗ jammed")
    expect(page.locator('[data-device="reader 5"]')).to_have_count(0)  # a count, not a reader


def test_a_reconnecting_page_shows_the_current_state_not_the_old_one(page, shown):
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    server = shown(table)
    expect(page.locator("#top")).to_have_attribute("data-card", "R5")
    server.stop()  # the daemon goes away (restart, crash) ...
    expect(page.locator("#conn")).to_have_text("reconnecting…")
    server.do(lambda: table.act(A.Play(0, parse_card("R7"), uno=True)))  # ... play went on
    server.start()
    expect(page.locator("#conn")).to_have_text("live")
    expect(page.locator("#top")).to_have_attribute("data-card", "R7")
    expect(page.locator('.seat[data-seat="0"] .count')).to_have_text("1 🂠")


def test_after_drawing_the_player_keeps_the_card_or_takes_the_wild_draw_four(page, shown):
    table = EngineTable(position("power", hands=["G7 G8", "W+4 B3 B4", "Y5 Y6"], discard="R5", turn=0,
                                 pile="R9 B1 B2 B5 B6 B7 R9"))
    server = shown(table)
    server.do(lambda: table.hardware(A.Draw(0)))  # the dispenser deals one card (R9: playable)
    expect(page.locator("#waiting")).to_have_text("Seat 1: play the drawn card or keep it")
    page.click("#pass")
    expect(page.locator("#waiting")).to_have_text("Seat 2 to play")
    page.click('[data-declare="W"]')
    page.click('.grid [data-card="W+4"]')
    page.click('[data-choose-colour="Y"]')
    confirm(page)
    page.click("#accept")  # no challenge: seat 3 takes four cards and misses the turn
    expect(page.locator('.seat[data-seat="2"] .count')).to_have_text("6 🂠")
    expect(page.locator("#waiting")).to_have_text("Seat 1 to play")
    assert [r.decision for r in table.requests if hasattr(r, "decision")] == ["pass", "accept"]


def test_the_first_card_a_wild_asks_the_first_player_for_the_colour(page, shown):
    table = EngineTable(position("classic", hands=["G7 G8", "B3 B4", "Y5 Y6"], discard="R5", turn=0))
    table.state.phase = "first_colour"  # as after turning a Wild first (uno_core: _start_with)
    shown(table)
    expect(page.locator("#waiting")).to_have_text("Seat 1: choose the first colour")
    page.click('[data-first-colour="G"]')
    expect(page.locator("#current-colour")).to_have_text("● green")
    expect(page.locator("#waiting")).to_have_text("Seat 1 to play")


def test_a_table_with_a_token_is_reached_with_the_token_in_the_address(page, served):
    table = EngineTable(position("classic", hands=["R7 R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    server = served(table, token="a-long-table-token-123")
    page.goto(server.url + "/")  # the page loads, but the table does not answer it
    expect(page.locator("#conn")).to_have_text("reconnecting…")
    expect(page.locator("#error")).to_contain_text("this table needs its token")
    page.goto(server.url + "/#token=a-long-table-token-123")  # kept in the browser from now on
    expect(page.locator("#conn")).to_have_text("live")
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="R7"]')
    confirm(page)
    expect(page.locator("#top")).to_have_attribute("data-card", "R7")
    assert "token" not in page.url  # not left in the address bar
    page.evaluate("localStorage.clear()")


def fits(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sideways


def test_the_board_fits_the_touchscreen_and_stacks_on_a_phone(page, shown):
    table = EngineTable(position("power", hands=["R7 R8", "G1 G2", "Y1 Y2", "B1 B2", "Y3 Y4", "G3 G4"],
                                 discard="R5", turn=0, towers={"U": 1, "N": 1, "O": 1, "!": 1}),
                        names=["Annabelle", "Bob", "Cy", "Dee", "Eve", "Fritz"])
    shown(table)
    for sel in ("#top", "#seats", "#actions"):  # "live" may come a moment before the board is drawn
        expect(page.locator(sel)).to_be_visible()
    fits(page, 800)
    assert page.evaluate("document.documentElement.scrollHeight") <= 480  # no scrolling at the table
    card, seats, bar = (page.locator(sel).bounding_box() for sel in ("#top", "#seats", "#actions"))
    assert card["x"] + card["width"] <= seats["x"]  # side by side
    assert bar["y"] + bar["height"] <= 480 and page.locator("[data-declare]").count() == 5
    page.set_viewport_size({"width": 390, "height": 844})
    fits(page, 390)
    card, seats = (page.locator(sel).bounding_box() for sel in ("#top", "#seats"))
    assert card["y"] + card["height"] <= seats["y"]  # one column: the card above the seats
    expect(page.locator('.seat[data-seat="1"] .tower')).to_have_text(["U", "N", "O", "!"])


def test_the_direction_of_play_turns_with_a_reverse(page, shown):
    table = EngineTable(position("classic", hands=["RR R8", "G1 G2", "Y1 Y2"], discard="R5", turn=0))
    shown(table)
    expect(page.locator("#direction")).to_have_text("↻ 1→2→3…")
    page.click('[data-declare="R"]')
    page.click('.grid [data-card="RR"]')
    confirm(page)
    expect(page.locator("#direction")).to_have_text("↺ 3→2→1…")
    expect(page.locator("#waiting")).to_have_text("Seat 3 to play")
