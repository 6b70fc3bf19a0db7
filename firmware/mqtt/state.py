"""What the table tells Home Assistant: the state document and the events.

The state is one retained JSON document on the ``state`` topic, rebuilt whole at every
change; Home Assistant's entities read their field through value templates
(firmware.mqtt.discovery). `state_document` checks that the controller's values fit the
entities (an enum sensor shows "unknown" for a value outside its options).
An event is ``{"event_type": one of EVENT_TYPES, ...details}``, Home Assistant's event
entity's own payload.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

EDITIONS = ("classic", "power", "attack", "extreme")
PHASES = ("idle", "dealing", "playing", "paused", "round_over", "match_over", "stopped")
COLOURS = ("red", "yellow", "green", "blue", "black")
HOPPER = ("loaded", "empty", "unknown")
TOWERS = ("U", "N", "O", "!")
EVENT_TYPES = ("card_played", "uno_called", "caught", "round_won", "match_won", "jam")


def state_document(*, edition: str, phase: str, seats: Sequence[Mapping[str, Any]],
                   turn: str | None = None, top_card: str | None = None,
                   colour: str | None = None, round: int = 0,  # noqa: A002 - the field's name
                   towers: Mapping[str, str] | None = None, ejected: int = 0,
                   hopper: str = "unknown", fault: str | None = None,
                   readers_down: Sequence[str] = (), match_running: bool = False,
                   ) -> dict[str, Any]:
    """The state document. `seats` is one ``{"name", "score", "cards"}`` per seat in
    order; `towers` maps U/N/O/! to a seat's name or "neutral"; `fault` says what is
    wrong (a jam, a stopped motor) or is None; `readers_down` names the tray's readers
    that do not answer."""
    _one_of("edition", edition, EDITIONS)
    _one_of("phase", phase, PHASES)
    _one_of("hopper", hopper, HOPPER)
    if colour is not None:
        _one_of("colour", colour, COLOURS)
    listed = [{"name": str(s["name"]), "score": int(s.get("score", 0)),
               "cards": int(s.get("cards", 0))} for s in seats]
    places = dict(towers or {})
    if set(places) - set(TOWERS):
        raise ValueError(f"towers are {', '.join(TOWERS)}, not {sorted(set(places) - set(TOWERS))}")
    return {
        "edition": edition, "phase": phase, "turn": turn, "top_card": top_card,
        "colour": colour, "round": int(round), "match_running": bool(match_running),
        "scores": {s["name"]: s["score"] for s in listed}, "seats": listed,
        "towers": {t: places.get(t, "neutral") for t in TOWERS}, "ejected": int(ejected),
        "hopper": hopper, "fault": fault, "readers_down": list(readers_down),
    }


def event_document(event_type: str, **details: Any) -> dict[str, Any]:
    """One event for Home Assistant's event entity (``seat``, ``card``... as details)."""
    _one_of("event_type", event_type, EVENT_TYPES)
    return {"event_type": event_type, **details}


def _one_of(name: str, value: str, choices: Sequence[str]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
