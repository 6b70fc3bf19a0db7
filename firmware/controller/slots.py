"""Where a tower stands, in one vocabulary: a tray slot (`hal.tray.Slot`), a seat number
or `NEUTRAL` (``"neutral"``), as the tray reports it and as the API, the journal, the
events and the screen say it (`uno_core.public_state` says it alike: `NEUTRAL_SLOT`).

The engine says the neutral slot as -1 (`uno_core.effects.NEUTRAL`: uno_core and hal
may not import each other). `slot_of` is the one place where an engine seat becomes a
slot, and `effects_json` the one place an effect leaves the table with its seat as one;
nothing else in firmware compares a tower's place with -1.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from firmware.words.messages import Words
from hal.tray import NEUTRAL, Slot
from uno_core import effects as E
from uno_core.effects import NEUTRAL as ENGINE_NEUTRAL

__all__ = ["NEUTRAL", "Slot", "effects_json", "slot_name", "slot_of"]


def slot_of(seat: int) -> Slot:
    """The tray slot of an engine seat (a tower's owner, a `TowerMoved` effect's seat)."""
    return NEUTRAL if seat == ENGINE_NEUTRAL else seat


def effects_json(fx: Iterable[E.Effect]) -> list[dict[str, Any]]:
    """Effects as the table sends them (API answers, the `action` event): each as
    `effect_to_dict` gives it, but a `tower_moved` says where the tower goes as a slot."""
    fx = list(fx)
    out = E.effects_to_dicts(fx)
    for effect, data in zip(fx, out, strict=True):
        if isinstance(effect, E.TowerMoved):
            data["seat"] = slot_of(effect.seat)
    return out


def slot_name(slot: Slot | None, words: Words) -> str:
    """How people hear a slot: "the neutral slot", a seat as `words` names it ("North",
    "seat 2" numbered from 1), "nowhere" for a tower off the tray (None)."""
    if slot == NEUTRAL:
        return words("slot.neutral")
    if slot is None:
        return words("slot.nowhere")
    return words.seat(int(slot))
