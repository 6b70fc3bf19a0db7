"""The simulated players at a table with a card pad: a bot taps the card it plays on
the twin's pad (`hal.sim.pad.SimPad`), then what the table asks for it, as a person
would: a colour chip for a wild, the named seat's button for a card that names one,
each tower a card takes (the tray's tags), each other card Discard All lays and then its
own button; holding the four towers, each card it lays down. It reads the table's
answer off its events. A jump-in is the jumper's own button, then the tap. Every play
goes through the pad while it answers; while it is down, plays go by the API."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Mapping
from typing import Any

from firmware.api import requests as api
from firmware.controller.actions import colour
from firmware.errors import Rejected
from firmware.sim.api_client import Answered
from firmware.sim.world import World
from hal.sim.pad import chip_uid

ANSWERS = ("action", "refused", "pad_waits", "pad_read", "pad")  # the table's answers
WAITS = ("pad_waits", "pad_read")  # the play waits for more


def tappable(world: World, ctl: Any, request: api.Request) -> bool:
    """Whether `request` is a declaration the bots tap on the pad (a pad that answers):
    a play, or the four-tower discard."""
    if world.pad_sim is None:
        return False
    if not isinstance(request, api.Play) and not (
            isinstance(request, api.Decide) and request.decision == "four-towers"):
        return False
    pad = ctl.lookup("pad")
    return pad is not None and pad.get_status()["down"] is None


def jump_pressable(world: World, st: Mapping[str, Any]) -> bool:
    """Whether a bot may jump in now: at a pad's table the jumper's own button opens the
    window, and while a seat is open to a catch that button calls or catches instead."""
    return world.pad_sim is None or st.get("uno_exposed") is None


def copies_to_tap(world: World, codes: list[str]) -> list[str]:
    """The tags of the copies of `codes` laid by this play: the world has laid them on
    the pile already, so they are the last copies of each code there."""
    pad = world.pad_sim
    assert pad is not None
    total, seen = Counter(codes), Counter[str]()
    out = []
    for code in codes:
        tags = pad.tags_of(code)
        index = world.discard.count(code) - total[code] + seen[code]
        out.append(tags[min(max(index, 0), len(tags) - 1)])
        seen[code] += 1
    return out


async def tap_play(world: World, ctl: Any, request: api.Play | api.Decide) -> dict[str, Any]:
    """Tap `request`'s cards (and its chip, its seat, its towers); the table's answer,
    as the API gives it, or Rejected with the pad's reason."""
    heard: list[Mapping[str, Any]] = []
    ctl.listeners.append(heard.append)
    try:
        said = await _tap_all(world, ctl, heard, request)
    finally:
        ctl.listeners.remove(heard.append)
    if said["kind"] == "pad":  # the pad went down under the card: the bot declares it
        return dict(ctl.submit(request))
    if said["kind"] == "refused":
        raise Answered(said)
    if said["kind"] != "action":
        raise Rejected("sim.pad_waits", message=str(said.get("message")))
    return {"accepted": said["action"], "effects": said["effects"], "step": said["step"]}


async def _tap_all(world: World, ctl: Any, heard: list[Mapping[str, Any]],
                   request: api.Play | api.Decide) -> Mapping[str, Any]:
    seats = world.seats_sim
    if isinstance(request, api.Decide):  # the four-tower discard: its cards, one by one
        card, choices, laid = None, {}, list(copies_to_tap(world, list(request.cards)))
    else:
        choices = dict(request.choices)
        codes = [*choices.get("cards", ()), request.card]  # as the world laid them
        *laid, card = copies_to_tap(world, codes)
        if request.seat != ctl.state.to_act:  # a jump-in: the jumper's own button first
            since = len(heard)
            seats.press_seat(request.seat)
            await _answer(heard, since)
    towers = [world.tray_sim.towers[t] for t in choices.get("towers", ())]
    said = await _tap(world, ctl, heard, card if card is not None else laid.pop(0))
    while said["kind"] in WAITS:
        wants = said.get("wants")
        if wants == "colour":
            said = await _tap(world, ctl, heard, chip_uid(colour(choices.get("color", ""))))
        elif wants == "towers" and towers:
            said = await _tap(world, ctl, heard, towers.pop(0))
        elif wants == "cards" and laid:
            said = await _tap(world, ctl, heard, laid.pop(0))
        elif wants in ("seat", "cards"):  # the named seat; the player's own: that was all
            since = len(heard)
            seats.press_seat(int(choices.get("target", request.seat)) if wants == "seat"
                             else request.seat)
            said = await _answer(heard, since)
        else:
            raise RuntimeError(f"the bot has no answer for what the pad waits for: {said}")
    return said


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
