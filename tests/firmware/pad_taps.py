"""What the card pad's tests do at the simulated table: tap tags and wait for the table's
answer, check a refusal changed nothing, find a card that fits."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uno_core as U
from firmware.sim.world import pad_deck

NAMES = ("North", "East", "South", "West")
ANSWERS = ("action", "refused", "pad_waits", "pad_read")  # what the table says after a tap


def turn(table):
    return table.play_until(lambda st: st["waiting"]["kind"] == "turn")


def fits(table, seat: int, code: str) -> bool:
    """Whether the engine takes `code` from `seat` now (on a copy: nothing changes)."""
    def check() -> bool:
        try:
            U.apply(table.controller.state.clone(), U.Play(seat, U.parse_card(code)))
        except U.IllegalAction:
            return False
        return True
    return bool(table.call(check))


def number_card(table, seat: int, *, fitting: bool, edition: str = "classic") -> str:
    """A number card the seat holds that fits (or, `fitting` false, any number card of
    the deck that does not)."""
    pool = table.world.hands[seat] if fitting else pad_deck(edition)
    return next(c for c in pool if U.parse_card(c).kind == "#" and fits(table, seat, c) == fitting)


def tap(table, *uids: str):
    """Lay `uids` on the pad together, wait for what the table says, lift them, and let
    the pad forget them (a tag seen again within `same_tap_s` is the same tap)."""
    since = len(table.events)
    pad = table.world.pad_sim
    pad.hold(*uids)
    said = table.wait_for_event(lambda e: e.get("kind") in ANSWERS, since=since)
    pad.lift()
    time.sleep(0.05)  # reads see the pad empty: the next tap of a tag is a new one
    table.settle()
    return said


def actions(table):
    match = table.controller.match
    return [e for e in table.controller.journal.entries(match_id=match.id) if e.kind == "action"]


def part_status(table):
    return table.call(lambda: table.controller.lookup("pad").get_status())


def panel(table):
    return table.controller.hw.get_status()["seats"]


def unchanged(table):
    """The table's state and journal, to compare before and after a refusal."""
    st = table.state()
    return table.journal_seq, {k: v for k, v in st.items() if k != "stats"}


def refused(table, *uids: str) -> str:
    """Tap `uids`: the pad refuses, with the buzzer's error pattern and the seat's light
    blinking, and nothing changes. The reason."""
    before = unchanged(table)
    seat = table.state()["waiting"].get("seat")
    said = tap(table, *uids)
    assert said["kind"] == "refused", said
    assert unchanged(table) == before
    assert panel(table)["buzzer"] == "error"
    if isinstance(seat, int):
        assert panel(table)["seats"][seat]["light"] == "blink"
    return str(said["reason"])


class Recorder:
    """A speaker that says everything at once into a list (the voice's worker thread)."""

    def __init__(self) -> None:
        self.said: list[str] = []
        self.spoke = threading.Condition()

    def problem(self) -> None:
        return None

    def speak(self, text: str) -> None:
        with self.spoke:
            self.said.append(text)
            self.spoke.notify_all()

    def stop(self) -> None:
        pass


def said(speaker: Recorder, text: str) -> None:
    """Wait until the voice said a line holding `text` (the test runner's timeout ends a
    wait for a line that never comes)."""
    with speaker.spoke:
        speaker.spoke.wait_for(lambda: any(text in line for line in speaker.said))


@contextmanager
def twin_daemon(config: Any) -> Iterator[Any]:
    """`unotable run`'s daemon on `config`'s twin in a thread: yields a function that
    asks the running table for its health (on the daemon's loop)."""
    from firmware.daemon import Daemon  # noqa: PLC0415 - only the daemon tests need it
    from firmware.sim.twin import twin_factory  # noqa: PLC0415

    built: list = []
    make = twin_factory(config)

    def table(services: Any) -> Any:
        built.append(make(services))
        return built[-1]

    daemon = Daemon(config, table, env={})
    thread = threading.Thread(target=lambda: daemon.run(signals=False), daemon=True)
    thread.start()
    try:
        while not built or daemon.loop._aio is None:
            time.sleep(0.01)

        async def health() -> dict:
            return built[0].health()

        yield lambda: asyncio.run_coroutine_threadsafe(health(), daemon.loop._aio).result(20)
    finally:
        daemon.stop("test over")
        thread.join(20)
