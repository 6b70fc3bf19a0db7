"""`unotable demo --serve`: a person plays a whole match in the browser next to bots.

The daemon runs on the twin with bots at seats 1 and 2; the test is the person at seat 0,
who sees only the page: the cards the launcher delivered to them are on the screen, they
play by tapping those cards, draw with the on-screen launcher button, say UNO and enter
their hand at a round's end, until the match is over.
"""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request

from playwright.sync_api import expect

from firmware.screen_demo import ScreenDemo
from firmware.sim.players import private_view
from uno_core import Play, format_card, legal_actions


def get_state(url: str) -> dict:
    with urllib.request.urlopen(url.split("/?")[0] + "/api/state", timeout=5) as resp:
        return json.load(resp)


def test_a_person_plays_a_whole_match_in_the_browser_next_to_bots(page, tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, options={"target_score": 100},
                      fast=True, pace=0.0, directory=tmp_path)
    runner = threading.Thread(target=demo.run, kwargs={"signals": False}, daemon=True)
    runner.start()
    try:
        deadline = time.monotonic() + 20
        while demo.daemon.server is None or demo.daemon.server.port == 0:
            assert time.monotonic() < deadline, "the screen demo did not start"
            time.sleep(0.02)
        page.goto(demo.url)
        expect(page.locator("#conn")).to_have_text("live")
        pick = random.Random(2)
        plays = presses = entered = 0
        for _ in range(3000):
            st = get_state(demo.url)
            if st["phase"] == "match_over":
                break
            w = st["waiting"]
            hand = st["screen_hands"]["0"]
            if w["kind"] == "round-over":  # the round's result stays until the person taps
                page.click("#next-round")
                expect(page.locator("#ends")).to_be_hidden()
                continue
            if w.get("seat") != 0:
                time.sleep(0.01)
                continue
            if w["kind"] == "turn":
                expect(page.locator("#waiting")).to_have_text("Your turn")  # page caught up
                expect(page.locator("#hand [data-hand]")).to_have_count(len(hand))
                view = private_view(demo.controller.state, 0, hand, demo.world.received.get(0, []))
                options = [a for a in legal_actions(view) if isinstance(a, Play) and a.seat == 0 and not a.uno]
                if not options:
                    page.click("#press-launcher")
                    presses += 1
                    # the draw is in once the hand on the screen grew (the turn may be
                    # back already: the bots play without a pause)
                    deadline = time.monotonic() + 10
                    while len(get_state(demo.url)["screen_hands"]["0"]) <= len(hand):
                        assert time.monotonic() < deadline, "the drawn card never came"
                        time.sleep(0.01)
                    continue
                if len(hand) == 2:
                    page.click("#arm-uno")
                    expect(page.locator("#arm-uno")).to_have_text("UNO said ✓")
                play = pick.choice(options)
                card = format_card(play.card)
                page.click(f'#hand [data-hand="{card}"]')
                if play.colour:
                    page.click(f'[data-choose-colour="{play.colour}"]')
                page.click("#confirm")
                expect(page.locator("#sheet")).to_be_hidden()
                plays += 1
            elif w["kind"] == "hand":
                page.click("#enter-hand")  # the cards on the screen are filled in
                expect(page.locator("[data-entered]")).to_have_count(len(hand))
                page.click("#confirm")
                expect(page.locator("#sheet")).to_be_hidden()
                entered += 1
            elif w["kind"] == "colour":
                page.click('[data-first-colour="R"]')
            elif w["kind"] == "press":
                page.click("#press-launcher")
                presses += 1
            time.sleep(0.01)
        st = get_state(demo.url)
        assert st["phase"] == "match_over" and st["round"] >= 2 and max(st["scores"]) >= 100
        assert plays >= 10 and presses >= 1 and entered >= 1
        assert demo.world.agree, demo.world.mismatches
        expect(page.locator("#waiting")).to_contain_text("Match over")
        expect(page.locator("#waiting")).to_contain_text(
            ", ".join(f"{st['names'][w]} (seat {w + 1})" if st["names"][w] else "" for w in st["winners"]))
    finally:
        demo.stop()
        runner.join(20)


def test_bad_serve_arguments_name_the_option_and_start_nothing(capsys):
    from firmware.cli import main

    for argv, says in [
        (["--seat", "5"], "--seat 5: the table has seats 1-4"),
        (["--seat", "0"], "--seat 0: the table has seats 1-4"),
        (["--port", "70000"], "--port 70000: a TCP port 1-65535"),
        (["--json"], "no --json or --journal"),
        (["--variant", "power", "--players", "7"], "--players 7: power is for 2-6 players"),
    ]:
        assert main(["demo", "--serve", *argv]) == 2
        assert says in capsys.readouterr().err


def test_the_twin_gives_the_person_the_cards_of_a_declaration_taken_back(tmp_path, mock_factory):
    from firmware.screen_demo import ScreenTable
    from firmware.sim.demo import sim_config
    from firmware.sim.world import World

    config = sim_config("attack", 3, 1, tmp_path / "journal.db")
    world = World("attack", 3, 1, launcher=config.hardware["launcher"],
                  panel=config.hardware["seats"], factory=mock_factory)

    class Referee:  # what ScreenTable reads of the controller: its listeners and state
        listeners: list = []
        state = None

    ScreenTable(Referee(), world, person=0)  # it listens to the referee
    world.hands[0] = ["R1", "R5", "RDA"]
    world.lay(0, ["R1", "R5", "RDA"])
    for listener in Referee.listeners:  # the daemon: seat 0 took back its Discard All
        listener({"kind": "undone", "seat": 0, "card": "RDA", "laid": ["R1", "R5"]})
    assert sorted(world.hands[0]) == ["R1", "R5", "RDA"] and world.discard == []
