"""`unotable demo --serve` survives every request a person can send from its page.

The page of the demo can send what any table's page sends: plays and decisions for any
seat, the launcher button at any time, the table's chores (counting, turning cards,
towers), a pause and a new match. The demo answers each with a clear refusal or does
it, and the bots play on with world and referee agreeing (issue 21, point 7; before,
a play for a bot's seat or the launcher pressed in a bot's turn answered 200 and the
demo then died with "empty range for randrange()").
"""

from __future__ import annotations

import time

from firmware.screen_demo import ScreenDemo
from tests.web.demo_person import play_turn, post, running, state, wait_for


def bots_turn(st: dict) -> bool:
    w = st["waiting"]
    return w["kind"] == "turn" and w.get("seat") not in (None, 0)


def test_every_request_for_a_bot_or_the_twin_is_refused_and_the_bots_play_on(tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=1.5,
                      directory=tmp_path)
    with running(demo) as ended:
        st = wait_for(demo, bots_turn, "a bot's turn")
        bot = st["waiting"]["seat"]
        step = st["step"]
        fits = f"{st['colour']}1" if st["colour"] in "RGBY" and st["colour"] else "R1"
        mine = st["screen_hands"]["0"][0]
        asked = {
            "launcher in a bot's turn": ("/api/screen/launcher", {}),
            "a bot's play": ("/api/play", {"seat": bot, "card": fits}),
            "a bot's wild": ("/api/play", {"seat": bot, "card": "W", "choices": {"color": "red"}}),
            "a bot's decision": ("/api/decide", {"seat": bot, "decision": "pass"}),
            "a bot's challenge": ("/api/challenge", {"seat": bot}),
            "a bot's UNO": ("/api/uno", {"seat": bot}),
            "a bot catching": ("/api/catch", {"seat": bot, "target": 0}),
            "a bot's hand": ("/api/hands", {"seat": bot, "cards": []}),
            "a bot's undo": ("/api/undo", {"seat": bot}),
            "a card turned": ("/api/reveal", {"card": "R1"}),
            "a dealer card": ("/api/reveal", {"card": "R1", "seat": bot}),
            "cards counted": ("/api/admin/override", {"kind": "cards-out", "count": 3}),
            "a tower seen": ("/api/admin/override", {"kind": "tower-seen", "tower": "U"}),
            "an alarm cleared": ("/api/admin/override", {"kind": "clear-alarm"}),
            "my play out of turn": ("/api/play", {"seat": 0, "card": mine}),
            "my undo": ("/api/undo", {"seat": 0}),
            "next round": ("/api/next-round", {}),
        }
        for what, (path, body) in asked.items():
            status, answer = post(demo, path, body)
            assert 400 <= status < 500, f"{what}: {status} {answer}"
            assert answer["reason"], what
        assert state(demo)["step"] == step, "a refused request changed the table"
        # the bot's seat words: the person is told whose seat it is
        answer = post(demo, "/api/play", {"seat": bot, "card": fits})[1]
        assert (answer["key"], answer["values"]) == ("demo.only_yours", {"number": 1, "other": bot})
        assert post(demo, "/api/screen/launcher", {})[1]["key"] == "demo.bots_turn"
        # the bots play on until it is the person's turn, world and referee agreeing
        wait_for(demo, lambda s: s["waiting"].get("seat") == 0 and s["step"] > step,
                 "the bots played on to the person's turn")
        assert ended["thread"].is_alive() and demo.world.agree, demo.world.mismatches


def test_a_pause_from_the_page_holds_the_bots_until_resume(tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, fast=True, pace=0.3,
                      directory=tmp_path)
    with running(demo) as ended:
        wait_for(demo, bots_turn, "a bot's turn")
        assert post(demo, "/api/admin/pause", {})[0] == 200
        step = state(demo)["step"]
        time.sleep(1.2)  # the bot to play would have played by now
        assert state(demo)["step"] == step and state(demo)["waiting"]["kind"] == "paused"
        assert post(demo, "/api/admin/resume", {})[0] == 200
        wait_for(demo, lambda s: s["step"] > step, "the bots went on after resume")
        assert ended["thread"].is_alive() and demo.world.agree, demo.world.mismatches


def first_turn(demo: ScreenDemo, match: int) -> tuple[str, list[str]]:
    """The first card and the person's hand at match `match`'s first turn."""
    st = wait_for(demo, lambda s: s["match"]["id"] == match and s["waiting"]["kind"] == "turn",
                  f"match {match}'s first turn")
    return st["top"], sorted(st["screen_hands"]["0"])


def test_start_new_match_after_the_match_ended_deals_another_game(tmp_path):
    demo = ScreenDemo("classic", 3, seed=12, person=0, port=0, options={"target_score": 1},
                      fast=True, pace=0.0, directory=tmp_path)
    with running(demo) as ended:
        dealt = first_turn(demo, 1)
        deadline = time.monotonic() + 120
        while (st := state(demo))["phase"] != "match_over":
            assert time.monotonic() < deadline, "the one-round match did not end"
            if st["waiting"].get("seat") == 0:
                play_turn(demo, st)
            time.sleep(0.01)
        assert st["options"]["target_score"] == 1
        status, answer = post(demo, "/api/admin/new-match", {})
        assert status == 200, answer
        # the bots and the twin turn the dealer cards, shuffle and deal: the person's turn comes
        again = first_turn(demo, 2)
        assert again != dealt, "the new match dealt the same game as the first"
        assert ended["thread"].is_alive() and demo.world.agree, demo.world.mismatches


def test_serve_flags_without_serve_and_rounds_with_it_are_refused_naming_the_flag(capsys):
    from firmware.cli import main

    for argv, says in [
        (["--seat", "2"], "--seat 2: only with --serve"),
        (["--port", "9000"], "--port 9000: only with --serve"),
        (["--serve", "--rounds", "3"], "--rounds 3: --serve plays the match to its target score"),
        (["--serve", "--option", "target_score=0"], "--option target_score"),
        (["--serve", "--option", "nonsense=1"], "--option nonsense"),
    ]:
        assert main(["demo", *argv]) == 2, argv
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1, err


def test_serve_plays_the_match_with_the_options_it_is_given(tmp_path, monkeypatch):
    """`demo --serve --option target_score=60`: the served table plays to 60 (it stayed 500)."""
    import socket

    from firmware.cli import main

    seen: dict = {}

    class Watched(ScreenDemo):  # the real demo, stopped once its table answered
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**kwargs, "directory": tmp_path})

        def run(self, *, signals=True):
            with running(self):
                seen.update(wait_for(self, lambda s: s["options"], "the state"))
            return 0

    monkeypatch.setattr("firmware.screen_demo.ScreenDemo", Watched)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["demo", "--serve", "--fast", "--port", str(port), "--option",
                 "target_score=60", "--option", "seven_zero=true"]) == 0
    assert seen["options"]["target_score"] == 60 and seen["options"]["seven_zero"] is True


def test_the_demo_log_says_you_play_and_south_plays():
    from types import SimpleNamespace

    from firmware.sim.players import Narrator

    log = Narrator(["You", "East", "South"], SimpleNamespace(step=4, state=None), None)
    said = [log.describe({"kind": "action", "action": action, "effects": []}) for action in (
        {"type": "play", "seat": 0, "card": "B6"}, {"type": "play", "seat": 2, "card": "B7"},
        {"type": "press", "seat": 0}, {"type": "catch", "seat": 0, "target": 1},
        {"type": "pass", "seat": 0}, {"type": "four_tower_discard", "seat": 0, "laid": ["R1"]})]
    assert said == ["[4] You play B6", "[4] South plays B7", "[4] You press the launcher",
                    "[4] You catch East", "[4] You pass",
                    "[4] You hold all four towers and lay R1"]


def test_the_english_legend_names_every_card_in_english():
    from firmware.sim.demo import card_legend

    legend = card_legend("extreme")
    assert "WX Wild Extreme Move" in legend and "Extremer" not in legend


def test_the_demo_log_numbers_every_step_counts_cards_and_warns_only_with_news():
    from types import SimpleNamespace

    from firmware.sim.players import Narrator

    options = SimpleNamespace(turn_timer_s=2, stack_draws="off")
    log = Narrator(["North", "East"], SimpleNamespace(step=11, state=SimpleNamespace(options=options)),
                   None)
    eject = {"kind": "action", "action": {"type": "eject", "count": 0},
             "effects": [{"type": "ejected", "seat": 1, "count": 0}]}
    assert log.describe(eject) == "[11] the launcher fires no cards at East"  # no gap [10]->[12]
    assert log.describe({"kind": "ejected", "job": "fire", "seat": 1, "counted": 0}) is None
    assert log.describe({"kind": "ejected", "job": "deal", "seat": 0, "counted": 1}) == (
        "      dealt: 1 card to North")  # not "1 card(s)"
    assert log.describe({"kind": "ejected", "job": "turn", "seat": 0, "counted": 1}) == (
        "      the first card comes out at North")
    warning = {"kind": "turn_warning", "seat": 0, "left_s": 2, "message": "North: 2 seconds left"}
    assert log.describe(warning) is None  # a 2 s timer warns as every turn starts: no news
    options.turn_timer_s = 30
    assert log.describe({**warning, "left_s": 5, "message": "North: 5 seconds left"}) == (
        "  !   North: 5 seconds left")
