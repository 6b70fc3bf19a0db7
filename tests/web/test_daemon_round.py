"""The real daemon on the simulated twin, a whole round declared through the page.

`firmware.sim.testbed.SimTable` runs the daemon (journal, loop, controller, API) on the
twin: real card tokens in the launcher, seat buttons on mock pins. The test is the
people at the table: each looks at the cards in front of them (the world), lays one,
and declares it on the screen (tap colour, tap card, confirm); with nothing to play
they press the launcher button; holding two cards they tap UNO! on the screen before
laying the second-to-last card (classic: the call belongs before the card);
at the round's end they enter their hands on the screen. The table's own chores
(shuffle and load, turn the first card) are left to the twin's helpers. After every
step the page must show what the daemon says.
"""

from __future__ import annotations

import random

from playwright.sync_api import expect

from firmware.sim.players import private_view
from firmware.sim.testbed import SimTable
from firmware.words.messages import card_name
from uno_core import Play, format_card, legal_actions, parse_card

COLOUR = {"R": "R", "G": "G", "B": "B", "Y": "Y"}


def seat_label(st, seat: int) -> str:
    return f"{st['names'][seat]} (seat {seat + 1})"


def expect_page_shows(page, st) -> None:
    expect(page.locator("#top")).to_have_attribute("data-card", st["top"])
    for seat, count in enumerate(st["hand_counts"]):
        expect(page.locator(f'.seat[data-seat="{seat}"] .count')).to_have_text(f"{count} 🂠")
    if st["waiting"]["kind"] == "turn":
        expect(page.locator("#waiting")).to_have_text(f"{seat_label(st, st['waiting']['seat'])} to play")


def declare(page, card: str, colour: str) -> None:
    page.click(f'[data-declare="{"W" if card.startswith("W") else card[0]}"]')
    page.click(f'.grid [data-card="{card}"]')
    if colour:
        page.click(f'[data-choose-colour="{colour}"]')
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()


def enter_hand(page, cards: list[str]) -> None:
    page.click("#enter-hand")
    for card in cards:
        page.click(f'[data-tab="{"W" if card.startswith("W") else card[0]}"]')
        page.click(f'.grid [data-card="{card}"]')
    page.click("#confirm")
    expect(page.locator("#sheet")).to_be_hidden()


def test_a_whole_round_on_the_daemon_is_declared_through_the_page(page, tmp_path):
    pick = random.Random(3)
    with SimTable(tmp_path, "classic", players=3, seed=5) as table:
        world = table.world
        page.goto(table.url)
        expect(page.locator("#conn")).to_have_text("live")
        plays = presses = entered = unos = 0
        for _ in range(600):
            st = table.settle()
            if st["round"] == 2:
                break
            w = st["waiting"]
            if w["kind"] == "turn":
                seat = w["seat"]
                expect_page_shows(page, st)
                if st["hand_counts"][seat] == 2 and seat not in st["uno_armed"]:
                    page.click("#arm-uno")  # UNO is said before the second-to-last card
                    expect(page.locator("#arm-uno")).to_have_text("UNO said ✓")
                    unos += 1
                    continue
                view = table.call(lambda seat=seat: private_view(
                    table.controller.state, seat, world.hands[seat], world.received.get(seat, [])))
                options = [a for a in legal_actions(view)
                           if isinstance(a, Play) and a.seat == seat and not a.uno]
                if not options:
                    world.seats_sim.press_launcher()
                    presses += 1
                    continue
                play = pick.choice(options)
                card = format_card(play.card)
                world.lay(seat, [card])
                declare(page, card, COLOUR.get(play.colour, ""))
                plays += 1
                after = table.settle()
                if after["round"] == 1 and after["phase"] != "hand_entry":
                    expect(page.locator("#top")).to_have_attribute("data-card", card)
            elif w["kind"] == "press":
                world.seats_sim.press_launcher()
                presses += 1
            elif w["kind"] == "hand":
                out = st["names"][st["hand_counts"].index(0)]  # the board says who went out
                expect(page.locator("#waiting")).to_have_text(
                    f"{out} went out — {seat_label(st, w['seat'])}: enter the cards left in your hand")
                enter_hand(page, list(world.hands[w["seat"]]))
                entered += 1
            elif w["kind"] == "colour":
                page.click('[data-first-colour="G"]')
            else:  # the table's chores: shuffle and load, turn the first card, move a tower
                table.bot_step()
        st = table.settle()
        assert st["round"] == 2 and plays >= 10 and presses >= 1 and entered == 2 and unos >= 1
        assert not any(f["type"] == "uno_penalty" for e in table.events if e.get("kind") == "action"
                       for f in e["effects"])
        assert world.agree, world.mismatches
        expect(page.locator("#round")).to_contain_text("round 2")
        for seat, score in enumerate(st["scores"]):
            expect(page.locator(f'.seat[data-seat="{seat}"] .score')).to_have_text(f"{score} pts")
        assert max(st["scores"]) > 0


def test_a_jam_on_the_daemon_shows_in_health_and_resume_on_the_screen_goes_on(page, tmp_path):
    with SimTable(tmp_path, "classic", players=3, seed=5) as table:
        world = table.world
        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn")
        seat = st["waiting"]["seat"]
        page.goto(table.url)
        expect(page.locator("#conn")).to_have_text("live")
        page.click("#open-health")
        expect(page.locator('[data-device="launcher"]')).to_have_text("launcher✓ idle")
        expect(page.locator('[data-device="hopper"]')).to_have_text("hopper✓ loaded")
        expect(page.locator('[data-device="reader neutral"]')).to_have_text("reader neutral✓ ready")
        expect(page.locator('[data-device="reader North (seat 1)"]')).to_have_text("reader North (seat 1)✓ ready")
        page.click("#close")
        world.launcher_sim.inject_jam(clears_on_reverse=False)  # reversing the motor does not free it
        world.seats_sim.press_launcher()  # the seat draws: the dispenser jams on the card
        table.wait_for(lambda st: st["waiting"]["kind"] == "jam")
        expect(page.locator("#waiting")).to_have_text("jam: clear it and press resume")
        expect(page.locator("#open-health")).to_have_text("Health ✗")
        page.click("#open-health")
        expect(page.locator('[data-device="launcher"]')).to_contain_text("✗ fault")
        page.click("#close")
        before = st["hand_counts"][seat]
        world.launcher_sim.clear_jam()
        page.click("#resume")
        st = table.wait_for(lambda st: st["waiting"]["kind"] != "jam")
        expect(page.locator(f'.seat[data-seat="{seat}"] .count')).to_have_text(f"{before + 1} 🂠")
        expect(page.locator("#open-health")).to_have_text("Health ✓")


def test_towers_on_the_daemon_captures_a_reader_override_and_an_alarm(page, tmp_path):
    with SimTable(tmp_path, "power", players=3, seed=4) as table:
        st = table.play_until(lambda st: st["waiting"]["kind"] == "tower" and st["waiting"]["seat"] is not None)
        tower, seat = st["waiting"]["tower"], st["waiting"]["seat"]
        page.goto(table.url)
        expect(page.locator("#waiting")).to_have_text(f"move the {tower} tower to {seat_label(st, seat)}")
        # the referee already gave the tower to its new owner; the page shows it there
        expect(page.locator(f'.seat[data-seat="{seat}"] .tower', has_text=tower)).to_have_count(1)
        page.click("#tower-seen")  # its reader is broken: confirmed by eye on the screen
        st = table.wait_for(lambda st: st["waiting"]["kind"] != "tower")
        expect(page.locator("#waiting")).not_to_have_text(f"move the {tower} tower to {seat_label(st, seat)}")
        table.world.move_tower(tower, seat)  # now it really stands there
        st = table.settle()
        other = next(t for t, owner in st["towers"].items() if owner == "neutral")
        table.world.move_tower(other, (seat + 1) % 3)  # a tower moves without a capture
        table.wait_for(lambda st: st["waiting"]["kind"] == "alarm")
        expect(page.locator("#waiting")).to_have_text(
            f"the {other} tower moved to {seat_label(st, (seat + 1) % 3)} without a capture: "
            "put it back at the neutral spot")
        table.world.move_tower(other, "neutral")
        table.wait_for(lambda st: st["waiting"]["kind"] != "alarm")
        expect(page.locator("#waiting")).not_to_contain_text("without a capture")
        expect(page.locator(".seat.neutral .tower", has_text=other)).to_have_count(1)
        table.world.tray_sim.lift(other)  # taken off the tray, no capture
        table.wait_for(lambda st: st["waiting"]["kind"] == "alarm")
        expect(page.locator("#waiting")).to_have_text(
            f"the {other} tower was lifted off the tray without a capture: "
            "put it back at the neutral spot")
        table.world.tray_sim.place(other, "neutral")
        table.wait_for(lambda st: st["waiting"]["kind"] != "alarm")
        expect(page.locator("#waiting")).not_to_contain_text("without a capture")


def test_a_wrong_declaration_is_taken_back_on_the_screen_and_the_right_one_declared(page, tmp_path):
    with SimTable(tmp_path, "classic", players=3, seed=5) as table:
        world = table.world

        def numbers(st):
            seat = st["waiting"]["seat"]
            view = table.call(lambda: private_view(table.controller.state, seat, world.hands[seat], []))
            return sorted({format_card(a.card) for a in legal_actions(view) if isinstance(a, Play)
                           and a.seat == seat and not a.uno and format_card(a.card)[1:].isdigit()})

        st = table.play_until(lambda st: st["waiting"]["kind"] == "turn" and len(numbers(st)) >= 2)
        seat, top = st["waiting"]["seat"], st["top"]
        wrong, right = numbers(st)[:2]
        page.goto(table.url)
        expect(page.locator("#conn")).to_have_text("live")
        world.lay(seat, [wrong])
        declare(page, wrong, "")
        expect(page.locator("#top")).to_have_attribute("data-card", wrong)
        expect(page.locator("#undo")).to_have_text(f"Undo {st['names'][seat]}'s {card_name(parse_card(wrong), 'en')}")
        page.click("#undo")
        expect(page.locator("#top")).to_have_attribute("data-card", top)
        expect(page.locator("#undo")).to_have_count(0)
        expect(page.locator("#waiting")).to_have_text(f"{seat_label(st, seat)} to play")
        world.take_back(seat, [wrong])
        world.lay(seat, [right])
        declare(page, right, "")
        expect(page.locator("#top")).to_have_attribute("data-card", right)
        st = table.settle()
        assert st["top"] == right and st["waiting"]["seat"] != seat
        assert world.check(st) == []
