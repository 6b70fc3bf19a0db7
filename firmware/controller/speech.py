"""The table's voice hooked to the controller's events (docs/voice.md, "Wiring").

Every published event goes through `firmware.announce.announcements` in the table's
`[table] language`, naming seats by the match's names, and the sentences are queued on
the daemon's `Voice` (never blocking the loop). A silent or disabled voice costs nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from firmware.announce import announcements, turn_of
from firmware.controller.context import Context

Listener = Callable[[Mapping[str, Any]], None]


def voice_listener(voice: Any, ctl: Context) -> Listener:
    """A listener for the table's listeners that speaks on `voice` (the daemon's
    `Voice`) what each event announces."""
    language = ctl.config.table.language

    def speak(event: Mapping[str, Any]) -> None:
        if not voice.active:
            return
        state = ctl.state
        voice.say_all(announcements(
            event, language, ctl.names,
            edition=None if state is None else state.edition.name,
            scoring="winner_takes" if state is None else state.options.scoring,
            turn=turn_of(state)))

    return speak
