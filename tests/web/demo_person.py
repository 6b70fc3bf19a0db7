"""The person at `unotable demo --serve`, over HTTP as the page sends it: a running
`ScreenDemo` in a thread (`running`), `post`/`state` to its API, and `play_turn`, one
decision the person's page would send (a legal card, else the launcher button)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from firmware.screen_demo import ScreenDemo
from firmware.sim.players import private_view
from uno_core import Play, format_card, legal_actions


@contextmanager
def running(demo: ScreenDemo) -> Iterator[dict[str, Any]]:
    """`demo` runs in a thread until the block ends; yields {"rc": exit status} once it ended."""
    ended: dict[str, Any] = {}
    runner = threading.Thread(  # ScreenDemo's own run, also for a subclass that wraps it
        target=lambda: ended.setdefault("rc", ScreenDemo.run(demo, signals=False)), daemon=True)
    runner.start()
    try:
        deadline = time.monotonic() + 20
        while demo.daemon.server is None or demo.daemon.server.port == 0:
            assert time.monotonic() < deadline, "the screen demo did not start"
            assert runner.is_alive(), f"the screen demo ended: {ended}"
            time.sleep(0.02)
        ended["thread"] = runner
        yield ended
    finally:
        demo.stop()
        runner.join(20)


def base(demo: ScreenDemo) -> str:
    assert demo.daemon.server is not None
    return demo.daemon.server.url


def post(demo: ScreenDemo, path: str, body: dict[str, Any],
         lang: str | None = None) -> tuple[int, dict[str, Any]]:
    """`lang`: the answer's language (``Accept-Language``)."""
    url = base(demo)
    headers = {"Content-Type": "application/json", "Origin": url}
    if lang is not None:
        headers["Accept-Language"] = lang
    req = urllib.request.Request(url + path, data=json.dumps(body).encode(), method="POST",
                                 headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            return resp.status, json.load(resp)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def state(demo: ScreenDemo) -> dict[str, Any]:
    with urllib.request.urlopen(base(demo) + "/api/state", timeout=10) as resp:
        return json.load(resp)


def wait_for(demo: ScreenDemo, test: Any, what: str, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        st = state(demo)
        if test(st):
            return st
        assert time.monotonic() < deadline, f"never: {what} (last waiting {st['waiting']})"
        time.sleep(0.01)


def persons_wait(st: dict[str, Any], person: int = 0) -> bool:
    """Whether the table waits for the person: their seat's decision, or their tap on
    "next round" under a round's result (no bot taps it for them)."""
    w = st["waiting"]
    return w.get("seat") == person or w["kind"] == "round-over"


def play_turn(demo: ScreenDemo, st: dict[str, Any], person: int = 0) -> None:
    """What the person's page sends for the wait in `st` (which is theirs)."""
    w = st["waiting"]
    hand = st["screen_hands"][str(person)]
    if w["kind"] == "turn":
        assert demo.controller is not None
        view = private_view(demo.controller.state, person, hand,
                            demo.world.received.get(person, []))
        plays = [a for a in legal_actions(view) if isinstance(a, Play) and a.seat == person
                 and not a.uno and not a.target >= 0 and not a.towers and not a.laid]
        if not plays:
            post(demo, "/api/screen/launcher", {})
            return
        play = plays[0]
        body: dict[str, Any] = {"seat": person, "card": format_card(play.card)}
        if play.colour:
            body["choices"] = {"color": {"R": "red", "G": "green", "B": "blue",
                                         "Y": "yellow"}[play.colour]}
        post(demo, "/api/play", body)
    elif w["kind"] == "round-over":
        post(demo, "/api/next-round", {})
    elif w["kind"] == "hand":
        post(demo, "/api/hands", {"seat": person, "cards": hand})
    elif w["kind"] == "colour":
        post(demo, "/api/decide", {"seat": person, "decision": "colour", "color": "red"})
    elif w["kind"] in ("press", "challenge"):
        post(demo, "/api/screen/launcher", {})
    elif w["kind"] in ("play-drawn", "extra-play", "four-towers"):
        post(demo, "/api/decide", {"seat": person, "decision": "pass"})
