"""The simulated players at a table with a card pad: a bot taps the card it plays on
the twin's pad (`hal.sim.pad.SimPad`), then a colour chip for a wild and the named
seat's button for a card that names one, as a person would, and reads the table's
answer off its events. A jump-in is the jumper's own button, then the tap. Plays the pad cannot take (several cards laid at once, towers
named) still go by the API, as do all plays while the pad is down."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from firmware.api import requests as api
from firmware.controller.actions import colour
from firmware.errors import Rejected
from firmware.sim.api_client import Answered
from firmware.sim.world import World
from hal.sim.pad import chip_uid

ANSWERS = ("action", "refused", "pad_waits", "pad")  # what the table says after a tap


def tappable(world: World, ctl: Any, request: api.Request) -> bool:
    """Whether `request` is a play the bots tap on the pad (a pad that answers)."""
    if world.pad_sim is None or not isinstance(request, api.Play):
        return False
    pad = ctl.lookup("pad")
    if pad is None or pad.get_status()["down"] is not None:
        return False
    return not request.choices.get("cards") and not request.choices.get("towers")


def copy_to_tap(world: World, code: str) -> str:
    """The tag of a copy of `code` not yet on the pile: the world has laid the card
    already, so the copies on the pile before it are one fewer."""
    pad = world.pad_sim
    assert pad is not None
    tags = pad.tags_of(code)
    return tags[min(max(world.discard.count(code) - 1, 0), len(tags) - 1)]


async def tap_play(world: World, ctl: Any, request: api.Play) -> dict[str, Any]:
    """Tap `request`'s card (and its chip, its seat); the table's answer, as the API
    gives it, or Rejected with the pad's reason."""
    heard: list[Mapping[str, Any]] = []
    ctl.listeners.append(heard.append)
    try:
        if request.seat != ctl.state.to_act:  # a jump-in: the jumper's own button first
            since = len(heard)
            world.seats_sim.press_seat(request.seat)
            await _answer(heard, since)
        said = await _tap(world, ctl, heard, copy_to_tap(world, request.card))
        if said["kind"] == "pad_waits" and said.get("wants") == "colour":
            said = await _tap(world, ctl, heard, chip_uid(colour(request.choices.get("color", ""))))
        if said["kind"] == "pad_waits" and said.get("wants") == "seat":
            seats = world.seats_sim
            since = len(heard)
            seats.press_seat(int(request.choices.get("target", -1)))
            said = await _answer(heard, since)
    finally:
        ctl.listeners.remove(heard.append)
    if said["kind"] == "pad":  # the pad went down under the card: the bot declares it
        return dict(ctl.submit(request))
    if said["kind"] == "refused":
        raise Answered(said)
    if said["kind"] != "action":
        raise Rejected("sim.pad_waits", message=str(said.get("message")))
    return {"accepted": said["action"], "effects": said["effects"], "step": said["step"]}


async def _tap(world: World, ctl: Any, heard: list[Mapping[str, Any]], uid: str
               ) -> Mapping[str, Any]:
    pad = world.pad_sim
    assert pad is not None
    # as a person lays the next card once the last is off: a read of the empty pad comes
    # between two taps (else a card lifted and laid again within one read is one tap)
    while ctl.hw.pad.on_pad:
        await asyncio.sleep(0.001)
    since = len(heard)
    pad.hold(uid)
    try:
        return await _answer(heard, since)
    finally:
        pad.lift()


async def _answer(heard: list[Mapping[str, Any]], since: int) -> Mapping[str, Any]:
    """The table's first answer after `since` (the pad's watcher posts into this loop)."""
    while True:
        for event in heard[since:]:
            if event.get("kind") in ANSWERS and not event.get("ok"):  # (the pad up again: no)
                return event
        await asyncio.sleep(0.001)
