"""`unotable demo --serve --pad`: the person declares on the screen while the bots tap
their cards on the twin's pad; the journal tells the two ways apart."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.request

from firmware.journal.store import Journal
from firmware.screen_demo import ScreenDemo
from firmware.sim.players import private_view
from uno_core import Play, format_card, legal_actions
from uno_core.cards import COLOUR_NAMES


def call(demo: ScreenDemo, path: str, body: dict | None = None) -> dict:
    url = f"http://127.0.0.1:{demo.daemon.server.port}{path}"
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as resp:
        return json.load(resp)


def test_demo_serve_with_the_pad_the_bots_tap_and_the_person_declares_on_the_screen(tmp_path):
    demo = ScreenDemo("classic", 3, seed=5, person=0, port=0, fast=True, pace=0.0,
                      directory=tmp_path, pad=True)
    runner = threading.Thread(target=demo.run, kwargs={"signals": False}, daemon=True)
    runner.start()
    try:
        while demo.daemon.server is None or demo.daemon.server.port == 0:
            time.sleep(0.02)
        person_plays = 0
        while person_plays < 3:
            st = call(demo, "/api/state")
            w = st["waiting"]
            if w["kind"] == "round-over":
                break
            if w.get("seat") != 0 or w["kind"] != "turn":
                time.sleep(0.01)
                continue
            hand = st["screen_hands"]["0"]
            view = private_view(demo.controller.state, 0, hand, demo.world.received.get(0, []))
            plays = [a for a in legal_actions(view) if isinstance(a, Play) and a.seat == 0
                     and not a.uno]
            if not plays:
                call(demo, "/api/screen/launcher", {})
                while call(demo, "/api/state")["step"] == st["step"]:
                    time.sleep(0.01)
                continue
            play = plays[0]
            choices = {"color": COLOUR_NAMES[play.colour]} if play.colour else {}
            call(demo, "/api/play", {"seat": 0, "card": format_card(play.card),
                                     "choices": choices})
            person_plays += 1
        # the bots' plays after the person's last one are in too
        while call(demo, "/api/state")["waiting"].get("seat") == 0:
            time.sleep(0.01)
    finally:
        demo.stop()
        runner.join(20)
    assert person_plays >= 1
    with contextlib.closing(Journal.open(tmp_path / "journal.db", readonly=True)) as journal:
        plays = [e.payload for e in journal.entries() if e.kind == "action"
                 and e.payload.get("type") == "play"]
    ways = {(p["seat"], (p.get("by") or {}).get("via")) for p in plays}
    assert {way for seat, way in ways if seat == 0} == {None}  # the person: the screen
    assert {way for seat, way in ways if seat != 0} == {"pad"}  # the bots: the pad
    assert demo.world.agree, demo.world.mismatches
